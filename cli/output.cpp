#include "cli/output.hpp"

#include "core/error.hpp"

namespace interflow::cli {

std::filesystem::path make_output_dir(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw InputError("--out '" + dir + "': cannot create directory: " + ec.message());
  return std::filesystem::path(dir);
}

std::ofstream open_output(const std::filesystem::path& path) {
  std::ofstream out(path);
  if (!out) throw InputError("--out: cannot write '" + path.string() + "'");
  return out;
}

void summary_object(JsonWriter& j, const Summary& s, bool median) {
  j.begin_object();
  j.field("min", s.min);
  if (median) j.field("median", s.median);
  j.field("mean", s.mean);
  j.field("max", s.max);
  j.end_object();
}

}  // namespace interflow::cli
