// 'opa': the hierarchical Omni-Path switch of OpaSim (Cano et al. 2018 §2.1-2.3) as used by
// Cano-Cano et al. 2024 §2.2 and §3.2 (manual/packet.md "The opa switch").
//   - Ports in MPorts of 4. An MPort crossbar (4:6) joins its 4 input buffers to its 4 output
//     buffers and, over 2 links of 3 flits/cycle, to its central buffer; the buffered central
//     crossbar (for 48 ports, 24:48) moves packets from the central buffers to the output buffers at
//     4 flits/cycle (engine/packet/packet_central.cpp). A packet for a port of its own MPort never
//     crosses the central crossbar; any other packet always does, and is allocated again there.
//   - Input, output and central buffers shared dynamically by the VLs, each VL with a reserved
//     minimum and a maximum (shared_buffer.hpp). Central buffer: 229,376 bytes per MPort (Cano-Cano
//     et al. 2024 §5.2). Input and output buffers: OpaSim's defaults (§2.3) at 8-byte flits and
//     4-flit credits read as 256 flits per VL (2,048 bytes x 8 VLs), 16 credits (512 bytes)
//     reserved and 48 credits (1,536 bytes) at most per VL -- the only reading in which 8 VLs'
//     16 reserved 4-flit credits fit the port.
//   - Stage latencies of OpaSim Table 1, in cycles: SB 50 (into the input buffer) + RT 32 + AT 16,
//     X 2 (MPort crossbar); through the centre AT 16 again + X 2 (central crossbar); SB 50 (into the
//     output buffer, OB-ready after it); FLY is the link's latency. Interflow follows the report's
//     own path formula (§2.2): a head crossing the centre takes SB+RT+AT+X+AT+X+SB = 168 cycles in
//     the router, 176 with FLY = 8; its own MPort, SB+RT+AT+X+SB = 150, 158 with FLY. The report's
//     "160 cycles" is the table's rows summed once, which counts neither path.
//   - Service channels: SL2SC, SC2VL and SC2SL tables (the same in every switch and NIC); up to 32
//     SLs, SCs and VLs, SC 15 reserved. The SC changes when the packet is routed onto a channel of
//     another deadlock class (the SL's next SC), never its SL. The output schedulers choose among
//     SLs (Cano-Cano et al. 2024 §3.2 and §4.2: DTable's entries are SLs); the default scheduler,
//     rr, is OpaSim's round-robin OB.
#include <algorithm>

#include "core/error.hpp"
#include "engine/packet/switch_model.hpp"

