#include "engine/packet/shared_buffer.hpp"

#include "core/error.hpp"

namespace interflow::packet {

void BufferShape::check(std::uint32_t lanes, const std::string& what) const {
  const auto flits = [](std::uint64_t x) { return std::to_string(x) + " flits"; };
  if (size == 0) throw InputError(what + ": the buffer has no space");
  if (std::uint64_t{lanes} * lane_min > size)
    throw InputError(what + ": " + std::to_string(lanes) + " lanes reserving " + flits(lane_min) + " each need " +
                     flits(std::uint64_t{lanes} * lane_min) + ", more than the buffer's " + flits(size));
  if (lane_max < lane_min || lane_max == 0)
    throw InputError(what + ": a lane's maximum (" + flits(lane_max) + ") must be at least 1 flit and at least its "
                     "reserved minimum (" + flits(lane_min) + ")");
}

}  // namespace interflow::packet
