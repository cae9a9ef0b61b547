// What-if: change one input in a copy of the workbook (by editing its Inputs cell in the file),
// recalculate it with LibreOffice, and check that what the workbook now shows (totals, NPVs,
// the recommendation, cost per million tokens, break-even hours, month and volume, payback,
// IRR, the checks) is what the engine computes for the same change (issue #15).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>

#include "engine/money/metrics.hpp"
#include "reports/xlsx/names.hpp"
#include "reports/xlsx/report.hpp"
#include "tests/unit/reports_xlsx_fixture.hpp"

namespace gputco {
namespace {

using Sheets = std::map<std::string, test::CsvTable>;

void expect_same(double actual, double expected, const std::string& what) {
  const double tolerance = 1e-9 * std::max(1.0, std::abs(expected));
  EXPECT_NEAR(actual, expected, tolerance)
      << what << ": workbook " << actual << ", engine " << expected << ", tolerance " << tolerance;
}

/// A figure of the recalculated Summary: the engine's number, else the word it shows instead.
void expect_figure(const Sheets& sheets, const std::string& header, const std::string& option,
                   const std::optional<double>& expected, const std::string& otherwise) {
  const std::string field = test::table_cell(sheets.at("Summary"), header, option);
  if (expected) {
    const double value = test::csv_number(field);
    EXPECT_FALSE(std::isnan(value)) << option << ", " << header << ": '" << field << "'";
    expect_same(value, *expected, option + ", " + header);
  } else {
    EXPECT_EQ(field, otherwise) << option << ", " << header;
  }
}

/// Everything the Summary shows of `expected` (the engine's plan of the changed scenario).
/// `volume_may_need_rerun`: the break-even volume may say "rerun gputco" where units changed.
void expect_summary_is_the_engines(const Sheets& sheets, const Plan& expected,
                                   bool volume_may_need_rerun = false) {
  const test::CsvTable& summary = sheets.at("Summary");
  EXPECT_EQ(test::key_value(summary, "Recommendation"), expected.recommendation.value_or("none"));
  const std::string& currency = expected.currency;
  for (const OptionResult& option : expected.options) {
    const std::string& id = option.id;
    expect_figure(sheets, "Total cost, " + currency, id, option.total_cost, "");
    expect_figure(sheets, "NPV of cost, " + currency, id, option.npv, "");
    if (expected.tax_rate && option.after_tax && option.feasible) {
      expect_figure(sheets, "After-tax total cost, " + currency, id, option.after_tax->total_cost,
                    "");
      expect_figure(sheets, "After-tax NPV of cost, " + currency, id, option.after_tax->npv, "");
    }
    expect_figure(sheets, "Cost per million output tokens, " + currency, id,
                  option.cost_per_million_tokens, "n/a");
    expect_figure(sheets, "Cost per user per month, " + currency, id,
                  option.cost_per_user_per_month, "n/a");
    const bool compared =
        option.kind == OptionKind::buy && option.feasible && !expected.baseline_option_id.empty();
    if (compared) {
      const bool na = !option.comparison_na_reason.empty();
      const std::string no_hours = option.owning_cheaper_at_any_use ? "always" : "never";
      expect_figure(sheets, "Break-even hours of use", id, option.break_even_hours, no_hours);
      expect_figure(sheets, "Break-even hours per day", id, option.break_even_hours_per_day,
                    no_hours);
      expect_figure(
          sheets, "Break-even month", id,
          option.break_even_month ? std::optional<double>(*option.break_even_month) : std::nullopt,
          option.never_dearer_than_baseline ? "n/a" : "never");
      expect_figure(sheets, "Payback, months", id, na ? std::nullopt : option.payback_months,
                    na ? "n/a" : "never");
      expect_figure(
          sheets, "IRR per year", id, na ? std::nullopt : option.irr,
          !na && !irr_is_unique(option.saving_sign_changes, option.cumulative_saving_sign_changes)
              ? irr_not_unique_text(option.saving_sign_changes)
              : "n/a");
    }
    if (!expected.api_reference_option_id.empty() && option.kind != OptionKind::api &&
        option.feasible) {
      const std::string header = "Break-even output tokens per day of use";
      if (volume_may_need_rerun && test::table_cell(summary, header, id) == "rerun gputco") {
        double most_units = 0;
        for (double u : option.cash_flow.units) most_units = std::max(most_units, u);
        EXPECT_GT(most_units, 1) << id
                                 << ": 'rerun gputco' only where one unit no longer carries "
                                    "the volume";
      } else {
        expect_figure(sheets, header, id, option.break_even_tokens_per_day, "never");
      }
    }
  }
}

/// Every check of the recalculated workbook holds but the warnings; the warning that the
/// recommendation is no longer gputco's is FALSE exactly when it changed.
void expect_checks(const Sheets& sheets, bool recommendation_changed) {
  const auto& checks = sheets.at("Checks");
  int seen = 0;
  for (size_t r = 7; r < checks.size(); ++r) {
    if (checks[r].size() < 3 || checks[r][2] == "n/a") continue;
    const std::string& name = checks[r][0];
    if (name == "The recommendation is the one gputco wrote (warning)") {
      EXPECT_EQ(checks[r][2], recommendation_changed ? "FALSE" : "TRUE") << name;
      continue;
    }
    if (name.find("(status)") != std::string::npos) {
      // An edited input makes the figures only gputco computes stale (issue #37).
      if (name == "Figures only gputco computes are current (status)") {
        EXPECT_EQ(checks[r][2], "stale: re-run gputco") << name;
      }
      continue;
    }
    if (name.find("(warning)") != std::string::npos ||
        name == "No price older than the scenario allows") {
      continue;
    }
    ++seen;
    EXPECT_EQ(checks[r][2], "TRUE") << "Checks row " << r + 1 << ": " << name;
  }
  EXPECT_GE(seen, 5);
  EXPECT_EQ(test::key_value(checks, "All checks pass (the master check)").empty(), false);
}

std::string option_input_name(const std::string& option, const std::string& key) {
  return to_defined_name("opt_" + option) + "_" + key;
}

test::SamplePlan example(const std::string& file) {
  for (auto& [name, sample] : test::example_plans()) {
    if (name == file) return sample;
  }
  ADD_FAILURE() << "no example " << file;
  return {};
}

class WhatIf : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!test::soffice_available()) GTEST_SKIP() << "soffice (LibreOffice) is not installed";
    if (!test::zip_available()) GTEST_SKIP() << "zip/unzip are not installed";
    dir_ = test::fresh_dir(std::string("whatif-") +
                           ::testing::UnitTest::GetInstance()->current_test_info()->name() + "-" +
                           std::to_string(::getpid()));
  }
  void TearDown() override {
    if (!dir_.empty() && !::testing::Test::HasFailure()) std::filesystem::remove_all(dir_);
  }
  /// Writes `base`'s workbook, a copy with the input `name` set to `value`, recalculates both.
  std::pair<Sheets, Sheets> change(const test::SamplePlan& base, const std::string& name,
                                   double value) {
    const Sensitivity sensitivity = analyse(base.scenario.plan_inputs, base.plan);
    WorkbookOptions options;
    options.sensitivity = &sensitivity;
    write_workbook(base.plan, base.scenario, dir_ + "/base.xlsx", options);
    test::copy_with_input(dir_ + "/base.xlsx", name, value, dir_ + "/whatif.xlsx");
    auto results =
        test::recalculate_with_libreoffice({dir_ + "/base.xlsx", dir_ + "/whatif.xlsx"}, dir_);
    return {results.at(dir_ + "/base.xlsx"), results.at(dir_ + "/whatif.xlsx")};
  }
  std::string dir_;
};

