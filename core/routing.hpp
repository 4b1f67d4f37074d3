#pragma once
// The routing interface the engines call. A routing answers, for every flow, one or more weighted
// paths of directed link ids (see PathTable). Implementations live in routing/.
#include <atomic>
#include <cstdint>
#include <functional>
#include <span>

#include "core/flows.hpp"
#include "core/network.hpp"
#include "core/paths.hpp"
#include "core/progress.hpp"

namespace interflow {

struct RouteContext {
  std::uint64_t seed = 1;                          // the run seed; per-flow streams derive from it
  std::atomic<std::uint64_t>* progress = nullptr;  // flows routed so far (optional)
  std::uint64_t max_path_bytes = 8ULL << 30;       // refuse routings whose paths would need more memory

  // The context every engine builds from its options (progress may be null).
  static RouteContext of(std::uint64_t seed, std::uint64_t max_path_bytes, Progress* progress) {
    return {seed, progress ? progress->counter() : nullptr, max_path_bytes};
  }
};

// Memory of routed paths in a PathTable: 4 bytes per link entry, 12 per path variable (offset, split).
inline std::uint64_t path_bytes(std::uint64_t link_entries, std::uint64_t vars) { return 4 * link_entries + 12 * vars; }

// Throws an InputError when paths of that size exceed ctx.max_path_bytes.
void check_path_memory(std::uint64_t link_entries, std::uint64_t vars, const RouteContext& ctx);

// Appends link l to the path being built, or, when l does not exist (kNone) or is down, drops every
// path of the flow and returns false: what single-path routings without an alternative do.
inline bool push_or_drop(const Network& net, LinkId l, PathSink& sink) {
  if (l == kNone || (!net.all_up() && !net.up(l))) {
    sink.drop_flow();
    return false;
  }
  sink.push(l);
  return true;
}

class Routing {
 public:
  virtual ~Routing() = default;
  // Routes every flow of `flows` on `net`. Must give the same table for any thread count.
  virtual PathTable route_all(const Network& net, const FlowSet& flows, const RouteContext& ctx) const = 0;
  virtual bool multipath() const { return false; }
};

// Base for routings that compute each flow's paths independently of the others: route_all() runs
// route() over fixed-size chunks of flows in parallel and concatenates them in flow order.
class PerFlowRouting : public Routing {
 public:
  // Appends the paths of flow (src -> dst) to `sink`. Leave the sink empty for an unroutable flow.
  // `flow_seed` is this flow's own random stream (derived from the run seed and the flow index).
  virtual void route(const Network& net, EndpointId src, EndpointId dst, std::uint64_t flow_seed,
                     PathSink& sink) const = 0;
  PathTable route_all(const Network& net, const FlowSet& flows, const RouteContext& ctx) const override;

  static constexpr std::size_t kChunk = 4096;  // fixed, so results never depend on the thread count
};

// Base for adaptive routings whose choice for a flow depends on the paths of the flows routed before
// it (UGAL-style, minimal-adaptive). route_all() routes the flows one at a time in flow-index order,
// so the result does not depend on the thread count, and keeps `paths_on_link`: how many paths
// already placed cross each link. Self flows are skipped.
class LoadAwareRouting : public Routing {
 public:
  // Appends the paths of flow (src -> dst) to `sink` (none: unroutable), knowing the load so far.
  virtual void route(const Network& net, EndpointId src, EndpointId dst, std::uint64_t flow_seed,
                     std::span<const std::uint32_t> paths_on_link, PathSink& sink) const = 0;
  PathTable route_all(const Network& net, const FlowSet& flows, const RouteContext& ctx) const override;

 private:
  static constexpr std::size_t kProgressStep = 4096;
};

}  // namespace interflow
