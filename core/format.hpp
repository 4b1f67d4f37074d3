#pragma once
// Numbers as text for result files and messages: the shortest decimal form that reads back as the
// same double (std::to_chars), so every value written is exact and no digit is noise.
#include <string>

namespace interflow {

// "0.1", "1e+06", "100"; an empty string for a value that is not finite (a time that never came:
// CSV cells are left empty for it).
std::string number_text(double v);

// A duration for people: "42s", "3m07s", "2h05m" (whole seconds or minutes, rounded down).
std::string duration_text(double seconds);

}  // namespace interflow
