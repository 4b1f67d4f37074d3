// Output schedulers: the Fig. 3 example of the Deficit Table (Cano-Cano et al. 2024), a VL
// arbitration sequence worked by hand, and long-run shares equal to the table weights.
#include <doctest/doctest.h>

#include "tests/support/approx.hpp"

#include <map>

#include "tests/support/test_support.hpp"

using namespace interflow;
using namespace interflow::packet;

namespace {

std::unique_ptr<OutputScheduler> make(const std::string& spec, std::uint32_t lanes, SchedulerContext c = {}) {
  c.lanes = lanes;
  return test::plugins().output_schedulers.create(Spec::parse(spec, "--scheduler"), c);
}

// Lanes with `backlog[l]` packets of `size[l]` each, all with credits; next() until `calls` sends.
struct Port {
  Port(std::vector<std::uint32_t> b, std::vector<std::uint32_t> s) : backlog(std::move(b)), size(std::move(s)) {}
  std::vector<std::uint32_t> backlog, size;
  std::vector<std::uint8_t> queued, ready;
  std::vector<std::uint32_t> order;  // lanes served, in order

  void sync() {
    queued.resize(backlog.size());
    ready.resize(backlog.size());
    for (std::size_t l = 0; l < backlog.size(); ++l) queued[l] = ready[l] = backlog[l] > 0;
  }
  std::uint32_t send(OutputScheduler& s, std::uint64_t now = 0) {
    sync();
    const std::uint32_t lane = s.next({queued, ready, size, now});
    if (lane != kNone) {
      REQUIRE(ready[lane]);
      --backlog[lane];
      order.push_back(lane);
    }
    return lane;
  }
};

}  // namespace

TEST_CASE("output schedulers: the Deficit Table sends 1 then 2 packets as in Fig. 3") {
  // SL 0: weight 3, three packets of 2 credits; SL 1: no packets.
  auto s = make("dtable:table=0:3;1:3", 2);
  Port port{{3, 0}, {2, 2}};
  CHECK(port.send(*s) == 0);  // round N: accumulated 3, one packet, 1 left
  CHECK(port.send(*s) == 0);  // 1 < 2: the 1 becomes SL 0's deficit; SL 1 is skipped; round N+1: 3 + 1 = 4
  CHECK(s->deficits()[0] == 0);  // taken into the accumulated weight
  CHECK(port.send(*s) == 0);  // the third packet: 4 - 2 - 2 = 0
  CHECK(port.send(*s) == kNone);
  CHECK(s->deficits() == std::vector<std::int64_t>{0, 0});
  // The deficit of round N, seen from outside: with a fourth packet waiting, 1 credit stays.
  auto t = make("dtable:table=0:3;1:3", 2);
  Port again{{4, 0}, {2, 2}};
  again.send(*t);
  again.backlog[0] = 3;
  again.sync();
  again.send(*t);  // ends the round-N entry (deficit 1), then round N+1 starts with 4
  CHECK(again.order == std::vector<std::uint32_t>{0, 0});
}

TEST_CASE("output schedulers: the Deficit Table keeps or resets a blocked SL's deficit as its rule says") {
  for (const std::string rule : {"inactive", "empty"}) {
    INFO(rule);
    auto s = make("dtable:table=0:3;1:3,reset=" + rule, 2);
    std::vector<std::uint8_t> queued{1, 1}, ready{1, 1};
    const std::vector<std::uint32_t> size{2, 2};
    CHECK(s->next({queued, ready, size}) == 0);  // accumulated 3 -> 1
    ready[0] = 0;                                // SL 0 loses its credits but keeps its packets
    CHECK(s->next({queued, ready, size}) == 1);
    CHECK(s->deficits()[0] == (rule == "empty" ? 1 : 0));
  }
}

