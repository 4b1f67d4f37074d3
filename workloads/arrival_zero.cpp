// Every flow starts at time 0 (a closed batch, as INRFlow's static-like dynamic runs; Navaridas et al.
// 2019, §3.1).
#include "workloads/arrival.hpp"

namespace interflow::workloads {

namespace {

class ZeroArrival : public ArrivalProcess {
 public:
  void assign(FlowWorkload& w, const ArrivalContext&) const override { w.start_s.assign(w.size(), 0.0); }
  std::string describe() const override { return "all starting at time 0"; }
};

}  // namespace

void register_zero_arrival(ArrivalRegistry& registry) {
  registry.add({"zero", "every flow starts at time 0", {},
                [](const ParamSet&) -> std::unique_ptr<ArrivalProcess> { return std::make_unique<ZeroArrival>(); },
                "The flows form one batch at time 0; their completion times measure how long the network takes "
                "to carry the whole pattern."});
}

}  // namespace interflow::workloads
