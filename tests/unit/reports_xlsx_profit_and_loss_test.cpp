// The Profit and loss sheet (issue #16 item 2): per option and plan year the P&L beside the
// cash, the reconciling items, the tax depreciation by VDB, every cell a formula cached with
// the engine's value; the Checks sheet's reconciliation check.
#include <gtest/gtest.h>

#include <cmath>
#include <regex>

#include "reports/xlsx/report.hpp"
#include "tests/unit/reports_xlsx_fixture.hpp"

namespace gputco {
namespace {

test::FormulaCell formula_at(const std::vector<test::FormulaCell>& cells, const std::string& sheet,
                             const std::string& ref) {
  for (const auto& cell : cells) {
    if (cell.sheet == sheet && cell.ref == ref) return cell;
  }
  ADD_FAILURE() << "no formula at " << sheet << "!" << ref;
  return {};
}

/// The cell format (its <xf> in styles.xml) of `ref` on `sheet`; "" when the cell has none.
std::string cell_format(const std::string& path, const std::string& sheet, const std::string& ref) {
  const std::string xml = test::zip_member(path, test::sheet_parts(path).at(sheet));
  std::smatch m;
  if (!std::regex_search(xml, m, std::regex("<c r=\"" + ref + "\" s=\"([0-9]+)\""))) return "";
  const size_t style = std::stoul(m[1]);
  const std::string styles = test::zip_member(path, "xl/styles.xml");
  const std::string xfs = styles.substr(styles.find("<cellXfs"));
  const std::regex xf(R"re(<xf [^>]*?(/>|>.*?</xf>))re");
  size_t k = 0;
  for (std::sregex_iterator it(xfs.begin(), xfs.end(), xf), end; it != end; ++it, ++k) {
    if (k == style) return (*it)[0];
  }
  return "";
}

/// The height of row `row` (1-based) on `sheet`, in points; 0 when the row sets none.
double row_height(const std::string& path, const std::string& sheet, int row) {
  const std::string xml = test::zip_member(path, test::sheet_parts(path).at(sheet));
  std::smatch m;
  if (!std::regex_search(
          xml, m, std::regex("<row r=\"" + std::to_string(row) + "\"[^>]* ht=\"([0-9.]+)\""))) {
    return 0;
  }
  return std::stod(m[1]);
}

TEST(XlsxProfitAndLoss, theIntroductionWrapsAcrossTheTableAndDoesNotWidenThePrint) {
  // M6: the sheet's 700-character introduction was one unwrapped cell, so the sheet, fitted
  // one page wide, printed the table on a quarter of the page. Now merged across the label
  // (52 characters), the horizon (15) and the two plan years of the sample (2 x 14): A2:D2,
  // 95 characters a line, its row 15 points a line.
  const test::SamplePlan sample = test::engine_sample_plan();
  const Sensitivity sensitivity = test::sample_sensitivity(sample);
  WorkbookOptions options;
  options.sensitivity = &sensitivity;
  const std::string path = test::fresh_dir("profit-and-loss-intro") + "/tco.xlsx";
  write_workbook(sample.plan, sample.scenario, path, options);
  const auto parts = test::sheet_parts(path);
  const std::string xml = test::zip_member(path, parts.at("Profit and loss"));
  EXPECT_NE(xml.find("<mergeCell ref=\"A2:D2\"/>"), std::string::npos);
  const std::string intro = test::text_cells(path, "Profit and loss").at("A2");
  ASSERT_GT(intro.size(), 600u);
  EXPECT_EQ(row_height(path, "Profit and loss", 2),
            15 * std::ceil(static_cast<double>(intro.size()) / 95));
  EXPECT_NE(cell_format(path, "Profit and loss", "A2").find("wrapText=\"1\""), std::string::npos);
  // The label and horizon columns repeated as print titles (on every page of a long horizon).
  const std::string workbook = test::zip_member(path, "xl/workbook.xml");
  EXPECT_NE(workbook.find("'Profit and loss'!$A:$B"), std::string::npos);

  // The other sheets' long introductions, merged and wrapped the same way: Inputs across
  // A:I (through its "As gputco wrote it" column), Metrics A:F (its first printed page),
  // Sensitivity A:I, Checks A:D.
  for (const auto& [sheet, merged] :
       std::vector<std::pair<std::string, std::string>>{{"Inputs", "A2:I2"},
                                                        {"Metrics", "A2:F2"},
                                                        {"Sensitivity", "A2:I2"},
                                                        {"Checks", "A2:D2"}}) {
    const std::string sheet_xml = test::zip_member(path, parts.at(sheet));
    EXPECT_NE(sheet_xml.find("<mergeCell ref=\"" + merged + "\"/>"), std::string::npos) << sheet;
    EXPECT_NE(cell_format(path, sheet, "A2").find("wrapText=\"1\""), std::string::npos) << sheet;
    EXPECT_GE(row_height(path, sheet, 2), 15) << sheet << ": its row sized for its lines";
  }
  // Sensitivity, What was varied: what an input moves (D:F) and what set it (G:I) each get
  // their own merged, wrapped cells instead of running into each other.
  const std::string sensitivity_xml = test::zip_member(path, parts.at("Sensitivity"));
  std::string what_it_moves;
  for (const auto& [ref, text] : test::text_cells(path, "Sensitivity")) {
    if (text == "What it moves") what_it_moves = ref;
  }
  ASSERT_EQ(what_it_moves.rfind("D", 0), 0u) << what_it_moves;
  const std::string row = what_it_moves.substr(1);
  EXPECT_NE(sensitivity_xml.find("<mergeCell ref=\"D" + row + ":F" + row + "\"/>"),
            std::string::npos);
  EXPECT_NE(sensitivity_xml.find("<mergeCell ref=\"G" + row + ":I" + row + "\"/>"),
            std::string::npos);
}

TEST(XlsxProfitAndLoss, taxByDecliningBalanceAndTheReconciliationAreFormulas) {
  // The engine's sample: two used RTX 3090s at 700 and a 1,200 host (2,600 of capex) over 24
  // months; the devices taxed by double declining balance over 4 years, the host straight
  // over 2.
  test::SamplePlan sample = test::engine_sample_plan();
  PlanInputs& in = sample.scenario.plan_inputs;
  in.finance.tax_devices.method = TaxDepreciationMethod::declining_balance;
  in.finance.tax_devices.life_years = 4;
  in.finance.tax_host.life_years = 2;
  sample.plan = make_plan(in);
  const std::string path = test::fresh_dir("profit-and-loss") + "/tco.xlsx";
  write_workbook(sample.plan, sample.scenario, path);
  const auto cells = test::formula_cells(path);

  // Year columns C and D (plan years 1, 2); the tax shares on rows 6 (devices) and 7 (host):
  // double declining over 4 years is 50 % then 25 % (=VDB(1;0;4;0;1;2;0), (...;1;2;2;0)).
  const auto devices_share = formula_at(cells, "Profit and loss", "C6");
  EXPECT_EQ(devices_share.formula,
            "IF(C$5>=tax_devices_life_years,0,IF(tax_devices_declining_balance=1,VDB(1,0,"
            "tax_devices_life_years,C$5,C$5+1,tax_declining_balance_factor,1-tax_switch_to_"
            "straight_line),1/tax_devices_life_years))");
  EXPECT_DOUBLE_EQ(devices_share.cached, 0.5);
  EXPECT_DOUBLE_EQ(formula_at(cells, "Profit and loss", "D6").cached, 0.25);
  EXPECT_DOUBLE_EQ(formula_at(cells, "Profit and loss", "C7").cached, 0.5);

  // The owned option's block from row 10: operating expenses 10, ..., P&L 15, cash 16, capex
  // 17, loan 18, written off 19, difference 20, book value 21, devices bought 22, host 23, tax
  // devices 24, host 25, tax 26, tax value 27.
  const ProfitAndLoss& pl = sample.plan.options[0].profit_and_loss;
  // Devices 1,400 x 50 % = 700, host 1,200 x 50 % = 600 in year 1; then 350 and 600.
  EXPECT_NEAR(pl.tax_depreciation_devices[0], 700, 1e-9);
  EXPECT_NEAR(pl.tax_depreciation_devices[1], 350, 1e-9);
  EXPECT_NEAR(pl.tax_depreciation_host[1], 600, 1e-9);
  const auto tax_year_2 = formula_at(cells, "Profit and loss", "D24");
  EXPECT_EQ(tax_year_2.formula, "C22*$D$6+D22*$C$6");
  EXPECT_NEAR(tax_year_2.cached, 350, 1e-9);
  EXPECT_NEAR(formula_at(cells, "Profit and loss", "D27").cached, 2600 - 700 - 600 - 350 - 600,
              1e-9);
  // The P&L and the cash agree over the horizon: their sums, and each year's difference 0.
  EXPECT_NEAR(formula_at(cells, "Profit and loss", "B15").cached,
              formula_at(cells, "Profit and loss", "B16").cached, 1e-9);
  EXPECT_NEAR(formula_at(cells, "Profit and loss", "C20").cached, 0, 1e-9);
  EXPECT_NEAR(formula_at(cells, "Profit and loss", "B16").cached, sample.plan.options[0].total_cost,
              1e-9);
  // The Checks sheet says so, for every option.
  int reconciliation_checks = 0;
  for (const auto& cell : cells) {
    if (cell.sheet == "Checks" && cell.formula.find("'Profit and loss'!") != std::string::npos) {
      ++reconciliation_checks;
      EXPECT_EQ(cell.cached, 1) << cell.formula;
    }
  }
  EXPECT_EQ(reconciliation_checks, static_cast<int>(sample.plan.options.size()));
}

}  // namespace
}  // namespace gputco
