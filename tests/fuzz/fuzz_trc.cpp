// libFuzzer target: the INRFlow trace reader.
#include "tests/fuzz/fuzz_trace.hpp"
#include "workloads/traces.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return interflow::fuzz::read_input(data, size, ".trc",
                                     [](const std::string& path) { interflow::workloads::read_trc(path, {}); });
}
