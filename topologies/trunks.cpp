#include "topologies/trunks.hpp"

#include <string>

#include "core/error.hpp"

namespace interflow::topo {

TrunkedTopology::TrunkedTopology(std::unique_ptr<Topology> base, std::uint32_t trunks)
    : Topology(base->family()), base_(std::move(base)), trunks_(trunks) {
  const Network& from = base_->network();
  // Each base link's port in the trunked network: the base's out-links in order, each as wide as its trunk.
  first_.resize(from.num_links());
  std::uint64_t cables = 0;
  for (VertexId v = 0; v < from.num_vertices(); ++v) {
    std::uint32_t port = 0;
    for (LinkId l = from.out_begin(v); l < from.out_end(v); ++l) {
      first_[l] = port;
      port += width(l);
      if (l < from.reverse(l)) cables += width(l);
    }
  }
  check_network_size(family() + " with trunks=" + std::to_string(trunks_), from.num_vertices(),
                     std::to_string(from.num_switches()) + " switches", cables);
  NetworkBuilder builder;
  builder.reserve(from.num_vertices(), cables);
  builder.add_vertices_of(from);
  for (LinkId l = 0; l < from.num_links(); ++l) {
    const LinkId back = from.reverse(l);
    if (back < l) continue;  // each cable once, from its lower link
    for (std::uint32_t j = 0; j < width(l); ++j)
      builder.add_cable(from.source(l), from.target(l), from.capacity_gbps(l), from.latency_ns(l), first_[l] + j,
                        first_[back] + j);
  }
  net_ = builder.build();
  for (LinkId l = 0; l < from.num_links(); ++l) first_[l] += net_.out_begin(from.source(l));
}

ParamSpec trunks_param() {
  return int_param("trunks", "1",
                   "parallel cables between each pair of adjacent switches (a trunk), used independently: a packet "
                   "takes one of them, and routings spread every path evenly over them",
                   1, static_cast<double>(kMaxTrunks));
}

std::string trunks_details() {
  return " trunks = T makes every switch-to-switch cable T parallel cables, each a link of its own: a vertex's "
         "out-links are its trunks = 1 ports in order, each widened into its trunk's T cables (consecutive). Every "
         "routing spreads each path over a trunk's cables, 1/T of it on each (manual/topologies.md, Trunks).";
}

std::unique_ptr<Topology> with_trunks(std::unique_ptr<Topology> base, const ParamSet& params) {
  const auto trunks = static_cast<std::uint32_t>(params.get_int("trunks"));
  if (trunks == 1) return base;
  return std::make_unique<TrunkedTopology>(std::move(base), trunks);
}

}  // namespace interflow::topo
