#pragma once
// The scheduler's policies built through the registries, as the CLI builds them.
#include "tests/support/test_support.hpp"

namespace interflow::test {

inline const cli::Plugins& scheduler_registries() { return plugins(); }

// An allocation policy by spec for a machine without a network (or with `ctx`'s).
inline std::unique_ptr<scheduler::AllocationPolicy> allocation(const std::string& spec,
                                                               const scheduler::AllocationContext& ctx = {}) {
  return scheduler_registries().allocations.create(Spec::parse(spec, "test"), ctx);
}

inline std::unique_ptr<scheduler::MappingPolicy> mapping(const std::string& spec,
                                                         const std::vector<scheduler::Job>& jobs) {
  return scheduler_registries().mappings.create(Spec::parse(spec, "test"), jobs);
}

}  // namespace interflow::test
