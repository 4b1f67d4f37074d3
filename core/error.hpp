#pragma once
// Errors a user can cause. Each message names the input and what was expected; the CLI prints it
// and exits with a non-zero status.
#include <stdexcept>
#include <string>

namespace interflow {

class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& message) : std::runtime_error(message) {}
};

// A result that could not be written (a full disk, a closed pipe, a directory that cannot be made):
// the run's results are incomplete, so the CLI exits with its own status.
class OutputError : public std::runtime_error {
 public:
  explicit OutputError(const std::string& message) : std::runtime_error(message) {}
};

// "file:line: message" for parsers.
InputError file_error(const std::string& file, std::size_t line, const std::string& message);

}  // namespace interflow
