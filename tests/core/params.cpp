// Plugin parameters from spec strings: every value is checked where it is read, so a NaN, an
// infinity, an overflow or a value out of range ends with one message naming the plugin and the
// parameter, and valid values read exactly as before.
#include "core/params.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/registry.hpp"

using namespace interflow;

namespace {

struct Product {};
using TestRegistry = Registry<Product>;

// A registry with one plugin 'torus' whose parameters cover every numeric type.
TestRegistry test_registry() {
  TestRegistry r("topology");
  r.add({"torus",
         "test plugin",
         {dims_param("dims", "4x4", "sizes"), int_param("k", "4", "radix", 2, 64),
          real_param("bytes", "1e6", "size", 0), real_param("share", "0.5", "fraction", 0, 1),
          int_param("big", "0", "any 64-bit integer"), real_param("any", "0", "any finite real")},
         [](const ParamSet&) { return std::make_unique<Product>(); },
         ""});
  return r;
}

// The message of validating `spec`, or "" when it is accepted.
std::string error_of(const std::string& spec) {
  try {
    test_registry().validate(Spec::parse(spec, "--topology"));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// Checks that `spec` is refused with a message naming the plugin spec, the parameter and `part`.
void refused(const std::string& spec, const std::string& parameter, const std::string& part) {
  const std::string message = error_of(spec);
  INFO(spec, " -> ", message);
  CHECK(message.find("topology '" + spec + "'") != std::string::npos);
  CHECK(message.find("parameter '" + parameter + "'") != std::string::npos);
  CHECK(message.find(part) != std::string::npos);
}

}  // namespace

TEST_CASE("params: valid values read exactly") {
  const ParamSet p = test_registry().validate(
      Spec::parse("torus:dims=8x8x8,k=+7,bytes=2.5e6,share=1,big=-9223372036854775808,any=-0", "--topology"));
  CHECK(p.get_dims("dims") == std::vector<std::uint32_t>{8, 8, 8});
  CHECK(p.get_int("k") == 7);
  CHECK(p.get_real("bytes") == 2.5e6);
  CHECK(p.get_real("share") == 1.0);
  CHECK(p.get_int("big") == INT64_MIN);
  CHECK(p.get_real("any") == 0.0);
  CHECK(test_registry().validate(Spec::parse("torus:dims=4294967295", "-t")).get_dims("dims") ==
        std::vector<std::uint32_t>{4294967295u});
  CHECK(test_registry().validate(Spec::parse("torus:any=4.9e-324", "-t")).get_real("any") > 0);  // subnormal
}

TEST_CASE("params: reals refuse nan and infinities and overflow and hex floats") {
  for (const std::string v : {"nan", "-nan", "NaN", "nan(1)", "inf", "-inf", "+inf", "infinity", "-Infinity"})
    refused("torus:any=" + v, "any", "not a finite number");
  refused("torus:bytes=1e999", "bytes", "out of the range of a double");
  refused("torus:any=-1e999", "any", "out of the range of a double");
  refused("torus:any=1e-400", "any", "out of the range of a double");
  for (const std::string v : {"0x1p3", "0x10", "1_000", "1e6x", "", "+", "+-5", "--5", " 5", "5 "})
    refused("torus:any=" + v, "any", "not a number");
  CHECK_FALSE(parse_real("+-5").has_value());
  CHECK_FALSE(parse_real("0x1p3").has_value());
  CHECK_FALSE(parse_real("1e999").has_value());
}

TEST_CASE("params: range checks cannot be passed by nan") {
  // A NaN is refused before the range check, and the range check itself keeps NaN out: both ways
  // the bounds 0..1 hold.
  refused("torus:share=nan", "share", "expected real in 0..1, got 'nan'");
  refused("torus:share=1.0000001", "share", "above the maximum 1");
  refused("torus:share=-0.1", "share", "below the minimum 0");
  refused("torus:bytes=-1", "bytes", "below the minimum 0");
  ParamSpec nan_bounds = real_param("x", "0.5", "bounds that are NaN", std::nan(""), std::nan(""));
  CHECK_THROWS_AS(ParamSet("test", Spec::parse("p:x=0.5", "-t"), {nan_bounds}), InputError);
}

TEST_CASE("params: integers refuse overflow and values beyond int64 and fractions") {
  refused("torus:big=9223372036854775808", "big", "out of the range of a 64-bit integer");
  refused("torus:big=-9223372036854775809", "big", "out of the range of a 64-bit integer");
  refused("torus:big=99999999999999999999999", "big", "out of the range of a 64-bit integer");
  for (const std::string v : {"1e6", "2.5", "0x10", "nan", "inf", "", "+-1", "1 "})
    refused("torus:big=" + v, "big", "not a whole number");
  refused("torus:k=65", "k", "above the maximum 64");
  refused("torus:k=1", "k", "below the minimum 2");
  // An integer just above a bound is not rounded onto it.
  const ParamSpec exact = int_param("n", "0", "at most 2^53", 0, 9007199254740992.0);
  CHECK_NOTHROW(ParamSet("test", Spec::parse("p:n=9007199254740992", "-t"), {exact}));
  CHECK_THROWS_AS(ParamSet("test", Spec::parse("p:n=9007199254740993", "-t"), {exact}), InputError);
}

TEST_CASE("params: dims entries refuse zero and overflow and empty entries") {
  refused("torus:dims=8x0x8", "dims", "entry 2 '0' is below 1");
  refused("torus:dims=8x4294967296", "dims", "entry 2 '4294967296' is out of the range 0..4294967295");
  refused("torus:dims=99999999999999999999x2", "dims", "entry 1 '99999999999999999999' is out of the range of");
  refused("torus:dims=8xx8", "dims", "entry 2 '' is not a whole number");
  refused("torus:dims=8x-1", "dims", "entry 2 '-1' is out of the range");
  refused("torus:dims=8x", "dims", "entry 2");
  refused("torus:dims=", "dims", "entry 1");
  refused("torus:dims=8x2.5", "dims", "entry 2 '2.5' is not a whole number");
  CHECK_FALSE(parse_dims("8x0x").has_value());
}

TEST_CASE("params: messages name the plugin and the parameter") {
  const std::string message = error_of("torus:dims=8x8,k=nan");
  CHECK(message ==
        "topology 'torus:dims=8x8,k=nan': parameter 'k': expected int in 2..64, got 'nan' (not a whole number)");
  CHECK(error_of("torus:bytes=inf") ==
        "topology 'torus:bytes=inf': parameter 'bytes': expected real in 0..inf, got 'inf' (not a finite number)");
}
