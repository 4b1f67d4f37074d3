// Traffic classes with bandwidth caps and priorities (Mubarak et al. 2019, §II, after Cheng, Lovett and
// Parker's traffic-class arbitration): each output port counts the bytes each class (lane) sent in a
// static window of t_w; a class that has reached its cap (a share of the link's bandwidth over the
// window) while the port is contested becomes inactive until the window ends. Active classes go by
// priority (0 first; round robin among equals); inactive ones only when no active class can send,
// round robin among themselves. Every window starts with the counts at zero and every class active.
//
// "Contested" is read here as: another class has a packet queued at the port when the class sends
// (the paper's "the link is oversubscribed"), so a class alone on its port may exceed its cap.
#include <cmath>
#include <optional>
#include <sstream>

#include "core/error.hpp"
#include "core/format.hpp"
#include "core/types.hpp"
#include "engine/packet/output_scheduler.hpp"

namespace interflow::packet {

namespace {

class TrafficClasses final : public OutputScheduler {
 public:
  TrafficClasses(std::vector<double> caps, std::vector<std::uint32_t> priority, std::uint64_t window_cycles,
                 double window_bytes)
      : priority_(std::move(priority)), window_(window_cycles), sent_(caps.size(), 0), inactive_(caps.size(), 0),
        last_(static_cast<std::uint32_t>(caps.size()) - 1) {
    for (const double cap : caps) allowance_.push_back(cap * window_bytes);
  }

  std::uint32_t next(const LaneOffer& offer) override {
    start_window(offer.now);
    std::uint32_t lane = pick(offer, false);
    if (lane == kNone) lane = pick(offer, true);
    if (lane == kNone) return kNone;
    last_ = lane;
    sent_[lane] += offer.size[lane];
    if (static_cast<double>(sent_[lane]) >= allowance_[lane] && contested(offer, lane)) inactive_[lane] = 1;
    return lane;
  }

  // Bytes sent in the current window, per class (negative: the class is inactive).
  std::vector<std::int64_t> deficits() const override {
    std::vector<std::int64_t> d;
    for (std::size_t k = 0; k < sent_.size(); ++k)
      d.push_back(inactive_[k] ? -static_cast<std::int64_t>(sent_[k]) : static_cast<std::int64_t>(sent_[k]));
    return d;
  }
  std::uint32_t unit_bytes() const override { return 1; }

 private:
  void start_window(std::uint64_t now) {
    const std::uint64_t window = now / window_;
    if (window == current_) return;
    current_ = window;
    std::fill(sent_.begin(), sent_.end(), 0);
    std::fill(inactive_.begin(), inactive_.end(), 0);
  }

  // Among the ready classes that are (in)active: the best priority, then round robin after the last served.
  std::uint32_t pick(const LaneOffer& offer, bool inactive) const {
    const auto lanes = static_cast<std::uint32_t>(sent_.size());
    std::uint32_t best = kNone;
    for (std::uint32_t k = 1; k <= lanes; ++k) {
      const std::uint32_t lane = (last_ + k) % lanes;
      if (!offer.ready[lane] || (inactive_[lane] != 0) != inactive) continue;
      if (best == kNone || (!inactive && priority_[lane] < priority_[best])) best = lane;
    }
    return best;
  }

  static bool contested(const LaneOffer& offer, std::uint32_t lane) {
    for (std::uint32_t k = 0; k < offer.queued.size(); ++k)
      if (k != lane && offer.queued[k]) return true;
    return false;
  }

  std::vector<std::uint32_t> priority_;
  std::vector<double> allowance_;  // bytes per window
  std::uint64_t window_, current_ = 0;
  std::vector<std::uint64_t> sent_;
  std::vector<std::uint8_t> inactive_;
  std::uint32_t last_;
};

// "a;b;c": one number per lane in [min, max], or one for every lane.
std::vector<double> per_lane(const ParamSet& p, const std::string& name, std::uint32_t lanes, double min, double max) {
  std::vector<double> values;
  std::istringstream in(p.get_string(name));
  for (std::string item; std::getline(in, item, ';');) {
    const std::optional<double> v = parse_real(item);
    if (!v || *v < min || *v > max)
      p.fail(name, "'" + item + "' is not a number in [" + number_text(min) + ", " + number_text(max) + "]");
    values.push_back(*v);
  }
  if (values.size() == 1) values.assign(lanes, values[0]);
  if (values.size() != lanes)
    p.fail(name, "gives " + std::to_string(values.size()) + " values for " + std::to_string(lanes) +
                     " lanes (one per lane, ';' between them, or one for all)");
  return values;
}

std::unique_ptr<OutputScheduler> make_tclass(const ParamSet& p, const SchedulerContext& c) {
  std::vector<double> caps = per_lane(p, "caps", c.lanes, 0, 1);
  for (std::size_t k = 0; k < caps.size(); ++k)
    if (caps[k] <= 0) p.fail("caps", "class " + std::to_string(k) + " has a cap of 0: it could never send");
  std::vector<std::uint32_t> priority;
  if (p.has("priorities"))
    for (const double v : per_lane(p, "priorities", c.lanes, 0, 1e6)) {
      if (v != std::floor(v)) p.fail("priorities", "priorities are whole numbers");
      priority.push_back(static_cast<std::uint32_t>(v));
    }
  else
    for (std::uint32_t k = 0; k < c.lanes; ++k) priority.push_back(k);
  const double window_ns = p.get_real("window-ns");
  const auto cycles = static_cast<std::uint64_t>(std::ceil(window_ns / c.cycle_ns));
  if (cycles == 0) p.fail("window-ns", "the window is shorter than a cycle");
  const double bytes = static_cast<double>(cycles) * c.bytes_per_cycle;
  return std::make_unique<TrafficClasses>(std::move(caps), std::move(priority), cycles, bytes);
}

}  // namespace

void register_tclass_scheduler(OutputSchedulerRegistry& registry) {
  ParamSpec priorities = string_param(
      "priorities", "", "each lane's priority, 0 served first, ';' between lanes (default: the lane number)");
  priorities.optional = true;
  registry.add({"tclass",
                "traffic classes: bandwidth caps over a static window and priorities (Mubarak et al. 2019, §II)",
                {string_param("caps", "1", "each lane's cap, a share of the link's bandwidth in (0, 1], ';' between "
                                           "lanes, or one for all"),
                 priorities,
                 real_param("window-ns", "5e6", "the static window t_w over which each port counts bytes, ns", 1e-3,
                            1e15)},
                make_tclass,
                "Mubarak et al. 2019 §II (5 ms window in their study). A class that reaches its cap while another "
                "class has packets queued at the port goes to the lowest priority until the window ends; classes over "
                "their caps share round robin; counts restart at every window."});
}

}  // namespace interflow::packet
