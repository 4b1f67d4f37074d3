// The opa switch (engine/packet/switch_opa.cpp, packet_central.cpp): the central crossbar is taken
// exactly by the packets for another MPort; the zero-load latency through one router is the pinned
// reading of OpaSim's Table 1; a VL's central minimum holds under contention; SLs never change and
// SCs follow the tables; full-load runs conserve and drain; the (x+1) mod 48 permutation runs at
// the theoretical throughput.
#include <doctest/doctest.h>

#include "tests/support/approx.hpp"

#include "engine/packet/switch_model.hpp"
#include "tests/support/packet_support.hpp"

using namespace interflow;
using namespace interflow::packet;

namespace {

using Setup = test::PacketFixture;

RouterConfig opa(const std::string& params, std::uint32_t service_levels, const std::string& scheduler = "rr") {
  const std::string text = params.empty() ? "opa" : "opa:" + params;
  RouterConfig r = *test::plugins().switches.create(Spec::parse(text, "--switch"), SwitchContext{64, service_levels});
  r.scheduler = [scheduler](const SchedulerContext& c) {
    return test::plugins().output_schedulers.create(Spec::parse(scheduler, "--scheduler"), c);
  };
  return r;
}

// Buffers of whole 64-byte flits that reserve a 16-flit packet for each of 8 VLs.
const std::string kBuffers =
    "input-buffer-bytes=16384,output-buffer-bytes=16384,vl-min-bytes=1024,vl-max-bytes=0,central-vl-min-bytes=1024";

// One message alone through the 48-port router: its latency and its packets through the centre.
test::PacketFixture::Lone lone(const Setup& s, const RouterConfig& r, EndpointId src, EndpointId dst,
                               std::uint64_t bytes, std::uint32_t mtu) {
  return s.lone(r, VcScheme{}, src, dst, bytes, mtu);
}

}  // namespace

TEST_CASE("opa: a packet for its own MPort never crosses the centre and one for another always does") {
  const Setup s("fattree:k=48,n=1", "dmodk");
  const RouterConfig r = opa(kBuffers, 1);
  for (EndpointId src : {0u, 5u, 47u})
    for (EndpointId dst = 0; dst < 48; ++dst) {
      if (dst == src) continue;
      INFO(src << " -> " << dst);
      const auto one = lone(s, r, src, dst, 5 * 256, 256);  // five 4-flit packets
      CHECK(one.central_crossings == (src / 4 == dst / 4 ? 0u : 5u));
    }
}

TEST_CASE("opa: the zero-load latency through one router is the pinned Table 1 total plus serialization") {
  // OpaSim (Cano et al. 2018) §2.2: SB + RT + AT + X [+ AT + X through the centre] + SB, then FLY
  // (the link). Table 1: SB 50, RT 32, AT 16, X 2 at the MPort and at the centre.
  const Setup s("fattree:k=48,n=1", "dmodk");
  const RouterConfig r = opa(kBuffers, 1);
  const Cycle central_path = 50 + 32 + 16 + 2 + 16 + 2 + 50, local_path = 50 + 32 + 16 + 2 + 50;
  CHECK(central_path == 168);
  CHECK(local_path == 150);
  CHECK(central_path + 8 == 176);  // with OpaSim's FLY of 8 cycles: the reading the manual pins
  for (const std::uint32_t flits : {1u, 4u, 16u}) {
    INFO(flits << " flits");
    const Cycle links = s.fabric->latency(s.fabric->injection(0)) + s.fabric->latency(s.fabric->ejection(9));
    const Cycle around = r.nic_delay + links + (flits - 1);
    CHECK(lone(s, r, 0, 9, flits * 64, flits * 64).latency == around + central_path);
    CHECK(lone(s, r, 0, 2, flits * 64, flits * 64).latency == around + local_path);
  }
  // Every stage is a parameter: all at zero but the crossbars leaves X, the one cycle a crossing takes.
  const RouterConfig fast =
      opa(kBuffers + ",sb-in-delay=0,rt-delay=0,at-delay=0,sb-out-delay=0,mport-xbar-delay=1,central-xbar-delay=1", 1);
  const Cycle links = s.fabric->latency(s.fabric->injection(0)) + s.fabric->latency(s.fabric->ejection(9));
  CHECK(lone(s, fast, 0, 9, 64, 64).latency == fast.nic_delay + links + 2);
  CHECK(lone(s, fast, 0, 2, 64, 64).latency == fast.nic_delay + links + 1);
}

