// The hybrid transport (engine/hybrid/hybrid_transport.hpp): with nothing zoomed it is the flow run
// event for event; a lone message across a zoomed switch arrives at the closed form (the flow level's
// departures, the packet level's zero-load latency through the region, the flow level's latency
// after it); every byte handed across the boundary is delivered once (the packet engine's
// conservation checked at the end of every run); a hot spot inside a region caps the flows at the
// rate the region sustains.
#include <doctest/doctest.h>

#include "tests/support/approx.hpp"

#include <cmath>
#include <numeric>

#include "cli/packet_setup.hpp"
#include "core/random.hpp"
#include "engine/drivers/flows.hpp"
#include "engine/hybrid/hybrid_transport.hpp"
#include "engine/packet/packet_transport.hpp"
#include "engine/packet/virtual_channels.hpp"
#include "tests/support/packet_support.hpp"
#include "tests/support/run_support.hpp"

using namespace interflow;
using namespace interflow::hybrid;

namespace {

struct Net {
  std::unique_ptr<Topology> topology;
  std::unique_ptr<Routing> routing;
  Net(const std::string& topo, const std::string& route)
      : topology(test::build_topology(topo)), routing(test::build_routing(route, *topology)) {}
  const Network& net() const { return topology->network(); }
  // The switches none of whose links reach an endpoint (a tree's upper levels).
  std::vector<std::uint8_t> upper() const {
    std::vector<std::uint8_t> z(net().num_vertices(), 0);
    for (VertexId v = 0; v < net().num_vertices(); ++v) {
      if (net().kind(v) != VertexKind::Switch) continue;
      bool inner = true;
      for (LinkId l = net().out_begin(v); l < net().out_end(v); ++l)
        inner = inner && net().kind(net().target(l)) == VertexKind::Switch;
      z[v] = inner;
    }
    return z;
  }
};

// A vct switch with room for a few packets of `mtu_flits` per VC.
HybridOptions options(std::uint32_t mtu_bytes, std::uint32_t vcs = 2, std::uint32_t buffer_packets = 4) {
  HybridOptions o;
  o.mtu_bytes = {mtu_bytes};
  o.router.vcs = vcs;
  o.router.input = packet::BufferShape::split(vcs, buffer_packets * packet::ceil_div(mtu_bytes, 64));
  return o;
}

FlowWorkload random_workload(std::uint32_t endpoints, std::uint32_t count, std::uint64_t seed) {
  Rng rng(seed);
  FlowWorkload w;
  for (std::uint32_t i = 0; i < count; ++i) {
    const auto s = static_cast<EndpointId>(rng.below(endpoints));
    const auto d = static_cast<EndpointId>((s + 1 + rng.below(endpoints - 1)) % endpoints);
    w.add(s, d, 1000 + static_cast<double>(rng.below(200000)), 1e-6 * rng.uniform());
  }
  return w;
}

TransportResult run_hybrid(const Net& n, const std::vector<std::uint8_t>& zoomed, const HybridOptions& o,
                           const FlowWorkload& w, HybridStats* stats = nullptr) {
  HybridTransport t(n.net(), *n.routing, fixed_zoom(zoomed), o);
  TransportResult r = drivers::run_flows(n.net(), t, w);  // close() checks the packet engine's invariants
  if (stats) *stats = t.stats();
  return r;
}

}  // namespace