namespace interflow::packet {

namespace {

constexpr std::uint32_t kMaxChannels = 32;  // SLs, SCs and VLs

// A table parameter "N;N;...", entries below `bound`.
std::vector<std::uint32_t> table(const ParamSet& p, const char* name, std::uint32_t bound, const char* entry) {
  return parse_table(p.get_string(name), std::string("opa switch ") + name, bound, entry, kMaxChannels);
}

// Default tables: the SCs other than 15 in order, vls / SLs consecutive ones per SL (one per
// deadlock class), SC j's VL its place in that order.
void default_tables(RouterConfig& r, std::uint32_t sls, const ParamSet& p) {
  const std::uint32_t usable = std::min(r.vcs, kMaxChannels - 1);
  if (sls > usable)
    p.fail("sl2sc", "the default gives each SL its own VL, but there are " + std::to_string(sls) + " SLs and " +
                        std::to_string(usable) + " VLs; give sl2sc, sc2vl and sc2sl");
  const std::uint32_t per_sl = usable / sls;
  for (std::uint32_t j = 0; j < sls * per_sl; ++j) {
    const std::uint32_t sc = j < RouterConfig::kReservedSc ? j : j + 1;
    if (r.sc2vl.size() <= sc) {
      r.sc2vl.resize(sc + 1, 0);
      r.sc2sl.resize(sc + 1, kNone);
    }
    r.sc2vl[sc] = j;
    r.sc2sl[sc] = j / per_sl;
    if (j % per_sl == 0) r.sl2sc.push_back(sc);
  }
}

void given_tables(RouterConfig& r, std::uint32_t sls, const ParamSet& p) {
  if (!p.has("sl2sc") || !p.has("sc2vl") || !p.has("sc2sl"))
    p.fail(p.has("sl2sc") ? (p.has("sc2vl") ? "sc2sl" : "sc2vl") : "sl2sc",
           "give all three tables (sl2sc, sc2vl, sc2sl) or none");
  r.sl2sc = table(p, "sl2sc", kMaxChannels, "an SC");
  r.sc2vl = table(p, "sc2vl", r.vcs, "a VL of this switch");
  r.sc2sl = table(p, "sc2sl", kMaxChannels, "an SL");
  if (r.sl2sc.size() < sls)
    p.fail("sl2sc", "maps " + std::to_string(r.sl2sc.size()) + " SLs; the traffic uses " + std::to_string(sls));
  for (std::uint32_t sl = 0; sl < r.sl2sc.size(); ++sl) {
    const std::uint32_t sc = r.sl2sc[sl];
    if (sc == RouterConfig::kReservedSc) p.fail("sl2sc", "SL " + std::to_string(sl) + " on SC 15, which is reserved");
    if (sc >= r.sc2sl.size() || sc >= r.sc2vl.size())
      p.fail("sl2sc", "SL " + std::to_string(sl) + " on SC " + std::to_string(sc) +
                          ", which sc2vl or sc2sl does not map");
    if (r.sc2sl[sc] != sl)
      p.fail("sc2sl", "SL2SC maps SL " + std::to_string(sl) + " to SC " + std::to_string(sc) + " but SC2SL maps SC " +
                          std::to_string(sc) + " to SL " + std::to_string(r.sc2sl[sc]) + " (an SL never changes)");
  }
}

std::unique_ptr<RouterConfig> make_opa(const ParamSet& p, const SwitchContext& c) {
  auto r = std::make_unique<RouterConfig>();
  const auto whole = [&](const char* name) { return static_cast<std::uint32_t>(p.get_int(name)); };
  r->vcs = whole("vls");
  r->input = buffer_shape(p, "input-buffer-bytes", "vl-min-bytes", "vl-max-bytes", c, r->vcs, "opa");
  r->output = buffer_shape(p, "output-buffer-bytes", "vl-min-bytes", "vl-max-bytes", c, r->vcs, "opa");
  r->central.buffer =
      buffer_shape(p, "central-buffer-bytes", "central-vl-min-bytes", "central-vl-max-bytes", c, r->vcs, "opa");
  r->central.mport_ports = whole("mport-ports");
  r->central.links = whole("central-links");
  r->central.link_flits = whole("central-link-flits");
  r->central.out_flits = whole("central-out-flits");
  r->central.alloc_delay = whole("at-delay");
  r->central.xbar_delay = whole("central-xbar-delay");
  r->routing_delay = whole("sb-in-delay") + whole("rt-delay");
  r->vc_delay = 0;
  r->switch_delay = whole("at-delay");
  r->xbar_delay = whole("mport-xbar-delay");
  r->output_delay = whole("sb-out-delay");
  r->credit_delay = whole("credit-delay");
  if (p.has("sl2sc") || p.has("sc2vl") || p.has("sc2sl"))
    given_tables(*r, c.service_levels, p);
  else
    default_tables(*r, c.service_levels, p);
  return r;
}

ParamSpec table_param(const char* name, const char* meaning) {
  ParamSpec p = string_param(name, "", meaning);
  p.optional = true;
  return p;
}

}  // namespace

void register_opa_switch(SwitchRegistry& registry) {
  registry.add(
      {"opa",
       "Omni-Path switch (OpaSim): MPorts of 4 ports, MPort crossbars 4:6, a buffered central crossbar with a "
       "central buffer per MPort; input, output and central buffers shared by the VLs (min/max); SL2SC, SC2VL, "
       "SC2SL; Table 1 stage latencies (Cano et al. 2018; Cano-Cano et al. 2024)",
       {int_param("vls", "8", "data virtual lanes per port (OpaSim NUMBER_OF_VC)", 1, 32),
        int_param("input-buffer-bytes", "16384",
                  "bytes of each input port's buffer, shared by its VLs (OpaSim: 256 flits of 8 bytes per VL)", 1,
                  1ll << 32),
        int_param("output-buffer-bytes", "16384", "bytes of each output port's buffer, shared by its VLs", 1,
                  1ll << 32),
        int_param("vl-min-bytes", "512",
                  "bytes each VL reserves in an input or output buffer (OpaSim: 16 exclusive credits of 4 flits)", 0,
                  1ll << 32),
        int_param("vl-max-bytes", "1536",
                  "most bytes one VL may hold in an input or output buffer (OpaSim: 48 credits; 0: the whole buffer)",
                  0, 1ll << 32),
        int_param("central-buffer-bytes", "229376", "bytes of each MPort's central buffer, shared by its VLs", 1,
                  1ll << 32),
        int_param("central-vl-min-bytes", "512", "bytes each VL reserves in a central buffer", 0, 1ll << 32),
        int_param("central-vl-max-bytes", "0", "most bytes one VL may hold in a central buffer (0: all of it)", 0,
                  1ll << 32),
        int_param("mport-ports", "4", "ports per MPort", 1, 1024),
        int_param("central-links", "2", "links from each MPort crossbar into the central crossbar", 1, 64),
        int_param("central-link-flits", "3", "flits per cycle on each of those links (x3)", 1, 64),
        int_param("central-out-flits", "4", "flits per cycle from a central buffer into an output buffer", 1, 64),
        int_param("sb-in-delay", "50", "cycles storing into the input buffer (SB, with deserialization)", 0, 10000),
        int_param("rt-delay", "32", "cycles of the routing unit (RT)", 0, 10000),
        int_param("at-delay", "16", "cycles of each allocation (AT): at the input, and again at the central buffer",
                  0, 10000),
        int_param("mport-xbar-delay", "2", "cycles through the MPort crossbar (X)", 1, 10000),
        int_param("central-xbar-delay", "2", "cycles through the central crossbar (X)", 1, 10000),
        int_param("sb-out-delay", "50",
                  "cycles storing into the output buffer (SB, with serialization) before the packet is OB-ready", 0,
                  10000),
        int_param("credit-delay", "1", "cycles to process a freed credit before it travels back", 0, 10000),
        table_param("sl2sc", "SC of each SL, 'SC;SC;...' (default: each SL its own SCs in order, SC 15 skipped)"),
        table_param("sc2vl", "VL of each SC, 'VL;VL;...' (SC 15's entry is never used)"),
        table_param("sc2sl", "SL of each SC, 'SL;SL;...': an SL's SCs are those mapped back to it")},
       make_opa,
       "Cano et al. 2018 (OpaSim) §2.1 (model), Table 1 (stage latencies), §2.3 (defaults); Cano-Cano et al. 2024 "
       "§2.2, §3.2 (SC tables), §5.2 (central buffer). FLY is the link latency (--endpoint-latency-ns, "
       "--switch-latency-ns). Byte sizes must be whole flits. The output scheduler (default rr) is chosen with "
       "--scheduler and arbitrates among SLs.",
       "opa:vls=2,input-buffer-bytes=4096,output-buffer-bytes=4096,vl-min-bytes=512,vl-max-bytes=0"});
}

}  // namespace interflow::packet
