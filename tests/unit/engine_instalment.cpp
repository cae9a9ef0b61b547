// The monthly instalment of a financed purchase (engine/money/instalment.hpp): the figure a
// customer signs for, hand-computed, and the cash flow's financing row it must equal.
#include <gtest/gtest.h>

#include "engine/money/cash_flow.hpp"
#include "engine/money/instalment.hpp"

namespace gputco {
namespace {

OptionInputs eight_h200(Financing financing) {
  OptionInputs o;
  o.id = "h200-lease";
  o.kind = OptionKind::buy;
  o.device.id = "h200";
  o.device.board_power_w = 700;
  o.count = 8;
  o.price_per_gpu = 35000;  // DOMAIN E4: H200 35,000-45,000 USD (2026), the low end
  o.host_cost = 10000;
  o.financing = financing;
  return o;
}

WorkloadInputs office_hours() {
  WorkloadInputs w;
  w.hours_per_day = 10;
  w.days_per_month = 21;
  return w;
}

FinanceInputs months(int horizon) {
  FinanceInputs f;
  f.horizon_months = horizon;
  f.useful_life_months = 36;
  return f;
}

TEST(FinancingInstalment, aLeaseChargesItsRateOnTheHardwarePriceEveryMonth) {
  // Issue #37's US reseller: 8 x H200 leased at 3.05 % a month of the hardware price:
  // (8 x 35,000 + 10,000) x 0.0305 = 290,000 x 0.0305 = 8,845 USD a month.
  OptionInputs o = eight_h200(Financing::lease);
  o.lease_rate_per_month = 0.0305;
  o.lease_term_months = 36;
  const CashFlow cf = option_cash_flow(o, office_hours(), SiteInputs{}, months(36));
  const auto instalment = financing_instalment(o, cf);
  ASSERT_TRUE(instalment.has_value());
  EXPECT_EQ(instalment->financing, Financing::lease);
  EXPECT_NEAR(instalment->per_month, 8845.0, 1e-9);
  EXPECT_EQ(instalment->months, 36);
  EXPECT_EQ(instalment->down_payment, 0.0);
  EXPECT_DOUBLE_EQ(instalment->rate, 0.0305);
  // The fee the Cash flow charges in month 1 is the same figure.
  EXPECT_NEAR(cf.financing.at(1), instalment->per_month, 1e-9);
}

TEST(FinancingInstalment, aLoanRepaysWhatTheDownPaymentLeavesAsAnAnnuity) {
  // 290,000 with 20 % down: 58,000 at the start, 232,000 repaid over 36 months at 6.5 % a
  // year (r = 0.065 / 12 = 0.00541667): PMT = r P / (1 - (1 + r)^-36)
  // = 1256.6667 / (1 - 1.00541667^-36) = 1256.6667 / (1 - 0.823268) = 1256.6667 / 0.176732
  // = 7,110.57 (the spreadsheet's PMT(0.065/12, 36, -232000) = 7110.57).
  OptionInputs o = eight_h200(Financing::loan);
  o.down_payment_fraction = 0.2;
  o.loan_rate_per_year = 0.065;
  o.loan_term_months = 36;
  const CashFlow cf = option_cash_flow(o, office_hours(), SiteInputs{}, months(36));
  const auto instalment = financing_instalment(o, cf);
  ASSERT_TRUE(instalment.has_value());
  EXPECT_EQ(instalment->financing, Financing::loan);
  EXPECT_NEAR(instalment->per_month, 7110.57, 0.01);
  EXPECT_NEAR(instalment->down_payment, 58000.0, 1e-9);
  EXPECT_EQ(instalment->months, 36);
  EXPECT_NEAR(cf.financing.at(1), instalment->per_month, 1e-9);
}

TEST(FinancingInstalment, cashPurchasesAndRentalsHaveNone) {
  const OptionInputs cash = eight_h200(Financing::cash);
  const CashFlow cf = option_cash_flow(cash, office_hours(), SiteInputs{}, months(36));
  EXPECT_FALSE(financing_instalment(cash, cf).has_value());
  OptionInputs rent;
  rent.id = "rent";
  rent.kind = OptionKind::rent_monthly;
  rent.price_per_month = 1000;
  rent.financing = Financing::lease;  // meaningless for a rental: still none
  EXPECT_FALSE(financing_instalment(rent, CashFlow{}).has_value());
}

}  // namespace
}  // namespace gputco