TEST_CASE("output schedulers: VL arbitration worked by hand with high and low tables and the limit") {
  // High: VL 0 weight 2 (128 bytes), VL 1 weight 1; low: VL 2 weight 1. Packets of 64 bytes (1 unit).
  auto s = make("vlarb:high=0:2;1:1,low=2:1,limit=255", 3);
  Port port{{100, 100, 100}, {1, 1, 1}};
  for (int i = 0; i < 6; ++i) port.send(*s);
  CHECK(port.order == std::vector<std::uint32_t>{0, 0, 1, 0, 0, 1});  // low never goes while high can
  // LimitOfHighPriority 0: one high packet, then a low one.
  auto one = make("vlarb:high=0:2;1:1,low=2:1,limit=0", 3);
  Port p1{{100, 100, 100}, {1, 1, 1}};
  for (int i = 0; i < 6; ++i) p1.send(*one);
  CHECK(p1.order == std::vector<std::uint32_t>{0, 2, 0, 2, 1, 2});
  // LimitOfHighPriority 1 = 4096 bytes = 64 packets of 64 bytes, then one low packet.
  auto lim = make("vlarb:high=0:255,low=2:1,limit=1", 3);
  Port p2{{1000, 0, 1000}, {1, 1, 1}};
  for (int i = 0; i < 65; ++i) p2.send(*lim);
  CHECK(std::count(p2.order.begin(), p2.order.begin() + 64, 0u) == 64);
  CHECK(p2.order[64] == 2);
  // A packet larger than what is left goes whole and the rest of the entry is lost: weight 1 (64 B)
  // sends a 3-unit packet, then the next entry.
  auto round = make("vlarb:low=0:1;1:1", 2);
  Port p3{{10, 10}, {3, 1}};
  for (int i = 0; i < 4; ++i) p3.send(*round);
  CHECK(p3.order == std::vector<std::uint32_t>{0, 1, 0, 1});
  // The low table serves whenever no high VL can send.
  auto idle = make("vlarb:high=0:4,low=1:1", 2);
  Port p4{{0, 5}, {1, 1}};
  CHECK(p4.send(*idle) == 1);
}

TEST_CASE("output schedulers: with every lane backlogged the long-run shares equal the table weights") {
  const std::vector<std::pair<std::string, std::vector<double>>> cases = {
      {"dtable:table=0:40;1:20;2:10;0:40;3:5", {80, 20, 10, 5}},
      {"vlarb:low=0:40;1:20;2:10;0:40;3:5", {80, 20, 10, 5}},
      {"vlarb:high=0:8;1:4,low=2:2;3:1", {8, 4, 0, 0}},  // low starves while high can send
  };
  for (const auto& [spec, weights] : cases) {
    INFO(spec);
    auto s = make(spec, 4);
    // Packets of 1 or 2 units, small against the weights.
    Port port{{1000000, 1000000, 1000000, 1000000}, {2, 1, 2, 1}};
    std::vector<double> sent(4, 0);
    for (int i = 0; i < 200000; ++i) {
      const std::uint32_t lane = port.send(*s);
      REQUIRE(lane != kNone);
      sent[lane] += port.size[lane];
    }
    double total_w = 0, total_s = 0;
    for (std::size_t l = 0; l < 4; ++l) total_w += weights[l], total_s += sent[l];
    for (std::size_t l = 0; l < 4; ++l) CHECK(sent[l] / total_s == approx(weights[l] / total_w).epsilon(0.01));
  }
  auto rr = make("rr", 3);
  Port p{{9, 9, 9}, {1, 1, 1}};
  for (int i = 0; i < 6; ++i) p.send(*rr);
  CHECK(p.order == std::vector<std::uint32_t>{0, 1, 2, 0, 1, 2});
  auto prio = make("priority", 3);
  Port q{{1, 0, 5}, {1, 1, 1}};
  for (int i = 0; i < 3; ++i) q.send(*prio);
  CHECK(q.order == std::vector<std::uint32_t>{0, 2, 2});
  CHECK(test::error_of([] { make("vlarb:low=9:1", 4); }).find("lane 9 is not below the 4 lanes") != std::string::npos);
  CHECK(test::error_of([] { make("dtable:table=0-3", 4); }).find("expected LANE:WEIGHT") != std::string::npos);
}

