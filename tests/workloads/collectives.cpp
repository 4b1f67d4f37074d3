// MPI collectives expanded into point-to-point programs: every algorithm executed by a small untimed
// interpreter (it finishes, every message is matched), its message count and bytes against closed
// forms, and the data flow each operation promises (who has heard from whom when it ends).
#include "workloads/collectives.hpp"

#include <doctest/doctest.h>

#include "tests/support/approx.hpp"

#include <algorithm>
#include <bit>
#include <bitset>
#include <cmath>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <map>
#include <set>
#include <sstream>  // std::bitset's stream operators, which doctest uses to print a failed check
#include <string>
#include <tuple>
#include <vector>

#include "core/error.hpp"
#include "core/program.hpp"

using namespace interflow;
using namespace interflow::workloads;

namespace {

// ---------------------------------------------------------------------------------------------------
// A test-only interpreter of task programs, without time.
//
// The k-th receive at d from s with a given (tag, bytes) is matched statically to the k-th such send
// of s to d. Tasks then run in turns until each is blocked: a send or isend injects its message at
// once; a recv completes once its matching send has been executed; an irecv is posted and completes
// the same way, observed by the next wait; wait completes when every irecv posted since the last wait
// is matched (and, in rendezvous mode, every isend's receive is posted). Compute and delay take no
// time. A round in which no task moves with some task unfinished is a deadlock.
//
// Every message carries the sender's knowledge when it was sent: the set of tasks whose contribution
// has reached the sender through chains of messages (each task starts knowing itself). A receive
// merges it into the receiver's set when it completes (an irecv at its wait).

constexpr std::uint32_t kMaxTasks = 64;
using Knows = std::bitset<kMaxTasks>;

// Eager: a blocking send completes once injected (the engine's model: it waits for its last bit to
// leave, not for the receiver). Rendezvous: a send (and, at a wait, an isend) completes only once the
// matching receive has been posted; this is the stricter MPI semantics of large messages and catches
// steps where two ranks would each block in a send before posting the receive the other needs.
enum class SendMode { Eager, Rendezvous };

struct Run {
  std::string problem;       // empty when every task finished with every message matched
  std::vector<Knows> knows;  // per task, when the program ended
};

Run interpret(const Program& p, SendMode mode) {
  REQUIRE(p.tasks <= kMaxTasks);
  Run run;
  const std::size_t ops = p.size();
  constexpr std::uint64_t kNoPartner = std::numeric_limits<std::uint64_t>::max();

  // Static matching.
  std::vector<std::uint64_t> partner(ops, kNoPartner);
  std::vector<std::uint32_t> owner(ops, 0);
  using Key = std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, double>;  // src, dst, tag, bytes
  std::map<Key, std::vector<std::uint64_t>> sends, receives;
  for (std::uint32_t t = 0; t < p.tasks; ++t)
    for (std::uint64_t i = p.offsets[t]; i < p.offsets[t + 1]; ++i) {
      owner[i] = t;
      if (is_send(p.kind[i])) sends[{t, p.peer[i], p.tag[i], p.value[i]}].push_back(i);
      if (is_receive(p.kind[i])) receives[{p.peer[i], t, p.tag[i], p.value[i]}].push_back(i);
    }
  for (const auto& [key, s] : sends) {
    const auto r = receives.find(key);
    if (r == receives.end()) continue;
    for (std::size_t k = 0; k < std::min(s.size(), r->second.size()); ++k) {
      partner[s[k]] = r->second[k];
      partner[r->second[k]] = s[k];
    }
  }
  for (std::uint64_t i = 0; i < ops; ++i)
    if ((is_send(p.kind[i]) || is_receive(p.kind[i])) && partner[i] == kNoPartner) {
      run.problem = "task " + std::to_string(owner[i]) + ": " + std::string(name_of(p.kind[i])) + " peer " +
                    std::to_string(p.peer[i]) + " tag " + std::to_string(p.tag[i]) + " bytes " +
                    std::to_string(p.value[i]) + " has no matching " + (is_send(p.kind[i]) ? "receive" : "send");
      return run;
    }

  // Execution.
  std::vector<char> sent(ops, 0), posted(ops, 0);
  std::vector<Knows> carried(ops);  // per send: the sender's knowledge when it was executed
  run.knows.assign(p.tasks, Knows());
  for (std::uint32_t t = 0; t < p.tasks; ++t) run.knows[t].set(t);
  std::vector<std::uint64_t> pc(p.offsets.begin(), p.offsets.end() - 1);
  std::vector<std::vector<std::uint64_t>> outstanding(p.tasks);  // isends and irecvs since the last wait
  const auto delivered = [&](std::uint64_t receive) { return sent[partner[receive]] != 0; };
  const auto accepted = [&](std::uint64_t send) { return mode == SendMode::Eager || posted[partner[send]] != 0; };
  const auto inject = [&](std::uint32_t t, std::uint64_t i) {
    sent[i] = 1;
    carried[i] = run.knows[t];
  };

  for (;;) {
    bool progress = false;
    bool finished = true;
    for (std::uint32_t t = 0; t < p.tasks; ++t) {
      while (pc[t] < p.offsets[t + 1]) {
        const std::uint64_t i = pc[t];
        bool advance = false;
        switch (p.kind[i]) {
          case OpKind::Send:
            if (!sent[i]) {
              inject(t, i);
              progress = true;
            }
            advance = accepted(i);
            break;
          case OpKind::Isend:
            inject(t, i);
            outstanding[t].push_back(i);
            advance = true;
            break;
          case OpKind::Recv:
            if (!posted[i]) {
              posted[i] = 1;
              progress = true;
            }
            if (delivered(i)) {
              run.knows[t] |= carried[partner[i]];
              advance = true;
            }
            break;
          case OpKind::Irecv:
            posted[i] = 1;
            outstanding[t].push_back(i);
            advance = true;
            break;
          case OpKind::Wait:
            advance = std::all_of(outstanding[t].begin(), outstanding[t].end(),
                                  [&](std::uint64_t o) { return is_send(p.kind[o]) ? accepted(o) : delivered(o); });
            if (advance) {
              for (const std::uint64_t o : outstanding[t])
                if (is_receive(p.kind[o])) run.knows[t] |= carried[partner[o]];
              outstanding[t].clear();
            }
            break;
          case OpKind::Compute:
          case OpKind::Delay:
            advance = true;
            break;
        }
        if (!advance) break;
        ++pc[t];
        progress = true;
      }
      if (pc[t] < p.offsets[t + 1]) finished = false;
    }
    if (finished) return run;
    if (!progress) {
      run.problem = "deadlock:";
      for (std::uint32_t t = 0; t < p.tasks; ++t)
        if (pc[t] < p.offsets[t + 1])
          run.problem += " task " + std::to_string(t) + " blocked in " + std::string(name_of(p.kind[pc[t]])) + " (op " +
                         std::to_string(pc[t] - p.offsets[t]) + ");";
      return run;
    }
  }
}

// The messages of a program, counted on the send side.
struct Traffic {
  std::uint64_t messages = 0;
  double bytes = 0;
  std::set<double> sizes;
  std::set<std::uint32_t> tags;
  std::set<std::uint8_t> classes;
};

Traffic traffic(const Program& p) {
  Traffic tr;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (is_send(p.kind[i])) {
      ++tr.messages;
      tr.bytes += p.value[i];
      tr.sizes.insert(p.value[i]);
      tr.tags.insert(p.tag[i]);
      tr.classes.insert(p.klass[i]);
    }
  return tr;
}

// ---------------------------------------------------------------------------------------------------
// The communicators under test: rank i of an n-rank communicator is task n + 1 - i of a builder of
// n + 2 tasks, so ranks are not task ids and tasks 0 and 1 take no part.

std::uint32_t task_of(std::uint32_t rank, std::uint32_t n) { return n + 1 - rank; }

std::vector<std::uint32_t> members_of(std::uint32_t n) {
  std::vector<std::uint32_t> m(n);
  for (std::uint32_t i = 0; i < n; ++i) m[i] = task_of(i, n);
  return m;
}

Program build(const Collective& c, std::uint32_t n) {
  ProgramBuilder b(n + 2);
  const std::vector<std::uint32_t> members = members_of(n);
  add_collective(b, members, c);
  return b.build();
}

constexpr std::uint32_t kSizes[] = {1, 2, 3, 4, 5, 7, 8, 13, 16};
constexpr double kBytes = 1000;
constexpr std::uint8_t kClass = 3;

bool rooted(CollectiveOp op) {
  return op == CollectiveOp::Bcast || op == CollectiveOp::Reduce || op == CollectiveOp::Gather ||
         op == CollectiveOp::Scatter;
}

const std::vector<CollectiveOp>& all_ops() {
  static const std::vector<CollectiveOp> ops = {
      CollectiveOp::Barrier,   CollectiveOp::Bcast,    CollectiveOp::Reduce, CollectiveOp::Allreduce,
      CollectiveOp::Allgather, CollectiveOp::Alltoall, CollectiveOp::Gather, CollectiveOp::Scatter};
  return ops;
}

// Calls f for every operation, every explicit algorithm that applies, every size of kSizes and, for
// rooted operations, the roots 0, n/2 and n-1.
void for_each_case(const std::function<void(const Collective&, std::uint32_t n)>& f) {
  for (const CollectiveOp op : all_ops())
    for (const CollectiveAlgorithm a : algorithms_for(op)) {
      if (a == CollectiveAlgorithm::Default) continue;
      for (const std::uint32_t n : kSizes) {
        if (op == CollectiveOp::Allgather && a == CollectiveAlgorithm::RecursiveDoubling && !std::has_single_bit(n))
          continue;
        std::set<std::uint32_t> roots = {0};
        if (rooted(op)) roots.insert({n / 2, n - 1});
        for (const std::uint32_t root : roots) {
          Collective c{op};
          c.algorithm = a;
          c.bytes = kBytes;
          c.root = root;
          c.klass = kClass;
          CAPTURE(name_of(op));
          CAPTURE(name_of(a));
          CAPTURE(n);
          CAPTURE(root);
          f(c, n);
        }
      }
    }
}

std::uint32_t ceil_log2(std::uint32_t n) { return n <= 1 ? 0 : static_cast<std::uint32_t>(std::bit_width(n - 1)); }
std::uint32_t floor_pow2(std::uint32_t n) { return std::bit_floor(n); }

struct Expected {
  std::uint64_t messages;
  double bytes;
};

// Closed forms, n ranks, B bytes, L = ceil(log2 n), p2 = the largest power of two <= n.
Expected expected(const Collective& c, std::uint32_t n) {
  using A = CollectiveAlgorithm;
  const std::uint64_t m = n;
  const double B = c.bytes;
  const auto of = [B](std::uint64_t messages) { return Expected{messages, static_cast<double>(messages) * B}; };
  switch (c.op) {
    case CollectiveOp::Barrier:
      // Dissemination: L rounds (distances 1, 2, .., 2^(L-1) < n), one message per rank per round.
      // Binomial and linear: one message up and one down along each of the n-1 edges of a tree.
      return {c.algorithm == A::Dissemination ? m * ceil_log2(n) : 2 * (m - 1), 0.0};
    case CollectiveOp::Bcast:
    case CollectiveOp::Reduce:
      // Every non-root rank receives (bcast) or sends (reduce) the whole buffer exactly once.
      return of(m - 1);
    case CollectiveOp::Allreduce:
      if (c.algorithm == A::RecursiveDoubling) {
        // The n - p2 extra ranks send their buffer in and get the result back (2(n - p2) messages);
        // log2 p2 exchange steps among p2 ranks, one message per rank per step.
        const std::uint64_t p2 = floor_pow2(n);
        return of(p2 * static_cast<std::uint64_t>(std::countr_zero(p2)) + 2 * (m - p2));
      }
      if (c.algorithm == A::Ring)
        // 2(n-1) steps (reduce-scatter then allgather), n messages of B/n each per step: 2(n-1)B.
        return {2 * m * (m - 1), 2.0 * static_cast<double>(m - 1) * B};
      return of(2 * (m - 1));  // binomial: reduce to rank 0 then bcast, n-1 messages each
    case CollectiveOp::Allgather:
      if (c.algorithm == A::RecursiveDoubling)
        // log2 n steps; in step k each of the n ranks sends 2^k contributions: n B (2^L - 1) = n(n-1)B.
        return {m * ceil_log2(n), static_cast<double>(m * (m - 1)) * B};
      return of(m * (m - 1));  // ring: n-1 steps of n messages; linear: every ordered pair once
    case CollectiveOp::Alltoall:
      return of(m * (m - 1));  // one message of B per ordered pair of distinct ranks
    case CollectiveOp::Gather:
    case CollectiveOp::Scatter:
      if (c.algorithm == A::Binomial) {
        // n-1 messages, one per tree edge; the edge above relative rank r carries its subtree's
        // pieces, so the total is B x sum over r != 0 of subtree(r). Counted the other way round, each
        // rank's piece crosses one edge per hop between it and the root, and the parent of r is
        // r - lowbit(r) (one set bit fewer): piece r crosses popcount(r) edges, and the total is
        // B x sum over r of popcount(r), which is what is computed here.
        std::uint64_t hops = 0;
        for (std::uint32_t r = 0; r < n; ++r) hops += static_cast<std::uint64_t>(std::popcount(r));
        return {m - 1, static_cast<double>(hops) * B};
      }
      return of(m - 1);  // linear: the root exchanges one piece with every other rank
  }
  return {0, 0};
}

// The ranks of the communicator, as a set of task ids.
Knows everyone(std::uint32_t n) {
  Knows k;
  for (std::uint32_t r = 0; r < n; ++r) k.set(task_of(r, n));
  return k;
}

template <class F>
void check_input_error(F&& f, std::initializer_list<std::string> parts) {
  try {
    f();
    FAIL("accepted");
  } catch (const InputError& e) {
    const std::string message = e.what();
    INFO(message);
    for (const std::string& part : parts) CHECK(message.find(part) != std::string::npos);
  }
}

}  // namespace