TEST_F(WhatIf, aChangedTariffMovesTheTotalsByWhatTheEngineComputes) {
  const test::SamplePlan base = test::engine_sample_plan();
  const double old_tariff = base.scenario.plan_inputs.site.tariff_per_kwh;
  const double new_tariff = old_tariff * 1.5 + 0.01;
  const auto [before, after] = change(base, "tariff_per_kwh", new_tariff);
  PlanInputs changed = base.scenario.plan_inputs;
  changed.site.tariff_per_kwh = new_tariff;
  const Plan expected = make_plan(changed);

  bool moved = false;
  const std::string total_header = "Total cost, " + expected.currency;
  for (size_t i = 0; i < expected.options.size(); ++i) {
    const auto& old_option = base.plan.options[i];
    const auto& new_option = expected.options[i];
    const double total_before =
        test::csv_number(test::table_cell(before.at("Summary"), total_header, new_option.id));
    const double total_after =
        test::csv_number(test::table_cell(after.at("Summary"), total_header, new_option.id));
    expect_same(total_after - total_before, new_option.total_cost - old_option.total_cost,
                new_option.id + " change of the total cost");
    for (size_t y = 0; y < new_option.annual_costs.size(); ++y) {
      expect_same(test::csv_number(
                      test::table_cell(after.at("Summary"), std::to_string(y + 1), new_option.id)),
                  new_option.annual_costs[y], new_option.id + " year " + std::to_string(y + 1));
    }
    moved = moved || std::abs(new_option.total_cost - old_option.total_cost) > 1;
    std::printf("what-if tariff %.4f -> %.4f: %s total %.6f -> %.6f (engine %.6f)\n", old_tariff,
                new_tariff, new_option.id.c_str(), total_before, total_after,
                new_option.total_cost);
  }
  EXPECT_TRUE(moved) << "the tariff changed no total: the test proves nothing";
  expect_summary_is_the_engines(after, expected);
  expect_checks(after, expected.recommendation != base.plan.recommendation);
}

