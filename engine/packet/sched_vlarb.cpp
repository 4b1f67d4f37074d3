// The InfiniBand VL arbitration (IBA 1.4 §7.6.9; as Cano-Cano et al. 2024 §3.1 describe it): a high-
// and a low-priority table of up to 64 (VL, weight) entries, weights 0-255 in units of 64 bytes.
//   - A table is served entry by entry: the entry's VL sends while it can and its weight lasts; a
//     packet goes whole when any weight is left (the weight is rounded up to a whole packet) and
//     the rest of the entry is then lost; an entry whose VL cannot send, or of weight 0, is skipped.
//   - The high table is served first, but after LimitOfHighPriority x 4096 bytes of high-priority
//     data one low-priority packet may go if one can (255: no limit; 0: one high packet at a time).
//   - The low table is served whenever no high-priority VL can send, so no bandwidth is wasted.
// Sizes are in 64-byte units.
#include "core/types.hpp"
#include "engine/packet/output_scheduler.hpp"

namespace interflow::packet {

namespace {

class VlArbitration final : public OutputScheduler {
 public:
  VlArbitration(std::vector<TableEntry> high, std::vector<TableEntry> low, std::uint32_t limit)
      : high_{std::move(high)}, low_{std::move(low)}, limit_(limit) {
    high_.left = high_.entries.empty() ? 0 : high_.entries[0].weight;
    low_.left = low_.entries.empty() ? 0 : low_.entries[0].weight;
  }

  std::uint32_t unit_bytes() const override { return 64; }

  std::uint32_t next(const LaneOffer& offer) override {
    const bool high = can_send(high_, offer), low = can_send(low_, offer);
    const bool limit_reached = limit_ != 255 && high_units_ > 0 && high_units_ * 64 >= std::uint64_t{limit_} * 4096;
    if (high && !(limit_reached && low)) {
      const std::uint32_t lane = serve(high_, offer);
      high_units_ += offer.size[lane];
      return lane;
    }
    if (low) {
      high_units_ = 0;
      return serve(low_, offer);
    }
    return kNone;
  }

 private:
  struct Table {
    std::vector<TableEntry> entries;
    std::size_t pos = 0;
    std::int64_t left = 0;  // weight left in the current entry, 64-byte units
  };

  static bool can_send(const Table& t, const LaneOffer& offer) {
    for (const TableEntry& e : t.entries)
      if (e.weight > 0 && offer.ready[e.lane]) return true;
    return false;
  }

  static void advance(Table& t) {
    t.pos = (t.pos + 1) % t.entries.size();
    t.left = t.entries[t.pos].weight;
  }

  // The current entry's VL sends if it can and weight is left; otherwise the next entry that can.
  static std::uint32_t serve(Table& t, const LaneOffer& offer) {
    for (std::size_t step = 0; step <= t.entries.size(); ++step) {
      const TableEntry& e = t.entries[t.pos];
      if (t.left > 0 && offer.ready[e.lane]) {
        t.left -= offer.size[e.lane];  // a whole packet, even past the weight: the rest is lost
        if (t.left <= 0) advance(t);
        return e.lane;
      }
      advance(t);
    }
    return kNone;  // unreachable: can_send() found an entry
  }

  Table high_, low_;
  std::uint32_t limit_;
  std::uint64_t high_units_ = 0;  // 64-byte units of high-priority data since the last low-priority packet
};

}  // namespace

void register_vlarb_scheduler(OutputSchedulerRegistry& registry) {
  registry.add({"vlarb", "InfiniBand VL arbitration: high and low tables of (VL, weight x 64 bytes), LimitOfHighPriority",
                {string_param("high", "0:0", "high-priority table VL:WEIGHT;VL:WEIGHT;... (up to 64 entries, weights 0-255; 0: skipped)"),
                 string_param("low", "0:1", "low-priority table, as high"),
                 int_param("limit", "255", "LimitOfHighPriority: x 4096 bytes of high-priority data before a low-priority "
                                          "packet may go (255: unlimited; 0: one packet)", 0, 255)},
                [](const ParamSet& p, const SchedulerContext& c) {
                  auto high = parse_table(p.get_string("high"), "vlarb high", c.lanes, 64, 255);
                  auto low = parse_table(p.get_string("low"), "vlarb low", c.lanes, 64, 255);
                  if (high.empty() && low.empty()) p.fail("low", "both tables are empty");
                  return std::make_unique<VlArbitration>(std::move(high), std::move(low),
                                                         static_cast<std::uint32_t>(p.get_int("limit")));
                },
                "IBA 1.4 §7.6.9 and Cano-Cano et al. 2024 §3.1. Entries of weight 0 are skipped; a packet goes "
                "whole when any weight is left in its entry and the remainder is lost."});
}

}  // namespace interflow::packet
