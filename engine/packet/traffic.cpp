#include "engine/packet/traffic.hpp"

#include <cmath>

#include "core/error.hpp"
#include "core/format.hpp"

namespace interflow::packet {

void register_traffic(TrafficRegistry& registry) {
  register_messages_traffic(registry);
  register_cbr_traffic(registry);
  register_bursts_traffic(registry);
}

DestinationRule DestinationRule::pairs(std::uint32_t n, const std::vector<EndpointId>& src,
                                       const std::vector<EndpointId>& dst) {
  std::vector<std::uint32_t> offset(n + 1, 0);
  for (std::size_t i = 0; i < src.size(); ++i)
    if (src[i] != dst[i]) ++offset[src[i] + 1];
  for (std::uint32_t s = 0; s < n; ++s) offset[s + 1] += offset[s];
  std::vector<EndpointId> list(offset[n]);
  std::vector<std::uint32_t> fill(offset.begin(), offset.end() - 1);
  for (std::size_t i = 0; i < src.size(); ++i)
    if (src[i] != dst[i]) list[fill[src[i]]++] = dst[i];
  return DestinationRule(n, std::move(offset), std::move(list));
}

EndpointId DestinationRule::draw(EndpointId s, Rng& rng) const {
  if (offset_.empty()) {
    const auto d = static_cast<EndpointId>(rng.below(n_ - 1));
    return d >= s ? d + 1 : d;
  }
  const std::uint32_t count = offset_[s + 1] - offset_[s];
  return list_[offset_[s] + (count == 1 ? 0 : rng.below(count))];
}

std::vector<ParamSpec> sl_params(std::vector<ParamSpec> own) {
  ParamSpec name = string_param("name", "", "a label for the SL in the results (NC, VO, ...; default SL<i>)");
  name.optional = true;
  std::vector<ParamSpec> p = {
      name,
      real_param("load", "0.1", "offered load of this SL, flits per cycle per NIC", 0, 1e6),
      int_param("bytes", "64", "bytes per message", 1, 1ll << 40),
      int_param("mtu", "0", "largest packet of this SL in bytes (its SL_MTU; 0: one flit)", 0, 1ll << 30)};
  p.insert(p.end(), own.begin(), own.end());
  return p;
}

SlSettings read_sl_settings(const ParamSet& p) {
  SlSettings s;
  if (p.has("name")) s.name = p.get_string("name");
  s.load = p.get_real("load");
  s.bytes = static_cast<std::uint64_t>(p.get_int("bytes"));
  s.mtu = static_cast<std::uint32_t>(p.get_int("mtu"));
  if (!(s.load > 0)) p.fail("load", "the offered load must be above 0");
  return s;
}

Cycle geometric_gap(double p, Rng& rng) {
  if (p >= 1) return 1;
  const double u = 1.0 - rng.uniform();
  return 1 + static_cast<Cycle>(std::floor(std::log(u) / std::log1p(-p)));
}

double message_rate(const SlSettings& s, std::uint32_t flit_bytes, std::uint32_t per_emission) {
  return emission_rate(s, std::ceil(static_cast<double>(s.bytes) / flit_bytes) * per_emission);
}

double emission_rate(const SlSettings& s, double flits) {
  const double rate = s.load / flits;
  if (!(rate > 0) || rate > 1)
    throw InputError("SL " + (s.name.empty() ? std::string("traffic") : s.name) + ": load " + number_text(s.load) +
                     " flits/cycle/NIC with " + number_text(flits) + " flits per emission: at most one emission per "
                     "cycle (load <= flits per emission) and more than 0");
  return rate;
}

std::vector<std::string> cano_cano_2024_mix(double best_effort_load) {
  const std::string be = number_text(best_effort_load);
  return {"messages:name=NC,load=0.01,bytes=192,mtu=192",
          "cbr:name=VO,load=0.016,bytes=128,mtu=128",
          "cbr:name=VI,load=0.23,bytes=2048,mtu=2048",
          "cbr:name=CL,load=0.28,bytes=2048,mtu=2048",
          "bursts:name=EE,load=" + be + ",bytes=1024,mtu=1024,size=4",
          "bursts:name=BE,load=" + be + ",bytes=1024,mtu=1024,size=4",
          "bursts:name=BK,load=" + be + ",bytes=1024,mtu=1024,size=4"};
}

}  // namespace interflow::packet
