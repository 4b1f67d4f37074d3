#include "core/error.hpp"

namespace interflow {

InputError file_error(const std::string& file, std::size_t line, const std::string& message) {
  return InputError(file + ":" + std::to_string(line) + ": " + message);
}

}  // namespace interflow
