// The financial model's scenario keys: parsing (types, ranges, keys of another kind) and
// resolution against the built-in catalog (defaults with provenance, resale curves, rent
// terms, colocation, financing, overflow links).
#include <gtest/gtest.h>

#include <sstream>

#include "pricing/catalog.hpp"
#include "scenarios/resolve.hpp"
#include "scenarios/scenario.hpp"
#include "tests/unit/scenarios_fixtures.hpp"

namespace gputco {
namespace {

using test::error_of;
using test::parse;

const std::string kHead =
    "[scenario]\n"
    "as_of = 2026-11-27\n"
    "start = 2027-01\n"
    "[workload]\n"
    "model = qwen3-32b\n"
    "quant = Q4_K_M\n"
    "[site]\n"
    "tariff_per_kwh = 0.25\n";

using test::input;
using test::option;

TEST(FinanceKeys, parsedWithTheirTypes) {
  const Scenario s = parse(
      "[scenario]\nas_of = 2026-11-27\nvat_rate = 0.19\nvat_reclaimable = false\n"
      "rent_trend_per_year = -0.15\nhours_per_month_convention = calendar\n"
      "useful_life_months = 48\n"
      "[workload]\nmodel = m\nquant = q\ngrowth_per_month = 0.03\ntokens_per_day = 1e6\n"
      "users = 40\noverflow = rent\noverflow_option = r\n"
      "[site]\ntariff_trend_per_year = 0.05\n"
      "[option:r]\nkind = rent_hourly\ngpu = h100-sxm\nterm = spot\ngoodput = 0.85\n"
      "[option:c]\nkind = colocation\ngpu = h100-sxm\ncolo_per_kw_month = 180\n"
      "power_metered = no\nfinancing = loan\nloan_rate = 0.06\ndown_payment = 0.2\n"
      "[option:s]\nkind = rent_monthly\ngpu = l4\nnotice_months = 2\n");
  EXPECT_DOUBLE_EQ(s.vat_rate, 0.19);
  EXPECT_FALSE(s.vat_reclaimable);
  EXPECT_DOUBLE_EQ(s.rent_trend_per_year, -0.15);
  EXPECT_EQ(s.hours_per_month_convention, "calendar");
  EXPECT_EQ(s.useful_life_months, 48);
  EXPECT_DOUBLE_EQ(*s.tokens_per_day, 1e6);
  EXPECT_DOUBLE_EQ(*s.users, 40);
  EXPECT_EQ(s.overflow, "rent");
  EXPECT_DOUBLE_EQ(s.tariff_trend_per_year, 0.05);
  EXPECT_EQ(s.options[0].term, "spot");
  EXPECT_DOUBLE_EQ(*s.options[0].goodput, 0.85);
  EXPECT_FALSE(*s.options[1].power_metered);
  EXPECT_EQ(s.options[1].financing, "loan");
  EXPECT_EQ(*s.options[2].notice_months, 2);
}

TEST(FinanceKeys, wrongValuesNameFileLineAndKey) {
  EXPECT_EQ(error_of("[scenario]\nas_of = 2026-11-27\nvat_reclaimable = maybe\n"),
            "test.ini:3: [scenario] vat_reclaimable: expected true or false, got 'maybe'");
  EXPECT_EQ(error_of("[scenario]\nas_of = 2026-11-27\nhours_per_month_convention = 731\n"),
            "test.ini:3: [scenario] hours_per_month_convention: expected one of 730 | 720 | "
            "calendar, got '731'; did you mean '730'?");
  EXPECT_NE(error_of("[scenario]\nas_of = 2026-11-27\nvat_rate = 1.5\n").find("between 0 and 1"),
            std::string::npos);
}

TEST(FinanceKeys, keysOfAnotherKindAreRejected) {
  const auto option = [](const std::string& body) {
    return error_of(kHead + "[option:a]\n" + body);
  };
  EXPECT_EQ(option("kind = rent_hourly\ngpu = l4\nwarranty_months = 12\n"),
            "test.ini:12: [option:a] warranty_months: applies to kind = buy only (this option "
            "is rent_hourly)");
  EXPECT_NE(option("kind = buy\ngpu = l4\ncolo_per_kw_month = 100\n").find("colocated hardware"),
            std::string::npos);
  EXPECT_NE(option("kind = rent_hourly\ngpu = l4\ngoodput = 0.9\n").find("spot rentals only"),
            std::string::npos);
  EXPECT_NE(option("kind = buy\ngpu = l4\nloan_rate = 0.05\n").find("financing = loan only"),
            std::string::npos);
  EXPECT_NE(option("kind = buy\ngpu = l4\nfinancing = lease\n").find("lease_rate_per_month"),
            std::string::npos);
  EXPECT_NE(option("kind = blend\ngpu = l4\noverflow = buy\n").find("rents its overflow"),
            std::string::npos);
  EXPECT_NE(option("kind = rent_spot\ngpu = l4\nterm = reserved_1y\n").find("term = spot"),
            std::string::npos);
  // A colocation's rack keys and a spot's goodput are fine on their own kinds.
  EXPECT_EQ(option("kind = colocation\ngpu = l4\ncolo_per_kw_month = 100\nrack_units = 2\n"), "");
  EXPECT_EQ(option("kind = rent_spot\ngpu = l4\ngoodput = 0.9\n"), "");
}

class FinanceResolve : public ::testing::Test {
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
Catalog* FinanceResolve::catalog_ = nullptr;

/// The options of scenarios/examples/own-base-rent-peaks.ini, in short.
const std::string kPeaks =
    "[scenario]\nas_of = 2026-11-27\nstart = 2027-01\nhorizon_months = 36\n"
    "baseline = rent-h100\nvat_rate = 0.19\nvat_reclaimable = false\n"
    "[workload]\nmodel = qwen3-32b\nquant = Q4_K_M\nconcurrent_streams = 4\n"
    "hours_per_day = 10\ndays_per_month = 21\ntokens_per_day = 4000000\n"
    "growth_per_month = 0.04\nusers = 60\n"
    "[site]\ntariff = de-business\n"
    "[option:used-3090-rig]\nkind = buy\ngpu = rtx-3090\ncondition = used\ncount = 2\n"
    "host_cost = 900\nannual_failure_rate = 0.05\n"
    "[option:new-5090-loan]\nkind = buy\ngpu = rtx-5090\ncount = 1\nhost_cost = 1500\n"
    "financing = loan\ndown_payment = 0.2\nloan_rate = 0.069\nloan_term_months = 24\n"
    "[option:colo-h100]\nkind = colocation\ngpu = h100-sxm\ncount = 1\nhost_cost = 9000\n"
    "host_power_w = 500\ncolo_per_kw_month = 180\ncolo_per_rack_unit_month = 25\n"
    "rack_units = 2\npue = 1.4\n"
    "[option:reserved-l40s-1y]\nkind = rent_hourly\ngpu = l40s\nterm = reserved_1y\n"
    "[option:rent-h100]\nkind = rent_hourly\ngpu = h100-sxm\n"
    "[option:blend-5090-h100]\nkind = blend\ngpu = rtx-5090\ncount = 1\nhost_cost = 1500\n"
    "overflow_option = rent-h100\n";

TEST_F(FinanceResolve, ownBaseRentPeaksResolvesWithProvenance) {
  const ResolvedScenario r = resolved(kPeaks);
  // The used rig's cards resell on the catalog's curve for used consumer cards, its host on
  // the host curve; the plan blends the two by capex and names both.
  const InputRow* cards = input(r, "used-3090-rig", "device_residual_fraction");
  ASSERT_NE(cards, nullptr);
  EXPECT_NE(cards->provenance.find("catalog resale curve consumer (used) at 36 months"),
            std::string::npos)
      << cards->provenance;
  // consumer (used) at 36 months is a point of the curve: 0.35 / 0.78 = 0.449 (SpotWire's
  // H100 PCIe vintage curve, a card bought used at 1 year of age).
  EXPECT_DOUBLE_EQ(*cards->value, 0.449);
  const InputRow* host = input(r, "used-3090-rig", "host_residual_fraction");
  ASSERT_NE(host, nullptr);
  EXPECT_DOUBLE_EQ(*host->value, 0.125);  // host (used) at 36 months: 0.5 x 0.5 x 0.5
  const InputRow* resale = input(r, "used-3090-rig", "residual_fraction");
  ASSERT_NE(resale, nullptr);
  // Blended: (0.449 x 2 x 750 USD x EUR rate + 0.125 x 900) / (2 x 750 x rate + 900).
  const double cards_eur = 2 * option(r, "used-3090-rig").price_per_gpu;
  EXPECT_NEAR(*resale->value, (0.449 * cards_eur + 0.125 * 900) / (cards_eur + 900), 1e-12);
  EXPECT_NE(resale->provenance.find("curves consumer and host"), std::string::npos)
      << resale->provenance;
  // Reserved L40S at AWS's 1-year rate, published in USD and converted to EUR.
  const auto& reserved = option(r, "reserved-l40s-1y");
  EXPECT_EQ(reserved.term, RentTerm::reserved_1y);
  const InputRow* rate = input(r, "reserved-l40s-1y", "rate_per_gpu_hour");
  ASSERT_NE(rate, nullptr);
  EXPECT_NE(rate->provenance.find("converted from 1.1700 USD"), std::string::npos)
      << rate->provenance;
  // The colocated H100: contracted kW from its power, rounded up to 0.5 kW.
  const auto& colo = option(r, "colo-h100");
  EXPECT_EQ(colo.hosting, Hosting::colocation);
  EXPECT_DOUBLE_EQ(colo.contracted_kw, 1.5);  // 700 W + 500 W = 1.2 kW -> 1.5
  EXPECT_DOUBLE_EQ(*colo.pue, 1.4);
  // The blend rents its overflow from the on-demand H100, rate linked by prepare_plan_inputs.
  const auto& blend = option(r, "blend-5090-h100");
  EXPECT_EQ(blend.overflow, Overflow::rent);
  EXPECT_EQ(blend.overflow_option_id, "rent-h100");
  EXPECT_DOUBLE_EQ(blend.overflow_rate_per_hour, option(r, "rent-h100").rate_per_gpu_hour);
  EXPECT_GT(blend.capacity_tokens_per_hour, 0);
  // Money settings.
  EXPECT_DOUBLE_EQ(r.plan_inputs.finance.vat_rate, 0.19);
  EXPECT_FALSE(r.plan_inputs.finance.vat_reclaimable);
  EXPECT_EQ(r.plan_inputs.finance.start_year, 2027);
  EXPECT_EQ(r.plan_inputs.finance.start_month, 1);
  const auto& loan = option(r, "new-5090-loan");
  EXPECT_EQ(loan.financing, Financing::loan);
  EXPECT_DOUBLE_EQ(loan.loan_rate_per_year, 0.069);
  EXPECT_EQ(loan.warranty_months, 24);  // new: the EU legal guarantee
  EXPECT_NE(input(r, "new-5090-loan", "warranty_months")->provenance.find("2019/771"),
            std::string::npos);
}

TEST_F(FinanceResolve, hoursConventionSetsTheDefaultDaysOfUse) {
  const auto days = [&](const std::string& convention) {
    return resolved("[scenario]\nas_of = 2026-11-27\nhours_per_month_convention = " + convention +
                    "\n[workload]\nmodel = qwen3-32b\nquant = Q4_K_M\n"
                    "[option:a]\nkind = rent_hourly\ngpu = h100-sxm\n")
        .plan_inputs.workload;
  };
  EXPECT_DOUBLE_EQ(days("730").days_per_month, 730.0 / 24);
  EXPECT_DOUBLE_EQ(days("720").days_per_month, 30);
  EXPECT_TRUE(days("calendar").days_follow_convention);
  EXPECT_FALSE(days("730").days_follow_convention);
}

TEST_F(FinanceResolve, overflowNeedsAnHourlyRentalBilledByUse) {
  const std::string body = kHead +
                           "[option:own]\nkind = blend\ngpu = rtx-5090\noverflow_option = srv\n"
                           "[option:srv]\nkind = rent_monthly\ngpu = rtx-pro-6000-blackwell\n";
  try {
    resolved(body);
    FAIL() << "a monthly server cannot carry the overflow";
  } catch (const ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find("overflow_option"), std::string::npos) << e.what();
  }
  try {
    resolved(kHead + "[option:own]\nkind = blend\ngpu = rtx-5090\n");
    FAIL() << "a blend needs its rental";
  } catch (const ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find("missing: name the rent_hourly option"), std::string::npos)
        << e.what();
  }
}

TEST_F(FinanceResolve, spotAndReservedRatesComeFromTheirTerm) {
  const ResolvedScenario r =
      resolved(kHead +
               "[option:spot]\nkind = rent_spot\ngpu = h100-sxm\n"
               "[option:res]\nkind = rent_hourly\ngpu = l40s\nterm = reserved_3y\n");
  const auto& spot = option(r, "spot");
  EXPECT_EQ(spot.term, RentTerm::spot);
  EXPECT_DOUBLE_EQ(spot.goodput, 0.9);
  EXPECT_NE(input(r, "spot", "goodput")->provenance.find("default: 0.9"), std::string::npos);
  bool spot_source = false;
  for (const auto& source : r.sources) {
    spot_source = spot_source || source.what.find("(spot)") != std::string::npos;
  }
  EXPECT_TRUE(spot_source);
  EXPECT_EQ(option(r, "res").term, RentTerm::reserved_3y);
  EXPECT_NE(input(r, "res", "rate_per_gpu_hour")->label.find("aws"), std::string::npos);
  // No reserved offer for this device: set the rate.
  try {
    resolved(kHead + "[option:x]\nkind = rent_hourly\ngpu = rtx-3090\nterm = reserved_1y\n");
    FAIL();
  } catch (const ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find("no reserved_1y hourly offer"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace gputco

namespace gputco {
namespace {

/// A one-option scenario buying `count` x `gpu` in `condition` for `horizon` months.
std::string buy_one(const std::string& gpu, const std::string& condition, int horizon) {
  return "[scenario]\nas_of = 2026-11-27\nstart = 2027-01\nhorizon_months = " +
         std::to_string(horizon) +
         "\n[workload]\nmodel = qwen3-32b\nquant = Q4_K_M\n[site]\ntariff_per_kwh = 0.25\n"
         "[option:own]\nkind = buy\ngpu = " +
         gpu + "\ncondition = " + condition + "\nprice_per_gpu = 1000\n";
}

TEST_F(FinanceResolve, resaleDefaultFollowsTheCurveOverAge) {
  // consumer (new) points (SpotWire, 2026-06-04): 0: 1, 12: 0.78, 24: 0.60, 36: 0.46, 48: 0.35.
  auto resale = [](const std::string& gpu, const std::string& condition, int horizon) {
    const ResolvedScenario r = resolved(buy_one(gpu, condition, horizon));
    return option(r, "own").residual_fraction;
  };
  EXPECT_DOUBLE_EQ(resale("rtx-4090", "new", 36), 0.46);  // a point; was 0.975 from one point
  EXPECT_DOUBLE_EQ(resale("rtx-5090", "new", 36), 0.46);
  // 6 months: between 1 and 0.78: 1 - 0.5 x 0.22 = 0.89.
  EXPECT_NEAR(resale("rtx-4090", "new", 6), 0.89, 1e-12);
  // 42 months: 0.46 + 6/12 x (0.35 - 0.46) = 0.405.
  EXPECT_NEAR(resale("rtx-4090", "new", 42), 0.405, 1e-12);
  // Past the last point the last slope continues (never flat): 60 months: 0.35 - 0.11 = 0.24;
  // 96 months: 0.35 - 4 x 0.11 < 0, floored at 0.
  EXPECT_NEAR(resale("rtx-4090", "new", 60), 0.24, 1e-12);
  EXPECT_EQ(resale("rtx-4090", "new", 96), 0);
  // Non-increasing with age.
  double previous = 1;
  for (int months = 1; months <= 120; ++months) {
    const double value = resale("rtx-3090", "used", months);
    EXPECT_LE(value, previous) << months << " months";
    previous = value;
  }
}

TEST_F(FinanceResolve, resaleWithoutACurveOfItsClassTakesTheLowestOtherClass) {
  // Workstation: no curve in the catalog. consumer (new) gives 0.46 at 36 months, datacenter
  // (new) 0.30 (GPU Lease Rate Index); the lowest is taken, and the provenance says it is a
  // default and from where.
  const ResolvedScenario r = resolved(buy_one("rtx-pro-6000-blackwell", "new", 36));
  EXPECT_DOUBLE_EQ(option(r, "own").residual_fraction, 0.30);  // was 0: no curve
  const InputRow* row = input(r, "own", "residual_fraction");
  ASSERT_NE(row, nullptr);
  EXPECT_NE(row->provenance.find("default: the catalog has no resale curve for workstation (new)"),
            std::string::npos)
      << row->provenance;
  EXPECT_NE(row->provenance.find("datacenter (new) at 36 months"), std::string::npos)
      << row->provenance;
  // Unified (a Mac), used, 24 months: datacenter (used) 24 months = 0.30 / 0.625 = 0.480,
  // below consumer (used) 0.46 / 0.78 = 0.590.
  const ResolvedScenario mac = resolved(buy_one("m2-ultra-76c", "used", 24));
  EXPECT_DOUBLE_EQ(option(mac, "own").residual_fraction, 0.48);
}

TEST_F(FinanceResolve, aPriceChosenAmongSameDateRowsSaysSo) {
  // RTX 5090 new, 2026-05-01, built-in: 1,999 (MSRP, list) and 2,550 (street), runlocalai.co.
  // The default basis takes the street price and says why; `list` takes the MSRP, `lowest`
  // the lower of the two, `median` the lower middle one of two.
  const std::string text =
      "[scenario]\nas_of = 2026-11-27\nstart = 2027-01\ncurrency = USD\n[workload]\n"
      "model = qwen3-32b\nquant = Q4_K_M\n[site]\ntariff_per_kwh = 0.25\n"
      "[option:own]\nkind = buy\ngpu = rtx-5090\n";
  const ResolvedScenario r = resolved(text);
  EXPECT_EQ(option(r, "own").price_per_gpu, 2550);
  const InputRow* row = input(r, "own", "price_per_gpu");
  ASSERT_NE(row, nullptr);
  EXPECT_NE(row->provenance.find("the latest street price (price_basis = street; none observed "
                                 "within 90 days of 2026-11-27: all 2 (stale))"),
            std::string::npos)
      << row->provenance;
  for (const auto& [basis, price] : std::vector<std::pair<std::string, double>>{
           {"list", 1999}, {"lowest", 1999}, {"median", 1999}, {"street", 2550}}) {
    const ResolvedScenario b = resolved(text + "price_basis = " + basis + "\n");
    EXPECT_EQ(option(b, "own").price_per_gpu, price) << basis;
  }
}

TEST_F(FinanceResolve, resaleBeforeTheCurveIsDatedIsZeroNotOne) {
  // As of 2026-01-07 only the 0-month definition points exist (the first curve points are the
  // GPU Lease Rate Index's of 2026-01-08): a single point is no curve (it would read 1 for
  // ever), and no class has a usable one.
  std::string text = buy_one("rtx-4090", "new", 36);
  text.replace(text.find("2026-11-27"), 10, "2026-01-07");
  const ResolvedScenario r = resolved(text);
  EXPECT_EQ(option(r, "own").residual_fraction, 0);
  const InputRow* row = input(r, "own", "residual_fraction");
  ASSERT_NE(row, nullptr);
  EXPECT_NE(row->provenance.find("default: 0"), std::string::npos) << row->provenance;
}

}  // namespace
}  // namespace gputco
