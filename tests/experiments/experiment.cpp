// Experiment files: reading, checking (file, line and what was expected), expansion into runs with
// stable ids, ranges, zips, seeds and exclusions; the results layout and collect's statistics.
#include <doctest/doctest.h>

#include <set>

#include "cli/catalog.hpp"
#include "experiments/collect.hpp"
#include "experiments/emit.hpp"
#include "experiments/experiment.hpp"
#include "tests/support/cli_support.hpp"
#include "tests/support/test_support.hpp"

using namespace interflow;
using namespace interflow::experiments;
using interflow::test::contains;
using interflow::test::error_of;

namespace {

const cli::Catalog& catalog() {
  static const cli::Catalog c(test::plugins());
  return c;
}

std::string file_with(const std::string& text) {
  static int n = 0;
  const auto path = test::scratch() / ("experiment-" + std::to_string(++n) + ".toml");
  test::write_text(path, text);
  return path.string();
}

std::vector<Run> runs_of(const std::string& text) {
  return expand(load_experiment(file_with(text), catalog()), catalog());
}

// The error of reading and expanding `text`.
std::string refusal(const std::string& text) {
  return error_of([&] { runs_of(text); });
}

const std::string kHead = "[experiment]\nout = \"x\"\n[static]\ntopology = \"torus:dims=4x4\"\n";

}  // namespace

TEST_CASE("experiments: axes and seeds and ranges expand to the product seed by seed") {
  const auto runs =
      runs_of(kHead + "[axes]\nrouting = [\"dor\", \"bfs\"]\nswitch-gbps = { from = 0.1, to = 0.5, step = 0.1 }\n");
  REQUIRE(runs.size() == 10);
  // Ranges are exact at 12 significant digits: 0.3, not 0.30000000000000004.
  std::vector<double> gbps;
  for (std::size_t i = 0; i < 5; ++i) gbps.push_back(runs[i].swept["switch-gbps"].get<double>());
  CHECK(gbps == std::vector<double>{0.1, 0.2, 0.3, 0.4, 0.5});
  CHECK(runs[0].swept["routing"] == "dor");
  CHECK(runs[5].swept["routing"] == "bfs");  // the first axis varies slowest
  CHECK(runs[0].options["topology"] == "torus:dims=4x4");

  const std::string seeded = "[experiment]\nout = \"x\"\nseeds = 3\n[static]\ntopology = \"torus:dims=4x4\"\n"
                             "[axes]\nswitch-gbps = [100, 200]\n";
  const auto s = runs_of(seeded);
  REQUIRE(s.size() == 6);
  // Every configuration's first seed comes first.
  CHECK(s[0].swept["seed"] == 1);
  CHECK(s[1].swept["seed"] == 1);
  CHECK(s[2].swept["seed"] == 2);
  CHECK(s[0].group == s[2].group);   // same configuration, another seed
  CHECK(s[0].group != s[1].group);
  std::set<std::string> ids;
  for (const auto& r : s) ids.insert(r.id);
  CHECK(ids.size() == 6);
  // Integer and logarithmic ranges.
  const auto ints = runs_of(kHead + "[axes]\nmax-flows = { from = 10, to = 40, step = 10 }\n");
  REQUIRE(ints.size() == 4);
  CHECK(ints[3].swept["max-flows"].is_number_integer());
  CHECK(ints[3].swept["max-flows"] == 40);
  const auto logs = runs_of(kHead + "[axes]\nswitch-gbps = { from = 1, to = 1000, count = 4, scale = \"log\" }\n");
  REQUIRE(logs.size() == 4);
  CHECK(logs[1].swept["switch-gbps"].get<double>() == 10);
  CHECK(logs[2].swept["switch-gbps"].get<double>() == 100);
}

