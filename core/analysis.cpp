#include "core/analysis.hpp"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <vector>

#include "core/random.hpp"

namespace interflow {

namespace {

// What one search (one source, or one attachment group) contributes to the report.
struct PartialDistances {
  std::uint64_t sum = 0;        // sum of the distances of its pairs, in links
  std::uint64_t pairs = 0;      // pairs reached
  std::uint64_t unreached = 0;  // pairs not reached
  std::uint32_t eccentricity = 0;
};

// Adds the partial results into the report's diameter, disconnected pairs and mean distance.
void add_up(const std::vector<PartialDistances>& parts, DistanceReport& report) {
  std::uint64_t sum = 0, pairs = 0;
  for (const auto& r : parts) {
    sum += r.sum;
    pairs += r.pairs;
    report.disconnected_pairs += r.unreached;
    report.diameter_links = std::max(report.diameter_links, r.eccentricity);
  }
  report.mean_links = pairs ? static_cast<double>(sum) / static_cast<double>(pairs) : 0.0;
}

struct Scratch {
  std::vector<std::uint32_t> dist;
  std::vector<VertexId> queue;
};

}  // namespace

namespace {

// Breadth-first search from `root` into s.dist (kNone = unreached) and s.queue. Endpoints that do
// not forward are leaves, except the root itself.
void search(const Network& net, VertexId root, Scratch& s) {
  s.dist.assign(net.num_vertices(), kNone);
  s.queue.clear();
  s.dist[root] = 0;
  s.queue.push_back(root);
  for (std::size_t head = 0; head < s.queue.size(); ++head) {
    const VertexId u = s.queue[head];
    if (u != root && net.kind(u) == VertexKind::Endpoint && !net.endpoints_forward()) continue;
    for (LinkId l = net.out_begin(u); l < net.out_end(u); ++l) {
      const VertexId v = net.target(l);
      if (!net.up(l) || s.dist[v] != kNone) continue;
      s.dist[v] = s.dist[u] + 1;
      s.queue.push_back(v);
    }
  }
}

// Where distances to an endpoint are measured from: the switch of an endpoint that hangs off one
// switch on one working cable (it adds one link at either end of a path), or the endpoint's own
// vertex (direct, multi-homed or forwarding endpoints).
struct Attachment {
  VertexId vertex;
  bool leaf;
};

// The endpoints measured from one attachment vertex: `leaf` of them one link away, `direct` on it.
struct Group {
  VertexId vertex;
  std::uint64_t leaf = 0, direct = 0;
};

Attachment attachment_of(const Network& net, VertexId v) {
  if (net.kind(v) != VertexKind::Endpoint || net.degree(v) != 1 || net.endpoints_forward()) return {v, false};
  const LinkId l = net.out_begin(v);
  const VertexId sw = net.target(l);
  if (net.kind(sw) != VertexKind::Switch || !net.up(l) || !net.up(net.reverse(l))) return {v, false};
  return {sw, true};
}

DistanceReport exact_distances(const Network& net, const std::vector<Group>& groups,
                               const std::vector<std::uint32_t>& group_of) {
  // One search per attachment group serves all its endpoints. For a source group A with n_A
  // endpoints (L_A leaves) and the set of groups it reaches, holding R endpoints (LR leaves):
  //   sum of distances = sum_B n_A n_B d(A,B) + L_A (R - 1) + n_A LR - L_A, over n_A (R - 1) pairs,
  // since a leaf endpoint adds one link at its end of every path.
  DistanceReport report;
  report.sources = net.num_endpoints();
  std::vector<PartialDistances> per_group(groups.size());
  tbb::enumerable_thread_specific<Scratch> scratch;
  tbb::parallel_for(std::size_t{0}, groups.size(), [&](std::size_t a) {
    Scratch& s = scratch.local();
    search(net, groups[a].vertex, s);
    const std::uint64_t leaf_a = groups[a].leaf, n_a = groups[a].leaf + groups[a].direct;
    std::uint64_t reached = 0, reached_leaves = 0, weighted = 0;
    PartialDistances r;
    for (const VertexId v : s.queue) {
      const std::uint32_t b = group_of[v];
      if (b == kNone) continue;
      const std::uint64_t leaf_b = groups[b].leaf;
      reached += leaf_b + groups[b].direct;
      reached_leaves += leaf_b;
      weighted += (leaf_b + groups[b].direct) * s.dist[v];
      if (b != a) {
        r.eccentricity = std::max(r.eccentricity, s.dist[v] + (leaf_a > 0) + (leaf_b > 0));
      } else if (n_a >= 2) {  // two endpoints of the same group
        const std::uint32_t within = leaf_a >= 2 ? 2 : (leaf_a >= 1 ? 1 : 0);
        r.eccentricity = std::max(r.eccentricity, within);
      }
    }
    r.sum = n_a * weighted + leaf_a * (reached - 1) + n_a * reached_leaves - leaf_a;
    r.pairs = n_a * (reached - 1);
    r.unreached = n_a * (net.num_endpoints() - reached);
    per_group[a] = r;
  });
  add_up(per_group, report);
  return report;
}

}  // namespace

DistanceReport DistanceAnalysis::run(const Network& net, bool endpoints_symmetric) const {
  const std::uint32_t n = net.num_endpoints();
  std::vector<std::uint32_t> group_of(net.num_vertices(), kNone);
  std::vector<Group> groups;
  for (EndpointId e = 0; e < n; ++e) {
    const Attachment a = attachment_of(net, net.endpoint_vertex(e));
    if (group_of[a.vertex] == kNone) {
      group_of[a.vertex] = static_cast<std::uint32_t>(groups.size());
      groups.push_back({a.vertex});
    }
    (a.leaf ? groups[group_of[a.vertex]].leaf : groups[group_of[a.vertex]].direct) += 1;
  }
  if (static_cast<double>(groups.size()) * net.num_links() <= static_cast<double>(work_limit_) || n <= samples_)
    return exact_distances(net, groups, group_of);
  if (endpoints_symmetric) {
    // Every endpoint sees the same distances: one search from endpoint 0 is exact for all pairs.
    DistanceReport report = from_sources(net, {0});
    report.exact = report.by_symmetry = true;
    report.sources = n;
    report.disconnected_pairs *= n;
    return report;
  }
  return sampled(net);
}

DistanceReport DistanceAnalysis::sampled(const Network& net) const {
  const std::uint32_t n = net.num_endpoints();
  Rng rng(derive_seed(seed_, Stream::Topology, 1));
  std::vector<EndpointId> sources(n);
  for (EndpointId e = 0; e < n; ++e) sources[e] = e;
  for (std::uint32_t i = 0; i < samples_; ++i) std::swap(sources[i], sources[i + rng.below(n - i)]);
  sources.resize(samples_);
  DistanceReport report = from_sources(net, sources);
  report.exact = false;
  return report;
}

DistanceReport DistanceAnalysis::from_sources(const Network& net, const std::vector<EndpointId>& sources) const {
  DistanceReport report;
  const std::uint32_t n = net.num_endpoints();
  report.sources = sources.size();
  // How many endpoints sit on each vertex (direct networks may host several on one router).
  std::vector<std::uint32_t> hosted(net.num_vertices(), 0);
  for (EndpointId e = 0; e < n; ++e) ++hosted[net.endpoint_vertex(e)];

  std::vector<PartialDistances> per_source(sources.size());
  tbb::enumerable_thread_specific<Scratch> scratch;
  if (progress_) progress_->phase("distances", sources.size());
  std::atomic<std::uint64_t>* done = progress_ ? progress_->counter() : nullptr;
  tbb::parallel_for(std::size_t{0}, sources.size(), [&](std::size_t i) {
    Scratch& s = scratch.local();
    const VertexId root = net.endpoint_vertex(sources[i]);
    search(net, root, s);
    PartialDistances r;
    for (const VertexId v : s.queue) {
      std::uint32_t count = hosted[v];
      if (v == root) --count;  // the source itself
      if (count == 0) continue;
      r.sum += static_cast<std::uint64_t>(s.dist[v]) * count;
      r.pairs += count;
      r.eccentricity = std::max(r.eccentricity, s.dist[v]);
    }
    r.unreached = n - 1 - r.pairs;
    per_source[i] = r;
    if (done) done->fetch_add(1, std::memory_order_relaxed);
  });
  add_up(per_source, report);
  return report;
}

DegreeReport degree_report(const Network& net) {
  DegreeReport r;
  for (VertexId v = 0; v < net.num_vertices(); ++v) {
    const std::uint32_t d = net.degree(v);
    if (net.kind(v) == VertexKind::Switch) {
      r.switch_radix_min = r.has_switches ? std::min(r.switch_radix_min, d) : d;
      r.switch_radix_max = std::max(r.switch_radix_max, d);
      r.has_switches = true;
      continue;
    }
    r.endpoint_degree_min = r.has_endpoint_vertices ? std::min(r.endpoint_degree_min, d) : d;
    r.endpoint_degree_max = std::max(r.endpoint_degree_max, d);
    r.has_endpoint_vertices = true;
    // Cables touching an endpoint, each once (server-to-server cables from their lower end).
    for (LinkId l = net.out_begin(v); l < net.out_end(v); ++l)
      r.endpoint_cables += net.kind(net.target(l)) == VertexKind::Switch || net.target(l) > v;
  }
  return r;
}

}  // namespace interflow
