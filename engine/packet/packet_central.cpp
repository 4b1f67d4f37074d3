// The central stage of hierarchical (Omni-Path) switches: MPorts, their central buffers and the
// central crossbar (OpaSim: Cano et al. 2018 §2.1; Cano-Cano et al. 2024 §2.2). The input
// and output stages are those of the output-buffered switch in packet_sim.cpp.
//
// A router's ports are grouped in MPorts of `mport_ports` consecutive ports (port i of a router is
// its i-th input channel and its i-th output channel). A packet whose output is in its input's
// MPort crosses the MPort crossbar straight into the output buffer, like ib. Any other packet:
//   1. at its input, VA-SA asks for one of its MPort's `links` central links (each carrying
//      link_flits flits per cycle, of one packet after another: three 1-flit packets may cross an
//      x3 link in one cycle) and room for its VL in the MPort's central buffer (shared by the
//      VLs with a minimum and a maximum each); the MPort grants up to `links` of its inputs a
//      cycle, round robin;
//   2. it crosses (xbar_delay, the MPort crossbar's X) into the FIFO of its VL at that link's
//      central input, and is allocated again (VA-SA) central.alloc_delay cycles after its head came in;
//   3. each central input offers, round robin over its VLs, a ready head whose output buffer has
//      room and whose output's central write port has a flit slot left this cycle; each output
//      grants one central input, round robin; the packet crosses the central crossbar at out_flits
//      flits per cycle (central.xbar_delay) into the output buffer and is OB-ready output_delay
//      cycles later. Rounds repeat within the cycle while slots are left (small packets).
// Central links and crossbar ports carry flits of one packet after another at their rate (flit
// slots, occupy()). An output buffer takes in from its MPort crossbar one packet at a time and
// from the central crossbar at out_flits flits per cycle. Central space is taken at the grant and
// freed when the tail has left.
#include <algorithm>
#include <stdexcept>

#include "core/error.hpp"
#include "engine/packet/packet_sim.hpp"

