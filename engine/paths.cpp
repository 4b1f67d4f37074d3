#include "engine/paths.hpp"

#include <algorithm>
#include <stdexcept>

#include <tbb/parallel_for.h>

namespace interflow {

FlowId PathTable::flow_of_var(std::uint32_t var) const {
  auto it = std::upper_bound(flow_first_var_.begin(), flow_first_var_.end(), var);
  return static_cast<FlowId>((it - flow_first_var_.begin()) - 1);
}

std::size_t PathTable::memory_bytes() const {
  return flow_first_var_.capacity() * 4 + var_first_link_.capacity() * 8 + links_.capacity() * 4 +
         split_.capacity() * 4;
}

void PathSink::commit(double split) {
  var_length_.push_back(static_cast<std::uint32_t>(links_.size() - committed_links_));
  split_.push_back(static_cast<float>(split));
  committed_links_ = links_.size();
}

void PathSink::begin_flow() {
  discard();
  flow_first_var_ = var_length_.size();
  flow_first_link_ = links_.size();
}

void PathSink::drop_flow() {
  links_.resize(flow_first_link_);
  var_length_.resize(flow_first_var_);
  split_.resize(flow_first_var_);
  committed_links_ = links_.size();
}

void PathSink::end_flow() {
  discard();
  flow_vars_.push_back(static_cast<std::uint32_t>(var_length_.size() - flow_first_var_));
}

void PathSink::clear() {
  links_.clear();
  var_length_.clear();
  split_.clear();
  flow_vars_.clear();
  committed_links_ = flow_first_var_ = flow_first_link_ = 0;
}

PathTable PathTableBuilder::merge(std::vector<PathSink>& chunks) {
  PathTable table;
  std::size_t flows = 0, vars = 0, links = 0;
  std::vector<std::size_t> flow_base(chunks.size()), var_base(chunks.size()), link_base(chunks.size());
  for (std::size_t c = 0; c < chunks.size(); ++c) {
    flow_base[c] = flows;
    var_base[c] = vars;
    link_base[c] = links;
    flows += chunks[c].flow_vars_.size();
    vars += chunks[c].var_length_.size();
    links += chunks[c].links_.size();
  }
  if (vars >= 0xffffffffULL) throw std::length_error("more than 4 billion path variables");
  table.flow_first_var_.assign(flows + 1, 0);
  table.var_first_link_.assign(vars + 1, 0);
  table.links_.resize(links);
  table.split_.resize(vars);
  tbb::parallel_for(std::size_t{0}, chunks.size(), [&](std::size_t c) {
    PathSink& sink = chunks[c];
    std::size_t v = var_base[c];
    for (std::size_t i = 0; i < sink.flow_vars_.size(); ++i) {
      v += sink.flow_vars_[i];
      table.flow_first_var_[flow_base[c] + i + 1] = static_cast<std::uint32_t>(v);
    }
    std::uint64_t l = link_base[c];
    for (std::size_t i = 0; i < sink.var_length_.size(); ++i) {
      l += sink.var_length_[i];
      table.var_first_link_[var_base[c] + i + 1] = l;
      table.split_[var_base[c] + i] = sink.split_[i];
    }
    std::copy(sink.links_.begin(), sink.links_.end(), table.links_.begin() + static_cast<std::ptrdiff_t>(link_base[c]));
    sink.clear();
    sink = PathSink();
  });
  return table;
}

}  // namespace interflow
