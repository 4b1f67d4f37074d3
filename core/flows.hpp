#pragma once
// A set of flows as structure-of-arrays.
#include <cstdint>
#include <memory>
#include <vector>

#include "core/types.hpp"

namespace interflow {

struct FlowSet {
  std::vector<EndpointId> src;
  std::vector<EndpointId> dst;
  std::vector<float> weight;  // max-min weight per flow; empty means every weight is 1

  std::size_t size() const { return src.size(); }
  void reserve(std::size_t n) {
    src.reserve(n);
    dst.reserve(n);
  }
  void add(EndpointId s, EndpointId d) {
    src.push_back(s);
    dst.push_back(d);
  }
  double weight_of(std::size_t f) const { return weight.empty() ? 1.0 : weight[f]; }
  void clear() {
    src.clear();
    dst.clear();
    weight.clear();
  }
};

// A flow set too large to hold, generated on demand (all-to-all among many endpoints): flows
// [first, last) of exactly the sequence a pattern would otherwise materialise, so flow f keeps its
// index (routings derive flow f's random stream from it). Streamed flows all have weight 1.
class FlowStream {
 public:
  virtual ~FlowStream() = default;
  virtual std::uint64_t size() const = 0;
  // Appends the sources and destinations of flows [first, last) to `out`.
  virtual void fill(std::uint64_t first, std::uint64_t last, FlowSet& out) const = 0;
};

}  // namespace interflow
