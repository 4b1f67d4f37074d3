// `interflow qos-config FILE`: a Deficit Table from per-SL distances, shares and MTUs by the method
// of Cano-Cano et al. 2024, §4.4 (the maths is engine/packet/dtable_config.hpp). FILE is TOML:
//   [table]  entries (N), gmtu (credits), credit_bytes, k, w, total_weight (all optional)
//   [[sl]]   name, distance, share, and mtu (credits) or mtu_bytes (rounded up to whole credits)
// SLs are numbered in file order from 0. It prints the layout of the paper's Table 4 and, with
// --out FILE, writes the table ("SL WEIGHT" lines) that the `dtable` scheduler reads as
// `dtable:file=FILE` (manual/packet.md "DTable configuration (qos-config)").
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>

#include "cli/commands.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "core/io.hpp"
#include "engine/packet/dtable_config.hpp"
#include "experiments/toml_json.hpp"

namespace interflow::cli {

namespace {

using packet::DTableConfig;
using packet::DTableLimits;
using packet::DTableSlSpec;
using packet::DTableSpec;

struct QosOptions {
  std::string file, out;
  double k = 0, w = 0;
  std::uint64_t total_weight = 0;
  bool quiet = false;
};

struct QosInput {
  DTableSpec spec;
  std::uint64_t credit_bytes = 64;
};

// The TOML file, every value checked where it is read, with its file and line.
class QosFile {
 public:
  explicit QosFile(std::string path) : path_(std::move(path)) {}

  QosInput read() const {
    const toml::table root = experiments::parse_toml_file(path_, "qos-config file");
    only_keys(root, {"table", "sl"}, "the top level");
    QosInput in;
    if (const toml::node* t = root.get("table")) read_table(*t, in);
    const toml::node* sls = root.get("sl");
    if (!sls) throw InputError(path_ + ": no [[sl]] table: give one per service level (name, distance, share, mtu)");
    const toml::array* list = sls->as_array();
    if (!list || !list->is_array_of_tables()) fail(*sls, "sl: expected [[sl]] tables");
    for (const toml::node& sl : *list) in.spec.sls.push_back(read_sl(*sl.as_table(), in.credit_bytes));
    return in;
  }

 private:
  [[noreturn]] void fail(const toml::node& node, const std::string& what) const {
    throw InputError(experiments::where(path_, node) + ": " + what);
  }

  void only_keys(const toml::table& t, const std::vector<std::string>& keys, const std::string& where) const {
    for (const auto& [key, node] : t)
      if (std::find(keys.begin(), keys.end(), std::string(key.str())) == keys.end()) {
        std::string expected;
        for (const std::string& k : keys) expected += (expected.empty() ? "" : ", ") + k;
        fail(node, "unknown key '" + std::string(key.str()) + "' in " + where + "; expected " + expected);
      }
  }

  std::optional<std::uint64_t> whole(const toml::table& t, const char* key, std::uint64_t min,
                                     std::uint64_t max) const {
    const toml::node* n = t.get(key);
    if (!n) return std::nullopt;
    const auto* i = n->as_integer();
    if (!i || i->get() < 0 || std::uint64_t(i->get()) < min || std::uint64_t(i->get()) > max)
      fail(*n, std::string(key) + ": expected a whole number in [" + std::to_string(min) + ", " + std::to_string(max) +
                   "]");
    return std::uint64_t(i->get());
  }

  // A finite real in (0, max] (an integer is taken as a real).
  std::optional<double> real(const toml::table& t, const char* key, double max) const {
    const toml::node* n = t.get(key);
    if (!n) return std::nullopt;
    const auto* f = n->as_floating_point();
    const auto* i = n->as_integer();
    const double v = f ? f->get() : i ? double(i->get()) : std::nan("");
    if (!(std::isfinite(v) && v > 0 && v <= max))
      fail(*n, std::string(key) + ": expected a finite number in (0, " + number_text(max) + "]");
    return v;
  }

  void read_table(const toml::node& node, QosInput& in) const {
    const toml::table* t = node.as_table();
    if (!t) fail(node, "table: expected a [table] section");
    only_keys(*t, {"entries", "gmtu", "credit_bytes", "k", "w", "total_weight"}, "[table]");
    in.spec.entries = std::uint32_t(whole(*t, "entries", 1, DTableLimits::kMaxEntries).value_or(64));
    in.spec.gmtu = std::uint32_t(whole(*t, "gmtu", 1, DTableLimits::kMaxGmtu).value_or(32));
    in.credit_bytes = whole(*t, "credit_bytes", 1, 1u << 20).value_or(64);
    in.spec.k = real(*t, "k", DTableLimits::kMaxKw);
    in.spec.w = real(*t, "w", DTableLimits::kMaxKw);
    in.spec.total_weight =
        whole(*t, "total_weight", 1, std::uint64_t{DTableLimits::kMaxEntries} * DTableLimits::kMaxWeight);
  }

