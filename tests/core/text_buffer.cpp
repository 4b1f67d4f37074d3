// TextBuffer (core/text_buffer.hpp): what it writes equals what the stream would get value by value,
// across block boundaries and for text longer than a block.
#include "core/text_buffer.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <sstream>
#include <string>

#include "core/format.hpp"

using namespace interflow;

TEST_CASE("text buffer: numbers in their shortest exact form and rows across blocks") {
  std::ostringstream out, expected;
  {
    TextBuffer text(out, 16);  // a tiny block (raised to the longest number's room): many flushes
    for (int i = 0; i < 2000; ++i) {
      const double v = std::ldexp(1.0 + i / 7.0, i % 80 - 40);
      text.integer(static_cast<std::uint64_t>(i) * 1000003u).put(',').number(v).put(',').text("Delivered").put('\n');
      expected << static_cast<std::uint64_t>(i) * 1000003u << ',' << number_text(v) << ",Delivered\n";
    }
    text.number(std::numeric_limits<double>::quiet_NaN()).put(',').number(-0.1).put(',');
    text.integer(std::numeric_limits<std::uint64_t>::max()).put('\n');
    expected << ",-0.1," << std::numeric_limits<std::uint64_t>::max() << '\n';
    const std::string long_text(5000, 'x');  // longer than the block: written through
    text.text(long_text);
    expected << long_text;
  }
  CHECK(out.str() == expected.str());
}
