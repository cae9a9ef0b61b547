// The CSV report: RFC 4180 quoting, a header, one line per option, exact numbers.
#include <gtest/gtest.h>

#include <clocale>

#include "reports/csv_report.hpp"
#include "tests/unit/reports_xlsx_fixture.hpp"

namespace gputco {
namespace {

TEST(CsvReport, oneLinePerOptionAfterTheHeader) {
  const auto sample = test::sample_plan();
  const std::string csv = plan_csv(sample.plan, sample.scenario);
  const auto table = test::parse_csv(csv);
  ASSERT_EQ(table.size(), 4u);
  EXPECT_EQ(table[0], (std::vector<std::string>{"option",
                                                "kind",
                                                "gpu",
                                                "count",
                                                "fit",
                                                "feasible",
                                                "decode_tokens_per_s",
                                                "aggregate_tokens_per_s",
                                                "currency",
                                                "total_cost",
                                                "npv",
                                                "year_1",
                                                "year_2",
                                                "break_even_hours",
                                                "break_even_month",
                                                "cost_per_million_tokens",
                                                "break_even_tokens_per_day",
                                                "energy_kwh",
                                                "co2e_kg",
                                                "co2e_kg_per_million_tokens",
                                                "grid_g_co2e_per_kwh",
                                                "recommended",
                                                "note"}));
  EXPECT_EQ(table[1][0], "office-3090");
  EXPECT_EQ(table[1][1], "buy");
  EXPECT_EQ(table[1][2], "rtx-3090");
  EXPECT_EQ(table[1][3], "2");
  EXPECT_EQ(table[1][21], "true");
  EXPECT_EQ(table[2][21], "false");
  // Numbers read back to the same doubles.
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(std::stod(table[i + 1][9]), sample.plan.options[i].total_cost);
    EXPECT_EQ(std::stod(table[i + 1][10]), sample.plan.options[i].npv);
  }
  // A rental is not compared with the baseline: "n/a" (the terminal's word), never NaN or an
  // empty field that reads like "always" or "never".
  EXPECT_EQ(table[0][13], "break_even_hours");
  EXPECT_EQ(table[2][13], "n/a");
  EXPECT_EQ(table[2][14], "n/a");
  // Every line ends in CRLF.
  size_t crlf = 0;
  for (size_t at = csv.find("\r\n"); at != std::string::npos; at = csv.find("\r\n", at + 2)) {
    ++crlf;
  }
  EXPECT_EQ(crlf, 4u);
}

TEST(CsvReport, fieldsWithCommasQuotesAndLineBreaksAreQuoted) {
  auto sample = test::sample_plan();
  sample.plan.options[0].note = "says \"hi\", then\r\nleaves";
  sample.plan.options[1].id = "a,b";
  sample.scenario.plan_inputs.options[1].id = "a,b";
  const std::string csv = plan_csv(sample.plan, sample.scenario);
  EXPECT_NE(csv.find(",\"says \"\"hi\"\", then\r\nleaves\"\r\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\r\n\"a,b\",rent_hourly,h100-sxm,1,"), std::string::npos) << csv;
  const auto table = test::parse_csv(csv);
  EXPECT_EQ(table[1].back(), "says \"hi\", then\r\nleaves");
  EXPECT_EQ(table[2][0], "a,b");
}

TEST(CsvReport, numbersIgnoreTheLocale) {
  const auto sample = test::sample_plan();
  const std::string before = plan_csv(sample.plan, sample.scenario);
  // A decimal-comma locale, where installed, must not change a byte.
  if (std::setlocale(LC_ALL, "de_DE.UTF-8") != nullptr) {
    EXPECT_EQ(plan_csv(sample.plan, sample.scenario), before);
    std::setlocale(LC_ALL, "C");
  }
  EXPECT_NE(before.find(".5,"), std::string::npos);
}

}  // namespace
}  // namespace gputco
