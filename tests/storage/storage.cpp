// The storage subsystem: device limits as links of the combined network, worked by hand on a star of
// 10 Gbit/s links without latency (fattree:k=4,n=1); the App and I/O policies of Navaridas et al.
// 2019, Fig. 1, with the I/O flows written by the Markov-chain application; the placement policies;
// refusals naming the input.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "core/error.hpp"
#include "storage/placement.hpp"
#include "storage/storage_system.hpp"
#include "tests/support/app_support.hpp"
#include "tests/support/approx.hpp"
#include "tests/support/run_support.hpp"

using namespace interflow;
using namespace interflow::storage;

namespace {

const LinkDefaults kFast{10, 10, 0, 0};  // 10 Gbit/s, no latency

struct Star {
  std::unique_ptr<Topology> topo = test::build_topology("fattree:k=4,n=1", kFast);
  std::unique_ptr<Routing> routing = test::build_routing("bfs", *topo);
  const Network& net() const { return topo->network(); }
};

// One flow of `bytes` from `src` to `dst` on the storage system; its transfer end.
double one_flow(const StorageSystem& s, const Routing& main, EndpointId src, EndpointId dst, double bytes) {
  const auto routing = s.routing(main);
  FlowWorkload w;
  w.add(src, dst, bytes, 0);
  const TransportResult r = test::run_flows(s.network(), *routing, w);
  REQUIRE(r.state[0] == FlowState::Delivered);
  return r.transfer_end_s[0];
}

std::string write_file(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("interflow-storage-" + name);
  std::ofstream(path) << text;
  return path.string();
}

}  // namespace

TEST_CASE("storage: a local read is limited by the PCIe controller or by the device: whichever is slower") {
  Star star;
  StorageConfig c;
  c.nvm_read_gbps = 16;
  c.nvm_write_gbps = 4;
  c.pcie_gbps = 8;
  {
    const StorageSystem s(star.net(), c);
    CHECK(s.network().num_endpoints() == 8);  // 4 nodes and their 4 devices
    // 1e6 bytes = 8e6 bits: at the PCIe's 8 Gbit/s, 1 ms (the device could give 16).
    CHECK(one_flow(s, *star.routing, s.nvm(2), 2, 1e6) == approx(1e-3));
    // Writing: the device's 4 Gbit/s is the limit: 2 ms.
    CHECK(one_flow(s, *star.routing, 2, s.nvm(2), 1e6) == approx(2e-3));
  }
  c.pcie_gbps = 32;
  const StorageSystem s(star.net(), c);
  CHECK(one_flow(s, *star.routing, s.nvm(2), 2, 1e6) == approx(0.5e-3));  // the device's 16 Gbit/s
}

TEST_CASE("storage: two nodes reading one remote NVM share its node's link") {
  Star star;
  StorageConfig c;
  c.nvm_read_gbps = 40;
  c.pcie_gbps = 40;
  const StorageSystem s(star.net(), c);
  const auto routing = s.routing(*star.routing);
  FlowWorkload w;
  w.add(s.nvm(0), 1, 1e6, 0);
  w.add(s.nvm(0), 2, 1e6, 0);
  const TransportResult r = test::run_flows(s.network(), *routing, w);
  // Both cross node 0's 10 Gbit/s link to the switch: 5 Gbit/s each, 8e6 bits in 1.6 ms.
  CHECK(r.transfer_end_s[0] == approx(1.6e-3));
  CHECK(r.transfer_end_s[1] == approx(1.6e-3));
  // The path: device, PCIe, node 0's link, the switch's link to the reader.
  const auto links = r.paths.links(r.paths.first_var(0));
  REQUIRE(links.size() == 4);
  CHECK(links[0] == s.devices()[0].read_link);
  CHECK(links[2] == s.main_link(star.net().out_begin(star.net().endpoint_vertex(0))));
  // Per-device accounting: the device read 2e6 bytes and was busy 1.6 ms.
  CHECK(r.link_bytes[s.devices()[0].read_link] == approx(2e6));
  CHECK(r.link_busy_s[s.devices()[0].read_link] == approx(1.6e-3));
}

