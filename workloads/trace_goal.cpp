// GOAL schedules (LogGOPSim's textual format, as Schedgen writes it) read into and written from
// operation graphs.
#include <cmath>
#include <cstdio>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/error.hpp"
#include "workloads/text_lines.hpp"
#include "workloads/traces.hpp"

namespace interflow::workloads {

namespace {

// "<n>b" or "<n>": a size in bytes.
double goal_bytes(TextLines& in, std::string_view t) {
  if (!t.empty() && (t.back() == 'b' || t.back() == 'B')) t.remove_suffix(1);
  return in.bytes(t, "message size");
}

// The optional "tag <t>", "cpu <c>" and "nic <n>" of an operation; returns the tag (0 if none).
std::uint32_t goal_options(TextLines& in) {
  std::uint32_t tag = 0;
  while (!in.at_end()) {
    const std::string_view key = in.token();
    const std::string_view value = in.expect("a value after tag, cpu or nic");
    if (key == "tag") {
      const std::uint64_t t = in.whole(value, "tag");
      if (t > 0xFFFFFFFFu) in.fail("tag " + std::string(value) + " does not fit in 32 bits");
      tag = static_cast<std::uint32_t>(t);
    } else if (key == "cpu" || key == "nic") {
      in.whole(value, key == "cpu" ? "cpu number" : "nic number");  // one CPU and one NIC per rank here
    } else {
      in.fail("expected tag, cpu or nic after the operation, found '" + std::string(key) + "'");
    }
  }
  return tag;
}

}  // namespace

OpGraph read_goal(const std::string& path, const GoalOptions& options) {
  TextLines in(path, "GOAL schedule");
  if (!in.next()) in.fail("empty file: expected 'num_ranks <n>'");
  if (in.token() != "num_ranks") in.fail("expected 'num_ranks <n>' as the first line");
  const std::uint64_t ranks = in.whole(in.expect("the number of ranks"), "number of ranks");
  in.expect_end("num_ranks");
  if (ranks == 0 || ranks > options.max_ranks)
    in.fail("the number of ranks must be between 1 and " + std::to_string(options.max_ranks) +
            " (the endpoints free for the trace)");
  OpGraphBuilder b(static_cast<std::uint32_t>(ranks));
  std::vector<std::uint8_t> seen(ranks, 0);
  std::unordered_map<std::string, std::uint32_t> labels;  // of the current rank
  struct PendingDep {
    std::string op, on;
    bool start;
    std::size_t line;
  };
  std::vector<PendingDep> deps;
  std::uint32_t rank = 0;
  bool in_rank = false;
  const auto close_rank = [&] {
    for (const PendingDep& d : deps) {
      const auto a = labels.find(d.op), c = labels.find(d.on);
      if (a == labels.end() || c == labels.end())
        throw InputError(path + ":" + std::to_string(d.line) + ": rank " + std::to_string(rank) + " has no label '" +
                         (a == labels.end() ? d.op : d.on) + "'");
      if (a->second == c->second)
        throw InputError(path + ":" + std::to_string(d.line) + ": label '" + d.op + "' depends on itself");
      b.depend(a->second, {c->second, d.start});
    }
    deps.clear();
    labels.clear();
    in_rank = false;
  };
  while (in.next()) {
    std::string_view first = in.token();
    if (!in_rank) {
      if (first != "rank") in.fail("expected 'rank <r> {', found '" + std::string(first) + "'");
      const std::uint64_t r = in.whole(in.expect("a rank number"), "rank");
      if (r >= ranks) in.fail("rank " + std::to_string(r) + " is beyond num_ranks " + std::to_string(ranks));
      if (seen[r]) in.fail("rank " + std::to_string(r) + " has a second block");
      seen[r] = 1;
      rank = static_cast<std::uint32_t>(r);
      if (in.expect("'{'") != "{") in.fail("expected '{' after 'rank " + std::to_string(r) + "'");
      in.expect_end("'{'");
      in_rank = true;
      continue;
    }
    if (first == "}") {
      in.expect_end("'}'");
      close_rank();
      continue;
    }
    if (first.size() > 1 && first.back() == ':') {  // an operation
      const std::string label(first.substr(0, first.size() - 1));
      const std::string_view kind = in.expect("send, recv or calc");
      std::uint32_t op = 0;
      if (kind == "send" || kind == "recv") {
        const double bytes = goal_bytes(in, in.expect("a size in bytes"));
        const std::string_view dir = in.expect(kind == "send" ? "'to'" : "'from'");
        if (dir != (kind == "send" ? "to" : "from"))
          in.fail(std::string("expected '") + (kind == "send" ? "to" : "from") + "' after the size, found '" +
                  std::string(dir) + "'");
        const std::uint64_t peer = in.whole(in.expect("a rank"), "peer rank");
        if (peer >= ranks)
          in.fail("peer rank " + std::to_string(peer) + " is beyond num_ranks " + std::to_string(ranks));
        const std::uint32_t tag = goal_options(in);
        op = kind == "send" ? b.send(rank, static_cast<std::uint32_t>(peer), bytes, tag)
                            : b.recv(rank, static_cast<std::uint32_t>(peer), bytes, tag);
      } else if (kind == "calc") {
        const double units = in.time(in.expect("a time"), options.calc_unit_s, "calc time");
        goal_options(in);
        op = b.calc(rank, units * options.calc_unit_s, kCalcScaled | kCalcUsesCpu);
      } else {
        in.fail("expected send, recv or calc after '" + std::string(first) + "', found '" + std::string(kind) + "'");
      }
      if (!labels.emplace(label, op).second)
        in.fail("label '" + label + "' is used twice in rank " + std::to_string(rank));
      continue;
    }
    const std::string_view verb = in.expect("'requires' or 'irequires'");
    if (verb != "requires" && verb != "irequires")
      in.fail("expected '<label>: <operation>' or '<label> requires <label>', found '" + std::string(first) + " " +
              std::string(verb) + "'");
    const std::string on(in.expect("a label"));
    in.expect_end("the dependency");
    deps.push_back({std::string(first), on, verb == "irequires", in.line_number()});
  }
  if (in_rank) in.fail("the block of rank " + std::to_string(rank) + " is not closed with '}'");
  return b.build(path);
}

void write_goal(const OpGraph& g, std::ostream& out, const GoalOptions& options) {
  char buf[64];
  out << "num_ranks " << g.ranks << "\n";
  for (std::uint32_t r = 0; r < g.ranks; ++r) {
    const std::uint64_t first = g.rank_offsets[r], last = g.rank_offsets[r + 1];
    out << "\nrank " << r << " {\n";
    for (std::uint64_t i = first; i < last; ++i) {
      out << "l" << i - first << ": ";
      if (g.kind[i] == GraphOp::Calc) {
        std::snprintf(buf, sizeof buf, "%.17g", g.value[i] / options.calc_unit_s);
        out << "calc " << buf << "\n";
        continue;
      }
      std::snprintf(buf, sizeof buf, "%.17g", g.value[i]);
      out << (g.kind[i] == GraphOp::Send ? "send " : "recv ") << buf << "b "
          << (g.kind[i] == GraphOp::Send ? "to " : "from ") << g.peer[i] << " tag " << g.tag[i] << "\n";
    }
    for (std::uint64_t i = first; i < last; ++i)
      for (std::uint32_t e : g.deps_of(static_cast<std::uint32_t>(i))) {
        const Dependency d = OpGraph::decode(e);
        out << "l" << i - first << (d.on_start ? " irequires l" : " requires l") << d.op - first << "\n";
      }
    out << "}\n";
  }
}

}  // namespace interflow::workloads