TEST_CASE("collectives: every algorithm runs to completion with every message matched") {
  for_each_case([](const Collective& c, std::uint32_t n) {
    const Program p = build(c, n);
    // Tasks outside the communicator do nothing.
    CHECK(p.offsets[1] == p.offsets[0]);
    CHECK(p.offsets[2] == p.offsets[1]);
    for (const SendMode mode : {SendMode::Eager, SendMode::Rendezvous}) {
      CAPTURE(mode == SendMode::Eager ? "eager" : "rendezvous");
      const Run run = interpret(p, mode);
      CHECK_MESSAGE(run.problem.empty(), run.problem);
    }
  });
}

TEST_CASE("collectives: message counts and bytes follow the closed forms") {
  for_each_case([](const Collective& c, std::uint32_t n) {
    const Traffic tr = traffic(build(c, n));
    const Expected e = expected(c, n);
    CHECK(tr.messages == e.messages);
    CHECK(tr.bytes == approx(e.bytes));
    if (tr.messages == 0) return;
    CHECK(tr.tags.size() == 1);
    CHECK(tr.classes == std::set<std::uint8_t>{kClass});
    // The size of each message where the algorithm fixes it.
    using A = CollectiveAlgorithm;
    const bool tree_pieces =
        (c.op == CollectiveOp::Gather || c.op == CollectiveOp::Scatter) && c.algorithm == A::Binomial;
    const bool doubling_blocks = c.op == CollectiveOp::Allgather && c.algorithm == A::RecursiveDoubling;
    if (c.op == CollectiveOp::Barrier) {
      CHECK(tr.sizes == std::set<double>{0.0});
    } else if (c.op == CollectiveOp::Allreduce && c.algorithm == A::Ring) {
      CHECK(tr.sizes == std::set<double>{kBytes / n});
    } else if (doubling_blocks) {
      std::set<double> blocks;
      for (std::uint32_t k = 1; k < n; k *= 2) blocks.insert(kBytes * k);
      CHECK(tr.sizes == blocks);
    } else if (tree_pieces) {
      // The largest piece crosses an edge at the root: child 2^k of the root holds min(2^k, n - 2^k) ranks.
      std::uint32_t largest = 0;
      for (std::uint32_t k = 1; k < n; k *= 2) largest = std::max(largest, std::min(k, n - k));
      CHECK(*tr.sizes.rbegin() == kBytes * largest);
      CHECK(*tr.sizes.begin() == kBytes);  // the leaves' own pieces
    } else {
      CHECK(tr.sizes == std::set<double>{kBytes});
    }
  });
}

