// Datacentre pseudo-applications (Navaridas et al. 2019, §3.3.3): MapReduce, unstructured graph analytics and
// dcntraffic.
#include <algorithm>
#include <cmath>

#include "workloads/application.hpp"

namespace interflow::workloads {

namespace {

// Task 0 is the master; tasks 1..n-1 are workers. The master sends `input` bytes to every worker;
// each worker maps (compute), sends `shuffle` bytes to each reducer (the first `reducers` workers, all
// of them by default), reduces (compute) and sends `output` bytes back to the master.
class MapReduce : public AppKernel {
 public:
  explicit MapReduce(const ParamSet& p) : p_(p) {}
  void generate(const AppContext& ctx, ProgramBuilder& b) const override {
    const std::uint32_t n = ctx.tasks;
    if (n < 2) p_.fail("tasks", "MapReduce needs a master and at least one worker (2 tasks)");
    const std::uint32_t workers = n - 1;
    const auto r = static_cast<std::uint32_t>(p_.get_int("reducers"));
    const std::uint32_t reducers = r == 0 || r > workers ? workers : r;
    const double input = p_.get_real("input"), shuffle = p_.get_real("shuffle"), output = p_.get_real("output");
    std::vector<std::uint32_t> reducer(reducers);
    std::vector<std::uint8_t> is_reducer(n, 0);
    if (p_.get_string("reducers_at") == "random") {
      // Distinct workers drawn from the application's seed (a partial Fisher-Yates shuffle), listed in
      // task order.
      std::vector<std::uint32_t> pool(workers);
      for (std::uint32_t w = 0; w < workers; ++w) pool[w] = w + 1;
      Rng rng(ctx.seed);
      for (std::uint32_t k = 0; k < reducers; ++k)
        std::swap(pool[k], pool[k + static_cast<std::uint32_t>(rng.below(workers - k))]);
      std::copy(pool.begin(), pool.begin() + reducers, reducer.begin());
      std::sort(reducer.begin(), reducer.end());
    } else {
      for (std::uint32_t k = 0; k < reducers; ++k)
        reducer[k] = 1 + static_cast<std::uint32_t>(std::uint64_t{k} * workers / reducers);
    }
    for (std::uint32_t k : reducer) is_reducer[k] = 1;
    for (std::uint32_t w = 1; w < n; ++w) b.isend(0, w, input, 0);
    b.wait(0);
    for (std::uint32_t w = 1; w < n; ++w) {
      b.recv(w, 0, input, 0);
      b.compute(w, p_.get_real("map"));
      if (is_reducer[w])
        for (std::uint32_t m = 1; m < n; ++m)
          if (m != w) b.irecv(w, m, shuffle, 1);
      for (std::uint32_t k = 0; k < reducers; ++k)
        if (reducer[k] != w) b.isend(w, reducer[k], shuffle, 1);
      b.wait(w);
      if (is_reducer[w]) {
        b.compute(w, p_.get_real("reduce"));
        b.send(w, 0, output, 2);
      }
    }
    for (std::uint32_t k = 0; k < reducers; ++k) b.irecv(0, reducer[k], output, 2);
    b.wait(0);
  }

