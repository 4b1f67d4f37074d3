// The data placement policies (storage/placement.hpp) and the scheduler's data placer.
#include "storage/placement.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"

namespace interflow::storage {

namespace {

std::uint32_t tasks_of(const PlacementInput& in) { return static_cast<std::uint32_t>(in.nodes.size()); }

void need_nvm(const PlacementInput& in, const char* policy) {
  if (!in.storage->has_nvm())
    throw InputError(std::string("data placement '") + policy + "' needs NVM devices on the nodes");
}

// Refuses `replicas` copies over `devices` distinct devices.
void need_devices(const PlacementInput& in, const std::string& policy, std::uint64_t devices, const std::string& where) {
  if (in.replicas > devices)
    throw InputError(in.who + ": data placement '" + policy + "' keeps " + std::to_string(in.replicas) +
                     " replicas of each task's data on distinct devices, but " + where + " has only " +
                     std::to_string(devices));
}

// Replica r of task t on devices[(t + r) mod D]: a task's replicas on distinct devices when R <= D.
void spread(const PlacementInput& in, const std::vector<EndpointId>& devices, std::vector<EndpointId>& homes) {
  const std::uint32_t t_count = tasks_of(in);
  homes.resize(std::size_t{t_count} * in.replicas);
  for (std::uint32_t r = 0; r < in.replicas; ++r)
    for (std::uint32_t t = 0; t < t_count; ++t) homes[std::size_t{r} * t_count + t] = devices[(t + r) % devices.size()];
}

// The NVM devices of the first `k` of `nodes`, or of `k` drawn uniformly (a partial Fisher-Yates shuffle).
std::vector<EndpointId> devices_of(const PlacementInput& in, std::vector<EndpointId> nodes, std::uint32_t k,
                                   bool random, Rng& rng) {
  if (random)
    for (std::uint32_t i = 0; i < k; ++i) std::swap(nodes[i], nodes[i + rng.below(nodes.size() - i)]);
  std::vector<EndpointId> devices;
  for (std::uint32_t i = 0; i < k; ++i) devices.push_back(in.storage->nvm(nodes[i]));
  return devices;
}

class LocalPlacement : public PlacementPolicy {
 public:
  void place(const PlacementInput& in, Rng&, std::vector<EndpointId>& homes) const override {
    need_nvm(in, "local");
    need_devices(in, "local", tasks_of(in), "the partition");
    std::vector<EndpointId> devices;
    for (EndpointId n : in.nodes) devices.push_back(in.storage->nvm(n));
    spread(in, devices, homes);
  }
};

class InternalPlacement : public PlacementPolicy {
 public:
  explicit InternalPlacement(const ParamSet& p) : share_(p.get_real("share")), random_(p.get_string("pick") == "random") {}
  void place(const PlacementInput& in, Rng& rng, std::vector<EndpointId>& homes) const override {
    need_nvm(in, "internal");
    const std::uint32_t t_count = tasks_of(in);
    const auto k = std::max<std::uint32_t>(1, static_cast<std::uint32_t>(std::ceil(share_ * t_count - 1e-9)));
    need_devices(in, "internal", k, "its share " + std::to_string(share_) + " of the " + std::to_string(t_count) +
                                        "-node partition");
    spread(in, devices_of(in, {in.nodes.begin(), in.nodes.end()}, k, random_, rng), homes);
  }

 private:
  double share_;
  bool random_;
};

class ExternalPlacement : public PlacementPolicy {
 public:
  explicit ExternalPlacement(const ParamSet& p)
      : devices_(static_cast<std::uint32_t>(p.get_int("devices"))), random_(p.get_string("pick") == "random") {}
  void place(const PlacementInput& in, Rng& rng, std::vector<EndpointId>& homes) const override {
    need_nvm(in, "external");
    const std::uint32_t t_count = tasks_of(in), want = devices_ == 0 ? t_count : devices_;
    std::vector<std::uint8_t> inside(in.storage->nodes(), 0);
    for (EndpointId n : in.nodes) inside[n] = 1;
    // Candidates outside the partition, from the node after its last one, cyclically.
    const EndpointId last = *std::max_element(in.nodes.begin(), in.nodes.end());
    std::vector<EndpointId> outside;
    for (std::uint32_t i = 1; i <= in.storage->nodes(); ++i) {
      const EndpointId n = (last + i) % in.storage->nodes();
      if (!inside[n]) outside.push_back(n);
    }
    if (outside.size() < want)
      throw InputError(in.who + ": data placement 'external' needs " + std::to_string(want) +
                       " devices outside the job's " + std::to_string(t_count) + " nodes; the machine has " +
                       std::to_string(outside.size()) + " other nodes");
    need_devices(in, "external", want, "devices=" + std::to_string(want));
    spread(in, devices_of(in, std::move(outside), want, random_, rng), homes);
  }

