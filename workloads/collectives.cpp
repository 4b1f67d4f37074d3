#include "workloads/collectives.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <string>

#include "core/error.hpp"

namespace interflow::workloads {

namespace {

constexpr CollectiveOp kOps[] = {CollectiveOp::Barrier,   CollectiveOp::Bcast,     CollectiveOp::Reduce,
                                 CollectiveOp::Allreduce, CollectiveOp::Allgather, CollectiveOp::Alltoall,
                                 CollectiveOp::Gather,    CollectiveOp::Scatter};
constexpr CollectiveAlgorithm kAlgorithms[] = {
    CollectiveAlgorithm::Default,           CollectiveAlgorithm::Linear, CollectiveAlgorithm::Binomial,
    CollectiveAlgorithm::RecursiveDoubling, CollectiveAlgorithm::Ring,   CollectiveAlgorithm::Pairwise,
    CollectiveAlgorithm::Dissemination};

std::string join_names(const auto& values) {
  std::string out;
  for (const auto& v : values) out += (out.empty() ? "" : ", ") + name_of(v);
  return out;
}

// Message size as a function of a relative rank.
using SizeOf = std::function<double(std::uint64_t)>;

// One communicator of one collective: ranks to task ids, the tag and the class of its messages.
// Rooted algorithms work in relative ranks r = (rank - root) mod n; abs() maps them back.
class Comm {
 public:
  Comm(ProgramBuilder& b, std::span<const std::uint32_t> members, std::uint32_t tag, std::uint8_t klass)
      : b_(b), members_(members), n_(members.size()), tag_(tag), klass_(klass) {}

  std::uint64_t n() const { return n_; }
  std::uint64_t abs(std::uint64_t relative, std::uint64_t root) const { return (relative + root) % n_; }
  std::uint64_t plus(std::uint64_t rank, std::uint64_t k) const { return (rank + k) % n_; }
  std::uint64_t minus(std::uint64_t rank, std::uint64_t k) const { return (rank + n_ - k % n_) % n_; }

  void send(std::uint64_t rank, std::uint64_t to, double bytes) {
    b_.send(members_[rank], members_[to], bytes, tag_, klass_);
  }
  void isend(std::uint64_t rank, std::uint64_t to, double bytes) {
    b_.isend(members_[rank], members_[to], bytes, tag_, klass_);
  }
  void recv(std::uint64_t rank, std::uint64_t from, double bytes) {
    b_.recv(members_[rank], members_[from], bytes, tag_);
  }
  void irecv(std::uint64_t rank, std::uint64_t from, double bytes) {
    b_.irecv(members_[rank], members_[from], bytes, tag_);
  }
  void wait(std::uint64_t rank) { b_.wait(members_[rank]); }

  // One step of a rank that both receives and sends: both posted, then one wait, so that no rank
  // waits for its send before its receive is posted.
  void exchange(std::uint64_t rank, std::uint64_t to, double send_bytes, std::uint64_t from, double recv_bytes) {
    irecv(rank, from, recv_bytes);
    isend(rank, to, send_bytes);
    wait(rank);
  }

