#pragma once
// Task mapping (Navaridas et al. 2019, §3.4; manual/scheduler.md "Task mapping"): which of a job's allocated nodes
// each of its tasks runs on, in network-aware runs. Policies are registered by name: consecutive,
// random, file.
#include <cstdint>
#include <memory>
#include <vector>

#include "core/random.hpp"
#include "core/registry.hpp"
#include "core/types.hpp"
#include "scheduler/jobs.hpp"

namespace interflow::scheduler {

class MappingPolicy {
 public:
  virtual ~MappingPolicy() = default;
  // `nodes` holds the job's allocated nodes in id order; reorder it so that task t runs on nodes[t].
  // `job` is the job's position in the stream; `rng` is drawn from the run's seed and the job.
  virtual void map(std::uint32_t job, std::vector<EndpointId>& nodes, Rng& rng) const = 0;
};

// Factories get the job stream (the file mapping names jobs by id).
using MappingRegistry = Registry<MappingPolicy, const std::vector<Job>&>;
void register_mapping_policies(MappingRegistry& registry);
void register_file_mapping(MappingRegistry& registry);  // file

}  // namespace interflow::scheduler
