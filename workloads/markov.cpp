#include "workloads/markov.hpp"

#include <cmath>
#include <map>

#include "core/error.hpp"
#include "core/format.hpp"
#include "workloads/text_lines.hpp"

namespace interflow::workloads {

namespace {

constexpr std::size_t kEnd = static_cast<std::size_t>(MarkovState::End);
constexpr std::array<const char*, kMarkovStates> kNames{"init", "comp", "comm", "read", "write", "end"};

using Row = std::array<double, kMarkovStates>;  // to Init, Comp, Comm, Read, Write, End

// Our choice where Fig. 4 of Navaridas et al. 2019 is not legible (manual/storage.md): Init leads
// to Comp and only Comp leads to End, as §3.3.4 describes; each profile leans on its kind of phase.
const std::map<std::string, MarkovMatrix>& profiles() {
  static const std::map<std::string, MarkovMatrix> table{
      {"balanced", {{Row{0, 1, 0, 0, 0, 0}, Row{0, 0, 0.4, 0.25, 0.25, 0.1}, Row{0, 0.8, 0.1, 0.05, 0.05, 0},
                     Row{0, 0.8, 0.1, 0.1, 0, 0}, Row{0, 0.8, 0.1, 0, 0.1, 0}, Row{}}}},
      {"io", {{Row{0, 1, 0, 0, 0, 0}, Row{0, 0, 0.1, 0.4, 0.4, 0.1}, Row{0, 0.8, 0, 0.1, 0.1, 0},
               Row{0, 0.5, 0, 0.3, 0.2, 0}, Row{0, 0.5, 0, 0.2, 0.3, 0}, Row{}}}},
      {"compute", {{Row{0, 1, 0, 0, 0, 0}, Row{0, 0.6, 0.2, 0.05, 0.05, 0.1}, Row{0, 1, 0, 0, 0, 0},
                    Row{0, 1, 0, 0, 0, 0}, Row{0, 1, 0, 0, 0, 0}, Row{}}}},
      {"comm", {{Row{0, 1, 0, 0, 0, 0}, Row{0, 0, 0.7, 0.1, 0.1, 0.1}, Row{0, 0.5, 0.5, 0, 0, 0},
                 Row{0, 1, 0, 0, 0, 0}, Row{0, 1, 0, 0, 0, 0}, Row{}}}},
  };
  return table;
}

// The states reachable from `from` (itself included), following non-zero probabilities forwards
// (or, with `backwards`, the states from which `from` is reachable).
std::array<bool, kMarkovStates> reach(const MarkovMatrix& m, std::size_t from, bool backwards) {
  std::array<bool, kMarkovStates> seen{};
  seen[from] = true;
  for (bool grew = true; grew;) {
    grew = false;
    for (std::size_t a = 0; a < kMarkovStates; ++a)
      for (std::size_t b = 0; b < kMarkovStates; ++b) {
        if (a == kEnd) continue;  // End's row is never used
        const std::size_t known = backwards ? b : a, next = backwards ? a : b;
        if (m.p[a][b] > 0 && seen[known] && !seen[next]) seen[next] = grew = true;
      }
  }
  return seen;
}

}  // namespace

const char* markov_state_name(MarkovState s) { return kNames[static_cast<std::size_t>(s)]; }

MarkovMatrix markov_profile(const std::string& name) {
  const auto it = profiles().find(name);
  if (it == profiles().end()) {
    std::string known;
    for (const auto& [n, m] : profiles()) known += (known.empty() ? "" : ", ") + n;
    throw InputError("Markov profile '" + name + "': expected one of " + known);
  }
  return it->second;
}

std::vector<std::string> markov_profile_names() {
  std::vector<std::string> out;
  for (const auto& [n, m] : profiles()) out.push_back(n);
  return out;
}

void check_markov(const MarkovMatrix& m, const std::string& what) {
  for (std::size_t a = 0; a < kEnd; ++a)
    for (std::size_t b = 0; b < kMarkovStates; ++b) {
      const double v = m.p[a][b];
      if (!std::isfinite(v) || v < 0 || v > 1)
        throw InputError(what + ": row " + kNames[a] + ": the probability to " + kNames[b] + " (" + number_text(v) +
                         ") is not in [0, 1]");
    }
  // A state the chain never visits may have no row (all zeros); one that has a row must be visited.
  const auto from_init = reach(m, 0, false);
  for (std::size_t a = 0; a < kEnd; ++a) {
    double sum = 0;
    for (double v : m.p[a]) sum += v;
    if (!from_init[a] && sum != 0) throw InputError(what + ": state " + kNames[a] + " is unreachable from init");
    if (from_init[a] && std::abs(sum - 1) > 1e-9)
      throw InputError(what + ": row " + kNames[a] + " sums to " + std::to_string(sum) + "; each row must sum to 1");
  }
  if (!from_init[kEnd]) throw InputError(what + ": end is unreachable from init (a trajectory would never stop)");
  const auto to_end = reach(m, kEnd, true);
  for (std::size_t s = 0; s < kMarkovStates; ++s)
    if (from_init[s] && !to_end[s])
      throw InputError(what + ": state " + kNames[s] + " never leads to end (a trajectory through it would not stop)");
}

MarkovMatrix read_markov_matrix(const std::string& path) {
  TextLines in(path, "Markov matrix");
  MarkovMatrix m;
  std::array<bool, kMarkovStates> given{};
  while (in.next()) {
    const std::string name(in.token());
    std::size_t row = kMarkovStates;
    for (std::size_t s = 0; s < kMarkovStates; ++s)
      if (name == kNames[s]) row = s;
    if (row == kMarkovStates) in.fail("'" + name + "' is not a state (init, comp, comm, read, write, end)");
    if (given[row]) in.fail("row " + name + " is given twice");
    given[row] = true;
    for (std::size_t b = 0; b < kMarkovStates; ++b) {
      if (in.at_end()) in.fail("row " + name + " has " + std::to_string(b) + " probabilities; expected 6");
      const double v = in.real(in.token(), "probability");
      if (v < 0 || v > 1) in.fail("row " + name + ": probability " + number_text(v) + " is not in [0, 1]");
      m.p[row][b] = v;
    }
    if (!in.at_end()) in.fail("row " + name + " has more than 6 probabilities");
    if (row != kEnd) {
      double sum = 0;
      for (double v : m.p[row]) sum += v;
      if (std::abs(sum - 1) > 1e-9) in.fail("row " + name + " sums to " + std::to_string(sum) + "; expected 1");
    }
  }
  check_markov(m, path);  // a state without a row must be one the chain never visits
  return m;
}

std::vector<MarkovState> markov_trajectory(const MarkovMatrix& m, Rng& rng, std::uint64_t max_steps) {
  std::vector<MarkovState> out{MarkovState::Init};
  std::size_t s = 0;
  while (s != kEnd) {
    if (out.size() > max_steps)
      throw InputError("Markov chain: no end after " + std::to_string(max_steps) +
                       " steps (raise max_steps, or give End more probability)");
    const double u = rng.uniform();
    double acc = 0;
    std::size_t next = kMarkovStates;
    for (std::size_t b = 0; b < kMarkovStates; ++b) {
      acc += m.p[s][b];
      if (m.p[s][b] > 0) next = b;  // the last possible state takes any rounding remainder
      if (u < acc && m.p[s][b] > 0) break;
    }
    s = next;
    out.push_back(static_cast<MarkovState>(s));
  }
  return out;
}

}  // namespace interflow::workloads
