// `interflow static`: parses, builds the run from the registries (cli/static_run.cpp) and writes its
// results (cli/report.cpp); nothing else.
#include <iostream>

#include "cli/commands.hpp"
#include "cli/report.hpp"
#include "cli/results.hpp"
#include "cli/static_run.hpp"

namespace interflow::cli {

Command add_static_command(CLI::App& app, const Plugins& plugins) {
  auto* cmd = app.add_subcommand("static", "static max-min flow engine: throughput of a topology + routing + pattern");
  auto config = std::make_shared<StaticConfig>();
  auto t = std::make_shared<OptionTable>(cmd);
  auto flows_csv = std::make_shared<bool>(false);
  t->add_config();
  add_network_options(*t, config->network);
  t->text("-p,--pattern", config->pattern, "traffic pattern spec NAME[:key=value,...] (see `interflow list pattern`)");
  t->whole("-j,--threads", config->threads, "worker threads (0 = all cores); results do not depend on it", 0, 4096);
  t->whole("--max-flows", config->max_flows, "refuse patterns that would generate more flows", 1);
  t->real("--max-path-memory-gib,--max-path-memory", config->max_path_memory_gib,
          "refuse routings whose paths would need more memory, in GiB (4 bytes per link of a path, 12 per path)", 0,
          1e6, true);
  t->text("--stream", config->stream,
          "streamed solve (all-to-all kinds; flows regenerated on each pass, never held): auto, on or off")
      ->check(CLI::IsMember({"auto", "on", "off"}));
  t->real("--stream-buffer-mib", config->stream_buffer_mib,
          "streamed solve: memory for the flows still unfrozen after a pass, solved in memory when they fit", 0, 1e6);
  auto memory_check = std::make_shared<std::string>("on");
  t->text("--memory-check", *memory_check,
          "on: refuse a run whose estimated memory exceeds what the machine has available; off: run it anyway")
      ->check(CLI::IsMember({"on", "off"}));
  auto estimate_only = std::make_shared<bool>(false);
  t->output_flag("--memory-estimate", *estimate_only,
                 "print the memory the run would need (and what is available) and stop before routing");
  t->add_out("write summary.json, links.csv and config.toml (and flows.csv) into this folder");
  t->output_flag("--flows-csv", *flows_csv, "with --out, also write flows.csv (one row per flow)");
  t->add_output_flags();
  return Command{[&plugins, config, t, flows_csv, memory_check, estimate_only]() {
    t->apply_config();
    t->refuse_unless("--flows-csv", !t->out_dir().empty(), "with --out DIR");
    t->refuse_together("--json", "--quiet", "--json prints the summary, --quiet prints nothing");
    config->progress = t->progress();
    config->per_flow_results = *flows_csv;
    config->memory_check = *memory_check == "on";
    config->memory_estimate_only = *estimate_only;
    t->refuse_together("--memory-estimate", "--out", "--memory-estimate runs nothing, so it writes no result");
    const StaticRun run = run_static(plugins, *config);
    RunHeader header{"static", "static engine", config->network.seed, run.threads_used,
                     t->echo({{"routing", run.setup.routing_spec.text}}), {}};
    add_network(header, run.setup);
    add_plugin(header, "pattern", run.pattern_spec, run.pattern_params);
    if (!run.solved) {
      if (t->json())
        write_json(std::cout, memory_estimate_summary(run, header));
      else if (!t->quiet())
        print_memory_estimate(run, header, std::cout);
      return 0;
    }
    const Json summary = static_summary(run, header);
    if (!t->out_dir().empty()) {
      const ResultsDir dir(t->out_dir());
      dir.write("links.csv", [&](std::ostream& out) { write_links_csv(run, out); });
      if (*flows_csv) dir.write("flows.csv", [&](std::ostream& out) { write_flows_csv(run, out); });
      dir.finish(t->config_toml({{"routing", run.setup.routing_spec.text}}), summary);
    }
    if (t->json())
      write_json(std::cout, summary);
    else if (!t->quiet())
      print_static_summary(run, header, std::cout);
    return 0;
  }, t};
}

}  // namespace interflow::cli