TEST_CASE("collectives: data reaches every rank the operation promises") {
  for_each_case([](const Collective& c, std::uint32_t n) {
    const Run run = interpret(build(c, n), SendMode::Eager);
    REQUIRE(run.problem.empty());
    const Knows all = everyone(n);
    const std::uint32_t root_task = task_of(c.root, n);
    for (std::uint32_t r = 0; r < n; ++r) {
      CAPTURE(r);
      const Knows& k = run.knows[task_of(r, n)];
      CHECK((k & ~all).none());  // nothing from outside the communicator
      switch (c.op) {
        case CollectiveOp::Bcast:
        case CollectiveOp::Scatter:
          CHECK(k.test(root_task));
          break;
        case CollectiveOp::Reduce:
        case CollectiveOp::Gather:
          if (r == c.root) CHECK(k == all);
          break;
        default:
          CHECK(k == all);
          break;
      }
    }
  });
}

TEST_CASE("collectives: rooted operations move data only along the root's tree") {
  // Knowledge flows only down the tree in a bcast or scatter and only up it in a reduce or gather.
  // With relative rank r = (rank - root) mod n, the binomial parent of r is r - lowbit(r): in a bcast r
  // hears from its popcount(r) ancestors, in a reduce from the min(lowbit(r), n - r) ranks of its subtree.
  // The linear algorithms connect each rank to the root only.
  const std::uint32_t root = 2;
  for (const std::uint32_t n : {3u, 5u, 8u, 13u})
    for (const CollectiveOp op :
         {CollectiveOp::Bcast, CollectiveOp::Scatter, CollectiveOp::Reduce, CollectiveOp::Gather})
      for (const CollectiveAlgorithm a : {CollectiveAlgorithm::Binomial, CollectiveAlgorithm::Linear}) {
        CAPTURE(name_of(op));
        CAPTURE(name_of(a));
        CAPTURE(n);
        const Run run = interpret(build(Collective{op, a, kBytes, root}, n), SendMode::Eager);
        REQUIRE(run.problem.empty());
        const bool down = op == CollectiveOp::Bcast || op == CollectiveOp::Scatter;
        const bool binomial = a == CollectiveAlgorithm::Binomial;
        for (std::uint32_t r = 0; r < n; ++r) {
          const std::uint32_t rank = (r + root) % n;
          CAPTURE(rank);
          std::size_t heard = 0;
          if (down)
            heard = r == 0 ? 1 : binomial ? static_cast<std::size_t>(std::popcount(r)) + 1 : 2;
          else
            heard = r == 0 ? n : binomial ? std::min(r & (~r + 1), n - r) : 1;
          CHECK(run.knows[task_of(rank, n)].count() == heard);
        }
      }
}

