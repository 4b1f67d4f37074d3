// `interflow qos-config` end to end: the preset of Table 4 of Cano-Cano et al. 2024 printed and
// written as a table file the `dtable` scheduler reads, the k and w search, and refused inputs.
#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/cli_support.hpp"
#include "tests/support/test_support.hpp"

using namespace interflow::test;

namespace {

const std::string kPreset = std::string(INTERFLOW_SOURCE_DIR) + "/examples/qos/cano-cano-2024-table4.toml";

// The printed row of an SL, split at spaces.
std::vector<std::string> row_of(const std::string& out, const std::string& name) {
  for (const std::string& line : lines_of(out)) {
    std::istringstream cells(line);
    std::vector<std::string> row;
    for (std::string c; cells >> c;) row.push_back(c);
    if (row.size() > 1 && (row[1] == name || row[0] == name)) return row;  // the total row has no SL number
  }
  return {};
}

void check_refused(const std::string& args, std::initializer_list<std::string> parts, int status = 2) {
  const Outcome o = run_cli(args);
  INFO("interflow " << args << "\nstderr: " << o.err);
  CHECK(o.status == status);
  for (const std::string& part : parts) CHECK(contains(o.err, part));
  CHECK(std::count(o.err.begin(), o.err.end(), '\n') == 1);  // one message
}

}  // namespace

TEST_CASE("qos-config: the Table 4 preset prints the paper's layout and writes the dtable file") {
  const fs::path table = scratch() / "table4.dtable";
  const Outcome o = run_cli("qos-config " + kPreset + " --out " + table.string());
  INFO(o.err);
  REQUIRE(o.status == 0);
  CHECK(contains(o.out, "k = 0.5 (given), w = 3 (given)"));
  CHECK(contains(o.out, "pool = N x GMTU x k = 1024"));
  // SL name distance #entr. %entr. MTU MTU-B minphi maxphi share phi E.W. T.W.
  CHECK(row_of(o.out, "NC") == std::vector<std::string>{"0", "NC", "2", "32", "50", "3", "192", "0.09375", "3", "0.094",
                                                        "0.09413", "3-4", "101"});
  CHECK(row_of(o.out, "VO") == std::vector<std::string>{"1", "VO", "4", "16", "25", "2", "128", "0.03125", "1.5",
                                                        "0.164", "0.164", "11", "176"});
  CHECK(row_of(o.out, "CL").back() == "375");
  CHECK(row_of(o.out, "CL")[11] == "93-94");
  CHECK(row_of(o.out, "BK")[7] == "0.01562");  // the paper prints 0.008 (manual/packet.md)
  CHECK(row_of(o.out, "total").back() == "1073");
  CHECK(contains(o.out, "use it as dtable:file=" + table.string()));

  // The file: 64 "SL WEIGHT" lines in table order, NC every other position.
  std::vector<std::pair<int, int>> entries;
  for (const std::string& line : lines_of(read_text(table))) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream in(line);
    int sl = -1, weight = -1;
    in >> sl >> weight;
    entries.emplace_back(sl, weight);
  }
  REQUIRE(entries.size() == 64);
  int total = 0;
  for (std::size_t e = 0; e < entries.size(); ++e) {
    total += entries[e].second;
    if (e % 2 == 0) CHECK(entries[e].first == 0);
  }
  CHECK(total == 1073);
  // The dtable scheduler takes the file.
  const auto scheduler = plugins().output_schedulers.create(
      interflow::Spec::parse("dtable:file=" + table.string(), "--scheduler"), interflow::packet::SchedulerContext{7});
  CHECK(scheduler != nullptr);
}

