// Every option of the financial model through option_cash_flow, hand-computed, with the
// spreadsheet function that gives the same value where there is one; DOMAIN E cases; and the
// properties a finance team relies on.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "engine/base/error.hpp"
#include "engine/finance/finance.hpp"
#include "engine/plan/plan.hpp"

namespace gputco {
namespace {

Device card(double power_w = 350, double memory_gb = 24) {
  Device d;
  d.id = "card";
  d.name = "Card";
  d.memory_nameplate_gb = memory_gb;
  d.bandwidth_gbps = 936;
  d.board_power_w = power_w;
  return d;
}

OptionInputs buy(double price, int count = 1) {
  OptionInputs o;
  o.id = "own";
  o.kind = OptionKind::buy;
  o.device = card();
  o.count = count;
  o.price_per_gpu = price;
  return o;
}

OptionInputs hourly(double rate, int count = 1) {
  OptionInputs o;
  o.id = "rent";
  o.kind = OptionKind::rent_hourly;
  o.device = card();
  o.count = count;
  o.rate_per_gpu_hour = rate;
  return o;
}

WorkloadInputs workload(double hours_per_day, double days_per_month) {
  WorkloadInputs w;
  w.hours_per_day = hours_per_day;
  w.days_per_month = days_per_month;
  return w;
}

FinanceInputs finance(int months, double rate = 0) {
  FinanceInputs f;
  f.horizon_months = months;
  f.discount_rate_per_year = rate;
  return f;
}

double sum(const std::vector<double>& xs) {
  return std::accumulate(xs.begin(), xs.end(), 0.0);
}

const SiteInputs kFreePower{0.0, 1.0};

/// A plan of a 1 B model (16 layers, hidden 2,048, 16 heads, 8 KV heads of 128, Q4_K_M) at
/// `w`; the caller sets the site, finance and options.
PlanInputs one_billion_model_at(const WorkloadInputs& w) {
  PlanInputs in;
  in.model.id = "m";
  in.model.params_b = 1;
  in.model.active_params_b = 1;
  in.model.layers = 16;
  in.model.hidden = 2048;
  in.model.heads = 16;
  in.model.kv_heads = 8;
  in.model.head_dim = 128;
  in.quant = Quant{"Q4_K_M", 4.85, "block"};
  in.workload = w;
  return in;
}

TEST(UsedMarket, failuresCostNothingWithinTheWarrantyThenRateOverTwelve) {
  // 4 used cards at 700, 6 % failing a year after a 3-month warranty:
  // 0.06 / 12 x 4 x 700 = 14 per month from month 4.
  auto own = buy(700, 4);
  own.condition = Condition::used;
  own.warranty_months = 3;
  own.annual_failure_rate = 0.06;
  const auto cf = option_cash_flow(own, workload(8, 30), kFreePower, finance(12));
  EXPECT_DOUBLE_EQ(cf.failures[3], 0);
  EXPECT_NEAR(cf.failures[4], 14, 1e-12);
  EXPECT_NEAR(sum(cf.failures), 9 * 14, 1e-9);
}

TEST(Colocation, perKwAndPerRackUnitAndTheDataCentresPue) {
  // One unit: 2 x 700 W + 400 W host = 1.8 kW at load. Contract 2 kW at 150 a kW-month and
  // 4 U at 20: 2 x 150 + 4 x 20 = 380 per month. Energy metered at 0.30 with PUE 1.5:
  // 1.8 kW x 10 h x 30 d x 0.30 x 1.5 = 243 per month.
  auto own = buy(25000, 2);
  own.device = card(700, 80);
  own.host_power_w = 400;
  own.hosting = Hosting::colocation;
  own.colo_per_kw_month = 150;
  own.contracted_kw = 2;
  own.colo_per_rack_unit_month = 20;
  own.rack_units = 4;
  own.pue = 1.5;
  own.tariff_per_kwh = 0.30;
  const SiteInputs office{0.10, 1.0};  // not used: the rack has its own
  auto cf = option_cash_flow(own, workload(10, 30), office, finance(3));
  EXPECT_DOUBLE_EQ(cf.hosting[0], 0);
  EXPECT_NEAR(cf.hosting[1], 380, 1e-9);
  EXPECT_NEAR(cf.energy[2], 243, 1e-9);
  // Power in the kW fee: no energy row.
  own.power_metered = false;
  cf = option_cash_flow(own, workload(10, 30), office, finance(3));
  EXPECT_DOUBLE_EQ(sum(cf.energy), 0);
}

TEST(Spot, billedHoursAreHoursOfUseOverGoodput) {
  // 2.00 per hour, 200 h of use, 80 % goodput: 200 / 0.8 = 250 billed hours = 500.
  auto spot = hourly(2.0);
  spot.term = RentTerm::spot;
  spot.goodput = 0.8;
  const auto cf = option_cash_flow(spot, workload(10, 20), kFreePower, finance(2));
  EXPECT_NEAR(cf.rent[1], 500, 1e-9);
}

TEST(Reserved, billedEveryHourAndTheUnexpiredTermIsOwed) {
  // 1-year term at 1.00 per hour, 730 h months, used 2 h a day: 730 per month whatever the
  // use. Horizon 18 months: the renewal at month 13 runs to month 24, so 6 months x 730 are
  // owed at month 18.
  auto reserved = hourly(1.0);
  reserved.term = RentTerm::reserved_1y;
  const auto cf = option_cash_flow(reserved, workload(2, 30), kFreePower, finance(18));
  EXPECT_DOUBLE_EQ(cf.rent[0], 0);
  EXPECT_DOUBLE_EQ(cf.rent[1], 730);
  EXPECT_DOUBLE_EQ(cf.rent[17], 730);
  EXPECT_DOUBLE_EQ(cf.rent[18], 730 + 6 * 730);
  // The 720-hour convention bills 720.
  WorkloadInputs w720 = workload(2, 30);
  w720.hours_per_month_convention = HoursConvention::h720;
  EXPECT_DOUBLE_EQ(option_cash_flow(reserved, w720, kFreePower, finance(12)).rent[12], 720);
}

TEST(Reserved, calendarMonthsBillTheirDays) {
  // Starting January 2028 (a leap year): 31 x 24 = 744, February 29 x 24 = 696.
  auto reserved = hourly(1.0);
  reserved.term = RentTerm::reserved_3y;
  WorkloadInputs w = workload(8, 20);
  w.hours_per_month_convention = HoursConvention::calendar;
  FinanceInputs f = finance(36);
  f.start_year = 2028;
  f.start_month = 1;
  const auto cf = option_cash_flow(reserved, w, kFreePower, f);
  EXPECT_DOUBLE_EQ(cf.rent[1], 744);
  EXPECT_DOUBLE_EQ(cf.rent[2], 696);
  EXPECT_DOUBLE_EQ(cf.rent[14], 28 * 24);  // February 2029
  EXPECT_DOUBLE_EQ(hours_in_month(w, f, 12), 31 * 24);
  // Days of use that follow the calendar: 8 h x 29 days in February 2028.
  w.days_follow_convention = true;
  auto on_demand = hourly(1.0);
  EXPECT_DOUBLE_EQ(option_cash_flow(on_demand, w, kFreePower, f).rent[2], 8 * 29);
}

TEST(MonthlyServer, setupAtTheStartAndNoticeAfterTheHorizon) {
  // 540 a month, 100 setup, 2 months' notice given at the end of month 12: 2 x 540 more.
  OptionInputs server;
  server.id = "server";
  server.kind = OptionKind::rent_monthly;
  server.device = card();
  server.price_per_month = 540;
  server.setup_fee = 100;
  server.notice_months = 2;
  const auto cf = option_cash_flow(server, workload(8, 21), kFreePower, finance(12));
  EXPECT_DOUBLE_EQ(cf.rent[0], 100);
  EXPECT_DOUBLE_EQ(cf.rent[1], 540);
  EXPECT_DOUBLE_EQ(cf.rent[12], 540 + 2 * 540);
  EXPECT_DOUBLE_EQ(sum(cf.total), 100 + 14 * 540);
}

TEST(Loan, downPaymentThenAnnuityAndTheBalanceAtTheHorizon) {
  // Capex 12,500 = 10,000 + 2,500 host; 20 % down = 2,500; principal 10,000 at 6 % over 36
  // months: =PMT(0.06/12, 36, -10000) = 304.2194 a month. Horizon 12 months: the balance
  // still owed, =-FV(0.005, 12, -304.2194, 10000) = 6864.0610, is paid at month 12.
  auto own = buy(5000, 2);
  own.host_cost = 2500;
  own.financing = Financing::loan;
  own.down_payment_fraction = 0.2;
  own.loan_rate_per_year = 0.06;
  own.loan_term_months = 36;
  const auto cf = option_cash_flow(own, workload(0, 30), kFreePower, finance(12));
  EXPECT_DOUBLE_EQ(cf.capex[0], 12500);
  EXPECT_DOUBLE_EQ(cf.financing[0], -10000);
  EXPECT_NEAR(cf.financing[1], 304.2193745, 1e-6);
  EXPECT_NEAR(cf.financing[12], 304.2193745 + 6864.061049, 1e-5);
  // Cash at the start is the down payment; the whole loan is repaid within the horizon.
  EXPECT_NEAR(cf.total[0], 2500, 1e-9);
  EXPECT_NEAR(sum(cf.financing), 12 * 304.2193745 + 6864.061049 - 10000, 1e-5);
  // Depreciation stays on the full price: =SLN(12500, 0, 36) = 347.2222 a month.
  EXPECT_NEAR(cf.depreciation[1], 347.2222222, 1e-6);
}

TEST(Lease, feesInsteadOfCapexNoResaleAndTheTermOwed) {
  // Hardware worth 10,000 leased at 3 % a month for 24 months, horizon 12: 300 a month,
  // 12 more fees owed at month 12; no capex, resale or depreciation.
  auto own = buy(10000);
  own.financing = Financing::lease;
  own.lease_rate_per_month = 0.03;
  own.lease_term_months = 24;
  own.residual_fraction = 0.5;
  const auto cf = option_cash_flow(own, workload(0, 30), kFreePower, finance(12));
  EXPECT_DOUBLE_EQ(sum(cf.capex), 0);
  EXPECT_DOUBLE_EQ(cf.financing[1], 300);
  EXPECT_DOUBLE_EQ(cf.financing[12], 300 + 12 * 300);
  EXPECT_DOUBLE_EQ(sum(cf.resale), 0);
  EXPECT_DOUBLE_EQ(sum(cf.depreciation), 0);
}

TEST(Lease, aTermShorterThanTheHorizonIsRenewedAndThePlanSaysSo) {
  // Hardware worth 10,000 leased at 3 % a month for 12 months, horizon 36: it serves all 36
  // months, so the fee of 300 is paid in each (36 x 300 = 10,800), and the plan warns that the
  // lease is renewed for the other 24 months (a newcomer read "12 instalments" as the cost).
  PlanInputs in = one_billion_model_at(workload(10, 30));
  in.site = kFreePower;
  in.finance = finance(36);
  auto own = buy(10000);
  own.financing = Financing::lease;
  own.lease_rate_per_month = 0.03;
  own.lease_term_months = 12;
  in.options = {own, hourly(0.50)};
  const Plan plan = make_plan(in);
  const auto& lease = plan.options[0];
  EXPECT_DOUBLE_EQ(lease.cash_flow.financing[36], 300);
  EXPECT_NEAR(sum(lease.cash_flow.financing), 36 * 300, 1e-9);
  const auto says = [](const std::vector<std::string>& warnings, const std::string& text) {
    for (const auto& w : warnings) {
      if (w.find(text) != std::string::npos) return true;
    }
    return false;
  };
  EXPECT_TRUE(says(lease.warnings, "renews the lease at the same fee for the other 24 months"));
  in.options[0].lease_term_months = 36;  // a term as long as the horizon: nothing to say
  EXPECT_FALSE(says(make_plan(in).options[0].warnings, "renews the lease"));
}

TEST(Vat, aCostWhenNotReclaimableAndAbsentOtherwise) {
  // 19 % on capex 1,000 and on 30 kWh x 0.20 = 6 of energy a month; none on the resale.
  auto own = buy(1000);
  own.device = card(100);
  own.residual_fraction = 0.5;
  FinanceInputs f = finance(2);
  f.vat_rate = 0.19;
  f.vat_reclaimable = false;
  const SiteInputs site{0.20, 1.0};
  const auto cf = option_cash_flow(own, workload(10, 30), site, f);
  EXPECT_NEAR(cf.vat[0], 190, 1e-9);
  EXPECT_NEAR(cf.vat[1], 0.19 * 6, 1e-9);
  EXPECT_NEAR(cf.vat[2], 0.19 * 6, 1e-9);  // the resale of month 2 carries none
  f.vat_reclaimable = true;
  EXPECT_DOUBLE_EQ(sum(option_cash_flow(own, workload(10, 30), site, f).vat), 0);
}

TEST(Trends, rentFallsAndTariffRisesMonthByMonth) {
  // -15 % a year on hourly rent: month 13 pays 0.85 of month 1; +10 % a year on electricity.
  FinanceInputs f = finance(13);
  f.rent_trend_per_year = -0.15;
  const auto rent = option_cash_flow(hourly(1.0), workload(10, 30), kFreePower, f);
  EXPECT_NEAR(rent.rent[1], 300, 1e-9);
  EXPECT_NEAR(rent.rent[13], 300 * 0.85, 1e-9);
  EXPECT_NEAR(rent.rent[7], 300 * std::pow(0.85, 0.5), 1e-9);
  SiteInputs site{0.20, 1.0};
  site.tariff_trend_per_year = 0.10;
  auto own = buy(1000);
  own.device = card(1000);
  const auto cf = option_cash_flow(own, workload(10, 30), site, finance(13));
  EXPECT_NEAR(cf.energy[13], 300 * 0.20 * 1.10, 1e-9);
}

TEST(Growth, ownedHardwareAddsUnitsWhenTheLoadOutgrowsIt) {
  // Load 0.8 of one unit, +10 % a month: month 4 carries 0.8 x 1.1^3 = 1.0648 > 1: a second
  // unit (capex 1,000) at month 4; energy follows the load served.
  auto own = buy(1000);
  own.device = card(1000);
  own.capacity_tokens_per_hour = 1e6;
  WorkloadInputs w = workload(10, 30);
  w.tokens_per_day = 8e6;  // 8e6 / (1e6 x 10 h) = 0.8 of a unit
  w.growth_per_month = 0.10;
  const auto cf = option_cash_flow(own, w, SiteInputs{0.10, 1.0}, finance(6));
  EXPECT_NEAR(cf.load[1], 0.8, 1e-12);
  EXPECT_DOUBLE_EQ(cf.units[3], 1);
  EXPECT_DOUBLE_EQ(cf.units[4], 2);
  EXPECT_DOUBLE_EQ(cf.capex[4], 1000);
  EXPECT_NEAR(cf.energy[1], 0.8 * 1.0 * 300 * 0.10, 1e-9);  // 0.8 x 1 kW x 300 h x 0.10
  // Units added later are sold at the same fraction (conservative): resale of 2,000.
  own.residual_fraction = 0.5;
  EXPECT_NEAR(option_cash_flow(own, w, SiteInputs{0.10, 1.0}, finance(6)).resale[6], -1000, 1e-9);
}

TEST(Growth, hourlyRentAddsAnInstanceWhenTheDemandOutgrowsOne) {
  // Always on (the default): load 1, 1.05, 1.1025 -> 1, 2, 2 instances x 10 h x 30 days.
  auto rent = hourly(1.0);
  WorkloadInputs w = workload(10, 30);
  w.growth_per_month = 0.05;
  auto cf = option_cash_flow(rent, w, kFreePower, finance(3));
  EXPECT_NEAR(cf.rent[1], 300, 1e-9);
  EXPECT_NEAR(cf.rent[2], 600, 1e-9);
  EXPECT_NEAR(cf.rent[3], 600, 1e-9);
  // Autoscaled: hour by hour the whole instances the load needs (issue #43), ceil(1.1025) = 2
  // for the 10 h: 2 x 10 h x 30 days = 600, as always on here (no hour without use).
  rent.hourly_billing.billing = Billing::autoscaled;
  cf = option_cash_flow(rent, w, kFreePower, finance(3));
  EXPECT_NEAR(cf.rent[3], 600, 1e-9);
}

TEST(Blend, ownTheBaseLoadRentThePeaks) {
  // The owned card carries one unit; demand 1.5 units (tokens per day given) is rented half a
  // unit of the owned card's capacity from a rental twice as fast: 0.5 x (1e6 / 2e6) = 0.25
  // rental instance, billed as the rental is (always on, issue #21): ceil(0.25) = 1 instance
  // x 300 h x 4.00 per hour = 1,200 per month (per load-hour it was 0.25 x 300 x 4.00 = 300).
  PlanInputs in;
  in.workload = workload(10, 30);
  in.workload.tokens_per_day = 15e6;  // 1.5 x 1e6 tokens/h x 10 h
  in.finance = finance(3);
  auto own = buy(1000);
  own.capacity_tokens_per_hour = 1e6;
  own.overflow = Overflow::rent;
  own.overflow_option_id = "rent";
  own.blend = true;
  auto rent = hourly(4.0);
  rent.capacity_tokens_per_hour = 2e6;
  in.options = {own, rent};
  prepare_plan_inputs(in);
  const auto cf = option_cash_flow(in.options[0], in.workload, kFreePower, in.finance);
  EXPECT_DOUBLE_EQ(cf.units[2], 1);  // never buys more
  EXPECT_NEAR(cf.overflow_load[1], 0.5, 1e-12);
  EXPECT_NEAR(cf.rent[1], 1200, 1e-9);
  // A missing or unfit overflow option is refused.
  in.options[0].overflow_option_id = "nowhere";
  EXPECT_THROW(prepare_plan_inputs(in), EngineError);
}

TEST(Depreciation, straightLineAndBookValue) {
  // Capex 3,600 over 36 months: =SLN(3600, 0, 36) = 100 a month; book value after 12
  // months 2,400; nothing left to depreciate after month 36.
  auto own = buy(3600);
  FinanceInputs f = finance(40);
  const auto cf = option_cash_flow(own, workload(0, 30), kFreePower, f);
  EXPECT_DOUBLE_EQ(cf.depreciation[0], 0);
  EXPECT_NEAR(cf.depreciation[1], straight_line_depreciation(3600, 0, 36), 1e-12);
  EXPECT_NEAR(cf.book_value[12], 2400, 1e-9);
  EXPECT_NEAR(cf.depreciation[37], 0, 1e-9);
  EXPECT_NEAR(cf.book_value[40], 0, 1e-9);
  // Accounting, not cash: the total is capex only.
  EXPECT_NEAR(sum(cf.total), 3600, 1e-9);
}

TEST(Payback, interpolatedWithinTheMonth) {
  // -1,000 then +300 a month: -700, -400, -100, +200 -> 3 + 100/300 months.
  EXPECT_NEAR(*payback_months({-1000, 300, 300, 300, 300}), 3 + 1.0 / 3, 1e-12);
  EXPECT_FALSE(payback_months({-1000, 100, 100}).has_value());
  // Nothing invested at the start: no payback to measure (n/a), not month 0; the test read
  // the empty optional before (undefined behaviour, passing by chance).
  EXPECT_FALSE(payback_months({0, 10}).has_value());
}

// DOMAIN E2: $700 / $0.50 per hour = 1,400 hours; at 2 h/day that is ~700 days. Solved on
// the totals: the hours per day at which a 700 card (no electricity, no resale) costs the
// same as renting at 0.50 over 730 days (24 months of 365/12 days) is 1400 / 730 h/day.
TEST(DomainE2, breakEvenUtilizationSolvedOnTheTotals) {
  const auto w = workload(2, 365.0 / 12);
  const auto h = break_even_hours_per_day(buy(700), hourly(0.50), w, kFreePower, finance(24));
  ASSERT_TRUE(h.has_value());
  EXPECT_NEAR(*h * 730, 1400, 1e-6);
  EXPECT_NEAR(*break_even_hours(buy(700), hourly(0.50), kFreePower, finance(24)), 1400, 1e-9);
  // Renting costs less than the electricity of an hour: never.
  EXPECT_FALSE(
      break_even_hours_per_day(buy(700), hourly(0.05), w, SiteInputs{1.0, 1.0}, finance(24))
          .has_value());
}

// DOMAIN E3: 450 W x 8 h/day = 3.6 kWh/day; at $0.20/kWh about $263 a year.
TEST(DomainE3, electricityOfA4090EightHoursADay) {
  auto own = buy(1600);
  own.device = card(450);
  const auto cf =
      option_cash_flow(own, workload(8, 365.0 / 12), SiteInputs{0.20, 1.0}, finance(12));
  EXPECT_NEAR(sum(cf.energy), 262.8, 1e-9);
}

// DOMAIN E4: price per GB of memory from the capex of the option: four used RTX 3090 at $700
// = 2,800 for 96 GB = $29/GB; an H100 at ~$27,000 for 80 GB = $338/GB; L4 $2,500 / 24 GB.
TEST(DomainE4, pricePerGigabyteOfMemory) {
  const auto per_gb = [](const OptionInputs& o) {
    const auto cf = option_cash_flow(o, workload(0, 30), kFreePower, finance(1));
    return cf.capex[0] / (o.count * o.device.memory_nameplate_gb);
  };
  EXPECT_NEAR(per_gb(buy(700, 4)), 29.17, 0.01);
  auto h100 = buy(27000);
  h100.device = card(700, 80);
  EXPECT_NEAR(per_gb(h100), 337.5, 1e-9);
  auto l4 = buy(2500);
  l4.device = card(72, 24);
  EXPECT_NEAR(per_gb(l4), 104.17, 0.01);
}

// DOMAIN E5: four RTX 3090s at full power (1,400 W) plus ~150 W for the rest of a desktop draw
// 1.55 kW: more than the 1,440 W a 15 A / 120 V circuit carries continuously (80 %).
TEST(DomainE5, fourCardsAndTheDesktopAtTheWall) {
  auto rig = buy(700, 4);
  rig.host_power_w = 150;
  // One hour of use at 1 per kWh: the energy row is the power in kW.
  const auto cf = option_cash_flow(rig, workload(1, 1), SiteInputs{1.0, 1.0}, finance(1));
  EXPECT_NEAR(cf.energy[1], 1.55, 1e-12);
  EXPECT_GT(cf.energy[1] * 1000, 0.8 * 15 * 120);
}

// DOMAIN E6: light or irregular use favours renting, intensive daily use owning.
TEST(DomainE6, lightUseRentsIntensiveUseOwns) {
  auto own = buy(2000);
  own.maintenance_per_year = 0.05;
  const auto rent = hourly(0.50);
  const SiteInputs site{0.25, 1.0};
  const auto total = [&](const OptionInputs& o, double h) {
    return sum(option_cash_flow(o, workload(h, 21), site, finance(36)).total);
  };
  EXPECT_LT(total(rent, 1), total(own, 1));
  EXPECT_GT(total(rent, 16), total(own, 16));
}

OptionInputs everything_owned() {
  auto own = buy(1500, 2);
  own.host_cost = 800;
  own.host_power_w = 200;
  own.maintenance_per_year = 0.04;
  own.residual_fraction = 0.3;
  own.warranty_months = 6;
  own.annual_failure_rate = 0.05;
  own.hosting = Hosting::colocation;
  own.colo_per_kw_month = 150;
  own.contracted_kw = 1;
  own.colo_per_rack_unit_month = 20;
  own.rack_units = 4;
  own.pue = 1.4;
  own.tariff_per_kwh = 0.25;
  own.financing = Financing::loan;
  own.down_payment_fraction = 0.1;
  own.loan_rate_per_year = 0.07;
  own.loan_term_months = 48;
  own.capacity_tokens_per_hour = 1e6;
  own.overflow = Overflow::rent;
  own.overflow_option_id = "rent";
  return own;
}

PlanInputs everything() {
  PlanInputs in;
  in.workload = workload(9, 21);
  in.workload.tokens_per_day = 12e6;
  in.workload.growth_per_month = 0.03;
  in.site = SiteInputs{0.22, 1.2};
  in.site.tariff_trend_per_year = 0.04;
  in.finance = finance(36, 0.08);
  in.finance.rent_trend_per_year = -0.1;
  in.finance.vat_rate = 0.19;
  in.finance.vat_reclaimable = false;
  auto rent = hourly(2.5);
  rent.capacity_tokens_per_hour = 1.5e6;
  auto spot = hourly(1.5);
  spot.id = "spot";
  spot.term = RentTerm::spot;
  spot.goodput = 0.85;
  auto reserved = hourly(1.8);
  reserved.id = "reserved";
  reserved.term = RentTerm::reserved_1y;
  OptionInputs server;
  server.id = "server";
  server.kind = OptionKind::rent_monthly;
  server.device = card();
  server.price_per_month = 700;
  server.setup_fee = 200;
  server.notice_months = 1;
  auto lease = buy(1200, 2);
  lease.id = "lease";
  lease.financing = Financing::lease;
  lease.lease_rate_per_month = 0.035;
  lease.lease_term_months = 48;
  in.options = {everything_owned(), rent, spot, reserved, server, lease};
  // Capacities given: prepare_plan_inputs only links the overflow (no model to fit here).
  for (auto& o : in.options) {
    if (o.capacity_tokens_per_hour == 0) o.capacity_tokens_per_hour = 0.8e6;
  }
  prepare_plan_inputs(in);
  return in;
}

TEST(Properties, doublingEveryPriceDoublesEveryCost) {
  PlanInputs base = everything();
  PlanInputs doubled = base;
  doubled.site.tariff_per_kwh *= 2;
  for (auto& o : doubled.options) {
    for (double* price : {&o.price_per_gpu, &o.host_cost, &o.rate_per_gpu_hour, &o.price_per_month,
                          &o.setup_fee, &o.colo_per_kw_month, &o.colo_per_rack_unit_month}) {
      *price *= 2;
    }
    if (o.tariff_per_kwh) *o.tariff_per_kwh *= 2;
  }
  prepare_plan_inputs(doubled);  // the overflow rate follows the rental's
  for (size_t i = 0; i < base.options.size(); ++i) {
    const auto a = option_cash_flow(base.options[i], base.workload, base.site, base.finance);
    const auto b =
        option_cash_flow(doubled.options[i], doubled.workload, doubled.site, doubled.finance);
    for (size_t m = 0; m < a.total.size(); ++m) {
      EXPECT_NEAR(b.total[m], 2 * a.total[m], 1e-9 * std::max(1.0, std::abs(a.total[m])))
          << base.options[i].id << " month " << m;
      EXPECT_NEAR(b.depreciation[m], 2 * a.depreciation[m], 1e-9) << base.options[i].id;
    }
  }
}

TEST(Properties, zeroDiscountRateMakesNpvEqualTheTotal) {
  PlanInputs in = everything();
  in.finance.discount_rate_per_year = 0;
  for (const auto& o : in.options) {
    const auto cf = option_cash_flow(o, in.workload, in.site, in.finance);
    EXPECT_NEAR(sum(cf.discounted), sum(cf.total), 1e-9 * std::max(1.0, sum(cf.total))) << o.id;
  }
}

TEST(Properties, moreHoursNeverMakeRentingCheaperThanOwningPastTheBreakEven) {
  // A plain owned rig against an hourly rental: past the break-even utilization, owning
  // costs no more than renting, per hour of use and in total, at every higher utilization.
  auto own = buy(3000, 2);
  own.host_cost = 1000;
  own.maintenance_per_year = 0.05;
  own.residual_fraction = 0.2;
  const auto rent = hourly(0.60, 2);
  const SiteInputs site{0.30, 1.1};
  const FinanceInputs f = finance(36, 0.08);
  const WorkloadInputs w = workload(8, 21);
  const auto h = break_even_hours_per_day(own, rent, w, site, f);
  ASSERT_TRUE(h.has_value());
  for (double hours = *h; hours <= 24; hours += 0.5) {
    const WorkloadInputs at = at_hours_per_day(w, hours);
    const double used = hours * 21 * 36;
    const double own_total = sum(option_cash_flow(own, at, site, f).total);
    const double rent_total = sum(option_cash_flow(rent, at, site, f).total);
    EXPECT_LE(own_total / used, rent_total / used * (1 + 1e-9)) << hours << " h/day";
  }
}

TEST(Metrics, paybackAndIrrOfBuyingAgainstTheBaseline) {
  // The saving of owning a 1,000 card against renting 300 h a month at 0.50 = 150 a month:
  // -1,000, then +150 x 12: payback 6.67 months; monthly =IRR(-1000, 150 x 12) annualised.
  PlanInputs in = one_billion_model_at(workload(10, 30));
  in.site = kFreePower;
  in.finance = finance(12);
  in.options = {buy(1000), hourly(0.50)};
  const Plan plan = make_plan(in);
  const auto& own = plan.options[0];
  ASSERT_TRUE(own.payback_months.has_value());
  EXPECT_NEAR(*own.payback_months, 6 + 100.0 / 150, 1e-9);
  std::vector<double> saving = {-1000};
  saving.resize(13, 150);
  ASSERT_TRUE(own.irr.has_value());
  EXPECT_NEAR(*own.irr, annual_from_monthly(*internal_rate_of_return(saving)), 1e-12);
  ASSERT_TRUE(own.break_even_hours_per_day.has_value());
  EXPECT_NEAR(*own.break_even_hours, 1000 / 0.50, 1e-6);  // DOMAIN E2 at 30 days x 12 months
  EXPECT_NEAR(own.cost_per_year, 1000, 1e-9);
  EXPECT_FALSE(own.cost_per_user_per_month.has_value());
  in.workload.users = 10;
  EXPECT_NEAR(*make_plan(in).options[0].cost_per_user_per_month, 1000.0 / 120, 1e-9);
}

TEST(Metrics, owningCheaperEvenUnusedIsAlwaysNotABreakEvenOfZeroHours) {
  // The same 1,000 card against a rental billed around the clock (availability 24x7, always
  // on): 730 h x 0.50 = 365 a month, 4,380 over 12 months, whatever the hours of use; the
  // card costs 1,000 (free power) even unused. Owning is cheaper at 0 h/day: no break-even
  // number (not 0 h), owning_cheaper_at_any_use instead.
  PlanInputs in = one_billion_model_at(workload(10, 30));
  in.workload.availability = Availability::around_the_clock;
  in.site = kFreePower;
  in.finance = finance(12);
  in.options = {buy(1000), hourly(0.50)};
  const Plan plan = make_plan(in);
  const auto& own = plan.options[0];
  EXPECT_NEAR(plan.options[1].total_cost, 730 * 0.50 * 12, 1e-6);
  EXPECT_TRUE(own.owning_cheaper_at_any_use);
  EXPECT_FALSE(own.break_even_hours_per_day.has_value());
  EXPECT_FALSE(own.break_even_hours.has_value());
  // Hours of use (300 h a month billed): the break-even is a number again, 2,000 h (above).
  in.workload.availability = Availability::hours_of_use;
  const Plan hours = make_plan(in);
  EXPECT_FALSE(hours.options[0].owning_cheaper_at_any_use);
  EXPECT_NEAR(hours.options[0].break_even_hours.value_or(-1), 1000 / 0.50, 1e-6);
}

TEST(Metrics, owningCheaperUnusedButDearerAtItsHoursIsNeverNotAlways) {
  // Newcomer4: against a rental billed around the clock the rent is flat in the hours of use,
  // while owning pays power for each of them. The 1,000 card (350 W, 1.00 per kWh, off when
  // idle) costs 1,000 + 0.35 kW x h x 30 days x 12 months = 1,000 + 126 h; the rental 730 h x
  // 0.25 x 12 = 2,190 whatever h. Unused owning is cheaper (1,000), at the plan's 10 h/day
  // dearer (2,260), at 24 h/day dearer still (4,024): no hours make owning pay off ("never"),
  // and it is not "cheaper at any use".
  PlanInputs in = one_billion_model_at(workload(10, 30));
  in.workload.availability = Availability::around_the_clock;
  in.site = SiteInputs{1.0, 1.0};
  in.finance = finance(12);
  in.options = {buy(1000), hourly(0.25)};
  const Plan plan = make_plan(in);
  const auto& own = plan.options[0];
  EXPECT_NEAR(plan.options[1].total_cost, 730 * 0.25 * 12, 1e-6);
  EXPECT_NEAR(own.total_cost, 1000 + 0.35 * 10 * 30 * 12, 1e-6);
  EXPECT_FALSE(own.owning_cheaper_at_any_use);
  EXPECT_FALSE(own.break_even_hours_per_day.has_value());
  EXPECT_FALSE(own.break_even_hours.has_value());
}

TEST(Validation, refusesInputsOutsideTheirDomain) {
  PlanInputs in = everything();
  in.model.layers = 1;
  auto bad = in;
  bad.options[1].goodput = 0;
  EXPECT_THROW(validate_plan_inputs(bad), EngineError);
  bad = in;
  bad.finance.vat_rate = 1.5;
  EXPECT_THROW(validate_plan_inputs(bad), EngineError);
  bad = in;
  bad.workload.growth_per_month = 0.9;  // x 1e10 over 36 months
  EXPECT_THROW(validate_plan_inputs(bad), EngineError);
  bad = in;
  bad.options[0].annual_failure_rate = std::nan("");
  EXPECT_THROW(validate_plan_inputs(bad), EngineError);
  EXPECT_NO_THROW(validate_plan_inputs(in));
}

TEST(CashFlow, inPlaceOverloadReusesTheRows) {
  const PlanInputs in = everything();
  CashFlow cf;
  option_cash_flow(in.options[0], in.workload, in.site, in.finance, cf);
  const double* before = cf.total.data();
  option_cash_flow(in.options[0], in.workload, in.site, in.finance, cf);
  EXPECT_EQ(cf.total.data(), before);
  const auto fresh = option_cash_flow(in.options[0], in.workload, in.site, in.finance);
  EXPECT_EQ(fresh.total, cf.total);
}

}  // namespace
}  // namespace gputco
