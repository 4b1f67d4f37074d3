// consecutive and random task mapping, and the registry.
#include "scheduler/mapping.hpp"

namespace interflow::scheduler {

namespace {

class ConsecutiveMapping : public MappingPolicy {
 public:
  void map(std::uint32_t, std::vector<EndpointId>&, Rng&) const override {}
};

class RandomMapping : public MappingPolicy {
 public:
  void map(std::uint32_t, std::vector<EndpointId>& nodes, Rng& rng) const override {
    for (std::size_t t = nodes.size(); t > 1; --t) std::swap(nodes[t - 1], nodes[rng.below(t)]);
  }
};

}  // namespace

void register_mapping_policies(MappingRegistry& registry) {
  registry.add({"consecutive",
                "task t on the t-th allocated node in id order",
                {},
                [](const ParamSet&, const std::vector<Job>&) -> std::unique_ptr<MappingPolicy> {
                  return std::make_unique<ConsecutiveMapping>();
                },
                "The consecutive mapping of Navaridas et al. 2019, §3.4."});
  registry.add({"random",
                "tasks on the allocated nodes in a random order (from the seed and the job)",
                {},
                [](const ParamSet&, const std::vector<Job>&) -> std::unique_ptr<MappingPolicy> {
                  return std::make_unique<RandomMapping>();
                },
                "The random mapping of Navaridas et al. 2019, §3.4: a Fisher-Yates shuffle per job."});
  register_file_mapping(registry);
}

}  // namespace interflow::scheduler
