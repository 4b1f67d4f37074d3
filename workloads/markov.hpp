#pragma once
// The Markov-chain application model (Navaridas et al. 2019, §3.3.4 and Fig. 4; the model of the
// storage study of Pascual Saiz et al. 2018): an application moves between six states,
//
//   Init   resources assigned; the tasks load (cache) their source data
//   Comp   computation, no data moved; duration exponential with rate λ (or constant 1/λ)
//   Comm   the tasks exchange messages in a pattern
//   Read   the tasks read from storage
//   Write  the tasks write to storage
//   End    results written back to their origin; the nodes are freed
//
// with M[a][b] the probability of moving from a to b. A trajectory starts in Init and stops at End.
// The chain is per application (every task goes through the same states; manual/storage.md
// "Markov-chain applications"), drawn from the application's seed before it runs: the network decides
// how long each state takes, never which state comes next.
//
// Correctness argument for the checks: a row that does not sum to 1 is not a distribution; a state
// with a row that Init cannot reach is dead weight the user did not mean (a state left without a row
// is simply not used); a state reachable from Init from which End cannot be reached would make some
// trajectories endless. check_markov() refuses all three, so
// every trajectory of an accepted matrix ends with probability 1 (End is reachable from every state
// the chain can visit, and the chain is finite).
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/random.hpp"

namespace interflow::workloads {

enum class MarkovState : std::uint8_t { Init, Comp, Comm, Read, Write, End };
inline constexpr std::size_t kMarkovStates = 6;

// "init", "comp", "comm", "read", "write", "end".
const char* markov_state_name(MarkovState s);

struct MarkovMatrix {
  std::array<std::array<double, kMarkovStates>, kMarkovStates> p{};  // p[from][to]; End's row is unused
  double at(MarkovState a, MarkovState b) const {
    return p[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)];
  }
};

// The built-in matrices (manual/storage.md lists them): balanced, io, compute, comm. InputError for
// another name.
MarkovMatrix markov_profile(const std::string& name);
std::vector<std::string> markov_profile_names();

// Reads a matrix file: one line per state, its name and six probabilities (to Init, Comp, Comm, Read,
// Write, End); '#' comments. A state the chain never visits may be left out (End's row is ignored).
// Checks it (check_markov) and names the file and line of a bad value or row.
MarkovMatrix read_markov_matrix(const std::string& path);

// Throws InputError naming `what` and the row for: a probability that is not finite or outside
// [0, 1], a row of a state the chain can visit whose sum is not 1 within 1e-9, a state with a row
// (not all zeros) that Init cannot reach, End unreachable, and a state from which End cannot be
// reached.
void check_markov(const MarkovMatrix& m, const std::string& what);

// A trajectory Init ... End drawn with `rng` (one uniform draw per step). InputError if it has not
// reached End after `max_steps` steps (a matrix that almost never ends).
std::vector<MarkovState> markov_trajectory(const MarkovMatrix& m, Rng& rng, std::uint64_t max_steps);

}  // namespace interflow::workloads