TEST_CASE("collectives: default resolves to the documented algorithm") {
  using A = CollectiveAlgorithm;
  CHECK(default_algorithm(CollectiveOp::Barrier) == A::Dissemination);
  CHECK(default_algorithm(CollectiveOp::Bcast) == A::Binomial);
  CHECK(default_algorithm(CollectiveOp::Reduce) == A::Binomial);
  CHECK(default_algorithm(CollectiveOp::Allreduce) == A::RecursiveDoubling);
  CHECK(default_algorithm(CollectiveOp::Allgather) == A::Ring);
  CHECK(default_algorithm(CollectiveOp::Alltoall) == A::Pairwise);
  CHECK(default_algorithm(CollectiveOp::Gather) == A::Linear);
  CHECK(default_algorithm(CollectiveOp::Scatter) == A::Linear);
  for (const CollectiveOp op : all_ops()) {
    const std::vector<A> valid = algorithms_for(op);
    REQUIRE(valid.size() >= 2);
    CHECK(valid.front() == A::Default);
    CHECK(valid[1] == default_algorithm(op));
    for (const std::uint32_t n : {6u, 8u}) {
      Collective c{op, A::Default, kBytes, 1};
      const Program implicit = build(c, n);
      c.algorithm = default_algorithm(op);
      const Program explicit_ = build(c, n);
      CAPTURE(name_of(op));
      CHECK(implicit.offsets == explicit_.offsets);
      CHECK(implicit.kind == explicit_.kind);
      CHECK(implicit.peer == explicit_.peer);
      CHECK(implicit.value == explicit_.value);
    }
  }
}

