// gputco diff OLD NEW (issue #15): two scenarios, or two plans' JSON, side by side as text, JSON
// and Markdown; the figures are the plans' own.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/paths.hpp"
#include "tests/support/process.hpp"

namespace gputco {
namespace {

const std::string kExample = "scenarios/examples/used-3090-rig-vs-rented-h100.ini";

/// The example used 2 hours a day instead of 10: renting wins.
std::string fewer_hours(const test::TempDir& dir) {
  std::string text = test::read_file(test::source_path(kExample));
  const size_t at = text.find("hours_per_day = 10");
  EXPECT_NE(at, std::string::npos);
  text.replace(at, 18, "hours_per_day = 2");
  const std::string path = dir.file("two-hours.ini");
  test::write_file(path, text);
  return path;
}

nlohmann::json plan_json(const test::TempDir& dir, const std::string& scenario,
                         const std::string& name) {
  const auto result =
      test::run(test::gputco_exe(), {"plan", scenario, "-o", dir.file(name + ".xlsx"), "--json"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  test::write_file(dir.file(name + ".json"), result.out);
  return nlohmann::json::parse(result.out);
}

TEST(Diff, twoScenariosAsJsonCarryEachPlansFiguresAndTheMovedRecommendation) {
  test::TempDir dir;
  const std::string old_path = test::source_path(kExample);
  const std::string new_path = fewer_hours(dir);
  const auto old_plan = plan_json(dir, old_path, "old");
  const auto new_plan = plan_json(dir, new_path, "new");
  const auto result = test::run(test::gputco_exe(), {"diff", old_path, new_path, "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto diff = nlohmann::json::parse(result.out);
  EXPECT_EQ(diff["recommendation"]["old"], old_plan["recommendation"]);
  EXPECT_EQ(diff["recommendation"]["new"], new_plan["recommendation"]);
  EXPECT_EQ(diff["recommendation"]["changed"],
            old_plan["recommendation"] != new_plan["recommendation"]);
  ASSERT_EQ(diff["options"].size(), old_plan["options"].size());
  for (size_t i = 0; i < diff["options"].size(); ++i) {
    const auto& option = diff["options"][i];
    EXPECT_EQ(option["id"], new_plan["options"][i]["id"]);
    EXPECT_EQ(option["total_cost"]["old"], old_plan["options"][i]["total_cost"]);
    EXPECT_EQ(option["total_cost"]["new"], new_plan["options"][i]["total_cost"]);
    EXPECT_EQ(option["npv"]["new"], new_plan["options"][i]["npv"]);
    EXPECT_DOUBLE_EQ(option["total_cost"]["delta"].get<double>(),
                     new_plan["options"][i]["total_cost"].get<double>() -
                         old_plan["options"][i]["total_cost"].get<double>());
    EXPECT_EQ(option["change"], "changed");
  }
  // One input changed: hours per day, 10 -> 2.
  ASSERT_EQ(diff["inputs"].size(), 1u) << diff["inputs"].dump();
  EXPECT_EQ(diff["inputs"][0]["key"], "hours_per_day");
  EXPECT_EQ(diff["inputs"][0]["old"], 10);
  EXPECT_EQ(diff["inputs"][0]["new"], 2);
  EXPECT_EQ(diff["inputs"][0]["change"], "changed");

  // The same comparison from the plans' JSON files.
  const auto from_json =
      test::run(test::gputco_exe(), {"diff", dir.file("old.json"), dir.file("new.json"), "--json"});
  ASSERT_EQ(from_json.exit_code, 0) << from_json.err;
  auto again = nlohmann::json::parse(from_json.out);
  again["old"]["source"] = diff["old"]["source"];
  again["new"]["source"] = diff["new"]["source"];
  EXPECT_EQ(again, diff);
}

TEST(Diff, textAndMarkdownSayTheSameForPeople) {
  test::TempDir dir;
  const std::string old_path = test::source_path(kExample);
  const std::string new_path = fewer_hours(dir);
  const auto text = test::run(test::gputco_exe(), {"diff", old_path, new_path});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("Recommendation: rig-3090 -> h100-rented (changed)"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("  ~ rig-3090 "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("Inputs: 1 changed, 0 added, 0 removed\n  ~ [workload] hours_per_day "
                          "(Hours of use per day): 10 -> 2 h/day"),
            std::string::npos)
      << text.out;
  const auto markdown =
      test::run(test::gputco_exe(), {"diff", old_path, new_path, "--format", "markdown"});
  ASSERT_EQ(markdown.exit_code, 0) << markdown.err;
  EXPECT_EQ(markdown.out.rfind("### gputco diff: ", 0), 0u) << markdown.out;
  EXPECT_NE(markdown.out.find("**Recommendation:** rig-3090 \xE2\x86\x92 h100-rented (changed)"),
            std::string::npos)
      << markdown.out;
  EXPECT_NE(markdown.out.find("| changed | rig-3090 | "), std::string::npos) << markdown.out;
  EXPECT_NE(markdown.out.find("| changed | `[workload] hours_per_day` Hours of use per day | 10 | "
                              "2 | h/day |"),
            std::string::npos)
      << markdown.out;
  // A plan against itself: nothing changed.
  const auto same = test::run(test::gputco_exe(), {"diff", old_path, old_path});
  ASSERT_EQ(same.exit_code, 0) << same.err;
  EXPECT_NE(same.out.find("Recommendation: rig-3090 (unchanged)"), std::string::npos);
  EXPECT_NE(same.out.find("Inputs: 0 changed, 0 added, 0 removed"), std::string::npos);
}

TEST(Diff, badUsageAndPlansThatCannotBeComparedExitTwo) {
  test::TempDir dir;
  const std::string example = test::source_path(kExample);
  const auto missing = test::run(test::gputco_exe(), {"diff", example});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("diff: give two files, OLD and NEW"), std::string::npos)
      << missing.err;
  std::string usd = test::read_file(example);
  usd.replace(usd.find("currency = EUR"), 14, "currency = USD");
  test::write_file(dir.file("usd.ini"), usd);
  const auto currencies = test::run(test::gputco_exe(), {"diff", example, dir.file("usd.ini")});
  EXPECT_EQ(currencies.exit_code, 2);
  EXPECT_NE(currencies.err.find("different currencies (EUR and USD)"), std::string::npos)
      << currencies.err;
  test::write_file(dir.file("broken.json"), "{\"options\": [], \"currency\": \"EUR\"}");
  const auto broken = test::run(test::gputco_exe(), {"diff", dir.file("broken.json"), example});
  EXPECT_EQ(broken.exit_code, 2);
  EXPECT_NE(broken.err.find("not a plan's JSON (gputco plan --json): the plan: no field "
                            "'scenario'"),
            std::string::npos)
      << broken.err;
  const auto format = test::run(test::gputco_exe(), {"diff", example, example, "--format", "html"});
  EXPECT_EQ(format.exit_code, 2);
}

}  // namespace
}  // namespace gputco
