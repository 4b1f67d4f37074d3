// libFuzzer target: the VEF reader.
#include "tests/fuzz/fuzz_trace.hpp"
#include "workloads/traces.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return interflow::fuzz::read_input(data, size, ".vef",
                                     [](const std::string& path) { interflow::workloads::read_vef(path, {}); });
}