TEST_CASE("qos-config: k and w are searched when the file leaves them out") {
  std::string text = read_text(kPreset);
  for (const std::string key : {"\nk = ", "\nw = "}) text.replace(text.find(key), key.size(), "\n# " + key.substr(1));
  const fs::path file = scratch() / "search.toml";
  write_text(file, text);
  Outcome o = run_cli("qos-config " + file.string());
  INFO(o.err);
  REQUIRE(o.status == 0);
  CHECK(contains(o.out, "k = 0.5 (searched), w = 3 (searched) (every maxphi >= share from w = 2.8"));
  // The command line wins over the file: the pool (1024) shared out needs only w = 2.9.
  o = run_cli("qos-config " + file.string() + " --total-weight 1024 -q");
  CHECK(o.status == 0);
  CHECK(o.out.empty());
  o = run_cli("qos-config " + kPreset + " --k 1 --w 6");
  CHECK(contains(o.out, "k = 1 (given), w = 6 (given)"));
}

TEST_CASE("qos-config: bad files and options are refused with one message") {
  const fs::path file = scratch() / "bad-qos.toml";
  const auto with = [&](const std::string& text) {
    write_text(file, text);
    return "qos-config " + file.string();
  };
  const std::string sl = "[[sl]]\nname = \"A\"\ndistance = 2\nshare = 0.5\nmtu = 1\n";
  check_refused(with("[table]\nentries = 0\n" + sl), {file.string() + ":2", "entries", "[1, 4096]"});
  check_refused(with("[table]\nk = nan\n" + sl), {file.string() + ":2", "k", "finite"});
  check_refused(with("[table]\nbogus = 1\n" + sl), {file.string() + ":2", "unknown key 'bogus'"});
  check_refused(with("[table]\n"), {"no [[sl]] table"});
  check_refused(with("[[sl]]\nname = \"A\"\ndistance = 2\nshare = \"half\"\nmtu = 1\n"), {":4", "share"});
  check_refused(with("[[sl]]\nname = \"A\"\ndistance = 2\nshare = 0.5\n"), {"sl 'A'", "mtu"});
  check_refused(with("[[sl]]\nname = \"A\"\ndistance = 3\nshare = 0.5\nmtu = 1\n"),
                {file.string() + ": DTable configuration: SL 0 'A': distance 3 must divide the table size 64"});
  check_refused(with(sl + sl + sl), {"the shares sum to 1.5"});
  check_refused("qos-config " + kPreset + " --k -1", {"--k", "-1"});
  check_refused("qos-config " + kPreset + " --w nan", {"--w", "nan"});
  check_refused("qos-config " + (scratch() / "missing.toml").string(), {"missing.toml", "No such file"});
  check_refused("qos-config " + kPreset + " --out /dev/full", {"--out", "No space left on device"}, 4);
  check_refused("qos-config " + kPreset + " --out " + scratch().string(), {"--out", "directory"});
}

TEST_CASE("qos-config: the dtable file parameter names the file and line of a bad entry") {
  const fs::path file = scratch() / "bad.dtable";
  const auto make = [&](const std::string& text) {
    write_text(file, text);
    return error_of([&] {
      plugins().output_schedulers.create(interflow::Spec::parse("dtable:file=" + file.string(), "--scheduler"),
                                         interflow::packet::SchedulerContext{4});
    });
  };
  CHECK(make("# a comment\n0 4\n\n1 2 # trailing\n") == "no error");
  CHECK(contains(make("0 4\n1\n"), file.string() + ":2: expected 'SL WEIGHT'"));
  CHECK(contains(make("0 4\n1 2 3\n"), file.string() + ":2:"));
  CHECK(contains(make("0 -4\n"), file.string() + ":1:"));
  CHECK(contains(make("9 4\n"), file.string() + ":1: lane 9 is not below the 4 lanes"));
  CHECK(contains(make("# nothing\n"), "no entries"));
  CHECK(contains(error_of([&] {
                   plugins().output_schedulers.create(
                       interflow::Spec::parse("dtable:table=0:1,file=" + file.string(), "--scheduler"),
                       interflow::packet::SchedulerContext{4});
                 }),
                 "not both"));
}
