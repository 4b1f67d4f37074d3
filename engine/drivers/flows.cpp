#include "engine/drivers/flows.hpp"

#include <numeric>

#include "core/error.hpp"
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

}  // namespace

TransportResult run_flows(const Network& net, Transport& transport, const FlowWorkload& workload, Progress* progress) {
  if (!workload.flows.weight.empty())
    throw InputError("dynamic workload: per-flow max-min weights are not supported by the dynamic engine");
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
  if (identity) return r;
  r.paths = PathTableBuilder::permuted(r.paths, message);
  gather(r.state, message);
  gather(r.start_s, message);
  gather(r.transfer_end_s, message);
  gather(r.finish_s, message);
  gather(r.latency_s, message);
  return r;
}

}  // namespace interflow::drivers