TEST_CASE("hybrid: with no zoomed router the run is the flow run exactly") {
  for (const char* topo : {"fattree:k=4,n=3", "torus:dims=4x4", "dragonfly:a=4,p=2,h=2,g=5"}) {
    CAPTURE(topo);
    const Net n(topo, std::string(topo).rfind("torus", 0) == 0 ? "dor" : std::string(topo).rfind("fattree", 0) == 0 ? "dmodk" : "dfmin");
    const FlowWorkload w = random_workload(n.net().num_endpoints(), 300, 7);
    // NICs sharing max-min, and one message at a time with a router delay (--nic-fifo --router-delay-ns)
    for (const bool fifo : {false, true}) {
      CAPTURE(fifo);
      flow::FlowTransportOptions fo;
      fo.nic_fifo = fifo;
      fo.router_delay_s = fifo ? 25e-9 : 0.0;
      const TransportResult flow = test::run_flows(n.net(), *n.routing, w, fo);
      HybridOptions o = options(1024);
      o.flow.nic_fifo = fifo;
      o.flow.router_delay_s = fo.router_delay_s;
      HybridStats st;
      const TransportResult hyb = run_hybrid(n, std::vector<std::uint8_t>(n.net().num_vertices(), 0), o, w, &st);
      CHECK(st.coupled_messages == 0);
      CHECK(hyb.finish_s == flow.finish_s);
      CHECK(hyb.transfer_end_s == flow.transfer_end_s);
      CHECK(hyb.start_s == flow.start_s);
      CHECK(hyb.link_bytes == flow.link_bytes);
      CHECK(hyb.batches == flow.batches);
    }
  }
}

TEST_CASE("hybrid: a lone message across a zoomed spine arrives at the closed form") {
  const Net n("fattree:k=4,n=2", "dmodk");
  const HybridOptions o = options(1024);
  FlowWorkload w;
  w.add(0, 5, 10 * 1024, 0);  // ten full packets of 16 flits
  const TransportResult flow = test::run_flows(n.net(), *n.routing, w);
  HybridStats st;
  const std::vector<std::uint8_t> zoomed = n.upper();
  HybridTransport t(n.net(), *n.routing, fixed_zoom(zoomed), o);
  const TransportResult r = drivers::run_flows(n.net(), t, w);
  REQUIRE(r.state[0] == FlowState::Delivered);
  CHECK(t.stats().coupled_messages == 1);
  CHECK(t.stats().packets == 10);
  CHECK(t.stats().packet_bytes == 10 * 1024);
  // The flow level's transfer end is unchanged: 100 Gbit/s over links of 100 Gbit/s.
  CHECK(r.transfer_end_s[0] == approx(flow.transfer_end_s[0]).epsilon(1e-12));
  // The last packet left the source at the transfer end, reached the spine's ingress one link later
  // (100 ns), crossed ingress, spine and egress at zero load (nic delay, its flits, two channel
  // latencies, one router), and the last link (100 ns) after it.
  const double clk = t.fabric().clock_ns() * 1e-9;
  const packet::Cycle handed = packet::cycle_at(r.transfer_end_s[0] + 100e-9, clk);
  const packet::RouterConfig& rc = o.router;
  const packet::Cycle through = rc.nic_delay + (16 - 1) + 2 * packet::cycle_at(100e-9, clk) + rc.pipeline() + rc.xbar_delay;
  CHECK(r.finish_s[0] == approx(static_cast<double>(handed + through) * clk + 100e-9).epsilon(1e-12));
  // So the hybrid delivery is the flow delivery plus one packet's store at the NIC and one router's
  // delays, and the rounding to whole cycles: the two link latencies inside the region, and the
  // hand-over (less than a cycle).
  const double stored = (rc.nic_delay + 15 + rc.pipeline() + rc.xbar_delay) * clk;
  const double rounding = 2 * (static_cast<double>(packet::cycle_at(100e-9, clk)) * clk - 100e-9);
  CHECK(r.finish_s[0] - flow.finish_s[0] >= stored + rounding - 1e-12);
  CHECK(r.finish_s[0] - flow.finish_s[0] < stored + rounding + clk);
  // With a flow-level router delay, the two leaves outside the zoom add it once each (the spine's
  // delay is the packet level's pipeline): the first leaf's delays the hand-over to the spine's
  // boundary (to a whole cycle), the second the delivery after the region.
  HybridOptions od = o;
  od.flow.router_delay_s = 40e-9;
  HybridTransport td(n.net(), *n.routing, fixed_zoom(zoomed), od);
  const TransportResult rd = drivers::run_flows(n.net(), td, w);
  REQUIRE(rd.state[0] == FlowState::Delivered);
  const packet::Cycle later = packet::cycle_at(r.transfer_end_s[0] + 140e-9, clk) - handed;
  CHECK(rd.finish_s[0] - r.finish_s[0] == approx(static_cast<double>(later) * clk + 40e-9).epsilon(1e-12).scale(0));
}

