#pragma once
// libFuzzer harness shared by the trace-reader fuzz targets (manual/traces.md "Fuzzing"): the input
// is written to a file of this process and read; a malformed trace must end in InputError, never in
// a crash, a hang or another exception.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>

#include "core/error.hpp"

namespace interflow::fuzz {

template <typename Read>
int read_input(const std::uint8_t* data, std::size_t size, const char* suffix, Read&& read) {
  static const std::string path = "/tmp/interflow_fuzz_" + std::to_string(getpid()) + suffix;
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    read(path);
  } catch (const InputError&) {
  }
  return 0;
}

}  // namespace interflow::fuzz
