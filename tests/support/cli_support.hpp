#pragma once
// Running the interflow executable from the end-to-end tests: a scratch folder per test process,
// the command's exit status, stdout and stderr, and small readers of its text and CSV output.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace interflow::test {

namespace fs = std::filesystem;
using Json = nlohmann::json;

// One scratch directory per test process, removed at exit.
struct ScratchDir {
  fs::path path = fs::temp_directory_path() / ("interflow-cli-test-" + std::to_string(::getpid()));
  ScratchDir() { fs::create_directories(path); }
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

inline const fs::path& scratch() {
  static const ScratchDir dir;
  return dir.path;
}

inline std::string read_text(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void write_text(const fs::path& file, const std::string& text) {
  std::ofstream out(file);
  out << text;
}

struct Outcome {
  int status = -1;
  std::string out, err;
};

// Runs `interflow ARGS` through the shell, stderr captured in a file and stdout in another, or sent
// to `stdout_target` (e.g. /dev/full) when one is given.
inline Outcome run_cli(const std::string& args, const std::string& stdout_target = "") {
  static int counter = 0;
  const std::string tag = std::to_string(++counter);
  const fs::path out = scratch() / ("stdout" + tag), err = scratch() / ("stderr" + tag);
  const std::string command = std::string(INTERFLOW_BINARY) + " " + args + " >" +
                              (stdout_target.empty() ? out.string() : stdout_target) + " 2>" + err.string();
  const int raw = std::system(command.c_str());
  Outcome o;
  o.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  if (stdout_target.empty()) o.out = read_text(out);
  o.err = read_text(err);
  return o;
}

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// One CSV line's cells, quotes undone ("a,b" is one cell, "" inside quotes is ").
inline std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      cells.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      cells.emplace_back();
    } else {
      cells.back() += c;
    }
  }
  return cells;
}

inline Json parse_json(const std::string& text) { return Json::parse(text); }

}  // namespace interflow::test