TEST_CASE("collectives: small cases spelled out") {
  // Dissemination barrier on 3 ranks: round 1 to i+1, round 2 to i+2; rank 0 is task 4.
  {
    const Program p = build(Collective{CollectiveOp::Barrier}, 3);
    const std::uint32_t t = task_of(0, 3);
    const std::vector<OpKind> kinds(p.kind.begin() + static_cast<std::ptrdiff_t>(p.offsets[t]),
                                    p.kind.begin() + static_cast<std::ptrdiff_t>(p.offsets[t + 1]));
    CHECK(kinds ==
          std::vector<OpKind>{OpKind::Irecv, OpKind::Isend, OpKind::Wait, OpKind::Irecv, OpKind::Isend, OpKind::Wait});
    CHECK(p.peer[p.offsets[t] + 0] == task_of(2, 3));  // round 1: from 0 - 1 = 2
    CHECK(p.peer[p.offsets[t] + 1] == task_of(1, 3));  // round 1: to 0 + 1
    CHECK(p.peer[p.offsets[t] + 3] == task_of(1, 3));  // round 2: from 0 - 2 = 1
    CHECK(p.peer[p.offsets[t] + 4] == task_of(2, 3));  // round 2: to 0 + 2
  }
  // Binomial bcast from rank 3 of 8: relative rank 0 sends to relative 4, 2, 1 = ranks 7, 5, 4.
  {
    const Program p = build(Collective{CollectiveOp::Bcast, CollectiveAlgorithm::Binomial, 10, 3}, 8);
    const std::uint32_t t = task_of(3, 8);
    REQUIRE(p.offsets[t + 1] - p.offsets[t] == 3);
    CHECK(p.peer[p.offsets[t] + 0] == task_of(7, 8));
    CHECK(p.peer[p.offsets[t] + 1] == task_of(5, 8));
    CHECK(p.peer[p.offsets[t] + 2] == task_of(4, 8));
  }
  // Binomial gather to rank 0 of 5: rank 4 sends its piece to 0, rank 2 sends 2 pieces, rank 0 receives
  // 1 (rank 1), 2 (ranks 2-3) and 1 (rank 4).
  {
    const Program p = build(Collective{CollectiveOp::Gather, CollectiveAlgorithm::Binomial, 10, 0}, 5);
    const std::uint32_t t = task_of(0, 5);
    REQUIRE(p.offsets[t + 1] - p.offsets[t] == 3);
    CHECK(p.value[p.offsets[t] + 0] == 10);
    CHECK(p.value[p.offsets[t] + 1] == 20);
    CHECK(p.value[p.offsets[t] + 2] == 10);
    CHECK(p.peer[p.offsets[t] + 2] == task_of(4, 5));
  }
  // A communicator of one rank does nothing.
  for (const CollectiveOp op : all_ops()) CHECK(build(Collective{op}, 1).size() == 0);
}

