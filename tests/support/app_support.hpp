#pragma once
// Helpers shared by the application tests: applications built through the real registries (as the
// CLI builds them) and the star fixture they are timed on.
#include <string>

#include "tests/support/test_support.hpp"
#include "workloads/application.hpp"

namespace interflow::test {

// The registries applications are built from (the kernels and, for the phased-pattern kernel, the
// patterns).
inline const cli::Plugins& app_registries() { return plugins(); }

// Application number `index` from its spec, placed on a pool of `endpoints` free endpoints whose
// injection links carry 10 Gbit/s (the star fixture's rate; it matters to injection-rate kernels).
inline Application make_app(const std::string& spec, std::uint32_t endpoints = 64, std::uint32_t index = 0) {
  workloads::EndpointPool pool(endpoints);
  workloads::AppSettings s;
  s.patterns = &app_registries().patterns;
  s.endpoint_gbps = 10;
  return workloads::make_application(app_registries().apps, Spec::parse(spec, "test"), index, pool, s);
}

// tests/fixtures/star.ifg: 8 endpoints on one switch, 10 Gbit/s and 100 ns links.
inline std::string star_topology() {
  return "graph:file=" + std::string(INTERFLOW_SOURCE_DIR) + "/tests/fixtures/star.ifg";
}

}  // namespace interflow::test
