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

PathTable PathTableBuilder::merge_scattered(std::vector<PathSink>& sinks, std::span<const FlowId> flow_of,
                                            std::size_t num_flows) {
  std::vector<std::size_t> sink_base(sinks.size());
  std::size_t listed = 0;
  for (std::size_t c = 0; c < sinks.size(); ++c) {
    sink_base[c] = listed;
    listed += sinks[c].flow_vars_.size();
  }
  if (listed != flow_of.size()) throw std::logic_error("merge_scattered: sinks and flow list disagree");
  // Per flow, its number of variables and of links at [f + 1]; prefix sums make them offsets.
  std::vector<std::uint64_t> first_var(num_flows + 1, 0), first_link(num_flows + 1, 0);
  tbb::parallel_for(std::size_t{0}, sinks.size(), [&](std::size_t c) {
    const PathSink& sink = sinks[c];
    std::size_t v = 0;
    for (std::size_t i = 0; i < sink.flow_vars_.size(); ++i) {
      const FlowId f = flow_of[sink_base[c] + i];
      std::uint64_t links = 0;
      for (std::uint32_t k = 0; k < sink.flow_vars_[i]; ++k) links += sink.var_length_[v + k];
      first_var[f + 1] = sink.flow_vars_[i];
      first_link[f + 1] = links;
      v += sink.flow_vars_[i];
    }
  });
  for (std::size_t f = 0; f < num_flows; ++f) {
    first_var[f + 1] += first_var[f];
    first_link[f + 1] += first_link[f];
  }
  if (first_var[num_flows] >= 0xffffffffULL) throw std::length_error("more than 4 billion path variables");
  PathTable table;
  table.flow_first_var_.resize(num_flows + 1);
  for (std::size_t f = 0; f <= num_flows; ++f) table.flow_first_var_[f] = static_cast<std::uint32_t>(first_var[f]);
  first_var.clear();
  first_var.shrink_to_fit();
  const std::size_t vars = table.flow_first_var_[num_flows];
  table.var_first_link_.assign(vars + 1, 0);
  table.split_.resize(vars);
  table.links_.resize(first_link[num_flows]);
  tbb::parallel_for(std::size_t{0}, sinks.size(), [&](std::size_t c) {
    PathSink& sink = sinks[c];
    std::size_t v = 0, l = 0;
    for (std::size_t i = 0; i < sink.flow_vars_.size(); ++i) {
      const FlowId f = flow_of[sink_base[c] + i];
      const std::uint32_t var0 = table.flow_first_var_[f];
      std::uint64_t at = first_link[f];
      for (std::uint32_t k = 0; k < sink.flow_vars_[i]; ++k, ++v) {
        const std::uint32_t length = sink.var_length_[v];
        std::copy_n(sink.links_.begin() + static_cast<std::ptrdiff_t>(l), length,
                    table.links_.begin() + static_cast<std::ptrdiff_t>(at));
        l += length;
        at += length;
        table.var_first_link_[var0 + k + 1] = at;
        table.split_[var0 + k] = sink.split_[v];
      }
    }
    sink = PathSink();
  });
  return table;
}

PathTable PathTableBuilder::allocate(std::span<const std::uint32_t> vars_per_flow,
                                     std::span<const std::uint32_t> links_per_flow) {
  PathTable table;
  const std::size_t n = vars_per_flow.size();
  table.flow_first_var_.assign(n + 1, 0);
  std::uint64_t vars = 0, links = 0;
  for (std::size_t f = 0; f < n; ++f) {
    vars += vars_per_flow[f];
    table.flow_first_var_[f + 1] = static_cast<std::uint32_t>(vars);
    if (vars >= 0xffffffffULL) throw std::length_error("more than 4 billion path variables");
  }
  table.var_first_link_.assign(vars + 1, 0);
  table.split_.resize(vars);
  // Each flow's first variable starts where the previous flows' links end; store() fills the rest.
  for (std::size_t f = 0; f < n; ++f) {
    if (vars_per_flow[f] > 0) table.var_first_link_[table.flow_first_var_[f]] = links;
    links += links_per_flow[f];
  }
  table.var_first_link_[vars] = links;
  table.links_.resize(links);
  return table;
}

void PathTableBuilder::store(PathTable& table, FlowId f, const PathSink& sink) {
  const std::uint32_t var0 = table.flow_first_var_[f];
  std::uint64_t at = table.var_first_link_[var0];
  std::size_t from = 0;
  for (std::size_t k = 0; k < sink.var_length_.size(); ++k) {
    const std::uint32_t length = sink.var_length_[k];
    std::copy_n(sink.links_.begin() + static_cast<std::ptrdiff_t>(from), length,
                table.links_.begin() + static_cast<std::ptrdiff_t>(at));
    from += length;
    at += length;
    table.var_first_link_[var0 + k + 1] = at;
    table.split_[var0 + k] = sink.split_[k];
  }
}

}  // namespace interflow