TEST_CASE("opa: a VL's central minimum holds while another VL fills the central buffer") {
  // MPort 0's four inputs send SL 0 to endpoint 4 far beyond what its link takes: VL 0 fills the
  // central buffer of MPort 0 up to all but VL 1's reserved part. SL 1 from the same inputs to
  // endpoint 8 keeps its zero-load latency all along.
  const Setup s("fattree:k=48,n=1", "dmodk");
  // A central buffer of 64 flits, 8 reserved per VL.
  const RouterConfig r = opa("central-buffer-bytes=4096,central-vl-min-bytes=512,vls=2,input-buffer-bytes=4096,"
                             "output-buffer-bytes=4096,vl-min-bytes=512,vl-max-bytes=0",
                             2);
  NicConfig nic;
  nic.service_levels = 2;
  nic.mtu_bytes = {256, 256};
  PacketSim sim(*s.fabric, s.paths, *s.routes, VcScheme{}, r, nic, 3);
  const auto alone = lone(s, r, 1, 8, 256, 256);
  sim.set_window(2000, 5000);
  for (Cycle t = 0; t < 6000; t += 4)
    for (EndpointId src = 0; src < 4; ++src) sim.send({src, 4, 256, 0}, t);  // 1 flit/cycle from each
  for (Cycle t = 0; t < 6000; t += 40) sim.send({static_cast<EndpointId>(t / 40 % 4), 8, 256, 1}, t);
  sim.run_until(6000);
  sim.check_invariants();
  const std::uint32_t size = 4096 / 64, reserved = 512 / 64;
  CHECK(sim.stats().central_peak[0] >= size - reserved);  // VL 0 took all it could
  CHECK(sim.stats().central_peak[0] <= size);
  const SlStats& sl1 = sim.stats().sl[1];
  REQUIRE(sl1.delivered_messages == sl1.generated_messages);
  CHECK(sl1.mean_latency() <= alone.latency + 8);
  CHECK(sl1.latency_max <= alone.latency + 16);
  sim.run_until(0);
  sim.check_invariants();
  CHECK(sim.messages_in_system() == 0);
}

TEST_CASE("opa: default service-channel tables deal each SL its own SCs and VLs and skip SC 15") {
  const RouterConfig two = opa("", 2);  // 8 VLs, 2 SLs: SCs 0-3 for SL 0, 4-7 for SL 1
  CHECK(two.qos_lanes() == 2);
  CHECK(two.classes_per_lane() == 4);
  CHECK(two.service_channel(0, 0) == 0);
  CHECK(two.service_channel(1, 0) == 4);
  CHECK(two.service_channel(1, 3) == 7);
  CHECK(two.service_channel(1, 4) == kNone);
  const RouterConfig wide = opa("vls=17,vl-min-bytes=512,vl-max-bytes=0,input-buffer-bytes=16384,output-buffer-bytes=16384", 1);
  CHECK(wide.classes_per_lane() == 17);
  CHECK(wide.service_channel(0, 14) == 14);
  CHECK(wide.service_channel(0, 15) == 16);  // SC 15 is reserved
  CHECK(wide.sc2vl[16] == 15);
}

TEST_CASE("opa: given tables are checked where they are read") {
  const auto fails = [](const std::string& params, std::uint32_t sls, const std::string& what) {
    INFO(params);
    try {
      opa(params, sls);
      FAIL("accepted");
    } catch (const InputError& e) {
      CHECK(std::string(e.what()).find(what) != std::string::npos);
    }
  };
  fails("sl2sc=0;15,sc2vl=0;1,sc2sl=0;1", 2, "reserved");
  fails("sl2sc=0;1,sc2vl=0;1,sc2sl=0;0", 2, "an SL never changes");
  fails("sl2sc=0;1", 2, "all three tables");
  fails("sl2sc=0;1,sc2vl=0;9,sc2sl=0;1", 2, "a VL of this switch");
  fails("sl2sc=0,sc2vl=0,sc2sl=0", 2, "the traffic uses 2");
  fails("vls=2", 3, "give sl2sc, sc2vl and sc2sl");
}

