#include "engine/packet/output_scheduler.hpp"

#include <charconv>
#include <sstream>

#include "core/error.hpp"
#include "core/io.hpp"

namespace interflow::packet {

bool whole_number(const std::string& s, std::uint32_t& v) {
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  return !s.empty() && r.ec == std::errc() && r.ptr == s.data() + s.size();
}

namespace {

// "" when the entry fits the table's limits, otherwise what is wrong with it.
std::string entry_problem(const TableEntry& e, std::uint32_t lanes, std::uint32_t max_weight) {
  if (e.lane >= lanes)
    return "lane " + std::to_string(e.lane) + " is not below the " + std::to_string(lanes) + " lanes";
  if (e.weight > max_weight) return "weight above " + std::to_string(max_weight);
  return {};
}

}  // namespace

void register_output_schedulers(OutputSchedulerRegistry& registry) {
  register_rr_scheduler(registry);
  register_priority_scheduler(registry);
  register_vlarb_scheduler(registry);
  register_dtable_scheduler(registry);
  register_tclass_scheduler(registry);
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
    if (colon == std::string::npos || !whole_number(entry.substr(0, colon), e.lane) ||
        !whole_number(entry.substr(colon + 1), e.weight))
      throw InputError(what + ": entry '" + entry + "': expected LANE:WEIGHT, entries separated by ';' (e.g. 0:4;1:2)");
    if (const std::string problem = entry_problem(e, lanes, max_weight); !problem.empty())
      throw InputError(what + ": entry '" + entry + "': " + problem);
    out.push_back(e);
    if (out.size() > max_entries) throw InputError(what + ": more than " + std::to_string(max_entries) + " entries");
    from = end + 1;
  }
  return out;
}

std::vector<TableEntry> read_table_file(const std::string& path, const std::string& what, std::uint32_t lanes,
                                        std::uint32_t max_entries, std::uint32_t max_weight) {
  std::ifstream in = open_input(path, what);
  std::vector<TableEntry> out;
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    std::istringstream tokens(line.substr(0, line.find('#')));
    std::string sl, weight, extra;
    if (!(tokens >> sl)) continue;  // blank or a comment
    TableEntry e{};
    if (!(tokens >> weight) || (tokens >> extra) || !whole_number(sl, e.lane) || !whole_number(weight, e.weight))
      throw file_error(path, number, "expected 'SL WEIGHT' (two whole numbers; '#' starts a comment)");
    if (const std::string problem = entry_problem(e, lanes, max_weight); !problem.empty())
      throw file_error(path, number, problem);
    out.push_back(e);
    if (out.size() > max_entries)
      throw file_error(path, number, "more than " + std::to_string(max_entries) + " entries");
  }
  if (in.bad()) throw InputError(what + " '" + path + "': read error");
  if (out.empty()) throw InputError(what + " '" + path + "': no entries");
  return out;
}

}  // namespace interflow::packet