 private:
  std::uint32_t devices_;
  bool random_;
};

class SanPlacement : public PlacementPolicy {
 public:
  void place(const PlacementInput& in, Rng&, std::vector<EndpointId>& homes) const override {
    if (in.storage->servers() == 0) throw InputError("data placement 'san' needs a SAN with servers (--san)");
    need_devices(in, "san", in.storage->servers(), "the SAN");
    std::vector<EndpointId> devices;
    // Task t's data on server t mod S: the tasks spread over every server.
    for (std::uint32_t s = 0; s < in.storage->servers(); ++s) devices.push_back(in.storage->server(s));
    spread(in, devices, homes);
  }
};

}  // namespace

void register_placement_policies(PlacementRegistry& registry) {
  registry.add({"local", "every task's data on its own node's NVM device (replica r on task t+r's node)", {},
                [](const ParamSet&) -> std::unique_ptr<PlacementPolicy> { return std::make_unique<LocalPlacement>(); },
                "Navaridas et al. 2019, §3.5 (Local): the ideal case; storage traffic stays inside the nodes."});
  registry.add({"internal",
                "the data on a share of the partition's NVM devices: task t's on available device t mod k",
                {real_param("share", "0.5", "fraction of the partition's devices available (k = ceil(share x tasks))",
                            1e-9, 1),
                 choice_param("pick", "first", {"first", "random"},
                              "which devices are available: those of the first tasks' nodes, or drawn per job")},
                [](const ParamSet& p) -> std::unique_ptr<PlacementPolicy> {
                  return std::make_unique<InternalPlacement>(p);
                },
                "Navaridas et al. 2019, §3.5 (Internal): the other devices hold other applications' data, so "
                "part of the storage traffic crosses the interconnect inside the partition."});
  registry.add({"external",
                "the data on NVM devices of nodes outside the job's partition",
                {int_param("devices", "0", "devices used (0 = one per task)", 0, 4294967295.0),
                 choice_param("pick", "next", {"next", "random"},
                              "which outside nodes: those after the partition's last node (cyclically), or drawn "
                              "per job")},
                [](const ParamSet& p) -> std::unique_ptr<PlacementPolicy> {
                  return std::make_unique<ExternalPlacement>(p);
                },
                "Navaridas et al. 2019, §3.5 (External): every access is remote, so storage traffic interferes with "
                "this and other applications' traffic."});
  registry.add({"san", "the data on the central storage servers, reached through the SAN", {},
                [](const ParamSet&) -> std::unique_ptr<PlacementPolicy> { return std::make_unique<SanPlacement>(); },
                "Navaridas et al. 2019, §3.5: data in the centralised storage; task t's data on server t mod S (its "
                "replicas on the next servers), through the gateway of its node's block."});
}

void StoragePlacer::place(std::uint32_t job, Application& app, Rng& rng) const {
  const std::uint32_t tasks = app.compute_tasks();
  if (tasks == 0 || app.data_ranks % tasks != 0)
    throw std::logic_error("StoragePlacer: data ranks are not whole replicas of the tasks");
  PlacementInput in;
  in.storage = &storage_;
  in.nodes = std::span<const EndpointId>(app.placement.data(), tasks);
  in.replicas = app.data_ranks / tasks;
  in.who = "job at position " + std::to_string(job) + " (" + app.name + ")";
  std::vector<EndpointId> homes;
  policy_->place(in, rng, homes);
  std::copy(homes.begin(), homes.end(), app.placement.begin() + tasks);
}

JobIo job_io(const Application& app, const StorageSystem& storage) {
  JobIo io;
  const Program& p = app.program;
  const std::uint32_t tasks = app.compute_tasks();
  for (std::uint32_t d = tasks; d < app.tasks(); ++d)
    for (std::uint64_t i = p.offsets[d]; i < p.offsets[d + 1]; ++i) {
      const bool local = storage.node_of_nvm(app.placement[d]) == app.placement[p.peer[i]];
      if (is_send(p.kind[i])) (local ? io.read_local : io.read_remote) += p.value[i];
      // A receive answered at once by a send to the same task is a read request, not data written.
      const bool request = i + 1 < p.offsets[d + 1] && is_send(p.kind[i + 1]) && p.peer[i + 1] == p.peer[i] &&
                           p.tag[i + 1] == p.tag[i];
      if (is_receive(p.kind[i]) && request) io.requests += p.value[i];
      if (is_receive(p.kind[i]) && !request) (local ? io.written_local : io.written_remote) += p.value[i];
    }
  return io;
}

}  // namespace interflow::storage