namespace interflow::packet {

void PacketSim::make_central() {
  const auto& c = router_.central;
  if (!router_.output_buffered()) throw std::logic_error("PacketSim: a hierarchical switch must be output-buffered");
  if (c.links == 0 || c.link_flits == 0 || c.out_flits == 0)
    throw InputError("the central crossbar needs at least one link per MPort and one flit per cycle on each");
  if (router_.xbar_speedup != 1) throw InputError("a hierarchical switch has a crossbar speedup of 1");
  c.buffer.check(vcs_, "the switch's central buffer");
  const std::uint32_t routers = fabric_.num_routers();
  mport_first_.assign(routers + 1, 0);
  in_mport_.assign(fabric_.num_channels(), kNone);
  out_mport_.assign(fabric_.num_channels(), kNone);
  for (ElementId r = 0; r < routers; ++r) {
    const auto inputs = fabric_.inputs(r);
    const auto ports = static_cast<std::uint32_t>(std::max(inputs.size(), fabric_.outputs(r).size()));
    const std::uint32_t first = mport_first_[r];
    mport_first_[r + 1] = first + ceil_div(ports, c.mport_ports);
    for (std::uint32_t i = 0; i < inputs.size(); ++i) in_mport_[inputs[i]] = first + i / c.mport_ports;
    for (const ChannelId out : fabric_.outputs(r)) out_mport_[out] = first + fabric_.output_position(out) / c.mport_ports;
  }
  const std::uint32_t mports = mport_first_[routers];
  const std::size_t inputs = static_cast<std::size_t>(mports) * c.links;
  central_space_ = SharedBuffers(mports, vcs_, c.buffer);
  central_queues_.assign(inputs * vcs_, Queue{});
  central_link_slot_.assign(inputs, 0);
  central_send_slot_.assign(inputs, 0);
  central_vc_rr_.assign(inputs, 0);
  central_held_.assign(inputs, 0);
  central_write_slot_.assign(fabric_.num_channels(), 0);
  central_out_rr_.assign(fabric_.num_channels(), 0);
  mport_rr_.assign(mports, 0);
  stats_.central_peak.assign(mports, 0);
}

bool PacketSim::crosses_central(ChannelId in, ChannelId out) const { return in_mport_[in] != out_mport_[out]; }

// A packet of `flits` flits crosses two flit pipes of `rate` flits per cycle together (the same one
// twice for a central link): it starts at their later first free slot, no earlier than this cycle,
// and its tail goes no earlier than it arrived (`tail_here`). Returns the cycle its tail leaves.
Cycle PacketSim::occupy(std::uint64_t& a, std::uint64_t& b, std::uint32_t rate, std::uint32_t flits, Cycle tail_here) {
  const std::uint64_t start = std::max({a, b, std::uint64_t{now_} * rate});
  const Cycle tail = std::max<Cycle>((start + flits - 1) / rate, tail_here);
  a = b = std::max(start + flits, std::uint64_t{tail} * rate + 1);
  return tail;
}

// The central link of `mport` with the most room left this cycle (the least busy, so that packets
// spread over the links and their central inputs), or kNone when none has any.
std::uint32_t PacketSim::free_central_link(std::uint32_t mport) const {
  const std::uint32_t links = router_.central.links;
  std::uint32_t best = kNone;
  for (std::uint32_t k = mport * links; k < (mport + 1) * links; ++k)
    if (slot_free(central_link_slot_[k], router_.central.link_flits) &&
        (best == kNone || central_link_slot_[k] < central_link_slot_[best]))
      best = k;
  return best;
}

// Step 1: each MPort grants its requesting inputs, round robin from its pointer, while it has free
// central links and central room (an earlier grant this cycle may have taken the room).
void PacketSim::grant_central_requests() {
  central_order_.clear();
  for (std::uint32_t i = 0; i < requests_.size(); ++i)
    if (requests_[i].mport != kNone) central_order_.push_back(i);
  if (central_order_.empty()) return;
  const std::uint32_t ports = router_.central.mport_ports;
  const auto order = [&](std::uint32_t i) {
    const Request& q = requests_[i];
    return std::pair{q.mport, (q.position % ports + ports - mport_rr_[q.mport] % ports) % ports};
  };
  std::sort(central_order_.begin(), central_order_.end(),
            [&](std::uint32_t a, std::uint32_t b) { return order(a) < order(b); });
  for (const std::uint32_t i : central_order_) {
    const Request& q = requests_[i];
    const std::uint32_t link = free_central_link(q.mport);
    if (link == kNone) continue;
    const std::uint32_t central_vc = pick_vc(q.packet, q.out, central_space_, q.mport);
    if (central_vc == kNone) continue;
    to_central(q.in, q.vc, q.packet, link, central_vc);
    vc_rr_[q.in] = q.vc + 1;
    mport_rr_[q.mport] = q.position % ports + 1;
  }
}

// Step 2: the packet leaves input VC (in, vc) over central link `link` (free this cycle) into its
// VL's FIFO at that link's central input.
void PacketSim::to_central(ChannelId in, std::uint32_t vc, std::uint32_t p, std::uint32_t link,
                           std::uint32_t central_vc) {
  Queue& q = queues_[in * vcs_ + vc];
  if (q.head != p) throw std::logic_error("packet engine: a packet left from the middle of its queue");
  pop(q);
  Packet& pk = packets_[p];
  input_held_[in] -= pk.space;
  const std::uint32_t mport = link / router_.central.links;
  const Cycle tail_out = occupy(central_link_slot_[link], central_link_slot_[link], router_.central.link_flits, pk.flits, pk.tail);
  input_free_[in] = tail_out + 1;
  free_input(in, vc, pk.space, tail_out);
  central_space_.take(mport, central_vc, pk.space);  // throws if it does not fit
  pk.vc = central_vc;
  pk.ready = now_ + router_.xbar_delay + router_.central.alloc_delay;
  pk.tail = tail_out + router_.xbar_delay;
  push(central_queues_[static_cast<std::size_t>(link) * vcs_ + central_vc], p);
  ++central_held_[link];
  ++stats_.central_crossings;
  stats_.central_peak[mport] = std::max(stats_.central_peak[mport], central_space_.total(mport));
  last_progress_ = now_;
}

// Step 3, in rounds while any grant is made (at most out_flits: a round uses at least one flit slot
// of every central input it grants): the central inputs of router r with room left this cycle offer
// one head each; every output with room left grants one, round robin.
void PacketSim::step_central(ElementId r) {
  for (std::uint32_t round = 0; round < router_.central.out_flits; ++round)
    if (!central_round(r, round == 0)) break;
}

bool PacketSim::central_round(ElementId r, bool first_round) {
  const std::uint32_t links = router_.central.links;
  const std::uint32_t first = mport_first_[r] * links, last = mport_first_[r + 1] * links;
  central_requests_.clear();
  for (std::uint32_t ci = first; ci < last; ++ci) {
    if (central_held_[ci] == 0 || !slot_free(central_send_slot_[ci], router_.central.out_flits)) continue;
    std::uint32_t v = central_vc_rr_[ci] < vcs_ ? central_vc_rr_[ci] : 0;
    for (std::uint32_t k = 0; k < vcs_; ++k, v = v + 1 == vcs_ ? 0 : v + 1) {
      const std::uint32_t p = central_queues_[static_cast<std::size_t>(ci) * vcs_ + v].head;
      if (p == kNone || packets_[p].ready > now_) continue;
      const ChannelId out = packets_[p].out;
      if (!slot_free(central_write_slot_[out], router_.central.out_flits)) continue;
      const std::uint32_t out_vc = pick_vc(p, out, out_space_);
      if (out_vc == kNone) {
        stats_.credit_stalls += first_round;  // counted once a cycle, not once a round
        continue;
      }
      central_requests_.push_back({ci, v, p, out, out_vc, ci - first});
      break;
    }
  }
  if (central_requests_.empty()) return false;
  const std::uint32_t n = last - first;
  const auto order = [&](const Request& q) { return (q.position + n - central_out_rr_[q.out] % n) % n; };
  std::sort(central_requests_.begin(), central_requests_.end(), [&](const Request& a, const Request& b) {
    return a.out != b.out ? a.out < b.out : order(a) < order(b);
  });
  for (std::size_t i = 0; i < central_requests_.size(); ++i)
    if (i == 0 || central_requests_[i].out != central_requests_[i - 1].out) {
      const Request& q = central_requests_[i];
      from_central(q.in, q.vc, q.packet, q.out, q.out_vc);
      central_vc_rr_[q.in] = q.vc + 1;
      central_out_rr_[q.out] = q.position + 1;
    }
  return true;
}

// The packet leaves central input `input` across the central crossbar into output buffer `out`.
void PacketSim::from_central(std::uint32_t input, std::uint32_t vc, std::uint32_t p, ChannelId out,
                             std::uint32_t out_vc) {
  const std::size_t slot = static_cast<std::size_t>(input) * vcs_ + vc;
  if (central_queues_[slot].head != p) throw std::logic_error("packet engine: a packet left the middle of a central FIFO");
  pop(central_queues_[slot]);
  --central_held_[input];
  Packet& pk = packets_[p];
  const Cycle tail_out =
      occupy(central_send_slot_[input], central_write_slot_[out], router_.central.out_flits, pk.flits, pk.tail);
  schedule(tail_out + 1, kCentralFree, (input / router_.central.links) * vcs_ + vc, pk.space);
  out_space_.take(out, out_vc, pk.space);  // throws if it does not fit
  pk.vc = out_vc;
  pk.ready = now_ + router_.central.xbar_delay + router_.output_delay;
  pk.tail = tail_out + router_.central.xbar_delay;
  push(out_queues_[out * vcs_ + out_vc], p);
  ++out_waiting_[out];
  stats_.output_peak[out] = std::max(stats_.output_peak[out], out_space_.total(out));
  last_progress_ = now_;
}

// Per MPort and VL: space taken = flits queued at its central inputs + flits still leaving; no VL
// above its maximum, no central buffer above its size.
void PacketSim::check_central(const std::vector<std::int64_t>& releasing, std::uint64_t& queued) const {
  const auto fail = [](const std::string& what) { throw std::logic_error("packet engine invariant: " + what); };
  const std::uint32_t links = router_.central.links;
  const auto mports = static_cast<std::uint32_t>(mport_first_.back());
  for (std::uint32_t m = 0; m < mports; ++m) {
    for (std::uint32_t v = 0; v < vcs_; ++v) {
      std::int64_t held = 0;
      for (std::uint32_t ci = m * links; ci < (m + 1) * links; ++ci) {
        const Queue& q = central_queues_[static_cast<std::size_t>(ci) * vcs_ + v];
        held += q.flits;
        for (std::uint32_t p = q.head; p != kNone; p = packets_[p].next) ++queued;
      }
      const std::uint32_t used = central_space_.used(m, v);
      if (used != held + releasing[static_cast<std::size_t>(m) * vcs_ + v])
        fail("central buffer of MPort " + std::to_string(m) + " VL " + std::to_string(v) +
             ": taken space != flits held + flits leaving");
      if (used > central_space_.shape().lane_max) fail("central buffer of MPort " + std::to_string(m) + ": a VL over its maximum");
    }
    if (central_space_.total(m) > central_space_.shape().size)
      fail("central buffer of MPort " + std::to_string(m) + " over its size");
  }
}

}  // namespace interflow::packet
