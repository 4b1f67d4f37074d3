// The packet engine as a transport (engine/packet/packet_transport.hpp): a lone message and a message
// waiting for it arrive at the closed-form zero-load latency; stopping the simulator whenever the
// driver may act changes nothing (the same messages sent straight to a PacketSim arrive at the same
// cycles); applications run to completion with every packet accounted for, close to the flow-level
// time when bandwidth dominates.
#include <doctest/doctest.h>

#include "tests/support/approx.hpp"

#include <cmath>

#include "engine/drivers/flows.hpp"
#include "engine/packet/packet_transport.hpp"
#include "tests/support/app_support.hpp"
#include "tests/support/packet_support.hpp"
#include "tests/support/run_support.hpp"

using namespace interflow;
using namespace interflow::packet;

namespace {

// A routed network for the packet engine with the first deadlock-free VC scheme for `vcs` VCs, and
// a vct switch of `vcs` VCs of `flits` flits.
struct Net : test::PacketFixture {
  VcScheme scheme;
  RouterConfig router;

  Net(const std::string& topo, const std::string& route, std::uint32_t vcs, std::uint32_t flits)
      : PacketFixture(topo, route) {
    const BlockGrid grid = topology->block_grid();
    scheme = choose_scheme("auto", *fabric, topology->network(), *routes,
                           grid.wraps ? grid.routers : std::vector<std::uint32_t>{}, vcs, topo);
    router.vcs = vcs;
    router.input = BufferShape::split(vcs, flits);
  }
  PacketNetwork network() const {
    return {&topology->network(), fabric.get(), &paths, routes.get(), &scheme, router};
  }
  double cycle_s() const { return fabric->clock_ns() * 1e-9; }
  Cycle zero_load(EndpointId s, EndpointId d, std::uint32_t flits) const {
    return PacketFixture::zero_load(s, d, flits, router);
  }
};

PacketTransportOptions options_mtu(std::uint32_t mtu) {
  PacketTransportOptions o;
  o.mtu_bytes = {mtu};
  return o;
}

}  // namespace

TEST_CASE("packet transport: a lone message and the one waiting for it arrive at the zero-load latency") {
  const Net n("fattree:k=4,n=2", "dmodk", 2, 8);
  FlowWorkload w;
  w.add(0, 5, 4 * 64, 0);  // one packet of 4 flits
  w.add(5, 0, 4 * 64, 0);  // waits for the first one's delivery
  w.after_offsets = {0, 0, 1};
  w.after = {0};
  PacketTransport transport(n.network(), options_mtu(256));
  const TransportResult r = drivers::run_flows(n.topology->network(), transport, w);
  const double c = n.cycle_s();
  REQUIRE(r.state[0] == FlowState::Delivered);
  REQUIRE(r.state[1] == FlowState::Delivered);
  CHECK(r.finish_s[0] == approx(static_cast<double>(n.zero_load(0, 5, 4)) * c));
  CHECK(r.start_s[1] == r.finish_s[0]);
  CHECK(r.finish_s[1] - r.start_s[1] == approx(static_cast<double>(n.zero_load(5, 0, 4)) * c));
  // Its tail leaves the NIC nic_delay + 4 cycles after the start (4 flits at 1 flit/cycle).
  CHECK(r.transfer_end_s[0] == approx((n.router.nic_delay + 4) * c));
  CHECK(r.makespan_s == r.finish_s[1]);
  CHECK(r.link_bytes[0] + r.link_bytes[1] > 0);
}

TEST_CASE("packet transport: a message started a minute into the run arrives at the same zero-load latency") {
  // The engine jumps over idle time: 60 s is about 1.2e10 cycles, none of them simulated, and not
  // taken for a stall (nothing moving) either.
  const Net n("fattree:k=4,n=2", "dmodk", 2, 8);
  FlowWorkload w;
  const Cycle start = 11'718'750'000;
  w.add(3, 12, 64, static_cast<double>(start) * n.cycle_s());
  PacketTransport transport(n.network(), options_mtu(64));
  const TransportResult r = drivers::run_flows(n.topology->network(), transport, w);
  REQUIRE(r.state[0] == FlowState::Delivered);
  CHECK(transport.sim().now() < start + 1000);
  CHECK(std::llround(r.finish_s[0] / n.cycle_s()) == static_cast<long long>(start + n.zero_load(3, 12, 1)));
}

