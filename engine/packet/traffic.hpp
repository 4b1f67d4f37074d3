#pragma once
// Per-service-level traffic generators of the packet engine (manual/packet.md "Traffic"). Every SL
// of a run has one generator from the "traffic" registry (one file each, traffic_*.cpp):
//   messages  independent messages, Bernoulli or constant-interval, each to a destination drawn by
//             the run's destination rule;
//   cbr       constant-bit-rate connections: each NIC opens `connections` connections at the start,
//             to destinations drawn by the rule, kept to the end, and sends on them in turn at a
//             constant interval (Cano-Cano et al. 2024 §5.1, SLs VO, VI, CL);
//   bursts    bursts of `size` messages generated together to one destination (Bursts4 of
//             Cano-Cano et al. 2024 §5.1, SLs EE, BE, BK), bursts Bernoulli.
// The offered load is in flits per cycle per NIC on that SL; messages are cut into packets of at
// most the SL's MTU (the SL_MTU table of Cano-Cano et al. 2024 §4.3).
//
// The destination rule is `uniform` (a fresh destination among the other endpoints for every draw)
// or a static pattern of the flow engines: a source draws uniformly among its pattern destinations
// (one for a permutation, several for hot spot or all-to-all), so any static pattern is a rule.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/random.hpp"
#include "core/registry.hpp"
#include "engine/packet/fabric.hpp"

namespace interflow::packet {

// Where a source's messages go: uniform, or one of its destinations (CSR per source).
class DestinationRule {
 public:
  static DestinationRule uniform(std::uint32_t endpoints) { return DestinationRule(endpoints, {}, {}); }
  // From (src, dst) pairs; self pairs are dropped. A source without pairs stays silent.
  static DestinationRule pairs(std::uint32_t endpoints, const std::vector<EndpointId>& src,
                               const std::vector<EndpointId>& dst);
  bool silent(EndpointId s) const { return !offset_.empty() && offset_[s] == offset_[s + 1]; }
  EndpointId draw(EndpointId s, Rng& rng) const;
  std::uint32_t endpoints() const { return n_; }

 private:
  DestinationRule(std::uint32_t n, std::vector<std::uint32_t> offset, std::vector<EndpointId> list)
      : n_(n), offset_(std::move(offset)), list_(std::move(list)) {}
  std::uint32_t n_;
  std::vector<std::uint32_t> offset_;  // empty: uniform
  std::vector<EndpointId> list_;
};

// What a generator emits at once: `count` messages to `dst`, of `bytes` each (0: the SL's size).
struct Emission {
  Cycle time = 0;
  EndpointId dst = 0;
  std::uint32_t count = 1;
  std::uint64_t bytes = 0;
};

struct SlSettings {
  std::string name;          // a label (NC, VO, ...); "SL<i>" when empty
  double load = 0.1;         // offered flits per cycle per NIC
  std::uint64_t bytes = 64;  // message size
  std::uint32_t mtu = 0;     // largest packet in bytes (0: one flit)
};

struct TrafficContext {
  std::uint32_t flit_bytes = 64;
  const DestinationRule* rule = nullptr;
};

class SlGenerator {
 public:
  virtual ~SlGenerator() = default;
  // Prepares NIC e's stream (e.g. opens its connections); false when e sends nothing.
  virtual bool start(EndpointId e, Rng& rng) = 0;
  // NIC e's next emission after its previous one at `previous` (or 0 at the start, `first`).
  virtual Emission next(EndpointId e, Cycle previous, bool first, Rng& rng) = 0;
  const SlSettings& settings() const { return settings_; }

 protected:
  explicit SlGenerator(SlSettings s) : settings_(std::move(s)) {}
  SlSettings settings_;
};

using TrafficRegistry = Registry<SlGenerator, const TrafficContext&>;
void register_traffic(TrafficRegistry& registry);
void register_messages_traffic(TrafficRegistry& registry);
void register_cbr_traffic(TrafficRegistry& registry);
void register_bursts_traffic(TrafficRegistry& registry);

// The parameters every generator declares (name, load, bytes, mtu), and their values.
std::vector<ParamSpec> sl_params(std::vector<ParamSpec> own);
SlSettings read_sl_settings(const ParamSet& p);
// Cycles to the next success of a Bernoulli trial of probability p per cycle (geometric, >= 1).
Cycle geometric_gap(double p, Rng& rng);
// Messages of `bytes` per cycle at `load` flits per cycle; InputError unless in (0, 1].
double message_rate(const SlSettings& s, std::uint32_t flit_bytes, std::uint32_t per_emission);
// The same for emissions of `flits` flits on average.
double emission_rate(const SlSettings& s, double flits);

// A named mix: one generator spec per SL, in SL order (traffic_mix.cpp).
struct TrafficMix {
  std::vector<std::string> sls;
};
using TrafficMixRegistry = Registry<TrafficMix>;
void register_traffic_mixes(TrafficMixRegistry& registry);

// The seed-000 service-level mix (Cano-Cano et al. 2024 Table 2 and Table 4's injection column):
// NC uniform 192 B at 0.01, VO CBR 128 B at 0.016, VI and CL CBR 2048 B at 0.23 and 0.28, EE, BE, BK
// Bursts4 of 1024 B at `best_effort_load` each (the paper sweeps 0.0125 to 0.1525); MTUs as its
// Table 4. Returns one generator spec per SL, in SL order.
std::vector<std::string> cano_cano_2024_mix(double best_effort_load);

}  // namespace interflow::packet
