#pragma once
// DCell-style connection rules: how g = m + 1 copies of a unit, each with m servers that carry one
// link of this level (numbered 0..m-1 inside the copy), are joined into a complete graph of copies
// with exactly one link per pair.
//
// - alpha, DCell's original rule (Guo et al., SIGCOMM 2008, BuildDCells): for copies a < b, server
//   b-1 of copy a is cabled to server a of copy b.
// - beta, the beta-DCell rule of Kliegl, Lee, Li, Zhang, Guo, Rincon, "Generalized DCell structure
//   for load-balanced data center networks", INFOCOM Workshops 2010: server B of copy a is cabled to
//   server m-1-B of copy (a+B+1) mod (m+1); for a < b that is server b-a-1 of copy a and server
//   m-b+a of copy b.
// Used by the recursive DCell family (topologies/recursive_dcn.hpp) and by BCN's second dimension.
#include <cstdint>
#include <string>

namespace interflow::topo {

enum class DCellRule { Alpha, Beta };

inline std::string to_string(DCellRule rule) { return rule == DCellRule::Alpha ? "alpha" : "beta"; }

// The server of copy `from` whose link leads to copy `to` (from != to, both < m + 1).
inline std::uint32_t dcell_rule_gateway(DCellRule rule, std::uint32_t m, std::uint32_t from, std::uint32_t to) {
  if (rule == DCellRule::Alpha) return to < from ? to : to - 1;
  // (to - from - 1) mod (m + 1), computed without going negative; m < 2^31 so the sum fits.
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(to) + m - from) % (static_cast<std::uint64_t>(m) + 1));
}

// The copy that server `server` (0..m-1) of copy `from` links to: the inverse of dcell_rule_gateway.
inline std::uint32_t dcell_rule_target(DCellRule rule, std::uint32_t m, std::uint32_t from, std::uint32_t server) {
  if (rule == DCellRule::Alpha) return server < from ? server : server + 1;
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(from) + server + 1) %
                                    (static_cast<std::uint64_t>(m) + 1));
}

}  // namespace interflow::topo