  DTableSlSpec read_sl(const toml::table& t, std::uint64_t credit_bytes) const {
    only_keys(t, {"name", "distance", "share", "mtu", "mtu_bytes"}, "[[sl]]");
    DTableSlSpec sl;
    const toml::node* name = t.get("name");
    if (!name || !name->as_string() || name->as_string()->get().empty())
      fail(name ? *name : static_cast<const toml::node&>(t), "sl: name: expected a non-empty string");
    sl.name = name->as_string()->get();
    const auto need = [&](const char* key) -> const toml::node& {
      if (!t.get(key)) fail(t, "sl '" + sl.name + "': " + key + " is missing");
      return *t.get(key);
    };
    need("distance");
    need("share");
    sl.distance = std::uint32_t(*whole(t, "distance", 1, DTableLimits::kMaxEntries));
    sl.share = *real(t, "share", 1);
    const auto credits = whole(t, "mtu", 1, DTableLimits::kMaxGmtu);
    const auto bytes = whole(t, "mtu_bytes", 1, std::uint64_t{DTableLimits::kMaxGmtu} * credit_bytes);
    if (credits.has_value() == bytes.has_value())
      fail(t, "sl '" + sl.name + "': give mtu (credits) or mtu_bytes, one of them");
    sl.mtu = std::uint32_t(credits ? *credits : (*bytes + credit_bytes - 1) / credit_bytes);
    return sl;
  }

