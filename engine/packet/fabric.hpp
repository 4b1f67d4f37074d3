#pragma once
// The packet engine's view of a network: channels and the elements they join.
//
// Every directed link of the Network is a channel; so is, for each endpoint, its injection into the
// network and its ejection from it. In an indirect network (a fat tree) the endpoint's own links are
// those channels; in a direct network (a torus), whose endpoints are hosted by routers, the endpoint
// gets a local injection channel into its router and a local ejection channel out of it (at
// --endpoint-gbps and the endpoint latency), as a router's local port. A channel's far end holds
// its input buffers (one per virtual channel) and its near end the credits for them.
//
// Rates and latencies are whole cycles of the engine's clock: a channel carries `flits_per_cycle`
// flits per cycle (its capacity / (8 x flit bytes / clock ns), which must come out whole within
// 1 %) and its head reaches the far end `latency` cycles after it left (the link latency rounded up,
// at least 1 cycle).
#include <cstdint>
#include <string>
#include <vector>

#include "core/network.hpp"
#include "core/paths.hpp"

namespace interflow::packet {

using Cycle = std::uint64_t;
using ChannelId = std::uint32_t;
using ElementId = std::uint32_t;  // a router (switch vertex) or a NIC (one per endpoint)

struct ClockConfig {
  double clock_ns = 0;        // 0: the time one flit takes on the slowest link (1 flit/cycle there)
  std::uint32_t flit_bytes = 64;
};

class Fabric {
 public:
  // Channels of `net` plus the local channels of a direct network (at `local`'s endpoint rate and
  // latency). Fails (InputError) for networks whose endpoints forward (server-centric), and when a link's
  // rate is not a whole number of flits per cycle at this clock.
  Fabric(const Network& net, const ClockConfig& clock, const LinkDefaults& local = {});

  std::uint32_t num_channels() const { return static_cast<std::uint32_t>(src_.size()); }
  std::uint32_t num_elements() const { return num_routers_ + num_nics_; }
  std::uint32_t num_routers() const { return num_routers_; }
  std::uint32_t num_nics() const { return num_nics_; }
  bool is_nic(ElementId e) const { return e >= num_routers_; }
  ElementId nic(EndpointId e) const { return num_routers_ + e; }

  ElementId src(ChannelId c) const { return src_[c]; }
  ElementId dst(ChannelId c) const { return dst_[c]; }
  std::uint32_t flits_per_cycle(ChannelId c) const { return rate_[c]; }
  std::uint32_t latency(ChannelId c) const { return latency_[c]; }
  bool up(ChannelId c) const { return up_[c] != 0; }
  // The network link a channel stands for, or kNone for a local channel.
  LinkId link(ChannelId c) const { return link_[c]; }
  // The channel of a network link.
  ChannelId channel_of(LinkId l) const { return link_channel_[l]; }
  // A channel between two routers: the only kind that can lie on a dependency cycle (the hop
  // classes count these), unlike an endpoint's injection or ejection, its own cable or not. A NIC's
  // channel can be made to count as one (stands_for_router_link): the hybrid zoom's boundary
  // endpoint for a cable from an outside router, so that hop classes run on as in the full network.
  bool between_routers(ChannelId c) const {
    return (!is_nic(src_[c]) && !is_nic(dst_[c])) || (!router_link_.empty() && router_link_[c] != 0);
  }
  void stands_for_router_link(ChannelId c) {
    router_link_.resize(src_.size(), 0);
    router_link_[c] = 1;
  }
  ChannelId injection(EndpointId e) const { return injection_[e]; }
  ChannelId ejection(EndpointId e) const { return ejection_[e]; }

