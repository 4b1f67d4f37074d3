#include "engine/drivers/flows.hpp"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <numeric>
#include <thread>

#include <tbb/global_control.h>

#include "core/error.hpp"
#include "core/radix_sort.hpp"
#include "engine/drivers/driver.hpp"

namespace interflow::drivers {

namespace {

// values[f] = values[at[f]] for every f (a gather, into a fresh vector).
template <class T>
void gather(std::vector<T>& values, const std::vector<MessageId>& at) {
  std::vector<T> out(at.size());
  for (std::size_t f = 0; f < at.size(); ++f) out[f] = values[at[f]];
  values = std::move(out);
}

// The per-message results into flow order: flow f's are those of message message[f].
void reorder(TransportResult& r, const std::vector<MessageId>& message) {
  if (r.paths.num_flows() > 0) r.paths = PathTableBuilder::permuted(r.paths, message);
  gather(r.state, message);
  gather(r.start_s, message);
  gather(r.transfer_end_s, message);
  gather(r.finish_s, message);
  gather(r.latency_s, message);
  if (!r.path_vars.empty()) gather(r.path_vars, message);
}

// The dynamic engine has no per-flow max-min weights.
void refuse_weights(const FlowWorkload& workload) {
  if (!workload.flows.weight.empty())
    throw InputError("dynamic workload: per-flow max-min weights are not supported by the dynamic engine");
}

}  // namespace

TransportResult run_flows(const Network& net, Transport& transport, const FlowWorkload& workload, Progress* progress) {
  refuse_weights(workload);
  std::vector<std::uint32_t> op_of;
  std::vector<Application> apps(1);
  apps[0].name = "flows";
  apps[0].graph = flow_graph(workload, net.num_endpoints(), op_of);
  apps[0].placement.resize(apps[0].graph.ranks);
  std::iota(apps[0].placement.begin(), apps[0].placement.end(), EndpointId{0});
  DriverOptions options;
  options.progress = progress;
  options.summarise = false;  // a flow's result is its own; the one "application" needs no summary
  RunResult run = Driver(net, transport, options).run(apps);

  // Messages back into flow order: flow f is the message of its operation.
  std::vector<MessageId> message_of_op(apps[0].graph.size(), kNone);
  for (MessageId m = 0; m < run.message_op.size(); ++m) message_of_op[run.message_op[m]] = m;
  std::vector<MessageId> message(workload.size());
  bool identity = true;
  for (std::size_t f = 0; f < workload.size(); ++f) {
    message[f] = message_of_op[op_of[f]];
    identity = identity && message[f] == f;
  }
  TransportResult r = std::move(run.flows);
  if (!identity) reorder(r, message);
  return r;
}

bool open_loop(const FlowWorkload& workload) { return workload.after.empty() && workload.phase.empty(); }

bool worth_streaming(const FlowWorkload& workload) {
  if (!open_loop(workload) || workload.start_s.empty()) return false;
  const auto [first, last] = std::minmax_element(workload.start_s.begin(), workload.start_s.end());
  return *first != *last;
}

namespace {

// The flows in order of start time, ties in flow order (empty: they are in that order already).
std::vector<FlowId> start_order(const std::vector<double>& start_s) {
  if (std::is_sorted(start_s.begin(), start_s.end())) return {};
  return order_by_key(start_s);
}

// The workload's flows as messages in start order (message i is flow order[i], routed as that flow),
// so that the transport reads and writes its per-message arrays front to back as the run goes.
MessageTable messages_in_order(const FlowWorkload& w, const std::vector<FlowId>& order) {
  MessageTable messages;
  messages.awaited.assign(w.size(), 0);  // nothing waits for a delivery: each is only written
  if (order.empty()) {
    messages.ends = w.flows;
    messages.bytes = w.bytes;
    messages.service_class = w.service_class;
    return messages;
  }
  messages.ends.reserve(w.size());
  messages.bytes.reserve(w.size());
  for (const FlowId f : order) {
    messages.ends.add(w.flows.src[f], w.flows.dst[f]);
    messages.bytes.push_back(w.bytes[f]);
    if (!w.service_class.empty()) messages.service_class.push_back(w.service_class[f]);
  }
  messages.route_index = order;
  return messages;
}

// Hands the final results to a ResultStream as the run goes, on a thread of its own: the simulation
// marks each message done and after each batch moves the watermark (every message below it done);
// the thread writes the messages below it in chunks, so formatting and writing overlap the simulation
// on a second core. The per-message arrays are sized before the run and never moved, and a message's
// entries are written before the watermark passes it (released by the mutex): the thread reads only
// entries no longer written. Limited to one thread (-j 1), the simulation writes each chunk itself.
class StreamWriter {
 public:
  StreamWriter(ResultStream* stream, const FlowWorkload& workload, const TransportResult& r,
               std::span<const FlowId> order)
      : stream_(stream), workload_(workload), r_(r), order_(order) {
    if (!stream_) return;
    done_.assign(workload.size(), 0);
    stream_->begin();
    if (tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism) > 1)
      thread_ = std::thread([this] { run_thread(); });
  }
  StreamWriter(const StreamWriter&) = delete;
  StreamWriter& operator=(const StreamWriter&) = delete;
  ~StreamWriter() { stop(); }  // a failed run: the thread stops, what it did not write is dropped