TEST_CASE("hybrid: a lone message from a zoomed leaf's endpoint goes to its NIC whole and arrives at the closed form") {
  const Net n("fattree:k=4,n=2", "dmodk");
  const HybridOptions o = options(1024);
  FlowWorkload w;
  w.add(0, 5, 10 * 1024, 0);  // ten full packets of 16 flits, from the first leaf to another
  std::vector<std::uint8_t> zoomed(n.net().num_vertices(), 0);
  const LinkId up = n.net().out_begin(n.net().endpoint_vertex(0));
  zoomed[n.net().target(up)] = 1;  // endpoint 0's leaf only
  HybridTransport t(n.net(), *n.routing, fixed_zoom(zoomed), o);
  const TransportResult r = drivers::run_flows(n.net(), t, w);
  REQUIRE(r.state[0] == FlowState::Delivered);
  CHECK(t.sourced(0));
  CHECK(!t.whole(0));
  CHECK(t.stats().packets == 10);
  CHECK(t.stats().packet_bytes == 10 * 1024);
  // All ten packets reach the NIC at 0, as on the packet transport: the last one's head leaves the
  // NIC after the nic delay and nine packets, its tail 15 flits later; it crosses the endpoint cable,
  // the leaf and the cable up to the spine (two channel latencies, one router), then the spine, the
  // destination's leaf and its cable at flow level (200 ns of latency).
  const double clk = t.fabric().clock_ns() * 1e-9;
  const packet::RouterConfig& rc = o.router;
  const packet::Cycle through =
      rc.nic_delay + 9 * 16 + (16 - 1) + 2 * packet::cycle_at(100e-9, clk) + rc.pipeline() + rc.xbar_delay;
  const double packet_bound = static_cast<double>(through) * clk + 200e-9;
  // The flow level's part takes the spine's links at 100 Gbit/s: it cannot end before 8 x 10 KiB / 100 Gbit/s.
  const double flow_bound = 8.0 * 10 * 1024 / 100e9 + 400e-9;
  CHECK(r.finish_s[0] == approx(std::max(packet_bound, flow_bound)).epsilon(1e-12));
  CHECK(r.transfer_end_s[0] <= r.finish_s[0]);
}

// --nic-fifo orders the messages of flow-level NICs only: a zoomed leaf's endpoint has a packet NIC,
// which sends its messages one after another already, so its messages out of the region are not
// queued again at the flow level (the run is the same with and without it), while the same
// messages from an endpoint outside the zoom go one at a time.
TEST_CASE("hybrid: a FIFO NIC at flow level leaves a zoomed router's NIC to the packet level") {
  const Net n("fattree:k=4,n=2", "dmodk");
  FlowWorkload w;
  for (EndpointId d : {4, 5, 6}) w.add(0, d, 64 * 1024, 0);    // from the zoomed leaf to the second leaf
  for (EndpointId d : {12, 13, 14}) w.add(8, d, 64 * 1024, 0);  // from the third leaf to the fourth: flow only
  std::vector<std::uint8_t> zoomed(n.net().num_vertices(), 0);
  zoomed[n.net().target(n.net().out_begin(n.net().endpoint_vertex(0)))] = 1;  // endpoint 0's leaf only
  HybridOptions o = options(1024);
  const TransportResult shared = run_hybrid(n, zoomed, o, w);
  o.flow.nic_fifo = true;
  const TransportResult fifo = run_hybrid(n, zoomed, o, w);
  for (FlowId m = 0; m < 3; ++m) {
    CAPTURE(m);
    CHECK(fifo.finish_s[m] == shared.finish_s[m]);
    CHECK(fifo.transfer_end_s[m] == shared.transfer_end_s[m]);
  }
  // Endpoint 8's three messages: shared, they end together at 3 x 64 KiB over its 100 Gbit/s link; one
  // at a time, at 1, 2 and 3 times 64 KiB / 100 Gbit/s.
  const double one = 8.0 * 64 * 1024 / 100e9;
  for (FlowId m = 3; m < 6; ++m) {
    CAPTURE(m);
    CHECK(shared.transfer_end_s[m] == approx(3 * one).epsilon(1e-9));
    CHECK(fifo.transfer_end_s[m] == approx(static_cast<double>(m - 2) * one).epsilon(1e-9));
  }
}