  // Input channels of an element (those whose far end it is), CSR.
  std::span<const ChannelId> inputs(ElementId e) const {
    return {in_list_.data() + in_offset_[e], in_offset_[e + 1] - in_offset_[e]};
  }
  // Output channels of an element (those whose near end it is), CSR.
  std::span<const ChannelId> outputs(ElementId e) const {
    return {out_list_.data() + out_offset_[e], out_offset_[e + 1] - out_offset_[e]};
  }
  // A channel's place among the outputs of its near end: outputs(src(c))[output_position(c)] == c.
  std::uint32_t output_position(ChannelId c) const { return out_position_[c]; }

  // The channels a packet from endpoint s to endpoint d crosses on route variable `var` of `paths`:
  // injection, the path's links, ejection (the links of an endpoint's own cables are its injection
  // and ejection already).
  void route(const PathTable& paths, std::uint32_t var, EndpointId s, EndpointId d,
             std::vector<ChannelId>& out) const;

  double clock_ns() const { return clock_ns_; }
  std::uint32_t flit_bytes() const { return flit_bytes_; }
  std::uint32_t router_of_vertex(VertexId v) const { return router_index_[v]; }

 private:
  void add_channel(ElementId src, ElementId dst, double gbps, double latency_ns, bool up, LinkId link,
                   const std::string& what);
  void index_ports();

  double clock_ns_ = 1;
  std::uint32_t flit_bytes_ = 64;
  std::uint32_t num_routers_ = 0, num_nics_ = 0;
  std::vector<std::uint32_t> router_index_;  // vertex -> router (kNone for endpoint vertices)
  std::vector<ElementId> src_, dst_;
  std::vector<std::uint32_t> rate_, latency_;
  std::vector<std::uint8_t> up_;
  std::vector<std::uint8_t> router_link_;  // NIC channels that count as router-to-router (empty: none)
  std::vector<LinkId> link_;
  std::vector<ChannelId> link_channel_;  // network link -> its channel
  std::vector<ChannelId> injection_, ejection_;
  std::vector<std::uint32_t> in_offset_, out_offset_;
  std::vector<ChannelId> in_list_, out_list_;
  std::vector<std::uint32_t> out_position_;
};

// Every route variable of a path table as the channels it crosses (Fabric::route), computed once and
// shared by the deadlock check (virtual_channels.hpp) and the simulator. `paths` holds one flow per
// ordered endpoint pair, flow s * N + d.
class ChannelRoutes {
 public:
  ChannelRoutes(const Fabric& fabric, const PathTable& paths);
  ChannelRoutes() : offset_(1, 0) {}  // empty; routes are added one by one
  // Appends a route of channels; returns its variable number. `first_hops`: the router-to-router
  // channels its packets have crossed before its first one (a hybrid segment's, in the full network),
  // where the hops virtual-channel scheme starts them.
  std::uint32_t add(std::span<const ChannelId> channels, std::uint32_t first_hops = 0) {
    channels_.insert(channels_.end(), channels.begin(), channels.end());
    offset_.push_back(channels_.size());
    if (first_hops > 0 || !first_hops_.empty()) {
      first_hops_.resize(offset_.size() - 1, 0);
      first_hops_.back() = first_hops;
    }
    return static_cast<std::uint32_t>(offset_.size() - 2);
  }
  std::uint32_t first_hops(std::uint32_t var) const { return var < first_hops_.size() ? first_hops_[var] : 0; }
  std::uint32_t num_routes() const { return static_cast<std::uint32_t>(offset_.size() - 1); }
  std::span<const ChannelId> route(std::uint32_t var) const {
    return {channels_.data() + offset_[var], offset_[var + 1] - offset_[var]};
  }
  // Positions in one flat array, for packets that walk their route hop by hop.
  std::uint64_t begin(std::uint32_t var) const { return offset_[var]; }
  std::uint64_t end(std::uint32_t var) const { return offset_[var + 1]; }
  ChannelId at(std::uint64_t position) const { return channels_[position]; }

 private:
  std::vector<std::uint64_t> offset_;
  std::vector<ChannelId> channels_;
  std::vector<std::uint32_t> first_hops_;  // empty while every route starts at 0
};

}  // namespace interflow::packet
