// The cost lines a finance team adds (issue #16): staff and operations, software licences,
// support contracts, insurance and colocation extras, each hand-computed through
// option_cash_flow, with the VAT each carries and "not entered" where a line was left out.
#include <gtest/gtest.h>

#include <numeric>

#include "engine/base/error.hpp"
#include "engine/finance/cost_lines.hpp"
#include "engine/plan/plan.hpp"

namespace gputco {
namespace {

Device card() {
  Device d;
  d.id = "card";
  d.name = "Card";
  d.memory_nameplate_gb = 24;
  d.bandwidth_gbps = 936;
  d.board_power_w = 350;
  return d;
}

OptionInputs owned(int count, double price, double host) {
  OptionInputs o;
  o.id = "own";
  o.kind = OptionKind::buy;
  o.device = card();
  o.count = count;
  o.price_per_gpu = price;
  o.host_cost = host;
  return o;
}

WorkloadInputs workload() {
  WorkloadInputs w;
  w.hours_per_day = 8;
  w.days_per_month = 20;
  return w;
}

FinanceInputs finance(int months) {
  FinanceInputs f;
  f.horizon_months = months;
  f.discount_rate_per_year = 0;
  return f;
}

double sum(const std::vector<double>& xs) {
  return std::accumulate(xs.begin(), xs.end(), 0.0);
}

TEST(CostLines, staffIsHoursTimesRatePlusShareOfEmployeesTimesSalary) {
  CostLines l;
  l.staff_hours_per_month = 10;
  l.staff_rate_per_hour = 80;
  l.staff_fte = 0.25;
  l.staff_salary_per_year = 96000;
  // 10 h x 80 = 800; 0.25 x 96,000 / 12 = 2,000; 2,800 a month.
  EXPECT_DOUBLE_EQ(staff_per_month(l), 2800);
  OptionInputs o = owned(4, 700, 1500);
  o.cost_lines = l;
  const CashFlow cf = option_cash_flow(o, workload(), SiteInputs{}, finance(12));
  EXPECT_DOUBLE_EQ(cf.staff[0], 0) << "running costs are paid in arrears: nothing at the start";
  EXPECT_DOUBLE_EQ(cf.staff[1], 2800);
  EXPECT_DOUBLE_EQ(cf.staff[12], 2800);
  // 12 x 2,800 = 33,600 on top of the 4 x 700 + 1,500 = 4,300 capex.
  EXPECT_DOUBLE_EQ(sum(cf.total), 4300 + 33600);
}

TEST(CostLines, licencesAndSupportAddMonthlyYearlyAndPerDeviceAmounts) {
  CostLines l;
  l.licence_per_month = 50;
  l.licence_per_year = 1200;
  l.licence_per_gpu_per_year = 4500;  // an NVIDIA AI Enterprise-style subscription per GPU
  l.support_per_year = 2400;
  l.support_per_gpu_per_year = 300;
  // Licences: 50 + 1,200 / 12 + 4,500 x 4 devices / 12 = 50 + 100 + 1,500 = 1,650 a month.
  EXPECT_DOUBLE_EQ(licences_per_month(l, 4), 1650);
  // Support: 2,400 / 12 + 300 x 4 / 12 = 200 + 100 = 300 a month.
  EXPECT_DOUBLE_EQ(support_per_month(l, 4), 300);
  OptionInputs o = owned(4, 700, 1500);
  o.cost_lines = l;
  const CashFlow cf = option_cash_flow(o, workload(), SiteInputs{}, finance(24));
  EXPECT_DOUBLE_EQ(cf.licences[1], 1650);
  EXPECT_DOUBLE_EQ(cf.support[24], 300);
  EXPECT_DOUBLE_EQ(sum(cf.licences), 24 * 1650.0);
}

TEST(CostLines, perDeviceLinesFollowTheUnitsInService) {
  // Demand grows 50 % a month from one unit's capacity: month 1 needs 1 unit, month 2 1.5
  // (2 units), month 3 2.25 (3 units). Per-device support 1,200 a year on 2 devices a unit.
  WorkloadInputs w = workload();
  w.growth_per_month = 0.5;
  OptionInputs o = owned(2, 1000, 0);
  o.cost_lines.support_per_gpu_per_year = 1200;
  const CashFlow cf = option_cash_flow(o, w, SiteInputs{}, finance(3));
  ASSERT_DOUBLE_EQ(cf.units[3], 3);
  // 1,200 / 12 = 100 per device a month: 200 (1 unit), 400 (2 units), 600 (3 units).
  EXPECT_DOUBLE_EQ(cf.support[1], 200);
  EXPECT_DOUBLE_EQ(cf.support[2], 400);
  EXPECT_DOUBLE_EQ(cf.support[3], 600);
}

TEST(CostLines, anHourlyRentalCountsTheInstancesItsLoadNeeds) {
  // A rental by use carries a load of 1.5 instances in month 2 (growth 50 %): two instances
  // run at the busiest, so per-device licences count 2 x 1 device.
  WorkloadInputs w = workload();
  w.growth_per_month = 0.5;
  OptionInputs o;
  o.id = "rent";
  o.kind = OptionKind::rent_hourly;
  o.device = card();
  o.rate_per_gpu_hour = 2;
  o.cost_lines.licence_per_gpu_per_year = 1200;
  const CashFlow cf = option_cash_flow(o, w, SiteInputs{}, finance(2));
  EXPECT_DOUBLE_EQ(cf.licences[1], 100);  // load 1: one device, 1,200 / 12
  EXPECT_DOUBLE_EQ(cf.licences[2], 200);  // load 1.5: two devices
}

TEST(CostLines, insuranceIsAShareOfThePurchaseValueInService) {
  // 4 x 700 + 1,500 = 4,300 of hardware insured at 1.2 % a year: 4,300 x 0.012 / 12 = 4.30.
  OptionInputs o = owned(4, 700, 1500);
  o.cost_lines.insurance_per_year = 0.012;
  const CashFlow cf = option_cash_flow(o, workload(), SiteInputs{}, finance(36));
  EXPECT_NEAR(cf.insurance[1], 4.30, 1e-12);
  EXPECT_NEAR(sum(cf.insurance), 36 * 4.30, 1e-9);
  // Leased hardware is insured by the lessee too: the same value, no capex.
  o.financing = Financing::lease;
  o.lease_rate_per_month = 0.03;
  const CashFlow leased = option_cash_flow(o, workload(), SiteInputs{}, finance(36));
  EXPECT_DOUBLE_EQ(leased.capex[0], 0);
  EXPECT_NEAR(leased.insurance[1], 4.30, 1e-12);
}

TEST(CostLines, colocationExtrasArePerUnitInTheRack) {
  OptionInputs o = owned(8, 25000, 40000);
  o.hosting = Hosting::colocation;
  o.colo_per_kw_month = 150;
  o.contracted_kw = 6;
  o.cost_lines.colo_extras_per_month = 180;  // remote hands and a cross-connect
  const CashFlow cf = option_cash_flow(o, workload(), SiteInputs{}, finance(12));
  EXPECT_DOUBLE_EQ(cf.hosting[1], 900);  // 150 x 6 kW
  EXPECT_DOUBLE_EQ(cf.colo_extras[1], 180);
  EXPECT_DOUBLE_EQ(sum(cf.colo_extras), 12 * 180.0);
  // On site, the same key is no line of the option (the parser refuses it; the engine keeps 0).
  o.hosting = Hosting::on_site;
  EXPECT_DOUBLE_EQ(sum(option_cash_flow(o, workload(), SiteInputs{}, finance(12)).colo_extras), 0);
}

TEST(CostLines, vatFallsOnLicencesSupportAndExtrasNotOnStaffOrInsurance) {
  OptionInputs o = owned(1, 1000, 0);
  o.hosting = Hosting::colocation;
  o.power_metered = false;
  o.cost_lines.staff_hours_per_month = 2;
  o.cost_lines.staff_rate_per_hour = 100;   // 200 a month, wages: no VAT
  o.cost_lines.insurance_per_year = 0.12;   // 1,000 x 0.12 / 12 = 10 a month, exempt
  o.cost_lines.licence_per_month = 30;      // VAT
  o.cost_lines.support_per_month = 20;      // VAT
  o.cost_lines.colo_extras_per_month = 50;  // VAT
  FinanceInputs f = finance(1);
  f.vat_rate = 0.2;
  f.vat_reclaimable = false;
  const CashFlow cf = option_cash_flow(o, workload(), SiteInputs{}, f);
  // Month 0: 20 % of the 1,000 capex; month 1: 20 % of 30 + 20 + 50 = 20.
  EXPECT_DOUBLE_EQ(cf.vat[0], 200);
  EXPECT_DOUBLE_EQ(cf.vat[1], 20);
  EXPECT_DOUBLE_EQ(cf.total[1], 200 + 10 + 30 + 20 + 50 + 20);
}

TEST(CostLines, linesNotEnteredAreNamedNeverSilentlyZero) {
  CostLines none;
  EXPECT_EQ(cost_lines_not_entered(none, {true, true, true}),
            (std::vector<std::string>{"staff and operations", "software licences",
                                      "support contracts", "insurance", "colocation extras"}));
  // A rental has no insurance or colocation of its own to leave out.
  EXPECT_EQ(cost_lines_not_entered(none, {true, false, false}).size(), 3u);
  CostLines some;
  some.staff_fte = 0.1;
  some.staff_salary_per_year = 90000;
  some.licence_per_gpu_per_year = 0;  // entered as 0: entered
  EXPECT_EQ(cost_lines_not_entered(some, {true, false, false}),
            std::vector<std::string>{"support contracts"});
  // The plan lists them per option.
  PlanInputs in;
  in.model.id = "m";
  OptionInputs api;
  api.id = "api";
  api.kind = OptionKind::api;
  api.input_price_per_million = 1;
  api.output_price_per_million = 2;
  api.cost_lines.support_per_month = 10;
  in.options = {api};
  in.workload = workload();
  in.workload.tokens_per_day = 1e6;
  in.workload.input_tokens_per_output_token = 2;
  const Plan plan = make_plan(in);
  EXPECT_EQ(plan.options[0].cost_lines_not_entered,
            (std::vector<std::string>{"staff and operations", "software licences"}));
  EXPECT_DOUBLE_EQ(plan.options[0].cash_flow.support[1], 10);
}

TEST(CostLines, aHalfEnteredStaffPairOrANegativeAmountIsRefused) {
  CostLines l;
  l.staff_hours_per_month = 10;
  EXPECT_THROW(validate_cost_lines(l, "own"), EngineError);
  CostLines negative;
  negative.licence_per_year = -1;
  EXPECT_THROW(validate_cost_lines(negative, "own"), EngineError);
  CostLines too_much;
  too_much.insurance_per_year = 1.5;
  EXPECT_THROW(validate_cost_lines(too_much, "own"), EngineError);
}

TEST(CostLines, aLoanSplitsItsInstalmentsIntoInterestAndPrincipal) {
  // 12,000 over 12 months at 12 % a year (1 % a month): PMT = 0.01 x 12,000 / (1 - 1.01^-12)
  // = 1,066.19; the first instalment's interest is 1 % of 12,000 = 120, the second 1 % of
  // what is owed after it (12,000 x 1.01 - 1,066.19 = 11,053.81): 110.54.
  OptionInputs o = owned(1, 12000, 0);
  o.financing = Financing::loan;
  o.loan_rate_per_year = 0.12;
  o.loan_term_months = 12;
  const CashFlow cf = option_cash_flow(o, workload(), SiteInputs{}, finance(12));
  EXPECT_NEAR(cf.financing[1], 1066.1855, 1e-4);
  EXPECT_NEAR(cf.interest[1], 120, 1e-9);
  EXPECT_NEAR(cf.interest[2], 110.5381, 1e-4);
  // The interest of the whole loan is what the financing rows cost beyond the principal.
  EXPECT_NEAR(sum(cf.interest), sum(cf.financing), 1e-9);
  EXPECT_NEAR(sum(cf.interest), 12 * 1066.1855 - 12000, 1e-3);
}

}  // namespace
}  // namespace gputco
