// An independent spreadsheet engine recalculates the workbook: every formula must give the
// engine's figure that the file stores as its cached result, and no cell may be an error.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <sstream>

#include "reports/xlsx_report.hpp"
#include "tests/unit/reports_xlsx_fixture.hpp"

namespace gputco {
namespace {

using test::CsvTable;

const std::string* csv_cell(const std::map<std::string, CsvTable>& sheets, const std::string& sheet,
                            int row, int col) {
  const auto it = sheets.find(sheet);
  if (it == sheets.end()) return nullptr;
  const CsvTable& table = it->second;
  if (row < 0 || static_cast<size_t>(row) >= table.size()) return nullptr;
  const auto& fields = table[static_cast<size_t>(row)];
  if (col < 0 || static_cast<size_t>(col) >= fields.size()) return nullptr;
  return &fields[static_cast<size_t>(col)];
}

bool is_error_text(const std::string& text) {
  for (const char* error :
       {"#REF!", "#NAME?", "#VALUE!", "#DIV/0!", "#N/A", "#NUM!", "#NULL!", "Err:", "#ERR"}) {
    if (text.rfind(error, 0) == 0) return true;
  }
  return false;
}

class Recalculation : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!test::soffice_available()) return;
    // ctest runs each test in its own process, each with this set-up: one directory each.
    dir_ = test::fresh_dir("recalc-" + std::to_string(::getpid()));
    sample_ = new test::SamplePlan(test::sample_plan());
    sample_->scenario.customer = "=1+2";
    book_ = dir_ + "/tco.xlsx";
    write_workbook(sample_->plan, sample_->scenario, book_);
    // A control whose cached total is deliberately wrong: after recalculation it must show
    // the true sum, or LibreOffice did not recalculate and the comparison proves nothing.
    test::SamplePlan tampered = *sample_;
    tampered.plan.options[0].total_cost += 1000;
    control_ = dir_ + "/control.xlsx";
    write_workbook(tampered.plan, tampered.scenario, control_);
    // The real engine's plan of the same scenario.
    const test::SamplePlan engine = test::engine_sample_plan();
    engine_book_ = dir_ + "/engine.xlsx";
    write_workbook(engine.plan, engine.scenario, engine_book_);
    results_ = new std::map<std::string, std::map<std::string, CsvTable>>(
        test::recalculate_with_libreoffice({book_, control_, engine_book_}, dir_));
  }
  static void TearDownTestSuite() {
    if (!dir_.empty() && !::testing::UnitTest::GetInstance()->Failed()) {
      std::filesystem::remove_all(dir_);  // keep the evidence when something failed
    }
    delete sample_;
    delete results_;
    sample_ = nullptr;
    results_ = nullptr;
  }
  void SetUp() override {
    if (!test::soffice_available()) GTEST_SKIP() << "soffice (LibreOffice) is not installed";
  }

  static std::string dir_, book_, control_, engine_book_;
  static test::SamplePlan* sample_;
  static std::map<std::string, std::map<std::string, CsvTable>>* results_;
};

std::string Recalculation::dir_;
std::string Recalculation::book_;
std::string Recalculation::control_;
std::string Recalculation::engine_book_;
test::SamplePlan* Recalculation::sample_ = nullptr;
std::map<std::string, std::map<std::string, CsvTable>>* Recalculation::results_ = nullptr;

TEST_F(Recalculation, libreOfficeRecalculatesOnLoad) {
  const auto& sheets = results_->at(control_);
  // Cash flow!B17: the first option's total cost (see the workbook test for the layout).
  const std::string* total = csv_cell(sheets, "Cash flow", 16, 1);
  ASSERT_NE(total, nullptr);
  const double expected = sample_->plan.options[0].total_cost;
  EXPECT_NEAR(std::stod(*total), expected, 1e-9 * expected)
      << "LibreOffice kept the stored value instead of recalculating";
}

/// Compares every formula cell's recalculated value with its cached one; returns the
/// number of mismatches and describes the first ones in `report`.
int count_mismatches(const std::string& book, const std::map<std::string, CsvTable>& sheets,
                     std::ostringstream& report) {
  const auto cells = test::formula_cells(book);
  EXPECT_GT(cells.size(), 500u);
  int mismatches = 0;
  for (const auto& cell : cells) {
    const std::string* text = csv_cell(sheets, cell.sheet, cell.row, cell.col);
    double recalculated = std::nan("");
    try {
      if (text != nullptr) recalculated = std::stod(*text);
    } catch (const std::exception&) {
    }
    const double tolerance = 1e-9 * std::max(1.0, std::abs(cell.cached));
    if (!(std::abs(recalculated - cell.cached) <= tolerance)) {
      if (++mismatches <= 20) {
        report << cell.sheet << "!" << cell.ref << " = " << cell.formula << ": recalculated '"
               << (text != nullptr ? *text : "<missing>") << "', cached " << cell.cached
               << ", tolerance " << tolerance << "\n";
      }
    }
  }
  std::printf("LibreOffice recalculation of %s: %zu formula cells, %d mismatches\n", book.c_str(),
              cells.size(), mismatches);
  return mismatches;
}

TEST_F(Recalculation, everyFormulaGivesTheCachedValue) {
  const auto& sheets = results_->at(book_);
  ASSERT_EQ(sheets.size(), 5u);
  std::ostringstream report;
  EXPECT_EQ(count_mismatches(book_, sheets, report), 0) << report.str();
}

TEST_F(Recalculation, everyFormulaGivesTheRealEnginesValue) {
  const auto& sheets = results_->at(engine_book_);
  ASSERT_EQ(sheets.size(), 5u);
  std::ostringstream report;
  EXPECT_EQ(count_mismatches(engine_book_, sheets, report), 0) << report.str();
}

TEST_F(Recalculation, noCellHoldsAnError) {
  for (const auto& book : {book_, engine_book_}) {
    for (const auto& [sheet, table] : results_->at(book)) {
      for (size_t r = 0; r < table.size(); ++r) {
        for (size_t c = 0; c < table[r].size(); ++c) {
          EXPECT_FALSE(is_error_text(table[r][c])) << book << ": " << sheet << " row " << r + 1
                                                   << " column " << c + 1 << ": " << table[r][c];
        }
      }
    }
  }
}

TEST_F(Recalculation, textThatLooksLikeAFormulaStaysText) {
  // Summary!B5 holds the customer, "=1+2": text, not 3.
  const std::string* customer = csv_cell(results_->at(book_), "Summary", 4, 1);
  ASSERT_NE(customer, nullptr);
  EXPECT_EQ(*customer, "=1+2");
}

}  // namespace
}  // namespace gputco
