// Which catalog price a plan takes and why (price_basis, freshness before cheapness), typed
// prices checked against their market, and the resale curves of a server's devices and host.
// The replayed catalog bugs of issue 17 (tests/data/catalog/bugs).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "pricing/catalog.hpp"
#include "pricing/catalog_import.hpp"
#include "scenarios/price_checks.hpp"
#include "scenarios/price_choice.hpp"
#include "scenarios/resolve.hpp"
#include "scenarios/scenario.hpp"
#include "tests/support/paths.hpp"
#include "tests/unit/scenarios_fixtures.hpp"

namespace gputco {
namespace {

namespace fs = std::filesystem;

Scenario parse_file(const std::string& path) {
  return load_scenario(path);
}

Scenario parse_text(const std::string& text) {
  std::istringstream in(text);
  return parse_scenario(in, ScenarioFormat::ini, "test.ini");
}

using test::input;
using test::option;

std::string bug(const std::string& name) {
  return test::source_path("tests/data/catalog/bugs/" + name);
}

// A user catalog with `file` imported into the book "bugs", for the layered catalog.
Catalog with_book(const std::string& name, const std::string& file) {
  const fs::path dir = test::binary_path("tests/scenario_work/" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string db = (dir / "catalog.sqlite").string();
  ImportOptions o;
  o.book = "bugs";
  o.as_of = "2026-11-27";
  import_price_book(db, file, o);
  return Catalog::open_layered(db);
}

bool has_warning(const OptionInputs& o, const std::string& part) {
  for (const auto& w : o.input_warnings) {
    if (w.find(part) != std::string::npos) return true;
  }
  return false;
}

TEST(MarketVerdict, bandsAndAbsurdFactorByHand) {
  // Median of 2, 3, 4, 10 = (3 + 4) / 2 = 3.5.
  const MarketVerdict fine = judge_against_market(3.5, {2, 3, 4, 10}, 3, 4, 3);
  EXPECT_EQ(fine.level, MarketVerdict::Level::fine);
  EXPECT_EQ(fine.median, 3.5);
  EXPECT_EQ(fine.peers, 4);
  // 0.83 / 3.5 = 0.237 < 1/3: outside the band.
  EXPECT_EQ(judge_against_market(0.83, {2, 3, 4, 10}, 3, 4, 3).level,
            MarketVerdict::Level::outlier);
  // 2182.7 / 3.5 = 623.6 >= 100: cannot be meant.
  const MarketVerdict absurd = judge_against_market(2182.7, {2, 3, 4, 10}, 3, 4, 3);
  EXPECT_EQ(absurd.level, MarketVerdict::Level::absurd);
  EXPECT_EQ(hours_per_month_hint(absurd.ratio),
            "a monthly price typed per hour? (a month is 730 h)");  // 623.6 / 730 = 0.85
  EXPECT_EQ(hours_per_month_hint(1.0 / 700),
            "an hourly rate typed as a monthly price? (a month "
            "is 730 h)");                    // 730 / 700 = 1.04
  EXPECT_EQ(hours_per_month_hint(120), "");  // 120 / 730 = 0.16: neither
  // Fewer observations than asked: no verdict.
  EXPECT_EQ(judge_against_market(1, {2, 3}, 3, 4, 3).level, MarketVerdict::Level::unknown);
}

// "The cheapest rental wins even when it is 667 days old": a fresh offer is chosen, and the
// stale cheaper one is named; asked for, the stale one wins.
TEST(PriceChoice, aStaleCheaperOfferIsNotChosenOverAFreshOne) {
  const Catalog catalog = with_book("stale", bug("stale_cheapest_rental.csv"));
  const std::string text =
      "[scenario]\nas_of = 2026-11-27\ncurrency = USD\n[workload]\nmodel = llama-3.3-70b\n"
      "quant = Q4_K_M\n[option:h100]\nkind = rent_hourly\ngpu = h100-sxm\n";
  const ResolvedScenario r = resolve(parse_text(text), catalog);
  // The fresh on-demand H100 SXM offers (observed 2026-08-30 or later): the cheapest is RunPod
  // Community Cloud at 2.69 USD (2026-09-25); oldcloud's 1.99 of 2025-01-29 is 667 days old.
  EXPECT_EQ(option(r, "h100").rate_per_gpu_hour, 2.69);
  EXPECT_TRUE(has_warning(option(r, "h100"),
                          "oldcloud 1x H100 SXM at 1.99 USD observed "
                          "2025-01-29 (667 days old at 2026-11-27)"));
  const InputRow* rate = input(r, "h100", "rate_per_gpu_hour");
  ASSERT_NE(rate, nullptr);
  EXPECT_NE(rate->provenance.find("the cheapest of "), std::string::npos) << rate->provenance;
  EXPECT_NE(rate->provenance.find("observed within 90 days of 2026-11-27"), std::string::npos)
      << rate->provenance;
  const ResolvedScenario any = resolve(parse_text(text + "prefer_fresh_prices = false\n"), catalog);
  EXPECT_EQ(option(any, "h100").rate_per_gpu_hour, 1.99);
}

// The newcomer's fleet: an option of 8 H100s per unit took RunPod's 1-GPU Community Cloud rate
// (2.69 USD), though its replicas span the box's GPUs over NVLink, which 8 one-GPU instances
// do not share. An offer whose instance holds the unit's devices comes first.
TEST(PriceChoice, aBoxOfEightTakesAnOfferWhoseInstanceHoldsEight) {
  const Catalog catalog = Catalog::open_builtin();
  const std::string text =
      "[scenario]\nas_of = 2026-11-27\ncurrency = USD\n[workload]\nmodel = llama-3.3-70b\n"
      "quant = FP8\n[option:box]\nkind = rent_hourly\ngpu = h100-sxm\n";
  // The fresh (observed 2026-08-29 or later) on-demand H100 SXM offers of 8 or more GPUs:
  // Lambda's 8x H100 SXM at 31.92 USD an instance-hour (2026-09-25), 31.92 / 8 = 3.99 a
  // device-hour; RunPod's 1-GPU Community Cloud at 2.69 is fresh and cheaper but one GPU.
  const ResolvedScenario eight = resolve(parse_text(text + "count = 8\n"), catalog);
  EXPECT_EQ(option(eight, "box").rate_per_gpu_hour, 31.92 / 8);
  const InputRow* rate = input(eight, "box", "rate_per_gpu_hour");
  ASSERT_NE(rate, nullptr);
  EXPECT_EQ(rate->provenance.rfind("lambda 8x H100 SXM (on_demand), 31.92 USD an instance-hour "
                                   "for an instance of 8 devices; catalog: ",
                                   0),
            0u)
      << rate->provenance;
  EXPECT_NE(rate->provenance.find("on_demand hourly offers of h100-sxm whose instance holds at "
                                  "least 8 devices"),
            std::string::npos)
      << rate->provenance;
  EXPECT_FALSE(has_warning(option(eight, "box"), "fewer devices than the option's box"));
  // The instance size before freshness: RunPod's only 8-GPU H100 SXM offer, 23.92 USD
  // (2025-06-07, stale) = 2.99 a device-hour, before its fresh 1-GPU 2.69.
  const ResolvedScenario runpod =
      resolve(parse_text(text + "count = 8\nprovider = runpod\n"), catalog);
  EXPECT_EQ(option(runpod, "box").rate_per_gpu_hour, 23.92 / 8);
  // A one-GPU option is as before: the cheapest fresh offer of any instance size, 2.69.
  const ResolvedScenario one = resolve(parse_text(text + "count = 1\n"), catalog);
  EXPECT_EQ(option(one, "box").rate_per_gpu_hour, 2.69);
  // No instance holds 16: the smaller ones compete (RunPod's 2.69 again), with the warning.
  const ResolvedScenario sixteen = resolve(parse_text(text + "count = 16\n"), catalog);
  EXPECT_EQ(option(sixteen, "box").rate_per_gpu_hour, 2.69);
  EXPECT_TRUE(has_warning(option(sixteen, "box"),
                          "rental rate: the catalog has no on_demand hourly offers of h100-sxm "
                          "whose instance holds the option's 16 devices (the largest holds 8): "
                          "the rate is runpod H100 SXM, Community Cloud's, an instance of 1 "
                          "device, fewer devices than the option's box; 16 such instances are "
                          "not one box, and a replica across several GPUs (tensor or pipeline "
                          "parallel) needs the NVLink within one box"));
}

TEST(PriceChoice, offersForAUnitHoldItsDevicesElseAreTheSmallerOnes) {
  const auto offer = [](int devices) {
    RentalOffer r;
    r.devices_per_instance = devices;
    return r;
  };
  const std::vector<RentalOffer> offers = {offer(1), offer(8), offer(4), offer(2)};
  const UnitOffers four = offers_for_unit(offers, 4);
  ASSERT_EQ(four.offers.size(), 2u);  // the 8- and the 4-GPU instances
  EXPECT_EQ(four.offers[0].devices_per_instance, 8);
  EXPECT_EQ(four.offers[1].devices_per_instance, 4);
  EXPECT_FALSE(four.smaller_instances);
  EXPECT_EQ(four.largest_instance, 8);
  EXPECT_EQ(offers_for_unit(offers, 1).offers.size(), 4u);
  const UnitOffers sixteen = offers_for_unit(offers, 16);
  EXPECT_EQ(sixteen.offers.size(), 4u);
  EXPECT_TRUE(sixteen.smaller_instances);
  EXPECT_EQ(sixteen.largest_instance, 8);
  EXPECT_TRUE(offers_for_unit({}, 8).offers.empty());
}

// "Of two purchase prices on the same date the catalog picks the list price over the street
// price without saying so".
TEST(PriceChoice, streetBeforeListAndTheReasonIsGiven) {
  const Catalog catalog = with_book("list", bug("list_vs_street.csv"));
  const std::string text =
      "[scenario]\nas_of = 2026-11-27\ncurrency = USD\n[workload]\nmodel = qwen3-32b\n"
      "quant = Q4_K_M\n[site]\ntariff_per_kwh = 0.2\n[option:own]\nkind = buy\ngpu = rtx-5090\n";
  const ResolvedScenario street = resolve(parse_text(text), catalog);
  EXPECT_EQ(option(street, "own").price_per_gpu, 2700);
  const InputRow* row = input(street, "own", "price_per_gpu");
  ASSERT_NE(row, nullptr);
  EXPECT_NE(row->provenance.find("the latest street price (price_basis = street"),
            std::string::npos)
      << row->provenance;
  const ResolvedScenario list = resolve(parse_text(text + "price_basis = list\n"), catalog);
  EXPECT_EQ(option(list, "own").price_per_gpu, 1999);
}

TEST(TypedPrices, spotAboveOnDemandIsFlagged) {
  const ResolvedScenario r =
      resolve(parse_file(bug("spot_above_on_demand.ini")), Catalog::open_builtin());
  EXPECT_TRUE(has_warning(option(r, "h100-spot"),
                          "spot rate 3.49 USD per device-hour is above the on-demand rate 2.99 "
                          "USD of option 'h100-on-demand'"));
  EXPECT_TRUE(option(r, "h100-on-demand").input_warnings.empty());
}

TEST(TypedPrices, reservedAboveOnDemandIsFlagged) {
  const ResolvedScenario r =
      resolve(parse_file(bug("reserved_above_on_demand.ini")), Catalog::open_builtin());
  EXPECT_TRUE(has_warning(option(r, "h100-reserved"),
                          "reserved_1y rate 3.2 USD per device-hour is above the on-demand rate "
                          "2.99 USD of option 'h100-on-demand' (the same device): a reserved term "
                          "is a commitment sold below on-demand"));
  EXPECT_TRUE(option(r, "h100-on-demand").input_warnings.empty());
}

// A typed rate of a device with fewer than 3 offers near as_of is compared with its offers of
// any date, and with none, with what owning it costs (issue 38).
TEST(TypedPrices, aRateWithoutAMarketIsHeldAgainstThePurchasePrice) {
  // mi300x: one on_demand offer in the catalog; purchase prices 15,000 and 17,500 USD.
  // 17,500 / 2,190 h = 7.99 USD an hour: a renter would pay the card every three months.
  const std::string text =
      "[scenario]\nas_of = 2026-11-27\ncurrency = USD\n[workload]\nmodel = llama-3.3-70b\n"
      "quant = Q4_K_M\nhours_per_day = 10\n[option:r]\nkind = rent_hourly\ngpu = mi300x\n"
      "rate_per_gpu_hour = 9\n";
  const ResolvedScenario r = resolve(parse_text(text), Catalog::open_builtin());
  EXPECT_TRUE(has_warning(option(r, "r"),
                          "rate_per_gpu_hour (typed): 9 USD per device-hour is above the highest "
                          "catalog purchase price 17500.00 USD of mi300x / 2190 h (3 months of "
                          "hours) = 7.9909 USD"))
      << (option(r, "r").input_warnings.empty() ? "" : option(r, "r").input_warnings.front());
}

TEST(TypedPrices, aMonthlyPriceTypedPerHourCannotBeMeant) {
  try {
    resolve(parse_file(bug("monthly_price_typed_hourly.ini")), Catalog::open_builtin());
    FAIL() << "expected ScenarioError";
  } catch (const ScenarioError& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.key(), "[option:h100] rate_per_gpu_hour");
    EXPECT_EQ(e.line(), 14);  // the key's line in the file
    EXPECT_NE(what.find("2182.7 USD per device-hour is "), std::string::npos) << what;
    EXPECT_NE(what.find("cannot be meant; a monthly price typed per hour? (a month is 730 h)"),
              std::string::npos)
        << what;
  }
}

TEST(TypedPrices, anHourlyRateTypedAsAMonthlyRentCannotBeMeant) {
  try {
    resolve(parse_file(bug("hourly_rate_typed_monthly.ini")), Catalog::open_builtin());
    FAIL() << "expected ScenarioError";
  } catch (const ScenarioError& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.key(), "[option:server] price_per_month");
    EXPECT_NE(what.find("0.79 USD a month / 1 device(s) / 730 h = "), std::string::npos) << what;
    EXPECT_NE(what.find("an hourly rate typed as a monthly price?"), std::string::npos) << what;
  }
}

// "A three-year-old H100 server, host included, is assumed to resell at 46 %".
TEST(Resale, anH100ServerResellsByTheCurvesOfItsGpusAndItsHost) {
  const ResolvedScenario r =
      resolve(parse_file(bug("h100_server_resale.ini")), Catalog::open_builtin());
  const InputRow* gpus = input(r, "h100-server", "device_residual_fraction");
  const InputRow* host = input(r, "h100-server", "host_residual_fraction");
  ASSERT_NE(gpus, nullptr);
  ASSERT_NE(host, nullptr);
  EXPECT_DOUBLE_EQ(*gpus->value, 0.30);   // datacenter (new) at 36 months (GLRI midpoint)
  EXPECT_DOUBLE_EQ(*host->value, 0.125);  // host (new) at 36 months
  // (0.30 x 8 x 27,500 + 0.125 x 45,000) / (220,000 + 45,000) = (66,000 + 5,625) / 265,000.
  EXPECT_NEAR(option(r, "h100-server").residual_fraction, 71625.0 / 265000.0, 1e-12);
  EXPECT_LT(option(r, "h100-server").residual_fraction, 0.46);
}

}  // namespace
}  // namespace gputco
