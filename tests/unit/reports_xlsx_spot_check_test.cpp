// The Checks sheet's comparison of a spot rate with the on-demand rate of the same device
// (newcomer slip 6): own-base-rent-peaks.ini rents an H100 SXM at spot and on demand from
// different catalog offers, which the Sources alone cannot pair: the check compares the two
// options' rates, flags the spot rate above on-demand, and stays out of the master check.
#include <gtest/gtest.h>

#include <string>

#include "engine/plan/plan.hpp"
#include "pricing/catalog.hpp"
#include "reports/xlsx/report.hpp"
#include "scenarios/resolve.hpp"
#include "scenarios/scenario.hpp"
#include "tests/support/paths.hpp"
#include "tests/unit/reports_xlsx_fixture.hpp"

namespace gputco {
namespace {

TEST(XlsxSpotCheck, aSpotRateAboveTheOnDemandRateOfTheSameDeviceIsFlaggedAsAWarning) {
  const ResolvedScenario scenario =
      resolve(load_scenario(test::source_path("scenarios/examples/own-base-rent-peaks.ini")),
              Catalog::open_builtin());
  const Plan plan = make_plan(scenario.plan_inputs);
  const auto option = [&](const std::string& id) -> const OptionInputs* {
    for (const OptionInputs& o : scenario.plan_inputs.options) {
      if (o.id == id) return &o;
    }
    return nullptr;
  };
  const OptionInputs* spot = option("spot-h100");
  const OptionInputs* on_demand = option("rent-h100");
  ASSERT_NE(spot, nullptr);
  ASSERT_NE(on_demand, nullptr);
  // The catalog's spot rate of the example is above its on-demand rate (the slip's finding).
  ASSERT_GT(spot->rate_per_gpu_hour, on_demand->rate_per_gpu_hour);

  const std::string path = test::fresh_dir("spot-check") + "/tco.xlsx";
  write_workbook(plan, scenario, path);
  const auto texts = test::text_cells(path, "Checks");
  std::string row;
  for (const auto& [ref, text] : texts) {
    if (ref[0] == 'A' && text == "Spot rate not above on-demand (warning)") row = ref.substr(1);
  }
  ASSERT_FALSE(row.empty()) << "no spot check on the Checks sheet";
  EXPECT_EQ(texts.at("B" + row), "spot-h100");
  std::string master;
  bool found = false;
  for (const auto& cell : test::formula_cells(path)) {
    if (cell.sheet != "Checks") continue;
    if (cell.row == 4) master = cell.formula;  // the master check, C5
    if (cell.ref == "C" + row) {
      found = true;
      EXPECT_EQ(cell.formula, "opt_spot_h100_rate_per_gpu_hour<=opt_rent_h100_rate_per_gpu_hour");
      EXPECT_EQ(cell.cached, 0) << "FALSE: the spot rate is above on-demand";
    }
  }
  ASSERT_TRUE(found) << "the spot check has no formula (n/a)";
  EXPECT_EQ(master.find("C" + row + ","), std::string::npos) << master;
  EXPECT_EQ(master.find("C" + row + ")"), std::string::npos) << master;
}

}  // namespace
}  // namespace gputco
