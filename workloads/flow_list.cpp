#include "workloads/flow_list.hpp"

#include <charconv>
#include <cmath>
#include <fstream>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "core/io.hpp"
#include "core/program.hpp"
#include "workloads/text_lines.hpp"

namespace interflow::workloads {

namespace {

// check_flow_workload's limit, refused here with the line before the lists grow further.
constexpr std::size_t kMaxFlows = std::size_t{1} << 30;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  for (std::size_t start = 0;;) {
    const std::size_t end = s.find(sep, start);
    out.push_back(trim(s.substr(start, end - start)));
    if (end == std::string_view::npos) return out;
    start = end + 1;
  }
}

}  // namespace

FlowWorkload read_flow_list(const std::string& path, std::uint32_t endpoints) {
  std::ifstream in = open_input(path, "flow list");
  FlowWorkload w;
  std::vector<std::vector<FlowId>> after;
  std::vector<std::pair<std::size_t, std::uint64_t>> later;  // (line, flow) of each wait for a later flow
  std::string line;
  std::size_t number = 0;
  bool any_after = false;
  while (std::getline(in, line)) {
    ++number;
    std::string_view text = line;
    if (const auto hash = text.find('#'); hash != std::string_view::npos) text = text.substr(0, hash);
    text = trim(text);
    if (text.empty()) continue;
    if (w.size() == 0 && text.substr(0, 3) == "src") continue;  // the column names
    const std::string where = path + ":" + std::to_string(number) + ": ";
    if (w.size() == kMaxFlows) throw InputError(where + "more than 2^30 flows");
    const auto fields = split(text, ',');
    if (fields.size() < 4 || fields.size() > 6)
      throw InputError(where +
                       "expected 4 to 6 comma-separated fields src,dst,bytes,start_time[,class][,after], found " +
                       std::to_string(fields.size()));
    const auto id = [&](std::string_view f, const char* what) {
      std::uint64_t v = 0;
      const auto [end, ec] = std::from_chars(f.data(), f.data() + f.size(), v);
      if (ec == std::errc::result_out_of_range)
        throw InputError(where + what + " '" + std::string(f) + "' is too large");
      if (ec != std::errc() || end != f.data() + f.size() || f.empty())
        throw InputError(where + what + " '" + std::string(f) + "' is not a whole number >= 0");
      return v;
    };
    // A finite number in 0..max; from_chars reads "nan" and "inf" as numbers and reports "1e999" as
    // out of range: all refused.
    const auto real = [&](std::string_view f, const char* what, double max, const char* max_text) {
      double v = 0;
      const auto [end, ec] = std::from_chars(f.data(), f.data() + f.size(), v);
      if (ec != std::errc() || end != f.data() + f.size() || f.empty() || !std::isfinite(v) || !(v >= 0))
        throw InputError(where + what + " '" + std::string(f) + "' is not a finite number >= 0");
      if (v > max) throw InputError(where + what + " '" + std::string(f) + "' is beyond " + max_text);
      return v + 0.0;  // -0 becomes 0
    };
    const std::uint64_t src = id(fields[0], "src"), dst = id(fields[1], "dst");
    if (src >= endpoints || dst >= endpoints)
      throw InputError(where + "endpoint " + std::to_string(src >= endpoints ? src : dst) +
                       " does not exist (the network has " + std::to_string(endpoints) + " endpoints, 0.." +
                       std::to_string(endpoints - 1) + ")");
    w.add(static_cast<EndpointId>(src), static_cast<EndpointId>(dst), real(fields[2], "bytes", kMaxFileBytes, "1e18"),
          real(fields[3], "start_time", kMaxFileSeconds, "1e12 s"));
    const std::uint64_t service_class = fields.size() >= 5 && !fields[4].empty() ? id(fields[4], "class") : 0;
    if (service_class >= kAppClass)
      throw InputError(where + "class " + std::to_string(service_class) + " is beyond the classes 0.." +
                       std::to_string(kAppClass - 1));
    w.service_class.push_back(static_cast<std::uint32_t>(service_class));
    after.emplace_back();
    if (fields.size() == 6 && !fields[5].empty()) {
      std::string list(fields[5]);
      for (char& c : list)
        if (c == ';') c = ' ';
      for (std::string_view item : split(list, ' ')) {
        if (item.empty()) continue;
        const std::uint64_t other = id(item, "after"), self = w.size() - 1;
        if (other == self) throw InputError(where + "a flow cannot wait for itself (after " + std::string(item) + ")");
        if (other >= kMaxFlows)
          throw InputError(where + "after " + std::to_string(other) + " is beyond the 2^30 flows a list may have");
        if (other > self) later.emplace_back(number, other);  // checked once every flow is read
        after.back().push_back(static_cast<FlowId>(other));
        any_after = true;
      }
    }
  }
  if (in.bad()) throw InputError(path + ": read error after line " + std::to_string(number));
  for (const auto& [at, other] : later)
    if (other >= w.size())
      throw InputError(path + ":" + std::to_string(at) + ": waits for flow " + std::to_string(other) +
                       ", but the file lists only " + std::to_string(w.size()) + " flows (numbered from 0)");
  if (any_after) {
    w.after_offsets.assign(1, 0);
    for (const auto& list : after) {
      w.after.insert(w.after.end(), list.begin(), list.end());
      w.after_offsets.push_back(static_cast<std::uint32_t>(w.after.size()));
    }
  }
  if (w.size() == 0) throw InputError(path + ": no flows (expected lines src,dst,bytes,start_time[,class][,after])");
  return w;
}

}  // namespace interflow::workloads
