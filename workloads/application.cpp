#include "workloads/application.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/error.hpp"
#include "workloads/text_lines.hpp"

namespace interflow::workloads {

std::vector<ParamSpec> app_params(std::vector<ParamSpec> own) {
  own.push_back(int_param("tasks", "0", "number of tasks; 0 = every endpoint not taken by an earlier application", 0,
                          4294967295.0));
  own.push_back(choice_param("placement", "consecutive", {"consecutive", "random"},
                             "which free endpoints the tasks run on: the first ones in id order, or drawn at random"));
  own.push_back(string_param("mapping", "none",
                             "a file with the endpoint of every task (one id per task, in task order; none = use "
                             "placement)"));
  own.push_back(int_param("class", "0", "service class of the application's messages", 0, 254));
  own.push_back(real_param("arrival", "0", "when the application's tasks start (seconds)", 0));
  return own;
}

EndpointPool::EndpointPool(std::uint32_t endpoints) : used_(endpoints, 0), free_count_(endpoints) {}

void EndpointPool::check(std::uint32_t count, const std::string& who) const {
  if (count > free_count_)
    throw InputError(who + " needs " + std::to_string(count) + " endpoints but only " + std::to_string(free_count_) +
                     " are free");
}

std::vector<EndpointId> EndpointPool::take_consecutive(std::uint32_t count, const std::string& who) {
  check(count, who);
  std::vector<EndpointId> out;
  out.reserve(count);
  for (EndpointId e = 0; out.size() < count; ++e)
    if (!used_[e]) {
      used_[e] = 1;
      out.push_back(e);
    }
  free_count_ -= count;
  return out;
}

std::vector<EndpointId> EndpointPool::take_random(std::uint32_t count, Rng& rng, const std::string& who) {
  check(count, who);
  std::vector<EndpointId> candidates;
  candidates.reserve(free_count_);
  for (EndpointId e = 0; e < used_.size(); ++e)
    if (!used_[e]) candidates.push_back(e);
  // A partial Fisher-Yates shuffle picks `count` of them uniformly.
  for (std::uint32_t i = 0; i < count; ++i) std::swap(candidates[i], candidates[i + rng.below(candidates.size() - i)]);
  candidates.resize(count);
  for (EndpointId e : candidates) used_[e] = 1;
  free_count_ -= count;
  return candidates;
}

std::vector<EndpointId> EndpointPool::take_mapped(std::uint32_t count, const std::string& path,
                                                  const std::string& who) {
  TextLines in(path, "mapping file of " + who);
  std::vector<EndpointId> out;
  out.reserve(count);
  while (in.next())
    while (!in.at_end()) {
      const std::uint64_t e = in.whole(in.token(), "endpoint id");
      if (out.size() == count) in.fail("more endpoints than the " + std::to_string(count) + " tasks of " + who);
      if (e >= used_.size())
        in.fail("endpoint " + std::to_string(e) + " is beyond the network's " + std::to_string(used_.size()));
      if (used_[e]) in.fail("endpoint " + std::to_string(e) + " is already taken (by this or another application)");
      used_[e] = 1;
      out.push_back(static_cast<EndpointId>(e));
    }
  if (out.size() != count)
    throw InputError(path + ": lists " + std::to_string(out.size()) + " endpoints for the " + std::to_string(count) +
                     " tasks of " + who);
  free_count_ -= count;
  return out;
}

Application make_application(const AppRegistry& registry, const Spec& spec, std::uint32_t index, EndpointPool& pool,
                             const AppSettings& settings) {
  const ParamSet params = registry.validate(spec);
  const std::string who = "application " + std::to_string(index) + " (" + spec.text + ")";
  auto tasks = static_cast<std::uint32_t>(params.get_int("tasks"));
  AppContext ctx;
  ctx.seed = derive_seed(settings.seed, Stream::Application, index);
  ctx.endpoint_gbps = settings.endpoint_gbps;
  ctx.patterns = settings.patterns;
  ctx.apps = &registry;
  ctx.free_endpoints = pool.free();
  const auto kernel = registry.create(spec);
  Application app;
  if (std::optional<OpGraph> graph = kernel->trace(ctx)) {
    if (tasks != 0 && tasks != graph->ranks)
      throw InputError(who + ": tasks=" + std::to_string(tasks) + " but the trace has " + std::to_string(graph->ranks) +
                       " ranks");
    tasks = graph->ranks;
    app.graph = std::move(*graph);
  }
  if (tasks == 0) tasks = pool.free();
  if (tasks == 0) throw InputError(who + ": no free endpoint is left for it");
  app.name = spec.text;
  app.service_class = static_cast<std::uint32_t>(params.get_int("class"));
  app.arrival_s = params.get_real("arrival");
  Rng rng(derive_seed(settings.seed, Stream::Placement, index));
  const std::string& mapping = params.get_string("mapping");
  app.placement = mapping != "none"                            ? pool.take_mapped(tasks, mapping, who)
                  : params.get_string("placement") == "random" ? pool.take_random(tasks, rng, who)
                                                               : pool.take_consecutive(tasks, who);
  if (app.is_graph()) return app;
  ctx.tasks = tasks;
  app.data_ranks = kernel->data_ranks(ctx);
  app.phases = kernel->phases(ctx);
  app.placement.resize(std::size_t{tasks} + app.data_ranks, kNone);
  ProgramBuilder builder(tasks + app.data_ranks);
  kernel->generate(ctx, builder);
  app.program = builder.build();
  return app;
}

void exchange_phase(ProgramBuilder& b, std::uint32_t tasks, const FlowSet& flows, std::size_t first, std::size_t last,
                    double bytes, std::uint32_t tag) {
  std::vector<std::uint8_t> involved(tasks, 0);
  for (std::size_t f = first; f < last; ++f) {
    if (flows.src[f] == flows.dst[f]) continue;
    b.irecv(flows.dst[f], flows.src[f], bytes, tag);
    involved[flows.dst[f]] = 1;
  }
  for (std::size_t f = first; f < last; ++f) {
    if (flows.src[f] == flows.dst[f]) continue;
    b.isend(flows.src[f], flows.dst[f], bytes, tag);
    involved[flows.src[f]] = 1;
  }
  for (std::uint32_t t = 0; t < tasks; ++t)
    if (involved[t]) b.wait(t);
}

std::vector<std::uint32_t> grid_dims(std::uint32_t tasks, std::size_t d, const std::vector<std::uint32_t>& given,
                                     const ParamSet& params) {
  if (!given.empty()) {
    std::uint64_t product = 1;
    for (std::uint32_t x : given) product *= x;
    if (given.size() != d || product != tasks)
      params.fail("dims",
                  "expected " + std::to_string(d) + " sizes whose product is the " + std::to_string(tasks) + " tasks");
    return given;
  }
  // The most balanced factorisation: the smallest largest side, then the largest smallest side.
  std::vector<std::uint32_t> best;
  const auto consider = [&](std::vector<std::uint32_t> dims) {
    std::sort(dims.rbegin(), dims.rend());
    if (best.empty() || dims.front() < best.front() || (dims.front() == best.front() && dims.back() > best.back()))
      best = dims;
  };
  if (d == 1) return {tasks};
  for (std::uint32_t a = 1; a <= tasks; ++a) {
    if (tasks % a != 0) continue;
    const std::uint32_t rest = tasks / a;
    if (d == 2) {
      consider({a, rest});
      continue;
    }
    for (std::uint32_t b = 1; b <= rest; ++b)
      if (rest % b == 0) consider({a, b, rest / b});
  }
  return best;
}

void register_apps(AppRegistry& registry) {
  register_phased_pattern_app(registry);
  register_scientific_apps(registry);
  register_datacentre_apps(registry);
  register_collective_app(registry);
  register_hpc_apps(registry);
  register_background_apps(registry);
  register_trace_apps(registry);
  register_markov_app(registry);
}

}  // namespace interflow::workloads
