#pragma once
// MPI's non-overtaking rule, as operation graphs match receives to sends (core/op_graph.cpp): on each
// channel (sender, receiver, tag, size) the k-th receive matches the k-th send, both in program order.
#include <algorithm>
#include <cstdint>
#include <tuple>
#include <vector>

namespace interflow {

// One end of a message on its channel; `id` increases in program order (and names the send or the
// receive to the caller).
struct ChannelEnd {
  std::uint64_t pair;  // sender << 32 | receiver
  std::uint32_t tag;
  double bytes;
  std::uint32_t id;
  bool operator<(const ChannelEnd& o) const {
    return std::tie(pair, tag, bytes, id) < std::tie(o.pair, o.tag, o.bytes, o.id);
  }
  bool same_channel(const ChannelEnd& o) const { return pair == o.pair && tag == o.tag && bytes == o.bytes; }
};

// Sorts both lists and calls on_match(send, receive) for every receive that has its send; receives
// beyond their channel's sends (and sends beyond its receives) stay unmatched.
template <class OnMatch>
void match_in_order(std::vector<ChannelEnd>& sends, std::vector<ChannelEnd>& recvs, OnMatch&& on_match) {
  std::sort(sends.begin(), sends.end());
  std::sort(recvs.begin(), recvs.end());
  for (std::size_t i = 0, j = 0; j < recvs.size(); ++j) {
    // Move to the first send of a channel >= the receive's channel, past those already matched.
    while (i < sends.size() && sends[i] < recvs[j] && !sends[i].same_channel(recvs[j])) ++i;
    if (i < sends.size() && sends[i].same_channel(recvs[j])) on_match(sends[i++], recvs[j]);
  }
}

}  // namespace interflow
