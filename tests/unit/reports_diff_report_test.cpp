// gputco diff's three formats (issue #15) on a hand-made pair of plans: the amounts, changes
// and percentages computed by hand, the recommendation named by its label.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "engine/plan/plan_diff.hpp"
#include "reports/diff_report.hpp"
#include "reports/text_report.hpp"

namespace gputco {
namespace {

PlanSnapshot before_plan() {
  PlanSnapshot p;
  p.source = "old.ini";
  p.name = "Rig | cloud";
  p.currency = "EUR";
  p.horizon_months = 36;
  p.as_of = "2026-11-27";
  p.recommendation = "rig";
  p.inputs = {{"workload", "hours_per_day", "Hours of use per day", 10, "", "h/day"},
              {"rig", "price_per_gpu", "Purchase price per device", 644.5, "", "EUR"}};
  p.options = {{"rig", "Used rig", "buy", true, 6069, 5948, 7.13},
               {"h100", "H100 by the hour", "rent_hourly", true, 17476, 15555, 11.17}};
  return p;
}

PlanDiff sample_diff() {
  PlanSnapshot after = before_plan();
  after.source = "new.ini";
  after.inputs[0].value = 2;
  after.options[0].total_cost = 7120;  // +1,051 = +17.3 % of 6,069
  after.options[0].npv = 6950;         // +1,002 = +16.8 % of 5,948
  after.options[1].total_cost = 3495;  // -13,981 = -80.0 % of 17,476
  after.options[1].npv = 3111;         // -12,444 = -80.0 % of 15,555
  after.recommendation = "h100";
  return diff_plans(before_plan(), after);
}

TEST(DiffReport, warnsWhenHorizonsOrFirstMonthsDiffer) {
  // Issue #37: a 36-month and a 48-month quote said "+33.3 %" on every option without a word.
  PlanSnapshot before = before_plan();
  before.start = "2027-01";
  PlanSnapshot after = before;
  after.source = "new.ini";
  after.horizon_months = 48;
  after.start = "2027-04";
  const PlanDiff d = diff_plans(before, after);
  const auto warnings = comparability_warnings(d);
  ASSERT_EQ(warnings.size(), 2U);
  EXPECT_EQ(warnings[0].rfind("the horizons differ (36 -> 48 months)", 0), 0U) << warnings[0];
  EXPECT_EQ(warnings[1].rfind("the first months differ (2027-01 -> 2027-04)", 0), 0U);
  EXPECT_NE(diff_text(d).find("warning: the horizons differ"), std::string::npos);
  EXPECT_NE(diff_markdown(d).find("> **Warning:** the first months differ"), std::string::npos);
  const auto j = nlohmann::json::parse(diff_json(d));
  EXPECT_EQ(j.at("warnings").size(), 2U);
  EXPECT_EQ(j.at("new").at("start"), "2027-04");
  // The same horizon, currency and month: no warning.
  EXPECT_TRUE(comparability_warnings(diff_plans(before, before)).empty());
}

TEST(GroupedMoney, thousandsSeparatedWholeAndLocaleFree) {
  EXPECT_EQ(grouped_money_text(6069.4), "6,069");
  EXPECT_EQ(grouped_money_text(-1020.5), "-1,021");  // std::round: half away from zero
  EXPECT_EQ(grouped_money_text(1e9), "1,000,000,000");
  EXPECT_EQ(grouped_money_text(999), "999");
  // Was "-0" from 2^63 = 9.22e18 on (a 64-bit integer conversion overflowed); a plan gputco
  // accepts can reach 1e35. 1e20 and -2^70 are exact in a double.
  EXPECT_EQ(grouped_money_text(1e20), "100,000,000,000,000,000,000");
  EXPECT_EQ(grouped_money_text(-1180591620717411303424.0), "-1,180,591,620,717,411,303,424");
  EXPECT_EQ(grouped_money_text(-0.4), "0");
  EXPECT_EQ(grouped_money_text(std::nan("")), "n/a");
}

TEST(DiffReport, hugeAmountsAndTheirChangesPrintInFull) {
  PlanSnapshot before = before_plan();
  before.options[0].total_cost = 1e20;
  const PlanDiff d = diff_plans(before, before_plan());
  const std::string text = diff_text(d);
  EXPECT_NE(text.find("100,000,000,000,000,000,000 -> "), std::string::npos) << text;
  EXPECT_EQ(text.find("-0"), std::string::npos) << text;
}

TEST(DiffReport, textNamesTheMovedRecommendationEachOptionsChangeAndTheInput) {
  const std::string text = diff_text(sample_diff());
  EXPECT_NE(text.find("  old: old.ini  \"Rig | cloud\" (EUR, 36 months, prices as of 2026-11-27)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("Recommendation: Used rig -> H100 by the hour (changed)"), std::string::npos)
      << text;
  EXPECT_NE(text.find("6,069 -> 7,120  +1,051 (+17.3 %)"), std::string::npos) << text;
  EXPECT_NE(text.find("5,948 -> 6,950  +1,002 (+16.8 %)"), std::string::npos) << text;
  EXPECT_NE(text.find("17,476 -> 3,495  -13,981 (-80.0 %)"), std::string::npos) << text;
  EXPECT_NE(text.find("Inputs: 1 changed, 0 added, 0 removed\n"
                      "  ~ [workload] hours_per_day (Hours of use per day): 10 -> 2 h/day\n"),
            std::string::npos)
      << text;
}

TEST(DiffReport, markdownEscapesPipesAndFoldsTheInputs) {
  const std::string md = diff_markdown(sample_diff());
  EXPECT_EQ(md.rfind("### gputco diff: Rig \\| cloud\n", 0), 0u) << md;
  EXPECT_NE(md.find("**Recommendation:** Used rig \xE2\x86\x92 H100 by the hour (changed)"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| changed | Used rig | 6,069 \xE2\x86\x92 7,120 | +1,051 (+17.3 %) | "
                    "5,948 \xE2\x86\x92 6,950 | +1,002 (+16.8 %) |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("<details><summary>Inputs that changed: 1</summary>"), std::string::npos);
  EXPECT_NE(
      md.find("| changed | `[workload] hours_per_day` Hours of use per day | 10 | 2 | h/day |"),
      std::string::npos)
      << md;
}

TEST(DiffReport, markdownRendersHostileTextAsTextNeverAsHtmlOrLinks) {
  // Was: a scenario name <script>, a label <img onerror> and a [link](javascript:) passed
  // through to the Markdown a CI bot posts (issue #39).
  PlanSnapshot before = before_plan();
  before.name = "<script>alert(1)</script>";
  before.source = "a`b.json";
  before.options[0].label = "<img src=x onerror=alert(1)>";
  before.options[1].label = "[x](javascript:alert(1)) *b* \x1b[2J";
  PlanSnapshot after = before;
  after.options[0].total_cost = 7120;
  const std::string md = diff_markdown(diff_plans(before, after));
  EXPECT_EQ(md.rfind("### gputco diff: &lt;script&gt;alert(1)&lt;/script&gt;\n", 0), 0u) << md;
  EXPECT_NE(md.find("| changed | &lt;img src=x onerror=alert(1)&gt; | 6,069 "), std::string::npos)
      << md;
  EXPECT_NE(md.find("| unchanged | \\[x\\](javascript:alert(1)) \\*b\\* \\\\x1B\\[2J |"),
            std::string::npos)
      << md;
  // A code span longer than any run of backticks inside it.
  EXPECT_NE(md.find("``a`b.json`` \xE2\x86\x92 ``a`b.json``"), std::string::npos) << md;
  for (const char* raw : {"<script", "<img", "[x](javascript", "\x1b"}) {
    EXPECT_EQ(md.find(raw), std::string::npos) << raw << " in\n" << md;
  }
}

TEST(DiffReport, aBaseThatRoundsToZeroOrAnInfiniteChangeGivesNoPercentage) {
  // Was "+n/a (+inf %)": a total cost of 1e-320 before, or a change beyond a double.
  PlanSnapshot before = before_plan();
  before.options[0].total_cost = 1e-320;
  before.options[1].total_cost = -1.7e308;
  PlanSnapshot after = before_plan();
  after.options[1].total_cost = 1.7e308;
  const std::string text = diff_text(diff_plans(before, after));
  // 1e-320 prints as 0: the change has no percentage; the overflowing one is n/a.
  EXPECT_NE(text.find("0 -> 6,069  +6,069    5,948"), std::string::npos) << text;
  EXPECT_NE(text.find("  n/a     15,555 -> 15,555"), std::string::npos) << text;
  EXPECT_EQ(text.find("inf"), std::string::npos) << text;
  EXPECT_EQ(text.find("+n/a"), std::string::npos) << text;
  const auto j = nlohmann::json::parse(diff_json(diff_plans(before, after)));
  EXPECT_TRUE(j["options"][0]["total_cost"]["relative"].is_null());
  EXPECT_TRUE(j["options"][1]["total_cost"]["delta"].is_null());
}

TEST(DiffReport, jsonCarriesBothSidesTheDeltaAndNullForWhatDoesNotExist) {
  PlanDiff diff = sample_diff();
  const auto j = nlohmann::json::parse(diff_json(diff));
  EXPECT_EQ(j["recommendation"]["old"], "rig");
  EXPECT_EQ(j["recommendation"]["new"], "h100");
  EXPECT_EQ(j["recommendation"]["changed"], true);
  EXPECT_EQ(j["options"][0]["total_cost"]["delta"], 1051.0);  // 7120 - 6069
  EXPECT_NEAR(j["options"][0]["total_cost"]["relative"].get<double>(), 1051.0 / 6069, 1e-15);
  EXPECT_TRUE(j["options"][0]["cost_per_million_tokens"]["delta"].is_number());
  EXPECT_EQ(j["inputs"][0]["old"], 10.0);
  EXPECT_EQ(j["inputs"][0]["new"], 2.0);
  // An option only in the new plan: no old figure, no delta.
  PlanSnapshot after = before_plan();
  after.options.push_back({"api", "Via an API", "api", true, 385, 351, std::nullopt});
  const auto added = nlohmann::json::parse(diff_json(diff_plans(before_plan(), after)));
  EXPECT_EQ(added["options"][2]["change"], "added");
  EXPECT_TRUE(added["options"][2]["total_cost"]["old"].is_null());
  EXPECT_TRUE(added["options"][2]["total_cost"]["delta"].is_null());
  EXPECT_TRUE(added["options"][2]["cost_per_million_tokens"]["new"].is_null());
}

}  // namespace
}  // namespace gputco