TEST_CASE("collectives: one fresh tag per collective in a shared program") {
  // An allreduce among all 8 tasks, a bcast among the even ones from rank 1 and a barrier among all,
  // in one builder, with one tag each; the program still runs and the tags differ.
  ProgramBuilder b(8);
  const std::vector<std::uint32_t> all = {0, 1, 2, 3, 4, 5, 6, 7};
  const std::vector<std::uint32_t> evens = {6, 4, 2, 0};
  b.compute(0, 1e-3);
  add_collective(b, all, Collective{CollectiveOp::Allreduce, CollectiveAlgorithm::Ring, 800, 0, 1});
  add_collective(b, evens, Collective{CollectiveOp::Bcast, CollectiveAlgorithm::Default, 64, 1, 2});
  add_collective(b, all, Collective{CollectiveOp::Barrier});
  const Program p = b.build();
  for (const SendMode mode : {SendMode::Eager, SendMode::Rendezvous}) {
    const Run run = interpret(p, mode);
    CHECK_MESSAGE(run.problem.empty(), run.problem);
  }
  std::map<std::uint32_t, std::set<std::uint8_t>> classes_by_tag;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (is_send(p.kind[i])) classes_by_tag[p.tag[i]].insert(p.klass[i]);
  REQUIRE(classes_by_tag.size() == 3);
  auto it = classes_by_tag.begin();
  CHECK(it->second == std::set<std::uint8_t>{1});
  CHECK((++it)->second == std::set<std::uint8_t>{2});
  CHECK((++it)->second == std::set<std::uint8_t>{kAppClass});
  CHECK(classes_by_tag.begin()->first >= (1u << 30));
}

