#include "engine/packet/output_scheduler.hpp"

#include <charconv>

#include "core/error.hpp"

namespace interflow::packet {

void register_output_schedulers(OutputSchedulerRegistry& registry) {
  register_rr_scheduler(registry);
  register_priority_scheduler(registry);
  register_vlarb_scheduler(registry);
  register_dtable_scheduler(registry);
}

std::vector<TableEntry> parse_table(const std::string& text, const std::string& what, std::uint32_t lanes,
                                    std::uint32_t max_entries, std::uint32_t max_weight) {
  std::vector<TableEntry> out;
  if (text.empty()) return out;
  std::size_t from = 0;
  while (from <= text.size()) {
    const std::size_t end = std::min(text.find(';', from), text.size());
    const std::string entry = text.substr(from, end - from);
    const std::size_t colon = entry.find(':');
    TableEntry e{};
    const auto number = [&](const std::string& s, std::uint32_t& v) {
      const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
      return !s.empty() && r.ec == std::errc() && r.ptr == s.data() + s.size();
    };
    if (colon == std::string::npos || !number(entry.substr(0, colon), e.lane) || !number(entry.substr(colon + 1), e.weight))
      throw InputError(what + ": entry '" + entry + "': expected LANE:WEIGHT, entries separated by ';' (e.g. 0:4;1:2)");
    if (e.lane >= lanes)
      throw InputError(what + ": entry '" + entry + "': lane " + std::to_string(e.lane) + " is not below the " +
                       std::to_string(lanes) + " lanes");
    if (e.weight > max_weight)
      throw InputError(what + ": entry '" + entry + "': weight above " + std::to_string(max_weight));
    out.push_back(e);
    if (out.size() > max_entries) throw InputError(what + ": more than " + std::to_string(max_entries) + " entries");
    from = end + 1;
  }
  return out;
}

}  // namespace interflow::packet