 private:
  ParamSet p_;
};

// Unstructured graph analytics in supersteps: every task sends `degree` messages to tasks drawn at
// random (not itself), receives what was sent to it, waits, computes.
class GraphAnalytics : public AppKernel {
 public:
  explicit GraphAnalytics(const ParamSet& p) : p_(p) {}
  void generate(const AppContext& ctx, ProgramBuilder& b) const override {
    const std::uint32_t n = ctx.tasks;
    if (n < 2) p_.fail("tasks", "needs at least 2 tasks");
    const auto degree = static_cast<std::uint32_t>(p_.get_int("degree"));
    const double bytes = p_.get_real("bytes"), compute = p_.get_real("compute");
    Rng rng(ctx.seed);
    std::vector<std::uint32_t> dst(std::size_t{n} * degree), incoming_offsets(n + 1), incoming;
    for (std::int64_t step = 0; step < p_.get_int("iters"); ++step) {
      const auto tag = static_cast<std::uint32_t>(step);
      std::fill(incoming_offsets.begin(), incoming_offsets.end(), 0u);
      for (std::uint32_t t = 0; t < n; ++t)
        for (std::uint32_t k = 0; k < degree; ++k) {
          auto d = static_cast<std::uint32_t>(rng.below(n - 1));
          d += d >= t ? 1 : 0;
          dst[std::size_t{t} * degree + k] = d;
          ++incoming_offsets[d + 1];
        }
      for (std::uint32_t t = 0; t < n; ++t) incoming_offsets[t + 1] += incoming_offsets[t];
      incoming.resize(incoming_offsets[n]);
      std::vector<std::uint32_t> cursor(incoming_offsets.begin(), incoming_offsets.end() - 1);
      for (std::uint32_t t = 0; t < n; ++t)
        for (std::uint32_t k = 0; k < degree; ++k) incoming[cursor[dst[std::size_t{t} * degree + k]]++] = t;
      for (std::uint32_t t = 0; t < n; ++t) {
        for (std::uint32_t i = incoming_offsets[t]; i < incoming_offsets[t + 1]; ++i)
          b.irecv(t, incoming[i], bytes, tag);
        for (std::uint32_t k = 0; k < degree; ++k) b.isend(t, dst[std::size_t{t} * degree + k], bytes, tag);
        b.wait(t);
        b.compute(t, compute);
      }
    }
  }

 private:
  ParamSet p_;
};

// Datacentre traffic after Kandula et al. (IMC'09) as INRFlow's dcntraffic models it: most flows are
// short, a fifth carry most of the bytes. Each task sends `flows` messages to random other tasks,
// separated by exponential gaps of mean `gap`, and receives what is sent to it.
class DcnTraffic : public AppKernel {
 public:
  explicit DcnTraffic(const ParamSet& p) : p_(p) {}
  void generate(const AppContext& ctx, ProgramBuilder& b) const override {
    const std::uint32_t n = ctx.tasks;
    if (n < 2) p_.fail("tasks", "needs at least 2 tasks");
    const auto flows = static_cast<std::uint32_t>(p_.get_int("flows"));
    const double long_fraction = p_.get_real("long_fraction"), gap = p_.get_real("gap");
    const double s0 = p_.get_real("short_min"), s1 = p_.get_real("short_max");
    const double l0 = p_.get_real("long_min"), l1 = p_.get_real("long_max");
    if (s1 < s0) p_.fail("short_max", "expected short_max >= short_min");
    if (l1 < l0) p_.fail("long_max", "expected long_max >= long_min");
    Rng rng(ctx.seed);
    struct Message {
      std::uint32_t src, dst;
      double bytes, gap;
    };
    std::vector<Message> messages;
    messages.reserve(std::size_t{n} * flows);
    for (std::uint32_t t = 0; t < n; ++t)
      for (std::uint32_t k = 0; k < flows; ++k) {
        auto d = static_cast<std::uint32_t>(rng.below(n - 1));
        d += d >= t ? 1 : 0;
        const bool is_long = rng.uniform() < long_fraction;
        const double bytes = std::round(is_long ? l0 + (l1 - l0) * rng.uniform() : s0 + (s1 - s0) * rng.uniform());
        messages.push_back({t, d, bytes, gap > 0 ? -std::log(1.0 - rng.uniform()) * gap : 0.0});
      }
    // Receives first (posted up front, in the senders' order), then each task's sends with their gaps.
    for (const Message& m : messages) b.irecv(m.dst, m.src, m.bytes, 0);
    for (const Message& m : messages) {
      b.delay(m.src, m.gap);
      b.isend(m.src, m.dst, m.bytes, 0);
    }
    for (std::uint32_t t = 0; t < n; ++t) b.wait(t);
  }

