// The Markov-chain application (Navaridas et al. 2019, §3.3.4 and Fig. 4; Pascual Saiz et al. 2018):
// the application walks a chain of states (workloads/markov.hpp) and each state becomes operations of
// every task. Storage accesses go to the task's data ranks: rank T + r·T + t holds replica r of task
// t's data (T tasks); where those ranks live — the task's own NVM, another node's, a SAN server — is
// the data placement policy's choice (storage/), so one application runs under every policy.
//
//   Init   each task loads min(data, cache) bytes of its data into memory (a Read of that size)
//   Comp   each task computes for an exponential time of rate λ (or exactly 1/λ), drawn per task
//   Comm   one phase of a pattern among the tasks: receives posted, sends started, both awaited
//          (nothing for an application of one task)
//   Read   each task asks its data's first replica (a request of request_bytes) and receives the
//          part of read_bytes its memory cache does not hold: read_bytes × (1 − min(1, cache/data))
//   Write  each task sends write_bytes to every replica of its data and waits for the sends
//   End    each task writes result_bytes back to every replica (its data's origin)
//
// Storage messages travel in io_class (Navaridas et al.'s I/O class, so NP/BA/FP apply between App
// and I/O traffic); Comm messages in the application's class.
#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "workloads/application.hpp"
#include "workloads/markov.hpp"

namespace interflow::workloads {

namespace {

// Writes the programs of one application for a trajectory, state by state.
class MarkovProgram {
 public:
  MarkovProgram(const ParamSet& p, const AppContext& ctx, ProgramBuilder& b, std::uint32_t replicas,
                std::uint8_t io_class)
      : p_(p), ctx_(ctx), b_(b), tasks_(ctx.tasks), replicas_(replicas), io_class_(io_class),
        durations_(derive_seed(ctx.seed, 2)) {}

  void write(const std::vector<MarkovState>& path) {
    for (std::size_t step = 0; step < path.size(); ++step) {
      b_.set_label(static_cast<std::uint32_t>(step));
      run_state(path[step], step);
    }
  }

 private:
  void run_state(MarkovState s, std::size_t step) {
    const double data = p_.get_real("data_bytes"), cache = p_.get_real("cache_bytes");
    switch (s) {
      case MarkovState::Init:
        if (std::min(data, cache) > 0) read_all(std::min(data, cache));
        break;
      case MarkovState::Comp:
        for (std::uint32_t t = 0; t < tasks_; ++t) b_.compute(t, comp_seconds());
        break;
      case MarkovState::Comm:
        communicate(step);
        break;
      case MarkovState::Read: {
        const double hit = cache <= 0 ? 0.0 : data <= cache ? 1.0 : cache / data;
        read_all(p_.get_real("read_bytes") * (1 - hit));
        break;
      }
      case MarkovState::Write:
        write_all(p_.get_real("write_bytes"));
        break;
      case MarkovState::End:
        write_all(p_.get_real("result_bytes"));
        break;
    }
  }

  double comp_seconds() {
    const double mean = 1 / p_.get_real("lambda");
    if (p_.get_string("comp") == "constant") return mean;
    return -std::log(1 - durations_.uniform()) * mean;
  }

  std::uint32_t home(std::uint32_t task, std::uint32_t replica) const { return tasks_ + replica * tasks_ + task; }

  // Every task asks its data's first replica for `bytes` and waits for them; nothing when 0.
  void read_all(double bytes) {
    if (!(bytes > 0)) return;
    const std::uint32_t tag = b_.next_tag();
    const double request = p_.get_real("request_bytes");
    for (std::uint32_t t = 0; t < tasks_; ++t) {
      const std::uint32_t d = home(t, 0);
      b_.send(t, d, request, tag, io_class_);
      b_.recv(t, d, bytes, tag);
      b_.recv(d, t, request, tag);
      b_.send(d, t, bytes, tag, io_class_);
    }
  }

  // Every task sends `bytes` to each replica of its data and waits until they have left.
  void write_all(double bytes) {
    if (!(bytes > 0)) return;
    const std::uint32_t tag = b_.next_tag();
    for (std::uint32_t t = 0; t < tasks_; ++t) {
      for (std::uint32_t r = 0; r < replicas_; ++r) {
        b_.isend(t, home(t, r), bytes, tag, io_class_);
        b_.recv(home(t, r), t, bytes, tag);
      }
      b_.wait(t);
    }
  }

  // One phase of the Comm pattern among the tasks, drawn afresh for every visit, or the Comm
  // application kernel's whole program.
  void communicate(std::size_t step) {
    if (tasks_ < 2) return;  // a single task has no one to talk to
    if (p_.get_string("comm_app") != "none") {
      run_kernel(step);
      return;
    }
    if (!ctx_.patterns) throw InputError("application 'markov': no pattern registry available");
    PatternContext pc;
    pc.endpoints = tasks_;
    pc.seed = derive_seed(ctx_.seed, 3, step);
    FlowSet flows;
    ctx_.patterns->create(nested_spec("comm", "Comm pattern of application 'markov'"))->generate(pc, flows);
    exchange_phase(b_, tasks_, flows, 0, flows.size(), p_.get_real("comm_bytes"), b_.next_tag());
  }

  // A Comm application kernel's program for the tasks, appended to theirs (its own seed per visit).
  void run_kernel(std::size_t step) {
    if (!ctx_.apps) throw InputError("application 'markov': no application registry available");
    const Spec spec = nested_spec("comm_app", "Comm application of application 'markov'");
    const auto kernel = ctx_.apps->create(spec);
    AppContext sub = ctx_;
    sub.tasks = tasks_;
    sub.seed = derive_seed(ctx_.seed, 4, step);
    if (kernel->trace(sub) || kernel->data_ranks(sub) > 0)
      p_.fail("comm_app", "'" + spec.name + "' is a trace or keeps data of its own; give a kernel that writes programs");
    kernel->generate(sub, b_);
  }

