// The P&L view beside the cash flow (issue #16 item 2): per plan year, operating expenses,
// depreciation, interest and the disposal, reconciled with the cash by the named items (capex
// less depreciation, the loan's principal, the book value written off), summing to the cash
// over the horizon; the lease as an operating lease; the tax schedule apart from the book's.
#include <gtest/gtest.h>

#include <numeric>

#include "engine/money/books.hpp"
#include "engine/plan/plan.hpp"
#include "tests/unit/engine_books_fixture.hpp"
#include "tests/unit/engine_sensitivity_fixture.hpp"

namespace gputco {
namespace {

OptionInputs owned() {
  return test::owned_ten_thousand();
}

WorkloadInputs workload() {
  WorkloadInputs w;
  w.hours_per_day = 0;  // no energy: the running cost is the maintenance alone
  w.days_per_month = 20;
  return w;
}

FinanceInputs finance(int months, int useful_life_months) {
  FinanceInputs f;
  f.horizon_months = months;
  f.discount_rate_per_year = 0;
  f.useful_life_months = useful_life_months;
  return f;
}

using test::sum;

/// cash = total + capex - depreciation + loan principal - book value written off, each year.
void expect_reconciled(const ProfitAndLoss& p) {
  ASSERT_EQ(p.cash.size(), p.total.size());
  for (size_t y = 0; y < p.total.size(); ++y) {
    const double reconciled = p.total[y] + p.capex[y] - p.depreciation[y] + p.loan_principal[y] -
                              p.book_value_written_off[y];
    EXPECT_NEAR(p.cash[y], reconciled, 1e-9 * std::max(1.0, std::abs(p.cash[y]))) << "year " << y;
  }
  EXPECT_NEAR(sum(p.total), sum(p.cash), 1e-9 * std::max(1.0, std::abs(sum(p.cash))))
      << "the P&L sums to the cash over the horizon";
}

TEST(ProfitAndLoss, depreciationInsteadOfCapexAndAGainOnDisposal) {
  const OptionInputs o = owned();
  const FinanceInputs f = finance(36, 48);  // a 4-year book life on a 3-year plan
  const CashFlow cf = option_cash_flow(o, workload(), SiteInputs{}, f);
  const ProfitAndLoss p = profit_and_loss(o, cf, f);
  ASSERT_EQ(p.total.size(), 3u);
  // Operating expenses: the maintenance, 50 a month, 600 a year.
  EXPECT_NEAR(p.operating_expenses[0], 600, 1e-9);
  // Book depreciation 10,000 / 48 a month = 2,500 a year; after three years 2,500 is still on
  // the books and is written off against the 3,000 of resale: a gain of 500.
  EXPECT_NEAR(p.depreciation[0], 2500, 1e-9);
  EXPECT_NEAR(p.depreciation[2], 2500, 1e-9);
  EXPECT_NEAR(p.book_value_written_off[2], 2500, 1e-9);
  EXPECT_NEAR(p.disposal[2], -500, 1e-9);
  EXPECT_NEAR(p.book_value[1], 5000, 1e-9);
  EXPECT_EQ(p.book_value[2], 0) << "sold at the horizon";
  // P&L: 600 + 2,500 = 3,100 a year, 3,100 - 500 in the last; cash: 10,600, 600, 600 - 3,000.
  EXPECT_NEAR(p.total[0], 3100, 1e-9);
  EXPECT_NEAR(p.total[2], 2600, 1e-9);
  EXPECT_NEAR(p.cash[0], 10600, 1e-9);
  EXPECT_NEAR(p.cash[2], -2400, 1e-9);
  // 8,800 either way: 10,000 - 3,000 + 36 x 50.
  EXPECT_NEAR(sum(p.total), 8800, 1e-9);
  expect_reconciled(p);
}

TEST(ProfitAndLoss, aLoanShowsItsInterestAndReconcilesItsPrincipal) {
  OptionInputs o = owned();
  o.financing = Financing::loan;
  o.loan_rate_per_year = 0.06;
  o.loan_term_months = 48;  // longer than the plan: the balance is paid at the horizon
  o.down_payment_fraction = 0.2;
  const FinanceInputs f = finance(36, 36);
  const CashFlow cf = option_cash_flow(o, workload(), SiteInputs{}, f);
  const ProfitAndLoss p = profit_and_loss(o, cf, f);
  // 8,000 borrowed at 0.5 % a month: the first year's interest is 0.5 % of the balance owed
  // before each of its twelve instalments, the first 40.
  EXPECT_NEAR(cf.interest[1], 40, 1e-9);
  EXPECT_NEAR(p.interest[0], sum({cf.interest.begin(), cf.interest.begin() + 13}), 1e-9);
  // Year 1's principal: -8,000 drawn at the start, then the instalments less their interest.
  EXPECT_NEAR(p.loan_principal[0],
              sum({cf.financing.begin(), cf.financing.begin() + 13}) - p.interest[0], 1e-9);
  EXPECT_LT(p.loan_principal[0], 0);
  // Over the horizon the principal nets to 0 and the financing costs its interest.
  EXPECT_NEAR(sum(p.loan_principal), 0, 1e-9);
  EXPECT_NEAR(sum(p.interest), sum(cf.financing), 1e-9);
  expect_reconciled(p);
}

TEST(ProfitAndLoss, aLeaseIsAnOperatingExpense) {
  OptionInputs o = owned();
  o.financing = Financing::lease;
  o.lease_rate_per_month = 0.03;  // 300 a month
  o.lease_term_months = 36;
  const FinanceInputs f = finance(36, 36);
  const CashFlow cf = option_cash_flow(o, workload(), SiteInputs{}, f);
  const ProfitAndLoss p = profit_and_loss(o, cf, f);
  // 12 x (300 + 50 maintenance) = 4,200 a year; nothing capitalised, nothing to depreciate,
  // no tax depreciation (the lessor's asset); no resale (the engine's lease has none).
  EXPECT_NEAR(p.operating_expenses[0], 4200, 1e-9);
  EXPECT_NEAR(sum(p.depreciation), 0, 1e-12);
  EXPECT_NEAR(sum(p.tax_depreciation), 0, 1e-12);
  EXPECT_NEAR(p.disposal[2], 0, 1e-12);
  expect_reconciled(p);
}

TEST(ProfitAndLoss, taxDepreciationPerAssetClassApartFromTheBook) {
  FinanceInputs f = finance(36, 36);
  f.tax_devices.method = TaxDepreciationMethod::declining_balance;
  f.tax_devices.life_years = 5;
  f.tax_devices.factor = 2;
  f.tax_host.life_years = 3;  // straight line
  const OptionInputs o = owned();
  const CashFlow cf = option_cash_flow(o, workload(), SiteInputs{}, f);
  const ProfitAndLoss p = profit_and_loss(o, cf, f);
  // Devices, 8,000 double declining over 5 years (=VDB(8000;0;5;y-1;y;2;0)): 3,200, 1,920,
  // 1,152; the host, 2,000 over 3 years: 666.67 a year.
  EXPECT_NEAR(p.tax_depreciation_devices[0], 3200, 1e-9);
  EXPECT_NEAR(p.tax_depreciation_devices[1], 1920, 1e-9);
  EXPECT_NEAR(p.tax_depreciation_devices[2], 1152, 1e-9);
  EXPECT_NEAR(p.tax_depreciation_host[2], 2000.0 / 3, 1e-9);
  // What the tax books still hold after three years: 8,000 - 6,272 = 1,728 of the devices.
  EXPECT_NEAR(p.tax_written_down_value[2], 1728, 1e-9);
  // The book schedule is the straight line over 36 months all the same: 3,333.33 a year.
  EXPECT_NEAR(p.depreciation[0], 10000.0 / 3, 1e-9);
  expect_reconciled(p);
}

TEST(ProfitAndLoss, everyKindAndFinancingSumsToTheCashOverTheHorizon) {
  // A plan with growth (units added later, paid cash), VAT not reclaimable, the cost lines,
  // and each financing: the P&L of every option sums to its cash over the horizon.
  PlanInputs in = test::tiny_plan();  // Llama 3.1 8B at Q4_K_M
  in.workload.hours_per_day = 8;
  in.workload.days_per_month = 21;
  in.workload.growth_per_month = 0.05;
  in.workload.tokens_per_day = 3e6;
  in.workload.input_tokens_per_output_token = 2;
  in.site.tariff_per_kwh = 0.25;
  in.finance = finance(30, 40);
  in.finance.vat_rate = 0.19;
  in.finance.vat_reclaimable = false;
  OptionInputs cash = owned();
  cash.cost_lines.staff_fte = 0.1;
  cash.cost_lines.staff_salary_per_year = 90000;
  cash.cost_lines.insurance_per_year = 0.01;
  OptionInputs loan = owned();
  loan.id = "loan";
  loan.financing = Financing::loan;
  loan.loan_rate_per_year = 0.07;
  loan.loan_term_months = 24;
  OptionInputs lease = owned();
  lease.id = "lease";
  lease.financing = Financing::lease;
  lease.lease_rate_per_month = 0.035;
  OptionInputs rent;
  rent.id = "rent";
  rent.kind = OptionKind::rent_hourly;
  rent.device = test::books_card();
  rent.rate_per_gpu_hour = 2.5;
  rent.cost_lines.licence_per_gpu_per_year = 1000;
  OptionInputs api;
  api.id = "api";
  api.kind = OptionKind::api;
  api.input_price_per_million = 0.2;
  api.output_price_per_million = 0.6;
  in.options = {cash, loan, lease, rent, api};
  const Plan plan = make_plan(in);
  for (const OptionResult& r : plan.options) {
    SCOPED_TRACE(r.id);
    expect_reconciled(r.profit_and_loss);
    EXPECT_NEAR(sum(r.profit_and_loss.cash), r.total_cost, 1e-9 * std::abs(r.total_cost));
  }
  // Growth added units after month 0: their capex is in later years, and so is their tax.
  EXPECT_GT(plan.options[0].profit_and_loss.capex.back(), 0);
}

}  // namespace
}  // namespace gputco
