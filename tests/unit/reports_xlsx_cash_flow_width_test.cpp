// The Cash flow sheet's number columns are wide enough for the largest sum a row reaches: no
// cell shows ### (newcomer: a fleet of 10^8 requests a day served 27 trillion tokens over its
// horizon, and its sum column printed ###).
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <string>

#include "reports/xlsx/report.hpp"
#include "tests/unit/reports_xlsx_fixture.hpp"

namespace gputco {
namespace {

/// Zero-based column -> width in characters, from a sheet's <col> elements.
std::map<int, double> column_widths(const std::string& xml) {
  std::map<int, double> widths;
  const std::regex col(R"re(<col min="(\d+)" max="(\d+)" width="([0-9.]+)")re");
  for (std::sregex_iterator it(xml.begin(), xml.end(), col), end; it != end; ++it) {
    for (int c = std::stoi((*it)[1]); c <= std::stoi((*it)[2]); ++c) {
      widths[c - 1] = std::stod((*it)[3]);
    }
  }
  return widths;
}

TEST(XlsxCashFlow, numberColumnsWidenForTheLargestSum) {
  if (!test::zip_available()) GTEST_SKIP() << "unzip is not installed";
  auto sample = test::sample_plan();
  const std::string dir = test::fresh_dir("cash-flow-width");
  write_workbook(sample.plan, sample.scenario, dir + "/plain.xlsx", WorkbookOptions{});
  // 10^12 tokens a month over the sample's 13 to 99 months: 1.3 x 10^13 to 10^14 tokens, 14
  // digits, 4 separators, a sign and a margin (whole numbers): 14 + 4 + 1 + 1 = 20 characters.
  auto& tokens = sample.plan.options[0].tokens_served;
  ASSERT_GE(tokens.size(), 13u);
  ASSERT_LT(tokens.size(), 100u);
  for (double& t : tokens) t = 1e12;
  write_workbook(sample.plan, sample.scenario, dir + "/large.xlsx", WorkbookOptions{});
  const auto plain_part = test::sheet_parts(dir + "/plain.xlsx").at("Cash flow");
  const auto large_part = test::sheet_parts(dir + "/large.xlsx").at("Cash flow");
  const auto plain = column_widths(test::zip_member(dir + "/plain.xlsx", plain_part));
  const auto large = column_widths(test::zip_member(dir + "/large.xlsx", large_part));
  // Column B (the horizon sum) and C (month 0): 15 characters at the sample's sums, the
  // floor (an amount up to 10^9).
  ASSERT_TRUE(plain.count(1) && plain.count(2) && large.count(1) && large.count(2));
  EXPECT_NEAR(plain.at(1), 15 + 0.7109375, 0.01);
  EXPECT_NEAR(plain.at(2), 15 + 0.7109375, 0.01);
  EXPECT_NEAR(large.at(1), 20 + 0.7109375, 0.01);
  EXPECT_NEAR(large.at(2), 20 + 0.7109375, 0.01);
}

}  // namespace
}  // namespace gputco