TEST_CASE("hybrid: bytes are conserved across the boundary and every message is delivered once") {
  for (const char* topo : {"fattree:k=4,n=3", "torus:dims=4x4", "dragonfly:a=4,p=2,h=2,g=5"}) {
    CAPTURE(topo);
    const bool torus = std::string(topo).rfind("torus", 0) == 0;
    const Net n(topo, torus ? "dor" : std::string(topo).rfind("fattree", 0) == 0 ? "dmodk" : "dfmin");
    const FlowWorkload w = random_workload(n.net().num_endpoints(), 400, 11);
    // Zoom about a third of the switches, spread out (so regions and chains of regions occur).
    std::vector<std::uint8_t> zoomed(n.net().num_vertices(), 0);
    for (VertexId v = 0; v < n.net().num_vertices(); ++v)
      zoomed[v] = n.net().kind(v) == VertexKind::Switch && v % 3 == 0;
    HybridTransport t(n.net(), *n.routing, fixed_zoom(zoomed), options(512, torus ? 4 : 2));
    const TransportResult r = drivers::run_flows(n.net(), t, w);  // close() checks the packet engine's invariants
    const HybridStats& st = t.stats();
    std::uint64_t coupled = 0, packet_bytes = 0;
    for (std::size_t m = 0; m < w.size(); ++m) {
      CAPTURE(m);
      REQUIRE(r.state[m] == FlowState::Delivered);
      CHECK(std::isfinite(r.finish_s[m]));
      CHECK(r.finish_s[m] >= r.transfer_end_s[m]);
    }
    // The transport's message numbers (the driver's, not the workload's).
    std::uint64_t whole = 0, head = 0;
    for (MessageId m = 0; m < w.size(); ++m) {
      if (!t.coupled(m)) continue;
      head += t.sourced(m) ? 1 : 0;
      if (t.whole(m)) {  // inside one region end to end: a packet message, no fluid
        ++whole;
        continue;
      }
      ++coupled;
      // Every byte of the message was cut into packets once, every packet handed to a segment was
      // injected there, and every packet arrived after its last segment.
      CHECK(t.packet_bytes(m) == t.message_bytes(m));
      CHECK(t.injected_bytes(m) == t.handed_bytes(m));
      CHECK(t.handed_bytes(m) >= t.packet_bytes(m));
      CHECK(t.all_arrived(m));
      packet_bytes += t.packet_bytes(m);
    }
    CHECK(coupled == st.coupled_messages);
    CHECK(whole == st.whole_messages);
    CHECK(head == st.sourced_messages);
    CHECK(coupled > w.size() / 4);
    CHECK(head > 0);  // messages from a zoomed router's endpoints, out of its region
    CHECK(st.packet_bytes == packet_bytes);
    MESSAGE(std::string(topo) << ": " << coupled << " coupled, " << whole << " whole, " << head << " from a zoomed router, " << st.packets << " packets, " << st.chained << " chained, "
                 << st.epochs << " epochs, " << st.cap_changes << " caps");
    if (!torus) CHECK(st.chained > 0);  // routes that cross two regions
  }
}

