#include "core/paths.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <stdexcept>

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

PathTable PathTableBuilder::merge_scattered(std::vector<PathSink>& sinks, std::span<const FlowId> flow_of,
                                            std::size_t num_flows) {
  std::vector<std::size_t> sink_base(sinks.size());
  std::size_t listed = 0;
  for (std::size_t c = 0; c < sinks.size(); ++c) {
    sink_base[c] = listed;
    listed += sinks[c].flow_vars_.size();
  }
  if (listed != flow_of.size()) throw std::logic_error("merge_scattered: sinks and flow list disagree");
  // Calls fn(flow, first variable in the sink, number of variables, first link in the sink).
  auto for_each_flow = [&](std::size_t c, auto fn) {
    const PathSink& sink = sinks[c];
    std::size_t v = 0, l = 0;
    for (std::size_t i = 0; i < sink.flow_vars_.size(); ++i) {
      const std::uint32_t count = sink.flow_vars_[i];
      fn(flow_of[sink_base[c] + i], v, count, l);
      for (std::uint32_t k = 0; k < count; ++k) l += sink.var_length_[v + k];
      v += count;
    }
  };
  std::vector<std::uint32_t> vars(num_flows, 0), links(num_flows, 0);
  tbb::parallel_for(std::size_t{0}, sinks.size(), [&](std::size_t c) {
    for_each_flow(c, [&](FlowId f, std::size_t v, std::uint32_t count, std::size_t) {
      vars[f] = count;
      for (std::uint32_t k = 0; k < count; ++k) links[f] += sinks[c].var_length_[v + k];
    });
  });
  PathTable table = allocate(vars, links);
  vars = {};
  links = {};
  tbb::parallel_for(std::size_t{0}, sinks.size(), [&](std::size_t c) {
    for_each_flow(c, [&](FlowId f, std::size_t v, std::uint32_t count, std::size_t l) {
      store_range(table, f, sinks[c], v, count, l);
    });
    sinks[c] = PathSink();
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

PathTable PathTableBuilder::permuted(const PathTable& table, std::span<const FlowId> from) {
  PathTable out;
  const std::size_t n = from.size();
  out.flow_first_var_.assign(n + 1, 0);
  out.var_first_link_.assign(1, 0);
  out.links_.reserve(table.links_.size());
  out.split_.reserve(table.split_.size());
  for (std::size_t i = 0; i < n; ++i) {
    const FlowId f = from[i];
    for (std::uint32_t v = table.first_var(f); v < table.end_var(f); ++v) {
      const auto links = table.links(v);
      out.links_.insert(out.links_.end(), links.begin(), links.end());
      out.var_first_link_.push_back(out.links_.size());
      out.split_.push_back(table.split_[v]);
    }
    out.flow_first_var_[i + 1] = static_cast<std::uint32_t>(out.split_.size());
  }
  return out;
}

void PathTableBuilder::store(PathTable& table, FlowId f, const PathSink& sink) {
  store_range(table, f, sink, 0, sink.var_length_.size(), 0);
}

void PathTableBuilder::store_range(PathTable& table, FlowId f, const PathSink& sink, std::size_t first_var,
                                   std::size_t count, std::size_t first_link) {
  const std::uint32_t var0 = table.flow_first_var_[f];
  std::uint64_t at = table.var_first_link_[var0];
  std::size_t from = first_link;
  for (std::size_t k = 0; k < count; ++k) {
    const std::uint32_t length = sink.var_length_[first_var + k];
    std::copy_n(sink.links_.begin() + static_cast<std::ptrdiff_t>(from), length,
                table.links_.begin() + static_cast<std::ptrdiff_t>(at));
    from += length;
    at += length;
    table.var_first_link_[var0 + k + 1] = at;
    table.split_[var0 + k] = sink.split_[first_var + k];
  }
}

}  // namespace interflow
