// The cost lines' scenario keys (issue #16): parsed with their ranges and kinds, resolved into
// the plan's inputs, and every line not entered listed as such (an empty input, "not
// entered"), never a silent 0.
#include <gtest/gtest.h>

#include <sstream>

#include "engine/plan/plan.hpp"
#include "pricing/catalog.hpp"
#include "scenarios/resolve.hpp"
#include "scenarios/scenario.hpp"
#include "tests/unit/scenarios_fixtures.hpp"

namespace gputco {
namespace {

using test::error_of;
using test::parse;

const std::string kHead =
    "[scenario]\n"
    "as_of = 2026-11-27\n"
    "start = 2027-01\n"
    "[workload]\n"
    "model = qwen3-32b\n"
    "quant = Q4_K_M\n"
    "[site]\n"
    "tariff_per_kwh = 0.25\n";

const InputRow* input(const ResolvedScenario& r, const std::string& section,
                      const std::string& key) {
  for (const auto& row : r.inputs) {
    if (row.section == section && row.key == key) return &row;
  }
  return nullptr;
}

TEST(CostLineKeys, parsedAndResolvedIntoThePlanInputs) {
  const Scenario s = parse(kHead +
                           "[option:colo]\nkind = colocation\ngpu = h100-sxm\ncount = 2\n"
                           "price_per_gpu = 25000\ncolo_per_kw_month = 180\n"
                           "staff_fte = 0.2\nstaff_salary_per_year = 95000\n"
                           "licence_per_gpu_per_year = 4000\nsupport_per_year = 2500\n"
                           "insurance_per_year = 0.01\ncolo_extras_per_month = 150\n"
                           "[option:rent]\nkind = rent_hourly\ngpu = h100-sxm\n"
                           "rate_per_gpu_hour = 2\nstaff_hours_per_month = 8\n"
                           "staff_rate_per_hour = 90\nlicence_per_month = 40\n");
  const ResolvedScenario r = resolve(s, Catalog::open_builtin());
  const CostLines& colo = r.plan_inputs.options[0].cost_lines;
  EXPECT_DOUBLE_EQ(*colo.staff_fte, 0.2);
  EXPECT_DOUBLE_EQ(*colo.staff_salary_per_year, 95000);
  EXPECT_DOUBLE_EQ(*colo.licence_per_gpu_per_year, 4000);
  EXPECT_DOUBLE_EQ(*colo.support_per_year, 2500);
  EXPECT_DOUBLE_EQ(*colo.insurance_per_year, 0.01);
  EXPECT_DOUBLE_EQ(*colo.colo_extras_per_month, 150);
  EXPECT_FALSE(colo.staff_hours_per_month.has_value());
  const InputRow* fte = input(r, "colo", "staff_fte");
  ASSERT_NE(fte, nullptr);
  EXPECT_EQ(fte->provenance, "scenario file line 15");
  EXPECT_FALSE(fte->not_entered);
  // What was not entered is listed: an empty value, said so, in the plan currency's unit.
  const InputRow* hours = input(r, "colo", "staff_hours_per_month");
  ASSERT_NE(hours, nullptr);
  EXPECT_TRUE(hours->not_entered);
  EXPECT_FALSE(hours->value.has_value());
  EXPECT_EQ(hours->provenance, "not entered: counted as 0 (enter a value to include it)");
  EXPECT_EQ(input(r, "colo", "licence_per_month")->unit, "EUR/month");
  // The rental: its lines, none of insurance or colocation extras (they do not apply).
  const CostLines& rent = r.plan_inputs.options[1].cost_lines;
  EXPECT_DOUBLE_EQ(*rent.staff_hours_per_month, 8);
  EXPECT_DOUBLE_EQ(*rent.licence_per_month, 40);
  EXPECT_EQ(input(r, "rent", "insurance_per_year"), nullptr);
  EXPECT_EQ(input(r, "rent", "colo_extras_per_month"), nullptr);
  EXPECT_TRUE(input(r, "rent", "support_per_gpu_per_year")->not_entered);
}

TEST(CostLineKeys, aRigWithoutAHostPriceListsTheHostAmongTheCostsNotEntered) {
  // newcomer6: two cards bought without host_cost priced the host (chassis, CPU, PSU) at 0
  // without a word in the "Not entered" line; host_cost = 0 says the host is already owned.
  const std::string rig =
      "[option:rig]\nkind = buy\ngpu = rtx-3090\ncount = 2\ncondition = used\n"
      "price_per_gpu = 700\n";
  const ResolvedScenario without = resolve(parse(kHead + rig), Catalog::open_builtin());
  EXPECT_FALSE(without.plan_inputs.options[0].host_cost_entered);
  const Plan plan = make_plan(without.plan_inputs);
  ASSERT_FALSE(plan.options[0].cost_lines_not_entered.empty());
  EXPECT_EQ(plan.options[0].cost_lines_not_entered.front(), "host system");
  const ResolvedScenario owned =
      resolve(parse(kHead + rig + "host_cost = 0\n"), Catalog::open_builtin());
  EXPECT_TRUE(owned.plan_inputs.options[0].host_cost_entered);
  const Plan owned_plan = make_plan(owned.plan_inputs);
  for (const std::string& line : owned_plan.options[0].cost_lines_not_entered) {
    EXPECT_NE(line, "host system");
  }
  // A rental has no host to buy.
  const ResolvedScenario rent = resolve(
      parse(kHead + "[option:rent]\nkind = rent_hourly\ngpu = h100-sxm\nrate_per_gpu_hour = 2\n"),
      Catalog::open_builtin());
  const Plan rent_plan = make_plan(rent.plan_inputs);  // kept: the loop reads into it
  for (const std::string& line : rent_plan.options[0].cost_lines_not_entered) {
    EXPECT_NE(line, "host system");
  }
}

TEST(CostLineKeys, anApiHasNoPerDeviceLines) {
  const std::string text =
      "[scenario]\nas_of = 2026-11-27\n[workload]\nmodel = qwen3-32b\nquant = Q4_K_M\n"
      "tokens_per_day = 1e6\ninput_tokens_per_output_token = 3\n"
      "[option:api]\nkind = api\ninput_price_per_million = 0.2\n"
      "output_price_per_million = 0.6\n";
  EXPECT_NE(error_of(text + "licence_per_gpu_per_year = 10\n")
                .find("[option:api] licence_per_gpu_per_year: does not apply to kind = api (no "
                      "devices of its own); use licence_per_month or _per_year"),
            std::string::npos);
  const ResolvedScenario r =
      resolve(parse(text + "support_per_month = 25\n"), Catalog::open_builtin());
  EXPECT_DOUBLE_EQ(*r.plan_inputs.options[0].cost_lines.support_per_month, 25);
  EXPECT_EQ(input(r, "api", "support_per_gpu_per_year"), nullptr);
  EXPECT_TRUE(input(r, "api", "licence_per_year")->not_entered);
}

TEST(CostLineKeys, wrongKindsAndHalfPairsNameTheKey) {
  const std::string buy = kHead + "[option:a]\nkind = buy\ngpu = rtx-3090\nprice_per_gpu = 700\n";
  EXPECT_NE(error_of(buy + "staff_fte = 0.5\n")
                .find("test.ini:9: [option:a] staff_salary_per_year: missing: staff as a share "
                      "of employees is staff_fte x staff_salary_per_year; give both"),
            std::string::npos)
      << error_of(buy + "staff_fte = 0.5\n");
  EXPECT_NE(error_of(buy + "staff_rate_per_hour = 80\n").find("staff_hours_per_month: missing"),
            std::string::npos);
  EXPECT_NE(error_of(buy + "colo_extras_per_month = 100\n")
                .find("colo_extras_per_month: applies to colocated hardware only"),
            std::string::npos);
  EXPECT_NE(error_of(buy + "licence_per_year = -5\n")
                .find("licence_per_year: expected a price per year of 0 or more, got -5"),
            std::string::npos);
  EXPECT_NE(error_of(kHead + "[option:r]\nkind = rent_monthly\ngpu = l4\ninsurance_per_year = "
                             "0.01\n")
                .find("insurance_per_year: applies to owned hardware only"),
            std::string::npos);
  // A buy option in a rack (hosting = colocation) takes the extras.
  EXPECT_EQ(error_of(buy + "hosting = colocation\ncolo_per_kw_month = 100\n"
                           "colo_extras_per_month = 100\n"),
            "");
}

}  // namespace
}  // namespace gputco