  // A parameter holding a plugin spec whose own parameters are separated by ';' (the application's
  // spec already uses ','): shift:s=2 or stencil3d:iters=1;bytes=1e5.
  Spec nested_spec(const std::string& param, const std::string& what) const {
    std::string text = p_.get_string(param);
    std::replace(text.begin(), text.end(), ';', ',');
    return Spec::parse(text, what);
  }

  const ParamSet& p_;
  const AppContext& ctx_;
  ProgramBuilder& b_;
  std::uint32_t tasks_, replicas_;
  std::uint8_t io_class_;
  Rng durations_;
};

class MarkovApp : public AppKernel {
 public:
  explicit MarkovApp(const ParamSet& p)
      : p_(p),
        matrix_(p.get_string("matrix") == "none" ? markov_profile(p.get_string("profile"))
                                                 : read_markov_matrix(p.get_string("matrix"))),
        replicas_(static_cast<std::uint32_t>(p.get_int("replicas"))),
        io_class_(static_cast<std::uint8_t>(p.get_int("io_class"))) {
    if (p.get_string("matrix") != "none" && p.given("profile"))
      p.fail("profile", "give a profile or a matrix file, not both");
  }

  std::uint32_t data_ranks(const AppContext& ctx) const override {
    const std::uint64_t d = std::uint64_t{ctx.tasks} * replicas_;
    if (d + ctx.tasks > (1ULL << 31)) p_.fail("replicas", "tasks x (replicas + 1) is more than 2^31 ranks");
    return static_cast<std::uint32_t>(d);
  }

  void generate(const AppContext& ctx, ProgramBuilder& b) const override {
    MarkovProgram(p_, ctx, b, replicas_, io_class_).write(trajectory(ctx));
  }

  std::vector<std::string> phases(const AppContext& ctx) const override {
    std::vector<std::string> out;
    for (MarkovState s : trajectory(ctx)) out.emplace_back(markov_state_name(s));
    return out;
  }

 private:
  // The application's chain, drawn from its seed: the same for generate() and phases().
  std::vector<MarkovState> trajectory(const AppContext& ctx) const {
    Rng chain(derive_seed(ctx.seed, 1));
    return markov_trajectory(matrix_, chain, p_.get_int("max_steps"));
  }

  ParamSet p_;
  MarkovMatrix matrix_;
  std::uint32_t replicas_;
  std::uint8_t io_class_;
};

}  // namespace

void register_markov_app(AppRegistry& registry) {
  std::vector<std::string> profiles = markov_profile_names();
  registry.add(
      {"markov",
       "the Markov-chain application model: Init, Comp, Comm, Read, Write, End, with storage traffic to the tasks' "
       "data ranks",
       app_params({choice_param("profile", "balanced", profiles,
                                "built-in transition matrix (manual/storage.md lists them)"),
                   string_param("matrix", "none",
                                "a transition-matrix file: one line per state, its name and 6 probabilities (to init, "
                                "comp, comm, read, write, end); rows must sum to 1"),
                   real_param("lambda", "1000", "rate of the exponential Comp durations (1/s; mean 1/lambda)", 1e-12,
                              1e15),
                   choice_param("comp", "exponential", {"exponential", "constant"},
                                "Comp durations: exponential of rate lambda, or exactly 1/lambda"),
                   string_param("comm", "uniform",
                                "pattern of a Comm phase, its parameters separated by ';' (shift:s=2)"),
                   string_param("comm_app", "none",
                                "instead of comm: an application kernel whose program a Comm phase runs, its "
                                "parameters separated by ';' (stencil3d:iters=1;bytes=1e5)"),
                   real_param("comm_bytes", "65536", "bytes per Comm message", 0, kMaxBytes),
                   real_param("read_bytes", "1e6", "bytes a task reads in a Read state", 0, kMaxBytes),
                   real_param("write_bytes", "1e6", "bytes a task writes (to each replica) in a Write state", 0,
                              kMaxBytes),
                   real_param("data_bytes", "1e7", "size of a task's data set (for the cache's hit fraction)", 0,
                              kMaxBytes),
                   real_param("cache_bytes", "0",
                              "memory a task's node caches its data in: Init loads min(data, cache) bytes and that "
                              "fraction of every Read is a hit",
                              0, kMaxBytes),
                   real_param("result_bytes", "1e6", "bytes each task writes back (to each replica) at End", 0,
                              kMaxBytes),
                   real_param("request_bytes", "0", "size of a read request sent to the data's home", 0, kMaxBytes),
                   int_param("replicas", "1", "copies of each task's data; writes go to all, reads to the first", 1,
                             64),
                   int_param("io_class", "1", "service class of the storage messages (App traffic keeps class)", 0,
                             254),
                   int_param("max_steps", "1000000", "refuse a trajectory longer than this", 1, 1e12)}),
       [](const ParamSet& p) -> std::unique_ptr<AppKernel> { return std::make_unique<MarkovApp>(p); },
       "Navaridas et al. 2019, §3.3.4 and Fig. 4. The chain is drawn per application from its seed. Storage "
       "messages go between a task and its data ranks (tasks + replica x tasks + task), which a storage "
       "placement policy puts on NVM devices or SAN servers (manual/storage.md); App messages (Comm) keep the "
       "application's class and storage messages travel in io_class."});
}

}  // namespace interflow::workloads
