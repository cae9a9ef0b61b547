// Every bundled example plans end to end through the binary.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>

#include "tests/support/paths.hpp"
#include "tests/support/process.hpp"

namespace gputco {
namespace {

std::vector<std::string> examples() {
  std::vector<std::string> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(test::source_path("scenarios/examples"))) {
    files.push_back(entry.path().filename().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

class Example : public ::testing::TestWithParam<std::string> {};

TEST_P(Example, plansAndRecommendsAnOptionThatHoldsTheModel) {
  test::TempDir dir;
  const std::string workbook = dir.file("plan.xlsx");
  const auto result = test::run(
      test::gputco_exe(),
      {"plan", test::source_path("scenarios/examples/" + GetParam()), "-o", workbook, "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  ASSERT_TRUE(std::filesystem::exists(workbook));
  EXPECT_GT(std::filesystem::file_size(workbook), 5000u);
  const auto plan = nlohmann::json::parse(result.out);
  ASSERT_FALSE(plan["recommendation"].is_null());
  bool found = false;
  for (const auto& option : plan["options"]) {
    EXPECT_TRUE(option["total_cost"].is_number()) << option["id"];
    EXPECT_TRUE(option["npv"].is_number()) << option["id"];
    if (option["id"] == plan["recommendation"]) {
      found = true;
      EXPECT_NE(option["fit"]["verdict"], "does_not_fit");
    }
    // Years add up to the horizon total.
    double years = 0;
    for (const auto& y : option["annual_costs"]) years += y.get<double>();
    EXPECT_NEAR(years, option["total_cost"].get<double>(), 1e-9 * std::max(1.0, std::abs(years)));
  }
  EXPECT_TRUE(found);
  // Whole words: "maintenance" and "financing" are keys, not NaN.
  EXPECT_FALSE(std::regex_search(result.out, std::regex(R"(\bnan\b)", std::regex::icase)));
  EXPECT_FALSE(std::regex_search(result.out, std::regex(R"(\binf(inity)?\b)", std::regex::icase)));
}

TEST_P(Example, sameInputGivesTheSameBytes) {
  test::TempDir dir;
  const std::string scenario = test::source_path("scenarios/examples/" + GetParam());
  ASSERT_EQ(test::run(test::gputco_exe(), {"plan", scenario, "-o", dir.file("a.xlsx")}).exit_code,
            0);
  ASSERT_EQ(test::run(test::gputco_exe(), {"plan", scenario, "-o", dir.file("b.xlsx")}).exit_code,
            0);
  EXPECT_EQ(test::read_file(dir.file("a.xlsx")), test::read_file(dir.file("b.xlsx")));
}

INSTANTIATE_TEST_SUITE_P(Bundled, Example, ::testing::ValuesIn(examples()),
                         [](const ::testing::TestParamInfo<std::string>& param_info) {
                           std::string name = param_info.param;
                           for (char& ch : name) {
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           }
                           return name;
                         });

TEST(Summary, printsATableAndTheRecommendation) {
  test::TempDir dir;
  const auto result =
      test::run(test::gputco_exe(),
                {"plan", test::source_path("scenarios/examples/used-3090-rig-vs-rented-h100.ini")},
                dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("Recommendation: "), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("rig-3090"), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(dir.file("used-3090-rig-vs-rented-h100.xlsx")));
}

}  // namespace
}  // namespace gputco