TEST_CASE("experiments: run ids are a stable hash of the configuration") {
  const auto a = runs_of("[experiment]\nout = \"x\"\n[static]\ntopology = \"torus:dims=4x4\"\npattern = \"uniform\"\n");
  const auto b = runs_of("[static]\npattern = \"uniform\"\ntopology = \"torus:dims=4x4\"\n[experiment]\nout = \"y\"\n");
  REQUIRE(a.size() == 1);
  REQUIRE(b.size() == 1);
  CHECK(a[0].id == b[0].id);  // key order and the results folder do not change a run's identity
  CHECK(a[0].id.size() == 16);
  const auto c = runs_of("[static]\npattern = \"uniform\"\ntopology = \"torus:dims=4x6\"\n");
  CHECK(c[0].id != a[0].id);
  CHECK(stable_hash("") == "cbf29ce484222325");  // FNV-1a's offset basis: the hash is the published one
  CHECK(stable_hash("a") == "af63dc4c8601ec8c");
}

TEST_CASE("experiments: plugin parameters and zips and exclusions") {
  const auto runs = runs_of(kHead +
                            "routing = \"ksp\"\n[axes]\n\"routing:k\" = [1, 2, 4]\n\"topology:dims\" = [\"4x4\", \"6x6\"]\n");
  REQUIRE(runs.size() == 6);
  CHECK(runs[0].options["routing"] == "ksp:k=1");
  CHECK(runs[1].options["topology"] == "torus:dims=6x6");
  CHECK(runs[5].options["routing"] == "ksp:k=4");

  const auto zipped = runs_of(kHead + "[[zip]]\nrouting = [\"dor\", \"bfs\"]\nswitch-gbps = [10, 20]\n"
                                      "[axes]\nendpoint-gbps = [1, 2, 3]\n");
  REQUIRE(zipped.size() == 6);
  const auto excluded = runs_of(kHead + "[axes]\nrouting = [\"dor\", \"bfs\"]\nswitch-gbps = [10, 20]\n"
                                        "[[exclude]]\nrouting = \"bfs\"\nswitch-gbps = 20.0\n");
  REQUIRE(excluded.size() == 3);
  for (const auto& r : excluded) CHECK_FALSE((r.swept["routing"] == "bfs" && r.swept["switch-gbps"] == 20));
}

TEST_CASE("experiments: bad files are refused naming the file and line and what was expected") {
  const auto says = [](const std::string& text, std::initializer_list<std::string> parts) {
    const std::string e = refusal(text);
    INFO(e);
    CHECK(contains(e, ".toml:"));
    for (const auto& p : parts) CHECK(contains(e, p));
  };
  says(kHead + "patern = \"uniform\"\n", {":5:", "'patern' is not an option", "did you mean 'pattern'"});
  says(kHead + "[axes]\nswitch-gbps = []\n", {":6:", "axis 'switch-gbps' is empty"});
  says(kHead + "[axes]\nswitch-gbps = [\"fast\"]\n", {":6:", "expected a finite number", "'fast'"});
  says(kHead + "threads = 1.5\n", {":5:", "threads", "whole number"});
  says(kHead + "[axes]\n\"topology:dimz\" = [\"4x4\"]\n", {":6:", "no parameter 'dimz'", "did you mean 'dims'"});
  says(kHead + "routing = \"dor\"\n[axes]\n\"routing:k\" = [2]\n", {":7:", "routing 'dor' has no parameter 'k'"});
  says(kHead + "[axes]\n\"seed:x\" = [2]\n", {":6:", "holds no plugin spec"});
  says("[experiment]\nout = \"x\"\nmax-runs = 10\n[static]\ntopology = \"torus:dims=4x4\"\n[axes]\n"
       "switch-gbps = { from = 1, to = 100, step = 1 }\n",
       {"100 runs", "more than max-runs = 10"});
  says("[experiment]\nmax-runz = 10\n[static]\n", {":2:", "did you mean 'max-runs'"});
  says("[experiment]\nout = \"x\"\n[statik]\n", {":3:", "unexpected table [statik]", "did you mean 'static'"});
  says(kHead + "[[zip]]\nswitch-gbps = [1, 2]\nendpoint-gbps = [1]\n", {"advance together"});
  says(kHead + "[axes]\nswitch-gbps = [1, 2]\n[[exclude]]\nswitch-gbps = 3\n", {":7:", "matches no run"});
  says(kHead + "[axes]\nswitch-gbps = [1, 2]\n[[exclude]]\nswitch-gbs = 3\n", {"did you mean 'switch-gbps'"});
  says(kHead + "[axes]\ntopology = [\"torus:dims=4x4\", \"torus:dims=4x0\"]\n", {":6:", "4x0"});
  says(kHead + "[axes]\nswitch-gbps = { from = 1, to = 2 }\n", {":6:", "step or count"});
  says(kHead + "[axes]\nswitch-gbps = { from = 1, to = 2, stride = 1 }\n", {"unknown range key 'stride'"});
  says(kHead + "[axes]\nswitch-gbps = [1, 1]\n", {"same configuration"});
  says(kHead + "out = \"y\"\n", {":5:", "out is given twice"});
  says("[experiment]\nout = \"x\"\nseeds = 2\n[static]\nseed = 4\n", {"seed", "remove one"});
  says("[experiment]\nout = \"x\"\nmemory = \"lots\"\n[static]\n", {":3:", "GiB"});
  says("[experiment]\nout = \"x\"\n[static]\ntopology = \"torus:dims=4x4\n", {":4:"});  // toml++: line and column
}