  void done(MessageId m) {
    if (stream_) done_[m] = 1;
  }
  // After a batch: the watermark past the messages done; the thread woken every kChunk of them.
  void advance() {
    if (!stream_) return;
    while (mark_ < done_.size() && done_[mark_]) ++mark_;
    if (mark_ - handed_ >= kChunk) hand_over(mark_, false);
  }
  // Every result final (the transport closed): the rest handed over, the thread joined, its error
  // rethrown.
  void finish() {
    if (!stream_) return;
    const bool threaded = thread_.joinable();
    hand_over(done_.size(), true);
    if (!threaded) return;
    thread_.join();
    if (error_) std::rethrow_exception(error_);
  }

 private:
  static constexpr std::size_t kChunk = std::size_t{1} << 12;

  void hand_over(std::size_t ready, bool last) {
    if (!thread_.joinable()) {  // one thread: written here
      if (ready > handed_) stream_->write(workload_, r_, order_, handed_, ready);
      handed_ = ready;
      return;
    }
    {
      const std::lock_guard lock(mutex_);
      ready_ = ready;
      finished_ = last;
    }
    handed_ = ready;
    wake_.notify_one();
  }
  void stop() {
    if (!thread_.joinable()) return;
    {
      const std::lock_guard lock(mutex_);
      finished_ = true;
      abandoned_ = true;
    }
    wake_.notify_one();
    thread_.join();
  }
  void run_thread() {
    std::size_t written = 0;
    try {
      for (;;) {
        std::size_t ready;
        bool last;
        {
          std::unique_lock lock(mutex_);
          wake_.wait(lock, [&] { return ready_ > written || finished_; });
          if (abandoned_) return;
          ready = ready_;
          last = finished_;
        }
        if (ready > written) stream_->write(workload_, r_, order_, written, ready);
        written = ready;
        if (last) return;  // finish() handed over every message at once
      }
    } catch (...) {
      error_ = std::current_exception();
    }
  }

  ResultStream* stream_;
  const FlowWorkload& workload_;
  const TransportResult& r_;
  std::span<const FlowId> order_;
  std::vector<std::uint8_t> done_;  // per message
  std::size_t mark_ = 0, handed_ = 0;  // simulation thread: the watermark, and what the thread was given
  std::mutex mutex_;
  std::condition_variable wake_;
  std::size_t ready_ = 0;  // guarded: messages below it may be written
  bool finished_ = false, abandoned_ = false;
  std::exception_ptr error_;  // the thread's, read after join
  std::thread thread_;
};

}  // namespace

TransportResult run_open_loop(const Network& net, Transport& transport, const FlowWorkload& workload,
                              Progress* progress, ResultStream* stream) {
  refuse_weights(workload);
  if (!open_loop(workload)) throw InputError("run_open_loop: the workload has dependencies or phases");
  check_flow_workload(workload, net.num_endpoints());
  std::vector<FlowId> order = start_order(workload.start_s);
  MessageTable messages = messages_in_order(workload, order);
  const auto start_of = [&](std::size_t i) { return workload.start_s[order.empty() ? i : order[i]]; };
  // The start times are read in start order, scattered over the workload: fetched a few flows ahead.
  constexpr std::size_t kAhead = 16;
  const auto fetch_ahead = [&](std::size_t i) {
    if (!order.empty() && i + kAhead < order.size()) __builtin_prefetch(&workload.start_s[order[i + kAhead]]);
  };
  TransportResult r;
  transport.open(messages, r);
  StreamWriter writer(stream, workload, r, order);
  if (progress) progress->phase("simulating: flows started", workload.size());
  std::vector<MessageId> sent;
  std::size_t next = 0;
  for (;;) {
    const double start = next < workload.size() ? start_of(next) : Transport::kNever;
    const double t = std::min(transport.next_event(start), start);
    if (t == Transport::kNever) break;
    // Transfer ends up to the horizon form the batch; starts are due only at the batch's time.
    const double horizon = transport.advance_to(t);
    sent.clear();
    transport.take_sent(horizon, sent);
    for (const MessageId m : sent) writer.done(m);
    std::size_t events = sent.size();
    for (; next < workload.size() && start_of(next) <= transport.now(); ++next, ++events) {
      fetch_ahead(next);
      if (!transport.start(static_cast<MessageId>(next))) writer.done(static_cast<MessageId>(next));
    }
    r.events += events;
    if (progress) progress->counter()->store(next, std::memory_order_relaxed);
    transport.end_batch();
    writer.advance();
  }
  transport.close();
  writer.finish();
  messages = MessageTable{};  // read by the transport until close(); freed before the results are gathered
  if (order.empty()) return r;
  std::vector<MessageId> position(order.size());  // flow f was message position[f]
  for (std::size_t i = 0; i < order.size(); ++i) position[order[i]] = static_cast<MessageId>(i);
  std::vector<FlowId>().swap(order);  // freed before the results are gathered: the run's peak memory is here
  reorder(r, position);
  return r;
}

}  // namespace interflow::drivers
