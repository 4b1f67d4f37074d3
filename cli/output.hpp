#pragma once
// What the result writers of every command share: the --out directory, its files, and the
// {min, median, mean, max} objects of summary.json.
#include <filesystem>
#include <fstream>
#include <string>

#include "cli/json.hpp"
#include "core/stats.hpp"

namespace interflow::cli {

// Creates the --out directory (and its parents); throws InputError naming it when that fails.
std::filesystem::path make_output_dir(const std::string& dir);
// Opens a result file for writing; throws InputError naming it when that fails.
std::ofstream open_output(const std::filesystem::path& path);
// {"min", ["median",] "mean", "max"} of a summary.
void summary_object(JsonWriter& j, const Summary& s, bool median);

}  // namespace interflow::cli
