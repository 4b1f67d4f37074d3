// TextBuffer (core/text_buffer.hpp): what it writes equals what the stream would get value by value,
// across block boundaries and for text longer than a block.
#include "core/text_buffer.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>

#include "core/format.hpp"

#include <tbb/task_arena.h>

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

TEST_CASE("text buffer: in memory it grows and keeps everything") {
  TextBuffer text;
  std::string expected;
  const std::string long_text(200000, 'y');  // beyond the first allocation
  for (int i = 0; i < 3000; ++i) {
    text.integer(static_cast<std::uint64_t>(i)).put(';').number(i / 3.0).put('\n');
    expected += std::to_string(i) + ';' + number_text(i / 3.0) + '\n';
  }
  text.text(long_text);
  expected += long_text;
  CHECK(text.view() == expected);
  text.clear();
  CHECK(text.view().empty());
}

TEST_CASE("write rows: the same file as one buffer for any chunk size and thread count") {
  const auto row = [](TextBuffer& text, std::size_t first, std::size_t last) {
    for (std::size_t f = first; f < last; ++f) text.integer(f).put(',').number(std::sqrt(double(f))).put('\n');
  };
  std::ostringstream expected;
  {
    TextBuffer text(expected);
    row(text, 0, 10007);
  }
  for (const int threads : {1, 2, 4})
    for (const std::size_t chunk : {std::size_t{1}, std::size_t{7}, std::size_t{1000}, std::size_t{20000}}) {
      INFO(threads << " threads, chunks of " << chunk);
      std::ostringstream out;
      tbb::task_arena arena(threads);
      arena.execute([&] { write_rows(out, 10007, row, chunk); });
      CHECK(out.str() == expected.str());
    }
  std::ostringstream none;
  write_rows(none, 0, row);
  CHECK(none.str().empty());
}

TEST_CASE("write rows: a stream that fails stays failed and an error in a row reaches the caller") {
  const auto row = [](TextBuffer& text, std::size_t first, std::size_t last) {
    for (std::size_t f = first; f < last; ++f) text.integer(f).put('\n');
  };
  std::ostringstream broken;
  broken.setstate(std::ios::badbit);  // as a full disk leaves it: the caller checks the stream after
  write_rows(broken, 100000, row, 100);
  CHECK(broken.bad());
  for (const int threads : {1, 2}) {
    std::ostringstream out;
    tbb::task_arena arena(threads);
    const auto throwing = [](TextBuffer& text, std::size_t first, std::size_t last) {
      for (std::size_t f = first; f < last; ++f) {
        if (f == 5000) throw std::runtime_error("row 5000");
        text.integer(f).put('\n');
      }
    };
    CHECK_THROWS_WITH(arena.execute([&] { write_rows(out, 10000, throwing, 64); }), "row 5000");
  }
}