TEST_CASE("output schedulers: a traffic class over its cap on a contested port waits until the window ends") {
  // Windows of 100 cycles at 100 bytes per cycle: 10,000 bytes. Class 0 first, capped at 30 %
  // (3,000 bytes); class 1 capped at 100 %. Packets of 1,000 bytes.
  auto s = make("tclass:caps=0.3;1,window-ns=100", 2, SchedulerContext{2, 1.0, 100});
  Port port{{100, 100}, {1000, 1000}};
  std::uint64_t now = 0;
  const auto send = [&] {
    const std::uint32_t lane = port.send(*s, now);
    now += 10;  // a packet takes 10 cycles on the link
    return lane;
  };
  CHECK(send() == 0);
  CHECK(send() == 0);
  CHECK(send() == 0);  // 3,000 bytes: at its cap while class 1 waits, so inactive
  CHECK(s->deficits() == std::vector<std::int64_t>{-3000, 0});
  for (int k = 0; k < 7; ++k) CHECK(send() == 1);  // the rest of the window, until cycle 100
  CHECK(s->deficits() == std::vector<std::int64_t>{-3000, 7000});
  CHECK(send() == 0);  // cycle 100: a new window, counts at zero, class 0 active and first again
  CHECK(s->deficits() == std::vector<std::int64_t>{1000, 0});

  // Uncontested: class 0 alone passes its cap and stays active; when class 1 comes, class 0 is
  // over its cap at its next send and yields.
  auto t = make("tclass:caps=0.3;1,window-ns=100", 2, SchedulerContext{2, 1.0, 100});
  Port alone{{5, 0}, {1000, 1000}};
  for (std::uint64_t k = 0; k < 4; ++k) CHECK(alone.send(*t, k * 10) == 0);
  CHECK(t->deficits() == std::vector<std::int64_t>{4000, 0});
  alone.backlog[1] = 3;
  CHECK(alone.send(*t, 40) == 0);  // still active (priority), now contested at 5,000: inactive
  CHECK(t->deficits()[0] == -5000);
  CHECK(alone.send(*t, 50) == 1);

  // Every class over its cap: round robin among them.
  auto u = make("tclass:caps=0.1;0.1,window-ns=100", 2, SchedulerContext{2, 1.0, 100});
  Port both{{10, 10}, {1000, 1000}};
  CHECK(both.send(*u, 0) == 0);  // 1,000 = its cap: inactive
  CHECK(both.send(*u, 10) == 1);  // likewise
  CHECK(both.send(*u, 20) == 0);
  CHECK(both.send(*u, 30) == 1);
  CHECK(both.send(*u, 40) == 0);
}

TEST_CASE("output schedulers: under saturation each traffic class gets its cap of the link") {
  // Both classes always backlogged; class 1 first (priorities 1;0) and capped at 75 %, class 0 at
  // 25 %; 500-byte packets, windows of 1,000 cycles at 64 bytes per cycle, 200 windows.
  auto s = make("tclass:caps=0.25;0.75,priorities=1;0,window-ns=1000", 2, SchedulerContext{2, 1.0, 64});
  Port port{{1u << 30, 1u << 30}, {500, 500}};
  std::vector<double> bytes(2, 0);
  double now = 0;
  while (now < 200'000) {
    const std::uint32_t lane = port.send(*s, static_cast<std::uint64_t>(now));
    bytes[lane] += 500;
    now += 500.0 / 64;
  }
  const double total = bytes[0] + bytes[1];
  CHECK(bytes[0] / total == approx(0.25).epsilon(0.01));
  CHECK(bytes[1] / total == approx(0.75).epsilon(0.01));
  CHECK_THROWS_AS(make("tclass:caps=0.3;0.2;0.1", 2), InputError);
  CHECK_THROWS_AS(make("tclass:caps=0;1", 2), InputError);
  CHECK_THROWS_AS(make("tclass:caps=1.5", 2), InputError);
  CHECK_THROWS_AS(make("tclass:priorities=0.5;1", 2), InputError);
}
