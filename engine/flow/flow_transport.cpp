#include "engine/flow/flow_transport.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/random.hpp"
#include "core/stats.hpp"

namespace interflow::flow {

FlowTransport::FlowTransport(const Network& net, const Routing& routing, const FlowTransportOptions& options)
    : net_(net), routing_(routing), options_(options) {}

FlowTransport::~FlowTransport() = default;

void FlowTransport::open(const MessageTable& messages, TransportResult& result) {
  r_ = &result;
  r_->batch_tolerance = options_.batch_tolerance;
  r_->rate_solver = std::string(maxmin::solver_kind_name(options_.solver));
  r_->profile.on = options_.profile;
  messages_ = &messages;
  per_flow_ = dynamic_cast<const PerFlowRouting*>(&routing_);
  streamed_ = options_.stream && per_flow_ != nullptr && !options_.nic_fifo && !options_.zoom_links;
  const std::size_t n = messages.size();
  if (streamed_) {  // routed as they start, held in slots while in transfer
    r_->path_vars.assign(n, 0);
    r_->latency_s.assign(n, 0.0f);
  } else {
    route(messages);
  }
  prepare_variables(messages);
  if (options_.solver == maxmin::SolverKind::automatic && cap_link_.empty() && options_.incremental)
    switch_.emplace(options_.group_switch);
  flow_.assign(streamed_ ? 0 : n, FlowProgress{});
  completion_ = IndexedMinHeap(streamed_ ? 0 : n);
  var_.assign(streamed_ ? 0 : r_->paths.num_vars(), VarProgress{});
  link_active_.assign(net_.num_links(), 0);
  busy_since_.assign(net_.num_links(), 0);
  r_->state.assign(n, FlowState::Blocked);
  r_->start_s.assign(n, std::numeric_limits<double>::quiet_NaN());
  r_->transfer_end_s = r_->start_s;
  r_->finish_s = r_->start_s;
  r_->link_bytes.assign(net_.num_links(), 0);
  r_->link_busy_s.assign(net_.num_links(), 0);
  if (options_.nic_fifo) {
    for (std::uint32_t c : messages.service_class) nic_classes_ = std::max(nic_classes_, c + 1);
    const std::size_t nics = std::size_t{net_.num_endpoints()} * nic_classes_;
    nic_busy_.assign(nics, 0);
    nic_head_.assign(nics, kNone);
    nic_tail_.assign(nics, kNone);
    nic_next_.assign(n, kNone);
  }
  run_clock_.reset();
}

void FlowTransport::route(const MessageTable& messages) {
  if (options_.progress) options_.progress->phase("routing messages", messages.size());
  Stopwatch clock;
  r_->paths = route_messages(net_, routing_, messages,
                             RouteContext::of(options_.seed, options_.max_path_bytes, options_.progress));
  r_->route_seconds = clock.seconds();
}

// Every path variable: its weight (flow weight x split), flow, class and the flow's latency; the link
// capacities (0 for failed links) and the solver over them.
void FlowTransport::prepare_variables(const MessageTable& messages) {
  capacity_.assign(net_.capacities().begin(), net_.capacities().end());
  for (LinkId l = 0; l < capacity_.size(); ++l)
    if (!net_.up(l)) capacity_[l] = 0;
  if (streamed_) {  // variables come with their messages
    solver_ = std::make_unique<maxmin::ClassedMaxMin>(options_.policy, capacity_, options_.solver);
    follow_groups(0);
    return;
  }
  const PathTable& paths = r_->paths;
  const std::size_t n = messages.size();
  const std::uint32_t vars = paths.num_vars();
  weight_.resize(vars);
  var_flow_.resize(vars);
  var_class_.resize(messages.service_class.empty() ? 0 : vars);
  r_->latency_s.assign(n, 0.0f);
  for (FlowId f = 0; f < n; ++f)
    for (std::uint32_t v = paths.first_var(f); v < paths.end_var(f); ++v) {
      weight_[v] = messages.ends.weight_of(f) * paths.split(v);
      var_flow_[v] = f;
      if (!var_class_.empty()) var_class_[v] = messages.service_class[f];
      r_->latency_s[f] = std::max(r_->latency_s[f], path_latency(paths.links(v)));
    }
  if (options_.zoom_links) {
    const std::vector<std::uint8_t> zoom = options_.zoom_links(paths);
    if (!zoom.empty()) couple(paths, zoom);
  }
  solver_ = std::make_unique<maxmin::ClassedMaxMin>(
      options_.policy, capacity_, solver_offsets_.empty() ? paths.var_offsets() : solver_offsets_,
      solver_offsets_.empty() ? paths.all_links() : std::span<const LinkId>(solver_links_), weight_, var_class_,
      options_.solver);
  follow_groups(static_cast<FlowId>(n));
}

// Over groups and without hybrid coupling, every flow follows a clock: without a cap below 1 the flows
// of one path variable their group's, one set of clocks per priority level; the others (multipath
// flows, drained at the sum of several groups' rates, and with a cap below 1 every flow, drained by
// its level's group and the leftover's) their mix's. Streamed, the flows in transfer now (the others
// as they start: take_slot), with a mix whenever the routing may give several paths.
void FlowTransport::follow_groups(FlowId n) {
  if (!cap_link_.empty() || solver_->grouped_levels() == 0) return;
  if (solver_->grouped_leftover() == nullptr)
    for (std::size_t k = 0; k < solver_->grouped_levels(); ++k) grouped_.push_back(solver_->grouped(k));
  clocks_.resize(grouped_.size());
  bool any_mixed = solver_->grouped_leftover() != nullptr || (streamed_ && routing_.multipath());
  for (FlowId f = 0; f < n && !any_mixed; ++f) any_mixed = end_var(f) - first_var(f) > 1;
  if (any_mixed) mixed_ = std::make_unique<MixedClocks>(*solver_, weight_);
  for (FlowId f = 0; f < n; ++f)
    if (!streamed_ || flow_[f].phase == Phase::Active) follow_flow(f);
}

void FlowTransport::follow_flow(FlowId f) {
  if (clocked(f))
    grouped_[solver_->level_of(first_var(f))]->set_followed(first_var(f), true);
  else if (mixed(f))
    for (std::uint32_t v = first_var(f); v < end_var(f); ++v) mixed_->follow(v);
  else if (end_var(f) > first_var(f))  // (a flow without paths sends nothing)
    throw std::logic_error("FlowTransport: a flow of several paths over groups without mixes");
}

// Hybrid coupling: each coupled flow gets a cap link of its own (numbered after the network's links),
// uncapped at the largest capacity, which never binds alone where a real link would not: a path's
// variables share the cap (their sum is capped). Inner links are left out of the solver's paths.
void FlowTransport::couple(const PathTable& paths, const std::vector<std::uint8_t>& zoom) {
  if (zoom.size() != net_.num_links())
    throw std::logic_error("FlowTransport: zoom_links must have one entry per link");
  uncapped_ = capacity_.empty() ? 1.0 : std::max(1.0, *std::max_element(capacity_.begin(), capacity_.end()));
  cap_link_.assign(paths.num_flows(), kNone);
  solver_offsets_.assign(1, 0);
  solver_links_.clear();
  for (FlowId f = 0; f < paths.num_flows(); ++f) {
    bool touches = false;
    for (std::uint32_t v = paths.first_var(f); v < paths.end_var(f); ++v)
      for (LinkId l : paths.links(v)) touches = touches || zoom[l] != 0;
    if (touches) {
      cap_link_[f] = static_cast<LinkId>(capacity_.size());
      capacity_.push_back(uncapped_);
    }
    for (std::uint32_t v = paths.first_var(f); v < paths.end_var(f); ++v) {
      for (LinkId l : paths.links(v))
        if (zoom[l] != 2) solver_links_.push_back(l);
      if (touches) solver_links_.push_back(cap_link_[f]);
      solver_offsets_.push_back(solver_links_.size());
    }
  }
}

void FlowTransport::set_cap(FlowId f, double gbps) {
  const double c = std::isfinite(gbps) ? std::min(std::max(0.0, gbps), uncapped_) : uncapped_;
  if (c == capacity_[cap_link_[f]]) return;
  capacity_[cap_link_[f]] = c;
  solver_->set_capacity(cap_link_[f], c);
  changed_ = true;
}

void FlowTransport::settle_flow(FlowId f) {
  FlowProgress& p = flow_[f];
  p.remaining_bits = std::max(0.0, p.remaining_bits - p.rate * 1e9 * (now_ - p.last));
  p.last = now_;
}

void FlowTransport::settle_var(std::uint32_t v) {
  var_[v].bits += var_[v].rate * 1e9 * (now_ - var_[v].last);
  var_[v].last = now_;
}

bool FlowTransport::start(MessageId m) {
  TransportResult& r = *r_;
  r.start_s[m] = now_;
  const ProfileClock clock(options_.profile, r.profile.starts_s);
  const bool self = messages_->ends.src[m] == messages_->ends.dst[m];
  const bool routed = !self && (streamed_ ? route_one(m) : r.paths.routed(m));
  if (!routed || messages_->bytes[m] == 0) {
    if (!streamed_) flow_[m].phase = Phase::Done;
    r.state[m] = self ? FlowState::Self : !routed ? FlowState::Unroutable : FlowState::Delivered;
    r.transfer_end_s[m] = now_;
    r.finish_s[m] = now_ + (r.state[m] == FlowState::Delivered ? r.latency_s[m] : 0.0);
    if (messages_->delivery_awaited(m)) deliveries_.push({r.finish_s[m], m});
    return false;
  }
  const FlowId f = streamed_ ? take_slot(m) : m;
  if (!wait_for_nic(f)) activate(f);
  return true;
}

// The longest a path's last bit takes: its links' latencies and router_delay_s per switch.
float FlowTransport::path_latency(std::span<const LinkId> links) const {
  double ns = 0;
  std::uint32_t switches = 0;
  for (LinkId l : links) {
    ns += net_.latency_ns(l);
    switches += net_.kind(net_.target(l)) == VertexKind::Switch;
  }
  return static_cast<float>(ns * 1e-9 + switches * options_.router_delay_s);
}

bool FlowTransport::route_one(MessageId m) {
  const std::uint32_t index = messages_->route_index.empty() ? m : messages_->route_index[m];
  sink_.clear();
  sink_.begin_flow();
  per_flow_->route(net_, messages_->ends.src[m], messages_->ends.dst[m],
                   derive_seed(options_.seed, Stream::Routing, index), sink_);
  sink_.end_flow();
  const auto vars = static_cast<std::uint32_t>(sink_.num_vars());
  if (vars == 0) return false;
  // The paths of the flows in transfer, with this one's, within --max-path-memory (a flow that sends
  // nothing is never held, but counts here for the moment it is routed).
  check_path_memory(live_links_ + sink_.num_links(), live_vars_ + vars,
                    RouteContext::of(options_.seed, options_.max_path_bytes, nullptr));
  r_->path_vars[m] = vars;
  r_->total_path_vars += vars;
  float latency = 0;
  std::size_t first = 0;
  for (const std::uint32_t length : sink_.var_lengths()) {
    latency = std::max(latency, path_latency(sink_.links().subspan(first, length)));
    first += length;
  }
  r_->latency_s[m] = latency;
  return true;
}

FlowId FlowTransport::take_slot(MessageId m) {
  FlowId f;
  if (free_slots_.empty()) {
    f = static_cast<FlowId>(slot_.size());
    slot_.emplace_back();
    flow_.emplace_back();
    completion_.grow(slot_.size());
  } else {
    f = free_slots_.back();
    free_slots_.pop_back();
    flow_[f] = FlowProgress{};
  }
  const auto vars = static_cast<std::uint32_t>(sink_.num_vars());
  const std::uint32_t first = take_vars(vars);
  slot_[f] = {m, first, vars, static_cast<std::uint32_t>(sink_.num_links())};
  live_links_ += sink_.num_links();
  live_vars_ += vars;
  for (std::uint32_t v = first; v < first + vars; ++v) {
    weight_[v] = messages_->ends.weight_of(m) * sink_.splits()[v - first];
    var_flow_[v] = f;
    var_class_[v] = messages_->class_of(m);
    var_[v] = VarProgress{};
    if (!bits_before_.empty()) bits_before_[v] = 0;
    solver_->assign_class(v, var_class_[v]);
  }
  if (!grouped_.empty() || mixed_) follow_flow(f);  // over groups: its clock marked before activation
  std::size_t link = 0;
  for (std::uint32_t i = 0; i < vars; ++i) {
    const std::uint32_t length = sink_.var_lengths()[i];
    solver_->activate(first + i, sink_.links().subspan(link, length), weight_[first + i], var_class_[first + i]);
    link += length;
  }
  return f;
}

std::uint32_t FlowTransport::take_vars(std::uint32_t count) {
  const std::uint32_t reused = free_vars_.take(count);
  if (reused != FreeRanges::kNone) return reused;
  const std::uint32_t first = next_var_;
  next_var_ += count;
  weight_.resize(next_var_);
  var_flow_.resize(next_var_);
  var_class_.resize(next_var_);
  var_.resize(next_var_);
  if (!bits_before_.empty()) bits_before_.resize(next_var_);
  if (mixed_) mixed_->weights_moved(weight_);
  return first;
}

void FlowTransport::free_slot(FlowId f) {
  const Slot s = slot_[f];
  live_vars_ -= s.vars;
  live_links_ -= s.links;
  free_vars_.give(s.first_var, s.vars);
  free_slots_.push_back(f);
}

void FlowTransport::activate(FlowId f) {
  const MessageId m = message_of(f);
  flow_[f].phase = Phase::Active;
  ++active_flows_;
  changed_ = true;
  flow_[f].remaining_bits = messages_->bytes[m] * 8;
  flow_[f].last = now_;
  for (std::uint32_t v = first_var(f); v < end_var(f); ++v) {
    var_[v].last = now_;
    if (!streamed_) solver_->activate(v);  // streamed: by take_slot(), with the links just routed
    for (LinkId l : links_of(v))
      if (link_active_[l]++ == 0) busy_since_[l] = now_;
  }
  if (clocked(f) || mixed(f)) clock_starts_.push_back(f);
}

std::size_t FlowTransport::nic_of(FlowId f) const {
  const std::uint32_t c = messages_->service_class.empty() ? 0 : messages_->service_class[f];
  return std::size_t{messages_->ends.src[f]} * nic_classes_ + c;
}

// A NIC in transfer keeps f waiting at the tail of its FIFO (the packet engine's application queue).
bool FlowTransport::wait_for_nic(FlowId f) {
  if (!queues_at_nic(f)) return false;
  const std::size_t q = nic_of(f);
  if (!nic_busy_[q]) {
    nic_busy_[q] = 1;
    return false;
  }
  flow_[f].phase = Phase::Queued;
  if (nic_tail_[q] == kNone)
    nic_head_[q] = f;
  else
    nic_next_[nic_tail_[q]] = f;
  nic_tail_[q] = f;
  return true;
}

void FlowTransport::release_nic(FlowId f) {
  if (!queues_at_nic(f)) return;
  const std::size_t q = nic_of(f);
  const FlowId next = nic_head_[q];
  if (next == kNone) {
    nic_busy_[q] = 0;
    return;
  }
  nic_head_[q] = nic_next_[next];
  if (nic_head_[q] == kNone) nic_tail_[q] = kNone;
  activate(next);
}

double FlowTransport::next_event(double /*bound*/) {
  std::size_t which = 0;
  const double clocked_end = next_clocked_end(which);
  return std::min({completion_.empty() ? kNever : completion_.top_key(), clocked_end, next_delivery()});
}

double FlowTransport::next_clocked_end(std::size_t& which) {
  double first = kNever;
  for (std::size_t k = 0; k < clocks_.size() + (mixed_ ? 1 : 0); ++k)
    if (clocks_at(k).next_time() < first) {
      first = clocks_at(k).next_time();
      which = k;
    }
  return first;
}

// Transfer ends within a relative 1e-12 of the batch's time are the same instant up to rounding:
// they are taken together (manual/dynamic.md). Relative at every time: an absolute floor (1 ps below
// t = 1 s, before) merged events far apart in a run of nanoseconds. With a batch tolerance, those
// within it are taken too, ending early.
double FlowTransport::advance_to(double t) {
  now_ = std::max(now_, t);
  return now_ + std::max(kSameInstant, options_.batch_tolerance) * now_;
}

void FlowTransport::take_sent(double horizon, std::vector<MessageId>& sent) {
  const ProfileClock clock(options_.profile, r_->profile.ends_s);
  for (;;) {
    const double flow_end = completion_.empty() ? kNever : completion_.top_key();
    std::size_t which = 0;
    const double clocked_end = next_clocked_end(which);
    const double due = std::min(flow_end, clocked_end);
    if (!(due <= horizon)) return;
    FlowId f;
    if (clocked_end < flow_end) {
      // (a group clock's members are variables, a mix clock's flows); leaves the clocks in end_transfer
      f = which < clocks_.size() ? var_flow_[clocks_[which].next_var()] : mixed_->clocks().next_var();
    } else {
      f = completion_.top();
      completion_.pop();
    }
    sent.push_back(message_of(f));
    end_transfer(f, due);
    changed_ = true;
    release_nic(f);
  }
}

// Its paths carry their bits up to now and are released. Ended early by a batch tolerance (beyond the
// same instant), the bits it would have sent until `due` are not carried: no link ever carries more
// than its capacity, and how early and how many bytes are recorded.
void FlowTransport::end_transfer(FlowId f, double due) {
  TransportResult& r = *r_;
  const MessageId m = message_of(f);
  flow_[f].phase = Phase::Done;
  r.state[m] = FlowState::Delivered;
  r.transfer_end_s[m] = now_;
  const bool mix_started = mixed(f) && mixed_->started(f);
  if (options_.batch_tolerance > 0 && due - now_ > kSameInstant * now_) {
    ++r.ended_early;
    r.max_early_s = std::max(r.max_early_s, due - now_);
    r.max_early_relative = std::max(r.max_early_relative, (due - now_) / due);
    const std::uint32_t v = first_var(f);
    const double rate = clocked(f)    ? weight_[v] * clock_of(v).level(clock_of(v).group(v))
                        : mix_started ? mixed_->rate(f)
                                      : flow_[f].rate;
    if (std::isfinite(rate)) r.early_bytes_cut += rate * 1e9 * (due - now_) / 8;
  }
  if (!coupled(f)) {  // a coupled flow's delivery is the hybrid transport's
    r.finish_s[m] = now_ + r.latency_s[m];
    if (messages_->delivery_awaited(m)) deliveries_.push({r.finish_s[m], m});
  }
  total_gbps_.add(-flow_[f].rate);
  --active_flows_;
  if (clocked(f) || mix_started) leave_clock(f);
  for (std::uint32_t v = first_var(f); v < end_var(f); ++v) {
    settle_var(v);  // (a path followed by a clock has rate 0 here: its bits stand)
    var_[v].rate = 0;
    for (LinkId l : links_of(v)) {  // (streamed, the links are the solver's: before it lets v go)
      if (--link_active_[l] == 0) r.link_busy_s[l] += now_ - busy_since_[l];
      // Streamed, the path's bits go to its links now; held, close() adds them up.
      if (streamed_) r.link_bytes[l] += var_[v].bits / 8;
    }
    solver_->deactivate(v);
  }
  if (streamed_) free_slot(f);
}

MessageId FlowTransport::pop_delivery() {
  const MessageId m = deliveries_.top().message;
  deliveries_.pop();
  return m;
}

void FlowTransport::end_batch() {
  if (!changed_) return;  // only deliveries: the rates stand
  changed_ = false;
  ++r_->batches;
  // The solver's share of the time: every batch of the first 64, then every 8th counted 8 times (reading
  // the clock around every batch costs a few per cent of a light-load run).
  const bool timed = options_.profile || r_->batches <= 64 || r_->batches % 8 == 0;
  const double weight_of_batch = options_.profile || r_->batches <= 64 ? 1.0 : 8.0;
  if (timed) solve_clock_.reset();
  solve();
  const double solve_s = timed ? solve_clock_.seconds() : 0.0;
  r_->solve_seconds += weight_of_batch * solve_s;
  if (options_.profile) {
    r_->profile.solve_s += solve_s;
    profile_rates();
  } else {
    update_rates();
  }
  if (solver_->grouped_levels() > 0) ++r_->batches_over_groups;
  if (switch_) consider_switch();
  double clocked_gbps = 0;
  for (const GroupClocks& c : clocks_) clocked_gbps += c.gbps();
  if (mixed_) clocked_gbps += mixed_->clocks().gbps();
  segments_.push_back({now_, std::max(0.0, total_gbps_.value() + clocked_gbps)});
  segment_active_.push_back(active_flows_);
  if (options_.verify) verify();
}

void FlowTransport::solve() {
  const maxmin::IncrementalStats before = options_.profile ? solver_->stats() : maxmin::IncrementalStats{};
  if (options_.incremental)
    solver_->update();
  else
    solver_->solve_all();
  if (!options_.profile) return;
  const maxmin::IncrementalStats after = solver_->stats();
  r_->profile.count_batch(after.solved_vars - before.solved_vars, after.changed_vars - before.changed_vars);
}

void FlowTransport::update_rates() {
  if (!grouped_.empty() || mixed_) update_clocks();
  ++stamp_;
  touched_.clear();
  for (std::uint32_t v : solver_->changed()) {
    settle_var(v);
    var_[v].rate = solver_->rate(v);
    const FlowId f = var_flow_[v];
    if (flow_[f].mark != stamp_) {
      flow_[f].mark = stamp_;
      touched_.push_back(f);
    }
  }
  for (FlowId f : touched_) {
    if (flow_[f].phase != Phase::Active) continue;
    settle_flow(f);
    double rate = 0;
    for (std::uint32_t v = first_var(f); v < end_var(f); ++v) rate += var_[v].rate;
    total_gbps_.add(rate - flow_[f].rate);
    flow_[f].rate = rate;
    if (!options_.profile) rekey_end(f);
  }
}

// All at now: a variable that changed group leaves the clock it ran by (its group's level until now)
// with the bits it has left and joins its new group's; then the groups take their new levels; the same
// for the mixes; then the flows started in this batch join their groups or mixes.
void FlowTransport::update_clocks() {
  for (std::size_t k = 0; k < grouped_.size(); ++k) {
    const maxmin::GroupedMaxMin& g = *grouped_[k];
    GroupClocks& clocks = clocks_[k];
    for (const std::uint32_t v : g.moved()) {
      if (!clocks.member(v)) continue;  // started in this batch: joins below
      const std::uint32_t to = g.group_of(v);
      if (clocks.group(v) == to) continue;
      const double bits = clocks.leave(v, now_);
      clocks.join(v, to, bits, weight_[v], g.group_level(to), now_);
    }
    for (const std::uint32_t group : g.level_changed()) clocks.set_level(group, g.group_level(group), now_);
  }
  if (mixed_) mixed_->update(now_);
  for (const FlowId f : clock_starts_) {
    if (flow_[f].phase != Phase::Active) continue;
    const std::uint32_t v = first_var(f);
    if (mixed(f)) {
      mixed_->start(f, v, end_var(f), flow_[f].remaining_bits, now_);
      ++r_->mix_clocked;
      continue;
    }
    ++r_->group_clocked;
    const maxmin::GroupedMaxMin& g = *grouped_[solver_->level_of(v)];
    clock_of(v).join(v, g.group_of(v), flow_[f].remaining_bits, weight_[v], g.group_level(g.group_of(v)), now_);
  }
  clock_starts_.clear();
}

void FlowTransport::consider_switch() {
  std::uint64_t clustered = 0, rest = 0;
  if (switch_->towards() == GroupSwitch::Towards::groups)
    count_clustered_over_variables(clustered, rest);
  else
    count_clustered_over_groups(clustered, rest);
  if (!switch_->observe(clustered, rest)) return;
  ++r_->solver_switches;
  if (switch_->towards() == GroupSwitch::Towards::groups) {
    switch_.emplace(options_.back_switch, GroupSwitch::Towards::variables);
    switch_to_groups();
  } else {
    switch_.emplace(options_.group_switch, GroupSwitch::Towards::groups);
    switch_to_variables();
  }
}

// Over variables: of the changed variables, those in large levels as estimated from a sample of
// them (GroupSwitch::in_large_levels, scaled by the sample's stride), and the others.
void FlowTransport::count_clustered_over_variables(std::uint64_t& clustered, std::uint64_t& rest) {
  const std::vector<std::uint32_t>& list = solver_->changed();
  const std::uint64_t changed = list.size();
  if (switch_->wants_levels(changed)) {
    const std::uint64_t stride = GroupSwitch::stride(changed);
    level_scratch_.clear();
    for (std::size_t i = 0; i < list.size(); i += stride)
      level_scratch_.push_back(solver_->rate(list[i]) / weight_[list[i]]);
    clustered = std::min(changed, GroupSwitch::in_large_levels(level_scratch_, switch_->settings().per_level) * stride);
  }
  rest = changed - clustered;
}

// Over groups, exactly: the members of the groups whose level changed, as the solvers counted them
// when they committed the levels (before merging groups frozen at one level: a group read afterwards
// may have taken in unchanged ones, or been taken in), in every level solver and the leftover; those
// of large groups, and the others.
void FlowTransport::count_clustered_over_groups(std::uint64_t& clustered, std::uint64_t& rest) {
  const double large = switch_->settings().per_level;
  const auto count = [&](const maxmin::GroupedMaxMin& g) {
    for (const std::uint32_t members : g.level_changed_members())
      (static_cast<double>(members) >= large ? clustered : rest) += members;
  };
  for (std::size_t k = 0; k < solver_->grouped_levels(); ++k) count(*solver_->grouped(k));
  if (solver_->grouped_leftover() != nullptr) count(*solver_->grouped_leftover());
}

// At the end of a batch, its rates in place: what each active flow and path sent is settled and the
// per-flow accounting let go (rate 0, out of the completion heap); the solver over groups starts from an
// exact solve of the same active variables; each active flow joins its group's or mix's clock with
// the bits it has left, as a flow starting now would (update_clocks). A mixed flow's paths keep what
// they carried before in bits_before_, to which the mix adds what they carry after.
void FlowTransport::switch_to_groups() {
  if (r_->groups_from_s < 0) {
    r_->groups_from_s = now_;
    r_->groups_from_batch = r_->batches;
  }
  for (FlowId f = 0; f < flow_.size(); ++f) {
    if (flow_[f].phase != Phase::Active) continue;
    settle_flow(f);
    flow_[f].rate = 0;
    completion_.erase(f);
    for (std::uint32_t v = first_var(f); v < end_var(f); ++v) {
      settle_var(v);
      var_[v].rate = 0;
    }
    clock_starts_.push_back(f);
  }
  total_gbps_.reset();  // every active flow's rate is now its clock's
  Stopwatch clock;      // the rebuild's solve is the solver's time
  solver_->regroup(
      maxmin::SolverKind::groups, [this] { follow_groups(static_cast<FlowId>(flow_.size())); }, weight_,
      var_class_);
  count_rebuild(clock.seconds());
  if (mixed_) {
    bits_before_.resize(var_.size());
    for (std::size_t v = 0; v < var_.size(); ++v) bits_before_[v] = var_[v].bits;
  }
  update_clocks();
}

// At the end of a batch, its rates in place (each flow's clock settled to now): each active flow takes
// the bits its clock has left and each path what it carried (as a flow's end would give them), the
// clocks are let go, the solver over variables starts from an exact solve of the same active
// variables, and every flow's rate and end are its own again (update_rates, from rate 0).
void FlowTransport::switch_to_variables() {
  for (FlowId f = 0; f < flow_.size(); ++f) {
    if (flow_[f].phase != Phase::Active) continue;
    if (!clocked(f) && !(mixed(f) && mixed_->started(f)))
      throw std::logic_error("FlowTransport: a flow in transfer over groups follows no clock");
    const double left = leave_clock(f);
    for (std::uint32_t v = first_var(f); v < end_var(f); ++v) {
      var_[v].rate = 0;
      var_[v].last = now_;
    }
    flow_[f].remaining_bits = left;
    flow_[f].rate = 0;
    flow_[f].last = now_;
  }
  grouped_.clear();
  clocks_.clear();
  mixed_.reset();
  bits_before_.clear();
  total_gbps_.reset();
  Stopwatch clock;
  solver_->regroup(maxmin::SolverKind::variables, [] {}, weight_, var_class_);
  count_rebuild(clock.seconds());
  if (options_.profile)
    profile_rates();
  else
    update_rates();
}

double FlowTransport::leave_clock(FlowId f) {
  const double total = messages_->bytes[message_of(f)] * 8;
  if (clocked(f)) {
    const std::uint32_t v = first_var(f);
    const double left = clock_of(v).leave(v, now_);
    var_[v].bits = total - left;
    return left;
  }
  const double left = mixed_->finish(f, now_, total - bits_before_flow(f));
  for (std::uint32_t v = first_var(f); v < end_var(f); ++v) var_[v].bits = bits_before(v) + mixed_->bits(v);
  return left;
}

void FlowTransport::count_rebuild(double solve_s) {
  r_->solve_seconds += solve_s;
  if (options_.profile) r_->profile.solve_s += solve_s;
}

double FlowTransport::bits_before_flow(FlowId f) const {
  double bits = 0;
  if (!bits_before_.empty())
    for (std::uint32_t v = first_var(f); v < end_var(f); ++v) bits += bits_before_[v];
  return bits;
}

double FlowTransport::carried_bits(FlowId f, std::uint32_t v) {
  return messages_->bytes[message_of(f)] * 8 - clock_of(v).bits_left(v, now_);
}

// An active flow's transfer end, from its remaining bits and rate, in the completion heap.
void FlowTransport::rekey_end(FlowId f) {
  const double rate = flow_[f].rate;
  if (rate > 0)
    completion_.set(f, now_ + (std::isinf(rate) ? 0.0 : flow_[f].remaining_bits / (rate * 1e9)));
  else
    completion_.erase(f);
}

// --profile: the rates, then the heap's re-keying in a loop of its own, each timed.
void FlowTransport::profile_rates() {
  {
    const ProfileClock clock(true, r_->profile.rates_s);
    update_rates();
  }
  const ProfileClock clock(true, r_->profile.heap_s);
  for (FlowId f : touched_)
    if (flow_[f].phase == Phase::Active) {
      rekey_end(f);
      ++r_->profile.heap_updates;
    }
}

void FlowTransport::verify() {
  if (streamed_) {  // the variable numbers in use, the active ones with their links
    std::vector<std::uint64_t> offsets{0};
    std::vector<LinkId> links;
    for (std::uint32_t v = 0; v < next_var_; ++v) {
      if (solver_->active(v)) {
        const std::span<const LinkId> own = links_of(v);
        links.insert(links.end(), own.begin(), own.end());
      }
      offsets.push_back(links.size());
    }
    verify_against(offsets, links);
    return;
  }
  const PathTable& paths = r_->paths;
  verify_against(solver_offsets_.empty() ? paths.var_offsets() : solver_offsets_,
                 solver_offsets_.empty() ? paths.all_links() : std::span<const LinkId>(solver_links_));
}

void FlowTransport::verify_against(std::span<const std::uint64_t> offsets, std::span<const LinkId> links) {
  const auto vars = static_cast<std::uint32_t>(weight_.size());
  std::vector<std::uint8_t> active(vars);
  for (std::uint32_t v = 0; v < vars; ++v) active[v] = solver_->active(v);
  const std::vector<double> full =
      maxmin::solve_classes_from_scratch(options_.policy, capacity_, offsets, links, weight_, var_class_, active);
  // Relative error, with rates a rounding error away from 0 measured against the largest capacity.
  const double floor = 1e-9 * std::max(1.0, *std::max_element(capacity_.begin(), capacity_.end()));
  for (std::uint32_t v = 0; v < vars; ++v)
    if (active[v] && std::isfinite(full[v]))
      r_->max_verify_error =
          std::max(r_->max_verify_error, std::abs(solver_->rate(v) - full[v]) / std::max(floor, std::abs(full[v])));
}

void FlowTransport::close() {
  TransportResult& r = *r_;
  r.simulate_seconds = run_clock_.seconds();
  // Flows left active (a rate of 0 forever) or never started stay blocked.
  for (FlowId f = 0; f < flow_.size(); ++f)
    if (flow_[f].phase == Phase::Active) {
      const bool mix_started = mixed(f) && mixed_->started(f);
      if (mix_started) mixed_->settle(f, now_, messages_->bytes[message_of(f)] * 8 - bits_before_flow(f));
      for (std::uint32_t v = first_var(f); v < end_var(f); ++v) {
        settle_var(v);
        if (clocked(f) && clock_of(v).member(v)) var_[v].bits = carried_bits(f, v);
        if (mix_started) var_[v].bits = bits_before(v) + mixed_->bits(v);
        if (streamed_)  // the held paths' bits are added up below; a slot's when its transfer ends
          for (LinkId l : links_of(v)) r.link_bytes[l] += var_[v].bits / 8;
      }
    }
  for (const double finish : r.finish_s)
    if (std::isfinite(finish)) r.makespan_s = std::max(r.makespan_s, finish);
  if (!streamed_)
    for (std::uint32_t v = 0; v < r.paths.num_vars(); ++v)
      for (LinkId l : r.paths.links(v)) r.link_bytes[l] += var_[v].bits / 8;
  for (LinkId l = 0; l < net_.num_links(); ++l)
    if (link_active_[l] > 0) r.link_busy_s[l] += now_ - busy_since_[l];
  const maxmin::IncrementalStats st = solver_->stats();
  r.solved_vars = st.solved_vars;
  r.changed_vars = st.changed_vars;
  r.solver_rounds = st.rounds;
  r.spread_solves = st.spread_solves;
  close_series();
}

// Time series: the piecewise-constant rate and active count averaged over equal bins.
void FlowTransport::close_series() {
  TransportResult& r = *r_;
  if (!r.start_series(options_.series_bins)) return;
  // Segment i holds from its time to the next segment's (the last to the makespan).
  for (std::size_t i = 0; i < segments_.size(); ++i) {
    const double a = segments_[i].time, b = i + 1 < segments_.size() ? segments_[i + 1].time : r.makespan_s;
    add_to_bins(r.series_gbps, r.bin_s, a, b, segments_[i].gbps);
    add_to_bins(r.series_active, r.bin_s, a, b, segment_active_[i]);
  }
}

}  // namespace interflow::flow
