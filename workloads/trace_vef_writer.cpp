// Writes operation graphs as VEF traces, each message depending on the event that released it in a
// recorded run (as a tracer of a real application records it).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "workloads/traces.hpp"

namespace interflow::workloads {

namespace {

// The VEF event an operation's time follows from, and the computation after it.
struct Anchor {
  enum Kind : std::uint8_t { Start, AfterReceive, AfterSend } kind = Start;
  std::uint32_t op = kNoOp;  // the send (AfterSend) or receive (AfterReceive) operation
  double seconds = 0;
};

}  // namespace

void write_vef(const OpGraph& g, const std::vector<double>& op_start_s, const std::vector<double>& op_done_s,
               std::ostream& out, const VefOptions& options) {
  const std::uint32_t n = g.size();
  if (op_start_s.size() != n || op_done_s.size() != n)
    throw InputError("VEF writer: the recorded run does not match the graph");
  for (std::uint32_t i = 0; i < n; ++i)
    if (std::isnan(op_done_s[i])) throw InputError("VEF writer: the recorded run did not complete every operation");

  // Operations in dependency order.
  const std::vector<std::uint32_t> order = dependency_order(g, dependents_of(g));

  // Anchors: of each operation's readiness (its latest dependency) and of its completion.
  std::vector<Anchor> ready(n), done(n);
  for (std::uint32_t i : order) {
    double latest = -1;
    for (std::uint32_t e : g.deps_of(i)) {
      const Dependency d = OpGraph::decode(e);
      const double t = d.on_start ? op_start_s[d.op] : op_done_s[d.op];
      if (t > latest) {
        latest = t;
        ready[i] = d.on_start ? ready[d.op] : done[d.op];
      }
    }
    switch (g.kind[i]) {
      case GraphOp::Send:
        done[i] = {Anchor::AfterSend, i, 0};
        break;
      case GraphOp::Recv:
        // Delivered after it was posted: the message released the rank; otherwise it was already there.
        done[i] = op_done_s[i] > op_start_s[i] && g.match[i] != kNoOp ? Anchor{Anchor::AfterReceive, i, 0} : ready[i];
        break;
      case GraphOp::Calc:
        done[i] = ready[i];
        done[i].seconds += g.value[i];
        break;
    }
  }

  // Message ids: sends in the order they started (a dependency always started earlier), then one
  // end marker per rank whose end comes after its last message.
  std::vector<std::uint32_t> sends;
  for (std::uint32_t i = 0; i < n; ++i)
    if (g.kind[i] == GraphOp::Send) sends.push_back(i);
  std::stable_sort(sends.begin(), sends.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return op_start_s[a] < op_start_s[b]; });
  std::vector<std::uint32_t> id(n, kNoOp);
  for (std::uint32_t k = 0; k < sends.size(); ++k) id[sends[k]] = k;
  std::vector<std::pair<std::uint32_t, Anchor>> markers;  // (rank, anchor)
  for (std::uint32_t r = 0; r < g.ranks; ++r) {
    if (g.rank_offsets[r] == g.rank_offsets[r + 1]) continue;
    auto last = static_cast<std::uint32_t>(g.rank_offsets[r]);
    for (auto i = last; i < g.rank_offsets[r + 1]; ++i)
      if (op_done_s[i] > op_done_s[last]) last = i;
    const Anchor& a = done[last];
    if (a.kind == Anchor::Start || a.seconds > 0) markers.emplace_back(r, a);
  }

  char buf[96];
  out << "VEF " << g.ranks << " " << sends.size() + markers.size() << " 1 0 0 TRUE\nC0";
  for (std::uint32_t r = 0; r < g.ranks; ++r) out << " " << r;
  out << "\n";
  const auto& codes = options.codes.dependency;
  const auto line = [&](std::uint64_t msg, std::uint32_t src, std::uint32_t dst, double bytes, const Anchor& a) {
    std::uint32_t type = codes[0], dep = 0;
    if (a.kind == Anchor::AfterSend) {
      type = codes[2];
      dep = id[a.op];
    } else if (a.kind == Anchor::AfterReceive) {
      type = codes[1];
      dep = id[g.match[a.op]];
    }
    std::snprintf(buf, sizeof buf, " %.17g %u %.17g %u\n", bytes, type, a.seconds / options.time_unit_s, dep);
    out << msg << " " << src << " " << dst << buf;
  };
  for (std::uint32_t k = 0; k < sends.size(); ++k) {
    const std::uint32_t s = sends[k];
    line(k, g.rank_of(s), g.peer[s], g.value[s], ready[s]);
  }
  for (std::size_t k = 0; k < markers.size(); ++k)
    line(sends.size() + k, markers[k].first, markers[k].first, 0, markers[k].second);
}

}  // namespace interflow::workloads
