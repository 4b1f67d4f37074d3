#pragma once
// Data placement (Navaridas et al. 2019, §3.5; Pascual Saiz et al. 2018): when a job starts, where
// the data of each of its tasks lives. A policy chooses, for replica r of task t's data, a storage
// device: an NVM device of some node or a SAN server (storage/storage_system.hpp). Registered by
// name with its parameters (`interflow list placement`):
//
//   local     every task's data on its own node's NVM (replica r on the NVM of task t + r's node):
//             storage traffic never leaves the nodes
//   internal  only a share of the partition's NVM devices is available (others hold other jobs'
//             data): task t's data on available device t mod k; the rest of the tasks reach theirs
//             over the interconnect, inside the partition
//   external  the data on NVM devices outside the partition: every access crosses the interconnect
//             and meets the traffic of other jobs
//   san       the data on the central storage servers, through the SAN and its gateways
//
// Every policy refuses, naming itself and the numbers, a job it cannot serve: more replicas than
// distinct devices it may use, or fewer devices than it needs.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/random.hpp"
#include "core/registry.hpp"
#include "scheduler/network_aware.hpp"
#include "storage/storage_system.hpp"

namespace interflow::storage {

struct PlacementInput {
  const StorageSystem* storage = nullptr;
  std::span<const EndpointId> nodes;  // the job's tasks' nodes, in task order
  std::uint32_t replicas = 1;
  std::string who;  // names the job in messages
};

class PlacementPolicy {
 public:
  virtual ~PlacementPolicy() = default;
  // Fills homes[r * T + t] (T tasks) with the endpoint (an NVM device or a SAN server of the storage
  // system) holding replica r of task t's data. Replicas of one task are on distinct devices.
  virtual void place(const PlacementInput& in, Rng& rng, std::vector<EndpointId>& homes) const = 0;
};

using PlacementRegistry = Registry<PlacementPolicy>;
void register_placement_policies(PlacementRegistry& registry);

// The scheduler's data placer (scheduler/network_aware.hpp) for one storage system and policy.
class StoragePlacer : public scheduler::DataPlacer {
 public:
  StoragePlacer(const StorageSystem& storage, std::unique_ptr<PlacementPolicy> policy)
      : storage_(storage), policy_(std::move(policy)) {}
  void place(std::uint32_t job, Application& app, Rng& rng) const override;

 private:
  const StorageSystem& storage_;
  std::unique_ptr<PlacementPolicy> policy_;
};

// Bytes an application moves to and from storage, split by where the data is: local (its own node's
// NVM) or remote (another node's NVM, or a SAN server). From its program and placement.
// Read requests (the Markov application's request_bytes) cross the device's write link and are
// counted apart: a device's bytes written (devices.csv) are written_* plus requests.
struct JobIo {
  double read_local = 0, read_remote = 0, written_local = 0, written_remote = 0, requests = 0;
};
JobIo job_io(const Application& app, const StorageSystem& storage);

}  // namespace interflow::storage
