// Scenario files as editors and spreadsheets save them (tests/data/bad/ok/, listed in its
// EXPECTED): a UTF-8 byte order mark, Windows line endings, decimal commas whose meaning is
// clear ("0,25"). They simply plan; the values are read as meant.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/support/paths.hpp"
#include "tests/support/process.hpp"

namespace gputco {
namespace {

struct QuirkCase {
  std::string file;
  std::string expected;  ///< text the --json output must contain
};

std::vector<QuirkCase> load_cases() {
  std::vector<QuirkCase> cases;
  std::ifstream in(test::source_path("tests/data/bad/ok/EXPECTED"));
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto tab = line.find('\t');
    cases.push_back({line.substr(0, tab), tab == std::string::npos ? "" : line.substr(tab + 1)});
  }
  return cases;
}

class Quirk : public ::testing::TestWithParam<QuirkCase> {};

TEST_P(Quirk, simplyPlans) {
  const QuirkCase& c = GetParam();
  test::TempDir dir;
  const std::string workbook = dir.file("plan.xlsx");
  const auto result = test::run(
      test::gputco_exe(),
      {"plan", test::source_path("tests/data/bad/ok/" + c.file), "--json", "-o", workbook});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(std::filesystem::exists(workbook));
  EXPECT_NE(result.out.find(c.expected), std::string::npos)
      << "expected: " << c.expected << "\ngot: " << result.out;
}

INSTANTIATE_TEST_SUITE_P(Corpus, Quirk, ::testing::ValuesIn(load_cases()),
                         [](const ::testing::TestParamInfo<QuirkCase>& param_info) {
                           std::string name = param_info.param.file;
                           for (char& ch : name) {
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace gputco
