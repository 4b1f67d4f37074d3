#pragma once
// A results folder (--out DIR): each file written whole or not at all (core/io.hpp OutputFile), and
// summary.json last, so a folder without summary.json is never a finished result
// (manual/output-files.md).
#include <filesystem>
#include <functional>
#include <ostream>
#include <string>

#include "cli/options.hpp"
#include "core/stats.hpp"

namespace interflow::cli {

class ResultsDir {
 public:
  // Creates the folder and its parents; OutputError naming --out when that fails.
  explicit ResultsDir(const std::string& dir);
  // Writes `name` in the folder through `write` and commits it.
  void write(const std::string& name, const std::function<void(std::ostream&)>& write) const;
  // config.toml (the options' configuration) and then summary.json: call last.
  void finish(const std::string& config_toml, const Json& summary) const;
  const std::filesystem::path& path() const { return dir_; }

 private:
  std::filesystem::path dir_;
};

// Writes a JSON document, indented by two spaces, and a newline.
void write_json(std::ostream& out, const Json& j);

// {"min", ["median",] "mean", "max"} of a summary.
Json summary_json(const Summary& s, bool with_median);

}  // namespace interflow::cli
