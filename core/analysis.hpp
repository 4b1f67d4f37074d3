#pragma once
// Structural analysis of a network: endpoint-to-endpoint distances (diameter, mean distance). Exact
// mode runs one breadth-first search per attachment vertex (the switch behind single-homed
// endpoints, shared by all of them); when that is too costly, a seeded sample of source endpoints.
#include <cstdint>
#include <vector>

#include "core/network.hpp"
#include "core/progress.hpp"

namespace interflow {

struct DistanceReport {
  bool exact = true;         // false: from `sources` sampled endpoints
  bool by_symmetry = false;  // exact from one source, as every endpoint sees the same distances
  std::uint64_t sources = 0;
  std::uint32_t diameter_links = 0;  // largest finite endpoint-to-endpoint distance seen
  double mean_links = 0;             // mean over ordered pairs of distinct, connected endpoints
  std::uint64_t disconnected_pairs = 0;
};

// Degrees and cable classes: switch radix and endpoint degree ranges, cables touching an endpoint.
struct DegreeReport {
  std::uint32_t switch_radix_min = 0, switch_radix_max = 0;
  std::uint32_t endpoint_degree_min = 0, endpoint_degree_max = 0;
  bool has_switches = false, has_endpoint_vertices = false;
  std::uint64_t endpoint_cables = 0;  // cables with an endpoint vertex at one end (each once)
};
DegreeReport degree_report(const Network& net);

class DistanceAnalysis {
 public:
  // Exact when attachment vertices x links <= work_limit (or there are at most `samples` endpoints);
  // otherwise from `samples` seeded source endpoints.
  DistanceAnalysis(std::uint64_t work_limit = 4'000'000'000ULL, std::uint32_t samples = 1000, std::uint64_t seed = 1)
      : work_limit_(work_limit), samples_(samples), seed_(seed) {}
  // endpoints_symmetric: the network's automorphisms map any endpoint to any other (e.g. a torus),
  // so one search is exact when the exact computation would be too costly.
  DistanceReport run(const Network& net, bool endpoints_symmetric = false) const;
  // Reports the searches done to `progress` (a phase "distances" of one unit per source).
  DistanceAnalysis& report_to(Progress* progress) {
    progress_ = progress;
    return *this;
  }

 private:
  DistanceReport sampled(const Network& net) const;
  DistanceReport from_sources(const Network& net, const std::vector<EndpointId>& sources) const;

  std::uint64_t work_limit_;
  std::uint32_t samples_;
  std::uint64_t seed_;
  Progress* progress_ = nullptr;
};

}  // namespace interflow
