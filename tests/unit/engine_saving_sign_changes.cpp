// A monthly saving of owning that changes sign more than once (a refresh, a falling rent, a
// resale): the IRR may not be unique (Descartes' rule of signs) and is then "n/a"; the break-even
// month and the payback are where owning catches up for good, never a first touch that a
// later loss undoes. One sign change keeps the figures it always had, and so does a running
// sum that changes sign once (Norstrom's criterion). Hand-computed values.
#include <gtest/gtest.h>

#include <vector>

#include "engine/base/error.hpp"
#include "engine/finance/finance.hpp"
#include "engine/money/metrics.hpp"

namespace gputco {
namespace {

/// A baseline renting for 50 a month (month 0: nothing) and an owned option whose monthly
/// total is the rent less `saving` (index = month): rented.total - owned.total = saving.
struct Pair {
  CashFlow owned, rented;
};

Pair pair_of(const std::vector<double>& saving) {
  Pair p;
  double own_sum = 0, rent_sum = 0;
  for (size_t m = 0; m < saving.size(); ++m) {
    const double rent = m == 0 ? 0.0 : 50.0;
    p.rented.total.push_back(rent);
    p.owned.total.push_back(rent - saving[m]);
    rent_sum += rent;
    own_sum += rent - saving[m];
    p.rented.cumulative.push_back(rent_sum);
    p.owned.cumulative.push_back(own_sum);
  }
  return p;
}

TEST(SavingSignChanges, countsDescartesChangesSkippingZerosAndRoundingResidues) {
  const std::vector<double> rent = {0, 50, 50, 50, 50, 50};
  EXPECT_EQ(saving_sign_changes({-100, 30, 30, 30, 30, 30}, rent), 1);
  // -, +, (0 skipped), +, -: two changes.
  EXPECT_EQ(saving_sign_changes({-100, 30, 0, 30, -50}, rent), 2);
  // 1e-12 and -1e-12 are within 1e-9 x max(1, 50) of 0: rounding, no sign: one change.
  EXPECT_EQ(saving_sign_changes({-100, 30, 1e-12, -1e-12, 30}, rent), 1);
  EXPECT_EQ(saving_sign_changes({-100, -10, -10}, rent), 0);
  EXPECT_EQ(saving_sign_changes({}, rent), 0);
  // -, +, -, +: three changes.
  EXPECT_EQ(saving_sign_changes({-100, 30, -50, 40}, rent), 3);
  EXPECT_EQ(irr_not_unique_text(3), "n/a (saving changes sign 3 times)");
}

TEST(SavingSignChanges, oneChangeKeepsBreakEvenPaybackAndIrr) {
  // Saving -100, then +30 a month: cumulative -100, -70, -40, -10, +20, +50. Owning is
  // dearer (cumulative 100, 120, 140, 160 against 0, 50, 100, 150) in months 0-3 and no
  // dearer from month 4 on: break-even month 4, as the first month at or below always gave.
  const std::vector<double> saving = {-100, 30, 30, 30, 30, 30};
  const Pair p = pair_of(saving);
  EXPECT_EQ(saving_sign_changes(saving, p.rented.total), 1);
  EXPECT_EQ(break_even_month(p.owned, p.rented), 4);
  EXPECT_FALSE(ahead_then_behind(p.owned, p.rented));
  // Payback: -10 after month 3, +30 in month 4: 3 + 10 / 30 = 3.3333 months.
  ASSERT_TRUE(payback_months(saving));
  EXPECT_NEAR(*payback_months(saving), 3 + 10.0 / 30.0, 1e-12);
  // =IRR({-100,30,30,30,30,30}) = 15.2382 % a month: 30 x annuity factor(5 periods) = 100,
  // the factor 3.3333 between 3.3522 at 15 % and 3.2743 at 16 % (bisection, Python:
  // 0.152382371).
  const auto irr = internal_rate_of_return(saving);
  ASSERT_TRUE(irr);
  EXPECT_NEAR(*irr, 0.152382371, 1e-9);
}

TEST(SavingSignChanges, twoChangesAheadThenBehindIsNoBreakEven) {
  // Saving -100, +30 x 4, -50 x 2 (a refresh, a rent that fell): cumulative -100, -70, -40,
  // -10, +20, -30, -80. Signs -, +, -: two changes, the IRR is not unique.
  const std::vector<double> saving = {-100, 30, 30, 30, 30, -50, -50};
  const Pair p = pair_of(saving);
  EXPECT_EQ(saving_sign_changes(saving, p.rented.total), 2);
  // Owning's cumulative cost 100, 120, 140, 160, 180, 280, 380 against 0, 50, 100, 150, 200,
  // 250, 300: at or below in month 4 only, dearer again from month 5 to the end (month 6).
  // The first touch (month 4) was the old answer; owning loses over the horizon: never.
  EXPECT_FALSE(break_even_month(p.owned, p.rented));
  const auto ahead = ahead_then_behind(p.owned, p.rented);
  ASSERT_TRUE(ahead);
  EXPECT_EQ(ahead->first, 4);
  EXPECT_EQ(ahead->last, 4);
  // The running saving is -80 at the end: never paid back (was 3.3333, month 4's touch).
  EXPECT_FALSE(payback_months(saving));
}

TEST(SavingSignChanges, breakEvenIsWhereOwningCatchesUpForGood) {
  // Saving -100, +30 x 4, -50, +40 x 2: cumulative -100, -70, -40, -10, +20, -30, +10, +50.
  // Signs -, +, -, +: three changes.
  const std::vector<double> saving = {-100, 30, 30, 30, 30, -50, 40, 40};
  const Pair p = pair_of(saving);
  EXPECT_EQ(saving_sign_changes(saving, p.rented.total), 3);
  // Dearer last in month 5 (cumulative 280 against 250): break-even month 6, not month 4.
  EXPECT_EQ(break_even_month(p.owned, p.rented), 6);
  EXPECT_FALSE(ahead_then_behind(p.owned, p.rented));
  // Payback from month 6 on: -30 after month 5, +40 in month 6: 5 + 30 / 40 = 5.75 months.
  ASSERT_TRUE(payback_months(saving));
  EXPECT_NEAR(*payback_months(saving), 5.75, 1e-12);
}

TEST(SavingSignChanges, aRunningSumThatTurnsPositiveOnceKeepsTheIrrUnique) {
  // Norstrom's criterion (JFQA 7(3), 1972). Saving -100, +60, +60, -10, +30 (a repair in
  // month 3): signs -, +, +, -, +: three changes, so Descartes allows three roots. The running
  // sum -100, -40, +20, +10, +40 changes sign once: one root above 0.
  const std::vector<double> saving = {-100, 60, 60, -10, 30};
  const Pair p = pair_of(saving);
  EXPECT_EQ(saving_sign_changes(saving, p.rented.total), 3);
  EXPECT_EQ(cumulative_saving_sign_changes(saving, p.rented.cumulative), 1);
  EXPECT_TRUE(irr_is_unique(3, 1));
  // -100 + 60 d + 60 d^2 - 10 d^3 + 30 d^4 = 0 at d = 1 / 1.2024047 (bisection in Python:
  // 0.2024046780548613; check: d = 0.831666, 49.90 + 41.50 - 5.75 + 14.35 = 100.0).
  const auto irr = internal_rate_of_return(saving, 0.0);
  ASSERT_TRUE(irr);
  EXPECT_NEAR(*irr, 0.2024046780548613, 1e-9);
  // The three-change case above: running sum -100, -70, -40, -10, +20, -30, +10, +50 changes
  // sign three times: no unique rate by either rule.
  const std::vector<double> three = {-100, 30, 30, 30, 30, -50, 40, 40};
  EXPECT_EQ(cumulative_saving_sign_changes(three, pair_of(three).rented.cumulative), 3);
  EXPECT_FALSE(irr_is_unique(3, 3));
  EXPECT_FALSE(irr_is_unique(2, 0));
  EXPECT_TRUE(irr_is_unique(1, 0));
  // A running sum within 1e-9 x max(1, rented cumulative) of 0 has no sign: -100, +100
  // (sum 0), +1e-12 is one change at most, from -100 to nothing: zero changes.
  EXPECT_EQ(cumulative_saving_sign_changes({-100, 100, 1e-12}, {0, 50, 100}), 0);
}

TEST(SavingSignChanges, theRateAboveZeroIsTakenWhereARootBelowZeroAlsoExists) {
  // Saving -100, +80, +80, -20 (a removal cost at the end): the running sum -100, -20, +60,
  // +40 changes sign once; the NPV is +40 at 0 %, -92 at +1000 % and -1.9e7 at -99 % (the
  // last flow dominates as r -> -1): a root on each side of 0. The first from -99 % up
  // (-78.40 %) is no rate of return; Norstrom's is the one above 0: -100 + 80 d + 80 d^2 - 20
  // d^3 = 0 at d = 1 / 1.29771 (Python bisection 0.29770947389808883; check d = 0.770588:
  // 61.647 + 47.505 - 9.152 = 100.0).
  const std::vector<double> saving = {-100, 80, 80, -20};
  const Pair p = pair_of(saving);
  EXPECT_EQ(saving_sign_changes(saving, p.rented.total), 2);
  EXPECT_EQ(cumulative_saving_sign_changes(saving, p.rented.cumulative), 1);
  const auto lowest = internal_rate_of_return(saving);
  ASSERT_TRUE(lowest);
  EXPECT_NEAR(*lowest, -0.7840468405277439, 1e-9);
  const auto above_zero = internal_rate_of_return(saving, 0.0);
  ASSERT_TRUE(above_zero);
  EXPECT_NEAR(*above_zero, 0.29770947389808883, 1e-9);
  EXPECT_THROW(internal_rate_of_return(saving, -1.0), EngineError);
}

TEST(SavingSignChanges, aLeadOfSeveralMonthsIsReportedAsItsSpan) {
  // Saving -100, +60, +60, +10, -60 x 2: cumulative -100, -40, +20, +30, -30, -90. Owning at
  // or below in months 2-3, dearer from month 4 to the end.
  const std::vector<double> saving = {-100, 60, 60, 10, -60, -60};
  const Pair p = pair_of(saving);
  EXPECT_FALSE(break_even_month(p.owned, p.rented));
  const auto ahead = ahead_then_behind(p.owned, p.rented);
  ASSERT_TRUE(ahead);
  EXPECT_EQ(ahead->first, 2);
  EXPECT_EQ(ahead->last, 3);
  // Never dearer: no break-even (n/a) and no lead lost.
  const Pair cheaper = pair_of({0, 10, 10});
  EXPECT_FALSE(break_even_month(cheaper.owned, cheaper.rented));
  EXPECT_FALSE(ahead_then_behind(cheaper.owned, cheaper.rented));
  // A month-0 tie, then dearer to the end: no lead (month 0 is the start).
  const Pair tie = pair_of({0, -10, -10});
  EXPECT_FALSE(break_even_month(tie.owned, tie.rented));
  EXPECT_FALSE(ahead_then_behind(tie.owned, tie.rented));
}

}  // namespace
}  // namespace gputco
