// 'vct': the generic input-queued virtual cut-through router (Dally and Towles 2004, ch. 16-19).
// V virtual channels of B flits per input port, statically split (each VC owns its B flits); a
// separable input-first allocator with round-robin arbiters, or iSLIP (McKeown 1999) as an option;
// pipeline delays for route computation,
// VC allocation, switch allocation and the crossbar, and the credit's processing delay. Outputs
// arbitrate among the inputs round robin; it has no output buffers, so no output scheduler.
#include "engine/packet/switch_model.hpp"

namespace interflow::packet {

namespace {

std::uint32_t whole(const ParamSet& p, const char* name) { return static_cast<std::uint32_t>(p.get_int(name)); }

std::unique_ptr<RouterConfig> make_vct(const ParamSet& p, const SwitchContext&) {
  auto r = std::make_unique<RouterConfig>();
  r->vcs = whole(p, "vcs");
  r->input = BufferShape::split(r->vcs, whole(p, "buffer-flits"));
  r->routing_delay = whole(p, "routing-delay");
  r->vc_delay = whole(p, "vc-delay");
  r->switch_delay = whole(p, "switch-delay");
  r->xbar_delay = whole(p, "xbar-delay");
  r->credit_delay = whole(p, "credit-delay");
  r->islip_iterations = p.get_string("allocator") == "islip" ? whole(p, "iterations") : 0;
  return r;
}

}  // namespace

void register_vct_switch(SwitchRegistry& registry) {
  registry.add({"vct",
                "generic input-queued virtual cut-through router: V VCs of B flits, separable input-first round-robin "
                "allocation, pipeline delays",
                {int_param("vcs", "4", "virtual channels per port", 1, 64),
                 int_param("buffer-flits", "8", "flits of input buffer per virtual channel (at least one packet)", 1,
                           1 << 24),
                 int_param("routing-delay", "1", "cycles of route computation", 0, 1000),
                 int_param("vc-delay", "1", "cycles of virtual-channel allocation", 0, 1000),
                 int_param("switch-delay", "1", "cycles of switch allocation", 0, 1000),
                 int_param("xbar-delay", "1", "cycles of crossbar traversal, from grant to the output channel", 1,
                           1000),
                 int_param("credit-delay", "1", "cycles to process a freed credit before it travels back", 0, 1000),
                 choice_param("allocator", "separable", {"separable", "islip"},
                              "switch allocation: separable input-first with round-robin arbiters, or iSLIP "
                              "(McKeown 1999: requests for every ready head, grant, accept, pointers moved on "
                              "first-round acceptance)"),
                 int_param("iterations", "1", "iSLIP rounds per cycle", 1, 16)},
                make_vct,
                "Dally and Towles 2004 (ch. 16-19). A packet is allocated routing-delay + vc-delay + switch-delay "
                "cycles after its head arrived and enters its output channel xbar-delay cycles after the grant.",
                "vct:vcs=2,buffer-flits=4"});
}

}  // namespace interflow::packet
