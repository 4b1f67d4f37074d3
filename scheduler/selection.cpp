#include "scheduler/selection.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace interflow::scheduler {

void register_selection_policies(SelectionRegistry& registry) {
  register_list_policies(registry);
  register_easy_policies(registry);
  register_conservative_policy(registry);
}

std::vector<std::uint32_t> by_estimate(const QueueState& s, std::span<const std::uint32_t> jobs) {
  std::vector<std::uint32_t> out(jobs.begin(), jobs.end());
  const auto& j = *s.jobs;
  std::stable_sort(out.begin(), out.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return j[a].estimate < j[b].estimate; });
  return out;
}

double release_time(const QueueState& s, const RunningJob& r) {
  return r.predicted_end > s.now ? r.predicted_end : std::nextafter(s.now, std::numeric_limits<double>::infinity());
}

Profile Profile::of(const QueueState& s) {
  std::vector<RunningJob> ends(s.running.begin(), s.running.end());
  std::sort(ends.begin(), ends.end(),
            [](const RunningJob& a, const RunningJob& b) { return a.predicted_end < b.predicted_end; });
  Profile p;
  p.time.push_back(s.now);
  p.free.push_back(s.free_nodes);
  for (const RunningJob& r : ends) {
    const double t = release_time(s, r);
    if (t > p.time.back()) {
      p.time.push_back(t);
      p.free.push_back(p.free.back());
    }
    p.free.back() += r.nodes;
  }
  return p;
}

double Profile::earliest(std::uint32_t nodes, double duration) const {
  const auto need = static_cast<std::int64_t>(nodes);
  for (std::size_t k = 0; k < time.size(); ++k) {
    if (free[k] < need) continue;
    // Nodes must stay free from time[k] until time[k] + duration.
    bool fits = true;
    for (std::size_t m = k + 1; m < time.size() && time[m] < time[k] + duration; ++m)
      if (free[m] < need) {
        fits = false;
        break;
      }
    if (fits) return time[k];
  }
  return std::numeric_limits<double>::infinity();  // more nodes than the machine has
}

void Profile::reserve(double start, double duration, std::uint32_t nodes) {
  const double end = start + duration;
  const auto split = [&](double t) {  // a step boundary at t; returns its index
    const auto it = std::lower_bound(time.begin(), time.end(), t);
    const auto k = static_cast<std::size_t>(it - time.begin());
    if (it != time.end() && *it == t) return k;
    time.insert(it, t);
    free.insert(free.begin() + static_cast<std::ptrdiff_t>(k), free[k - 1]);
    return k;
  };
  const std::size_t first = split(start);
  const std::size_t last = split(duration > 0 ? end : std::nextafter(start, std::numeric_limits<double>::infinity()));
  for (std::size_t k = first; k < last; ++k) free[k] -= nodes;
}

}  // namespace interflow::scheduler