TEST_CASE("experiments: collect flattens summaries into metrics and quotes CSV cells and slurm time requests") {
  const Json s = Json::parse(R"({"interflow_version": "0.1.0", "engine": "static", "seed": 1, "threads": 2,
    "config": {"seed": 1}, "a": {"b": 1.5, "c": true, "d": "text"}, "list": [1, 2],
    "time_s": {"total": 0.5}, "peak_rss_bytes": 1024})");
  const auto m = summary_metrics(s, true);
  REQUIRE(m.size() == 6);
  CHECK(m[0].first == "a.b");
  CHECK(m[1].first == "a.c");
  CHECK(m[1].second == 1.0);
  CHECK(m[2].first == "list.0");
  CHECK(m[4].first == "time_s.total");
  CHECK(m[5].first == "peak_rss_bytes");
  CHECK(summary_metrics(s, false).size() == 4);
  Json long_series = s;
  long_series["series"] = Json::array();
  for (std::size_t i = 0; i < kMaxArray + 1; ++i) long_series["series"].push_back(1.0);
  CHECK(summary_metrics(long_series, false).size() == 4);  // a series is left to the run's files
  CHECK(csv_cell("torus:dims=4x4") == "torus:dims=4x4");
  CHECK(csv_cell("fattree:k=4,n=3") == "\"fattree:k=4,n=3\"");
  CHECK(csv_cell("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(slurm_time(10) == "0-00:05:00");
  CHECK(slurm_time(3600) == "0-01:00:00");
  CHECK(slurm_time(3601) == "0-02:00:00");
  CHECK(slurm_time(3 * 86400) == "3-00:00:00");
  CHECK(shell_quote("it's") == "'it'\\''s'");
}

TEST_CASE("experiments: tags label the runs without changing them and empty lists give none") {
  const auto tagged = runs_of(kHead + "[[zip]]\n\"tag:family\" = [\"small\", \"large\"]\n"
                                      "topology = [\"torus:dims=4x4\", \"torus:dims=8x8\"]\n");
  const auto plain = runs_of(kHead + "[axes]\ntopology = [\"torus:dims=4x4\", \"torus:dims=8x8\"]\n");
  REQUIRE(tagged.size() == 2);
  CHECK(tagged[1].swept["tag:family"] == "large");
  CHECK_FALSE(tagged[1].options.contains("tag:family"));
  CHECK(tagged[0].id == plain[0].id);  // a label is not a configuration
  CHECK(contains(refusal(kHead + "[axes]\n\"tag:size\" = [\"a\", \"b\"]\n"), "same configuration"));
  CHECK(contains(refusal(kHead + "[axes]\n\"tag:size\" = [[1]]\n"), "a tag is a label"));
  const auto empty = runs_of("[experiment]\nout = \"x\"\n[dynamic]\ntopology = \"fattree:k=4,n=3\"\n"
                             "[[zip]]\npolicy = [\"np\", \"qos\"]\nclass-cap = [[], [0.7, 1.0]]\n");
  REQUIRE(empty.size() == 2);
  CHECK(empty[0].options["class-cap"].empty());
}

TEST_CASE("experiments: the table of collect --show names the configurations and the mean and CI") {
  Collected c;
  c.keys = {"topology", "tag:x"};
  c.metric_names = {"a.mean", "b"};
  c.rows.push_back({{"torus:dims=4x4", "1"}, 3, {{{"0.5", "0.1", "0.25"}}, {{"2", "", ""}}}});
  c.rows.push_back({{"fattree:k=4,n=3", "2"}, 1, {{{"1.25", "", ""}}, {{"3", "", ""}}}});
  const std::string t = show_table(c, {"b", "a.mean"});
  CHECK(t ==
        "topology         tag:x  runs  b  a.mean\n"
        "torus:dims=4x4   1      3     2  0.5 ± 0.25\n"
        "fattree:k=4,n=3  2      1     3  1.25\n");
  const std::string e = error_of([&] { show_table(c, {"a"}); });
  CHECK(contains(e, "'a' is not a metric"));
  CHECK(contains(e, "a.mean"));
}

TEST_CASE("experiments: review cases of ranges and parameter keys and run identity") {
  // A count range is real unless every value comes out whole.
  CHECK(contains(refusal(kHead + "[axes]\nswitch-gbps = { from = 0, to = 1, count = 5 }\n"), "finite number in (0"));
  const auto reals = runs_of(kHead + "[axes]\nswitch-gbps = { from = 1, to = 2, count = 5 }\n");
  REQUIRE(reals.size() == 5);
  CHECK(reals[1].swept["switch-gbps"].get<double>() == 1.25);
  CHECK(contains(refusal(kHead + "[axes]\nswitch-gbps = { from = 1, to = 2, step = 1, scale = \"log\" }\n"),
                 "scale applies to count ranges"));
  // Parameter names keep their underscores; a parameter takes one value.
  const auto flows = runs_of(kHead + "pattern = \"uniform\"\n[axes]\n\"pattern:flows_per_endpoint\" = [1, 2]\n");
  REQUIRE(flows.size() == 2);
  CHECK(flows[1].options["pattern"] == "uniform:flows_per_endpoint=2");
  CHECK(contains(refusal(kHead + "[axes]\n\"topology:dims\" = [[8, 8]]\n"), "takes one value"));
  // 100 and 100.0 are one run; threads do not change a run's identity.
  CHECK(contains(refusal(kHead + "[axes]\nswitch-gbps = [100, 100.0]\n"), "same configuration"));
  const auto one = runs_of(kHead + "threads = 1\n");
  const auto four = runs_of(kHead + "threads = 4\n");
  CHECK(one[0].id == four[0].id);
  CHECK(contains(refusal("experiment = 5\n[static]\n"), "[experiment]: expected a table"));
}

TEST_CASE("experiments: a run with a failed note is failed even with a summary") {
  const Layout layout(test::scratch() / "state-of");
  std::filesystem::create_directories(layout.run_dir("abc"));
  CHECK(state_of(layout, "abc") == RunState::Pending);
  test::write_text(layout.summary("abc"), "{}");
  CHECK(state_of(layout, "abc") == RunState::Finished);
  test::write_text(layout.failed("abc"), "exit status 3\n");  // a deadlocked run writes its summary, then fails
  CHECK(state_of(layout, "abc") == RunState::Failed);
}