TEST_CASE("storage: a SAN server is reached through its gateway and limited by its disks") {
  Star star;
  const auto san_topo = test::build_topology("fattree:k=4,n=1", LinkDefaults{40, 40, 0, 0});
  const auto san_routing = test::build_routing("bfs", *san_topo);
  StorageConfig c;
  c.nvm = false;
  c.servers = 2;  // SAN endpoints 0, 1 are servers; 2, 3 gateways, on nodes 0 and 2 (spread evenly)
  c.server_gbps = 4;
  c.gateway_gbps = 40;
  c.gateway_latency_ns = 0;
  const StorageSystem s(star.net(), c, &san_topo->network(), san_routing.get());
  REQUIRE(s.gateways() == 2);
  CHECK(s.gateway_node(0) == 0);
  CHECK(s.gateway_node(1) == 2);
  // On a star every node is as near to both gateways but their own: ties go to gateway 0.
  CHECK(s.gateway_of(1) == 0);
  CHECK(s.gateway_of(2) == 1);
  CHECK(s.gateway_of(3) == 0);
  CHECK(s.server(0) == 4);
  // Node 1 reads 1e6 bytes from server 1: disks (4 Gbit/s) limit it: 2 ms. The path: disk, SAN endpoint
  // to switch, switch to gateway 0, gateway cable to node 0, node 0 to the switch, switch to node 1.
  const auto routing = s.routing(*star.routing);
  FlowWorkload w;
  w.add(s.server(1), 1, 1e6, 0);
  w.add(3, s.server(0), 1e6, 0);  // node 3 writes through gateway 0 (node 0)
  const TransportResult r = test::run_flows(s.network(), *routing, w);
  CHECK(r.transfer_end_s[0] == approx(2e-3));
  CHECK(r.paths.links(r.paths.first_var(0)).size() == 6);
  CHECK(r.paths.links(r.paths.first_var(1)).size() == 6);
  CHECK(r.transfer_end_s[1] == approx(2e-3));
  // Two writers of one server share its disks.
  FlowWorkload two;
  two.add(1, s.server(0), 1e6, 0);
  two.add(3, s.server(0), 1e6, 0);
  const TransportResult t = test::run_flows(s.network(), *routing, two);
  CHECK(t.transfer_end_s[0] == approx(4e-3));
}

// Navaridas et al. 2019, Fig. 1: an App flow and an I/O flow of 1e7 bits each start together on one
// 10 Gbit/s link. NP and BA 50/50 give each 5 Gbit/s: both end at 2 ms; BA 75/25 gives the App 7.5:
// it ends at 4/3 ms, the I/O flow then takes the whole link and ends at 2 ms; FP sends the App flow
// first (1 ms) and the I/O flow after it (2 ms). The I/O flow is the Read of a Markov-chain
// application on node 1 whose data is on node 0's NVM; the App flow is node 0's message to node 1.
TEST_CASE("storage: App and I/O flows share a link as NP and BA and FP say") {
  Star star;
  StorageConfig c;
  c.nvm_read_gbps = c.pcie_gbps = 40;
  const StorageSystem s(star.net(), c);
  const auto routing = s.routing(*star.routing);
  const std::string fixed = write_file("fig1", "init 0 0 0 1 0 0\nread 0 0 0 0 0 1\n");
  Application io = test::make_app("markov:tasks=1,matrix=" + fixed + ",read_bytes=1.25e6,result_bytes=0", 4);
  REQUIRE(io.tasks() == 2);
  io.placement = {1, s.nvm(0)};
  Application app = test::make_app("pattern:pattern=shift,tasks=2,bytes=1.25e6", 4, 1);
  app.placement = {0, 1};
  struct Case {
    std::string policy;
    std::vector<double> shares;
    double app_end, io_end;
  };
  for (const Case& k : {Case{"np", {}, 2e-3, 2e-3}, Case{"ba", {0.5, 0.5}, 2e-3, 2e-3},
                        Case{"ba", {0.75, 0.25}, 4e-3 / 3, 2e-3}, Case{"fp", {}, 1e-3, 2e-3}}) {
    INFO(k.policy << " " << k.shares.size());
    test::RunOptions o;
    o.flow.policy = test::class_policy(k.policy, k.shares, {}, 2);
    const drivers::RunResult r = test::run_apps(s.network(), *routing, {io, app}, o);
    REQUIRE(r.blocked.empty());
    double app_end = -1, io_end = -1;
    for (MessageId m = 0; m < r.messages.size(); ++m) {
      if (r.messages.bytes[m] == 0) continue;  // the read request
      if (r.messages.class_of(m) == 1) io_end = r.flows.transfer_end_s[m];
      if (r.messages.class_of(m) == 0 && r.messages.ends.src[m] == 0) app_end = r.flows.transfer_end_s[m];
    }
    CHECK(app_end == approx(k.app_end));
    CHECK(io_end == approx(k.io_end));
  }
}