TEST_CASE("opa: on a ring the SC changes at the dateline and the SL never does") {
  // Two SLs, two deadlock classes each: SL 0 on SCs 0 (VL 0) and 1 (VL 1), SL 1 on SCs 2 (VL 2) and
  // 3 (VL 3). A VL serving two classes is refused; a lane's VCs are its SCs' VLs.
  const Setup ring("torus:dims=8", "dor");
  const VcScheme dateline = ring.ring_dateline(8);
  NicConfig nic;
  nic.service_levels = 2;
  nic.mtu_bytes = {256, 64};
  nic.injection_queue_bytes = 4096;
  const std::string sizes = "vls=4,input-buffer-bytes=4096,output-buffer-bytes=4096,vl-min-bytes=256,vl-max-bytes=0,";
  {
    const RouterConfig bad = opa(sizes + "sl2sc=0;2,sc2vl=0;1;1;3,sc2sl=0;0;1;1", 2);
    CHECK_THROWS_AS(PacketSim(*ring.fabric, ring.paths, *ring.routes, dateline, bad, nic, 1), InputError);
  }
  const RouterConfig r = opa(sizes + "sl2sc=0;2,sc2vl=0;1;2;3,sc2sl=0;0;1;1", 2, "dtable:table=0:3;1:1");
  PacketSim sim(*ring.fabric, ring.paths, *ring.routes, dateline, r, nic, 7);
  CHECK(sim.lane_vcs(0) == std::vector<std::uint32_t>{0, 1});
  CHECK(sim.lane_vcs(1) == std::vector<std::uint32_t>{2, 3});
  test::offer_two_sls(sim, ring.n(), 1500, 0.3, 256, 64, 5);
  test::run_and_drain(sim, 700);
  for (const std::uint32_t sl : {0u, 1u}) {  // every message delivered under the SL it was sent with
    CHECK(sim.stats().sl[sl].delivered_messages == sim.stats().sl[sl].generated_messages);
    CHECK(sim.stats().sl[sl].generated_messages > 100);
  }
}

TEST_CASE("opa: full load on a two-level tree conserves and stays within every buffer and drains") {
  const Setup s("fattree:k=4,n=2", "dmodk");  // 8-port switches: two MPorts each
  for (const std::string sched : {"rr", "dtable:table=0:3;1:1", "tclass:caps=0.3;1,window-ns=200"}) {
    INFO(sched);
    const RouterConfig r = opa("vls=2,input-buffer-bytes=2560,output-buffer-bytes=2560,vl-min-bytes=1024,vl-max-bytes=0,"
                               "central-buffer-bytes=3072,central-vl-min-bytes=1024",
                               2, sched);
    NicConfig nic;
    nic.service_levels = 2;
    nic.mtu_bytes = {64, 1024};
    nic.injection_queue_bytes = 4096;
    PacketSim sim(*s.fabric, s.paths, *s.routes, VcScheme{}, r, nic, 11);
    test::offer_two_sls(sim, s.n(), 2000, 0.2, 64, 2048, 8);
    test::run_and_drain(sim, 1000);
    CHECK(sim.stats().central_crossings > 0);
    for (ChannelId c = 0; c < s.fabric->num_channels(); ++c) {
      CHECK(sim.stats().channel_peak[c] <= 40);
      CHECK(sim.stats().output_peak[c] <= 40);
    }
    for (const std::uint32_t peak : sim.stats().central_peak) CHECK(peak <= 48);
  }
}