TEST_CASE("collectives: invalid uses throw InputError") {
  const std::vector<std::uint32_t> four = members_of(4);
  const auto add = [](std::vector<std::uint32_t> members, const Collective& c, std::uint32_t tasks = 8) {
    ProgramBuilder b(tasks);
    try {
      add_collective(b, members, c);
    } catch (const InputError&) {
      CHECK(b.size() == 0);  // nothing appended by a refused collective
      throw;
    }
  };
  using A = CollectiveAlgorithm;
  for (const CollectiveOp op : {CollectiveOp::Bcast, CollectiveOp::Reduce, CollectiveOp::Gather, CollectiveOp::Scatter})
    check_input_error([&] { add(four, Collective{op, A::Default, 8, 4}); }, {name_of(op), "root 4", "4 ranks"});
  check_input_error(
      [&] {
        add(four, Collective{CollectiveOp::Bcast, A::Ring});
      },
      {"bcast", "ring", "does not apply", "default, binomial, linear"});
  check_input_error([&] { add(four, Collective{CollectiveOp::Barrier, A::Pairwise}); }, {"barrier", "pairwise"});
  check_input_error([&] { add(four, Collective{CollectiveOp::Allreduce, A::Linear}); }, {"allreduce", "linear"});
  check_input_error([&] { add(four, Collective{CollectiveOp::Alltoall, A::Dissemination}); }, {"dissemination"});
  check_input_error([&] { add(four, Collective{CollectiveOp::Gather, A::Ring}); }, {"gather", "ring"});
  check_input_error(
      [&] {
        add({0, 1, 2, 3, 4, 5}, Collective{CollectiveOp::Allgather, A::RecursiveDoubling});
      },
      {"allgather", "recdoubling", "power-of-two", "6"});
  check_input_error([&] { add({}, Collective{CollectiveOp::Barrier}); }, {"no members"});
  check_input_error([&] { add({0, 3, 1, 3}, Collective{CollectiveOp::Alltoall}); }, {"task 3", "more than once"});
  check_input_error([&] { add({0, 9}, Collective{CollectiveOp::Alltoall}); }, {"9", "8 tasks"});
  check_input_error([&] { add(four, Collective{CollectiveOp::Bcast, A::Default, -1}); }, {"bytes"});
  check_input_error([&] { add(four, Collective{CollectiveOp::Bcast, A::Default, std::nan("")}); }, {"bytes"});
  // Recursive doubling allgather is fine on powers of two; a barrier ignores bytes and root.
  CHECK_NOTHROW(add(four, Collective{CollectiveOp::Allgather, A::RecursiveDoubling}));
  CHECK_NOTHROW(add(four, Collective{CollectiveOp::Barrier, A::Default, -1, 9}));
  check_input_error([] { collective_op_from_name("broadcast"); },
                    {"broadcast", "barrier, bcast, reduce, allreduce, allgather, alltoall, gather, scatter"});
  check_input_error([] { algorithm_from_name("tree"); },
                    {"tree", "default, linear, binomial, recdoubling, ring, pairwise, dissemination"});
}

