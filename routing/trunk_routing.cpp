#include "routing/trunk_routing.hpp"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "topologies/trunks.hpp"

namespace interflow::routing {

namespace {

class TrunkRouting : public Routing {
 public:
  TrunkRouting(std::unique_ptr<Routing> inner, const topo::TrunkedTopology& topology)
      : inner_(std::move(inner)), topology_(topology) {}

  bool multipath() const override { return true; }

  PathTable route_all(const Network& net, const FlowSet& flows, const RouteContext& ctx) const override {
    if (net.num_links() != topology_.network().num_links())
      throw std::logic_error("trunk routing: asked to route on a network other than its topology's");
    const bool failures = std::ranges::any_of(net.link_states(), [](std::uint8_t up) { return up == 0; });
    const PathTable base_paths = failures ? inner_->route_all(base_with_states(net), flows, ctx)
                                          : inner_->route_all(topology_.base().network(), flows, ctx);
    return spread(net, base_paths, failures, ctx);
  }

 private:
  // The base network with a link up while any cable of its trunk is up in `net`.
  Network base_with_states(const Network& net) const {
    Network base = topology_.base().network();
    for (LinkId l = 0; l < base.num_links(); ++l) {
      const LinkId first = topology_.first_cable(l);
      bool up = false;
      for (std::uint32_t j = 0; j < topology_.width(l) && !up; ++j) up = net.up(first + j);
      base.set_up(l, up);
    }
    return base;
  }

  // Cable j of the trunk of base link l: the j-th, or with failures the (j mod u)-th of its u working ones.
  LinkId cable(const Network& net, LinkId l, std::uint32_t j, bool failures) const {
    const LinkId first = topology_.first_cable(l);
    const std::uint32_t width = topology_.width(l);
    if (width == 1) return first;
    if (!failures) return first + j;
    std::uint32_t working = 0;
    for (std::uint32_t i = 0; i < width; ++i) working += net.up(first + i);
    if (working == 0) return first + j;  // the base routing used a dead trunk: keep its (down) link
    for (std::uint32_t i = 0, left = j % working;; ++i)
      if (net.up(first + i) && left-- == 0) return first + i;
  }

  // How many paths base path `var` becomes: T when it crosses a trunk, else 1.
  std::uint32_t copies(const PathTable& paths, std::uint32_t var) const {
    const auto links = paths.links(var);
    const bool trunked = std::ranges::any_of(links, [&](LinkId l) { return topology_.width(l) > 1; });
    return trunked ? topology_.trunks() : 1;
  }

  void spread_flow(const Network& net, const PathTable& paths, FlowId f, bool failures, PathSink& sink) const {
    for (std::uint32_t v = paths.first_var(f); v < paths.end_var(f); ++v) {
      const std::uint32_t n = copies(paths, v);
      for (std::uint32_t j = 0; j < n; ++j) {
        for (const LinkId l : paths.links(v)) sink.push(cable(net, l, j, failures));
        sink.commit(paths.split(v) / n);
      }
    }
  }

  // The trunked table: sized first (every flow's paths and links), then written flow by flow in fixed chunks.
  PathTable spread(const Network& net, const PathTable& paths, bool failures, const RouteContext& ctx) const {
    const std::uint32_t flows = paths.num_flows();
    std::vector<std::uint32_t> vars(flows, 0), links(flows, 0);
    std::uint64_t total_vars = 0, total_links = 0;
    for (FlowId f = 0; f < flows; ++f) {
      for (std::uint32_t v = paths.first_var(f); v < paths.end_var(f); ++v) {
        const std::uint32_t n = copies(paths, v);
        vars[f] += n;
        links[f] += n * static_cast<std::uint32_t>(paths.links(v).size());
      }
      total_vars += vars[f];
      total_links += links[f];
    }
    check_path_memory(total_links, total_vars, ctx);
    PathTable table = PathTableBuilder::allocate(vars, links);
    constexpr std::uint32_t kChunk = 4096;
    tbb::enumerable_thread_specific<PathSink> sinks;
    tbb::parallel_for(std::uint32_t{0}, (flows + kChunk - 1) / kChunk, [&](std::uint32_t c) {
      PathSink& sink = sinks.local();
      for (FlowId f = c * kChunk; f < std::min(flows, (c + 1) * kChunk); ++f) {
        sink.clear();
        sink.begin_flow();
        spread_flow(net, paths, f, failures, sink);
        sink.end_flow();
        PathTableBuilder::store(table, f, sink);
      }
    });
    return table;
  }

  std::unique_ptr<Routing> inner_;
  const topo::TrunkedTopology& topology_;
};

}  // namespace

std::unique_ptr<Routing> create_routing(const RoutingRegistry& registry, const Spec& spec, const Topology& topology) {
  const auto* trunked = dynamic_cast<const topo::TrunkedTopology*>(&topology);
  if (!trunked) return registry.create(spec, topology);
  return std::make_unique<TrunkRouting>(registry.create(spec, trunked->base()), *trunked);
}

}  // namespace interflow::routing
