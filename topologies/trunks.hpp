#pragma once
// Trunks: T parallel cables between every two adjacent switches, used independently (a packet takes
// one of them), as the 8x8 torus with 10x trunks and the 8x8x8 torus with 4x trunks of Cano-Cano et
// al. 2024, section 5.2. A family offers them with the `trunks` parameter (trunks_param(), read by
// with_trunks()); today torus, mesh, fattree, thintree and dragonfly.
//
// A trunked topology keeps the family's own topology built with single cables, its *base*, and builds
// its network from the base's: the same vertices and endpoints, every endpoint cable once, every
// switch-to-switch cable T times. A vertex's out-links keep the base's port order with each
// switch-to-switch link widened into its T cables, consecutive: base link l becomes the links
// first_cable(l) .. first_cable(l) + width(l) - 1, cable j of a trunk pairing with cable j of its
// reverse. Routings compute on the base (their family's link arithmetic unchanged) and
// routing/trunk_routing.hpp spreads each path over the cables of its trunks.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/params.hpp"
#include "core/topology.hpp"

namespace interflow::topo {

inline constexpr std::int64_t kMaxTrunks = 64;

class TrunkedTopology : public Topology {
 public:
  TrunkedTopology(std::unique_ptr<Topology> base, std::uint32_t trunks);

  // The family's topology with one cable per trunk: what routings are built for and compute on.
  const Topology& base() const { return *base_; }
  std::uint32_t trunks() const { return trunks_; }
  // The first cable of the trunk of base link l, and how many cables it has (T between switches, 1 for
  // a cable with an endpoint at one end).
  LinkId first_cable(LinkId base_link) const { return first_[base_link]; }
  std::uint32_t width(LinkId base_link) const {
    return base_->network().link_class(base_link) == LinkClass::Network ? trunks_ : 1;
  }

  std::vector<std::uint32_t> endpoint_grid() const override { return base_->endpoint_grid(); }
  std::vector<TopologyFact> facts() const override { return base_->facts_with_trunks(trunks_); }
  bool endpoints_symmetric() const override { return base_->endpoints_symmetric(); }
  BlockGrid block_grid() const override { return base_->block_grid(); }
  std::string default_routing() const override { return base_->default_routing(); }

 private:
  std::unique_ptr<Topology> base_;
  std::uint32_t trunks_;
  std::vector<LinkId> first_;  // per base link
};

// The `trunks` parameter of the families that offer it (default 1, at most kMaxTrunks).
ParamSpec trunks_param();

// What the families' details say of trunks (the port layout and the routing rule), one sentence.
std::string trunks_details();

// The topology with the `trunks` of `params`: `base` itself for 1 (the network is exactly the family's),
// else a TrunkedTopology around it.
std::unique_ptr<Topology> with_trunks(std::unique_ptr<Topology> base, const ParamSet& params);

}  // namespace interflow::topo
