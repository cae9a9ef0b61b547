// What-if: change an input in a copy of the workbook (the tariff on the Inputs sheet, by
// editing the cell in the file), recalculate it with LibreOffice, and check that every total
// moves by exactly what the engine computes for the same change.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>

#include "reports/xlsx_report.hpp"
#include "tests/unit/reports_xlsx_fixture.hpp"

namespace gputco {
namespace {

double cell_number(const std::map<std::string, test::CsvTable>& sheets, const std::string& sheet,
                   size_t row, size_t col) {
  const auto& table = sheets.at(sheet);
  if (row >= table.size() || col >= table[row].size()) {
    ADD_FAILURE() << sheet << " has no cell at row " << row + 1 << ", column " << col + 1;
    return std::nan("");
  }
  return std::stod(table[row][col]);
}

void expect_same(double actual, double expected, const std::string& what) {
  const double tolerance = 1e-9 * std::max(1.0, std::abs(expected));
  EXPECT_NEAR(actual, expected, tolerance)
      << what << ": workbook " << actual << ", engine " << expected << ", tolerance " << tolerance;
}

TEST(WhatIf, aChangedTariffMovesTheTotalsByWhatTheEngineComputes) {
  if (!test::soffice_available()) GTEST_SKIP() << "soffice (LibreOffice) is not installed";
  if (!test::zip_available()) GTEST_SKIP() << "zip/unzip are not installed";
  const std::string dir = test::fresh_dir("whatif-" + std::to_string(::getpid()));
  const test::SamplePlan base = test::engine_sample_plan();
  const double old_tariff = base.scenario.plan_inputs.site.tariff_per_kwh;
  const double new_tariff = old_tariff * 1.5 + 0.01;
  write_workbook(base.plan, base.scenario, dir + "/base.xlsx");
  test::copy_with_input(dir + "/base.xlsx", "tariff_per_kwh", new_tariff, dir + "/whatif.xlsx");

  // The engine's answer to the same change.
  PlanInputs changed = base.scenario.plan_inputs;
  changed.site.tariff_per_kwh = new_tariff;
  const Plan expected = make_plan(changed);

  const auto results =
      test::recalculate_with_libreoffice({dir + "/base.xlsx", dir + "/whatif.xlsx"}, dir);
  const auto& before = results.at(dir + "/base.xlsx");
  const auto& after = results.at(dir + "/whatif.xlsx");
  // Summary: option i on row 17 + i; total cost in F, NPV in G (see the workbook test).
  bool moved = false;
  for (size_t i = 0; i < expected.options.size(); ++i) {
    const auto& old_option = base.plan.options[i];
    const auto& new_option = expected.options[i];
    const size_t row = 16 + i;
    const double total_before = cell_number(before, "Summary", row, 5);
    const double total_after = cell_number(after, "Summary", row, 5);
    expect_same(total_after, new_option.total_cost, new_option.id + " total cost");
    expect_same(cell_number(after, "Summary", row, 6), new_option.npv, new_option.id + " NPV");
    expect_same(total_after - total_before, new_option.total_cost - old_option.total_cost,
                new_option.id + " change of the total cost");
    for (size_t y = 0; y < new_option.annual_costs.size(); ++y) {
      expect_same(cell_number(after, "Summary", row, 7 + y), new_option.annual_costs[y],
                  new_option.id + " year " + std::to_string(y + 1));
    }
    moved = moved || std::abs(new_option.total_cost - old_option.total_cost) > 1;
    std::printf("what-if tariff %.4f -> %.4f: %s total %.6f -> %.6f (engine %.6f)\n", old_tariff,
                new_tariff, new_option.id.c_str(), total_before, total_after,
                new_option.total_cost);
  }
  EXPECT_TRUE(moved) << "the tariff changed no total: the test proves nothing";
  // The checks still hold after the change (the workbook stays consistent with itself).
  const auto& checks = after.at("Checks");
  for (size_t r = 7; r < checks.size(); ++r) {
    if (checks[r].size() < 3 || checks[r][2] == "n/a") continue;
    if (checks[r][0] == "No price older than the scenario allows") continue;
    EXPECT_EQ(checks[r][2], "TRUE") << "Checks row " << r + 1 << ": " << checks[r][0];
  }
  if (!::testing::Test::HasFailure()) std::filesystem::remove_all(dir);
}

TEST(WhatIf, aChangedApiPriceAndGridIntensityMoveFeesAndEmissionsAsTheEngineSays) {
  if (!test::soffice_available()) GTEST_SKIP() << "soffice (LibreOffice) is not installed";
  if (!test::zip_available()) GTEST_SKIP() << "zip/unzip are not installed";
  const std::string dir = test::fresh_dir("whatif-api-" + std::to_string(::getpid()));
  const test::SamplePlan base = test::api_carbon_sample_plan();
  write_workbook(base.plan, base.scenario, dir + "/base.xlsx");
  // The API's output price up by half, and the site's grid intensity up by a third.
  const double new_price = 1.2;
  const double new_grid = 466;
  test::copy_with_input(dir + "/base.xlsx", "opt_api_llama_output_price_per_million", new_price,
                        dir + "/price.xlsx");
  test::copy_with_input(dir + "/base.xlsx", "grid_g_co2e_per_kwh", new_grid, dir + "/grid.xlsx");
  PlanInputs price_inputs = base.scenario.plan_inputs;
  price_inputs.options[3].output_price_per_million = new_price;
  const Plan price_plan = make_plan(price_inputs);
  PlanInputs grid_inputs = base.scenario.plan_inputs;
  grid_inputs.site.grid_g_co2e_per_kwh = new_grid;
  const Plan grid_plan = make_plan(grid_inputs);
  const auto results =
      test::recalculate_with_libreoffice({dir + "/price.xlsx", dir + "/grid.xlsx"}, dir);
  const auto& price = results.at(dir + "/price.xlsx");
  const auto& grid = results.at(dir + "/grid.xlsx");
  // Summary: option i on row 17 + i; total cost in F, NPV in G, kg CO2e in N (24 months).
  for (size_t i = 0; i < price_plan.options.size(); ++i) {
    const size_t row = 16 + i;
    expect_same(cell_number(price, "Summary", row, 5), price_plan.options[i].total_cost,
                price_plan.options[i].id + " total cost after the price change");
    expect_same(cell_number(price, "Summary", row, 6), price_plan.options[i].npv,
                price_plan.options[i].id + " NPV after the price change");
    if (grid_plan.options[i].co2e_kg_total) {
      expect_same(cell_number(grid, "Summary", row, 13), *grid_plan.options[i].co2e_kg_total,
                  grid_plan.options[i].id + " kg CO2e after the grid change");
    }
  }
  EXPECT_GT(price_plan.options[3].total_cost, base.plan.options[3].total_cost + 1);
  EXPECT_GT(*grid_plan.options[0].co2e_kg_total, *base.plan.options[0].co2e_kg_total + 1);
  if (!::testing::Test::HasFailure()) std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace gputco
