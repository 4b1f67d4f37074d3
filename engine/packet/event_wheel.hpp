#pragma once
// The packet engine's future events (credit returns, deliveries, output-buffer space), by cycle: a
// timing wheel of W buckets for the next W cycles, and a heap for events further ahead. Pushing and
// taking an event cost O(1) instead of a heap's O(log n) (the engine schedules one per packet hop).
//
// Correctness. An event of time t pushed at cycle `now` (t > now) goes to bucket t mod W when
// t < now + W, else to the heap. The caller takes events with take_due(now) at every cycle it
// simulates, and may jump over cycles only to next_time() or earlier. Claim: when take_due(now) runs,
// bucket now mod W holds exactly the events of time `now`.
//   - Every event in the wheel has time in [now, now + W): it was pushed (or moved from the heap) at
//     some cycle c <= now with t < c + W <= now + W, and t >= now because no cycle was skipped past
//     an event (jumps stop at next_time(), which is the earliest event) and events of earlier times
//     were taken at their cycle.
//   - Two times in [now, now + W) share a bucket only if they are equal. So bucket now mod W holds
//     the events of time `now` and nothing else.
//   - take_due(now) first moves from the heap every event of time < now + W (their buckets are then
//     right by the same argument), so none of time `now` is left behind in the heap.
// Events of one cycle come out in a deterministic order: the order they entered their bucket (when
// pushed, or when moved from the heap).
#include <algorithm>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <vector>

namespace interflow::packet {

template <class Event>  // Event has a `time` field (the cycle)
class EventWheel {
 public:
  explicit EventWheel(std::uint32_t log2_buckets = 10)
      : mask_((std::uint64_t{1} << log2_buckets) - 1), buckets_(mask_ + 1) {}

  // An event of time e.time > now.
  void push(std::uint64_t now, const Event& e) {
    if (e.time <= now) throw std::logic_error("EventWheel: an event must lie in the future");
    if (e.time - now <= mask_) {
      buckets_[e.time & mask_].push_back(e);
      ++in_wheel_;
    } else {
      later_.push_back(e);
      std::push_heap(later_.begin(), later_.end(), later_first_);
    }
  }

  // Calls f(event) for every event of time `now` (none may be earlier: see the header).
  template <class F>
  void take_due(std::uint64_t now, F&& f) {
    while (!later_.empty() && later_.front().time - now <= mask_) {
      std::pop_heap(later_.begin(), later_.end(), later_first_);
      buckets_[later_.back().time & mask_].push_back(later_.back());
      later_.pop_back();
      ++in_wheel_;
    }
    std::vector<Event>& bucket = buckets_[now & mask_];
    if (bucket.empty()) return;
    due_.swap(bucket);  // f may push events (always into other buckets)
    in_wheel_ -= due_.size();
    for (const Event& e : due_) {
      if (e.time != now) throw std::logic_error("EventWheel: a cycle with events was skipped");
      f(e);
    }
    due_.clear();
  }

  // The earliest event's time, or ~0 when there is none.
  std::uint64_t next_time(std::uint64_t now) const {
    std::uint64_t t = later_.empty() ? ~std::uint64_t{0} : later_.front().time;
    if (in_wheel_ > 0)
      for (std::uint64_t c = now; c <= now + mask_; ++c)
        if (!buckets_[c & mask_].empty()) return std::min(t, buckets_[c & mask_].front().time);
    return t;
  }

  bool empty() const { return in_wheel_ == 0 && later_.empty(); }

  template <class F>
  void for_each(F&& f) const {
    for (const auto& bucket : buckets_)
      for (const Event& e : bucket) f(e);
    for (const Event& e : later_) f(e);
  }

 private:
  struct LaterFirst {
    bool operator()(const Event& a, const Event& b) const { return a.time > b.time; }
  };
  std::uint64_t mask_;
  std::vector<std::vector<Event>> buckets_;
  std::vector<Event> later_;  // a min-heap by time
  std::vector<Event> due_;
  std::size_t in_wheel_ = 0;
  LaterFirst later_first_;
};

}  // namespace interflow::packet