TEST_CASE("opa: the (x+1) mod 48 permutation runs at the theoretical throughput at every load") {
  // OpaSim (Cano et al. 2018) §3, Fig. 5: without contention a 48-port router delivers what it is
  // offered, up to one flit per cycle per NIC.
  const Setup s("fattree:k=48,n=1", "dmodk");
  const RouterConfig r = opa(kBuffers, 1);
  for (const double load : {0.25, 0.5, 1.0}) {
    INFO("load " << load);
    NicConfig nic;
    nic.mtu_bytes = {256};
    PacketSim sim(*s.fabric, s.paths, *s.routes, VcScheme{}, r, nic, 2);
    const Cycle warmup = 2000, measure = 8000;
    sim.set_window(warmup, warmup + measure);
    const auto every = static_cast<Cycle>(4 / load);  // 4-flit packets: one per 4 / load cycles
    for (Cycle t = 0; t < warmup + measure; t += every)
      for (EndpointId src = 0; src < 48; ++src) sim.send({src, (src + 1) % 48, 256, 0}, t);
    sim.run_until(warmup + measure);
    sim.check_invariants();
    const double accepted = static_cast<double>(sim.stats().sl[0].window_delivered_flits) / (48.0 * measure);
    CHECK(accepted == approx(load).epsilon(0.01));
    sim.run_until(0);
    sim.check_invariants();
    CHECK(sim.messages_in_system() == 0);
  }
}

TEST_CASE("opa: the centre carries flits of any packets at its rate so 1-flit packets pass at 0.9") {
  // Two x3 links into each MPort's central buffer and 4 flits per cycle out of each central input:
  // one packet per link and cycle would cap 1-flit packets at 2 / 4 = 0.5 per port.
  const Setup s("fattree:k=48,n=1", "dmodk");
  const RouterConfig r = opa(kBuffers + ",sb-in-delay=0,rt-delay=1,at-delay=1,sb-out-delay=0", 1);
  NicConfig nic;
  nic.mtu_bytes = {64};
  PacketSim sim(*s.fabric, s.paths, *s.routes, VcScheme{}, r, nic, 4);
  const Cycle warmup = 2000, measure = 6000;
  sim.set_window(warmup, warmup + measure);
  Rng rng(6);
  for (Cycle t = 0; t < warmup + measure; ++t)
    for (EndpointId src = 0; src < 48; ++src)
      if (rng.uniform() < 0.9) {
        const auto dst = static_cast<EndpointId>((src + 1 + rng.below(47)) % 48);
        sim.send({src, dst, 64, 0}, t);
      }
  sim.run_until(warmup + measure);
  sim.check_invariants();
  const double accepted = static_cast<double>(sim.stats().sl[0].window_delivered_flits) / (48.0 * measure);
  CHECK(accepted == approx(0.9).epsilon(0.02));
  sim.run_until(0);
  sim.check_invariants();
  CHECK(sim.messages_in_system() == 0);
}

TEST_CASE("opa: two SLs may share one VL through their SCs and both are delivered") {
  // Cano-Cano et al. 2024 §3.2: a VL may carry several SCs. SL 0 on SC 0 and SL 1 on SC 1, both on
  // VL 0 of a one-VL switch; the output scheduler still chooses between the SLs.
  const Setup s("fattree:k=4,n=2", "dmodk");
  const RouterConfig r = opa("vls=1,input-buffer-bytes=2048,output-buffer-bytes=2048,vl-min-bytes=1024,vl-max-bytes=0,"
                             "central-vl-min-bytes=1024,sl2sc=0;1,sc2vl=0;0,sc2sl=0;1",
                             2, "dtable:table=0:3;1:1");
  NicConfig nic;
  nic.service_levels = 2;
  nic.mtu_bytes = {64, 1024};
  nic.injection_queue_bytes = 4096;
  PacketSim sim(*s.fabric, s.paths, *s.routes, VcScheme{}, r, nic, 13);
  CHECK(sim.lane_vcs(0) == std::vector<std::uint32_t>{0});
  CHECK(sim.lane_vcs(1) == std::vector<std::uint32_t>{0});
  test::offer_two_sls(sim, s.n(), 1500, 0.2, 64, 2048, 9);
  test::run_and_drain(sim, 800);
  for (const std::uint32_t sl : {0u, 1u}) CHECK(sim.stats().sl[sl].delivered_messages == sim.stats().sl[sl].generated_messages);
}
