#pragma once
// MPI collectives expanded into point-to-point operations of a task program (manual/collectives.md).
//
// A collective runs among a communicator: `members[i]` is the task id (of the ProgramBuilder) of rank
// i. Every message of one collective carries one fresh tag of the builder, so it never matches an
// operation outside the collective; matching inside it relies on the non-overtaking rule.
//
// What `bytes` means:
//   bcast, reduce, allreduce   the whole buffer
//   allgather, gather          each rank's contribution (the result holds n x bytes)
//   scatter                    each rank's piece (the root's buffer holds n x bytes)
//   alltoall                   the bytes from one rank to one other rank
//   barrier                    ignored: every message is of 0 bytes
//
// `root` is a rank of the communicator (not a task id); only bcast, reduce, gather and scatter use it.
// The algorithms follow MPICH (Thakur, Rabenseifner & Gropp, IJHPCA 2005). Reductions are modelled
// as messages only: no compute time is added for combining buffers.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/program.hpp"

namespace interflow::workloads {

enum class CollectiveOp { Barrier, Bcast, Reduce, Allreduce, Allgather, Alltoall, Gather, Scatter };

// What Default resolves to (default_algorithm):
//   barrier dissemination, bcast binomial, reduce binomial, allreduce recdoubling, allgather ring,
//   alltoall pairwise, gather linear, scatter linear.
enum class CollectiveAlgorithm { Default, Linear, Binomial, RecursiveDoubling, Ring, Pairwise, Dissemination };

struct Collective {
  CollectiveOp op;
  CollectiveAlgorithm algorithm = CollectiveAlgorithm::Default;
  double bytes = 8;
  std::uint32_t root = 0;
  std::uint8_t klass = kAppClass;  // the service class of every message
};

// Appends the operations of one collective among `members` to b, taking one tag from b.next_tag().
// Throws InputError for an empty communicator, duplicate members, a member beyond the builder's tasks,
// a root outside the communicator (rooted operations), a size that is not a finite number >= 0, or an
// algorithm that does not apply (recdoubling allgather needs a power-of-two number of ranks).
void add_collective(ProgramBuilder& b, std::span<const std::uint32_t> members, const Collective& c);

// "barrier", "bcast", "reduce", "allreduce", "allgather", "alltoall", "gather", "scatter".
CollectiveOp collective_op_from_name(const std::string& name);
// "default", "linear", "binomial", "recdoubling", "ring", "pairwise", "dissemination".
CollectiveAlgorithm algorithm_from_name(const std::string& name);
std::string name_of(CollectiveOp op);
std::string name_of(CollectiveAlgorithm algorithm);

// The algorithms add_collective accepts for op: Default first, then the others it may name.
std::vector<CollectiveAlgorithm> algorithms_for(CollectiveOp op);
// The algorithm Default stands for.
CollectiveAlgorithm default_algorithm(CollectiveOp op);

}  // namespace interflow::workloads