TEST_CASE("packet transport: pausing for the driver changes nothing against the simulator run alone") {
  const Net n("torus:dims=4x4", "dor", 4, 8);
  const std::uint32_t nics = n.fabric->num_nics();
  Rng rng(11);
  FlowWorkload w;
  std::vector<Cycle> start;
  for (std::uint32_t i = 0; i < 300; ++i) {
    const auto s = static_cast<EndpointId>(rng.below(nics));
    auto d = static_cast<EndpointId>(rng.below(nics - 1));
    if (d >= s) ++d;
    start.push_back(2 * i);  // distinct times: the driver starts them in this order
    w.add(s, d, static_cast<double>(64 * (1 + rng.below(16))), static_cast<double>(start.back()) * n.cycle_s());
  }
  const PacketTransportOptions o = options_mtu(256);
  PacketTransport transport(n.network(), o);
  const TransportResult r = drivers::run_flows(n.topology->network(), transport, w);

  NicConfig nic;
  nic.mtu_bytes = o.mtu_bytes;
  nic.injection_queue_bytes = o.injection_queue_bytes;
  PacketSim alone(*n.fabric, n.paths, *n.routes, n.scheme, n.router, nic, o.seed);
  std::vector<Cycle> sent(w.size()), delivered(w.size());
  alone.on_injected = [&](std::uint64_t id, Cycle t) { sent[id] = t; };
  alone.on_delivery = [&](std::uint64_t id, Cycle t) { delivered[id] = t; };
  for (std::size_t i = 0; i < w.size(); ++i)
    alone.send({w.flows.src[i], w.flows.dst[i], static_cast<std::uint64_t>(w.bytes[i]), 0}, start[i]);
  alone.run_until(0);
  alone.check_invariants();
  CHECK(alone.stats().flit_hops == transport.sim().stats().flit_hops);
  std::size_t same = 0;
  for (std::size_t i = 0; i < w.size(); ++i)
    same += r.finish_s[i] == approx(static_cast<double>(delivered[i]) * n.cycle_s()) &&
            r.transfer_end_s[i] == approx(static_cast<double>(sent[i]) * n.cycle_s());
  CHECK(same == w.size());
}

TEST_CASE("packet transport: applications run to completion near the flow-level time when bandwidth dominates") {
  // Deep buffers (two VCs of 64 flits) so that credits do not limit a link's rate.
  const Net n("fattree:k=4,n=2", "dmodk", 2, 64);
  const Network& net = n.topology->network();
  for (const std::string spec : {"collective:op=allreduce,alg=ring,bytes=262144,tasks=8",
                                 "collective:op=alltoall,alg=pairwise,bytes=65536,tasks=16"}) {
    INFO(spec);
    const std::vector<Application> apps{test::make_app(spec, net.num_endpoints())};
    PacketTransport transport(n.network(), options_mtu(2048));
    const drivers::RunResult packet = drivers::Driver(net, transport, {}).run(apps);
    const drivers::RunResult flow = test::run_apps(net, *n.routing, apps);
    CHECK(packet.blocked.empty());
    CHECK(transport.sim().messages_in_system() == 0);
    for (std::size_t m = 0; m < packet.flows.finish_s.size(); ++m) {
      CHECK(packet.flows.state[m] == FlowState::Delivered);
      CHECK(packet.flows.finish_s[m] > packet.flows.transfer_end_s[m]);
      CHECK(packet.flows.transfer_end_s[m] > packet.flows.start_s[m]);
    }
    // Packets pay headers of pipeline and serialization per hop that flows do not, and max-min is
    // the best a fair network can do: a little slower, never faster by more than rounding to cycles.
    const double ratio = packet.makespan_s / flow.makespan_s;
    MESSAGE("packet / flow makespan " << ratio);
    CHECK(ratio > 0.99);
    CHECK(ratio < 1.2);
  }
}
