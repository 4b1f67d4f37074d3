// The routing of the combined storage network (storage/storage_system.hpp): device chains around the
// main network's own routes, and the SAN's own routes for the part behind a gateway.
#include <stdexcept>

#include "storage/storage_system.hpp"

namespace interflow::storage {

// One end of a flow: the main-network node where it enters or leaves, and what lies beyond that node
// (an NVM device's two links, or a SAN server reached through a gateway).
struct FlowEnd {
  EndpointId node = kNone;
  LinkId chain[2] = {kNone, kNone};  // NVM: in the order the flow crosses them
  std::uint32_t server = kNone;      // a SAN server's number ...
  std::uint32_t gateway = kNone;     // ... and the gateway the flow passes
  LinkId disk = kNone;               // the server's disk link in the flow's direction
};

class StorageRouting : public Routing {
 public:
  StorageRouting(const StorageSystem& s, const Routing& main) : s_(s), main_(main) {}

  bool multipath() const override { return main_.multipath() || (s_.san_routing_ && s_.san_routing_->multipath()); }

  PathTable route_all(const Network& net, const FlowSet& flows, const RouteContext& ctx) const override {
    if (&net != &s_.network()) throw std::logic_error("StorageRouting: not the storage system's network");
    const std::size_t n = flows.size();
    std::vector<FlowEnd> from(n), to(n);
    FlowSet main_flows, san_flows;
    std::vector<std::uint32_t> main_of(n, kNone), san_of(n, kNone);
    for (std::size_t f = 0; f < n; ++f) {
      if (flows.src[f] == flows.dst[f]) continue;
      from[f] = end_of(flows.src[f], true);
      to[f] = end_of(flows.dst[f], false);
      if (from[f].server != kNone && to[f].server != kNone) continue;  // server to server: not through the SAN
      resolve_gateway(from[f], to[f]);
      resolve_gateway(to[f], from[f]);
      if (from[f].node != to[f].node) main_of[f] = add(main_flows, flows, f, from[f].node, to[f].node);
      if (from[f].server != kNone)
        san_of[f] = add(san_flows, flows, f, from[f].server, s_.servers() + from[f].gateway);
      if (to[f].server != kNone) san_of[f] = add(san_flows, flows, f, s_.servers() + to[f].gateway, to[f].server);
    }
    const PathTable main_paths = main_.route_all(s_.main_, main_flows, ctx);
    const PathTable san_paths = s_.san_ ? s_.san_routing_->route_all(*s_.san_, san_flows, ctx) : PathTable{};
    PathSink sink;
    for (std::size_t f = 0; f < n; ++f) {
      sink.begin_flow();
      const bool possible = flows.src[f] != flows.dst[f] && from[f].node != kNone && to[f].node != kNone;
      if (possible && routed(main_paths, main_of[f]) && routed(san_paths, san_of[f]))
        compose(from[f], to[f], main_paths, main_of[f], san_paths, san_of[f], sink);
      sink.end_flow();
    }
    check_path_memory(sink.num_links(), sink.num_vars(), ctx);  // SAN variants x main variants
    std::vector<PathSink> sinks;
    sinks.push_back(std::move(sink));
    std::vector<FlowId> order(n);
    for (std::size_t f = 0; f < n; ++f) order[f] = static_cast<FlowId>(f);
    return PathTableBuilder::merge_scattered(sinks, order, n);
  }

 private:
  static bool routed(const PathTable& t, std::uint32_t f) { return f == kNone || t.routed(f); }

  static std::uint32_t add(FlowSet& set, const FlowSet& flows, std::size_t f, EndpointId a, EndpointId b) {
    set.add(a, b);
    if (!flows.weight.empty()) set.weight.push_back(flows.weight[f]);
    return static_cast<std::uint32_t>(set.size() - 1);
  }

  FlowEnd end_of(EndpointId e, bool source) const {
    FlowEnd out;
    if (e < s_.nodes()) {
      out.node = e;
    } else if (const EndpointId node = s_.node_of_nvm(e); node != kNone) {
      const Device& d = s_.devices()[node];
      out.node = node;
      out.chain[0] = source ? d.read_link : d.from_node;
      out.chain[1] = source ? d.to_node : d.write_link;
    } else {
      out.server = e - s_.server(0);
      const Device& d = s_.devices()[(s_.has_nvm() ? s_.nodes() : 0) + out.server];
      out.disk = source ? d.read_link : d.write_link;
    }
    return out;
  }

  // A server end enters the main network at the gateway of the node at the other end.
  void resolve_gateway(FlowEnd& server_end, const FlowEnd& other) const {
    if (server_end.server == kNone) return;
    server_end.gateway = s_.gateway_of(other.node);
    server_end.node = s_.gateway_node(server_end.gateway);
  }

  // The flow's paths: every SAN variant times every main-network variant, each with its chains.
  void compose(const FlowEnd& from, const FlowEnd& to, const PathTable& main_paths, std::uint32_t mf,
               const PathTable& san_paths, std::uint32_t sf, PathSink& sink) const {
    const std::uint32_t san_vars = sf == kNone ? 1 : san_paths.end_var(sf) - san_paths.first_var(sf);
    const std::uint32_t main_vars = mf == kNone ? 1 : main_paths.end_var(mf) - main_paths.first_var(mf);
    for (std::uint32_t a = 0; a < san_vars; ++a)
      for (std::uint32_t b = 0; b < main_vars; ++b) {
        double split = 1;
        if (from.server != kNone) split *= push_server_leg(from, true, san_paths, sf, a, sink);
        for (LinkId l : from.chain)
          if (l != kNone) sink.push(l);
        if (mf != kNone) {
          const std::uint32_t v = main_paths.first_var(mf) + b;
          for (LinkId l : main_paths.links(v)) sink.push(s_.main_link(l));
          split *= main_paths.split(v);
        }
        for (LinkId l : to.chain)
          if (l != kNone) sink.push(l);
        if (to.server != kNone) split *= push_server_leg(to, false, san_paths, sf, a, sink);
        sink.commit(split);
      }
  }

  // Disk, SAN route and gateway cable, in the direction of the flow; returns the SAN variant's split.
  double push_server_leg(const FlowEnd& e, bool source, const PathTable& san_paths, std::uint32_t sf,
                         std::uint32_t variant, PathSink& sink) const {
    const std::uint32_t v = san_paths.first_var(sf) + variant;
    if (source) sink.push(e.disk);
    else sink.push(s_.gateway_out_[e.gateway]);
    for (LinkId l : san_paths.links(v)) sink.push(s_.san_link_[l]);
    if (source) sink.push(s_.gateway_in_[e.gateway]);
    else sink.push(e.disk);
    return san_paths.split(v);
  }

  const StorageSystem& s_;
  const Routing& main_;
};

std::unique_ptr<Routing> StorageSystem::routing(const Routing& main_routing) const {
  return std::make_unique<StorageRouting>(*this, main_routing);
}

}  // namespace interflow::storage
