#include "engine/analysis.hpp"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <vector>

#include "engine/random.hpp"

namespace interflow {

namespace {

struct SourceResult {
  std::uint64_t sum = 0, reached = 0, unreached = 0;
  std::uint32_t eccentricity = 0;
};

struct Scratch {
  std::vector<std::uint32_t> dist;
  std::vector<VertexId> queue;
};

}  // namespace

DistanceReport DistanceAnalysis::run(const Network& net) const {
  DistanceReport report;
  const std::uint32_t n = net.num_endpoints();
  std::vector<EndpointId> sources;
  if (static_cast<double>(n) * net.num_links() <= static_cast<double>(work_limit_) || n <= samples_) {
    sources.resize(n);
    for (EndpointId e = 0; e < n; ++e) sources[e] = e;
  } else {
    report.exact = false;
    Rng rng(derive_seed(seed_, Stream::Topology, 1));
    std::vector<EndpointId> all(n);
    for (EndpointId e = 0; e < n; ++e) all[e] = e;
    for (std::uint32_t i = 0; i < samples_; ++i) std::swap(all[i], all[i + rng.below(n - i)]);
    sources.assign(all.begin(), all.begin() + samples_);
  }
  report.sources = sources.size();
  // How many endpoints sit on each vertex (direct networks may host several on one router).
  std::vector<std::uint32_t> hosted(net.num_vertices(), 0);
  for (EndpointId e = 0; e < n; ++e) ++hosted[net.endpoint_vertex(e)];

  std::vector<SourceResult> per_source(sources.size());
  tbb::enumerable_thread_specific<Scratch> scratch;
  tbb::parallel_for(std::size_t{0}, sources.size(), [&](std::size_t i) {
    Scratch& s = scratch.local();
    s.dist.assign(net.num_vertices(), kNone);
    s.queue.clear();
    const VertexId root = net.endpoint_vertex(sources[i]);
    s.dist[root] = 0;
    s.queue.push_back(root);
    for (std::size_t head = 0; head < s.queue.size(); ++head) {
      const VertexId u = s.queue[head];
      // Endpoints that do not forward are leaves, except the source itself.
      if (u != root && net.kind(u) == VertexKind::Endpoint && !net.endpoints_forward()) continue;
      for (LinkId l = net.out_begin(u); l < net.out_end(u); ++l) {
        const VertexId v = net.target(l);
        if (!net.up(l) || s.dist[v] != kNone) continue;
        s.dist[v] = s.dist[u] + 1;
        s.queue.push_back(v);
      }
    }
    SourceResult r;
    for (VertexId v = 0; v < net.num_vertices(); ++v) {
      std::uint32_t count = hosted[v];
      if (v == root) --count;  // the source itself
      if (count == 0) continue;
      if (s.dist[v] == kNone) {
        r.unreached += count;
        continue;
      }
      r.sum += static_cast<std::uint64_t>(s.dist[v]) * count;
      r.reached += count;
      r.eccentricity = std::max(r.eccentricity, s.dist[v]);
    }
    per_source[i] = r;
  });
  std::uint64_t sum = 0, reached = 0;
  for (const auto& r : per_source) {
    sum += r.sum;
    reached += r.reached;
    report.disconnected_pairs += r.unreached;
    report.diameter_links = std::max(report.diameter_links, r.eccentricity);
  }
  report.mean_links = reached ? static_cast<double>(sum) / static_cast<double>(reached) : 0.0;
  return report;
}

}  // namespace interflow
