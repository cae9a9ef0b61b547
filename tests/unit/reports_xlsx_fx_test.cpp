// Exchange rates on the Inputs sheet (issue #16 item 3): a price converted from another
// currency is a formula of its published amount and the rate fx.CURRENCY, both inputs.
#include <gtest/gtest.h>

#include "reports/xlsx/names.hpp"
#include "reports/xlsx/report.hpp"
#include "tests/unit/reports_xlsx_fixture.hpp"

namespace gputco {
namespace {

TEST(XlsxFx, aConvertedPriceIsItsPublishedAmountTimesTheRate) {
  // The examples price in EUR from a catalog that publishes device prices in USD.
  int converted = 0;
  for (auto& [name, sample] : test::example_plans()) {
    const InputRow* price = nullptr;
    for (const InputRow& row : sample.scenario.inputs) {
      if (row.key == "price_per_gpu" && row.published_amount) price = &row;
    }
    if (price == nullptr) continue;
    ++converted;
    const std::string path = test::fresh_dir("fx-" + std::to_string(converted)) + "/tco.xlsx";
    write_workbook(sample.plan, sample.scenario, path);
    // opt_<the option's id as a defined name>_price_per_gpu_published*fx_USD
    const std::string expected = to_defined_name("opt_" + price->section) +
                                 "_price_per_gpu_published*fx_" + price->published_currency;
    bool found = false;
    for (const auto& cell : test::formula_cells(path)) {
      if (cell.sheet != "Inputs" || cell.formula != expected) continue;
      found = true;
      EXPECT_NEAR(cell.cached, *price->value, 1e-9 * *price->value) << name;
    }
    EXPECT_TRUE(found) << name << ": no Inputs formula " << expected;
    if (converted == 2) break;
  }
  EXPECT_GT(converted, 0) << "no example converts a catalog price";
}

}  // namespace
}  // namespace gputco
