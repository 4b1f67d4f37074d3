#include "engine/packet/switch_model.hpp"

#include "core/error.hpp"
#include "core/format.hpp"

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
    std::size_t used = 0;
    unsigned long vl = 0;
    try {
      vl = std::stoul(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (item.empty() || used != item.size() || vl >= vls)
      throw InputError(what + ": entry " + std::to_string(table.size()) + " '" + item + "' is not a VL in 0.." +
                       std::to_string(vls - 1) + " (expected VL;VL;... one per SL)");
    table.push_back(static_cast<std::uint32_t>(vl));
    start = end + 1;
  }
  if (table.size() > 16) throw InputError(what + ": at most 16 SLs");
  return table;
}

}  // namespace interflow::packet
