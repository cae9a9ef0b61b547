// The Hardware sheet's sizing for the peak (issue #21 item 5): peak demand, one replica's rate,
// replicas, units and billed hours as live formulas over the Inputs sheet, with the engine's
// figures cached. Every example's workbook recalculates to the same figures in LibreOffice
// (reports_xlsx_recalc_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "reports/xlsx/report.hpp"
#include "tests/unit/reports_xlsx_fixture.hpp"

namespace gputco {
namespace {

using test::formula_cells;
using test::fresh_dir;
using test::sample_plan;

const test::FormulaCell* find_formula(const std::vector<test::FormulaCell>& cells,
                                      const std::string& ref) {
  for (const auto& cell : cells) {
    if (cell.sheet == "Hardware" && cell.ref == ref) return &cell;
  }
  return nullptr;
}

/// The formula at Hardware!`ref` with its cached result `expected`; fails without one.
void expect_formula(const std::vector<test::FormulaCell>& cells, const std::string& ref,
                    double expected, const std::string& contains) {
  const test::FormulaCell* cell = find_formula(cells, ref);
  ASSERT_NE(cell, nullptr) << "no formula at Hardware!" << ref;
  EXPECT_NEAR(cell->cached, expected, 1e-6 * std::max(1.0, expected))
      << ref << ": " << cell->formula;
  EXPECT_NE(cell->formula.find(contains), std::string::npos) << ref << ": " << cell->formula;
}

TEST(XlsxPeakSizing, hardwareSheetDerivesReplicasUnitsAndBilledHoursByFormula) {
  // The hand-built sample (decode 98.5 / 182.0 / 33.7 tokens/s, no prefill rate: capacity =
  // 3600 x decode) with a demand of 7,092,000 output tokens a day over 10 hours of use, the
  // peak hour at 3 x the mean hour.
  test::SamplePlan sample = sample_plan();
  PlanInputs& in = sample.scenario.plan_inputs;
  in.workload.tokens_per_day = 7092000;
  in.workload.peak_factor = 3;
  const std::string path = fresh_dir("peak-sizing") + "/tco.xlsx";
  write_workbook(sample.plan, sample.scenario, path);
  const auto cells = formula_cells(path);
  // Rows: the fit table's header on 4 and its 3 options on 5-7; the block's title on 9, the
  // peak demand on 11, its header on 13, the options on 14-16.
  // Peak demand = 7,092,000 / 10 h x 3 = 2,127,600 tokens/h.
  expect_formula(cells, "C11", 2127600, "peak_multiplier");
  // office-3090 (owned): one replica of 98.5 tokens/s; 2,127,600 / 354,600 = 6 exactly: the
  // tolerance keeps it at 6 replicas and 6 units (not 7); owned, so no billed hours.
  expect_formula(cells, "D14", 98.5, "seconds_per_hour");
  expect_formula(cells, "E14", 6, "ROUNDUP(");
  expect_formula(cells, "F14", 6, "load_tolerance");
  EXPECT_EQ(find_formula(cells, "G14"), nullptr);
  // runpod-h100 (hourly, always on by default): 2,127,600 / (182 x 3600 = 655,200) = 3.247
  // -> 4 instances, billed for the hours of availability of month 1 (10 h x 730 / 24 days =
  // 304.1667 h): 4 x 304.1667 = 1,216.667 instance-hours.
  expect_formula(cells, "D15", 182.0, "seconds_per_hour");
  expect_formula(cells, "E15", 4, "ROUNDUP(");
  expect_formula(cells, "F15", 4, "capacity_tokens_per_hour");
  expect_formula(cells, "G15", 4 * 10 * 730.0 / 24.0, "'Cash flow'!");
  // hetzner-gex44 (monthly): 2,127,600 / (33.7 x 3600 = 121,320) = 17.54 -> 18 units.
  expect_formula(cells, "F16", 18, "ROUNDUP(");
  EXPECT_EQ(find_formula(cells, "G16"), nullptr);

  // Without a demand in tokens each unit counts at full load: units = ceil(peak multiplier).
  test::SamplePlan full_load = sample_plan();
  full_load.scenario.plan_inputs.workload.peak_factor = 3;
  const std::string path2 = fresh_dir("peak-sizing-full") + "/tco.xlsx";
  write_workbook(full_load.plan, full_load.scenario, path2);
  const auto cells2 = formula_cells(path2);
  EXPECT_EQ(find_formula(cells2, "C11"), nullptr);  // "not stated"
  expect_formula(cells2, "F14", 3, "peak_multiplier");
  expect_formula(cells2, "G15", 3 * 10 * 730.0 / 24.0, "'Cash flow'!");
}

// The recalculation's "overflow autoscaled around the clock": 7,092,000 tokens a day spread
// over 24 h on the office-3090's 354,600 tokens/h is 0.83 of a unit, no overflow. What scales
// with the volume is then its energy at load, as what scales with the hours (no idle draw):
// 1,705.59 over 24 months, the Metrics formula's value. The engine halved the volume on the
// scenario's option, which has no capacity before the plan derives it (a whole unit at any
// volume): -684.12.
TEST(XlsxPeakSizing, theVolumeScaledCostIsTheEnginesOverThePreparedOption) {
  test::SamplePlan sample = test::engine_sample_plan();
  PlanInputs& in = sample.scenario.plan_inputs;
  in.workload.tokens_per_day = 7'092'000;
  in.workload.availability = Availability::around_the_clock;
  for (OptionInputs& o : in.options) {
    if (o.kind != OptionKind::rent_hourly) continue;
    o.hourly_billing.billing = Billing::autoscaled;
    o.hourly_billing.min_instances = 1;
    o.hourly_billing.granularity = BillingGranularity::minute;
    in.options[0].overflow = Overflow::rent;
    in.options[0].overflow_option_id = o.id;
    break;
  }
  const Plan plan = make_plan(in);
  const OptionResult& own = plan.options[0];
  ASSERT_EQ(own.kind, OptionKind::buy);
  ASSERT_EQ(own.volume_scaled_cost.size(), own.hours_scaled_cost.size());
  double total = 0;
  for (size_t m = 0; m < own.volume_scaled_cost.size(); ++m) {
    EXPECT_NEAR(own.volume_scaled_cost[m], own.hours_scaled_cost[m], 1e-9) << m;
    total += own.volume_scaled_cost[m];
  }
  EXPECT_NEAR(total, 1705.59, 0.01);
}

}  // namespace
}  // namespace gputco
