#pragma once
// Buffer space of ports shared by their lanes (virtual channels / virtual lanes): one port's buffer
// of `size` flits, in which each lane may hold at most `lane_max` flits, `lane_min` of which are
// reserved for it; the rest, size - lanes x lane_min, is a pool any lane may draw on (the dynamic
// buffer sharing of Cano-Cano et al. 2024 §2.1 and §5.2: "both architectures dynamically manage the
// VL buffer storage space").
//
// A static split of B flits per lane is the special case size = lanes x B, lane_min = lane_max = B:
// the pool is empty and a lane fits a packet exactly when its own B flits do, as plain credits.
//
// Correctness. Let u_v be lane v's usage. Its pool part is p_v = max(0, u_v - lane_min); the pool
// holds P = sum p_v (kept incrementally). Adding f flits to lane v is allowed when
//   u_v + f <= lane_max   and   P - p_v + max(0, u_v + f - lane_min) <= size - lanes x lane_min,
// so after any sequence of allowed takes, every lane is within its maximum, the pool within its
// size, and the whole buffer within size (sum u_v <= lanes x lane_min + P). Freeing only lowers u_v
// and P, so it never breaks these bounds. room() is the largest f that passes both tests.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace interflow::packet {

struct BufferShape {
  std::uint32_t size = 8;      // flits of the whole port buffer
  std::uint32_t lane_min = 8;  // flits reserved for each lane
  std::uint32_t lane_max = 8;  // flits any one lane may hold

  // A static split: each of `lanes` lanes owns `flits`.
  static BufferShape split(std::uint32_t lanes, std::uint32_t flits) { return {lanes * flits, flits, flits}; }
  // Throws InputError naming `what` when the shape is inconsistent for `lanes` lanes.
  void check(std::uint32_t lanes, const std::string& what) const;
};

class SharedBuffers {
 public:
  SharedBuffers() = default;
  SharedBuffers(std::size_t ports, std::uint32_t lanes, const BufferShape& shape)
      : shape_(shape), lanes_(lanes), pool_size_(shape.size - lanes * shape.lane_min), used_(ports * lanes, 0),
        pool_(ports, 0), total_(ports, 0) {}

  // The most flits lane `lane` of `port` could take now.
  std::uint32_t room(std::size_t port, std::uint32_t lane) const {
    const std::uint32_t u = used_[port * lanes_ + lane];
    if (u >= shape_.lane_max) return 0;
    if (pool_size_ == 0) return shape_.lane_min - u;  // a static split: each lane its own
    const std::uint32_t own = u < shape_.lane_min ? shape_.lane_min - u : 0;
    const std::uint32_t pool_free = pool_size_ - pool_[port];
    const std::uint32_t by_pool = own + pool_free;
    const std::uint32_t by_max = shape_.lane_max - u;
    return by_pool < by_max ? by_pool : by_max;
  }
  bool fits(std::size_t port, std::uint32_t lane, std::uint32_t flits) const { return flits <= room(port, lane); }

  void take(std::size_t port, std::uint32_t lane, std::uint32_t flits) {
    if (!fits(port, lane, flits)) throw std::logic_error("shared buffer: a packet taken without room");
    set(port, lane, used_[port * lanes_ + lane] + flits);
  }
  void give(std::size_t port, std::uint32_t lane, std::uint32_t flits) {
    const std::uint32_t u = used_[port * lanes_ + lane];
    if (flits > u) throw std::logic_error("shared buffer: more flits freed than held");
    set(port, lane, u - flits);
  }

  std::uint32_t used(std::size_t port, std::uint32_t lane) const { return used_[port * lanes_ + lane]; }
  std::uint32_t pool_used(std::size_t port) const { return pool_[port]; }
  std::uint32_t total(std::size_t port) const { return total_[port]; }  // flits held by every lane
  std::uint32_t lanes() const { return lanes_; }
  std::size_t used_size() const { return used_.size(); }  // ports x lanes
  const BufferShape& shape() const { return shape_; }

 private:
  void set(std::size_t port, std::uint32_t lane, std::uint32_t u) {
    std::uint32_t& slot = used_[port * lanes_ + lane];
    const auto over = [&](std::uint32_t x) { return x > shape_.lane_min ? x - shape_.lane_min : 0; };
    pool_[port] = pool_[port] - over(slot) + over(u);
    total_[port] = total_[port] - slot + u;
    slot = u;
  }

  BufferShape shape_;
  std::uint32_t lanes_ = 1;
  std::uint32_t pool_size_ = 0;      // size - lanes x lane_min
  std::vector<std::uint32_t> used_;  // port x lane
  std::vector<std::uint32_t> pool_;  // per port: flits held beyond the lanes' reserved parts
  std::vector<std::uint32_t> total_;  // per port: flits held
};

}  // namespace interflow::packet
