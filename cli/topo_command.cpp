// `interflow topo SPEC`: counts, degrees, closed-form facts and distances of a topology, and export.
#include <algorithm>
#include <fstream>
#include <iostream>

#include "cli/commands.hpp"
#include "cli/json.hpp"
#include "core/analysis.hpp"
#include "core/system.hpp"
#include "topologies/export.hpp"

namespace interflow::cli {

Action add_topo_command(CLI::App& app, const Plugins& plugins) {
  auto* cmd = app.add_subcommand("topo", "describe a topology: counts, radix, diameter, mean distance; export it");
  struct Options {
    std::string spec;
    std::uint64_t work_limit = 4'000'000'000ULL;
    std::uint32_t samples = 1000;
    std::uint64_t seed = 1;
    std::string export_file;
    std::string export_format = "graphml";
    bool json = false;
    bool no_distances = false;
    LinkDefaults links;
  };
  auto o = std::make_shared<Options>();
  cmd->add_option("spec", o->spec, "topology spec NAME[:key=value,...]")->required();
  cmd->add_option("--exact-work", o->work_limit,
                  "distances are exact when endpoints x links is at most this; otherwise sampled")
      ->capture_default_str();
  cmd->add_option("--samples", o->samples, "source endpoints sampled when not exact")->capture_default_str();
  cmd->add_option("-s,--seed", o->seed, "seed of the sample")->capture_default_str();
  cmd->add_option("--export", o->export_file, "write the graph to this file");
  cmd->add_option("--export-format", o->export_format, "graphml or edgelist")
      ->check(CLI::IsMember({"graphml", "edgelist"}))
      ->capture_default_str();
  cmd->add_option("--endpoint-gbps", o->links.endpoint_gbps, "capacity of endpoint links")->capture_default_str();
  cmd->add_option("--switch-gbps", o->links.switch_gbps, "capacity of switch links")->capture_default_str();
  cmd->add_flag("--json", o->json, "print the description as JSON");
  cmd->add_flag("--no-distances", o->no_distances,
                "skip the diameter and mean distance (for timing the build of very large networks)");
  return [&plugins, o]() {
    const Spec spec = Spec::parse(o->spec, "topology");
    const ParamSet params = plugins.topologies.validate(spec);
    const Stopwatch clock;
    auto topology = plugins.topologies.create(spec, o->links);
    const double build_seconds = clock.seconds();
    const Network& net = topology->network();
    std::uint32_t sw_min = 0, sw_max = 0, ep_min = 0, ep_max = 0;
    bool sw_seen = false, ep_seen = false;
    std::uint64_t endpoint_cables = 0;
    for (VertexId v = 0; v < net.num_vertices(); ++v) {
      const std::uint32_t d = net.degree(v);
      if (net.kind(v) == VertexKind::Switch) {
        sw_min = sw_seen ? std::min(sw_min, d) : d;
        sw_max = std::max(sw_max, d);
        sw_seen = true;
      } else {
        ep_min = ep_seen ? std::min(ep_min, d) : d;
        ep_max = std::max(ep_max, d);
        ep_seen = true;
        // Cables touching an endpoint, each once (server-to-server cables from their lower end).
        for (LinkId l = net.out_begin(v); l < net.out_end(v); ++l)
          endpoint_cables += net.kind(net.target(l)) == VertexKind::Switch || net.target(l) > v;
      }
    }
    const DistanceReport dist =
        o->no_distances
            ? DistanceReport{}
            : DistanceAnalysis(o->work_limit, o->samples, o->seed).run(net, topology->endpoints_symmetric());
    if (!o->export_file.empty()) {
      std::ofstream out(o->export_file);
      if (!out) throw InputError("--export: cannot write '" + o->export_file + "'");
      if (o->export_format == "graphml")
        topo::write_graphml(net, out);
      else
        topo::write_edge_list(net, out);
    }
    if (o->json) {
      JsonWriter j(std::cout);
      j.begin_object();
      j.field("topology", spec.text);
      j.field("family", topology->family());
      j.key("params").begin_object();
      for (const auto& [k, v] : params.effective()) j.field(k, v);
      j.end_object();
      j.field("endpoints", net.num_endpoints());
      j.field("switches", net.num_switches());
      j.field("cables", net.num_cables());
      j.field("endpoint_cables", endpoint_cables);
      j.field("switch_cables", static_cast<std::uint64_t>(net.num_cables()) - endpoint_cables);
      j.field("links", net.num_links());
      j.field("direct", net.direct());
      j.field("switch_radix_min", sw_min);
      j.field("switch_radix_max", sw_max);
      j.field("distances_computed", !o->no_distances);
      if (!o->no_distances) {
        j.field("diameter_links", dist.diameter_links);
        j.field("mean_distance_links", dist.mean_links);
        j.field("distances_exact", dist.exact);
        j.field("distances_by_symmetry", dist.by_symmetry);
        j.field("distance_sources", dist.sources);
        j.field("disconnected_pairs", dist.disconnected_pairs);
      }
      j.field("build_seconds", build_seconds);
      j.field("peak_rss_bytes", peak_rss_bytes());
      j.key("facts").begin_object();
      for (const auto& f : topology->facts()) j.field(f.key, f.value);
      j.end_object();
      j.end_object();
      j.finish();
      return 0;
    }
    std::cout << "topology " << spec.text << " (" << topology->family() << ")\n"
              << "  endpoints            " << net.num_endpoints()
              << (net.direct() ? " (direct: hosted by routers)" : "") << "\n  switches             "
              << net.num_switches() << "\n  cables               " << net.num_cables() << " (" << endpoint_cables
              << " endpoint, " << net.num_cables() - endpoint_cables << " switch)"
              << "\n  directed links       " << net.num_links() << "\n  switch radix         " << sw_min << ".."
              << sw_max << "\n";
    if (ep_seen) std::cout << "  endpoint degree      " << ep_min << ".." << ep_max << "\n";
    if (o->no_distances) {
      std::cout << "  distances            not computed (--no-distances)\n";
    } else {
      std::cout << "  diameter             " << dist.diameter_links << " links" << (dist.exact ? "" : " (sampled)")
                << "\n  mean distance        " << dist.mean_links << " links"
                << (dist.by_symmetry ? " (exact, by symmetry)"
                    : dist.exact     ? " (exact)"
                                     : " (sampled from " + std::to_string(dist.sources) + " sources)")
                << "\n";
    }
    if (dist.disconnected_pairs) std::cout << "  disconnected pairs   " << dist.disconnected_pairs << "\n";
    std::cout << "  build time           " << build_seconds << " s, peak memory "
              << static_cast<double>(peak_rss_bytes()) / (1024.0 * 1024.0) << " MiB\n";
    for (const auto& f : topology->facts())
      std::cout << "  " << f.key << std::string(f.key.size() < 21 ? 21 - f.key.size() : 1, ' ') << f.value << "  ("
                << f.meaning << ")\n";
    return 0;
  };
}

}  // namespace interflow::cli
