// Poisson arrivals at an offered load: flows start in a random order drawn from the seed, with
// exponential gaps whose rate makes the offered bits per second `load` x the endpoints' total
// injection capacity: an open-loop load for the sized flows of Navaridas et al. 2019, §3.1, which
// gives no arrival process of its own (manual/dynamic.md "Flows from a pattern").
#include <cmath>
#include <numeric>

#include "core/format.hpp"
#include "core/random.hpp"
#include "workloads/arrival.hpp"

namespace interflow::workloads {

namespace {

class PoissonArrival : public ArrivalProcess {
 public:
  explicit PoissonArrival(double load) : load_(load) {}

  void assign(FlowWorkload& w, const ArrivalContext& ctx) const override {
    const std::size_t n = w.size();
    double bits = 0;
    for (double b : w.bytes) bits += 8 * b;
    const double capacity_bps = static_cast<double>(ctx.endpoints) * ctx.endpoint_gbps * 1e9;
    // Flows per second: the offered load over the mean flow size (flows of 0 bytes: one per ns).
    const double per_second = bits > 0 ? load_ * capacity_bps / (bits / static_cast<double>(n)) : 1e9;
    Rng rng(derive_seed(ctx.seed, Stream::Pattern, 1));
    std::vector<std::uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    for (std::size_t i = n; i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
    w.start_s.resize(n);
    double t = 0;
    for (std::uint32_t f : order) {
      t += -std::log(1.0 - rng.uniform()) / per_second;
      w.start_s[f] = t;
    }
  }
  std::string describe() const override {
    return "Poisson arrivals at " + number_text(load_) + " of injection capacity";
  }

 private:
  double load_;
};

}  // namespace

void register_poisson_arrival(ArrivalRegistry& registry) {
  registry.add(
      {"poisson",
       "flows start one by one, in a random order, with exponential gaps at an offered load",
       {real_param("load", "0.1", "offered load: a fraction of the endpoints' total injection capacity", 1e-9, 1e6)},
       [](const ParamSet& p) -> std::unique_ptr<ArrivalProcess> {
         return std::make_unique<PoissonArrival>(p.get_real("load"));
       },
       "The order of the flows is a random permutation drawn from the run seed; the gaps are exponential with "
       "mean (mean flow size in bits) / (load x endpoints x endpoint capacity). An open-loop load for the sized flows of Navaridas et al. 2019, §3.1."});
}

}  // namespace interflow::workloads
