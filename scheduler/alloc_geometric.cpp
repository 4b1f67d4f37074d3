// geometric: clusters of consecutive free nodes with geometrically distributed sizes (Mubarak et al. 2019, §IV-D).
#include <algorithm>
#include <cmath>

#include "scheduler/allocation.hpp"

namespace interflow::scheduler {

namespace {

class Geometric : public AllocationPolicy {
 public:
  explicit Geometric(double mean) : p_(1.0 / mean) {}
  void choose(const FreeNodes& s, std::uint32_t k, std::vector<std::uint32_t>& out) override {
    const auto n = static_cast<std::uint32_t>(s.free.size());
    std::vector<std::uint8_t> taken(n, 0);
    std::uint32_t left = s.count;
    const std::size_t first = out.size();
    while (out.size() - first < k) {
      // Inverse transform sampling of a geometric size on {1, 2, ...}: ceil(ln(1 - u) / ln(1 - p)).
      std::uint32_t size = 1;
      if (p_ < 1)
        size =
            static_cast<std::uint32_t>(std::max(1.0, std::ceil(std::log(1.0 - s.rng.uniform()) / std::log(1.0 - p_))));
      // A random free node not yet taken by this job starts the cluster.
      auto pick = static_cast<std::uint32_t>(s.rng.below(left));
      std::uint32_t v = 0;
      for (;; ++v)
        if (s.free[v] && !taken[v] && pick-- == 0) break;
      // Consecutive free nodes from there, cut at the first busy one.
      for (; v < n && s.free[v] && !taken[v] && size > 0 && out.size() - first < k; ++v, --size) {
        taken[v] = 1;
        --left;
        out.push_back(v);
      }
    }
  }

 private:
  double p_;
};

}  // namespace

void register_geometric_allocation(AllocationRegistry& registry) {
  registry.add({"geometric",
                "clusters of consecutive free nodes with geometric sizes (Mubarak et al. 2019, §IV-D)",
                {real_param("mean", "8", "mean cluster size in nodes", 1)},
                [](const ParamSet& p, const AllocationContext&) -> std::unique_ptr<AllocationPolicy> {
                  return std::make_unique<Geometric>(p.get_real("mean"));
                },
                "The geometric job placement of Mubarak et al. 2019, §IV-D: cluster sizes are drawn from a "
                "geometric distribution of mean `mean` by inverse transform sampling; each cluster starts at a "
                "random free node and takes the consecutive free nodes from there, cut at the first busy one, "
                "until the job has its nodes."});
}

}  // namespace interflow::scheduler
