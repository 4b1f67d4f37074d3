// Task mapping from a file: per job, which allocated node each task runs on.
#include <charconv>
#include <string>
#include <unordered_map>

#include "core/error.hpp"
#include "scheduler/mapping.hpp"
#include "workloads/text_lines.hpp"

namespace interflow::scheduler {

namespace {

class FileMapping : public MappingPolicy {
 public:
  FileMapping(const std::string& path, const std::vector<Job>& jobs) : order_(jobs.size()) {
    std::unordered_map<std::int64_t, std::size_t> position;
    for (std::size_t j = 0; j < jobs.size(); ++j) position[jobs[j].id] = j;
    workloads::TextLines in(path, "task mapping file");
    while (in.next()) {
      const std::string_view token = in.token();
      std::int64_t id = 0;
      const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), id);
      if (ec == std::errc::result_out_of_range)
        in.fail("job id '" + std::string(token) + "' is out of the range of a 64-bit integer");
      if (ec != std::errc() || end != token.data() + token.size())
        in.fail("job id '" + std::string(token) + "' is not a whole number");
      const auto it = position.find(id);
      if (it == position.end()) in.fail("no job has id " + std::to_string(id));
      const std::uint32_t size = jobs[it->second].nodes;
      std::vector<std::uint32_t>& order = order_[it->second];
      if (!order.empty()) in.fail("job " + std::to_string(id) + " is mapped twice");
      std::vector<std::uint8_t> seen(size, 0);
      while (!in.at_end()) {
        const std::uint64_t k = in.whole(in.token(), "node index");
        if (k >= size)
          in.fail("node index " + std::to_string(k) + " is beyond job " + std::to_string(id) + "'s " +
                  std::to_string(size) + " nodes");
        if (seen[k]) in.fail("node index " + std::to_string(k) + " is given twice");
        seen[k] = 1;
        order.push_back(static_cast<std::uint32_t>(k));
      }
      if (order.size() != size)
        in.fail("job " + std::to_string(id) + " has " + std::to_string(size) + " tasks but " +
                std::to_string(order.size()) + " node indices");
    }
  }
  void map(std::uint32_t job, std::vector<EndpointId>& nodes, Rng&) const override {
    const std::vector<std::uint32_t>& order = order_[job];
    if (order.empty()) return;  // not in the file: consecutive
    const std::vector<EndpointId> sorted = nodes;
    for (std::size_t t = 0; t < nodes.size(); ++t) nodes[t] = sorted[order[t]];
  }

 private:
  std::vector<std::vector<std::uint32_t>> order_;  // per job position
};

}  // namespace

void register_file_mapping(MappingRegistry& registry) {
  registry.add({"file",
                "per job, the allocated node of each task, from a file",
                {string_param("path", "", "the mapping file")},
                [](const ParamSet& p, const std::vector<Job>& jobs) -> std::unique_ptr<MappingPolicy> {
                  return std::make_unique<FileMapping>(p.get_string("path"), jobs);
                },
                "Each line `<job id> <i0> <i1> ...` puts task t of that job on its i_t-th allocated node in id "
                "order; jobs without a line are mapped consecutively. A wrong count, an index beyond the job or "
                "given twice, or an unknown job id is an error naming the line."});
}

}  // namespace interflow::scheduler
