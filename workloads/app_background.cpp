// Synthetic background jobs for interference studies (Mubarak et al. 2019, §IV-C2): every task injects messages
// at a fixed fraction of its endpoint's injection capacity, open loop (non-blocking sends separated by
// fixed gaps, whatever the network does with them), to uniformly random destinations or along a
// rotating random permutation. Receivers take whatever is addressed to them.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "workloads/application.hpp"

namespace interflow::workloads {

namespace {

struct Message {
  std::uint32_t src, dst;
  std::uint64_t slot;  // the sender's injection slot: sent at slot x gap after the job starts
};

// The injection schedule shared by both jobs: message size, gap between injections, messages per task.
struct Injection {
  double bytes = 0, gap_s = 0;
  std::uint64_t messages = 0;
};

Injection injection(const ParamSet& p, const AppContext& ctx) {
  Injection in;
  in.bytes = p.get_real("bytes");
  const double rate = p.get_real("rate");
  // One message of `bytes` every gap keeps the endpoint injecting at rate x its capacity.
  in.gap_s = in.bytes * 8 / (rate * ctx.endpoint_gbps * 1e9);
  const double duration = p.get_real("duration");
  in.messages = duration > 0 ? static_cast<std::uint64_t>(std::ceil(duration / in.gap_s))
                             : static_cast<std::uint64_t>(p.get_int("messages"));
  if (static_cast<double>(in.messages) * ctx.tasks > 2e9)
    p.fail(duration > 0 ? "duration" : "messages", "more than 2e9 messages in the job; expected fewer");
  return in;
}

// Receives first (posted up front, in each sender's order, so MPI matching pairs them in order), then
// each task's injections at their slots, then a wait for everything. Messages are in slot order per
// sender.
void emit(ProgramBuilder& b, std::uint32_t tasks, const std::vector<Message>& messages, const Injection& in) {
  for (const Message& m : messages) b.irecv(m.dst, m.src, in.bytes, 0);
  std::vector<std::uint64_t> next_slot(tasks, 0);
  for (const Message& m : messages) {
    b.delay(m.src, static_cast<double>(m.slot - next_slot[m.src]) * in.gap_s);
    next_slot[m.src] = m.slot;
    b.isend(m.src, m.dst, in.bytes, 0);
  }
  for (std::uint32_t t = 0; t < tasks; ++t) b.wait(t);
}

std::uint32_t random_other(Rng& rng, std::uint32_t n, std::uint32_t self) {
  auto d = static_cast<std::uint32_t>(rng.below(n - 1));
  return d + (d >= self ? 1 : 0);
}

class UniformBackground : public AppKernel {
 public:
  explicit UniformBackground(const ParamSet& p) : p_(p) {}
  void generate(const AppContext& ctx, ProgramBuilder& b) const override {
    const std::uint32_t n = ctx.tasks;
    if (n < 2) p_.fail("tasks", "needs at least 2 tasks");
    const Injection in = injection(p_, ctx);
    Rng rng(ctx.seed);
    std::vector<Message> messages;
    messages.reserve(n * in.messages);
    for (std::uint32_t t = 0; t < n; ++t)
      for (std::uint64_t k = 0; k < in.messages; ++k) messages.push_back({t, random_other(rng, n, t), k});
    emit(b, n, messages, in);
  }

 private:
  ParamSet p_;
};

// Each task sends to one destination until `switch_bytes` have gone there, then moves on. The
// destinations of a round form a random permutation of the tasks (a task mapped to itself stays idle
// for the round), so each task receives from one sender at a time.
class RotatingPermutation : public AppKernel {
 public:
  explicit RotatingPermutation(const ParamSet& p) : p_(p) {}
  void generate(const AppContext& ctx, ProgramBuilder& b) const override {
    const std::uint32_t n = ctx.tasks;
    if (n < 2) p_.fail("tasks", "needs at least 2 tasks");
    const Injection in = injection(p_, ctx);
    const double switch_bytes = p_.get_real("switch_bytes");
    if (switch_bytes < in.bytes) p_.fail("switch_bytes", "expected at least one message's bytes");
    const auto per_round = static_cast<std::uint64_t>(std::floor(switch_bytes / in.bytes));
    Rng rng(ctx.seed);
    std::vector<std::uint32_t> perm(n);
    std::vector<Message> messages;
    messages.reserve(n * in.messages);
    for (std::uint64_t sent = 0; sent < in.messages; sent += per_round) {
      std::iota(perm.begin(), perm.end(), 0u);
      for (std::uint32_t i = n - 1; i > 0; --i) std::swap(perm[i], perm[static_cast<std::uint32_t>(rng.below(i + 1))]);
      const std::uint64_t count = std::min(per_round, in.messages - sent);
      for (std::uint32_t t = 0; t < n; ++t)
        if (perm[t] != t)
          for (std::uint64_t k = 0; k < count; ++k) messages.push_back({t, perm[t], sent + k});
    }
    // A task's messages must be in time order per task: sort by sender, keeping each sender's order.
    std::stable_sort(messages.begin(), messages.end(),
                     [](const Message& a, const Message& c) { return a.src < c.src; });
    emit(b, n, messages, in);
  }

 private:
  ParamSet p_;
};

std::vector<ParamSpec> injection_params() {
  return {real_param("bytes", "1048576", "bytes per message", 1, kMaxBytes),
          real_param("rate", "0.1", "injection rate: fraction of the endpoint link's capacity", 1e-6, 1),
          int_param("messages", "100", "messages each task injects (unless duration is given)", 1, 1e12),
          real_param("duration", "0", "inject for this long instead (seconds; 0: use messages)", 0)};
}

}  // namespace

void register_background_apps(AppRegistry& registry) {
  registry.add({"uniform_bg",
                "background job: each task injects messages to uniformly random tasks at a fixed rate (open loop)",
                app_params(injection_params()),
                [](const ParamSet& p) -> std::unique_ptr<AppKernel> { return std::make_unique<UniformBackground>(p); },
                "The uniform-random background traffic of Mubarak et al. 2019, §IV-C2. Every task sends "
                "`messages` messages of `bytes` (or as many as fit in `duration`) to tasks drawn uniformly at "
                "random (not itself), one every "
                "bytes·8 / (rate · endpoint capacity) seconds — non-blocking, so the injection schedule does "
                "not slow down when the network does — and receives what is sent to it. `rate` is the "
                "fraction of the injection link's capacity (Mubarak et al. 2019 sweep 2 % to 36.5 %)."});
  registry.add(
      {"permutation_bg", "background job: rotating random permutation at a fixed injection rate (open loop)",
       app_params([] {
         auto params = injection_params();
         params.push_back(
             real_param("switch_bytes", "1048576", "bytes sent to one destination before moving to the next", 1, kMaxBytes));
         return params;
       }()),
       [](const ParamSet& p) -> std::unique_ptr<AppKernel> { return std::make_unique<RotatingPermutation>(p); },
       "The rotating random permutation of Mubarak et al. 2019, §IV-C2: each task sends to one "
       "destination until `switch_bytes` have gone there (floor(switch_bytes / bytes) messages), then "
       "moves to its next one; the "
       "destinations of each round form a uniformly random permutation of the tasks (a task drawn to "
       "itself stays idle for the round). Injection as in `uniform_bg`: one message every bytes·8 / (rate · "
       "endpoint capacity) seconds, non-blocking. Mubarak et al. 2019 scale switch_bytes from 250 KiB to 8 MiB."});
}

}  // namespace interflow::workloads
