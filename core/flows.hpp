#pragma once
// A set of flows as structure-of-arrays.
#include <cstdint>
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

}  // namespace interflow