  std::string path_;
};

std::string sig4(double v) {
  std::ostringstream s;
  s << std::setprecision(4) << v;
  return s.str();
}

std::string entry_weights(const packet::DTableSlResult& r) {
  return r.weight_low == r.weight_high ? std::to_string(r.weight_low)
                                       : std::to_string(r.weight_low) + "-" + std::to_string(r.weight_high);
}

void print_row(std::ostream& out, const std::vector<std::string>& cells) {
  static const int widths[] = {3, 8, 9, 7, 7, 5, 7, 9, 9, 7, 8, 8, 7};
  for (std::size_t i = 0; i + 1 < cells.size(); ++i) out << std::left << std::setw(widths[i]) << cells[i] << ' ';
  out << cells.back() << '\n';
}

void print_parameters(const QosInput& in, const DTableConfig& c, const std::string& file, std::ostream& out) {
  const auto how = [](bool searched) { return searched ? " (searched)" : " (given)"; };
  out << "DTable configuration (Cano-Cano et al. 2024, §4.4) of " << file << "\n  N = " << in.spec.entries
      << " entries, GMTU = " << in.spec.gmtu << " credits of " << in.credit_bytes
      << " bytes\n  k = " << number_text(c.k) << how(c.k_searched) << ", w = " << number_text(c.w) << how(c.w_searched);
  if (c.w_searched && c.w != c.w_for_shares)
    out << " (every maxphi >= share from w = " << number_text(c.w_for_shares)
        << "; raised so the rounded entry weights fit M)";
  out << "\n  M = GMTU x w = " << number_text(c.max_weight) << " credits, pool = N x GMTU x k = " << number_text(c.pool)
      << ", weights share out " << number_text(c.weight_scale)
      << (in.spec.total_weight ? " (total_weight)" : " (the pool)") << "\n\n";
}

void print_sls(const QosInput& in, const DTableConfig& c, std::ostream& out) {
  print_row(out, {"SL", "name", "distance", "#entr.", "%entr.", "MTU", "MTU B", "minphi", "maxphi", "share", "phi",
                  "E.W.", "T.W."});
  double min_sum = 0, max_sum = 0, share_sum = 0;
  for (std::size_t i = 0; i < c.sls.size(); ++i) {
    const auto& r = c.sls[i];
    const DTableSlSpec& sl = in.spec.sls[i];
    print_row(out, {std::to_string(i), sl.name, std::to_string(sl.distance), std::to_string(r.entries),
                    sig4(r.entry_fraction * 100), std::to_string(sl.mtu), std::to_string(sl.mtu * in.credit_bytes),
                    sig4(r.min_share), sig4(r.max_share), sig4(sl.share), sig4(r.share), entry_weights(r),
                    std::to_string(r.total_weight)});
    min_sum += r.min_share, max_sum += r.max_share, share_sum += sl.share;
  }
  std::uint64_t entries = 0;
  for (const auto& r : c.sls) entries += r.entries;
  print_row(out, {"", "total", "", std::to_string(entries), sig4(100.0 * double(entries) / in.spec.entries), "", "",
                  sig4(min_sum), sig4(max_sum), sig4(share_sum), "1", "", std::to_string(c.total_weight)});
}

void print_order(const QosInput& in, const DTableConfig& c, std::ostream& out) {
  out << "\ntable order (position SL:weight; " << c.table.size() << " of " << in.spec.entries << " positions used)\n";
  for (std::size_t e = 0; e < c.table.size(); ++e) {
    const packet::DTableEntry& x = c.table[e];
    if (e % 8 == 0) out << (e ? "\n" : "") << "  " << std::right << std::setw(4) << x.position << " ";
    const std::string cell = in.spec.sls[x.sl].name + ":" + std::to_string(x.weight);
    out << ' ' << std::left << std::setw(e % 8 == 7 || e + 1 == c.table.size() ? 0 : 11) << cell;
  }
  out << '\n';
}

void write_table_file(const QosOptions& o, const QosInput& in, const DTableConfig& c) {
  OutputFile file(o.out, "--out");
  file << "# A Deficit Table written by interflow qos-config from " << o.file
       << " (Cano-Cano et al. 2024, §4.4): N = " << in.spec.entries << ", GMTU = " << in.spec.gmtu
       << ", k = " << number_text(c.k) << ", w = " << number_text(c.w) << ", total weight " << c.total_weight
       << "\n# SLs:";
  for (std::size_t i = 0; i < in.spec.sls.size(); ++i) file << ' ' << i << '=' << in.spec.sls[i].name;
  file << "\n# The dtable output scheduler reads it as dtable:file=" << o.out << "\n# SL WEIGHT  # position name\n";
  for (const packet::DTableEntry& e : c.table)
    file << e.sl << ' ' << e.weight << "  # " << e.position << ' ' << in.spec.sls[e.sl].name << '\n';
  file.commit();
}

int run_qos_config(const QosOptions& o, const OptionTable& t) {
  QosInput in = QosFile(o.file).read();
  if (t.given("--k")) in.spec.k = o.k;
  if (t.given("--w")) in.spec.w = o.w;
  if (t.given("--total-weight")) in.spec.total_weight = o.total_weight;
  DTableConfig c;
  try {
    c = packet::configure_dtable(in.spec);
  } catch (const InputError& e) {
    throw InputError(o.file + ": " + e.what());
  }
  if (!o.out.empty()) write_table_file(o, in, c);
  if (o.quiet) return 0;
  print_parameters(in, c, o.file, std::cout);
  print_sls(in, c, std::cout);
  print_order(in, c, std::cout);
  if (!o.out.empty()) std::cout << "\nwrote " << o.out << " (use it as dtable:file=" << o.out << ")\n";
  return 0;
}

}  // namespace

Command add_qos_config_command(CLI::App& app, const Plugins&) {
  auto* cmd = app.add_subcommand(
      "qos-config",
      "a Deficit Table (DTable) from per-SL distances, shares and MTUs (Cano-Cano et al. 2024 §4.4): prints the "
      "Table 4 layout, writes the table file of dtable:file=PATH");
  auto o = std::make_shared<QosOptions>();
  auto t = std::make_shared<OptionTable>(cmd);
  t->text("file", o->file,
          "the TOML file: [table] entries, gmtu, credit_bytes, k, w, total_weight; [[sl]] name, "
          "distance, share, mtu or mtu_bytes")
      ->required();
  // No default shown: left out, each is the file's or searched (k, w) or the pool (total weight).
  t->real("--k", o->k, "bandwidth pool decoupling parameter k (wins over the file's; default: searched)", 0,
          DTableLimits::kMaxKw, true)
      ->default_str("");
  t->real("--w", o->w, "maximum weight decoupling parameter w (wins over the file's; default: searched)", 0,
          DTableLimits::kMaxKw, true)
      ->default_str("");
  t->whole("--total-weight", o->total_weight, "the total weight shared out (wins over the file's; default: the pool)",
           1, std::uint64_t{DTableLimits::kMaxEntries} * DTableLimits::kMaxWeight)
      ->default_str("");
  t->add_out("write the table to this file: one 'SL WEIGHT' line per entry, for dtable:file=FILE");
  t->output_flag("-q,--quiet", o->quiet, "print nothing on stdout");
  return Command{[o, t]() {
                   o->out = t->out_dir();
                   return run_qos_config(*o, *t);
                 },
                 t};
}

}  // namespace interflow::cli
