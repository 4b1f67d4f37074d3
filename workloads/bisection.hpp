#pragma once
// How the bisection pattern splits the endpoints into two halves. Exposed so that tests and
// analyses can compute the capacity of the cut between the halves a run actually used.
#include <cstdint>
#include <vector>

#include "core/random.hpp"
#include "core/types.hpp"

namespace interflow::workloads {

enum class BisectionHalves {
  Random,  // uniformly random halves drawn by the seed (INRFlow's definition)
  Split,   // ids 0..N/2-1 against ids N/2..2*(N/2)-1
};

inline constexpr std::uint8_t kIdleHalf = 2;  // the one endpoint left out when N is odd

// Endpoints in half order: positions [0, h) form half 0, [h, 2h) half 1, with h = n/2; for odd n
// the last position holds the idle endpoint. Random halves shuffle all ids with `rng` (Fisher–Yates
// from the top); split halves are the identity and draw nothing.
std::vector<EndpointId> bisection_order(std::uint32_t n, BisectionHalves halves, Rng& rng);

// Half (0 or 1, or kIdleHalf) of every endpoint, exactly as the bisection pattern draws them for
// a run with seed `run_seed` (it derives Stream::Pattern itself).
std::vector<std::uint8_t> bisection_halves(std::uint32_t n, BisectionHalves halves, std::uint64_t run_seed);

}  // namespace interflow::workloads