TEST_CASE("collectives: names round trip") {
  const std::vector<std::string> op_names = {"barrier",   "bcast",    "reduce", "allreduce",
                                             "allgather", "alltoall", "gather", "scatter"};
  REQUIRE(op_names.size() == all_ops().size());
  for (std::size_t i = 0; i < op_names.size(); ++i) {
    CHECK(name_of(all_ops()[i]) == op_names[i]);
    CHECK(collective_op_from_name(op_names[i]) == all_ops()[i]);
  }
  using A = CollectiveAlgorithm;
  const std::vector<std::pair<std::string, A>> algorithms = {{"default", A::Default},
                                                             {"linear", A::Linear},
                                                             {"binomial", A::Binomial},
                                                             {"recdoubling", A::RecursiveDoubling},
                                                             {"ring", A::Ring},
                                                             {"pairwise", A::Pairwise},
                                                             {"dissemination", A::Dissemination}};
  for (const auto& [name, a] : algorithms) {
    CHECK(name_of(a) == name);
    CHECK(algorithm_from_name(name) == a);
  }
}

TEST_CASE("collectives: the test interpreter reports deadlocks and unmatched messages") {
  // Two tasks that each receive first: a deadlock in both modes.
  {
    ProgramBuilder b(2);
    b.recv(0, 1, 8, 5);
    b.send(0, 1, 8, 5);
    b.recv(1, 0, 8, 5);
    b.send(1, 0, 8, 5);
    const Program p = b.build();
    CHECK(interpret(p, SendMode::Eager).problem.find("deadlock") == 0);
    CHECK(interpret(p, SendMode::Rendezvous).problem.find("deadlock") == 0);
  }
  // Two tasks that each send first with blocking sends: fine eagerly, a deadlock with rendezvous.
  {
    ProgramBuilder b(2);
    b.send(0, 1, 8, 5);
    b.recv(0, 1, 8, 5);
    b.send(1, 0, 8, 5);
    b.recv(1, 0, 8, 5);
    const Program p = b.build();
    const Run eager = interpret(p, SendMode::Eager);
    CHECK(eager.problem.empty());
    CHECK(eager.knows[0].count() == 2);
    CHECK(interpret(p, SendMode::Rendezvous).problem.find("deadlock") == 0);
  }
  // A wait holds back an irecv's data; sizes and tags must agree for a match.
  {
    ProgramBuilder b(3);
    b.irecv(0, 1, 8, 5);
    b.send(0, 2, 8, 5);  // sent before the wait: carries only task 0
    b.wait(0);
    b.send(1, 0, 8, 5);
    b.recv(2, 0, 8, 5);
    const Run run = interpret(b.build(), SendMode::Eager);
    CHECK(run.problem.empty());
    CHECK(run.knows[0].count() == 2);
    CHECK(run.knows[2].count() == 2);  // tasks 2 and 0, not 1
    CHECK_FALSE(run.knows[2].test(1));
  }
  {
    ProgramBuilder b(2);
    b.send(0, 1, 8, 5);
    b.recv(1, 0, 16, 5);
    CHECK(interpret(b.build(), SendMode::Eager).problem.find("no matching") != std::string::npos);
  }
  {
    ProgramBuilder b(2);
    b.send(0, 1, 8, 5);
    b.recv(1, 0, 8, 6);
    CHECK(interpret(b.build(), SendMode::Eager).problem.find("no matching") != std::string::npos);
  }
}
