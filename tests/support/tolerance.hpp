// Relative-tolerance assertion whose failure message prints both numbers and the tolerance.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>

namespace gputco::test {

/// Passes when |actual - expected| <= fraction x |expected|. Message:
/// "estimated 6.36, published 6.6, off -3.6 %, tolerance 10 %".
inline ::testing::AssertionResult within(double actual, double expected, double fraction) {
  const double off = expected != 0 ? (actual - expected) / std::abs(expected) : actual;
  std::ostringstream msg;
  msg << "estimated " << actual << ", published " << expected << ", off " << 100 * off
      << " %, tolerance " << 100 * fraction << " %";
  if (std::isfinite(actual) && std::abs(off) <= fraction) {
    return ::testing::AssertionSuccess() << msg.str();
  }
  return ::testing::AssertionFailure() << msg.str();
}

}  // namespace gputco::test

namespace gputco::test {

/// Prints "label: estimated A, published B, off X %, tolerance T %" (so test logs show every
/// reference case, passing or not) and expects the relative tolerance to hold.
inline void expect_within(const std::string& label, double actual, double expected,
                          double fraction) {
  const auto result = within(actual, expected, fraction);
  std::printf("  %s: %s\n", label.c_str(), result.message());
  EXPECT_TRUE(result) << label;
}

}  // namespace gputco::test
