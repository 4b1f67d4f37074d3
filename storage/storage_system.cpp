#include "storage/storage_system.hpp"

#include <cmath>
#include <stdexcept>

#include "core/error.hpp"

namespace interflow::storage {

namespace {

void check_rate(double v, const char* option) {
  if (!std::isfinite(v) || v <= 0 || v > 1e9)
    throw InputError(std::string(option) + " must be a bandwidth in (0, 1e9] Gbit/s (got " + std::to_string(v) + ")");
}

void check_latency(double v, const char* option) {
  if (!std::isfinite(v) || v < 0 || v > 1e12)
    throw InputError(std::string(option) + " must be a latency in [0, 1e12] ns (got " + std::to_string(v) + ")");
}

// Adds every cable of `net` between its vertices shifted by `base`, each direction at its own port, so
// that link l of `net` is the (l - out_begin)-th out-link of its vertex in the new network too.
void copy_cables(NetworkBuilder& b, const Network& net, VertexId base) {
  for (LinkId l = 0; l < net.num_links(); ++l) {
    const LinkId r = net.reverse(l);
    if (r < l) continue;
    const VertexId u = net.source(l), v = net.target(l);
    b.add_cable(base + u, base + v, net.capacity_gbps(l), net.latency_ns(l), l - net.out_begin(u),
                r - net.out_begin(v));
  }
}

// The id in `combined` of every link of `net` copied at `base`, with its own capacity and state.
std::vector<LinkId> translate(Network& combined, const Network& net, VertexId base) {
  std::vector<LinkId> out(net.num_links());
  for (LinkId l = 0; l < net.num_links(); ++l) {
    const VertexId u = net.source(l);
    const LinkId c = combined.out_begin(base + u) + (l - net.out_begin(u));
    if (combined.target(c) != base + net.target(l)) throw std::logic_error("StorageSystem: a link moved");
    combined.set_capacity(c, net.capacity_gbps(l));
    combined.set_up(c, net.up(l));
    out[l] = c;
  }
  return out;
}

}  // namespace

void check_storage_config(const StorageConfig& c) {
  check_rate(c.nvm_read_gbps, "--nvm-read-gbps");
  check_rate(c.nvm_write_gbps, "--nvm-write-gbps");
  check_rate(c.pcie_gbps, "--pcie-gbps");
  check_latency(c.nvm_latency_ns, "--nvm-latency-ns");
  check_rate(c.server_gbps, "--server-gbps");
  check_rate(c.gateway_gbps, "--gateway-gbps");
  check_latency(c.gateway_latency_ns, "--gateway-latency-ns");
}

StorageSystem::StorageSystem(const Network& main, const StorageConfig& config, const Network* san,
                             const Routing* san_routing)
    : main_(main), config_(config), san_(san), san_routing_(san_routing), nodes_(main.num_endpoints()) {
  check_storage_config(config_);
  if ((san == nullptr) != (san_routing == nullptr)) throw std::logic_error("StorageSystem: a SAN needs its routing");
  if (!san && config_.servers > 0) throw InputError("--san-servers needs a SAN topology (--san)");
  if (san) {
    if (config_.servers == 0) throw InputError("the SAN (--san) has no server: give --san-servers N");
    if (config_.servers >= san->num_endpoints())
      throw InputError("the SAN (--san) has " + std::to_string(san->num_endpoints()) + " endpoints and --san-servers " +
                       std::to_string(config_.servers) + " makes them all servers: it has no gateway to the main "
                       "network (leave at least one endpoint for a gateway)");
    servers_ = config_.servers;
    const std::uint32_t gateways = san->num_endpoints() - servers_;
    if (config_.gateway_nodes.empty()) {
      for (std::uint32_t g = 0; g < gateways; ++g)
        gateway_node_.push_back(static_cast<EndpointId>(std::uint64_t{g} * nodes_ / gateways));
    } else {
      if (config_.gateway_nodes.size() != gateways)
        throw InputError("--gateway-nodes gives " + std::to_string(config_.gateway_nodes.size()) +
                         " nodes; the SAN has " + std::to_string(gateways) + " gateways (its endpoints after the " +
                         std::to_string(servers_) + " servers)");
      for (EndpointId n : config_.gateway_nodes)
        if (n >= nodes_)
          throw InputError("--gateway-nodes: node " + std::to_string(n) + " is beyond the network's " +
                           std::to_string(nodes_) + " endpoints");
      gateway_node_ = config_.gateway_nodes;
    }
  }
  NetworkBuilder b;
  copy_main(b, main);
  if (config_.nvm) add_nvm(b, main);
  if (san) add_san(b, main, *san);
  net_ = b.build();
  record_links(main);
  if (san) choose_gateways(main);
}

void StorageSystem::copy_main(NetworkBuilder& b, const Network& main) {
  b.add_vertices_of(main);
  copy_cables(b, main, 0);
}

void StorageSystem::add_nvm(NetworkBuilder& b, const Network& main) {
  nvm_base_ = b.num_vertices();
  for (EndpointId n = 0; n < nodes_; ++n) {
    VertexId device = 0;
    b.add_endpoint_vertex(&device);
    const VertexId pcie = b.add_switch();
    b.add_cable(device, pcie, config_.nvm_read_gbps, config_.nvm_latency_ns);
    b.add_cable(pcie, main.endpoint_vertex(n), config_.pcie_gbps, config_.nvm_latency_ns);
  }
}

void StorageSystem::add_san(NetworkBuilder& b, const Network& main, const Network& san) {
  san_base_ = b.num_vertices();
  for (VertexId v = 0; v < san.num_vertices(); ++v) b.add_switch();  // SAN endpoints are not flow endpoints here
  copy_cables(b, san, san_base_);
  disk_base_ = b.num_vertices();
  for (std::uint32_t s = 0; s < servers_; ++s) {
    VertexId disk = 0;
    const EndpointId e = b.add_endpoint_vertex(&disk);
    if (s == 0) server_base_ = e;
    b.add_cable(disk, san_base_ + san.endpoint_vertex(s), config_.server_gbps, 0);
  }
  for (std::uint32_t g = 0; g < gateway_node_.size(); ++g)
    b.add_cable(san_base_ + san.endpoint_vertex(servers_ + g), main.endpoint_vertex(gateway_node_[g]),
                config_.gateway_gbps, config_.gateway_latency_ns);
}

void StorageSystem::record_links(const Network& main) {
  main_link_ = translate(net_, main, 0);
  if (san_) san_link_ = translate(net_, *san_, san_base_);
  if (config_.nvm)
    for (EndpointId n = 0; n < nodes_; ++n) {
      const VertexId device = nvm_base_ + 2 * n, pcie = device + 1, host = main.endpoint_vertex(n);
      Device d{DeviceKind::Nvm, n, nvm(n), net_.find_link(device, pcie), net_.find_link(pcie, device),
               net_.find_link(pcie, host), net_.find_link(host, pcie)};
      net_.set_capacity(d.write_link, config_.nvm_write_gbps);
      devices_.push_back(d);
    }
  for (std::uint32_t s = 0; s < servers_; ++s) {
    const VertexId disk = disk_base_ + s, port = san_base_ + san_->endpoint_vertex(s);
    devices_.push_back({DeviceKind::Server, s, server(s), net_.find_link(disk, port), net_.find_link(port, disk)});
  }
  for (std::uint32_t g = 0; g < gateways(); ++g) {
    const VertexId port = san_base_ + san_->endpoint_vertex(servers_ + g), host = main.endpoint_vertex(gateway_node_[g]);
    gateway_in_.push_back(net_.find_link(port, host));
    gateway_out_.push_back(net_.find_link(host, port));
  }
}

// A breadth-first search from every gateway's node at once, over links that are up, through
// endpoints only where the network lets them forward: each node gets the gateway that reaches it
// first, the lower-numbered one on a tie (gateways enter the queue in order, and a vertex keeps the
// first gateway that labels it).
void StorageSystem::choose_gateways(const Network& main) {
  std::vector<std::uint32_t> owner(main.num_vertices(), kNone);
  std::vector<VertexId> queue;
  for (std::uint32_t g = 0; g < gateways(); ++g) {
    const VertexId v = main.endpoint_vertex(gateway_node_[g]);
    if (owner[v] == kNone) {
      owner[v] = g;
      queue.push_back(v);
    }
  }
  const std::size_t sources = queue.size();
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const VertexId u = queue[head];
    if (head >= sources && main.kind(u) == VertexKind::Endpoint && !main.endpoints_forward()) continue;
    for (LinkId l = main.out_begin(u); l < main.out_end(u); ++l) {
      const VertexId v = main.target(l);
      if (!main.up(l) || owner[v] != kNone) continue;
      owner[v] = owner[u];
      queue.push_back(v);
    }
  }
  gateway_of_.assign(nodes_, 0);
  for (EndpointId n = 0; n < nodes_; ++n) {
    const std::uint32_t g = owner[main.endpoint_vertex(n)];
    if (g == kNone)
      throw InputError("node " + std::to_string(n) + " cannot reach any SAN gateway over the network (--gateway-nodes)");
    gateway_of_[n] = g;
  }
}

}  // namespace interflow::storage