TEST_CASE("hybrid: the caps are re-shared as a solve from scratch would under every class policy") {
  // The flow level re-solves after every batch and compares with the policy solved from scratch
  // (FlowTransportOptions::verify), caps included: cap links are links whose capacity changes.
  const Net n("fattree:k=4,n=3", "dmodk");
  FlowWorkload w = random_workload(n.net().num_endpoints(), 300, 3);
  for (std::size_t f = 0; f < w.size(); ++f) w.service_class.push_back(static_cast<std::uint32_t>(f % 3));
  std::vector<std::uint8_t> zoomed = n.upper();
  for (const maxmin::ClassPolicy& policy :
       {test::class_policy("np", {}, {}, 3), test::class_policy("fp", {}, {1, 0, 1}, 3),
        test::class_policy("ba", {0.5, 0.3, 0.2}, {}, 3), test::class_policy("qos", {0.3, 1.0, 0.6}, {0, 1, 1}, 3)}) {
    HybridOptions o = options(512, 2);
    o.flow.policy = policy;
    o.flow.verify = true;
    HybridTransport t(n.net(), *n.routing, fixed_zoom(zoomed), o);
    const TransportResult r = drivers::run_flows(n.net(), t, w);
    CHECK(t.stats().cap_changes > 0);
    CHECK(r.max_verify_error < 1e-6);
    for (std::size_t m = 0; m < w.size(); ++m) CHECK(r.state[m] == FlowState::Delivered);
  }
}

namespace {

// An ideal zoom model: output-queued (an ib switch whose crossbar takes a packet from every input at
// once), buffers far larger than any queue, no pipeline delay, one cycle through the crossbar,
// credits back at once.
HybridOptions ideal(std::uint32_t mtu_bytes) {
  static const cli::Plugins plugins;
  cli::PacketOptions p;
  p.switch_model = "ib:vls=4,input-buffer-bytes=67108864,output-buffer-bytes=67108864,vl-min-bytes=4096,rt-delay=0,"
                   "va-sa-delay=0,xbar-delay=1,credit-delay=0,speedup=16";
  p.nic_delay = 0;
  HybridOptions o;
  o.router = cli::build_switch_setup(plugins, p, 1)->router;
  o.mtu_bytes = {mtu_bytes};
  o.whole_messages = false;  // the coupling alone: messages inside a group stay fluid too
  return o;
}

struct Agreement {
  double mean_ratio, median_rel, p90_rel, max_rel;
};

// Hybrid against flow, message by message: mean completion ratio, median and largest relative difference.
Agreement agreement(const TransportResult& flow, const TransportResult& hyb) {
  std::vector<double> rel;
  double sum_f = 0, sum_h = 0;
  for (std::size_t m = 0; m < flow.finish_s.size(); ++m) {
    const double cf = flow.finish_s[m] - flow.start_s[m], ch = hyb.finish_s[m] - hyb.start_s[m];
    sum_f += cf;
    sum_h += ch;
    rel.push_back(std::abs(ch - cf) / cf);
  }
  std::sort(rel.begin(), rel.end());
  return {sum_h / sum_f, rel[rel.size() / 2], rel[rel.size() * 9 / 10], rel.back()};
}

}  // namespace

