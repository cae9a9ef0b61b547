// The Sensitivity sheet: a tornado row shows its input's low and high values with enough
// decimals to see the swing (a discount rate of 0.08 moved -/+20 % is 0.064 / 0.096, which two
// decimals showed as 0.06 / 0.10), and the Monte Carlo's "What was varied" lists the exchange
// rates ([risk] fx.CODE) beside the other inputs.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "reports/xlsx/report.hpp"
#include "tests/unit/reports_xlsx_fixture.hpp"

namespace gputco {
namespace {

/// The number format code of cell `ref` of `sheet` (styles.xml: the cell's s index into
/// cellXfs, its numFmtId into numFmts); "" for a built-in format or none.
std::string format_code(const std::string& xlsx, const std::string& sheet, const std::string& ref) {
  const std::string xml = test::zip_member(xlsx, test::sheet_parts(xlsx).at(sheet));
  std::smatch m;
  if (!std::regex_search(xml, m, std::regex("<c r=\"" + ref + "\" s=\"([0-9]+)\""))) return "";
  const int style = std::stoi(m[1].str());
  const std::string styles = test::zip_member(xlsx, "xl/styles.xml");
  const auto xfs_at = styles.find("<cellXfs");
  if (xfs_at == std::string::npos) return "";
  const std::string xfs = styles.substr(xfs_at, styles.find("</cellXfs>") - xfs_at);
  const std::regex xf_re("<xf [^>]*numFmtId=\"([0-9]+)\"");
  int index = 0;
  std::string fmt_id;
  for (auto it = std::sregex_iterator(xfs.begin(), xfs.end(), xf_re); it != std::sregex_iterator();
       ++it, ++index) {
    if (index == style) fmt_id = (*it)[1].str();
  }
  if (fmt_id.empty()) return "";
  if (std::regex_search(
          styles, m, std::regex("<numFmt numFmtId=\"" + fmt_id + "\" formatCode=\"([^\"]*)\""))) {
    return m[1].str();
  }
  return "";
}

TEST(XlsxSensitivity, aDiscountRatesSwingIsVisibleAndExchangeRatesAreListed) {
  const auto sample = test::sample_plan();
  Sensitivity sensitivity = test::sample_sensitivity(sample);
  const double base = sensitivity.base_difference;
  // 0.08 -/+ 20 %: 0.08 x 0.8 = 0.064, 0.08 x 1.2 = 0.096.
  sensitivity.tornado.push_back(
      {"discount rate", "discount_rate", 0.064, 0.096, base + 50, base - 50});
  sensitivity.risk_model.fx["USD"] = {Distribution::uniform, -0.1, 0, 0.1, 0};
  WorkbookOptions options;
  options.sensitivity = &sensitivity;
  const std::string path = test::fresh_dir("sensitivity-decimals") + "/tco.xlsx";
  write_workbook(sample.plan, sample.scenario, path, options);

  const auto texts = test::text_cells(path, "Sensitivity");
  std::string row;
  for (const auto& [ref, text] : texts) {
    if (text == "discount rate" && ref[0] == 'A') row = ref.substr(1);
  }
  ASSERT_FALSE(row.empty());
  // Low and high (columns C and D): two to four decimals, 0.064 and 0.096 as they are.
  EXPECT_EQ(format_code(path, "Sensitivity", "C" + row), "#,##0.00##");
  EXPECT_EQ(format_code(path, "Sensitivity", "D" + row), "#,##0.00##");

  // What was varied: the USD rate, its range, what it moves and who set it.
  std::string fx_row;
  for (const auto& [ref, text] : texts) {
    if (text == "exchange rate USD" && ref[0] == 'A') fx_row = ref.substr(1);
  }
  ASSERT_FALSE(fx_row.empty());
  // Merged wrapped spans: Distribution B:C, What it moves D:F, Set by G:I (the text in the
  // first cell of each).
  EXPECT_EQ(texts.at("B" + fx_row), "uniform -10 % .. +10 %");
  EXPECT_EQ(texts.at("D" + fx_row), "every amount converted from USD (plan currency per USD)");
  EXPECT_EQ(texts.at("G" + fx_row), "not set in [risk] (exchange rates have no default range)");
}

}  // namespace
}  // namespace gputco
