// The packet engine's timing wheel (engine/packet/event_wheel.hpp) against a plain sorted list:
// random events near and far ahead, taken cycle by cycle with jumps over idle cycles to the next
// event, come out at their cycles, all of them and nothing else.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <vector>

#include "core/random.hpp"
#include "engine/packet/event_wheel.hpp"

using namespace interflow;
using namespace interflow::packet;

namespace {

struct Ev {
  std::uint64_t time;
  std::uint32_t id;
};

}  // namespace

TEST_CASE("event wheel: events come out at their cycles as a sorted list says near and far ahead") {
  for (const std::uint32_t log2 : {2u, 4u, 10u}) {
    INFO("buckets 2^" << log2);
    EventWheel<Ev> wheel(log2);
    std::multimap<std::uint64_t, std::uint32_t> expected;  // time -> id
    Rng rng(log2);
    std::uint64_t now = 0;
    std::uint32_t next_id = 0, taken = 0;
    const auto push_some = [&] {
      const auto count = rng.below(4);
      for (std::uint64_t k = 0; k < count && next_id < 5000; ++k) {
        // Mostly within a few cycles, sometimes far beyond the wheel (the heap).
        const std::uint64_t ahead = rng.below(10) == 0 ? 1 + rng.below(5000) : 1 + rng.below(20);
        wheel.push(now, {now + ahead, next_id});
        expected.emplace(now + ahead, next_id++);
      }
    };
    while (next_id < 5000 || !wheel.empty()) {
      push_some();
      std::vector<std::uint32_t> got, want;
      wheel.take_due(now, [&](const Ev& e) {
        CHECK(e.time == now);
        got.push_back(e.id);
      });
      for (auto it = expected.begin(); it != expected.end() && it->first == now; it = expected.erase(it))
        want.push_back(it->second);
      std::sort(got.begin(), got.end());
      CHECK(got == want);  // want is in push order: ids ascending
      taken += static_cast<std::uint32_t>(got.size());
      CHECK((expected.empty() || expected.begin()->first > now));
      // Jump to the next event when idle (as the engine does), else step.
      const std::uint64_t next = wheel.next_time(now + 1);
      CHECK(next == (expected.empty() ? ~std::uint64_t{0} : expected.begin()->first));
      now = next_id < 5000 || next == ~std::uint64_t{0} ? now + 1 : next;
    }
    CHECK(taken == 5000);
    CHECK(expected.empty());
  }
  EventWheel<Ev> wheel(4);
  CHECK_THROWS(wheel.push(10, {10, 0}));  // not in the future
}
