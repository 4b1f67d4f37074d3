#include "engine/packet/fabric.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/error.hpp"
#include "core/format.hpp"

namespace interflow::packet {

Fabric::Fabric(const Network& net, const ClockConfig& clock, const LinkDefaults& local) : flit_bytes_(clock.flit_bytes) {
  if (net.endpoints_forward())
    throw InputError("the packet engine does not yet model networks whose servers forward traffic "
                     "(server-centric topologies); choose a switch-based or direct topology");
  if (flit_bytes_ == 0) throw InputError("--flit-bytes must be at least 1");
  // The slowest channel, local ones included: it carries one flit per cycle at the default clock.
  double slowest = net.direct() ? local.endpoint_gbps : 1e300;
  for (LinkId l = 0; l < net.num_links(); ++l) slowest = std::min(slowest, net.capacity_gbps(l));
  clock_ns_ = clock.clock_ns > 0 ? clock.clock_ns : 8.0 * flit_bytes_ / slowest;
  router_index_.assign(net.num_vertices(), kNone);
  for (VertexId v = 0; v < net.num_vertices(); ++v)
    if (net.kind(v) == VertexKind::Switch) router_index_[v] = num_routers_++;
  num_nics_ = net.num_endpoints();
  std::vector<ElementId> element(net.num_vertices());
  for (VertexId v = 0; v < net.num_vertices(); ++v) element[v] = router_index_[v];
  for (EndpointId e = 0; e < num_nics_; ++e)
    if (net.kind(net.endpoint_vertex(e)) == VertexKind::Endpoint) element[net.endpoint_vertex(e)] = nic(e);
  link_channel_.assign(net.num_links(), kNone);
  for (LinkId l = 0; l < net.num_links(); ++l) {
    link_channel_[l] = num_channels();
    add_channel(element[net.source(l)], element[net.target(l)], net.capacity_gbps(l), net.latency_ns(l), net.up(l), l,
                "link " + std::to_string(l));
  }
  injection_.assign(num_nics_, kNone);
  ejection_.assign(num_nics_, kNone);
  for (EndpointId e = 0; e < num_nics_; ++e) {
    const VertexId v = net.endpoint_vertex(e);
    if (net.kind(v) == VertexKind::Endpoint) {  // its own cable: the first up link each way
      for (LinkId l = net.out_begin(v); l < net.out_end(v); ++l)
        if (injection_[e] == kNone) injection_[e] = link_channel_[l], ejection_[e] = link_channel_[net.reverse(l)];
      continue;
    }
    injection_[e] = num_channels();
    add_channel(nic(e), router_index_[v], local.endpoint_gbps, local.endpoint_latency_ns, true, kNone,
                "the injection of endpoint " + std::to_string(e));
    ejection_[e] = num_channels();
    add_channel(router_index_[v], nic(e), local.endpoint_gbps, local.endpoint_latency_ns, true, kNone,
                "the ejection of endpoint " + std::to_string(e));
  }
  index_ports();
}

void Fabric::add_channel(ElementId src, ElementId dst, double gbps, double latency_ns, bool up, LinkId link,
                         const std::string& what) {
  const double flits = gbps * clock_ns_ / (8.0 * flit_bytes_);
  const double whole = std::round(flits);
  if (whole < 1 || std::abs(flits - whole) > 0.01 * whole)
    throw InputError("packet engine: " + what + " carries " + number_text(flits) + " flits per cycle at a " +
                     number_text(clock_ns_) + " ns clock and " + std::to_string(flit_bytes_) +
                     "-byte flits; every channel must carry a whole number of flits per cycle (choose --clock-ns "
                     "or link rates that are multiples of the slowest)");
  src_.push_back(src);
  dst_.push_back(dst);
  rate_.push_back(static_cast<std::uint32_t>(whole));
  latency_.push_back(std::max<std::uint32_t>(1, static_cast<std::uint32_t>(std::ceil(latency_ns / clock_ns_ - 1e-9))));
  up_.push_back(up ? 1 : 0);
  link_.push_back(link);
}

namespace {

// Channels grouped by an element (their far or near end) as CSR.
void group_by(const std::vector<ElementId>& end, std::uint32_t elements, std::vector<std::uint32_t>& offset,
              std::vector<ChannelId>& list) {
  offset.assign(elements + 1, 0);
  for (const ElementId e : end) ++offset[e + 1];
  for (ElementId e = 0; e < elements; ++e) offset[e + 1] += offset[e];
  list.resize(end.size());
  std::vector<std::uint32_t> fill(offset.begin(), offset.end() - 1);
  for (ChannelId c = 0; c < end.size(); ++c) list[fill[end[c]]++] = c;
}

}  // namespace

void Fabric::index_ports() {
  group_by(dst_, num_elements(), in_offset_, in_list_);
  group_by(src_, num_elements(), out_offset_, out_list_);
  out_position_.assign(num_channels(), 0);
  for (ElementId e = 0; e < num_elements(); ++e)
    for (std::uint32_t k = out_offset_[e]; k < out_offset_[e + 1]; ++k) out_position_[out_list_[k]] = k - out_offset_[e];
}

void Fabric::route(const PathTable& paths, std::uint32_t var, EndpointId s, EndpointId d,
                   std::vector<ChannelId>& out) const {
  out.clear();
  const auto links = paths.links(var);
  const bool own_first = !links.empty() && link_channel_[links.front()] == injection_[s];
  const bool own_last = !links.empty() && link_channel_[links.back()] == ejection_[d];
  if (!own_first) out.push_back(injection_[s]);
  for (LinkId l : links) out.push_back(link_channel_[l]);
  if (!own_last) out.push_back(ejection_[d]);
}

ChannelRoutes::ChannelRoutes(const Fabric& fabric, const PathTable& paths) : offset_(paths.num_vars() + 1, 0) {
  const std::uint32_t n = fabric.num_nics();
  if (paths.num_flows() != static_cast<std::uint64_t>(n) * n)
    throw std::logic_error("ChannelRoutes: the path table must hold one flow per ordered endpoint pair");
  std::vector<ChannelId> route;
  for (FlowId f = 0; f < paths.num_flows(); ++f)
    for (std::uint32_t v = paths.first_var(f); v < paths.end_var(f); ++v) {
      fabric.route(paths, v, f / n, f % n, route);
      channels_.insert(channels_.end(), route.begin(), route.end());
      offset_[v + 1] = channels_.size();
    }
}

}  // namespace interflow::packet
