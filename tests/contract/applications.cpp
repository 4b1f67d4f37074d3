// The application contract: every registered kernel, with its example, the trace fixtures of the trace
// kernels, or its defaults, builds (its program and the operation graph it runs as), gives the same
// application twice for a seed, and names only tasks of the application and free endpoints.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "tests/contract/contract_support.hpp"

using namespace interflow;

namespace {

constexpr std::uint32_t kEndpoints = 64;
constexpr std::uint64_t kSeed = 5;

// The trace kernels read files: every fixture of their format.
const std::map<std::string, std::vector<std::string>>& trace_fixtures() {
  static const std::map<std::string, std::vector<std::string>> fixtures{
      {"goal",
       {"goal:file=tests/fixtures/traces/token_ring.goal", "goal:file=tests/fixtures/traces/compute_only.goal",
        "goal:file=tests/fixtures/traces/irequires.goal", "goal:file=tests/fixtures/traces/deadlock.goal"}},
      {"vef", {"vef:file=tests/fixtures/traces/allreduce8.vef", "vef:file=tests/fixtures/traces/chain.vef"}},
      {"trc", {"trc:file=tests/fixtures/traces/ring.trc"}}};
  return fixtures;
}

// The example of the kernel's registration, the trace fixtures of its format, or its bare name.
std::vector<std::string> kernel_specs(const workloads::AppRegistry::Entry& entry) {
  if (!entry.example.empty()) return {entry.example};
  if (const auto f = trace_fixtures().find(entry.name); f != trace_fixtures().end()) return f->second;
  return {entry.name};
}

// The spec with random placement, so that placement is drawn from the seed too.
std::string placed_at_random(const std::string& spec) {
  return spec + (spec.find(':') == std::string::npos ? ":" : ",") + "placement=random";
}

Application make(const std::string& spec) {
  workloads::EndpointPool pool(kEndpoints);
  workloads::AppSettings settings;
  settings.seed = kSeed;
  settings.patterns = &contract::registries().patterns;
  return workloads::make_application(contract::registries().apps, Spec::parse(spec, "--app"), 0, pool, settings);
}

void check_same(const Program& a, const Program& b) {
  CHECK(a.tasks == b.tasks);
  CHECK(a.offsets == b.offsets);
  CHECK(a.kind == b.kind);
  CHECK(a.peer == b.peer);
  CHECK(a.tag == b.tag);
  CHECK(a.value == b.value);
  CHECK(a.klass == b.klass);
}

void check_same(const OpGraph& a, const OpGraph& b) {
  CHECK(a.ranks == b.ranks);
  CHECK(a.rank_offsets == b.rank_offsets);
  CHECK(a.rank == b.rank);
  CHECK(a.kind == b.kind);
  CHECK(a.peer == b.peer);
  CHECK(a.tag == b.tag);
  CHECK(a.value == b.value);
  CHECK(a.flags == b.flags);
  CHECK(a.klass == b.klass);
  CHECK(a.match == b.match);
  CHECK(a.dep_offsets == b.dep_offsets);
  CHECK(a.deps == b.deps);
  CHECK(a.not_before == b.not_before);
  CHECK(a.message_key == b.message_key);
}

void check_program(const Program& p) {
  REQUIRE(p.offsets.size() == p.tasks + std::size_t{1});
  CHECK(p.offsets.back() == p.size());
  for (std::size_t op = 0; op < p.size(); ++op)
    if (is_send(p.kind[op]) || is_receive(p.kind[op])) {
      CAPTURE(op);
      CHECK(p.peer[op] < p.tasks);
    }
}

void check_graph(const OpGraph& g) {
  REQUIRE(g.built());
  for (std::uint32_t op = 0; op < g.size(); ++op) {
    CAPTURE(op);
    CHECK(g.rank_of(op) < g.ranks);
    if (g.kind[op] != GraphOp::Calc) CHECK(g.peer[op] < g.ranks);
    CHECK((g.match[op] == kNoOp || g.match[op] < g.size()));
    for (const std::uint32_t entry : g.deps_of(op)) CHECK(OpGraph::decode(entry).op < g.size());
  }
}

void check_application(const std::string& spec) {
  INFO("application " << spec);
  Application app;
  try {
    app = make(spec);
  } catch (const InputError& e) {
    FAIL("it does not build from " << spec << " (" << e.what() << "); give its registration an example");
  }
  const Application again = make(spec);
  CHECK(again.name == app.name);
  CHECK(again.placement == app.placement);
  CHECK(again.service_class == app.service_class);
  CHECK(again.arrival_s == app.arrival_s);
  CHECK(again.data_ranks == app.data_ranks);
  check_same(again.program, app.program);
  check_same(again.graph, app.graph);

  REQUIRE(app.tasks() > 0);
  REQUIRE(app.placement.size() == app.tasks());
  // Data ranks (workloads/app_markov.cpp) are left for a storage placement policy.
  for (std::uint32_t d = app.compute_tasks(); d < app.tasks(); ++d) CHECK(app.placement[d] == kNone);
  std::vector<EndpointId> endpoints(app.placement.begin(), app.placement.begin() + app.compute_tasks());
  std::sort(endpoints.begin(), endpoints.end());
  CHECK_MESSAGE(std::adjacent_find(endpoints.begin(), endpoints.end()) == endpoints.end(), "one task per endpoint");
  CHECK(endpoints.back() < kEndpoints);
  if (app.is_graph())
    check_graph(app.graph);
  else
    check_program(app.program);
  // The operation graph the driver runs it as builds (ranks and peers in range, no dependency cycle).
  OpGraph runs_as;
  CHECK_NOTHROW(runs_as = graph_form(app));
  check_graph(runs_as);
  CHECK(runs_as.ranks == app.tasks());
}

}  // namespace

TEST_CASE("contract: every application kernel builds the same application twice for a seed with peers in range") {
  for (const auto& entry : contract::registries().apps.entries()) {
    SUBCASE(("application " + entry.name).c_str()) {
      for (const std::string& spec : kernel_specs(entry))
        check_application(placed_at_random(contract::in_source_tree(spec)));
    }
  }
}
