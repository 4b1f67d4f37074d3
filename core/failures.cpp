#include "core/failures.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <unordered_set>

#include "core/error.hpp"
#include "core/params.hpp"
#include "core/random.hpp"

namespace interflow {

FailureSpec FailureSpec::parse(const std::string& text, const std::string& scope) {
  FailureSpec spec;
  if (scope == "network")
    spec.scope = Scope::Network;
  else if (scope == "all")
    spec.scope = Scope::All;
  else
    throw InputError("--failure-scope '" + scope + "': expected 'network' (switch-to-switch cables) or 'all'");
  const std::string expect = "--failures '" + text +
                             "': expected a percentage like 5%, a fraction in [0,1) like 0.05, or a whole "
                             "number of cables like 120";
  if (!text.empty() && text.back() == '%') {
    auto v = parse_real(text.substr(0, text.size() - 1));
    if (!v || *v < 0 || *v > 100) throw InputError(expect);
    spec.fraction = *v / 100.0;
    spec.count = -1;
  } else if (auto i = parse_int(text)) {
    if (*i < 0) throw InputError(expect);
    spec.count = *i;
  } else if (auto r = parse_real(text)) {
    if (*r < 0 || *r >= 1) throw InputError(expect);
    spec.fraction = *r;
    spec.count = -1;
  } else {
    throw InputError(expect);
  }
  return spec;
}

std::string FailureSpec::describe() const {
  std::ostringstream out;
  if (count >= 0)
    out << count << " cables";
  else
    out << fraction * 100 << "% of cables";
  out << (scope == Scope::Network ? " (switch-to-switch)" : " (any)");
  return out.str();
}

FailureReport apply_failures(Network& net, const FailureSpec& spec, std::uint64_t seed) {
  FailureReport report;
  // A cable is identified by its direction from the lower to the higher vertex id; parallel cables
  // each have their own such link.
  std::vector<LinkId> cables;
  for (VertexId u = 0; u < net.num_vertices(); ++u) {
    for (LinkId l = net.out_begin(u); l < net.out_end(u); ++l) {
      const VertexId v = net.target(l);
      if (v < u) continue;
      // In server-centric networks servers forward traffic, so every cable belongs to the network.
      const bool endpoint_cable =
          !net.endpoints_forward() && (net.kind(u) == VertexKind::Endpoint || net.kind(v) == VertexKind::Endpoint);
      if (spec.scope == FailureSpec::Scope::Network && endpoint_cable) continue;
      cables.push_back(l);
    }
  }
  report.cables_in_scope = cables.size();
  const std::uint64_t want =
      spec.count >= 0 ? static_cast<std::uint64_t>(spec.count)
                      : static_cast<std::uint64_t>(std::llround(spec.fraction * static_cast<double>(cables.size())));
  if (want > cables.size())
    throw InputError("--failures: asked for " + std::to_string(want) + " failed cables but the network has only " +
                     std::to_string(cables.size()) + " cables in scope");
  // Partial Fisher-Yates: the first `want` entries become a uniform random sample.
  Rng rng(derive_seed(seed, Stream::Failures));
  for (std::uint64_t i = 0; i < want; ++i) {
    const std::uint64_t j = i + rng.below(cables.size() - i);
    std::swap(cables[i], cables[j]);
  }
  cables.resize(want);
  std::sort(cables.begin(), cables.end());
  for (LinkId l : cables) {
    net.set_up(l, false);
    net.set_up(net.reverse(l), false);
  }
  report.failed_links = std::move(cables);
  return report;
}

}  // namespace interflow
