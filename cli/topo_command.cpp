// `interflow topo SPEC`: counts, degrees, closed-form facts and distances of a topology (core/analysis),
// and export (topologies/export).
#include <iostream>

#include "cli/commands.hpp"
#include "cli/results.hpp"
#include "cli/run_header.hpp"
#include "core/analysis.hpp"
#include "core/io.hpp"
#include "core/system.hpp"
#include "topologies/export.hpp"

namespace interflow::cli {

namespace {

struct TopoConfig {
  std::string spec;
  std::uint64_t work_limit = 4'000'000'000ULL;
  std::uint32_t samples = 1000;
  std::uint64_t seed = 1;
  std::string export_file;
  std::string export_format = "graphml";
  bool no_distances = false;
  bool progress = true;  // the progress line (--no-progress)
  LinkDefaults links;
};

struct TopoRun {
  Spec spec;
  ParamSet params;
  std::unique_ptr<Topology> topology;
  DegreeReport degrees;
  DistanceReport distances;
  double build_seconds = 0, distance_seconds = 0;
};

TopoRun run_topo(const Plugins& plugins, const TopoConfig& c) {
  TopoRun run;
  run.spec = Spec::parse(c.spec, "topology");
  run.params = plugins.topologies.validate(run.spec);
  Stopwatch clock;
  run.topology = plugins.topologies.create(run.spec, c.links);
  run.build_seconds = clock.seconds();
  run.degrees = degree_report(run.topology->network());
  clock.reset();
  if (!c.no_distances) {
    Progress progress(c.progress);
    run.distances = DistanceAnalysis(c.work_limit, c.samples, c.seed)
                        .report_to(&progress)
                        .run(run.topology->network(), run.topology->endpoints_symmetric());
  }
  run.distance_seconds = clock.seconds();
  return run;
}

Json topo_summary(const TopoRun& run, const TopoConfig& c, const RunHeader& header) {
  const Network& net = run.topology->network();
  const DegreeReport& d = run.degrees;
  Json j = head_json(header);
  j["topology"] = run.spec.text;
  j["family"] = run.topology->family();
  j["params"] = header.config["topology_params"];
  j["endpoints"] = net.num_endpoints();
  j["switches"] = net.num_switches();
  j["cables"] = net.num_cables();
  j["endpoint_cables"] = d.endpoint_cables;
  j["switch_cables"] = static_cast<std::uint64_t>(net.num_cables()) - d.endpoint_cables;
  j["links"] = net.num_links();
  j["direct"] = net.direct();
  j["switch_radix_min"] = d.switch_radix_min;
  j["switch_radix_max"] = d.switch_radix_max;
  j["distances_computed"] = !c.no_distances;
  if (!c.no_distances) {
    const DistanceReport& r = run.distances;
    j["diameter_links"] = r.diameter_links;
    j["mean_distance_links"] = r.mean_links;
    j["distances_exact"] = r.exact;
    j["distances_by_symmetry"] = r.by_symmetry;
    j["distance_sources"] = r.sources;
    j["disconnected_pairs"] = r.disconnected_pairs;
  }
  j["build_seconds"] = run.build_seconds;
  Json facts = Json::object();
  for (const auto& f : run.topology->facts()) facts[f.key] = f.value;
  j["facts"] = std::move(facts);
  foot_json(j, {{"build", run.build_seconds}, {"distances", run.distance_seconds}});
  return j;
}

void print_topo(const TopoRun& run, const TopoConfig& c, std::ostream& out) {
  const Network& net = run.topology->network();
  const DegreeReport& d = run.degrees;
  out << "topology " << run.spec.text << " (" << run.topology->family() << ")\n"
      << "  endpoints            " << net.num_endpoints() << (net.direct() ? " (direct: hosted by routers)" : "")
      << "\n  switches             " << net.num_switches() << "\n  cables               " << net.num_cables()
      << " (" << d.endpoint_cables << " endpoint, " << net.num_cables() - d.endpoint_cables << " switch)"
      << "\n  directed links       " << net.num_links() << "\n  switch radix         " << d.switch_radix_min << ".."
      << d.switch_radix_max << "\n";
  if (d.has_endpoint_vertices)
    out << "  endpoint degree      " << d.endpoint_degree_min << ".." << d.endpoint_degree_max << "\n";
  const DistanceReport& r = run.distances;
  if (c.no_distances) {
    out << "  distances            not computed (--no-distances)\n";
  } else {
    out << "  diameter             " << r.diameter_links << " links" << (r.exact ? "" : " (sampled)")
        << "\n  mean distance        " << r.mean_links << " links"
        << (r.by_symmetry ? " (exact, by symmetry)"
            : r.exact     ? " (exact)"
                          : " (sampled from " + std::to_string(r.sources) + " sources)")
        << "\n";
  }
  if (r.disconnected_pairs) out << "  disconnected pairs   " << r.disconnected_pairs << "\n";
  out << "  build time           " << run.build_seconds << " s, peak memory "
      << static_cast<double>(peak_rss_bytes()) / (1024.0 * 1024.0) << " MiB\n";
  for (const auto& f : run.topology->facts())
    out << "  " << f.key << std::string(f.key.size() < 21 ? 21 - f.key.size() : 1, ' ') << f.value << "  ("
        << f.meaning << ")\n";
}

void export_network(const Network& net, const TopoConfig& c) {
  OutputFile out(c.export_file, "--export");
  if (c.export_format == "graphml")
    topo::write_graphml(net, out.stream());
  else
    topo::write_edge_list(net, out.stream());
  out.commit();
}

}  // namespace

Command add_topo_command(CLI::App& app, const Plugins& plugins) {
  auto* cmd = app.add_subcommand("topo", "describe a topology: counts, radix, diameter, mean distance; export it");
  auto c = std::make_shared<TopoConfig>();
  auto t = std::make_shared<OptionTable>(cmd);
  t->add_config();
  t->text("spec", c->spec, "topology spec NAME[:key=value,...] (required; or `spec` in --config)");
  t->whole("--exact-work", c->work_limit,
           "distances are exact when endpoints x links is at most this; otherwise sampled");
  t->whole("--samples", c->samples, "source endpoints sampled when not exact", 1);
  t->whole("-s,--seed", c->seed, "seed of the sample");
  t->text("--export", c->export_file, "write the graph to this file");
  t->text("--export-format", c->export_format, "graphml or edgelist")->check(CLI::IsMember({"graphml", "edgelist"}));
  t->real("--endpoint-gbps", c->links.endpoint_gbps, "capacity of endpoint links, Gbit/s", 0, 1e9, true);
  t->real("--switch-gbps", c->links.switch_gbps, "capacity of switch links, Gbit/s", 0, 1e9, true);
  t->flag("--no-distances", c->no_distances,
          "skip the diameter and mean distance (for timing the build of very large networks)");
  t->add_out("write summary.json (the --json description) and config.toml into this folder");
  t->add_output_flags();
  return Command{[&plugins, c, t]() {
    t->apply_config();
    if (c->spec.empty()) throw InputError("topo needs a topology spec, e.g. `interflow topo torus:dims=8x8x8`");
    t->refuse_unless("--samples", !c->no_distances, "when distances are computed (not with --no-distances)");
    t->refuse_unless("--export-format", !c->export_file.empty(), "with --export FILE");
    c->progress = t->progress();
    const TopoRun run = run_topo(plugins, *c);
    const std::map<std::string, Json> resolved{{"export", nullptr}, {"export-format", nullptr}};
    RunHeader header{"topo", "topology description", c->seed, 1, t->echo(resolved), {}};
    add_plugin(header, "topology", run.spec, run.params);
    if (!c->export_file.empty()) export_network(run.topology->network(), *c);
    const Json summary = topo_summary(run, *c, header);
    if (!t->out_dir().empty()) ResultsDir(t->out_dir()).finish(t->config_toml(resolved), summary);
    t->refuse_together("--json", "--quiet", "--json prints the description, --quiet prints nothing");
    if (t->json())
      write_json(std::cout, summary);
    else if (!t->quiet())
      print_topo(run, *c, std::cout);
    return 0;
  }, t};
}

}  // namespace interflow::cli