 private:
  ProgramBuilder& b_;
  std::span<const std::uint32_t> members_;
  std::uint64_t n_;
  std::uint32_t tag_;
  std::uint8_t klass_;
};

std::uint64_t lowest_bit(std::uint64_t x) { return x & (~x + 1); }

// Ranks in the binomial subtree of relative rank r: r .. r + lowbit(r) - 1, cut at n.
std::uint64_t subtree_size(std::uint64_t r, std::uint64_t n) { return r == 0 ? n : std::min(lowest_bit(r), n - r); }

// Binomial tree towards the root (reduce, gather): the parent of relative rank r is r - lowbit(r).
// Each rank receives from its children in increasing distance, then sends size(r) to its parent.
void binomial_up(Comm& c, std::uint64_t root, const SizeOf& size) {
  const std::uint64_t n = c.n();
  for (std::uint64_t r = 0; r < n; ++r) {
    const std::uint64_t rank = c.abs(r, root);
    for (std::uint64_t mask = 1; mask < n; mask <<= 1) {
      if ((r & mask) == 0) {
        const std::uint64_t child = r | mask;
        if (child < n) c.recv(rank, c.abs(child, root), size(child));
      } else {
        c.send(rank, c.abs(r - mask, root), size(r));
        break;
      }
    }
  }
}

// Binomial tree from the root (bcast, scatter): each rank receives size(r) from r - lowbit(r), then
// sends size(child) to each child r + 2^k (2^k < lowbit(r)), farthest first.
void binomial_down(Comm& c, std::uint64_t root, const SizeOf& size) {
  const std::uint64_t n = c.n();
  for (std::uint64_t r = 0; r < n; ++r) {
    const std::uint64_t rank = c.abs(r, root);
    std::uint64_t mask = 1;
    while (mask < n) {
      if (r & mask) {
        c.recv(rank, c.abs(r - mask, root), size(r));
        break;
      }
      mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
      if (r + mask < n) c.send(rank, c.abs(r + mask, root), size(r + mask));
  }
}

// Every other rank sends size(r) to the root, which posts all its receives and waits once.
void linear_up(Comm& c, std::uint64_t root, const SizeOf& size) {
  const std::uint64_t n = c.n();
  if (n < 2) return;
  for (std::uint64_t r = 1; r < n; ++r) c.send(c.abs(r, root), root, size(r));
  for (std::uint64_t r = 1; r < n; ++r) c.irecv(root, c.abs(r, root), size(r));
  c.wait(root);
}

// The root posts a send of size(r) to every other rank and waits once; the others receive.
void linear_down(Comm& c, std::uint64_t root, const SizeOf& size) {
  const std::uint64_t n = c.n();
  if (n < 2) return;
  for (std::uint64_t r = 1; r < n; ++r) c.isend(root, c.abs(r, root), size(r));
  c.wait(root);
  for (std::uint64_t r = 1; r < n; ++r) c.recv(c.abs(r, root), root, size(r));
}

// Every rank posts a receive from and a send to every other rank, then waits once.
void linear_all_pairs(Comm& c, double bytes) {
  const std::uint64_t n = c.n();
  if (n < 2) return;
  for (std::uint64_t i = 0; i < n; ++i) {
    for (std::uint64_t k = 1; k < n; ++k) c.irecv(i, c.minus(i, k), bytes);
    for (std::uint64_t k = 1; k < n; ++k) c.isend(i, c.plus(i, k), bytes);
    c.wait(i);
  }
}

// Round k (2^k < n): rank i sends to i + 2^k and receives from i - 2^k.
void dissemination_barrier(Comm& c) {
  const std::uint64_t n = c.n();
  for (std::uint64_t dist = 1; dist < n; dist <<= 1)
    for (std::uint64_t i = 0; i < n; ++i) c.exchange(i, c.plus(i, dist), 0, c.minus(i, dist), 0);
}

// Recursive doubling among the first p2 ranks (p2 the largest power of two <= n); rank p2 + j first
// folds its buffer into rank j and gets the result back from it at the end.
void recursive_doubling_allreduce(Comm& c, double bytes) {
  const std::uint64_t n = c.n();
  std::uint64_t p2 = 1;
  while (p2 * 2 <= n) p2 *= 2;
  for (std::uint64_t i = p2; i < n; ++i) c.send(i, i - p2, bytes);
  for (std::uint64_t i = 0; i + p2 < n; ++i) c.recv(i, i + p2, bytes);
  for (std::uint64_t mask = 1; mask < p2; mask <<= 1)
    for (std::uint64_t i = 0; i < p2; ++i) c.exchange(i, i ^ mask, bytes, i ^ mask, bytes);
  for (std::uint64_t i = 0; i + p2 < n; ++i) c.send(i, i + p2, bytes);
  for (std::uint64_t i = p2; i < n; ++i) c.recv(i, i - p2, bytes);
}

// `steps` steps in which every rank receives `bytes` from its left neighbour and sends `bytes` to its
// right one.
void ring_steps(Comm& c, std::uint64_t steps, double bytes) {
  const std::uint64_t n = c.n();
  for (std::uint64_t s = 0; s < steps; ++s)
    for (std::uint64_t i = 0; i < n; ++i) c.exchange(i, c.plus(i, 1), bytes, c.minus(i, 1), bytes);
}

// Step k (2^k < n, n a power of two): rank i exchanges its 2^k gathered contributions with i xor 2^k.
void recursive_doubling_allgather(Comm& c, double bytes) {
  const std::uint64_t n = c.n();
  for (std::uint64_t mask = 1; mask < n; mask <<= 1) {
    const double block = bytes * static_cast<double>(mask);
    for (std::uint64_t i = 0; i < n; ++i) c.exchange(i, i ^ mask, block, i ^ mask, block);
  }
}

// Step k = 1 .. n-1: rank i sends to i + k and receives from i - k.
void pairwise_alltoall(Comm& c, double bytes) {
  const std::uint64_t n = c.n();
  for (std::uint64_t k = 1; k < n; ++k)
    for (std::uint64_t i = 0; i < n; ++i) c.exchange(i, c.plus(i, k), bytes, c.minus(i, k), bytes);
}

bool is_rooted(CollectiveOp op) {
  return op == CollectiveOp::Bcast || op == CollectiveOp::Reduce || op == CollectiveOp::Gather ||
         op == CollectiveOp::Scatter;
}

std::string describe(const Collective& c) { return "collective " + name_of(c.op); }

void validate(const ProgramBuilder& b, std::span<const std::uint32_t> members, const Collective& c,
              CollectiveAlgorithm algorithm) {
  const std::string what = describe(c);
  if (members.empty()) throw InputError(what + ": the communicator has no members");
  std::vector<std::uint32_t> sorted(members.begin(), members.end());
  std::sort(sorted.begin(), sorted.end());
  const auto dup = std::adjacent_find(sorted.begin(), sorted.end());
  if (dup != sorted.end())
    throw InputError(what + ": task " + std::to_string(*dup) + " appears more than once in the communicator");
  if (sorted.back() >= b.tasks())
    throw InputError(what + ": member task " + std::to_string(sorted.back()) + " is beyond the application's " +
                     std::to_string(b.tasks()) + " tasks");
  if (is_rooted(c.op) && c.root >= members.size())
    throw InputError(what + ": root " + std::to_string(c.root) + " is outside the communicator of " +
                     std::to_string(members.size()) + " ranks (roots are ranks 0.." +
                     std::to_string(members.size() - 1) + ")");
  if (c.op != CollectiveOp::Barrier && !(std::isfinite(c.bytes) && c.bytes >= 0))
    throw InputError(what + ": bytes must be a finite number >= 0");
  const std::vector<CollectiveAlgorithm> valid = algorithms_for(c.op);
  if (std::find(valid.begin(), valid.end(), c.algorithm) == valid.end())
    throw InputError(what + ": algorithm " + name_of(c.algorithm) + " does not apply; valid: " + join_names(valid));
  if (algorithm == CollectiveAlgorithm::RecursiveDoubling && c.op == CollectiveOp::Allgather &&
      !std::has_single_bit(members.size()))
    throw InputError(what + ": algorithm recdoubling needs a power-of-two number of ranks, not " +
                     std::to_string(members.size()) + " (use ring or linear)");
}

}  // namespace

void add_collective(ProgramBuilder& b, std::span<const std::uint32_t> members, const Collective& c) {
  const CollectiveAlgorithm algorithm =
      c.algorithm == CollectiveAlgorithm::Default ? default_algorithm(c.op) : c.algorithm;
  validate(b, members, c, algorithm);
  Comm comm(b, members, b.next_tag(), c.klass);
  const std::uint64_t n = comm.n();
  const std::uint64_t root = c.root;
  const double bytes = c.bytes;
  const SizeOf whole = [bytes](std::uint64_t) { return bytes; };
  const SizeOf none = [](std::uint64_t) { return 0.0; };
  const SizeOf subtree = [bytes, n](std::uint64_t r) { return bytes * static_cast<double>(subtree_size(r, n)); };
  using A = CollectiveAlgorithm;
  switch (c.op) {
    case CollectiveOp::Barrier:
      if (algorithm == A::Dissemination) {
        dissemination_barrier(comm);
      } else if (algorithm == A::Binomial) {
        binomial_up(comm, 0, none);
        binomial_down(comm, 0, none);
      } else {
        linear_up(comm, 0, none);
        linear_down(comm, 0, none);
      }
      break;
    case CollectiveOp::Bcast:
      (algorithm == A::Binomial ? binomial_down : linear_down)(comm, root, whole);
      break;
    case CollectiveOp::Reduce:
      (algorithm == A::Binomial ? binomial_up : linear_up)(comm, root, whole);
      break;
    case CollectiveOp::Allreduce:
      if (algorithm == A::RecursiveDoubling) {
        recursive_doubling_allreduce(comm, bytes);
      } else if (algorithm == A::Ring) {
        // Reduce-scatter (n-1 steps) then allgather (n-1 steps) of one n-th of the buffer each.
        if (n > 1) ring_steps(comm, 2 * (n - 1), bytes / static_cast<double>(n));
      } else {
        binomial_up(comm, 0, whole);
        binomial_down(comm, 0, whole);
      }
      break;
    case CollectiveOp::Allgather:
      if (algorithm == A::Ring)
        ring_steps(comm, n - 1, bytes);
      else if (algorithm == A::RecursiveDoubling)
        recursive_doubling_allgather(comm, bytes);
      else
        linear_all_pairs(comm, bytes);
      break;
    case CollectiveOp::Alltoall:
      if (algorithm == A::Pairwise)
        pairwise_alltoall(comm, bytes);
      else
        linear_all_pairs(comm, bytes);
      break;
    case CollectiveOp::Gather:
      if (algorithm == A::Binomial)
        binomial_up(comm, root, subtree);
      else
        linear_up(comm, root, whole);
      break;
    case CollectiveOp::Scatter:
      if (algorithm == A::Binomial)
        binomial_down(comm, root, subtree);
      else
        linear_down(comm, root, whole);
      break;
  }
}

CollectiveOp collective_op_from_name(const std::string& name) {
  for (const CollectiveOp op : kOps)
    if (name_of(op) == name) return op;
  throw InputError("unknown collective '" + name + "'; valid: " + join_names(kOps));
}

CollectiveAlgorithm algorithm_from_name(const std::string& name) {
  for (const CollectiveAlgorithm a : kAlgorithms)
    if (name_of(a) == name) return a;
  throw InputError("unknown collective algorithm '" + name + "'; valid: " + join_names(kAlgorithms));
}

std::string name_of(CollectiveOp op) {
  switch (op) {
    case CollectiveOp::Barrier:
      return "barrier";
    case CollectiveOp::Bcast:
      return "bcast";
    case CollectiveOp::Reduce:
      return "reduce";
    case CollectiveOp::Allreduce:
      return "allreduce";
    case CollectiveOp::Allgather:
      return "allgather";
    case CollectiveOp::Alltoall:
      return "alltoall";
    case CollectiveOp::Gather:
      return "gather";
    case CollectiveOp::Scatter:
      return "scatter";
  }
  return "?";
}

std::string name_of(CollectiveAlgorithm algorithm) {
  switch (algorithm) {
    case CollectiveAlgorithm::Default:
      return "default";
    case CollectiveAlgorithm::Linear:
      return "linear";
    case CollectiveAlgorithm::Binomial:
      return "binomial";
    case CollectiveAlgorithm::RecursiveDoubling:
      return "recdoubling";
    case CollectiveAlgorithm::Ring:
      return "ring";
    case CollectiveAlgorithm::Pairwise:
      return "pairwise";
    case CollectiveAlgorithm::Dissemination:
      return "dissemination";
  }
  return "?";
}

std::vector<CollectiveAlgorithm> algorithms_for(CollectiveOp op) {
  using A = CollectiveAlgorithm;
  switch (op) {
    case CollectiveOp::Barrier:
      return {A::Default, A::Dissemination, A::Binomial, A::Linear};
    case CollectiveOp::Bcast:
    case CollectiveOp::Reduce:
      return {A::Default, A::Binomial, A::Linear};
    case CollectiveOp::Allreduce:
      return {A::Default, A::RecursiveDoubling, A::Ring, A::Binomial};
    case CollectiveOp::Allgather:
      return {A::Default, A::Ring, A::RecursiveDoubling, A::Linear};
    case CollectiveOp::Alltoall:
      return {A::Default, A::Pairwise, A::Linear};
    case CollectiveOp::Gather:
    case CollectiveOp::Scatter:
      return {A::Default, A::Linear, A::Binomial};
  }
  return {};
}

CollectiveAlgorithm default_algorithm(CollectiveOp op) {
  // The explicit algorithm listed right after Default.
  return algorithms_for(op).at(1);
}

}  // namespace interflow::workloads
