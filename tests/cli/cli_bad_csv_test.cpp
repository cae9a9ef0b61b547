// The malformed-CSV corpus (tests/data/bad/csv/, listed in its EXPECTED) through the catalog
// builder, gputco-catalog-build DATA_DIR OUT: each case replaces one table of a copy of
// tests/data/catalog/good; the builder exits with the listed code and a FILE:LINE: column:
// problem message, and writes nothing. The cases of tests/data/bad/csv/ok/ (a byte order
// mark, Windows line endings) simply build.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/support/paths.hpp"
#include "tests/support/process.hpp"

namespace gputco {
namespace {

namespace fs = std::filesystem;

struct CsvCase {
  std::string file;   ///< in tests/data/bad/csv/
  std::string table;  ///< the table it replaces, e.g. purchase_prices.csv
  int exit_code = 2;
  std::string expected;  ///< text the message must contain after DATA_DIR/
};

std::vector<CsvCase> load_cases(const std::string& manifest) {
  std::vector<CsvCase> cases;
  std::ifstream in(test::source_path(manifest));
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    CsvCase c;
    std::string code;
    std::getline(fields, c.file, '\t');
    std::getline(fields, c.table, '\t');
    std::getline(fields, code, '\t');
    std::getline(fields, c.expected);
    c.exit_code = std::stoi(code);
    cases.push_back(c);
  }
  return cases;
}

/// A copy of the good catalog data with `table` replaced by `replacement`.
std::string data_dir_with(const test::TempDir& dir, const std::string& table,
                          const std::string& replacement) {
  const std::string data = dir.file("data");
  fs::copy(test::source_path("tests/data/catalog/good"), data);
  fs::copy_file(replacement, data + "/" + table, fs::copy_options::overwrite_existing);
  return data;
}

std::string case_name(std::string name) {
  for (char& ch : name) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return name;
}

class BadCsv : public ::testing::TestWithParam<CsvCase> {};

TEST_P(BadCsv, exitsWithFileLineColumnAndProblemAndWritesNothing) {
  const CsvCase& c = GetParam();
  test::TempDir dir;
  const std::string data =
      data_dir_with(dir, c.table, test::source_path("tests/data/bad/csv/" + c.file));
  const std::string out = dir.file("catalog.sqlite");
  const auto result = test::run(test::catalog_build_exe(), {data, out});
  EXPECT_EQ(result.exit_code, c.exit_code) << result.err;
  EXPECT_NE(result.err.find(data + "/" + c.expected), std::string::npos)
      << "expected: " << data << "/" << c.expected << "\ngot: " << result.err;
  EXPECT_NE(result.err.find(out + " not written"), std::string::npos) << result.err;
  EXPECT_FALSE(fs::exists(out));
  EXPECT_FALSE(fs::exists(out + ".tmp"));
}

INSTANTIATE_TEST_SUITE_P(Corpus, BadCsv,
                         ::testing::ValuesIn(load_cases("tests/data/bad/csv/EXPECTED")),
                         [](const ::testing::TestParamInfo<CsvCase>& param_info) {
                           return case_name(param_info.param.file);
                         });

class GoodCsv : public ::testing::TestWithParam<CsvCase> {};

TEST_P(GoodCsv, buildsTheCatalog) {
  const CsvCase& c = GetParam();
  test::TempDir dir;
  const std::string data =
      data_dir_with(dir, c.table, test::source_path("tests/data/bad/csv/ok/" + c.file));
  const std::string out = dir.file("catalog.sqlite");
  const auto result = test::run(test::catalog_build_exe(), {data, out});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(fs::exists(out));
}

INSTANTIATE_TEST_SUITE_P(Corpus, GoodCsv,
                         ::testing::ValuesIn(load_cases("tests/data/bad/csv/ok/EXPECTED")),
                         [](const ::testing::TestParamInfo<CsvCase>& param_info) {
                           return case_name(param_info.param.file);
                         });

TEST(BadCsv, corpusIsNotEmpty) {
  EXPECT_GE(load_cases("tests/data/bad/csv/EXPECTED").size(), 15u);
}

}  // namespace
}  // namespace gputco
