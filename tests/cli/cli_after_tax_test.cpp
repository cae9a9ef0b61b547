// gputco plan with [tax] rate (issue #40): the after-tax view in the terminal and JSON beside
// the pre-tax figures, --set tax.rate, and no trace of it without a rate.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <numeric>

#include "tests/support/paths.hpp"
#include "tests/support/process.hpp"

namespace gputco {
namespace {

const std::string kFinanceView = "scenarios/examples/finance-view-70b.ini";
const std::string kNoTax = "scenarios/examples/used-3090-rig-vs-rented-h100.ini";

nlohmann::json plan_json(const std::string& scenario, const std::vector<std::string>& more = {}) {
  test::TempDir dir;
  std::vector<std::string> args = {
      "plan", test::source_path(scenario), "-o", dir.file("plan.xlsx"), "--format", "json"};
  args.insert(args.end(), more.begin(), more.end());
  const auto result = test::run(test::gputco_exe(), args);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  return nlohmann::json::parse(result.out);
}

TEST(CliAfterTax, jsonHasTheAfterTaxFiguresBesideThePreTaxOnes) {
  const auto plan = plan_json(kFinanceView);
  ASSERT_EQ(plan["tax_rate"].get<double>(), 0.30);
  EXPECT_TRUE(plan.contains("pre_tax_recommendation"));
  EXPECT_NE(plan["tax_assumption"].get<std::string>().find("enough taxable profit"),
            std::string::npos);
  EXPECT_NE(plan["recommendation_reason"].get<std::string>().find("after-tax NPV"),
            std::string::npos);
  double lowest = 1e300;
  std::string lowest_id;
  for (const auto& option : plan["options"]) {
    SCOPED_TRACE(option["id"].get<std::string>());
    ASSERT_TRUE(option.contains("after_tax"));
    const auto& a = option["after_tax"];
    EXPECT_EQ(a["pre_tax_npv"], option["npv"]);
    EXPECT_EQ(a["pre_tax_total_cost"], option["total_cost"]);
    // The tax by year is -0.30 x the P&L's deductible, and the months hold it in each year's
    // last month: the after-tax total is the pre-tax total plus the tax.
    const auto& deductible = option["profit_and_loss"]["tax_deductible"];
    const auto& tax = a["tax_by_year"];
    ASSERT_EQ(tax.size(), deductible.size());
    double tax_sum = 0;
    for (size_t y = 0; y < tax.size(); ++y) {
      EXPECT_NEAR(tax[y].get<double>(), -0.30 * deductible[y].get<double>(),
                  1e-9 * std::max(1.0, std::abs(tax[y].get<double>())));
      tax_sum += tax[y].get<double>();
      EXPECT_NE(a["monthly_tax"][12 * (y + 1)].get<double>(), 0.0) << "settled in month 12y";
    }
    EXPECT_NEAR(a["total_cost"].get<double>(), option["total_cost"].get<double>() + tax_sum, 1e-6);
    if (a["npv"].get<double>() < lowest) {
      lowest = a["npv"].get<double>();
      lowest_id = option["id"].get<std::string>();
    }
  }
  EXPECT_EQ(plan["recommendation"], lowest_id) << "recommended on the after-tax NPV";
}

TEST(CliAfterTax, setTaxRateZeroLeavesTheNpvsAsTheyArePreTax) {
  const auto plan = plan_json(kFinanceView, {"--set", "tax.rate=0"});
  for (const auto& option : plan["options"]) {
    EXPECT_NEAR(option["after_tax"]["npv"].get<double>(), option["npv"].get<double>(),
                1e-9 * std::abs(option["npv"].get<double>()));
  }
  EXPECT_EQ(plan["recommendation"], plan["pre_tax_recommendation"]);
}

TEST(CliAfterTax, noRateNoAfterTaxKeysAndNoTableInTheTerminal) {
  const auto plan = plan_json(kNoTax);
  EXPECT_FALSE(plan.contains("tax_rate"));
  EXPECT_FALSE(plan.contains("pre_tax_recommendation"));
  for (const auto& option : plan["options"]) {
    EXPECT_FALSE(option.contains("after_tax"));
    EXPECT_FALSE(option["profit_and_loss"].contains("tax_deductible"));
  }
  test::TempDir dir;
  const auto text = test::run(test::gputco_exe(),
                              {"plan", test::source_path(kNoTax), "-o", dir.file("plan.xlsx")});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.out.find("After tax"), std::string::npos);
}

TEST(CliAfterTax, theTerminalShowsTheAfterTaxTableAndItsAssumption) {
  test::TempDir dir;
  const auto text = test::run(
      test::gputco_exe(), {"plan", test::source_path(kFinanceView), "-o", dir.file("plan.xlsx")});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("After tax at 30.00 %, EUR:"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("after-tax NPV"), std::string::npos);
  EXPECT_NE(text.out.find("enough taxable profit"), std::string::npos);
}

TEST(CliAfterTax, aRateOfOneExitsTwoNamingTheKey) {
  test::TempDir dir;
  const auto result = test::run(test::gputco_exe(), {"plan", test::source_path(kFinanceView), "-o",
                                                     dir.file("plan.xlsx"), "--set", "tax.rate=1"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("[tax] rate"), std::string::npos) << result.err;
}

TEST(CliAfterTax, aLoansIrrIsLabelledEquityWithTheProjectIrrBeside) {
  // The finance view's colocated H100s are bought on a loan with 20 % down: its IRR (if any)
  // is the equity IRR; JSON says so and gives the project IRR key.
  const auto plan = plan_json(kFinanceView);
  for (const auto& option : plan["options"]) {
    ASSERT_TRUE(option.contains("irr_basis"));
    ASSERT_TRUE(option.contains("project_irr"));
    ASSERT_TRUE(option.contains("equity_irr"));
    if (option["id"] == "colo-2xh100" && !plan["baseline"].is_null()) {
      EXPECT_EQ(option["irr_basis"], "equity");
      EXPECT_EQ(option["equity_irr"], option["irr"]);
    }
  }
}

}  // namespace
}  // namespace gputco
