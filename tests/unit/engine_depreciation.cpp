// Declining-balance depreciation against the spreadsheet functions DDB, DB and VDB. Every
// expected value below is what LibreOffice Calc 7.4.7.2 computes for the formula quoted beside
// it (a flat ODS of these formulas converted to CSV with `soffice --headless --convert-to
// csv`); the first ones are also the worked examples of Microsoft's documentation of DDB, DB
// and VDB (support.microsoft.com, "DDB function", "DB function", "VDB function").
#include <gtest/gtest.h>

#include "engine/base/error.hpp"
#include "engine/finance/depreciation.hpp"

namespace gputco {
namespace {

constexpr double kTolerance = 1e-9;

TEST(DoubleDecliningBalance, givesTheSpreadsheetsDdb) {
  // Microsoft's example: cost 2,400, salvage 300, life 10 years.
  EXPECT_NEAR(double_declining_balance(2400, 300, 10 * 365, 1), 1.31506849315065, kTolerance);
  EXPECT_NEAR(double_declining_balance(2400, 300, 10 * 12, 1, 2), 40, kTolerance);
  EXPECT_NEAR(double_declining_balance(2400, 300, 10, 1, 2), 480, kTolerance);
  EXPECT_NEAR(double_declining_balance(2400, 300, 10, 2, 1.5), 306, kTolerance);
  // The tenth year stops at the salvage: =DDB(2400;300;10;10) = 22.1225472.
  EXPECT_NEAR(double_declining_balance(2400, 300, 10, 10), 22.1225472000002, kTolerance);
  // =DDB(2400;300;10;p;2), p = 1..10.
  const double by_year[] = {480,      384,       307.2,      245.76,     196.608,
                            157.2864, 125.82912, 100.663296, 80.5306368, 22.1225472000002};
  for (int p = 1; p <= 10; ++p) {
    EXPECT_NEAR(double_declining_balance(2400, 300, 10, p), by_year[p - 1], kTolerance) << p;
  }
  // By hand: 10,000 over 5 years at 40 %: 4,000, 2,400, 1,440, 864, 518.40 (=DDB(10000;0;5;p;2)).
  const double hand[] = {4000, 2400, 1440, 864, 518.4};
  for (int p = 1; p <= 5; ++p) {
    EXPECT_NEAR(double_declining_balance(10000, 0, 5, p), hand[p - 1], kTolerance) << p;
  }
}

TEST(FixedDecliningBalance, givesTheSpreadsheetsDb) {
  // Microsoft's example: cost 1,000,000, salvage 100,000, life 6, 7 months in the first year:
  // rate = 1 - (0.1)^(1/6) = 0.319 (rounded to three decimals); year 1 = 1e6 x 0.319 x 7/12.
  const double by_year[] = {186083.333333333, 259639.416666667, 176814.44275,    120410.63551275,
                            81999.6427841828, 55841.7567360285, 15845.0984738481};
  for (int p = 1; p <= 7; ++p) {
    EXPECT_NEAR(fixed_declining_balance(1e6, 1e5, 6, p, 7), by_year[p - 1], 1e-6) << p;
  }
  // =DB(2400;300;10;p): rate 1 - 0.125^(1/10) = 0.188.
  const double full_years[] = {451.2,           366.3744,         297.4960128,
                               241.5667623936,  196.152211063603, 159.275595383646,
                               129.33178345152, 105.017408162635, 85.2741354280593,
                               69.2425979675841};
  for (int p = 1; p <= 10; ++p) {
    EXPECT_NEAR(fixed_declining_balance(2400, 300, 10, p), full_years[p - 1], kTolerance) << p;
  }
  EXPECT_THROW(fixed_declining_balance(2400, 300, 10, 11), EngineError);
}

TEST(DecliningBalanceSchedule, switchesToStraightLineWhenLargerAsVdbDoes) {
  // 10,000 over 5 years, double declining: year 4's straight line over the two years left,
  // 2,160 / 2 = 1,080, beats 864: =VDB(10000;0;5;p-1;p;2;0) = 4000, 2400, 1440, 1080, 1080.
  const auto with_switch = declining_balance_schedule(10000, 0, 5, 2, true);
  const double vdb[] = {4000, 2400, 1440, 1080, 1080};
  for (size_t p = 0; p < 5; ++p) EXPECT_NEAR(with_switch[p], vdb[p], kTolerance) << p;
  // Without the switch, DDB's amounts: 777.60 stays undepreciated (no salvage reached).
  const auto without = declining_balance_schedule(10000, 0, 5, 2, false);
  const double ddb[] = {4000, 2400, 1440, 864, 518.4};
  for (size_t p = 0; p < 5; ++p) EXPECT_NEAR(without[p], ddb[p], kTolerance) << p;
  // 1.5 x straight line over 4 years (a rate of 37.5 %): =VDB(1;0;4;p-1;p;1.5;0) = 0.375,
  // 0.234375, then the straight line 0.390625 / 2 = 0.1953125 twice; with NoSwitch =
  // VDB(...;1) = 0.375, 0.234375, 0.146484375, 0.091552734375.
  const auto german = declining_balance_schedule(1, 0, 4, 1.5, true);
  const double switched[] = {0.375, 0.234375, 0.1953125, 0.1953125};
  for (size_t p = 0; p < 4; ++p) EXPECT_NEAR(german[p], switched[p], kTolerance) << p;
  const auto declining = declining_balance_schedule(1, 0, 4, 1.5, false);
  const double plain[] = {0.375, 0.234375, 0.146484375, 0.091552734375};
  for (size_t p = 0; p < 4; ++p) EXPECT_NEAR(declining[p], plain[p], kTolerance) << p;
  // With a salvage the straight line may never win: =VDB(2400;300;10;p-1;p;2;0) = DDB's.
  const auto salvage = declining_balance_schedule(2400, 300, 10, 2, true);
  for (int p = 1; p <= 10; ++p) {
    EXPECT_NEAR(salvage[static_cast<size_t>(p - 1)], double_declining_balance(2400, 300, 10, p),
                kTolerance);
  }
}

TEST(TaxDepreciation, sharesByAgeAndLotsByYear) {
  TaxClassRules straight;
  straight.life_years = 4;
  EXPECT_DOUBLE_EQ(tax_depreciation_share(straight, 0), 0.25);
  EXPECT_DOUBLE_EQ(tax_depreciation_share(straight, 3), 0.25);
  EXPECT_DOUBLE_EQ(tax_depreciation_share(straight, 4), 0);
  TaxClassRules declining;
  declining.method = TaxDepreciationMethod::declining_balance;
  declining.life_years = 5;
  declining.factor = 2;
  EXPECT_NEAR(tax_depreciation_share(declining, 3), 0.108, kTolerance);  // 1,080 of 10,000
  // Lots of 10,000 bought in year 1 and 5,000 in year 2 (full-year convention), double
  // declining over 5 years with the switch: year 1 = 4,000; year 2 = 2,400 + 2,000 = 4,400;
  // year 3 = 1,440 + 1,200 = 2,640.
  const auto by_year = tax_depreciation_by_year({10000, 5000, 0}, declining);
  ASSERT_EQ(by_year.size(), 3u);
  EXPECT_NEAR(by_year[0], 4000, kTolerance);
  EXPECT_NEAR(by_year[1], 4400, kTolerance);
  EXPECT_NEAR(by_year[2], 2640, kTolerance);
  TaxClassRules bad;
  bad.life_years = 0;
  EXPECT_THROW(tax_depreciation_by_year({1}, bad), EngineError);
}

}  // namespace
}  // namespace gputco
