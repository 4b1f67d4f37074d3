#pragma once
// Switch models of the packet engine (manual/packet.md "Switch models"): each registration turns a
// model's parameters into the RouterConfig the engine runs. One file each (switch_*.cpp):
//   vct  a generic input-queued virtual cut-through router: V virtual channels of B flits each,
//        separable input-first allocation with round-robin arbiters, configurable pipeline
//        (Dally and Towles 2004, ch. 16-19; the OpaSim/IB pipeline of Cano-Cano et al. 2024 §2.1
//        without its output buffers);
//   ib   the InfiniBand switch of Cano-Cano et al. 2024 §2.1: one input and one output buffer per
//        port, each shared dynamically by the VLs with a reserved minimum and a maximum per VL;
//        pipeline IB -> RT -> VA-SA -> X -> OB; an SL2VL table; an output scheduler per output
//        port choosing among the VLs (IBA 1.4 §7.6.9 VL arbitration, or any output-scheduler);
//   opa  the hierarchical Omni-Path switch of OpaSim (Cano et al. 2018; Cano-Cano et al. 2024
//        §2.2): MPorts of 4 ports, a central buffer per MPort behind a buffered central crossbar,
//        SL2SC/SC2VL/SC2SL tables, OpaSim's Table 1 stage latencies.
#include <cstdint>

#include "core/registry.hpp"
#include "engine/packet/packet_sim.hpp"

namespace interflow::packet {

struct SwitchContext {
  std::uint32_t flit_bytes = 64;      // to turn byte sizes into flits (credits)
  std::uint32_t service_levels = 1;   // the SLs the traffic uses (ib's default SL2VL maps SL i to VL i)
};

using SwitchRegistry = Registry<RouterConfig, const SwitchContext&>;
void register_switches(SwitchRegistry& registry);
void register_vct_switch(SwitchRegistry& registry);
void register_ib_switch(SwitchRegistry& registry);
void register_opa_switch(SwitchRegistry& registry);

// A port buffer from its size, per-lane minimum and maximum parameters (bytes; a maximum of 0: the
// whole buffer), checked for `vls` lanes; errors name `model` and the size parameter.
BufferShape buffer_shape(const ParamSet& p, const char* size, const char* min, const char* max, const SwitchContext& c,
                         std::uint32_t vls, const std::string& model);

// A mapping table "N;N;..." of at most `max_entries` entries, each below `bound` (`entry` names
// what one is, for the error); InputError naming `what` otherwise.
std::vector<std::uint32_t> parse_table(const std::string& text, const std::string& what, std::uint32_t bound,
                                       const std::string& entry, std::size_t max_entries);
// An SL2VL table "VL;VL;..." (entry i: the VL of SL i), each below `vls`; InputError naming
// `what` otherwise.
std::vector<std::uint32_t> parse_sl2vl(const std::string& text, const std::string& what, std::uint32_t vls);

}  // namespace interflow::packet