 private:
  ParamSet p_;
};

}  // namespace

void register_datacentre_apps(AppRegistry& registry) {
  registry.add({"mapreduce",
                "MapReduce: the master scatters input, workers map, shuffle to the reducers, reduce, and "
                "gather results to the master",
                app_params({real_param("input", "1e6", "bytes the master sends to each worker", 0, kMaxBytes),
                            real_param("shuffle", "1e5", "bytes each worker sends to each reducer", 0, kMaxBytes),
                            real_param("output", "1e5", "bytes each reducer returns to the master", 0, kMaxBytes),
                            int_param("reducers", "0", "reducers among the workers (0 = all)", 0, 4294967295.0),
                            choice_param("reducers_at", "even", {"even", "random"},
                                         "which workers reduce: evenly spaced in task order, or drawn at random"),
                            real_param("map", "0", "map computation per worker (seconds)", 0),
                            real_param("reduce", "0", "reduce computation per reducer (seconds)", 0)}),
                [](const ParamSet& p) -> std::unique_ptr<AppKernel> { return std::make_unique<MapReduce>(p); },
                "Task 0 is the master and sends `input` bytes to every worker (non-blocking, then waits). A "
                "worker receives its input, computes for `map` seconds, posts receives from every other "
                "worker if it is a reducer, sends `shuffle` bytes to every reducer but itself, waits, and a "
                "reducer then computes for `reduce` seconds and sends `output` bytes to the master, which "
                "waits for all of them. With R reducers and W workers the shuffle has W·R − R messages (an "
                "all-to-all among the workers when R = W). Reducers are the workers 1 + ⌊k·W/R⌋ "
                "(`reducers_at=even`) or R distinct workers drawn from the application's seed "
                "(`reducers_at=random`). Evenly spaced reducers can line up with a power-of-two torus: on a "
                "64x32x32 torus 31 of 32 land on one ring of the last dimension, so nearly every shuffle message "
                "ends on that ring."});
  registry.add(
      {"graph",
       "unstructured graph analytics: supersteps of messages to random tasks, each superstep "
       "waiting for the previous one's messages",
       app_params({int_param("degree", "4", "messages each task sends per superstep", 1, 1e6),
                   real_param("bytes", "4096", "bytes per message", 0, kMaxBytes), int_param("iters", "10", "supersteps", 1, 1e9),
                   real_param("compute", "0", "computation per task and superstep (seconds)", 0)}),
       [](const ParamSet& p) -> std::unique_ptr<AppKernel> { return std::make_unique<GraphAnalytics>(p); },
       "Causal random traffic in the style of bulk-synchronous graph processing: in every superstep "
       "each task sends `degree` messages of `bytes` to tasks drawn uniformly at random (not "
       "itself, from the application's seed), posts receives for the messages addressed to it, waits "
       "for all of them, and computes. A task starts superstep s+1 once its own messages of "
       "superstep s are sent and received."});
  registry.add({"dcntraffic",
                "datacentre flows: 80 % short, 20 % long (after Kandula et al., IMC'09), random destinations, "
                "exponential gaps",
                app_params({int_param("flows", "10", "messages each task sends", 1, 1e9),
                            real_param("long_fraction", "0.2", "fraction of long messages", 0, 1),
                            real_param("short_min", "1024", "smallest short message (bytes)", 0, kMaxBytes),
                            real_param("short_max", "16384", "largest short message (bytes)", 0, kMaxBytes),
                            real_param("long_min", "16384", "smallest long message (bytes)", 0, kMaxBytes),
                            real_param("long_max", "1537024", "largest long message (bytes)", 0, kMaxBytes),
                            real_param("gap", "1e-4", "mean gap between a task's sends (seconds, exponential)", 0)}),
                [](const ParamSet& p) -> std::unique_ptr<AppKernel> { return std::make_unique<DcnTraffic>(p); },
                "Each task sends `flows` messages to destinations drawn uniformly among the other tasks; a "
                "message is long with probability `long_fraction` and its size is uniform in the long or the "
                "short range. The default ranges are INRFlow's dcntraffic ranges (1–16 and 16–1501 units) "
                "read as KiB; Kandula et al. measured that most flows are mice of a few KB while most bytes "
                "travel in a few large flows. Before each send the task idles for an exponential gap of mean "
                "`gap` (not scaled by the CPU factor); every task posts its receives first and waits at the "
                "end."});
}

}  // namespace interflow::workloads
