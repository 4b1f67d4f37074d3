#pragma once
// The storage subsystem (Navaridas et al. 2019, §3.5 and Fig. 6; the ExaNeSt architecture studied by
// Pascual Saiz et al. 2018): local NVM devices attached to the compute nodes and central storage
// servers behind a storage area network (SAN) of its own, joined to the main interconnect at gateway
// nodes. Every device limit is a link of one combined network, shared max-min with all other traffic
// by the flow engine, so storage and application flows interfere exactly where they meet.
//
// The combined network, built once from the main one:
//
//   compute node n:   NVM_n --(read: nvm_read / write: nvm_write)-- PCIe_n --(pcie, both ways)-- node n
//   SAN server s:     DISK_s --(server_gbps)-- SAN endpoint s -- SAN fabric -- SAN endpoint g
//   gateway g:        SAN endpoint g --(gateway_gbps)-- main node gateway_node(g)
//
// Endpoints: the main network's endpoints keep their ids 0..N-1 (the compute nodes), NVM_n is endpoint
// N + n (when NVM devices are modelled), DISK_s is the next ones. Every main link keeps its vertex
// ports; main_link() gives its id in the combined network. Data mapped in a node's memory never
// reaches the network (the Markov application's cache: workloads/app_markov.cpp).
//
// Routes (routing()): a storage access is the device's chain, then the main network's own routing
// between the two nodes involved (the SAN's own routing for its part), translated into combined link
// ids, then the chain of the other end. A node reaches the SAN through its nearest gateway (fewest
// links over the main network; ties to the lower-numbered gateway).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/network.hpp"
#include "core/routing.hpp"

namespace interflow::storage {

struct StorageConfig {
  bool nvm = true;           // one NVM device per compute node
  double nvm_read_gbps = 16;   // device read bandwidth (Gbit/s): 2 GB/s, an NVMe SSD
  double nvm_write_gbps = 8;   // device write bandwidth
  double pcie_gbps = 32;       // the PCIe controller between device and node, each direction (PCIe 3 x4)
  double nvm_latency_ns = 0;   // per device link
  // Central storage: the first `servers` endpoints of the SAN topology are servers, the others gateways.
  std::uint32_t servers = 0;
  double server_gbps = 8;      // a server's disks, each direction
  double gateway_gbps = 100;   // a gateway's cable to its main-network node
  double gateway_latency_ns = 100;
  std::vector<EndpointId> gateway_nodes;  // main node of each gateway; empty: spread evenly
};

// Throws InputError naming the option for a bandwidth that is not finite and > 0 or a latency that
// is not finite and >= 0.
void check_storage_config(const StorageConfig& c);

enum class DeviceKind : std::uint8_t { Nvm, Server };

// One storage device: an NVM device of a node, or a SAN server's disks.
struct Device {
  DeviceKind kind = DeviceKind::Nvm;
  std::uint32_t index = 0;   // the node (NVM) or the server number
  EndpointId endpoint = 0;   // in the combined network
  LinkId read_link = 0;      // device -> PCIe controller (or SAN endpoint)
  LinkId write_link = 0;     // the other direction
  LinkId to_node = kNone;    // NVM: PCIe controller -> its node
  LinkId from_node = kNone;  // NVM: node -> PCIe controller
};

class StorageSystem {
 public:
  // `san` and `san_routing` (both or neither) give the SAN: its first config.servers endpoints are
  // servers, the rest gateways. InputError for servers without a SAN, a SAN without a gateway or
  // without a server, and gateway nodes beyond the main network or not one per gateway.
  StorageSystem(const Network& main, const StorageConfig& config, const Network* san = nullptr,
                const Routing* san_routing = nullptr);

  const Network& network() const { return net_; }
  const StorageConfig& config() const { return config_; }
  std::uint32_t nodes() const { return nodes_; }
  bool has_nvm() const { return config_.nvm; }
  std::uint32_t servers() const { return servers_; }
  std::uint32_t gateways() const { return static_cast<std::uint32_t>(gateway_node_.size()); }
  EndpointId nvm(EndpointId node) const { return nodes_ + node; }  // needs has_nvm()
  EndpointId server(std::uint32_t s) const { return server_base_ + s; }
  EndpointId gateway_node(std::uint32_t g) const { return gateway_node_[g]; }
  // The gateway `node` reaches the SAN through: the nearest.
  std::uint32_t gateway_of(EndpointId node) const { return gateway_of_[node]; }
  // The NVM device's node or nothing (kNone) for an endpoint; the node an endpoint belongs to.
  EndpointId node_of_nvm(EndpointId e) const { return has_nvm() && e >= nodes_ && e < 2 * nodes_ ? e - nodes_ : kNone; }
  LinkId main_link(LinkId l) const { return main_link_[l]; }
  const std::vector<Device>& devices() const { return devices_; }

  // The routing of the combined network around the main network's routing (kept by reference).
  std::unique_ptr<Routing> routing(const Routing& main_routing) const;

 private:
  friend class StorageRouting;
  void copy_main(NetworkBuilder& b, const Network& main);
  void add_nvm(NetworkBuilder& b, const Network& main);
  void add_san(NetworkBuilder& b, const Network& main, const Network& san);
  void record_links(const Network& main);
  void choose_gateways(const Network& main);

  const Network& main_;
  StorageConfig config_;
  const Network* san_ = nullptr;
  const Routing* san_routing_ = nullptr;
  Network net_;
  std::uint32_t nodes_ = 0, servers_ = 0;
  EndpointId server_base_ = 0;
  VertexId nvm_base_ = 0, san_base_ = 0;  // first NVM vertex (NVM_n = base + 2n, PCIe_n = base + 2n + 1); SAN's
  VertexId disk_base_ = 0;                // DISK_s vertex = disk_base_ + s
  std::vector<EndpointId> gateway_node_;
  std::vector<std::uint32_t> gateway_of_;  // per node
  std::vector<LinkId> main_link_, san_link_;  // main / SAN link id -> combined link id
  std::vector<LinkId> gateway_in_, gateway_out_;  // per gateway: SAN -> its node, and back
  std::vector<Device> devices_;
};

}  // namespace interflow::storage
