#pragma once
// Link failures: a number of cables, drawn uniformly at random with the run's seed, go down in both
// directions (INRFlow §3.1). Routings avoid failed links where they can; flows left without a path
// are counted as unroutable.
#include <cstdint>
#include <string>
#include <vector>

#include "core/network.hpp"

namespace interflow {

struct FailureSpec {
  // Network: cables between two switches (any cable when endpoints forward); All: every cable.
  enum class Scope { Network, All };
  double fraction = 0;     // of the cables in scope, when count < 0
  std::int64_t count = 0;  // absolute number of cables; < 0 means use `fraction`
  Scope scope = Scope::Network;

  // "5%" (a fraction of the cables in scope), "0.05" (same), or "120" (an absolute count).
  static FailureSpec parse(const std::string& text, const std::string& scope);
  bool any() const { return count > 0 || (count < 0 && fraction > 0); }
  std::string describe() const;
};

struct FailureReport {
  std::uint64_t cables_in_scope = 0;
  std::vector<LinkId> failed_links;  // one direction per failed cable (the lower link id)
};

// Takes down the chosen cables of `net`. Throws InputError when more cables are asked than exist.
FailureReport apply_failures(Network& net, const FailureSpec& spec, std::uint64_t seed);

}  // namespace interflow
