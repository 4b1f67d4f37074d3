#pragma once
// Basic identifiers shared by every module.
#include <cstdint>
#include <limits>

namespace interflow {

using VertexId = std::uint32_t;    // a switch, router or endpoint (server) of the network
using LinkId = std::uint32_t;      // a directed link; every cable is two of them
using EndpointId = std::uint32_t;  // index of a traffic source/sink, 0..num_endpoints-1
using FlowId = std::uint32_t;

inline constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

}  // namespace interflow
