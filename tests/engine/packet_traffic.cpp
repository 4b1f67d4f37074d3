// The packet engine's per-SL traffic generators: each offers its load, CBR connections keep their
// destinations, bursts go whole to one destination, and a pattern's pairs are the only destinations.
#include <doctest/doctest.h>

#include "tests/support/approx.hpp"

#include <cmath>
#include <map>
#include <set>

#include "engine/packet/traffic.hpp"
#include "tests/support/test_support.hpp"

using namespace interflow;
using namespace interflow::packet;

namespace {

struct Drawn {
  double flits_per_cycle = 0;
  std::map<EndpointId, std::set<EndpointId>> destinations;
  std::vector<Emission> emissions;  // of NIC 0
};

// Everything `spec` emits from `nics` NICs in `cycles` cycles.
Drawn draw(const std::string& spec, const DestinationRule& rule, std::uint32_t nics, Cycle cycles) {
  TrafficRegistry registry("traffic");
  register_traffic(registry);
  auto gen = registry.create(Spec::parse(spec, "test"), TrafficContext{64, &rule});
  Rng rng(12);
  Drawn d;
  double flits = 0;
  const double per_message = std::ceil(static_cast<double>(gen->settings().bytes) / 64.0);
  for (EndpointId e = 0; e < nics; ++e) {
    if (!gen->start(e, rng)) continue;
    for (Emission m = gen->next(e, 0, true, rng); m.time < cycles; m = gen->next(e, m.time, false, rng)) {
      flits += (m.bytes != 0 ? std::ceil(static_cast<double>(m.bytes) / 64.0) : per_message) * m.count;
      d.destinations[e].insert(m.dst);
      if (e == 0) d.emissions.push_back(m);
    }
  }
  d.flits_per_cycle = flits / static_cast<double>(cycles) / nics;
  return d;
}

}  // namespace

TEST_CASE("packet traffic: every generator offers its load") {
  const DestinationRule uniform = DestinationRule::uniform(16);
  const std::vector<std::pair<std::string, double>> cases = {{"messages:load=0.3,bytes=128", 0.3},
                                                              {"messages:load=0.25,bytes=64,process=constant", 0.25},
                                                              {"cbr:load=0.2,bytes=256,connections=3", 0.2},
                                                              {"bursts:load=0.4,bytes=128,size=4", 0.4},
                                                              {"messages:load=0.6,bytes=64,long-bytes=1024,short-percent=75", 0.6}};
  for (const auto& [spec, load] : cases) {
    INFO(spec);
    CHECK(draw(spec, uniform, 16, 200000).flits_per_cycle == approx(load).epsilon(0.02));
  }
}

TEST_CASE("packet traffic: CBR connections keep their destinations at a constant interval") {
  const Drawn d = draw("cbr:load=0.25,bytes=128,connections=2", DestinationRule::uniform(16), 16, 10000);
  for (const auto& [src, dsts] : d.destinations) {
    CHECK(dsts.size() <= 2);
    CHECK(dsts.count(src) == 0);
  }
  REQUIRE(d.emissions.size() > 10);
  for (std::size_t i = 1; i < d.emissions.size(); ++i) {
    CHECK(d.emissions[i].time - d.emissions[i - 1].time == 8);  // 2 flits / 0.25
    CHECK(d.emissions[i].dst != d.emissions[i - 1].dst);        // the two connections in turn
  }
}

TEST_CASE("packet traffic: bursts of four go together to one destination") {
  const Drawn d = draw("bursts:load=0.2,bytes=1024,size=4", DestinationRule::uniform(8), 8, 100000);
  REQUIRE(!d.emissions.empty());
  for (const Emission& m : d.emissions) CHECK(m.count == 4);
}

TEST_CASE("packet traffic: a static pattern's pairs are the only destinations") {
  // Source s sends to s+1 and s+2 (mod 8); source 7 is silent.
  std::vector<EndpointId> src, dst;
  for (EndpointId s = 0; s < 7; ++s) {
    src.insert(src.end(), {s, s});
    dst.insert(dst.end(), {(s + 1) % 8, (s + 2) % 8});
  }
  const DestinationRule rule = DestinationRule::pairs(8, src, dst);
  CHECK(rule.silent(7));
  const Drawn d = draw("messages:load=0.5", rule, 8, 20000);
  CHECK(d.destinations.count(7) == 0);
  for (const auto& [s, ds] : d.destinations) CHECK(ds == std::set<EndpointId>{(s + 1) % 8, (s + 2) % 8});
}

TEST_CASE("packet traffic: the Cano-Cano 2024 mix has its seven SLs and loads") {
  const auto mix = cano_cano_2024_mix(0.05);
  REQUIRE(mix.size() == 7);
  CHECK(mix[0] == "messages:name=NC,load=0.01,bytes=192,mtu=192");
  CHECK(mix[6] == "bursts:name=BK,load=0.05,bytes=1024,mtu=1024,size=4");
  CHECK(test::error_of([] { draw("messages:load=0", DestinationRule::uniform(4), 4, 10); }).find("load") !=
        std::string::npos);
  CHECK(test::error_of([] { draw("bursts:load=9,bytes=64,size=4", DestinationRule::uniform(4), 4, 10); })
            .find("at most one emission per cycle") != std::string::npos);
}

TEST_CASE("packet traffic: OpaSim's short and long messages come in their shares") {
  const Drawn d = draw("messages:load=0.5,bytes=128,long-bytes=2048,short-percent=80", DestinationRule::uniform(16), 16, 400000);
  std::size_t longs = 0;
  for (const Emission& m : d.emissions) {
    CHECK((m.bytes == 0 || m.bytes == 2048));
    longs += m.bytes == 2048;
  }
  REQUIRE(d.emissions.size() > 1000);
  CHECK(static_cast<double>(longs) / static_cast<double>(d.emissions.size()) == approx(0.2).epsilon(0.1));
}
