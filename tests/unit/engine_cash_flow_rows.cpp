// CashFlowRows::money (issue #19): the Monte Carlo's cash flows set only the rows its totals
// are made of; each row they set, total and discounted above all, is bit for bit the full
// cash flow's, for every kind of option and every path of option_cash_flow.
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "engine/money/cash_flow.hpp"
#include "engine/money/money_totals.hpp"
#include "engine/money/month_factors.hpp"
#include "tests/unit/engine_sensitivity_fixture.hpp"

namespace gputco {
namespace {

/// Equal sizes and equal bits (EXPECT_EQ on doubles would take -0.0 for 0.0).
bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

/// The rows CashFlowRows::money sets, by name.
std::vector<NamedCashFlowRow> money_rows(const CashFlow& cf) {
  return {{"capex", &cf.capex},
          {"energy", &cf.energy},
          {"maintenance", &cf.maintenance},
          {"rent", &cf.rent},
          {"resale", &cf.resale},
          {"total", &cf.total},
          {"discounted", &cf.discounted},
          {"hosting", &cf.hosting},
          {"failures", &cf.failures},
          {"financing", &cf.financing},
          {"vat", &cf.vat},
          {"colo_extras", &cf.colo_extras},
          {"insurance", &cf.insurance},
          {"staff", &cf.staff},
          {"licences", &cf.licences},
          {"support", &cf.support},
          {"load", &cf.load},
          {"units", &cf.units},
          {"overflow_load", &cf.overflow_load}};
}

/// A workload that grows past one unit (load 1.2 in month 1 at 100,000 tokens an hour per
/// unit, +3 % a month) with a peak hour 1.5 x the mean, and a finance with every money row:
/// discounting, trends, VAT as a cost, a horizon (30 months) that is no whole term.
struct Inputs {
  WorkloadInputs workload;
  SiteInputs site;
  FinanceInputs finance;
};

Inputs growing_inputs() {
  const PlanInputs plan = test::tiny_plan();
  Inputs in{plan.workload, plan.site, plan.finance};
  in.workload.tokens_per_day = 1.2e6;  // 10 h/day: 120,000 an hour
  in.workload.input_tokens_per_output_token = 3;
  in.workload.growth_per_month = 0.03;
  in.workload.peak_factor = 1.5;
  in.site.tariff_per_kwh = 0.3;
  in.site.tariff_trend_per_year = 0.04;
  in.site.pue = 1.2;
  in.finance.horizon_months = 30;
  in.finance.discount_rate_per_year = 0.07;
  in.finance.rent_trend_per_year = -0.1;
  in.finance.api_price_trend_per_year = -0.2;
  in.finance.vat_rate = 0.2;
  in.finance.vat_reclaimable = false;
  in.finance.useful_life_months = 24;
  return in;
}

/// Every kind and path: owned bought for cash with idle power, failures after a warranty and
/// every cost line; owned on a loan renting its overflow; leased past the horizon; colocated
/// with its power in the kW fee on an interest-free loan; hourly rentals always on,
/// autoscaled spot and reserved; a monthly server; an API.
std::vector<OptionInputs> every_path() {
  const PlanInputs plan = test::tiny_plan();
  OptionInputs own = plan.options[0];
  own.capacity_tokens_per_hour = 1e5;
  own.count = 2;
  own.host_cost = 900;
  own.host_power_w = 120;
  own.residual_fraction = 0.35;
  own.maintenance_per_year = 0.06;
  own.warranty_months = 12;
  own.annual_failure_rate = 0.04;
  own.idle_power_w = 40;
  own.powered_off_when_idle = false;
  own.grid_g_co2e_per_kwh = 350;
  own.cost_lines.staff_hours_per_month = 6;
  own.cost_lines.staff_rate_per_hour = 55;
  own.cost_lines.licence_per_gpu_per_year = 120;
  own.cost_lines.support_per_year = 600;
  own.cost_lines.insurance_per_year = 0.01;

  OptionInputs loan = own;
  loan.id = "loan";
  loan.financing = Financing::loan;
  loan.down_payment_fraction = 0.2;
  loan.loan_rate_per_year = 0.09;
  loan.loan_term_months = 24;
  loan.overflow = Overflow::rent;
  loan.overflow_option_id = "rent";
  loan.overflow_rate_per_hour = 2.5;
  loan.overflow_capacity_tokens_per_hour = 8e4;

  OptionInputs lease = own;
  lease.id = "lease";
  lease.financing = Financing::lease;
  lease.lease_rate_per_month = 0.03;
  lease.lease_term_months = 36;

  OptionInputs colo = own;
  colo.id = "colo";
  colo.hosting = Hosting::colocation;
  colo.colo_per_kw_month = 150;
  colo.contracted_kw = 1.2;
  colo.colo_per_rack_unit_month = 20;
  colo.rack_units = 4;
  colo.power_metered = false;
  colo.pue = 1.4;
  colo.cost_lines.colo_extras_per_month = 35;
  colo.financing = Financing::loan;
  colo.loan_rate_per_year = 0;
  colo.loan_term_months = 12;

  OptionInputs rent = plan.options[1];
  rent.capacity_tokens_per_hour = 9e4;
  rent.rate_per_gpu_hour = 1.7;
  rent.cost_lines.licence_per_gpu_per_year = 90;

  OptionInputs spot = rent;
  spot.id = "spot";
  spot.term = RentTerm::spot;
  spot.goodput = 0.85;
  spot.hourly_billing.billing = Billing::autoscaled;
  spot.hourly_billing.min_instances = 1;
  spot.hourly_billing.granularity = BillingGranularity::hour;

  OptionInputs reserved = rent;
  reserved.id = "reserved";
  reserved.term = RentTerm::reserved_1y;

  OptionInputs server = rent;
  server.id = "server";
  server.kind = OptionKind::rent_monthly;
  server.price_per_month = 650;
  server.setup_fee = 100;
  server.notice_months = 2;

  OptionInputs api;
  api.id = "api";
  api.kind = OptionKind::api;
  api.input_price_per_million = 0.6;
  api.output_price_per_million = 2.4;
  api.cost_lines.staff_fte = 0.05;
  api.cost_lines.staff_salary_per_year = 90000;

  return {own, loan, lease, colo, rent, spot, reserved, server, api};
}

/// One draw's factors on the demand, the tariff and the prices, as the Monte Carlo moves them,
/// each uniform in 0.6..1.4 and drawn in this order.
struct DrawFactors {
  double hours = 1, tokens = 1, growth = 1, tariff = 1, price = 1, rental = 1;
};

DrawFactors draw_factors(std::mt19937_64& generator) {
  std::uniform_real_distribution<double> factor(0.6, 1.4);
  DrawFactors d;
  d.hours = factor(generator);
  d.tokens = factor(generator);
  d.growth = factor(generator);
  d.tariff = factor(generator);
  d.price = factor(generator);
  d.rental = factor(generator);
  return d;
}

/// `base` with the draw's hours (at most 24), demand, growth and tariff.
Inputs drawn_inputs(const Inputs& base, const DrawFactors& d) {
  Inputs in = base;
  in.workload.hours_per_day = std::min(24.0, base.workload.hours_per_day * d.hours);
  *in.workload.tokens_per_day *= d.tokens;
  in.workload.growth_per_month = base.workload.growth_per_month * d.growth;
  in.site.tariff_per_kwh = base.site.tariff_per_kwh * d.tariff;
  return in;
}

/// `o` with the draw's purchase price (devices and host) and rental rates.
OptionInputs drawn_option(OptionInputs o, const DrawFactors& d) {
  o.price_per_gpu *= d.price;
  o.host_cost *= d.price;
  o.rate_per_gpu_hour *= d.rental;
  o.price_per_month *= d.rental;
  o.overflow_rate_per_hour *= d.rental;
  o.input_price_per_million *= d.rental;
  return o;
}

TEST(CashFlowRows, moneyRowsAreTheFullCashFlowsBitForBitOnEveryPath) {
  const Inputs base = growing_inputs();
  const std::vector<OptionInputs> options = every_path();
  // Draws as the Monte Carlo makes them (its factors on prices, tariff, hours, demand and
  // growth), from a fixed seed; 40 of them per option.
  std::mt19937_64 generator(19);
  // One reused money cash flow for all options and draws, as a Monte Carlo thread reuses its
  // rows: a row left from another option must not leak into the next one's total.
  CashFlow money;
  MonthFactors factors;
  set_finance_factors(base.site, base.finance, factors);
  int paths_with_interest = 0;
  for (int draw = 0; draw < 40; ++draw) {
    const DrawFactors d = draw_factors(generator);
    const Inputs in = drawn_inputs(base, d);
    set_workload_factors(in.workload, in.finance, factors);
    for (const OptionInputs& given : options) {
      const OptionInputs o = drawn_option(given, d);
      CashFlow full;
      option_cash_flow(o, in.workload, in.site, in.finance, factors, full, CashFlowRows::all);
      option_cash_flow(o, in.workload, in.site, in.finance, factors, money, CashFlowRows::money);
      const auto expected = money_rows(full);
      const auto got = money_rows(money);
      for (size_t r = 0; r < expected.size(); ++r) {
        EXPECT_TRUE(same_bits(*expected[r].values, *got[r].values))
            << o.id << " draw " << draw << " row " << expected[r].name;
      }
      // The rows that never enter total are really computed by the full cash flow only.
      for (const double i : full.interest) paths_with_interest += i > 0 ? 1 : 0;
    }
  }
  // The loan at 9 % pays interest in its 24 instalment months, in each of the 40 draws.
  EXPECT_EQ(paths_with_interest, 24 * 40);
}

/// Equal bits of two doubles (-0.0 is not 0.0 here).
bool same_bits(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

TEST(CashFlowRows, moneyTotalsAreTheFullCashFlowsSumsBitForBitOnEveryPath) {
  // Every path, and each one again without cost lines and bought for cash where owned (the
  // paths money_totals computes without rows): the overflow rented, colocated, idle power.
  std::vector<OptionInputs> options = every_path();
  const size_t n_paths = options.size();
  for (size_t i = 0; i < n_paths; ++i) {
    OptionInputs o = options[i];
    o.id += "-direct";
    o.cost_lines = CostLines{};
    o.financing = Financing::cash;
    options.push_back(o);
  }
  int direct = 0;
  for (const auto& o : options) direct += money_totals_direct(o) ? 1 : 0;
  // Every path since issue #43, cost lines, loans and leases included.
  EXPECT_EQ(direct, 18);
  std::mt19937_64 generator(21);
  MoneyScratch scratch;  // one for every option, as the utilization sweep shares one
  // One per option, as a Monte Carlo thread keeps them: the load and units of a draw that
  // does not move them are reused.
  std::vector<MoneyScratch> per_option(options.size());
  MonthFactors factors;
  for (const bool vat : {false, true}) {
    Inputs base = growing_inputs();
    base.finance.vat_reclaimable = !vat;
    set_finance_factors(base.site, base.finance, factors);
    for (int draw = 0; draw < 40; ++draw) {
      DrawFactors d = draw_factors(generator);
      // Draws 2 and 3 of every 4 keep the hours, the demand and its growth (the prices and
      // the tariff still move): the second of them reuses the load and units.
      if (draw % 4 >= 2) d.hours = d.tokens = d.growth = 1;
      const Inputs in = drawn_inputs(base, d);
      set_workload_factors(in.workload, in.finance, factors);
      for (size_t i = 0; i < options.size(); ++i) {
        const OptionInputs o = drawn_option(options[i], d);
        CashFlow full;
        option_cash_flow(o, in.workload, in.site, in.finance, factors, full, CashFlowRows::all);
        const double total = std::accumulate(full.total.begin(), full.total.end(), 0.0);
        const double npv = std::accumulate(full.discounted.begin(), full.discounted.end(), 0.0);
        const MoneyTotals got = money_totals(o, in.workload, in.site, in.finance, factors, scratch);
        EXPECT_TRUE(same_bits(got.total, total))
            << o.id << " vat " << vat << " draw " << draw << ": " << got.total << " vs " << total;
        EXPECT_TRUE(same_bits(got.npv, npv))
            << o.id << " vat " << vat << " draw " << draw << ": " << got.npv << " vs " << npv;
        const MoneyTotals kept =
            money_totals(o, in.workload, in.site, in.finance, factors, per_option[i]);
        EXPECT_TRUE(same_bits(kept.total, total)) << o.id << " vat " << vat << " draw " << draw;
        EXPECT_TRUE(same_bits(kept.npv, npv)) << o.id << " vat " << vat << " draw " << draw;
        EXPECT_GT(total, 0) << o.id;  // a real cost, not an empty cash flow
      }
    }
  }
}

TEST(CashFlowRows, sumMoneyTotalsOfManyOptionsIsEachOptionsMoneyTotalsBitForBit) {
  // Every path with and without rows; the first 1, 2, ..., 18 of them summed together (groups
  // of four and every remainder) against money_totals of each option on its own and the full
  // rows' sums.
  std::vector<OptionInputs> options = every_path();
  const size_t n_paths = options.size();
  for (size_t i = 0; i < n_paths; ++i) {
    OptionInputs o = options[i];
    o.id += "-direct";
    o.cost_lines = CostLines{};
    o.financing = Financing::cash;
    options.push_back(o);
  }
  std::mt19937_64 generator(23);
  MonthFactors factors;
  const Inputs base = growing_inputs();
  set_finance_factors(base.site, base.finance, factors);
  std::vector<MoneyScratch> together(options.size());
  std::vector<MoneyScratch> alone(options.size());
  for (int draw = 0; draw < 10; ++draw) {
    const DrawFactors d = draw_factors(generator);
    const Inputs in = drawn_inputs(base, d);
    set_workload_factors(in.workload, in.finance, factors);
    std::vector<OptionInputs> drawn;
    for (const auto& o : options) drawn.push_back(drawn_option(o, d));
    for (size_t count = 1; count <= drawn.size(); ++count) {
      for (size_t i = 0; i < count; ++i) {
        money_month_totals(drawn[i], in.workload, in.site, in.finance, factors, together[i]);
      }
      std::vector<MoneyTotals> sums(count);
      sum_money_totals(together.data(), count, factors.discount_factor, sums.data());
      for (size_t i = 0; i < count; ++i) {
        const MoneyTotals one =
            money_totals(drawn[i], in.workload, in.site, in.finance, factors, alone[i]);
        CashFlow full;
        option_cash_flow(drawn[i], in.workload, in.site, in.finance, factors, full,
                         CashFlowRows::all);
        const double total = std::accumulate(full.total.begin(), full.total.end(), 0.0);
        const double npv = std::accumulate(full.discounted.begin(), full.discounted.end(), 0.0);
        EXPECT_TRUE(same_bits(sums[i].total, one.total)) << drawn[i].id << " of " << count;
        EXPECT_TRUE(same_bits(sums[i].npv, one.npv)) << drawn[i].id << " of " << count;
        EXPECT_TRUE(same_bits(sums[i].total, total)) << drawn[i].id << " of " << count;
        EXPECT_TRUE(same_bits(sums[i].npv, npv)) << drawn[i].id << " of " << count;
        EXPECT_GT(sums[i].total, 0) << drawn[i].id;
        EXPECT_LT(sums[i].npv, sums[i].total) << drawn[i].id;  // discounted at 7 %
      }
    }
  }
  // By hand: two options' months summed, the NPV at a discount factor of 1, 0.5, 0.25.
  std::vector<MoneyScratch> two(2);
  two[0].rows.total = {1, 2, 4};
  two[1].rows.total = {10, 20, 40};
  MoneyTotals out[2];
  sum_money_totals(two.data(), 2, {1, 0.5, 0.25}, out);
  EXPECT_EQ(out[0].total, 7);
  EXPECT_EQ(out[0].npv, 3);
  EXPECT_EQ(out[1].total, 70);
  EXPECT_EQ(out[1].npv, 30);
}

TEST(CashFlowRows, anAlwaysOnRentalsKeptInstancesFollowTheHoursBitForBit) {
  // No stated demand: the load is 1 in every draw, so an always-on rental keeps its
  // instances while the hours (its availability) move; an autoscaled one and an owned one
  // beside it, with a peak hour and without (served load on a flat day).
  const std::vector<OptionInputs> paths = every_path();
  std::vector<OptionInputs> options = {paths[0], paths[4], paths[5]};  // own, rent, spot
  for (auto& o : options) {
    o.cost_lines = CostLines{};
    o.financing = Financing::cash;
  }
  ASSERT_EQ(options[1].hourly_billing.billing, Billing::always_on);
  std::mt19937_64 generator(29);
  std::uniform_real_distribution<double> hours(2, 24);
  for (const double peak : {1.0, 1.6}) {
    Inputs base = growing_inputs();
    base.workload.tokens_per_day.reset();
    base.workload.growth_per_month = 0;
    base.workload.peak_factor = peak;
    MonthFactors factors;
    set_finance_factors(base.site, base.finance, factors);
    std::vector<MoneyScratch> kept(options.size());
    for (int draw = 0; draw < 30; ++draw) {
      Inputs in = base;
      in.workload.hours_per_day = hours(generator);
      set_workload_factors(in.workload, in.finance, factors);
      for (size_t i = 0; i < options.size(); ++i) {
        const MoneyTotals got =
            money_totals(options[i], in.workload, in.site, in.finance, factors, kept[i]);
        CashFlow full;
        option_cash_flow(options[i], in.workload, in.site, in.finance, factors, full,
                         CashFlowRows::all);
        const double total = std::accumulate(full.total.begin(), full.total.end(), 0.0);
        const double npv = std::accumulate(full.discounted.begin(), full.discounted.end(), 0.0);
        EXPECT_TRUE(same_bits(got.total, total)) << options[i].id << " draw " << draw;
        EXPECT_TRUE(same_bits(got.npv, npv)) << options[i].id << " draw " << draw;
      }
    }
    // The rental's instances were kept: one per month (load 1), months 0..30.
    EXPECT_EQ(kept[1].instances, std::vector<double>(31, peak > 1 ? 2.0 : 1.0)) << peak;
    EXPECT_TRUE(kept[0].instances.empty());
    EXPECT_TRUE(kept[2].instances.empty());
  }
}

TEST(CashFlowRows, moneyLeavesTheRowsOutsideTotalUnset) {
  const Inputs in = growing_inputs();
  const OptionInputs loan = every_path()[1];
  CashFlow money;
  option_cash_flow(loan, in.workload, in.site, in.finance,
                   month_factors(in.workload, in.site, in.finance), money, CashFlowRows::money);
  // A fresh cash flow: the physical and accounting rows, cumulative and discount_factor stay
  // empty (31 months in the others: 0..30).
  EXPECT_EQ(money.total.size(), 31u);
  for (const auto* row :
       {&money.energy_kwh, &money.idle_kwh, &money.co2e_kg, &money.interest, &money.depreciation,
        &money.book_value, &money.cumulative, &money.discount_factor}) {
    EXPECT_TRUE(row->empty());
  }
}

}  // namespace
}  // namespace gputco
