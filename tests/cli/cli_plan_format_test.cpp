// gputco plan --format text|json|csv (and --json) for pipelines, and --quote for sales.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "tests/support/paths.hpp"
#include "tests/support/process.hpp"

namespace gputco {
namespace {

const std::string kExample = "scenarios/examples/used-3090-rig-vs-rented-h100.ini";

TEST(PlanFormat, csvHasAHeaderAndOneCrlfLinePerOption) {
  test::TempDir dir;
  const auto result = test::run(test::gputco_exe(), {"plan", test::source_path(kExample), "-o",
                                                     dir.file("plan.xlsx"), "--format", "csv"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.err.find("workbook: "), std::string::npos);
  const auto json = test::run(test::gputco_exe(), {"plan", test::source_path(kExample), "-o",
                                                   dir.file("plan.xlsx"), "--format", "json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto plan = nlohmann::json::parse(json.out);

  std::vector<std::string> lines;
  for (size_t at = 0; at < result.out.size();) {
    const size_t end = result.out.find("\r\n", at);
    ASSERT_NE(end, std::string::npos) << "every line ends in CRLF";
    lines.push_back(result.out.substr(at, end - at));
    at = end + 2;
  }
  ASSERT_EQ(lines.size(), plan["options"].size() + 1);
  EXPECT_EQ(lines[0].rfind("option,kind,gpu,count,fit,feasible,decode_tokens_per_s,", 0), 0u)
      << lines[0];
  EXPECT_NE(lines[0].find(",total_cost,npv,year_1,year_2,year_3,break_even_hours,"),
            std::string::npos)
      << lines[0];
  for (size_t i = 0; i < plan["options"].size(); ++i) {
    const auto& option = plan["options"][i];
    EXPECT_EQ(lines[i + 1].rfind(option["id"].get<std::string>() + ",", 0), 0u) << lines[i + 1];
    // The total cost reads back exactly.
    const std::regex total(",EUR,([^,]*),");
    std::smatch match;
    ASSERT_TRUE(std::regex_search(lines[i + 1], match, total)) << lines[i + 1];
    EXPECT_EQ(std::stod(match[1]), option["total_cost"].get<double>());
  }
}

TEST(PlanFormat, jsonSwitchIsAnAliasAndTextIsTheDefault) {
  test::TempDir dir;
  const std::string scenario = test::source_path(kExample);
  const auto a =
      test::run(test::gputco_exe(), {"plan", scenario, "-o", dir.file("a.xlsx"), "--json"});
  const auto b = test::run(test::gputco_exe(),
                           {"plan", scenario, "-o", dir.file("b.xlsx"), "--format", "json"});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
  const auto text = test::run(test::gputco_exe(), {"plan", scenario, "-o", dir.file("c.xlsx")});
  const auto explicit_text = test::run(
      test::gputco_exe(), {"plan", scenario, "-o", dir.file("c.xlsx"), "--format", "text"});
  EXPECT_NE(text.out.find("Recommendation: "), std::string::npos);
  EXPECT_EQ(text.out, explicit_text.out);
}

TEST(PlanFormat, badFormatsAreUsageErrors) {
  test::TempDir dir;
  const std::string scenario = test::source_path(kExample);
  const auto bad = test::run(test::gputco_exe(),
                             {"plan", scenario, "-o", dir.file("a.xlsx"), "--format", "xml"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--format must be text, json or csv"), std::string::npos) << bad.err;
  const auto clash = test::run(test::gputco_exe(), {"plan", scenario, "-o", dir.file("a.xlsx"),
                                                    "--json", "--format", "csv"});
  EXPECT_EQ(clash.exit_code, 2);
  EXPECT_FALSE(std::filesystem::exists(dir.file("a.xlsx")));
}

TEST(PlanQuote, writesTheCustomerSubsetNextToTheScenarioName) {
  test::TempDir dir;
  const auto result =
      test::run(test::gputco_exe(), {"plan", test::source_path(kExample), "--quote"}, dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const std::string quote = dir.file("used-3090-rig-vs-rented-h100-quote.xlsx");
  ASSERT_TRUE(std::filesystem::exists(quote));
  EXPECT_FALSE(std::filesystem::exists(dir.file("used-3090-rig-vs-rented-h100.xlsx")));
  const std::string bytes = test::read_file(quote);
  // The subset's sheet names are in xl/workbook.xml; the archive stores it uncompressed
  // enough to find names only by unzipping, so ask unzip.
  const auto listing = test::run("/bin/sh", {"-c", "unzip -p '" + quote + "' xl/workbook.xml"});
  ASSERT_EQ(listing.exit_code, 0) << listing.err;
  EXPECT_NE(listing.out.find("<sheet name=\"Cover\""), std::string::npos);
  EXPECT_NE(listing.out.find("<sheet name=\"Summary\""), std::string::npos);
  EXPECT_NE(listing.out.find("<sheet name=\"Sources\""), std::string::npos);
  EXPECT_EQ(listing.out.find("<sheet name=\"Inputs\""), std::string::npos);
  EXPECT_EQ(listing.out.find("<sheet name=\"Cash flow\""), std::string::npos);
  EXPECT_FALSE(bytes.empty());
}

}  // namespace
}  // namespace gputco

namespace gputco {
namespace {

/// The 3090 example with display names and the seller's choice (issue #15).
std::string labelled_scenario(const test::TempDir& dir) {
  std::string text = test::read_file(test::source_path(kExample));
  const auto insert_after = [&](const std::string& line, const std::string& added) {
    const size_t at = text.find(line);
    if (at != std::string::npos) text.insert(at + line.size(), added);
  };
  insert_after("[option:rig-3090]\n", "label = Used RTX 3090 rig\n");
  insert_after("[option:h100-rented]\n", "label = H100 by the hour\n");
  insert_after("[scenario]\n", "proposed = h100-rented\n");
  const std::string path = dir.file("labelled.ini");
  test::write_file(path, text);
  return path;
}

TEST(PlanFormat, optionsReadByTheirLabelsInTextAndJsonKeepsTheIds) {
  test::TempDir dir;
  const std::string scenario = labelled_scenario(dir);
  const auto text = test::run(test::gputco_exe(), {"plan", scenario, "-o", dir.file("a.xlsx")});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("\nUsed RTX 3090 rig "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("Recommendation: Used RTX 3090 rig (lowest NPV"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("Break-even hours and month are against H100 by the hour."),
            std::string::npos);
  // The seller proposes the dearer rental: said beside the recommendation, with the
  // difference of NPV (README: 15555 - 5948 = 9607 EUR).
  EXPECT_NE(text.out.find("Proposed: H100 by the hour (the seller's choice; 9607 EUR more NPV of "
                          "cost than the recommendation)."),
            std::string::npos)
      << text.out;
  const auto json =
      test::run(test::gputco_exe(), {"plan", scenario, "-o", dir.file("b.xlsx"), "--json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto plan = nlohmann::json::parse(json.out);
  EXPECT_EQ(plan["recommendation"], "rig-3090");
  EXPECT_EQ(plan["proposed"], "h100-rented");
  EXPECT_EQ(plan["options"][0]["id"], "rig-3090");
  EXPECT_EQ(plan["options"][0]["label"], "Used RTX 3090 rig");
  bool listed = false;
  for (const auto& input : plan["inputs"]) {
    listed = listed || (input["section"] == "scenario" && input["key"] == "discount_rate" &&
                        input["value"] == 0.08);
  }
  EXPECT_TRUE(listed) << "every input with its provenance";
}

TEST(PlanAvailability, around24x7TheRigStaysOnAndOwningIsCheaperAtAnyUse) {
  // The worked example reachable around the clock (newcomer3 M3): the rental is billed for
  // all 730 h a month, so the rig stays on too. Its month: 10 h x 21 days = 210 h at 1,600 W
  // (4 x 350 + 200 host) = 336 kWh, and 730 - 210 = 520 h idle at 240 W (4 x 350 x 10 % +
  // 200 x 50 %) = 124.8 kWh (PUE 1.0): 460.8 kWh.
  test::TempDir dir;
  const std::string scenario = test::source_path(kExample);
  const std::vector<std::string> all_day = {"plan", scenario, "--no-workbook", "--set",
                                            "workload.availability=24x7"};
  auto json_args = all_day;
  json_args.push_back("--json");
  const auto json = test::run(test::gputco_exe(), json_args);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto plan = nlohmann::json::parse(json.out);
  const auto& options = plan.at("options");
  bool seen = false;
  for (const auto& option : options) {
    if (option.at("id") != "rig-3090") continue;
    seen = true;
    const auto& energy = option.at("energy_kwh");
    EXPECT_NEAR(energy.at("idle_per_month").at(1).get<double>(), 124.8, 1e-9);
    EXPECT_NEAR(energy.at("per_month").at(1).get<double>(), 460.8, 1e-9);
    // Owning is cheaper even unused: a flag, no break-even hours (not 0).
    EXPECT_TRUE(option.at("owning_cheaper_at_any_use").get<bool>()) << option.dump();
    EXPECT_TRUE(option.at("break_even_hours").is_null());
    EXPECT_TRUE(option.at("break_even_hours_per_day").is_null());
  }
  EXPECT_TRUE(seen);
  const auto text = test::run(test::gputco_exe(), all_day);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  // The rig's rows of both tables: break-even "always", b-e h/day "always" (were 0 h, 0.00).
  int always = 0;
  std::istringstream lines(text.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("rig-3090 ", 0) != 0) continue;
    EXPECT_EQ(line.find(" 0 h "), std::string::npos) << line;
    EXPECT_EQ(line.find(" 0.00 "), std::string::npos) << line;
    if (line.find(" always ") != std::string::npos) ++always;
  }
  EXPECT_EQ(always, 2) << text.out;
}

TEST(PlanFormat, eachStalePriceIsListedOnceHoweverManyOptionsReadIt) {
  // own-base-rent-peaks: two options buy rtx-5090s at the catalog's 2550 USD of 2026-05-01
  // (210 days old at its as_of): one line (newcomer7: it was listed twice, and 100 options of
  // one device listed it 100 times).
  test::TempDir dir;
  const auto run = test::run(
      test::gputco_exe(), {"plan", test::source_path("scenarios/examples/own-base-rent-peaks.ini"),
                           "-o", dir.file("plan.xlsx")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string text = run.out + run.err;
  const std::string line =
      "  rtx-5090 purchase (new, street): 2550 USD observed 2026-05-01 (210 days)\n";
  const size_t first = text.find(line);
  ASSERT_NE(first, std::string::npos) << text;
  EXPECT_EQ(text.find(line, first + 1), std::string::npos) << text;
  // Every line of the list once.
  const size_t list = text.find("Stale prices (older than 90 days at 2026-11-27):\n");
  ASSERT_NE(list, std::string::npos);
  std::istringstream lines(text.substr(list));
  std::set<std::string> seen;
  std::string header;
  std::getline(lines, header);
  for (std::string l; std::getline(lines, l) && l.rfind("  ", 0) == 0;) {
    EXPECT_TRUE(seen.insert(l).second) << "twice: " << l;
  }
  EXPECT_GE(seen.size(), 10u);
}

}  // namespace
}  // namespace gputco
