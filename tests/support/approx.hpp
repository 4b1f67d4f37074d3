#pragma once
// doctest's Approx compares |a - b| < epsilon x (scale + max(|a|, |b|)) with a scale of 1, so every
// check of a small quantity (seconds of a microsecond run, nanoseconds of latency) passed within an
// absolute 1.2e-5 (the default epsilon) whatever the values. approx() is relative: its scale is 1e-9,
// a floor far below the quantities the tests compare, kept only so that a check against 0 allows
// rounding.
#include <doctest/doctest.h>

inline doctest::Approx approx(double value) { return doctest::Approx(value).scale(1e-9); }
