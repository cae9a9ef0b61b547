// The [tax] section (issue #16 item 2): tax depreciation per asset class, parsed with its
// ranges, resolved into FinanceInputs with its provenance, and by default the book's straight
// line over useful_life_months rounded up to whole years.
#include <gtest/gtest.h>

#include <sstream>

#include "pricing/catalog.hpp"
#include "scenarios/overrides.hpp"
#include "scenarios/resolve.hpp"
#include "scenarios/scenario.hpp"
#include "tests/unit/scenarios_fixtures.hpp"

namespace gputco {
namespace {

using test::error_of;
using test::parse;

const std::string kHead =
    "[scenario]\nas_of = 2026-11-27\nstart = 2027-01\nuseful_life_months = 30\n"
    "[workload]\nmodel = qwen3-32b\nquant = Q4_K_M\n"
    "[site]\ntariff_per_kwh = 0.25\n"
    "[option:a]\nkind = buy\ngpu = rtx-3090\ncount = 2\nprice_per_gpu = 700\nhost_cost = 1200\n";

class TaxKeys : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { catalog_ = new Catalog(Catalog::open_builtin()); }
  static void TearDownTestSuite() {
    delete catalog_;
    catalog_ = nullptr;
  }
  static ResolvedScenario resolved(const std::string& text) {
    return resolve(parse(text), *catalog_);
  }
  static Catalog* catalog_;
};
Catalog* TaxKeys::catalog_ = nullptr;

TEST_F(TaxKeys, decliningBalanceForTheDevicesStraightLineForTheHost) {
  const ResolvedScenario r =
      resolved(kHead +
               "[tax]\ndevices_method = declining_balance\ndevices_life_years = 5\n"
               "host_life_years = 4\ndeclining_balance_factor = 1.5\n"
               "switch_to_straight_line = no\n");
  const FinanceInputs& f = r.plan_inputs.finance;
  EXPECT_EQ(f.tax_devices.method, TaxDepreciationMethod::declining_balance);
  EXPECT_EQ(f.tax_devices.life_years, 5);
  EXPECT_DOUBLE_EQ(f.tax_devices.factor, 1.5);
  EXPECT_FALSE(f.tax_devices.switch_to_straight_line);
  EXPECT_EQ(f.tax_host.method, TaxDepreciationMethod::straight_line);
  EXPECT_EQ(f.tax_host.life_years, 4);
  const InputRow* life = test::input(r, "tax", "devices_life_years");
  ASSERT_NE(life, nullptr);
  EXPECT_DOUBLE_EQ(*life->value, 5);
  EXPECT_EQ(life->provenance.find("default"), std::string::npos) << life->provenance;
  const InputRow* factor = test::input(r, "tax", "declining_balance_factor");
  ASSERT_NE(factor, nullptr);
  EXPECT_DOUBLE_EQ(*factor->value, 1.5);
}

TEST_F(TaxKeys, unsetTaxFollowsTheBookRoundedUpToWholeYears) {
  const ResolvedScenario r = resolved(kHead);
  const FinanceInputs& f = r.plan_inputs.finance;
  // useful_life_months = 30: 2.5 years, rounded up to 3 tax years, straight line.
  EXPECT_EQ(f.tax_devices.method, TaxDepreciationMethod::straight_line);
  EXPECT_EQ(f.tax_devices.life_years, 3);
  EXPECT_EQ(f.tax_host.life_years, 3);
  const InputRow* life = test::input(r, "tax", "host_life_years");
  ASSERT_NE(life, nullptr);
  EXPECT_NE(life->provenance.find("tax as the book"), std::string::npos) << life->provenance;
  // No declining balance: its factor is not an input.
  EXPECT_EQ(test::input(r, "tax", "declining_balance_factor"), nullptr);
}

TEST_F(TaxKeys, aTaxRateIsAnInputOfTheTaxSection) {
  // Issue #40: [tax] rate turns the after-tax view on; it is a yellow input (tax_rate).
  const ResolvedScenario r = resolved(kHead + "[tax]\nrate = 0.25\n");
  ASSERT_TRUE(r.plan_inputs.finance.tax_rate.has_value());
  EXPECT_DOUBLE_EQ(*r.plan_inputs.finance.tax_rate, 0.25);
  const InputRow* rate = test::input(r, "tax", "rate");
  ASSERT_NE(rate, nullptr);
  EXPECT_DOUBLE_EQ(*rate->value, 0.25);
  EXPECT_EQ(rate->unit, "fraction");
}

TEST_F(TaxKeys, noRateNoTaxView) {
  const ResolvedScenario r = resolved(kHead);
  EXPECT_FALSE(r.plan_inputs.finance.tax_rate.has_value());
  EXPECT_EQ(test::input(r, "tax", "rate"), nullptr);
}

TEST_F(TaxKeys, setTaxRateOverridesTheFile) {
  // --set tax.rate=0.19 (what an edit of the workbook's tax_rate compares with): the file's
  // 0.25 is replaced; a file without [tax] gets one.
  std::istringstream with(kHead + "[tax]\nrate = 0.25\n");
  const Scenario changed =
      parse_scenario(with, ScenarioFormat::ini, "test.ini", {parse_set_option("tax.rate=0.19")});
  EXPECT_DOUBLE_EQ(changed.tax_rate.value_or(-1), 0.19);
  std::istringstream without(kHead);
  const Scenario added =
      parse_scenario(without, ScenarioFormat::ini, "test.ini", {parse_set_option("tax.rate=0.3")});
  EXPECT_DOUBLE_EQ(added.tax_rate.value_or(-1), 0.3);
}

TEST(TaxKeysParse, aRateOfOneOrAPercentageIsRefused) {
  EXPECT_NE(error_of(kHead + "[tax]\nrate = 1\n").find("[tax] rate: expected a tax rate"),
            std::string::npos)
      << error_of(kHead + "[tax]\nrate = 1\n");
  EXPECT_NE(error_of(kHead + "[tax]\nrate = 25\n").find("did you mean 0.25?"), std::string::npos)
      << error_of(kHead + "[tax]\nrate = 25\n");
  EXPECT_NE(error_of(kHead + "[tax]\nrate = -0.1\n").find("[tax] rate"), std::string::npos);
  // No fiscal year other than the plan year (docs/money-model.md): the key is unknown.
  EXPECT_NE(error_of(kHead + "[tax]\nfiscal_year_start = 4\n").find("fiscal_year_start"),
            std::string::npos);
}

TEST(TaxKeysParse, wrongValuesNameTheKey) {
  EXPECT_NE(error_of(kHead + "[tax]\ndevices_method = ddb\n")
                .find("[tax] devices_method: expected one of straight_line | declining_balance"),
            std::string::npos);
  EXPECT_NE(error_of(kHead + "[tax]\nhost_life_years = 0\n")
                .find("[tax] host_life_years: expected a whole number between 1 and 50, got 0"),
            std::string::npos);
  EXPECT_NE(error_of(kHead + "[tax]\ndeclining_balance_factor = 2\n")
                .find("[tax] declining_balance_factor: applies to declining_balance only"),
            std::string::npos);
  EXPECT_NE(error_of(kHead + "[option:tax]\nkind = api\n")
                .find("'tax' is the name of a section; choose another option id"),
            std::string::npos);
}

}  // namespace
}  // namespace gputco
