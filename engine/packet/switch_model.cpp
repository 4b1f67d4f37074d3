#include "engine/packet/switch_model.hpp"

#include "core/error.hpp"
#include "engine/packet/output_scheduler.hpp"

namespace interflow::packet {

void register_switches(SwitchRegistry& registry) {
  register_vct_switch(registry);
  register_ib_switch(registry);
  register_opa_switch(registry);
}

namespace {

// A byte-size parameter as whole flits; fails naming the parameter when it is not whole flits.
std::uint32_t buffer_flits(const ParamSet& p, const char* name, std::uint32_t flit_bytes) {
  const std::int64_t bytes = p.get_int(name);
  if (bytes % flit_bytes != 0)
    p.fail(name, std::to_string(bytes) + " bytes is not a whole number of " + std::to_string(flit_bytes) + "-byte flits");
  return static_cast<std::uint32_t>(bytes / flit_bytes);
}

}  // namespace

BufferShape buffer_shape(const ParamSet& p, const char* size, const char* min, const char* max, const SwitchContext& c,
                         std::uint32_t vls, const std::string& model) {
  BufferShape b;
  b.size = buffer_flits(p, size, c.flit_bytes);
  b.lane_min = buffer_flits(p, min, c.flit_bytes);
  b.lane_max = p.get_int(max) == 0 ? b.size : buffer_flits(p, max, c.flit_bytes);
  b.check(vls, model + " switch: " + size);
  return b;
}

std::vector<std::uint32_t> parse_table(const std::string& text, const std::string& what, std::uint32_t bound,
                                       const std::string& entry, std::size_t max_entries) {
  std::vector<std::uint32_t> table;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(';', start), text.size());
    const std::string item = text.substr(start, end - start);
    std::uint32_t value = 0;
    if (!whole_number(item, value) || value >= bound)
      throw InputError(what + ": entry " + std::to_string(table.size()) + " '" + item + "' is not " + entry + " in 0.." +
                       std::to_string(bound - 1) + " (entries are separated by ';')");
    table.push_back(value);
    start = end + 1;
  }
  if (table.size() > max_entries) throw InputError(what + ": at most " + std::to_string(max_entries) + " entries");
  return table;
}

std::vector<std::uint32_t> parse_sl2vl(const std::string& text, const std::string& what, std::uint32_t vls) {
  return parse_table(text, what, vls, "a VL (one per SL)", 16);
}

}  // namespace interflow::packet
