// 'ib': the InfiniBand switch of Cano-Cano et al. 2024 §2.1 (their Hiperion IB model).
//   - One input and one output buffer per port, each shared dynamically by the VLs: every VL
//     reserves vl-min bytes and may hold up to vl-max bytes (shared_buffer.hpp); seed values
//     114,688 bytes per port buffer (§5.2).
//   - Pipeline: IB (a flit per cycle into the input buffer) -> RT (routing unit per input,
//     rt-delay) -> VA-SA (input arbiter: round robin over the VLs with a routed head; output
//     arbiter: round robin over the inputs; va-sa-delay) -> X (the packet crosses into the output
//     buffer, xbar-delay) -> OB (the output scheduler picks a VL with an OB-ready packet and credits
//     downstream; the VL is held until the tail has gone).
//   - SL2VL: the VL of SL i is entry i of `sl2vl` at every output port (Table 3 of the paper maps SL
//     i to VL i, the default). With a deadlock-avoidance scheme of C classes (tori), each SL's VL
//     stands for C consecutive VLs, one per class.
//   - The output scheduler is the engine's --scheduler (rr, priority, vlarb, dtable).
//   - The paper does not give the crossbar's internal speed. With speedup 1 an output buffer takes
//     in one packet at a time at the link's rate, so it only fills, and its scheduler only chooses,
//     when the link downstream lacks credits; with speedup s it takes s packets from different
//     inputs at once, so contention for the output itself is resolved by its scheduler.
// Up to 15 data VLs (VL15 is the subnet management VL, not modelled).
#include "core/error.hpp"
#include "engine/packet/switch_model.hpp"

namespace interflow::packet {

namespace {

ParamSpec sl2vl_param() {
  ParamSpec p = string_param("sl2vl", "", "VL of each SL, 'VL;VL;...' (entry i for SL i; default: SL i on VL i)");
  p.optional = true;
  return p;
}

std::unique_ptr<RouterConfig> make_ib(const ParamSet& p, const SwitchContext& c) {
  auto r = std::make_unique<RouterConfig>();
  r->vcs = static_cast<std::uint32_t>(p.get_int("vls"));
  r->input = buffer_shape(p, "input-buffer-bytes", "vl-min-bytes", "vl-max-bytes", c, r->vcs, "ib");
  r->output = buffer_shape(p, "output-buffer-bytes", "vl-min-bytes", "vl-max-bytes", c, r->vcs, "ib");
  r->routing_delay = static_cast<std::uint32_t>(p.get_int("rt-delay"));
  r->vc_delay = 0;
  r->switch_delay = static_cast<std::uint32_t>(p.get_int("va-sa-delay"));
  r->xbar_delay = static_cast<std::uint32_t>(p.get_int("xbar-delay"));
  r->credit_delay = static_cast<std::uint32_t>(p.get_int("credit-delay"));
  r->xbar_speedup = static_cast<std::uint32_t>(p.get_int("speedup"));
  if (!p.has("sl2vl")) {
    if (c.service_levels > r->vcs)
      p.fail("sl2vl", "the default maps SL i to VL i, but there are " + std::to_string(c.service_levels) +
                          " SLs and only " + std::to_string(r->vcs) + " VLs; give a table");
    for (std::uint32_t sl = 0; sl < c.service_levels; ++sl) r->sl2vl.push_back(sl);
  } else {
    r->sl2vl = parse_sl2vl(p.get_string("sl2vl"), "ib switch sl2vl", r->vcs);
  }
  return r;
}

}  // namespace

void register_ib_switch(SwitchRegistry& registry) {
  registry.add(
      {"ib",
       "InfiniBand switch: input and output buffers per port shared by the VLs (min/max per VL), SL2VL, pipeline "
       "IB-RT-VA/SA-X-OB, an output scheduler per port (Cano-Cano et al. 2024)",
       {int_param("vls", "8", "data virtual lanes per port (VL15, management, is not modelled)", 1, 15),
        int_param("input-buffer-bytes", "114688", "bytes of each input port's buffer, shared by its VLs", 1, 1ll << 32),
        int_param("output-buffer-bytes", "114688", "bytes of each output port's buffer, shared by its VLs", 1,
                  1ll << 32),
        int_param("vl-min-bytes", "2048", "bytes each VL reserves in a port buffer (at least one packet)", 0, 1ll << 32),
        int_param("vl-max-bytes", "0", "most bytes one VL may hold in a port buffer (0: the whole buffer)", 0,
                  1ll << 32),
        sl2vl_param(),
        int_param("rt-delay", "1", "cycles of the routing unit (RT)", 0, 1000),
        int_param("va-sa-delay", "1", "cycles of the two-stage VL and switch allocation (VA-SA)", 0, 1000),
        int_param("xbar-delay", "1", "cycles through the crossbar into the output buffer (X)", 1, 1000),
        int_param("credit-delay", "1", "cycles to process a freed credit before it travels back", 0, 1000),
        int_param("speedup", "1",
                  "crossbar speedup: packets an output buffer takes in at once, each at the link's rate (1: the "
                  "output buffer fills only when its link lacks credits)",
                  1, 16)},
       make_ib,
       "Cano-Cano et al. 2024 §2.1 (model), §3.1 (VL arbitration), §5.2 (buffer sizes). Byte sizes must be whole "
       "flits. The output scheduler is chosen with --scheduler.",
       "ib:vls=4,input-buffer-bytes=4096,output-buffer-bytes=4096,vl-min-bytes=512"});
}

}  // namespace interflow::packet