TEST_CASE("hybrid: with an ideal zoom model the completion times stay within the stated tolerance of the flow run") {
  // manual/hybrid.md "When it is exact": where the zoom has no inner links (single routers), only
  // packetization, the caps' lag and the queue a saturated link keeps after a rate change separate
  // the two; where it has inner links (a dragonfly group), the packet level shares them by its
  // arbitration, not max-min, and the caps bring the flow level to what it sustains. The torus has
  // endpoints on cables (c=1), so that both levels constrain an endpoint's ejection.
  struct Case {
    const char* topo;
    const char* route;
    std::vector<VertexId> zoom;  // empty: the upper levels
    double max;                  // the largest difference allowed (relative)
  };
  const Net tree("fattree:k=4,n=3", "dmodk");
  const Net torus("torus:dims=4x4,c=1", "dor");
  const Net fly("dragonfly:a=4,p=2,h=2,g=5", "dfmin");
  const std::vector<std::pair<const Net*, Case>> cases = {
      {&tree, {"fattree:k=4,n=3", "dmodk", {}, 0.6}},
      {&torus, {"torus:dims=4x4,c=1", "dor", {0, 10}, 0.6}},
      {&fly, {"dragonfly:a=4,p=2,h=2,g=5", "dfmin", {40, 41, 42, 43}, 1.0}},
  };
  for (const auto& [n, c] : cases) {
    CAPTURE(c.topo);
    const FlowWorkload w = random_workload(n->net().num_endpoints(), 200, 5);
    const TransportResult flow = test::run_flows(n->net(), *n->routing, w);
    std::vector<std::uint8_t> zoomed(n->net().num_vertices(), 0);
    if (c.zoom.empty())
      for (VertexId v = 0; v < zoomed.size(); ++v) zoomed[v] = n->upper()[v];
    for (VertexId v : c.zoom) zoomed[v] = 1;
    HybridTransport t(n->net(), *n->routing, fixed_zoom(zoomed), ideal(1024));
    const TransportResult hyb = drivers::run_flows(n->net(), t, w);
    const Agreement a = agreement(flow, hyb);
    MESSAGE(c.topo << ": mean ratio " << a.mean_ratio << ", median " << a.median_rel << ", p90 " << a.p90_rel << ", max " << a.max_rel << ", "
                   << t.stats().coupled_messages << " coupled, " << t.stats().cap_changes << " cap changes");
    CHECK(t.stats().coupled_messages > w.size() / 4);
    // The tolerances manual/hybrid.md states: the mean completion within 2 %, half the messages
    // within 2 %, nine in ten within 10 %, and none further than the case allows.
    CHECK(std::abs(a.mean_ratio - 1) <= 0.02);
    CHECK(a.median_rel <= 0.02);
    CHECK(a.p90_rel <= 0.10);
    CHECK(a.max_rel <= c.max);
  }
}

TEST_CASE("hybrid: packets entering a region from outside routers keep the hop class of the full network") {
  // Messages from the other groups of a dragonfly into group 0, which is zoomed. In the full network
  // a route's k-th router-to-router link is in hop class k-1, so the hops scheme needs as many classes
  // as the most router-to-router links on a route; the last one lies in group 0. The zoom starts each
  // segment's packets at the hops they have made before it (its boundary cable from an outside router
  // counting as one), so it needs the same classes, not only those of the links inside the group.
  const Net n("dragonfly:a=4,p=2,h=2,g=9", "dfmin");  // one global link per pair of groups
  const Network& net = n.net();
  const std::vector<std::vector<VertexId>> groups = n.topology->switch_groups();
  REQUIRE(groups.size() == 9);
  std::vector<std::uint8_t> zoomed(net.num_vertices(), 0), in_group0(net.num_vertices(), 0);
  for (VertexId r : groups[0]) zoomed[r] = in_group0[r] = 1;
  const auto group0_endpoint = [&](EndpointId e) { return in_group0[net.target(net.out_begin(net.endpoint_vertex(e)))] != 0; };
  std::vector<EndpointId> inside, outside;
  for (EndpointId e = 0; e < net.num_endpoints(); ++e) (group0_endpoint(e) ? inside : outside).push_back(e);
  REQUIRE(inside.size() == 8);
  FlowWorkload w;
  for (std::size_t i = 0; i < outside.size(); ++i) w.add(outside[i], inside[i % inside.size()], 4096, 1e-8 * static_cast<double>(i));
  HybridOptions o = options(1024, 4);
  o.vc_scheme = "hops";
  HybridTransport t(n.net(), *n.routing, fixed_zoom(zoomed), o);
  const TransportResult r = drivers::run_flows(net, t, w);  // close() checks the packet engine's invariants
  std::uint32_t most = 0;  // router-to-router links on a route, at most
  for (FlowId f = 0; f < w.size(); ++f) {
    REQUIRE(r.state[f] == FlowState::Delivered);
    std::uint32_t hops = 0;
    for (LinkId l : r.paths.links(r.paths.first_var(f)))
      hops += net.kind(net.source(l)) == VertexKind::Switch && net.kind(net.target(l)) == VertexKind::Switch;
    most = std::max(most, hops);
  }
  CHECK(most == 3);  // local, global, local (dfmin)
  CHECK(t.scheme().kind == packet::VcSchemeKind::Hops);
  CHECK(t.scheme().classes == most);  // inside group 0 alone, one local link: one class
}

