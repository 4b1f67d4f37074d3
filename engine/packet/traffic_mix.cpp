// Named service-level mixes: a whole run's traffic, one generator spec per SL.
//   cano-cano-2024  the seven SLs of Cano-Cano et al. 2024 Table 2 with the injection rates of their
//                   Table 4 (NC, VO, VI, CL fixed; EE, BE and BK at `be-load` each, which the paper
//                   sweeps from 0.0125 to 0.1525 flits/cycle/NIC) and the MTUs of Table 4.
#include "engine/packet/traffic.hpp"

namespace interflow::packet {

void register_traffic_mixes(TrafficMixRegistry& registry) {
  registry.add({"cano-cano-2024",
                "the seven SLs of Cano-Cano et al. 2024 (NC, VO, VI, CL, EE, BE, BK): patterns, sizes, loads, MTUs",
                {real_param("be-load", "0.0125", "offered load of each best-effort SL (EE, BE, BK), flits/cycle/NIC",
                            1e-6, 1)},
                [](const ParamSet& p) { return std::make_unique<TrafficMix>(TrafficMix{cano_cano_2024_mix(p.get_real("be-load"))}); },
                "Cano-Cano et al. 2024 §5.1 Table 2 (NC uniform 192 B; VO CBR 128 B; VI, CL CBR 2048 B; EE, BE, BK "
                "Bursts4 of 1024 B) and Table 4 (injection: NC 0.01, VO 0.016, VI 0.23, CL 0.28; MTUs 192, 128, "
                "2048, 2048, 1024 B). The paper's NC payload is 192 B and its best-effort packet payload 1028 B "
                "(§5.1); we use 1024 B, its message size in Table 2.",
                "cano-cano-2024:be-load=0.05"});
}

}  // namespace interflow::packet
