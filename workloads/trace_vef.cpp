// VEF traces (UCLM's VEF framework; manual/traces.md) read into operation graphs.
#include <algorithm>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "workloads/text_lines.hpp"
#include "workloads/traces.hpp"

namespace interflow::workloads {

namespace {

enum class VefDep { Independent, Receive, Send, Collective };

struct Communicator {
  std::vector<std::uint32_t> ranks;                            // position -> rank
  std::vector<std::pair<std::uint32_t, std::uint32_t>> where;  // (rank, position), sorted
  std::uint32_t position_of(std::uint32_t rank) const {
    const auto it = std::lower_bound(where.begin(), where.end(), std::make_pair(rank, 0u));
    return it != where.end() && it->first == rank ? it->second : kNoOp;
  }
};

// A collective whose lines are being read: one per member.
struct OpenCollective {
  std::uint32_t comm = 0, op_code = 0, lines = 0;
  std::vector<std::uint32_t> entry;  // per member position: the operation its part starts after
  std::vector<std::uint8_t> seen;
  std::vector<double> send_bytes, recv_bytes;
};

}  // namespace

OpGraph read_vef(const std::string& path, const VefOptions& options) {
  TextLines in(path, "VEF trace");
  if (!in.next() || in.token() != "VEF")
    in.fail("expected the header 'VEF <nranks> <num_msgs> <num_comms> <num_global_colls> <num_local_colls> <flag>'");
  const std::uint64_t ranks = in.whole(in.expect("nranks"), "nranks");
  const std::uint64_t num_msgs = in.whole(in.expect("num_msgs"), "num_msgs");
  const std::uint64_t num_comms = in.whole(in.expect("num_comms"), "num_comms");
  const std::uint64_t num_global = in.whole(in.expect("num_global_colls"), "num_global_colls");
  const std::uint64_t num_local = in.whole(in.expect("num_local_colls"), "num_local_colls");
  in.expect("the header's flag");
  in.expect_end("the header");
  if (ranks == 0 || ranks > options.max_ranks)
    in.fail("nranks must be between 1 and " + std::to_string(options.max_ranks) +
            " (the endpoints free for the trace)");
  if (num_msgs >= (1ULL << 29)) in.fail("num_msgs must be below 2^29");
  const auto nranks = static_cast<std::uint32_t>(ranks);

  std::vector<Communicator> comms;  // grown as the lines come: the header's count is not trusted
  for (std::uint64_t k = 0; k < num_comms; ++k) {
    if (!in.next()) in.fail("the file ends before communicator C" + std::to_string(k));
    const std::string_view name = in.token();
    if (name.size() < 2 || name[0] != 'C' || in.whole(name.substr(1), "communicator number") != k)
      in.fail("expected communicator line C" + std::to_string(k) + " <rank> <rank> ..., found '" + std::string(name) +
              "'");
    Communicator& c = comms.emplace_back();
    while (!in.at_end()) {
      const std::uint64_t r = in.whole(in.token(), "rank");
      if (r >= ranks) in.fail("rank " + std::to_string(r) + " is beyond nranks " + std::to_string(ranks));
      c.ranks.push_back(static_cast<std::uint32_t>(r));
    }
    if (c.ranks.empty()) in.fail("communicator C" + std::to_string(k) + " has no ranks");
    for (std::uint32_t i = 0; i < c.ranks.size(); ++i) c.where.emplace_back(c.ranks[i], i);
    std::sort(c.where.begin(), c.where.end());
    for (std::size_t i = 1; i < c.where.size(); ++i)
      if (c.where[i].first == c.where[i - 1].first)
        in.fail("communicator C" + std::to_string(k) + " lists rank " + std::to_string(c.where[i].first) + " twice");
    if (k == 0 && c.ranks.size() != ranks) in.fail("C0 must list every one of the " + std::to_string(ranks) + " ranks");
  }

  OpGraphBuilder b(nranks);
  std::vector<std::uint32_t> message_send;  // per message id: its send operation (its receive is the next one)
  std::vector<std::uint32_t> message_src;
  std::vector<OpenCollective> open;              // per collective id while its lines are read
  std::vector<std::vector<std::uint32_t>> done;  // per collective id: per member position, its end
  std::uint64_t local_lines = 0;

  const auto dep_kind = [&](std::uint64_t code) {
    for (std::size_t k = 0; k < 4; ++k)
      if (options.codes.dependency[k] == code) return static_cast<VefDep>(k);
    in.fail("dependency type " + std::to_string(code) + " is none of the configured codes (independent " +
            std::to_string(options.codes.dependency[0]) + ", receive " + std::to_string(options.codes.dependency[1]) +
            ", send " + std::to_string(options.codes.dependency[2]) + ", collective " +
            std::to_string(options.codes.dependency[3]) + ")");
  };
  // The operation an event of `rank` waits for (kNoOp: none), from its dep_type and dep_id tokens.
  const auto dependency = [&](std::uint32_t rank, std::string_view type_token, std::string_view id_token,
                              std::uint64_t this_message) -> std::uint32_t {
    const VefDep kind = dep_kind(in.whole(type_token, "dependency type"));
    if (kind == VefDep::Independent) return kNoOp;
    if (kind == VefDep::Collective) {
      if (!id_token.empty() && id_token[0] == 'G') id_token.remove_prefix(1);
      const std::uint64_t k = in.whole(id_token, "collective id");
      if (k >= done.size() || done[k].empty())
        in.fail("depends on collective G" + std::to_string(k) + ", which is not complete before this line");
      const std::uint32_t pos = comms[open[k].comm].position_of(rank);
      if (pos == kNoOp)
        in.fail("rank " + std::to_string(rank) + " depends on collective G" + std::to_string(k) + " it is not part of");
      return done[k][pos];
    }
    const std::uint64_t m = in.whole(id_token, "dependency message id");
    if (m >= message_send.size() || m >= this_message)
      in.fail("depends on message " + std::to_string(m) + ", which does not come before this line");
    const std::uint32_t send = message_send[m];
    if (kind == VefDep::Send) {
      if (message_src[m] != rank)
        in.fail("rank " + std::to_string(rank) + " depends on the send of message " + std::to_string(m) +
                ", which rank " + std::to_string(message_src[m]) + " sends");
      return send;
    }
    const std::uint32_t recv = send + 1;
    if (b.rank_of_op(recv) != rank)
      in.fail("rank " + std::to_string(rank) + " depends on the receive of message " + std::to_string(m) +
              ", which rank " + std::to_string(b.rank_of_op(recv)) + " receives");
    return recv;
  };
  // An event's start: after `dep` and `time_ns` of computation (kNoOp: at the rank's start).
  const auto entry = [&](std::uint32_t rank, std::uint32_t dep, double time) {
    if (time <= 0) return dep;
    const std::uint32_t op = b.calc(rank, time * options.time_unit_s, kCalcScaled);
    if (dep != kNoOp) b.depend(op, {dep, false});
    return op;
  };

  while (in.next()) {
    const std::string_view first = in.token();
    if (first.empty() || first[0] != 'G') {  // a message
      const std::uint64_t id = in.whole(first, "message id");
      if (id != message_send.size())
        in.fail("message id " + std::to_string(id) + " out of order: expected " + std::to_string(message_send.size()));
      if (id >= num_msgs) in.fail("more messages than the header's num_msgs " + std::to_string(num_msgs));
      const std::uint64_t src = in.whole(in.expect("the source rank"), "source rank");
      const std::uint64_t dst = in.whole(in.expect("the destination rank"), "destination rank");
      if (src >= ranks || dst >= ranks)
        in.fail("rank " + std::to_string(std::max(src, dst)) + " is beyond nranks " + std::to_string(ranks));
      const double bytes = in.bytes(in.expect("the size in bytes"), "size");
      const std::string_view type = in.expect("dep_type");
      const double time = in.time(in.expect("time_ns"), options.time_unit_s, "time_ns");
      const std::string_view dep_id = in.expect("dep_id");
      in.expect_end("dep_id");
      const auto s = static_cast<std::uint32_t>(src), d = static_cast<std::uint32_t>(dst);
      const std::uint32_t start = entry(s, dependency(s, type, dep_id, id), time);
      const std::uint32_t send = b.send(s, d, bytes, 0);
      if (start != kNoOp) b.depend(send, {start, false});
      const std::uint32_t recv = b.recv(d, s, bytes, 0);
      b.pair(send, recv);
      message_send.push_back(send);
      message_src.push_back(s);
      continue;
    }
    // A collective line: G<cid> <comm> <op> <rank> <send_bytes> <recv_bytes> <dep_type> <time_ns> <dep_id>
    const std::uint64_t cid = in.whole(first.substr(1), "collective id");
    if (cid >= num_global)
      in.fail("collective G" + std::to_string(cid) + " is beyond the header's num_global_colls " +
              std::to_string(num_global));
    const std::uint64_t comm = in.whole(in.expect("the communicator"), "communicator");
    if (comm >= num_comms)
      in.fail("communicator " + std::to_string(comm) + " is not defined (num_comms " + std::to_string(num_comms) + ")");
    const std::uint64_t op_code = in.whole(in.expect("the operation code"), "collective operation code");
    if (op_code >= options.codes.operations.size())
      in.fail("collective operation code " + std::to_string(op_code) + " has no configured meaning (codes 0.." +
              std::to_string(options.codes.operations.size() - 1) + ")");
    const std::uint64_t rank = in.whole(in.expect("the rank"), "rank");
    const double send_bytes = in.bytes(in.expect("send_bytes"), "send_bytes");
    const double recv_bytes = in.bytes(in.expect("recv_bytes"), "recv_bytes");
    const std::string_view type = in.expect("dep_type");
    const double time = in.time(in.expect("time_ns"), options.time_unit_s, "time_ns");
    const std::string_view dep_id = in.expect("dep_id");
    in.expect_end("dep_id");
    if (++local_lines > num_local)
      in.fail("more collective lines than the header's num_local_colls " + std::to_string(num_local));
    if (cid > open.size())
      in.fail("collective G" + std::to_string(cid) + " before G" + std::to_string(open.size()) +
              " (collective ids are introduced in order)");
    if (cid == open.size()) {
      open.emplace_back();
      done.emplace_back();
    }
    OpenCollective& c = open[cid];
    const Communicator& cm = comms[comm];
    if (!done[cid].empty()) in.fail("collective G" + std::to_string(cid) + " already has a line for every member");
    if (c.lines == 0) {
      c.comm = static_cast<std::uint32_t>(comm);
      c.op_code = static_cast<std::uint32_t>(op_code);
      c.entry.assign(cm.ranks.size(), kNoOp);
      c.seen.assign(cm.ranks.size(), 0);
      c.send_bytes.assign(cm.ranks.size(), 0);
      c.recv_bytes.assign(cm.ranks.size(), 0);
    } else if (c.comm != comm || c.op_code != op_code) {
      in.fail("collective G" + std::to_string(cid) + " was started with communicator " + std::to_string(c.comm) +
              " and operation " + std::to_string(c.op_code));
    }
    const std::uint32_t pos = rank < ranks ? cm.position_of(static_cast<std::uint32_t>(rank)) : kNoOp;
    if (pos == kNoOp) in.fail("rank " + std::to_string(rank) + " is not in communicator C" + std::to_string(comm));
    if (c.seen[pos])
      in.fail("collective G" + std::to_string(cid) + " has a second line for rank " + std::to_string(rank));
    const auto r = static_cast<std::uint32_t>(rank);
    c.seen[pos] = 1;
    c.entry[pos] = entry(r, dependency(r, type, dep_id, message_send.size()), time);
    c.send_bytes[pos] = send_bytes;
    c.recv_bytes[pos] = recv_bytes;
    if (++c.lines < cm.ranks.size()) continue;

    // Every member is in: expand it into messages.
    const CollectiveOp op = options.codes.operations[c.op_code];
    Collective coll{op, options.algorithm, 0, 0, kAppClass};
    const auto largest = [](const std::vector<double>& v) {
      return static_cast<std::uint32_t>(std::max_element(v.begin(), v.end()) - v.begin());
    };
    const double max_send = c.send_bytes[largest(c.send_bytes)], max_recv = c.recv_bytes[largest(c.recv_bytes)];
    switch (op) {
      case CollectiveOp::Bcast:
        coll.root = largest(c.send_bytes);
        coll.bytes = std::max(max_send, max_recv);
        break;
      case CollectiveOp::Scatter:
        coll.root = largest(c.send_bytes);
        coll.bytes = max_recv;
        break;
      case CollectiveOp::Reduce:
        coll.root = largest(c.recv_bytes);
        coll.bytes = std::max(max_send, max_recv);
        break;
      case CollectiveOp::Gather:
        coll.root = largest(c.recv_bytes);
        coll.bytes = max_send;
        break;
      case CollectiveOp::Allreduce:
        coll.bytes = std::max(max_send, max_recv);
        break;
      case CollectiveOp::Allgather:
      case CollectiveOp::Alltoall:
        coll.bytes = max_send;
        break;
      case CollectiveOp::Barrier:
        break;
    }
    const auto n = static_cast<std::uint32_t>(cm.ranks.size());
    ProgramBuilder pb(n);
    std::vector<std::uint32_t> members(n);
    for (std::uint32_t i = 0; i < n; ++i) members[i] = i;
    try {
      add_collective(pb, members, coll);
    } catch (const InputError& e) {
      in.fail("collective G" + std::to_string(cid) + ": " + e.what());
    }
    done[cid] = append_program(b, pb.build(), cm.ranks, c.entry);
    c.entry = {};
    c.seen = {};
    c.send_bytes = {};
    c.recv_bytes = {};
  }
  if (message_send.size() != num_msgs)
    in.fail("the file ends after " + std::to_string(message_send.size()) + " messages; the header says num_msgs " +
            std::to_string(num_msgs));
  for (std::size_t k = 0; k < open.size(); ++k)
    if (open[k].lines > 0 && done[k].empty())
      in.fail("collective G" + std::to_string(k) + " has lines for " + std::to_string(open[k].lines) + " of its " +
              std::to_string(comms[open[k].comm].ranks.size()) + " members");
  std::uint64_t collectives = 0;
  for (const auto& d : done) collectives += d.empty() ? 0 : 1;
  if (collectives != num_global || local_lines != num_local)
    in.fail("the file has " + std::to_string(collectives) + " collectives in " + std::to_string(local_lines) +
            " lines; the header says num_global_colls " + std::to_string(num_global) + " and num_local_colls " +
            std::to_string(num_local));
  return b.build(path);
}

}  // namespace interflow::workloads
