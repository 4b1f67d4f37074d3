#pragma once
// Routed paths in one flat arena. A flow owns a range of path variables (sub-paths); each variable
// is a range of directed link ids plus its split weight (the weights of one flow sum to one).
// A flow with no variable is unroutable.
#include <cstdint>
#include <span>
#include <vector>

#include "core/fill_later.hpp"
#include "core/types.hpp"

namespace interflow {

class PathTable {
 public:
  std::uint32_t num_flows() const { return static_cast<std::uint32_t>(flow_first_var_.size()) - 1; }
  std::uint32_t num_vars() const { return static_cast<std::uint32_t>(var_first_link_.size()) - 1; }
  std::uint64_t num_link_entries() const { return links_.size(); }

  std::uint32_t first_var(FlowId f) const { return flow_first_var_[f]; }
  std::uint32_t end_var(FlowId f) const { return flow_first_var_[f + 1]; }
  bool routed(FlowId f) const { return end_var(f) > first_var(f); }
  std::span<const LinkId> links(std::uint32_t var) const {
    return {links_.data() + var_first_link_[var], links_.data() + var_first_link_[var + 1]};
  }
  double split(std::uint32_t var) const { return split_[var]; }
  FlowId flow_of_var(std::uint32_t var) const;  // binary search; not for hot paths

  std::span<const std::uint64_t> var_offsets() const { return var_first_link_; }
  std::span<const LinkId> all_links() const { return links_; }
  // The same entries, writable: for a solver that renumbers them in place for a while and restores
  // them (MaxMinInput::renumberable_links).
  std::span<LinkId> all_links_writable() { return links_; }
  std::span<const float> splits() const { return split_; }
  std::size_t memory_bytes() const;

 private:
  friend class PathTableBuilder;
  std::vector<std::uint32_t> flow_first_var_{0};
  std::vector<std::uint64_t> var_first_link_{0};
  FillLaterVector<LinkId> links_;  // allocate() leaves it unwritten: store() fills every entry
  std::vector<float> split_;
};

// Where a routing writes the paths of the flows it is given, one flow at a time: push links,
// then commit the path with its split weight (or discard it, e.g. when it hits a failed link).
class PathSink {
 public:
  void push(LinkId l) { links_.push_back(l); }
  void commit(double split);
  void discard() { links_.resize(committed_links_); }
  std::size_t pending_length() const { return links_.size() - committed_links_; }
  // Drops every path of the current flow (e.g. when one of its sub-paths turned out unusable).
  void drop_flow();
  // Multiplies the splits of the committed variables from number first_var on (see num_vars()) by factor.
  void rescale_splits(std::size_t first_var, double factor) {
    for (std::size_t v = first_var; v < split_.size(); ++v) split_[v] = static_cast<float>(split_[v] * factor);
  }

  // Used by the engine around each flow.
  void begin_flow();
  void end_flow();
  void clear();
  std::size_t num_vars() const { return var_length_.size(); }
  // Links of the committed paths of the flow begun last.
  std::span<const LinkId> current_flow_links() const {
    return {links_.data() + flow_first_link_, committed_links_ - flow_first_link_};
  }
  std::size_t num_links() const { return links_.size(); }
  // The committed variables in order: their lengths, splits and links concatenated (after clear(),
  // the variables of the flows routed since).
  std::span<const std::uint32_t> var_lengths() const { return var_length_; }
  std::span<const float> splits() const { return split_; }
  std::span<const LinkId> links() const { return {links_.data(), committed_links_}; }

 private:
  friend class PathTableBuilder;
  std::vector<LinkId> links_;
  std::vector<std::uint32_t> var_length_;
  std::vector<float> split_;
  std::vector<std::uint32_t> flow_vars_;  // number of variables of each flow of this sink, in order
  std::size_t committed_links_ = 0;
  std::size_t flow_first_var_ = 0;
  std::size_t flow_first_link_ = 0;
};

// Assembles PathTables from PathSinks, always in flow order whatever order the flows were routed in.
class PathTableBuilder {
 public:
  // Two-pass assembly without holding every flow's paths twice: allocate() from the sizes of each
  // flow, then store() each flow's paths in place (flows in any order, from any thread).
  static PathTable allocate(std::span<const std::uint32_t> vars_per_flow,
                            std::span<const std::uint32_t> links_per_flow);
  // `sink` holds exactly the paths of flow f (one begin_flow/end_flow), sized as allocated.
  static void store(PathTable& table, FlowId f, const PathSink& sink);

  // For routings that visit flows out of order (e.g. grouped by destination): the sinks, taken in
  // order, hold the flows flow_of[0], flow_of[1], ...; the table has num_flows flows in flow order,
  // and a flow not listed in flow_of gets no path (unroutable). Each flow may be listed once.
  static PathTable merge_scattered(std::vector<PathSink>& sinks, std::span<const FlowId> flow_of,
                                   std::size_t num_flows);

  // The same paths with the flows reordered: flow i of the result is flow from[i] of `table`.
  static PathTable permuted(const PathTable& table, std::span<const FlowId> from);

 private:
  // Copies `count` variables of `sink`, from its variable first_var and link first_link, into flow f.
  static void store_range(PathTable& table, FlowId f, const PathSink& sink, std::size_t first_var, std::size_t count,
                          std::size_t first_link);
};

}  // namespace interflow
