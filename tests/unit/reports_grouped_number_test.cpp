#include "reports/grouped_number.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace gputco {
namespace {

TEST(GroupedNumber, aCommaBeforeEveryThirdDigitOfTheWholePart) {
  EXPECT_EQ(grouped_number(0), "0");
  EXPECT_EQ(grouped_number(999), "999");
  EXPECT_EQ(grouped_number(1000), "1,000");
  EXPECT_EQ(grouped_number(15220), "15,220");
  EXPECT_EQ(grouped_number(1234567), "1,234,567");
  // The decimals are never grouped: 1234.5678 to two decimals is 1234.57.
  EXPECT_EQ(grouped_number(1234.5678, 2), "1,234.57");
  EXPECT_EQ(grouped_number(405.46, 1), "405.5");
}

TEST(GroupedNumber, noCommaAfterTheSign) {
  EXPECT_EQ(grouped_number(-123), "-123");
  EXPECT_EQ(grouped_number(-1020), "-1,020");
  EXPECT_EQ(grouped_number(-123456.25, 2), "-123,456.25");
}

TEST(GroupedNumber, anExactHalfRoundsToEvenUnlessTheCallerRounds) {
  // 2.5 and 1002.5 are exact in binary: fmt rounds them to the even neighbour.
  EXPECT_EQ(grouped_number(2.5), "2");
  EXPECT_EQ(grouped_number(1002.5), "1,002");
  // std::round takes halves away from zero, as the throughput report asks.
  EXPECT_EQ(grouped_number(std::round(1002.5)), "1,003");
  EXPECT_EQ(grouped_number(std::round(-1002.5)), "-1,003");
}

TEST(GroupedNumber, notFiniteIsWrittenAsFmtWritesIt) {
  EXPECT_EQ(grouped_number(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(grouped_number(-std::numeric_limits<double>::infinity()), "-inf");
}

}  // namespace
}  // namespace gputco
