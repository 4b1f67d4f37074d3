// How long the CSV writers take to turn doubles into text, before and after issue 15: the hand-written
// JsonWriter::number (the shortest of %.6g..%.16g that reads back, else %.17g) against std::to_chars
// (core/format.cpp). Build and run by hand:
//   g++ -O2 -std=c++20 -I. bench/format_numbers.cpp core/format.cpp -o /tmp/format_numbers && /tmp/format_numbers
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "core/format.hpp"

namespace {

// The removed writer's rule, kept here only to measure against.
std::string retry_precisions(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  for (int precision = 6; precision < 17; ++precision) {
    char shorter[32];
    std::snprintf(shorter, sizeof shorter, "%.*g", precision, v);
    if (std::strtod(shorter, nullptr) == v) return shorter;
  }
  return buf;
}

template <class F>
double seconds(const std::vector<double>& values, F&& format, std::size_t& bytes) {
  const auto start = std::chrono::steady_clock::now();
  for (double v : values) bytes += format(v).size();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main() {
  std::mt19937_64 rng(1);
  std::vector<double> times(2'000'000), round(2'000'000);
  std::uniform_real_distribution<double> u(0, 1);
  for (double& t : times) t = u(rng) * 1e-3;                         // completion times: full precision
  for (std::size_t i = 0; i < round.size(); ++i) round[i] = static_cast<double>(i % 1000) * 0.5;  // sizes, short
  for (const auto& [name, values] : {std::pair{"times", &times}, std::pair{"short values", &round}}) {
    std::size_t a = 0, b = 0;
    const double old_s = seconds(*values, retry_precisions, a);
    const double new_s = seconds(*values, interflow::number_text, b);
    bool same = true;
    for (double v : *values) same = same && std::strtod(interflow::number_text(v).c_str(), nullptr) == v;
    std::printf("%-13s %zu values: retry %.3f s, to_chars %.3f s (%.1fx), bytes %zu vs %zu, to_chars exact: %s\n",
                name, values->size(), old_s, new_s, old_s / new_s, a, b, same ? "yes" : "no");
  }
}