TEST_CASE("hybrid: with every router zoomed the run is the packet run") {
  // Every route lies in the one region from end to end, so every message goes whole to its source's
  // boundary endpoint at its start, as the packet transport hands it to its NIC: same switch model,
  // MTU, routes and times, whatever the workload (a burst and dependent messages).
  const test::PacketFixture f("fattree:k=4,n=3", "dmodk");
  const Network& net = f.topology->network();
  packet::RouterConfig router;
  router.vcs = 4;
  router.input = packet::BufferShape::split(4, 16);
  const packet::VcScheme scheme = packet::choose_scheme("auto", *f.fabric, net, *f.routes, {}, 4, "test");
  packet::PacketTransportOptions po;
  po.mtu_bytes = {1024};
  FlowWorkload chain;  // three messages per endpoint, each after the previous one's delivery
  Rng rng(9);
  const std::uint32_t n = net.num_endpoints();
  chain.after_offsets = {0};
  for (std::uint32_t round = 0; round < 3; ++round)
    for (EndpointId s = 0; s < n; ++s) {
      const auto d = static_cast<EndpointId>((s + 1 + rng.below(n - 1)) % n);
      chain.add(s, d, 20000 + static_cast<double>(rng.below(100000)), round == 0 ? 2e-6 * rng.uniform() : 0.0);
      if (round > 0) chain.after.push_back(static_cast<FlowId>((round - 1) * n + s));
      chain.after_offsets.push_back(static_cast<std::uint32_t>(chain.after.size()));
    }
  for (const FlowWorkload& w : {random_workload(n, 300, 9), chain}) {
    packet::PacketTransport pt({&net, f.fabric.get(), &f.paths, f.routes.get(), &scheme, router}, po);
    const TransportResult packets = drivers::run_flows(net, pt, w);
    HybridOptions o;
    o.router = router;
    o.mtu_bytes = {1024};
    std::vector<std::uint8_t> all(net.num_vertices(), 0);
    for (VertexId v = 0; v < net.num_vertices(); ++v) all[v] = net.kind(v) == VertexKind::Switch;
    HybridTransport ht(net, *f.routing, fixed_zoom(all), o);
    const TransportResult hyb = drivers::run_flows(net, ht, w);
    CHECK(ht.stats().whole_messages == w.size());
    CHECK(ht.stats().coupled_messages == 0);
    for (std::size_t m = 0; m < w.size(); ++m) {
      CAPTURE(m);
      REQUIRE(hyb.state[m] == FlowState::Delivered);
      CHECK(hyb.start_s[m] == approx(packets.start_s[m]).epsilon(1e-12));
      CHECK(hyb.transfer_end_s[m] == approx(packets.transfer_end_s[m]).epsilon(1e-12));
      CHECK(hyb.finish_s[m] == approx(packets.finish_s[m]).epsilon(1e-12));
    }
    CHECK(hyb.makespan_s == approx(packets.makespan_s).epsilon(1e-12));
  }
}

