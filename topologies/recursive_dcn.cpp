#include "topologies/recursive_dcn.hpp"

#include <string>

#include "core/error.hpp"
#include "topologies/registry.hpp"

namespace interflow::topo {

std::string to_string(DcnRule rule) {
  switch (rule) {
    case DcnRule::DCellAlpha:
      return "alpha";
    case DcnRule::DCellBeta:
      return "beta";
    case DcnRule::FiConn:
      return "ficonn";
  }
  return "?";
}

namespace {

DCellRule dcell_rule(DcnRule rule) { return rule == DcnRule::DCellBeta ? DCellRule::Beta : DCellRule::Alpha; }

}  // namespace

RecursiveDcnTopology::RecursiveDcnTopology(std::string family, DcnRule rule, std::uint32_t n, std::uint32_t k,
                                           const LinkDefaults& defaults)
    : Topology(std::move(family)), rule_(rule), n_(n), k_(k) {
  std::string what = this->family() + " n=" + std::to_string(n) + ", k=" + std::to_string(k);
  if (this->family() == "gdcficonn") what += ", rule=" + to_string(rule);
  if (n < 2) throw InputError(what + ": n (servers per level-0 switch) must be at least 2");
  if (!is_dcell() && n % 2 != 0) throw InputError(what + ": FiConn needs an even n (ports per switch)");
  if (k > kMaxLevel) throw InputError(what + ": k (level) must be at most " + std::to_string(kMaxLevel));
  t_.assign(k + 1, n);
  g_.assign(k + 1, 1);
  for (std::uint32_t l = 1; l <= k; ++l) {
    const std::uint64_t prev = t_[l - 1];
    std::uint64_t copies = prev + 1;  // DCell: g_l = t_(l-1) + 1 (Guo et al. 2008, Sec. 3)
    if (!is_dcell()) {
      // FiConn: g_l = b_(l-1)/2 + 1 = t_(l-1)/2^l + 1 needs an even number of free backup ports.
      if (prev % (1ULL << l) != 0)
        throw InputError(what + ": t_" + std::to_string(l - 1) + " = " + std::to_string(prev) +
                         " servers is not divisible by 2^" + std::to_string(l) + ", so the level-" +
                         std::to_string(l - 1) + " FiConn has no even number of free backup ports");
      copies = (prev >> l) + 1;
    }
    const std::uint64_t servers = prev * copies;  // both factors < 2^32: no overflow
    if (servers > kMaxNetworkVertices)
      throw InputError(what + ": t_" + std::to_string(l) + " = " + std::to_string(servers) +
                       " servers is more than 2^31, the largest network supported");
    t_[l] = static_cast<std::uint32_t>(servers);
    g_[l] = static_cast<std::uint32_t>(copies);
  }
  const std::uint64_t servers = t_[k];
  const std::uint64_t switches = servers / n;
  // DCell: every server has k level links; FiConn: all but the b_k = t_k / 2^k free backup ports.
  const std::uint64_t level_ends = is_dcell() ? servers * k : servers - (servers >> k);
  const std::uint64_t cables = servers + level_ends / 2;
  check_network_size(what, servers + switches, "servers plus switches", cables);

  NetworkBuilder b(defaults);
  b.set_endpoints_forward(true);
  b.reserve(servers + switches, cables);
  for (std::uint64_t u = 0; u < servers; ++u) b.add_endpoint_vertex();
  b.add_switches(static_cast<std::uint32_t>(switches));
  for (EndpointId u = 0; u < servers; ++u) {
    b.add_cable(u, switch_of(u), -1, -1, 0, u % n_);
    for (std::uint32_t l = 1; l <= k_; ++l) {
      if (!has_level_link(u, l)) continue;
      const EndpointId peer = level_peer(u, l);
      const auto port = static_cast<int>(level_port(l));
      if (u < peer) b.add_cable(u, peer, -1, -1, port, port);
    }
  }
  net_ = b.build();
}

std::uint32_t RecursiveDcnTopology::gateway_inner(std::uint32_t from, std::uint32_t to, std::uint32_t level) const {
  if (is_dcell()) return dcell_rule_gateway(dcell_rule(rule_), t_[level - 1], from, to);
  const std::uint32_t slot = to < from ? to : to - 1;
  return (slot << level) + (1U << (level - 1)) - 1;
}

std::uint32_t RecursiveDcnTopology::link_target_copy(std::uint32_t from, std::uint32_t inner,
                                                     std::uint32_t level) const {
  if (is_dcell()) return dcell_rule_target(dcell_rule(rule_), t_[level - 1], from, inner);
  const std::uint32_t slot = inner >> level;
  return slot < from ? slot : slot + 1;
}

std::vector<TopologyFact> RecursiveDcnTopology::facts() const {
  std::vector<TopologyFact> out;
  const std::string routing = is_dcell() ? "DCellRouting" : "TOR";
  out.push_back({"diameter_bound_server_hops", static_cast<double>((1ULL << (k_ + 1)) - 1),
                 "upper bound 2^(k+1) - 1 on the diameter and on " + routing +
                     " paths, in server hops (a hop through a switch counts once; Guo et al. 2008 Sec. 4, Li et al. "
                     "2009 Sec. IV)"});
  out.push_back({"routing_bound_links", 3.0 * static_cast<double>(1ULL << k_) - 1,
                 "upper bound on a " + routing +
                     " path in links: at most 2^k switch hops of 2 links and 2^k - 1 level links, 3 x 2^k - 1"});
  if (!is_dcell())
    out.push_back({"free_backup_ports", static_cast<double>(t_[k_] >> k_),
                   "servers whose backup port is unused, b_k = t_k / 2^k (Li et al. 2009, Sec. III)"});
  if (k_ >= 1 && g_[k_] % 2 == 0) {
    const double half = g_[k_] / 2;
    out.push_back({"bisection_cables", half * half,
                   "cables crossing the top-level cut between copies < g_k/2 and >= g_k/2 (equal halves, one cable "
                   "per pair of copies): (g_k/2)^2; an upper bound on the minimum bisection"});
  }
  return out;
}

namespace {

std::unique_ptr<Topology> make(const std::string& family, DcnRule rule, const ParamSet& p,
                               const LinkDefaults& defaults) {
  return std::make_unique<RecursiveDcnTopology>(family, rule, static_cast<std::uint32_t>(p.get_int("n")),
                                                static_cast<std::uint32_t>(p.get_int("k")), defaults);
}

const char* kNumbering =
    " Numbering: server uid u (0..t_k-1) is vertex and endpoint u; inside a level-l network it lies in copy "
    "(u / t_(l-1)) mod g_l. Switch s is vertex t_k + s and connects servers s n .. s n + n-1 on its ports 0..n-1. "
    "Server port 0 goes to the switch. Server-centric: servers relay traffic.";

}  // namespace

void register_recursive_dcns(TopologyRegistry& registry) {
  registry.add(
      {"dcell",
       "DCell(n,k): recursive server-centric network, servers with k+1 ports, n-port mini-switches",
       {int_param("n", "4", "servers per DCell_0 (ports of every mini-switch)", 2, 1 << 16),
        int_param("k", "1", "level of the DCell; every server has k+1 ports (mini-switch plus one link per level)", 0,
                  RecursiveDcnTopology::kMaxLevel)},
       [](const ParamSet& p, const LinkDefaults& defaults) { return make("dcell", DcnRule::DCellAlpha, p, defaults); },
       std::string("Guo et al., 'DCell: a scalable and fault-tolerant network structure for data centers', SIGCOMM "
                   "2008, Sec. 3 (BuildDCells). t_0 = n, g_l = t_(l-1) + 1, t_l = g_l t_(l-1). DCell_0 is n servers "
                   "on one n-port mini-switch; DCell_l joins g_l copies of DCell_(l-1): for i < j server [i, j-1] "
                   "(uid j-1 inside copy i) connects to server [j, i]. Port l (1..k) of a server is its level-l link. "
                   "Sizes: t_k servers, t_k / n switches, t_k (1 + k/2) cables; server degree k+1, switch degree n. "
                   "Diameter at most 2^(k+1) - 1 server hops (the DCellRouting bound, Sec. 4), where a hop through a "
                   "mini-switch is 2 links and a level link is 1. The same network as gdcficonn:rule=alpha.") +
           kNumbering,
       "dcell:n=3,k=2"});
  registry.add(
      {"ficonn",
       "FiConn(n,k): recursive server-centric network of dual-port servers on n-port switches",
       {int_param("n", "4", "ports per switch, even; servers per FiConn_0", 2, 1 << 16),
        int_param("k", "2", "level of the FiConn; every server has 2 ports (switch and backup)", 0,
                  RecursiveDcnTopology::kMaxLevel)},
       [](const ParamSet& p, const LinkDefaults& defaults) { return make("ficonn", DcnRule::FiConn, p, defaults); },
       std::string(
           "Li et al., 'FiConn: using backup port for server interconnection in data centers', INFOCOM 2009, Sec. "
           "III (construction). t_0 = n; a FiConn_(l-1) has b_(l-1) = t_(l-1) / 2^(l-1) servers with a free "
           "backup port; FiConn_l joins g_l = b_(l-1)/2 + 1 copies of FiConn_(l-1), copy i and copy j (i < j) by "
           "one level-l link between server [i, (j-1) 2^l + 2^(l-1) - 1] and server [j, i 2^l + 2^(l-1) - 1]; so "
           "t_l = t_(l-1) (t_(l-1)/2^l + 1). Port 1 (backup) of server u carries its level-l link, l = 1 + the "
           "number of trailing one bits of u, and is absent when l > k (b_k = t_k / 2^k servers). Cables: "
           "t_k + (t_k - b_k)/2; server degree 1 or 2, switch degree n. Diameter at most 2^(k+1) - 1 server hops, "
           "where a hop through a switch is 2 links and a level link is 1. The same network as "
           "gdcficonn:rule=ficonn.") +
           kNumbering,
       "ficonn:n=4,k=2"});
  registry.add(
      {"gdcficonn",
       "Generalised DCell/FiConn (INRFlow's gdcficonn): recursive server-centric network with a chosen connection "
       "rule",
       {int_param("n", "4", "servers per level-0 switch (ports of every switch); even for rule=ficonn", 2, 1 << 16),
        int_param("k", "2", "levels of recursion", 0, RecursiveDcnTopology::kMaxLevel),
        choice_param("rule", "beta", {"alpha", "beta", "ficonn"},
                     "connection rule: alpha = DCell's BuildDCells, beta = Kliegl et al.'s beta-DCell, ficonn = "
                     "FiConn's backup-port rule")},
       [](const ParamSet& p, const LinkDefaults& defaults) {
         const std::string rule = p.get_string("rule");
         const DcnRule r = rule == "alpha"  ? DcnRule::DCellAlpha
                           : rule == "beta" ? DcnRule::DCellBeta
                                            : DcnRule::FiConn;
         return make("gdcficonn", r, p, defaults);
       },
       std::string(
           "The generalised DCell/FiConn family of INRFlow ('gdcficonn'; Erickson, Kiasari, Navaridas, Stewart, "
           "'Routing algorithms for recursively-defined data centre networks', TrustCom 2015): level l joins g_l "
           "copies of the level-(l-1) network by one link per pair of copies. rule=alpha and rule=beta are DCell "
           "sizes (g_l = t_(l-1) + 1, every server one link per level, port l); alpha pairs server [a, b-1] with [b, "
           "a] for a < b (Guo et al. 2008), beta pairs server [a, B] with [(a+B+1) mod (t_(l-1)+1), t_(l-1)-1-B], "
           "i.e. [a, b-a-1] with [b, t_(l-1)-b+a] for a < b (Kliegl et al., 'Generalized DCell structure for "
           "load-balanced data center networks', INFOCOM Workshops 2010). rule=ficonn is FiConn (Li et al. 2009): "
           "dual-port servers, g_l = t_(l-1)/2^l + 1, port 1 carries the level link. Routings: the dimensional "
           "routing ('dcell' for the DCell rules, 'ficonn' for FiConn) and 'gdcproxy' (proxy routing).") +
           kNumbering,
       "gdcficonn:n=3,k=2,rule=beta"});
}

}  // namespace interflow::topo