TEST_F(WhatIf, anApiPriceTimesAHundredMovesTheRecommendationAndTheBreakEvensAsTheEngineDoes) {
  // The finance user: the API's token prices x 100 on the Inputs sheet. The API was
  // recommended; afterwards it is the dearest, and every figure follows.
  const test::SamplePlan base = example("rig-rent-or-api-30-people.ini");
  PlanInputs changed = base.scenario.plan_inputs;
  std::string api_id;
  for (auto& o : changed.options) {
    if (o.kind != OptionKind::api) continue;
    api_id = o.id;
    o.output_price_per_million *= 100;
  }
  ASSERT_FALSE(api_id.empty());
  double new_price = 0;
  for (const auto& o : changed.options) {
    if (o.id == api_id) new_price = o.output_price_per_million;
  }
  // A price converted from USD is a formula of its published amount and the rate (issue #16):
  // the input to change is the published amount, x 100 as well.
  std::string input = option_input_name(api_id, "output_price_per_million");
  double new_input = new_price;
  for (const InputRow& row : base.scenario.inputs) {
    if (row.section != api_id || row.key != "output_price_per_million" || !row.published_amount) {
      continue;
    }
    input += "_published";
    new_input = *row.published_amount * 100;
  }
  const auto [before, after] = change(base, input, new_input);
  const Plan expected = make_plan(changed);
  ASSERT_EQ(base.plan.recommendation, api_id) << "the test starts from the API recommended";
  ASSERT_NE(expected.recommendation, api_id) << "x 100 must move the recommendation";
  std::printf("what-if API output price x 100: recommendation %s -> %s\n",
              base.plan.recommendation->c_str(), expected.recommendation->c_str());
  expect_summary_is_the_engines(after, expected);
  expect_checks(after, true);
  // The Cover follows the Summary.
  EXPECT_EQ(test::key_value(after.at("Cover"), "Recommendation"), *expected.recommendation);
}

TEST_F(WhatIf, tenTimesTheRequestsPerDayMoveTokensUnitsAndEveryFigureAsTheEngineDoes) {
  // requests_per_day drives tokens_per_day (x output tokens per request) by formula: x 10
  // and the rig needs more units, the rental more hours, the API more tokens.
  const test::SamplePlan base = example("rig-rent-or-api-30-people.ini");
  PlanInputs changed = base.scenario.plan_inputs;
  ASSERT_TRUE(changed.workload.requests_per_day && changed.workload.tokens_per_day);
  const double requests = *changed.workload.requests_per_day * 10;
  changed.workload.requests_per_day = requests;
  *changed.workload.tokens_per_day *= 10;
  const auto [before, after] = change(base, "requests_per_day", requests);
  const Plan expected = make_plan(changed);
  std::printf("what-if requests per day x 10: recommendation %s -> %s\n",
              base.plan.recommendation->c_str(), expected.recommendation->c_str());
  expect_summary_is_the_engines(after, expected, true);
  expect_checks(after, expected.recommendation != base.plan.recommendation);
}