TEST_CASE("storage: the placement policies put each task's data where they say") {
  Star star;
  const StorageSystem s(star.net(), {});
  const PlacementRegistry& registry = test::plugins().placements;
  const std::vector<EndpointId> nodes{2, 0};  // task 0 on node 2, task 1 on node 0
  const auto homes = [&](const std::string& spec, std::uint32_t replicas) {
    PlacementInput in{&s, nodes, replicas, "job"};
    std::vector<EndpointId> out;
    Rng rng(1);
    registry.create(Spec::parse(spec, "--data-placement"))->place(in, rng, out);
    return out;
  };
  CHECK(homes("local", 1) == std::vector<EndpointId>{s.nvm(2), s.nvm(0)});
  CHECK(homes("local", 2) == std::vector<EndpointId>{s.nvm(2), s.nvm(0), s.nvm(0), s.nvm(2)});
  CHECK(homes("internal:share=0.5", 1) == std::vector<EndpointId>{s.nvm(2), s.nvm(2)});
  // Outside nodes 2 and 0, after the partition's last node (2): 3, then 1.
  CHECK(homes("external", 1) == std::vector<EndpointId>{s.nvm(3), s.nvm(1)});
  CHECK(homes("external:devices=1", 1) == std::vector<EndpointId>{s.nvm(3), s.nvm(3)});
  const std::vector<EndpointId> drawn = homes("external:pick=random", 1);
  for (EndpointId e : drawn) CHECK((e == s.nvm(1) || e == s.nvm(3)));
  CHECK(drawn[0] != drawn[1]);
  // Refused: more replicas than distinct devices, more devices than there are outside.
  CHECK(test::error_of([&] { homes("local", 3); }) ==
        "job: data placement 'local' keeps 3 replicas of each task's data on distinct devices, but the partition has "
        "only 2");
  CHECK(test::error_of([&] { homes("internal:share=0.5", 2); }).find("has only 1") != std::string::npos);
  CHECK(test::error_of([&] { homes("external:devices=3", 1); }) ==
        "job: data placement 'external' needs 3 devices outside the job's 2 nodes; the machine has 2 other nodes");
  CHECK(test::error_of([&] { homes("san", 1); }).find("needs a SAN") != std::string::npos);
}

TEST_CASE("storage: every node reaches the SAN through its nearest gateway") {
  // A 4-ary 2-tree: leaves of 4 nodes. Gateways on nodes 15 and 1 (given in that order): the nodes of
  // leaf 0 use gateway 1 (node 1), those of leaf 3 gateway 0 (node 15); the others are as far from
  // both (4 links) and take gateway 0.
  const auto tree = test::build_topology("fattree:k=4,n=2", kFast);
  const auto san_topo = test::build_topology("fattree:k=4,n=1", kFast);
  const auto san_routing = test::build_routing("bfs", *san_topo);
  StorageConfig c;
  c.servers = 2;
  c.gateway_nodes = {15, 1};
  const StorageSystem s(tree->network(), c, &san_topo->network(), san_routing.get());
  for (EndpointId n = 0; n < 16; ++n) {
    INFO(n);
    CHECK(s.gateway_of(n) == (n < 4 ? 1u : 0u));
  }
}

TEST_CASE("storage: bad storage configurations are refused naming the input") {
  Star star;
  const auto san_topo = test::build_topology("fattree:k=4,n=1", kFast);
  const auto san_routing = test::build_routing("bfs", *san_topo);
  StorageConfig c;
  c.servers = 4;  // every SAN endpoint a server: no gateway
  CHECK(test::error_of([&] { StorageSystem(star.net(), c, &san_topo->network(), san_routing.get()); }) ==
        "the SAN (--san) has 4 endpoints and --san-servers 4 makes them all servers: it has no gateway to the main "
        "network (leave at least one endpoint for a gateway)");
  CHECK(test::error_of([&] { StorageSystem(star.net(), c); }) == "--san-servers needs a SAN topology (--san)");
  c.servers = 0;
  CHECK(test::error_of([&] { StorageSystem(star.net(), c, &san_topo->network(), san_routing.get()); })
            .find("has no server") != std::string::npos);
  c.servers = 1;
  c.gateway_nodes = {0, 9, 1};
  CHECK(test::error_of([&] { StorageSystem(star.net(), c, &san_topo->network(), san_routing.get()); }) ==
        "--gateway-nodes: node 9 is beyond the network's 4 endpoints");
  c.gateway_nodes = {0};
  CHECK(test::error_of([&] { StorageSystem(star.net(), c, &san_topo->network(), san_routing.get()); })
            .find("3 gateways") != std::string::npos);
  StorageConfig bad;
  bad.pcie_gbps = std::nan("");
  CHECK(test::error_of([&] { StorageSystem(star.net(), bad); }).find("--pcie-gbps") == 0);
  bad = {};
  bad.nvm_latency_ns = -1;
  CHECK(test::error_of([&] { StorageSystem(star.net(), bad); }).find("--nvm-latency-ns") == 0);
}
