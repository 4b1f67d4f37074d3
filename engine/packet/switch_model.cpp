#include "engine/packet/switch_model.hpp"

#include "core/error.hpp"
#include "engine/packet/output_scheduler.hpp"

namespace interflow::packet {

void register_switches(SwitchRegistry& registry) {
  register_vct_switch(registry);
  register_ib_switch(registry);
}

std::vector<std::uint32_t> parse_sl2vl(const std::string& text, const std::string& what, std::uint32_t vls) {
  std::vector<std::uint32_t> table;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(';', start), text.size());
    const std::string item = text.substr(start, end - start);
    std::uint32_t vl = 0;
    if (!whole_number(item, vl) || vl >= vls)
      throw InputError(what + ": entry " + std::to_string(table.size()) + " '" + item + "' is not a VL in 0.." +
                       std::to_string(vls - 1) + " (expected VL;VL;... one per SL)");
    table.push_back(vl);
    start = end + 1;
  }
  if (table.size() > 16) throw InputError(what + ": at most 16 SLs");
  return table;
}

}  // namespace interflow::packet