TEST_F(WhatIf, aChangedDiscountRateMovesTheNpvsAndKeepsTheIrr) {
  const test::SamplePlan base = example("used-3090-rig-vs-rented-h100.ini");
  PlanInputs changed = base.scenario.plan_inputs;
  changed.finance.discount_rate_per_year = 0.35;
  const auto [before, after] = change(base, "discount_rate", 0.35);
  const Plan expected = make_plan(changed);
  for (size_t i = 0; i < expected.options.size(); ++i) {
    EXPECT_LT(expected.options[i].npv, base.plan.options[i].npv) << "a higher rate discounts more";
  }
  expect_summary_is_the_engines(after, expected);
  expect_checks(after, expected.recommendation != base.plan.recommendation);
}

TEST_F(WhatIf, aChangedTaxRateMovesTheAfterTaxNpvsAndTheRecommendationAsTheEngineDoes) {
  // Issue #40: the finance view's tax rate (30 %) edited on the Inputs sheet; the after-tax
  // rows on the Profit and loss and Cash flow sheets, the after-tax NPVs, the recommendation
  // made on them and the checks follow, and the pre-tax figures stay.
  const test::SamplePlan base = example("finance-view-70b.ini");
  ASSERT_TRUE(base.plan.tax_rate.has_value()) << "the example states [tax] rate";
  for (const double rate : {0.0, 0.6}) {
    PlanInputs changed = base.scenario.plan_inputs;
    changed.finance.tax_rate = rate;
    const Plan expected = make_plan(changed);
    const auto [before, after] = change(base, "tax_rate", rate);
    std::printf("what-if tax rate %.2f -> %.2f: recommendation %s -> %s (pre-tax %s)\n",
                *base.plan.tax_rate, rate, base.plan.recommendation.value_or("none").c_str(),
                expected.recommendation.value_or("none").c_str(),
                expected.pre_tax_recommendation.value_or("none").c_str());
    bool moved = false;
    for (size_t i = 0; i < expected.options.size(); ++i) {
      const OptionResult& option = expected.options[i];
      if (!option.feasible) continue;
      EXPECT_NEAR(option.npv, base.plan.options[i].npv, 1e-9 * std::abs(option.npv))
          << "the pre-tax NPV does not depend on the rate";
      moved = moved || std::abs(option.after_tax->npv - base.plan.options[i].after_tax->npv) > 1;
      if (rate == 0) {
        expect_same(option.after_tax->npv, option.npv, option.id + " at a zero rate");
      }
    }
    EXPECT_TRUE(moved) << "the rate moved no after-tax NPV: the test proves nothing";
    expect_summary_is_the_engines(after, expected);
    expect_checks(after, expected.recommendation != base.plan.recommendation);
  }
}

TEST_F(WhatIf, aChangedApiPriceAndGridIntensityMoveFeesAndEmissionsAsTheEngineSays) {
  const test::SamplePlan base = test::api_carbon_sample_plan();
  // The API's output price up by half, and the site's grid intensity up by a third.
  const double new_price = 1.2;
  const double new_grid = 466;
  PlanInputs price_inputs = base.scenario.plan_inputs;
  price_inputs.options[3].output_price_per_million = new_price;
  const Plan price_plan = make_plan(price_inputs);
  PlanInputs grid_inputs = base.scenario.plan_inputs;
  grid_inputs.site.grid_g_co2e_per_kwh = new_grid;
  const Plan grid_plan = make_plan(grid_inputs);
  const Sheets price =
      change(base, option_input_name("api-llama", "output_price_per_million"), new_price).second;
  expect_summary_is_the_engines(price, price_plan);
  const Sheets grid = change(base, "grid_g_co2e_per_kwh", new_grid).second;
  for (const OptionResult& option : grid_plan.options) {
    if (!option.co2e_kg_total) continue;
    expect_same(test::csv_number(test::table_cell(grid.at("Summary"),
                                                  "Emissions, kg CO2e (horizon)", option.id)),
                *option.co2e_kg_total, option.id + " kg CO2e after the grid change");
  }
  EXPECT_GT(price_plan.options[3].total_cost, base.plan.options[3].total_cost + 1);
  EXPECT_GT(*grid_plan.options[0].co2e_kg_total, *base.plan.options[0].co2e_kg_total + 1);
}

}  // namespace
}  // namespace gputco
