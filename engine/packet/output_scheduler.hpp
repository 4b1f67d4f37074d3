#pragma once
// Output schedulers: which virtual lane (or service level) an output port sends next
// (manual/packet.md "Output schedulers"). Each is a small kernel behind one narrow interface:
// the port says, per lane, whether a packet is queued, whether it can go now (queued and credits
// downstream) and its size; the scheduler names the lane and counts the packet as sent.
//
//   rr        round robin over the lanes that can send (Cano-Cano et al. 2024, §2.1 OB stage);
//   priority  the lowest-numbered lane that can send;
//   vlarb     the InfiniBand VL arbitration (IBA 1.4 §7.6.9; Cano-Cano et al. 2024, §3.1);
//   dtable    the Deficit Table scheduler (Martinez-Morais et al. 2009; Cano-Cano et al. 2024, §4);
//   tclass    traffic classes with bandwidth caps over a window and priorities (Mubarak et al. 2019, §II).
// One file each (sched_*.cpp), registered in the "output-scheduler" registry.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/registry.hpp"

namespace interflow::packet {

struct LaneOffer {
  std::span<const std::uint8_t> queued;  // a packet is waiting on the lane
  std::span<const std::uint8_t> ready;   // ... and it can go now (credits downstream)
  std::span<const std::uint32_t> size;   // its size in the scheduler's units (unit_bytes(): vlarb 64 bytes; others credits)
  std::uint64_t now = 0;                 // the cycle (schedulers that keep time: tclass)
};

class OutputScheduler {
 public:
  virtual ~OutputScheduler() = default;
  // The lane to send now (its head packet counted as sent), or kNone when none can go.
  virtual std::uint32_t next(const LaneOffer& offer) = 0;
  // The scheduler's per-lane counters where it has them (dtable: the deficits), for tests and traces.
  virtual std::vector<std::int64_t> deficits() const { return {}; }
  // The unit of LaneOffer::size in bytes, or 0 for flow-control credits (flits).
  virtual std::uint32_t unit_bytes() const { return 0; }
};

// What a scheduler knows of its output port.
struct SchedulerContext {
  std::uint32_t lanes = 1;
  double cycle_ns = 1;                 // the engine's cycle
  std::uint32_t bytes_per_cycle = 64;  // the port's link rate
};

using OutputSchedulerRegistry = Registry<OutputScheduler, const SchedulerContext&>;
void register_output_schedulers(OutputSchedulerRegistry& registry);
void register_rr_scheduler(OutputSchedulerRegistry& registry);
void register_priority_scheduler(OutputSchedulerRegistry& registry);
void register_vlarb_scheduler(OutputSchedulerRegistry& registry);
void register_dtable_scheduler(OutputSchedulerRegistry& registry);
void register_tclass_scheduler(OutputSchedulerRegistry& registry);

// Whether `s` is a whole decimal number that fits v (no sign, no spaces), and its value.
bool whole_number(const std::string& s, std::uint32_t& v);

// An arbitration table "lane:weight;lane:weight;..." (at most `max_entries` entries, weights in
// [0, max_weight], lanes below `lanes`); InputError naming the parameter otherwise.
struct TableEntry {
  std::uint32_t lane, weight;
};
std::vector<TableEntry> parse_table(const std::string& text, const std::string& what, std::uint32_t lanes,
                                    std::uint32_t max_entries, std::uint32_t max_weight);
// The same table from a file: one entry "SL WEIGHT" per line in table order, '#' to the end of a line
// a comment, blank lines skipped (`interflow qos-config --out` writes such files). InputError
// "<what> '<path>': ..." when it cannot be read or holds no entry, "path:line: ..." for a bad line.
std::vector<TableEntry> read_table_file(const std::string& path, const std::string& what, std::uint32_t lanes,
                                        std::uint32_t max_entries, std::uint32_t max_weight);

}  // namespace interflow::packet
