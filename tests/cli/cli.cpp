// The interflow executable end to end: output files, JSON, error messages for malformed input,
// `list`, `topo`, GraphML export and reload, and TOML configuration files.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace fs = std::filesystem;

namespace {

// One scratch directory per test process, removed at exit.
struct ScratchDir {
  fs::path path = fs::temp_directory_path() / ("interflow-cli-test-" + std::to_string(::getpid()));
  ScratchDir() { fs::create_directories(path); }
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

const fs::path& scratch() {
  static const ScratchDir dir;
  return dir.path;
}

std::string read_text(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_text(const fs::path& file, const std::string& text) {
  std::ofstream out(file);
  out << text;
}

struct Outcome {
  int status = -1;
  std::string out, err;
};

// Runs `interflow ARGS` through the shell, stdout and stderr captured in files.
Outcome interflow(const std::string& args) {
  static int counter = 0;
  const std::string tag = std::to_string(++counter);
  const fs::path out = scratch() / ("stdout" + tag), err = scratch() / ("stderr" + tag);
  const std::string command = std::string(INTERFLOW_BINARY) + " " + args + " >" + out.string() + " 2>" + err.string();
  const int raw = std::system(command.c_str());
  Outcome o;
  o.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  o.out = read_text(out);
  o.err = read_text(err);
  return o;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  std::istringstream in(line);
  while (std::getline(in, cell, ',')) cells.push_back(cell);
  if (!line.empty() && line.back() == ',') cells.emplace_back();
  return cells;
}

// A minimal strict JSON reader: enough to prove the output parses and to look values up.
struct Json {
  enum class Kind { Null, Bool, Number, String, Array, Object } kind = Kind::Null;
  bool boolean = false;
  double number = 0;
  std::string text;
  std::vector<Json> items;
  std::vector<std::pair<std::string, Json>> fields;

  const Json& operator[](const std::string& key) const {
    for (const auto& [k, v] : fields)
      if (k == key) return v;
    throw std::runtime_error("JSON object has no key '" + key + "'");
  }
  bool has(const std::string& key) const {
    for (const auto& f : fields)
      if (f.first == key) return true;
    return false;
  }
};

class JsonReader {
 public:
  explicit JsonReader(const std::string& s) : s_(s) {}
  Json document() {
    Json v = value();
    skip_space();
    if (i_ != s_.size()) fail("trailing text");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("JSON: " + what + " at offset " + std::to_string(i_));
  }
  void skip_space() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  void expect(char c) {
    skip_space();
    if (i_ >= s_.size() || s_[i_] != c) fail(std::string("expected '") + c + "'");
    ++i_;
  }
  bool literal(const std::string& word) {
    if (s_.compare(i_, word.size(), word) != 0) return false;
    i_ += word.size();
    return true;
  }
  std::string string() {
    expect('"');
    std::string out;
    while (i_ < s_.size() && s_[i_] != '"') {
      if (s_[i_] == '\\') {
        if (++i_ >= s_.size()) fail("bad escape");
        const char c = s_[i_];
        if (c == 'u') {
          i_ += 4;  // kept as '?': the tests never compare such characters
          out += '?';
        } else {
          out += c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c;
        }
      } else {
        if (static_cast<unsigned char>(s_[i_]) < 0x20) fail("control character in string");
        out += s_[i_];
      }
      ++i_;
    }
    if (i_ >= s_.size()) fail("unterminated string");
    ++i_;
    return out;
  }
  Json value() {
    skip_space();
    if (i_ >= s_.size()) fail("unexpected end");
    Json v;
    const char c = s_[i_];
    if (c == '{') {
      v.kind = Json::Kind::Object;
      ++i_;
      skip_space();
      if (i_ < s_.size() && s_[i_] == '}') return ++i_, v;
      for (;;) {
        std::string key = string();
        expect(':');
        v.fields.emplace_back(std::move(key), value());
        skip_space();
        if (i_ < s_.size() && s_[i_] == ',') {
          ++i_;
          continue;
        }
        expect('}');
        return v;
      }
    }
    if (c == '[') {
      v.kind = Json::Kind::Array;
      ++i_;
      skip_space();
      if (i_ < s_.size() && s_[i_] == ']') return ++i_, v;
      for (;;) {
        v.items.push_back(value());
        skip_space();
        if (i_ < s_.size() && s_[i_] == ',') {
          ++i_;
          continue;
        }
        expect(']');
        return v;
      }
    }
    if (c == '"') {
      v.kind = Json::Kind::String;
      v.text = string();
      return v;
    }
    if (literal("true") || literal("false")) {
      v.kind = Json::Kind::Bool;
      v.boolean = s_[i_ - 2] == 'u';  // "tr[u]e" versus "fal[s]e"
      return v;
    }
    if (literal("null")) return v;
    const char* begin = s_.c_str() + i_;
    char* end = nullptr;
    v.number = std::strtod(begin, &end);
    if (end == begin) fail("expected a value");
    v.kind = Json::Kind::Number;
    i_ += static_cast<std::size_t>(end - begin);
    return v;
  }

  const std::string& s_;
  std::size_t i_ = 0;
};

Json parse_json(const std::string& text) { return JsonReader(text).document(); }

// A malformed input: non-zero exit, an error line on stderr naming every `part`.
void check_rejected(const std::string& args, std::initializer_list<std::string> parts) {
  const Outcome o = interflow(args + " --no-progress");
  INFO("interflow " << args << "\nstderr: " << o.err);
  CHECK(o.status != 0);
  CHECK(contains(o.err, "error"));
  for (const auto& part : parts) CHECK(contains(o.err, part));
  CHECK(o.out.empty());
}

}  // namespace

TEST_CASE("cli: static --out writes summary.json and links.csv and flows.csv") {
  const fs::path dir = scratch() / "out-fattree";
  const Outcome o =
      interflow("static -t fattree:k=2,n=3 -p shift:s=3 -s 42 --no-progress -q --flows-csv --out " + dir.string());
  REQUIRE(o.status == 0);
  CHECK(o.out.empty());  // -q

  const Json summary = parse_json(read_text(dir / "summary.json"));
  CHECK(summary["engine"].text == "static");
  CHECK(summary["seed"].number == 42);
  CHECK(summary["config"]["topology"].text == "fattree:k=2,n=3");
  CHECK(summary["config"]["routing"].text == "dmodk");
  CHECK(summary["config"]["pattern"].text == "shift:s=3");
  CHECK(summary["config"]["topology_params"]["k"].text == "2");
  CHECK(summary["network"]["family"].text == "fattree");
  CHECK(summary["network"]["endpoints"].number == 8);
  // 8 endpoint cables plus (n-1) k^n = 16 between switches.
  CHECK(summary["network"]["cables"].number == 24);
  CHECK(summary["network"]["links"].number == 48);
  CHECK(summary["network"]["direct"].boolean == false);
  CHECK(summary["flows"]["total"].number == 8);
  CHECK(summary["flows"]["routed"].number == 8);
  // dmodk routes a shift permutation on a fat tree without contention: 8 flows at 100 Gbit/s.
  CHECK(summary["throughput"]["aggregate_nonrestricted_gbps"].number == doctest::Approx(800));
  CHECK(summary["throughput"]["nonrestricted_normalised"].number == doctest::Approx(1));
  CHECK(summary["flow_rate_gbps"]["median"].number == doctest::Approx(100));
  CHECK(summary["jain_fairness"].number == doctest::Approx(1));
  CHECK(summary.has("time_s"));
  CHECK(summary.has("paths_per_link"));

  const auto links = lines_of(read_text(dir / "links.csv"));
  REQUIRE(!links.empty());
  CHECK(links[0] ==
        "link_id,src_vertex,dst_vertex,src_kind,dst_kind,capacity_gbps,latency_ns,up,paths,load_gbps,"
        "utilisation");
  CHECK(links.size() == 1 + 48);
  double link_load = 0;
  for (std::size_t i = 1; i < links.size(); ++i) {
    const auto cells = split_csv(links[i]);
    REQUIRE(cells.size() == 11);
    CHECK(cells[0] == std::to_string(i - 1));  // one row per directed link, in id order
    CHECK(cells[7] == "1");
    link_load += std::stod(cells[9]);
  }

  const auto flows = lines_of(read_text(dir / "flows.csv"));
  REQUIRE(flows.size() == 1 + 8);
  CHECK(flows[0] == "flow_id,src,dst,status,paths,path_links,rate_gbps,bottleneck_link");
  double flow_link_sum = 0;
  for (std::size_t i = 1; i < flows.size(); ++i) {
    const auto cells = split_csv(flows[i]);
    REQUIRE(cells.size() == 8);
    const int src = std::stoi(cells[1]);
    CHECK(std::stoi(cells[2]) == (src + 3) % 8);
    CHECK(cells[3] == "routed");
    CHECK(cells[4] == "1");
    CHECK(std::stod(cells[6]) == doctest::Approx(100));
    flow_link_sum += std::stod(cells[6]) * std::stod(cells[5]);
  }
  // Every flow's rate is counted once on each link of its path.
  CHECK(link_load == doctest::Approx(flow_link_sum));
}

TEST_CASE("cli: static --json prints the summary as JSON on stdout") {
  const Outcome o = interflow("static -t torus:dims=3x3 -p alltoall --json --no-progress");
  REQUIRE(o.status == 0);
  REQUIRE(!o.out.empty());
  CHECK(o.out.front() == '{');
  CHECK(contains(o.out, "\"aggregate_nonrestricted_gbps\""));
  const Json summary = parse_json(o.out);
  CHECK(summary["config"]["topology"].text == "torus:dims=3x3");
  CHECK(summary["config"]["routing"].text == "dor");
  CHECK(summary["flows"]["total"].number == 72);
  // Mean ring distance on a 3x3 torus over distinct pairs: 2 * (2/3) * 9/8 = 1.5 links.
  CHECK(summary["path_links"]["mean"].number == doctest::Approx(1.5));
  CHECK(summary["network"]["facts"]["diameter_links"].number == 2);
}

TEST_CASE("cli: malformed input exits non-zero with a message naming the input") {
  SUBCASE("unknown topology lists the valid names") {
    check_rejected("static -t nosuch", {"nosuch", "torus", "fattree", "mesh"});
  }
  SUBCASE("unknown parameter lists the valid ones") { check_rejected("static -t torus:foo=1", {"'foo'", "dims", "c"}); }
  SUBCASE("zero radix") { check_rejected("static -t torus:dims=0x4", {"dims", "0x4"}); }
  SUBCASE("fattree k=1") { check_rejected("static -t fattree:k=1", {"'k'", "2.."}); }
  SUBCASE("missing graph file") {
    const std::string file = (scratch() / "does-not-exist.ifg").string();
    check_rejected("static -t graph:file=" + file, {file});
  }
  SUBCASE("malformed graph file line") {
    const fs::path file = scratch() / "broken.ifg";
    write_text(file, "# broken on line 4\nendpoints 2\nswitches 1\nbogus e0 s0\nlink e1 s0\n");
    check_rejected("static -t graph:file=" + file.string(), {file.string() + ":4:", "bogus"});
  }
  SUBCASE("failures out of range or not a number") {
    check_rejected("static -t torus:dims=4x4 --failures 150%", {"--failures", "150%"});
    check_rejected("static -t torus:dims=4x4 --failures abc", {"--failures", "abc"});
    check_rejected("static -t torus:dims=4x4 --failures 33", {"--failures", "33", "32"});
  }
  SUBCASE("shift by zero") { check_rejected("static -t torus:dims=4 -p shift:s=0", {"shift", "'s'"}); }
  SUBCASE("routing for another family") {
    check_rejected("static -t fattree:k=2,n=2 -r dor", {"dor", "fattree", "torus"});
  }
  SUBCASE("multipath paths beyond --max-path-memory") {
    check_rejected("static -t fattree:k=8,n=3 -r ecmp:max_paths=64 --max-path-memory 0.0002",
                   {"--max-path-memory", "max_paths", "GiB"});
    check_rejected("static -t fattree:k=8,n=3 -r dmodk --max-path-memory 0.00001", {"--max-path-memory"});
  }
  SUBCASE("--flows-csv without --out") {
    check_rejected("static -t torus:dims=4 --flows-csv", {"--flows-csv", "--out"});
  }
  SUBCASE("unknown option (reported by CLI11, without our error prefix)") {
    const Outcome o = interflow("static --no-such-option");
    CHECK(o.status != 0);
    CHECK(contains(o.err, "--no-such-option"));
  }
}

TEST_CASE("cli: list prints every registry as text or Markdown") {
  const Outcome all = interflow("list");
  REQUIRE(all.status == 0);
  for (const std::string kind : {"topology plugins:", "routing plugins:", "pattern plugins:"})
    CHECK(contains(all.out, kind));
  for (const std::string name : {"torus", "fattree", "dor", "bfs", "dmodk", "uniform", "bisection", "alltoall"})
    CHECK(contains(all.out, "  " + name + "  -  "));

  const Outcome md = interflow("list topology --markdown");
  REQUIRE(md.status == 0);
  CHECK(md.out.rfind("# topology reference", 0) == 0);
  CHECK(contains(md.out, "## `torus`"));
  CHECK(contains(md.out, "| parameter | type | default | range | meaning |\n|---|---|---|---|---|\n"));
  CHECK(contains(md.out, "| `dims` | dims | `8x8x8` |"));
  CHECK(!contains(md.out, "routing reference"));
  CHECK(!contains(md.out, "## `dor`"));
}

TEST_CASE("cli: topo reports the closed-form diameter and mean distance of a torus") {
  const Outcome o = interflow("topo torus:dims=4x4x4");
  REQUIRE(o.status == 0);
  CHECK(contains(o.out, "diameter             6 links"));
  // 3 dimensions x mean ring distance 1 (over all 16 ordered pairs of a ring of 4) x 64/63.
  CHECK(contains(o.out, "mean distance        3.04762 links (exact)"));
  CHECK(contains(o.out, "cables               192"));

  const Outcome json = interflow("topo fattree:k=4,n=2 --json");
  REQUIRE(json.status == 0);
  const Json t = parse_json(json.out);
  CHECK(t["endpoints"].number == 16);
  CHECK(t["diameter_links"].number == 4);
  // Same leaf (3 of 15 others): 2 links, otherwise 4: (3*2 + 12*4) / 15 = 3.6.
  CHECK(t["mean_distance_links"].number == doctest::Approx(3.6));
}

TEST_CASE("cli: a GraphML export loads back as the same network") {
  for (const std::string spec : {"torus:dims=4x3", "fattree:k=2,n=3", "mesh:dims=3x2,c=2"}) {
    INFO(spec);
    const fs::path file = scratch() / "export.graphml";
    const Outcome exported = interflow("topo " + spec + " --export " + file.string());
    REQUIRE(exported.status == 0);
    const Outcome original = interflow("static -t " + spec + " -r bfs -p alltoall --json --no-progress");
    const Outcome loaded = interflow("static -t graph:file=" + file.string() + " -p alltoall --json --no-progress");
    REQUIRE(original.status == 0);
    INFO(loaded.err);
    REQUIRE(loaded.status == 0);
    const Json a = parse_json(original.out), b = parse_json(loaded.out);
    CHECK(b["network"]["family"].text == "graph");
    CHECK(b["network"]["endpoints"].number == a["network"]["endpoints"].number);
    CHECK(b["network"]["switches"].number == a["network"]["switches"].number);
    CHECK(b["network"]["cables"].number == a["network"]["cables"].number);
    CHECK(b["network"]["direct"].boolean == a["network"]["direct"].boolean);
    CHECK(b["flows"]["routed"].number == a["flows"]["routed"].number);
    // Both are routed on shortest paths, so the mean path length must agree.
    CHECK(b["path_links"]["mean"].number == doctest::Approx(a["path_links"]["mean"].number));
  }
}

TEST_CASE("cli: dynamic runs a flow list and a Poisson pattern and writes its result files") {
  const fs::path flows = scratch() / "flows.csv";
  write_text(flows, "0,2,1000000,0\n1,3,1000000,0\n");
  const fs::path dir = scratch() / "dynamic";
  const Outcome o = interflow("dynamic -t graph:file=" + std::string(INTERFLOW_SOURCE_DIR) +
                              "/tests/fixtures/dumbbell.ifg -r bfs -f " + flows.string() + " --out " + dir.string() +
                              " --flows-csv --json --no-progress");
  REQUIRE(o.status == 0);
  CHECK(contains(o.out, "\"engine\": \"dynamic\""));
  CHECK(contains(o.out, "\"delivered\": 2"));
  for (const char* name : {"summary.json", "links.csv", "series.csv", "flows.csv"}) CHECK(fs::exists(dir / name));
  // Two 1 MB flows share the 10 Gbit/s cable: both transfers end at 1.6 ms.
  CHECK(contains(o.out, "\"makespan_s\": 0.0016"));
  const Outcome p =
      interflow("dynamic -t fattree:k=4,n=3 -p uniform -b 1e5 --arrival poisson --load 0.3 --no-progress");
  REQUIRE(p.status == 0);
  CHECK(contains(p.out, "Poisson arrivals at 0.3"));
  check_rejected("dynamic -t fattree:k=4,n=3 --arrival sometimes", {"--arrival", "sometimes"});
  check_rejected("dynamic -t fattree:k=4,n=3 --arrival poisson --load 0", {"--load"});
  check_rejected("dynamic -t fattree:k=4,n=3 -f " + (scratch() / "missing.csv").string(), {"missing.csv"});
  check_rejected("dynamic -t fattree:k=4,n=3 -f " + flows.string() + " --phase-size 4", {"--phase-size", "after"});
  const Outcome phased = interflow("dynamic -t fattree:k=4,n=3 -p alltoall -b 1e5 --phase-size 64 --no-progress");
  REQUIRE(phased.status == 0);
  CHECK(contains(phased.out, "in phases of 64 flows"));
}

TEST_CASE("cli: dynamic runs applications with class policies and writes per-application results") {
  const fs::path dir = scratch() / "apps";
  const Outcome o = interflow(
      "dynamic -t fattree:k=4,n=3 -a stencil2d:tasks=16,iters=2 -a graph:tasks=16,placement=random,class=1 "
      "--policy qos --class-cap 0.3,1 --class-priority 0,1 --cpu-scale 2 --max-in-flight 4 --out " +
      dir.string() + " --json --no-progress");
  INFO(o.err);
  REQUIRE(o.status == 0);
  CHECK(contains(o.out, "\"applications\""));
  CHECK(contains(o.out, "\"blocked_tasks\": 0"));
  CHECK(contains(o.out, "\"policy\": \"qos\""));
  for (const char* name : {"summary.json", "apps.csv", "tasks.csv", "links.csv", "series.csv"})
    CHECK(fs::exists(dir / name));
  check_rejected("dynamic -t fattree:k=4,n=3 -a stencil2d:tasks=99", {"99", "endpoints"});
  check_rejected("dynamic -t fattree:k=4,n=3 -a nosuchapp", {"nosuchapp", "stencil2d"});
  check_rejected("dynamic -t fattree:k=4,n=3 -a nbody:tasks=4 --policy qos --class-share 0.5", {"--class-share", "ba"});
  check_rejected("dynamic -t fattree:k=4,n=3 -a nbody:tasks=4 --policy ba --class-cap 0.5", {"--class-cap", "qos"});
  check_rejected("dynamic -t fattree:k=4,n=3 -a nbody:tasks=4,class=2 --policy fp --class-priority 0,1",
                 {"class", "priority"});
}

TEST_CASE("cli: dynamic writes an application as GOAL and VEF traces and replays them") {
  const fs::path goal = scratch() / "nbody.goal", vef = scratch() / "nbody.vef";
  const Outcome first = interflow("dynamic -t fattree:k=4,n=3 -a nbody:tasks=6,compute=1e-6 --write-goal " +
                                  goal.string() + " --write-vef " + vef.string() + " --json --no-progress");
  INFO(first.err);
  REQUIRE(first.status == 0);
  const auto runtime_of = [](const std::string& out) {
    return JsonReader(out).document()["applications"].items.at(0)["runtime_s"].number;
  };
  for (const fs::path& trace : {goal, vef}) {
    const std::string kind = trace.extension() == ".goal" ? "goal" : "vef";
    const Outcome again =
        interflow("dynamic -t fattree:k=4,n=3 -a " + kind + ":file=" + trace.string() + " --json --no-progress");
    INFO(again.err);
    REQUIRE(again.status == 0);
    CHECK(runtime_of(again.out) == doctest::Approx(runtime_of(first.out)).epsilon(1e-9));
  }
  // A deadlocked trace: exit status 3 and who waits for what on stderr.
  const Outcome stuck = interflow("dynamic -t fattree:k=4,n=3 -a goal:file=" + std::string(INTERFLOW_SOURCE_DIR) +
                                  "/tests/fixtures/traces/deadlock.goal --no-progress -q");
  CHECK(stuck.status == 3);
  CHECK(contains(stuck.err, "deadlock: 2 task(s) wait forever"));
  CHECK(contains(stuck.err, "waits for rank 1 to reach the matching"));
  check_rejected("dynamic -t fattree:k=4,n=3 -a goal:file=" + (scratch() / "missing.goal").string(),
                 {"missing.goal", "cannot read the GOAL schedule"});
  check_rejected("dynamic -t fattree:k=4,n=3 -a nbody:tasks=4 -a nbody:tasks=4 --write-goal x.goal",
                 {"--write-goal", "exactly one --app"});
}

TEST_CASE("cli: schedule replays an SWF log and writes per-job results") {
  const fs::path dir = scratch() / "schedule";
  const std::string log = std::string(INTERFLOW_SOURCE_DIR) + "/tests/fixtures/swf/tiny.swf";
  const Outcome o = interflow("schedule --swf " + log + " -p easy --out " + dir.string() + " --json");
  INFO(o.err);
  REQUIRE(o.status == 0);
  const Json summary = JsonReader(o.out).document();
  CHECK(summary["mean_wait_s"].number == doctest::Approx(5.25));
  CHECK(summary["config"]["nodes"].number == 4);
  const auto jobs = lines_of(read_text(dir / "jobs.csv"));
  REQUIRE(jobs.size() == 5);
  CHECK(split_csv(jobs[3])[2] == "2");  // job 3 backfilled at 2 s
  CHECK(fs::exists(dir / "utilisation.csv"));
  CHECK(fs::exists(dir / "summary.json"));
  check_rejected("schedule --swf " + log + " -p nosuch", {"nosuch", "easy"});
  check_rejected("schedule --swf " + (scratch() / "none.swf").string(), {"none.swf", "cannot read the SWF log"});
  check_rejected("schedule -p easy", {"--swf", "--jobs"});
  check_rejected("schedule --jobs 5 --network-aware", {"--job-app"});
}

TEST_CASE("cli: schedule runs a synthetic stream network-aware and reports network slowdowns") {
  const fs::path dir = scratch() / "schedule-net";
  const Outcome o = interflow(
      "schedule --jobs 8 --mean-gap 1e-5 --job-sizes 4,8 --network-aware -t thintree:k=4,kp=2,n=3 "
      "--allocation random --job-app stencil2d:iters=2,bytes=1e5 --job-app nbody:bytes=1e5 --bsld-tau 1e-5 --out " +
      dir.string() + " --json");
  INFO(o.err);
  REQUIRE(o.status == 0);
  const Json summary = JsonReader(o.out).document();
  CHECK(summary["jobs"]["scheduled"].number == 8);
  CHECK(summary["mean_network_slowdown"].number >= 1.0);
  CHECK(summary["config"]["network_aware"].boolean);
  const auto jobs = lines_of(read_text(dir / "jobs.csv"));
  REQUIRE(jobs.size() == 9);
  CHECK(contains(jobs[0], "isolated_runtime_s,network_slowdown"));
  CHECK(!split_csv(jobs[1]).back().empty());

  // Jobs from an INRFlow workload file, placed by locality: alone in their switches, never slowed.
  const fs::path wl = scratch() / "jobs.txt";
  write_text(wl, "0 stencil2d_2x2_100000_2 4 sequential\n5000 nbody 8 random\n5000 all2all 4 random\n");
  const Outcome w = interflow("schedule --inrflow-workload " + wl.string() +
                              " --network-aware -t fattree:k=4,n=3 --allocation locality --bsld-tau 1e-5 --json");
  INFO(w.err);
  REQUIRE(w.status == 0);
  const Json ws = JsonReader(w.out).document();
  CHECK(ws["jobs"]["scheduled"].number == 3);
  CHECK(ws["config"]["source"].text == "inrflow");
  CHECK(ws["mean_network_slowdown"].number == doctest::Approx(1.0));
  check_rejected("schedule --inrflow-workload " + wl.string(), {"--inrflow-workload", "--network-aware"});
  check_rejected("schedule --jobs 3 --allocation locality", {"locality", "--network-aware"});
}

TEST_CASE("cli: --config reads a TOML experiment file") {
  const fs::path file = scratch() / "experiment.toml";
  write_text(file, "# a small experiment\ntopology = \"torus:dims=3x3\"\npattern = \"shift:s=2\"\nseed = 7\n");
  const Outcome o = interflow("static --config " + file.string() + " --json --no-progress");
  INFO(o.err);
  REQUIRE(o.status == 0);
  const Json summary = parse_json(o.out);
  CHECK(summary["seed"].number == 7);
  CHECK(summary["config"]["topology"].text == "torus:dims=3x3");
  CHECK(summary["config"]["pattern"].text == "shift:s=2");
  CHECK(summary["flows"]["total"].number == 9);

  // The command line overrides the file.
  const Outcome override = interflow("static --config " + file.string() + " -s 9 --json --no-progress");
  REQUIRE(override.status == 0);
  CHECK(parse_json(override.out)["seed"].number == 9);

  // Keys may also sit in a [static] section and use '_' for '-'.
  const fs::path sectioned = scratch() / "sectioned.toml";
  write_text(sectioned, "[static]\ntopology = \"torus:dims=4\"\nswitch_gbps = 40\nquiet = true\n");
  const Outcome quiet = interflow("static --config " + sectioned.string() + " --no-progress --out " +
                                  (scratch() / "out-config").string());
  REQUIRE(quiet.status == 0);
  CHECK(quiet.out.empty());
  const Json written = parse_json(read_text(scratch() / "out-config" / "summary.json"));
  CHECK(written["config"]["switch_gbps"].number == 40);
  CHECK(written["network"]["endpoints"].number == 4);

  const fs::path bad = scratch() / "bad.toml";
  write_text(bad, "topology = \"nosuch\"\n");
  check_rejected("static --config " + bad.string(), {"nosuch"});
  const fs::path unknown = scratch() / "unknown.toml";
  write_text(unknown, "topolgy = \"torus:dims=4\"\n");
  check_rejected("static --config " + unknown.string(), {unknown.string(), "topolgy"});
  const fs::path not_a_number = scratch() / "nan.toml";
  write_text(not_a_number, "seed = \"seven\"\n");
  check_rejected("static --config " + not_a_number.string(), {not_a_number.string(), "seed"});
  check_rejected("static --config " + (scratch() / "missing.toml").string(), {"missing.toml"});
}
