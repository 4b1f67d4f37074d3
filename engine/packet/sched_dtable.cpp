// The Deficit Table scheduler (Martinez-Morais et al. 2009; Cano-Cano et al. 2024, §4): a table of
// (SL, weight) entries, one deficit counter per SL and one accumulated-weight counter per port.
//   - The table is walked to the next active entry; the accumulated weight becomes the entry's
//     weight plus its SL's deficit, and the SL sends packets while the accumulated weight covers the
//     next one (each packet costs its size in flow-control credits).
//   - When the accumulated weight no longer covers the next packet, it is kept as the SL's deficit
//     and the walk goes on; when the SL becomes inactive, its deficit is reset to zero and the
//     accumulated weight is discarded.
//   - Active: the paper's reading (default `reset=inactive`) is "stores a packet and may send it"
//     (flow control allows); `reset=empty` resets only an SL without packets, keeping the deficit of
//     one that waits for credits.
// The table is given inline (`table`) or as a file of "SL WEIGHT" lines (`file`), such as the one
// `interflow qos-config` writes (engine/packet/dtable_config.hpp).
// The Fig. 3 example of Cano-Cano et al. 2024 is a test: SL 0 with weight 3 and three packets of 2
// credits sends 1 packet (deficit 1), then 2 (deficit 0).
#include <algorithm>

#include "core/types.hpp"
#include "engine/packet/output_scheduler.hpp"

namespace interflow::packet {

namespace {

class DeficitTable final : public OutputScheduler {
 public:
  DeficitTable(std::vector<TableEntry> table, bool reset_when_blocked, std::uint32_t lanes)
      : table_(std::move(table)), reset_when_blocked_(reset_when_blocked), deficit_(lanes, 0) {}

  std::uint32_t next(const LaneOffer& offer) override {
    reset_inactive(offer);
    if (in_entry_) {
      const std::uint32_t sl = table_[pos_].lane;
      if (offer.ready[sl] && accumulated_ >= offer.size[sl]) return send(sl, offer);
      end_entry(offer);
    }
    if (std::none_of(offer.ready.begin(), offer.ready.end(), [](std::uint8_t r) { return r != 0; })) return kNone;
    // Walk to the next active entry; each visit adds its weight, so some entry covers its packet
    // within a bounded number of rounds (table weights are positive for every SL that may send).
    for (std::size_t step = 0; step < table_.size() * (max_size(offer) + 1); ++step) {
      pos_ = (pos_ + 1) % table_.size();
      const std::uint32_t sl = table_[pos_].lane;
      if (!offer.ready[sl]) continue;
      accumulated_ = table_[pos_].weight + deficit_[sl];
      deficit_[sl] = 0;
      in_entry_ = true;
      if (accumulated_ >= offer.size[sl]) return send(sl, offer);
      end_entry(offer);
    }
    return kNone;  // the ready SLs have no weight in the table
  }

  std::vector<std::int64_t> deficits() const override { return deficit_; }

 private:
  bool active(std::uint32_t sl, const LaneOffer& offer) const {
    return reset_when_blocked_ ? offer.ready[sl] != 0 : offer.queued[sl] != 0;
  }

  void reset_inactive(const LaneOffer& offer) {
    for (std::uint32_t sl = 0; sl < deficit_.size(); ++sl)
      if (!active(sl, offer)) deficit_[sl] = 0;
  }

  std::uint32_t send(std::uint32_t sl, const LaneOffer& offer) {
    accumulated_ -= offer.size[sl];
    return sl;
  }

  // The accumulated weight becomes the SL's deficit if it is still active, and is lost otherwise.
  void end_entry(const LaneOffer& offer) {
    const std::uint32_t sl = table_[pos_].lane;
    deficit_[sl] = active(sl, offer) ? accumulated_ : 0;
    accumulated_ = 0;
    in_entry_ = false;
  }

  static std::uint32_t max_size(const LaneOffer& offer) {
    std::uint32_t m = 1;
    for (std::uint32_t sl = 0; sl < offer.size.size(); ++sl)
      if (offer.ready[sl]) m = std::max(m, offer.size[sl]);
    return m;
  }

  std::vector<TableEntry> table_;
  bool reset_when_blocked_;
  std::vector<std::int64_t> deficit_;
  std::size_t pos_ = ~std::size_t{0};  // one before entry 0: the first walk starts there
  std::int64_t accumulated_ = 0;
  bool in_entry_ = false;
};

ParamSpec table_file_param() {
  ParamSpec file = string_param("file", "",
                                "a table file instead of `table`: one 'SL WEIGHT' line per entry in table order, '#' "
                                "comments (`interflow qos-config --out` writes one)");
  file.optional = true;
  return file;
}

// The entries of `table`, or of the file `file` names.
std::vector<TableEntry> table_of(const ParamSet& p, std::uint32_t lanes) {
  if (p.has("file") && p.given("table")) p.fail("file", "give the table or a file, not both");
  auto table = p.has("file") ? read_table_file(p.get_string("file"), "dtable file", lanes, 4096, 1u << 30)
                             : parse_table(p.get_string("table"), "dtable table", lanes, 4096, 1u << 30);
  if (table.empty()) p.fail("table", "the table is empty");
  return table;
}

}  // namespace

void register_dtable_scheduler(OutputSchedulerRegistry& registry) {
  registry.add({"dtable", "Deficit Table: weighted table entries per SL with deficit counters (Cano-Cano et al. 2024)",
                {string_param("table", "0:1", "entries SL:WEIGHT;SL:WEIGHT;... in credits (any number of entries)"),
                 table_file_param(),
                 choice_param("reset", "inactive", {"inactive", "empty"},
                              "when an SL's deficit is reset: it has no packet or no credits (the paper), or only "
                              "when it has no packet")},
                [](const ParamSet& p, const SchedulerContext& c) {
                  auto table = table_of(p, c.lanes);
                  return std::make_unique<DeficitTable>(std::move(table), p.get_string("reset") == "inactive", c.lanes);
                },
                "Cano-Cano et al. 2024 §4 and Fig. 3; Martinez-Morais et al. 2009. Its InfiniBand mapping (§4.1): the "
                "high-priority VLArb table holds the entries, the first 16 low-priority entries the deficit counters "
                "and the last one the accumulated weight. `interflow qos-config` computes a table from per-SL "
                "distances and shares by the method of §4.4 and writes it for `file`."});
}

}  // namespace interflow::packet
