// Two plans side by side (issue #15, gputco diff): inputs and options matched, changes named.
#include <gtest/gtest.h>

#include "engine/base/error.hpp"
#include "engine/plan/plan_diff.hpp"

namespace gputco {
namespace {

PlanSnapshot base() {
  PlanSnapshot p;
  p.source = "old.ini";
  p.name = "Rig or cloud";
  p.currency = "EUR";
  p.horizon_months = 36;
  p.as_of = "2026-11-27";
  p.recommendation = "rig";
  p.inputs = {{"site", "tariff_per_kwh", "Electricity tariff", 0.1983, "", "EUR/kWh"},
              {"workload", "model", "Model", std::nullopt, "llama-3.3-70b", ""},
              {"rig", "price_per_gpu", "Purchase price per device", 644.5, "", "EUR"}};
  p.options = {{"rig", "Used rig", "buy", true, 6069, 5948, 7.13},
               {"h100", "H100 by the hour", "rent_hourly", true, 17476, 15555, 11.17},
               {"old", "Retired option", "rent_monthly", true, 9000, 8500, std::nullopt}};
  return p;
}

TEST(PlanDiff, namesWhatChangedInTheInputs) {
  PlanSnapshot after = base();
  after.inputs[0].value = 0.35;                                      // changed
  after.inputs[2].value = 644.5 * (1 + 1e-15);                       // rounding: not a change
  after.inputs.push_back({"site", "pue", "PUE", 1.2, "", "ratio"});  // added
  after.inputs.erase(after.inputs.begin() + 1);                      // the model: removed
  const PlanDiff diff = diff_plans(base(), after);
  ASSERT_EQ(diff.inputs.size(), 3u);
  EXPECT_EQ(diff.inputs[0].change, Change::changed);
  EXPECT_EQ(diff.inputs[0].key, "tariff_per_kwh");
  EXPECT_EQ(*diff.inputs[0].before->value, 0.1983);
  EXPECT_EQ(*diff.inputs[0].after->value, 0.35);
  EXPECT_EQ(diff.inputs[0].unit, "EUR/kWh");
  EXPECT_EQ(diff.inputs[1].change, Change::added);
  EXPECT_EQ(diff.inputs[1].key, "pue");
  EXPECT_FALSE(diff.inputs[1].before);
  EXPECT_EQ(diff.inputs[2].change, Change::removed);
  EXPECT_EQ(diff.inputs[2].key, "model");
  EXPECT_EQ(diff.inputs[2].before->text, "llama-3.3-70b");
}

TEST(PlanDiff, eachOptionsTotalNpvAndTheRecommendation) {
  PlanSnapshot after = base();
  after.options[0].total_cost = 7120;  // rig: dearer
  after.options[0].npv = 6950;
  after.options.erase(after.options.begin() + 2);                                  // "old" removed
  after.options.push_back({"api", "Qwen via Groq", "api", true, 385, 351, 1.06});  // added
  after.recommendation = "api";
  const PlanDiff diff = diff_plans(base(), after);
  ASSERT_EQ(diff.options.size(), 4u);
  EXPECT_EQ(diff.options[0].change, Change::changed);
  EXPECT_EQ(*diff.options[0].total_cost.delta(), 1051);
  // +1051 / 6069 = +17.32 %
  EXPECT_NEAR(*diff.options[0].total_cost.relative(), 1051.0 / 6069, 1e-15);
  EXPECT_EQ(*diff.options[0].npv.delta(), 1002);
  EXPECT_EQ(diff.options[1].change, Change::unchanged);
  EXPECT_EQ(*diff.options[1].total_cost.delta(), 0);
  EXPECT_EQ(diff.options[2].change, Change::added);
  EXPECT_EQ(diff.options[2].id, "api");
  EXPECT_FALSE(diff.options[2].total_cost.delta());
  EXPECT_EQ(diff.options[3].change, Change::removed);
  EXPECT_EQ(diff.options[3].label, "Retired option");
  EXPECT_TRUE(diff.recommendation_changed());
  EXPECT_EQ(*diff.recommendation_before, "rig");
  EXPECT_EQ(*diff.recommendation_after, "api");
  EXPECT_EQ(diff.label_of("api"), "Qwen via Groq");
  EXPECT_TRUE(diff.before_plan.options.empty()) << "the headings only";
}

TEST(PlanDiff, aPlanAgainstItselfChangesNothing) {
  const PlanDiff diff = diff_plans(base(), base());
  EXPECT_TRUE(diff.inputs.empty());
  for (const auto& option : diff.options) EXPECT_EQ(option.change, Change::unchanged);
  EXPECT_FALSE(diff.recommendation_changed());
}

TEST(PlanDiff, plansInTwoCurrenciesAreNotCompared) {
  PlanSnapshot after = base();
  after.currency = "USD";
  try {
    diff_plans(base(), after);
    FAIL() << "no error";
  } catch (const EngineError& e) {
    EXPECT_NE(std::string(e.what()).find("different currencies (EUR and USD)"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace gputco
