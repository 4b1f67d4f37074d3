#include "workloads/inrflow_workload.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

#include "core/error.hpp"
#include "workloads/text_lines.hpp"

namespace interflow::workloads {

namespace {

// INRFlow's kernel names with an interflow counterpart: the kernel and the fixed part of its spec.
const std::map<std::string, std::string>& aliases() {
  static const std::map<std::string, std::string> table{{"all2all", "collective:op=alltoall"},
                                                        {"alltoall", "collective:op=alltoall"},
                                                        {"bcast", "collective:op=bcast"},
                                                        {"reduce", "collective:op=reduce"},
                                                        {"allreduce", "collective:op=allreduce"},
                                                        {"barrier", "collective:op=barrier"},
                                                        {"gather", "collective:op=gather"},
                                                        {"scatter", "collective:op=scatter"},
                                                        {"allgather", "collective:op=allgather"},
                                                        {"nbodies", "nbody"},
                                                        {"mesh2d", "stencil2d"},
                                                        {"mesh2d-woc", "stencil2d"},
                                                        {"torus2d", "stencil2d"},
                                                        {"torus2d-woc", "stencil2d"},
                                                        {"mesh3d", "stencil3d"},
                                                        {"mesh3d-woc", "stencil3d"},
                                                        {"torus3d", "stencil3d"},
                                                        {"torus3d-woc", "stencil3d"},
                                                        {"sweep2d", "wavefront2d"},
                                                        {"mesh2d-wc", "wavefront2d"},
                                                        {"mesh2d-causal", "wavefront2d"},
                                                        {"sweep3d", "wavefront3d"},
                                                        {"mesh3d-wc", "wavefront3d"},
                                                        {"mesh3d-causal", "wavefront3d"},
                                                        {"randomapp", "graph"}};
  return table;
}

bool common_param(const std::string& name) {
  return name == "tasks" || name == "placement" || name == "mapping" || name == "class" || name == "arrival";
}

}  // namespace

std::string InrflowApp::spec() const {
  char when[40];
  std::snprintf(when, sizeof when, "%.17g", arrival_s);
  return kernel + (kernel.find(':') == std::string::npos ? ":" : ",") + "tasks=" + std::to_string(tasks) +
         ",placement=" + (random ? "random" : "consecutive") + ",arrival=" + when;
}

std::vector<InrflowApp> read_inrflow_workload(const std::string& path, const AppRegistry& apps, double time_unit_s) {
  TextLines in(path, "INRFlow workload file");
  std::vector<InrflowApp> specs;
  while (in.next()) {
    const double arrival = in.time(in.expect("an arrival time"), time_unit_s, "arrival time") * time_unit_s;
    const std::string kernel(in.expect("a kernel"));
    const std::uint64_t tasks = in.whole(in.expect("the number of tasks"), "number of tasks");
    const std::string_view allocation = in.expect("an allocation (sequential or random)");
    in.expect_end("the allocation");
    if (tasks == 0) in.fail("an application needs at least 1 task");
    if (tasks > 0xFFFFFFFFu) in.fail("number of tasks " + std::to_string(tasks) + " is beyond 4294967295");
    if (allocation != "sequential" && allocation != "random")
      in.fail("allocation '" + std::string(allocation) + "': only sequential and random are supported");
    std::string spec;
    if (kernel.rfind("file_", 0) == 0) {  // a trace: everything after file_ is its path
      const std::string file = kernel.substr(5);
      if (file.empty() || file.find_first_of(",=") != std::string::npos)
        in.fail("trace path '" + file + "' is empty or contains ',' or '='");
      spec = "trc:file=" + file;
    } else {
      std::vector<std::string> parts;
      for (std::size_t start = 0;;) {
        const std::size_t end = kernel.find('_', start);
        parts.push_back(kernel.substr(start, end - start));
        if (end == std::string::npos) break;
        start = end + 1;
      }
      const std::string& name = parts[0];
      const auto alias = aliases().find(name);
      if (apps.find_or_null(name)) {
        // An interflow kernel: positional parameters fill its own parameters in order.
        std::vector<std::string> own;
        for (const ParamSpec& p : apps.find(name).params)
          if (!common_param(p.name)) own.push_back(p.name);
        if (parts.size() - 1 > own.size())
          in.fail("kernel " + name + " takes at most " + std::to_string(own.size()) + " positional parameters, found " +
                  std::to_string(parts.size() - 1));
        spec = name;
        for (std::size_t k = 1; k < parts.size(); ++k)
          spec += std::string(k == 1 ? ":" : ",") + own[k - 1] + "=" + parts[k];
      } else if (alias != aliases().end()) {
        // An INRFlow name: its first parameter is the number of repetitions, as in INRFlow's kernels.
        spec = alias->second;
        const auto target = alias->second.substr(0, alias->second.find(':'));
        const auto& params = apps.find(target).params;
        const bool has_iters =
            std::any_of(params.begin(), params.end(), [](const ParamSpec& p) { return p.name == "iters"; });
        if (parts.size() > 2 || (parts.size() == 2 && !has_iters))
          in.fail("INRFlow kernel " + name + " (interflow " + target + ") takes at most " +
                  (has_iters ? "1 parameter (repetitions)" : "no parameters") + ", found " +
                  std::to_string(parts.size() - 1));
        if (parts.size() == 2)
          spec += std::string(spec.find(':') == std::string::npos ? ":" : ",") + "iters=" + parts[1];
      } else {
        in.fail("unknown kernel '" + name +
                "': expected file_<trace>, an interflow kernel or an INRFlow name with "
                "an interflow counterpart (manual/traces.md)");
      }
    }
    InrflowApp app{arrival, spec, static_cast<std::uint32_t>(tasks), allocation == "random", in.line_number()};
    try {
      apps.validate(Spec::parse(app.spec(), "workload"));
    } catch (const InputError& e) {
      in.fail("becomes '" + app.spec() + "': " + e.what());
    }
    specs.push_back(std::move(app));
  }
  return specs;
}

}  // namespace interflow::workloads
