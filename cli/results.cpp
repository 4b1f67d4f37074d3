#include "cli/results.hpp"

#include "core/error.hpp"
#include "core/io.hpp"

namespace interflow::cli {

ResultsDir::ResultsDir(const std::string& dir) : dir_(dir) {
  if (dir.empty()) throw InputError("--out: no folder named");
  std::error_code ec;
  if (std::filesystem::exists(dir_, ec) && !std::filesystem::is_directory(dir_, ec))
    throw InputError("--out '" + dir + "': exists and is not a folder");
  std::filesystem::create_directories(dir_, ec);
  if (ec) throw OutputError("--out '" + dir + "': cannot create the folder: " + ec.message());
}

void ResultsDir::write(const std::string& name, const std::function<void(std::ostream&)>& write) const {
  OutputFile file((dir_ / name).string(), "--out");
  write(file.stream());
  file.commit();
}

void ResultsDir::finish(const std::string& config_toml, const Json& summary) const {
  write("config.toml", [&](std::ostream& out) { out << config_toml; });
  write("summary.json", [&](std::ostream& out) { write_json(out, summary); });
}

void write_json(std::ostream& out, const Json& j) { out << j.dump(2) << '\n'; }

Json summary_json(const Summary& s, bool with_median) {
  Json j = Json::object();
  j["min"] = s.min;
  if (with_median) j["median"] = s.median;
  j["mean"] = s.mean;
  j["max"] = s.max;
  return j;
}

}  // namespace interflow::cli
