#pragma once
// Helpers shared by the test suites: plugins built through the real registries, and temporary files.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "engine/network.hpp"
#include "engine/params.hpp"
#include "routing/registry.hpp"
#include "topologies/registry.hpp"

namespace interflow::test {

inline std::unique_ptr<Topology> build_topology(const std::string& spec, const LinkDefaults& defaults = {}) {
  topo::TopologyRegistry registry("topology");
  topo::register_builtin(registry);
  return registry.create(Spec::parse(spec, "--topology"), defaults);
}

inline std::unique_ptr<Routing> build_routing(const std::string& spec, const Topology& topology) {
  routing::RoutingRegistry registry("routing");
  routing::register_builtin(registry);
  return registry.create(Spec::parse(spec, "--routing"), topology);
}

// A file in a per-process temporary directory, removed with the object.
class TempFile {
 public:
  TempFile(const std::string& name, const std::string& content) {
    const auto dir = std::filesystem::temp_directory_path() / ("interflow_test_" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    path_ = (dir / name).string();
    std::ofstream(path_) << content;
  }
  ~TempFile() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
    std::filesystem::remove(std::filesystem::path(path_).parent_path(), ignored);  // only if empty
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace interflow::test