// Held exits (manual/hybrid.md "Back-pressure from beyond a region"): a message from a zoomed leaf's
// endpoint whose flow-level part is shared three ways beyond the leaf leaves it at a third of the
// line rate, and a message behind its packets in the exit's only VC waits for them, as it would in
// the next switch's input buffer (--zoom-held-exits); with free exits (the default) it does not.
TEST_CASE("hybrid: a region's exit is held back by the flow level beyond it") {
  const Net n("fattree:k=4,n=2", "dmodk");
  FlowWorkload w;
  w.add(0, 5, 10 * 1024, 0);   // A: from the zoomed leaf, into endpoint 5's cable shared three ways
  w.add(8, 5, 1e6, 0);         // two long flows from other leaves into that cable
  w.add(12, 5, 1e6, 0);
  w.add(1, 9, 10 * 1024, 0);   // B: from the zoomed leaf, beside A to the same spine, uncontended beyond
  std::vector<std::uint8_t> zoomed(n.net().num_vertices(), 0);
  zoomed[n.net().target(n.net().out_begin(n.net().endpoint_vertex(0)))] = 1;
  const auto run = [&](bool held) {
    HybridOptions o = options(1024, 1);
    o.held_exits = held;
    HybridStats st;
    const TransportResult r = run_hybrid(n, zoomed, o, w, &st);
    for (FlowId f = 0; f < 4; ++f) REQUIRE(r.state[f] == FlowState::Delivered);
    CHECK(st.held_exits == (held ? 4u : 0u));  // the leaf's four cables up to the spines
    return r;
  };
  const TransportResult free = run(false), held = run(true);
  // A's ten packets take 10 KiB at 100/3 Gbit/s beyond the leaf either way (its flow-level part).
  const double third = 8.0 * 10 * 1024 / (100e9 / 3);
  CHECK(free.finish_s[0] >= third);
  CHECK(held.finish_s[0] >= third);
  // B shares the leaf's cable up with A. Free, the two alternate on it at half the line rate each
  // (2 x 10 KiB at 100 Gbit/s, plus latencies); held, B's packets alternate with A's in the exit's
  // FIFO and leave right after them, at A's pace of a third of the line rate.
  const double line = 8.0 * 10 * 1024 / 100e9;
  CHECK(free.finish_s[3] > 2 * line);
  CHECK(free.finish_s[3] < 2.6 * line);
  CHECK(held.finish_s[3] > third);
  CHECK(held.finish_s[3] > 1.2 * free.finish_s[3]);
}

TEST_CASE("hybrid: --vc-scheme auto takes the hop classes the full routes need as the packet transport does") {
  // A dragonfly's minimal routes between every endpoint pair have a dependency cycle with one class
  // (the packet transport's auto then runs hops), while the segments inside a zoomed group alone have
  // none. The zoom follows the full routes when its switches have the VCs for it, and the segments'
  // own choice when not; a fat tree's routes need no classes.
  const Net df("dragonfly:a=4,p=2,h=2,g=9", "dfmin");
  const std::vector<std::vector<VertexId>> groups = df.topology->switch_groups();
  std::vector<std::uint8_t> zoomed(df.net().num_vertices(), 0);
  for (VertexId r : groups[0]) zoomed[r] = 1;
  FlowWorkload w;
  const std::uint32_t n = df.net().num_endpoints();
  for (EndpointId s = 0; s < n; ++s)
    for (std::uint32_t k = 1; k < 9; ++k) w.add(s, (s + 8 * k + k % 3) % n, 2048, 1e-8 * static_cast<double>(s));
  const auto scheme_of = [&](const Net& net, const std::vector<std::uint8_t>& z, std::uint32_t vcs) {
    HybridTransport t(net.net(), *net.routing, fixed_zoom(z), options(1024, vcs));
    drivers::run_flows(net.net(), t, w);
    return t.scheme();
  };
  const packet::VcScheme four = scheme_of(df, zoomed, 4), two = scheme_of(df, zoomed, 2);
  CHECK(four.kind == packet::VcSchemeKind::Hops);
  CHECK(four.classes == 3);  // local, global, local
  CHECK(two.kind == packet::VcSchemeKind::Single);
  const Net tree("fattree:k=4,n=3", "dmodk");
  std::vector<std::uint8_t> spines = tree.upper();
  FlowWorkload tw;
  for (EndpointId s = 0; s < 64; ++s) tw.add(s, (s + 17) % 64, 2048, 0);
  HybridTransport t(tree.net(), *tree.routing, fixed_zoom(spines), options(1024, 4));
  drivers::run_flows(tree.net(), t, tw);
  CHECK(t.scheme().kind == packet::VcSchemeKind::Single);
}
