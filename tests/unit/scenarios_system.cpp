// A buy option that names a catalog system (`system = ID`, issue #21 item 2): the device,
// count, host power and price come from pricing/data/systems.csv and system_prices.csv, typed
// keys replace the part they name, and a contradiction or a missing price exits 2 naming the
// key.
#include <gtest/gtest.h>

#include <string>

#include "engine/plan/plan.hpp"
#include "pricing/catalog.hpp"
#include "scenarios/resolve.hpp"
#include "scenarios/scenario.hpp"
#include "tests/unit/scenarios_fixtures.hpp"

namespace gputco {
namespace {

using test::input;
using test::option;
using test::parse;

// Lines 1-11; the option's header is line 12, its kind line 13, the keys given from line 14.
const std::string kHead =
    "[scenario]\n"
    "currency = USD\n"
    "as_of = 2026-06-01\n"
    "horizon_months = 12\n"
    "[workload]\n"
    "model = qwen3-32b\n"
    "quant = Q4_K_M\n"
    "hours_per_day = 10\n"
    "days_per_month = 20\n"
    "[site]\n"
    "tariff_per_kwh = 0.15\n";

class SystemOption : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { catalog_ = new Catalog(Catalog::open_builtin()); }
  static void TearDownTestSuite() {
    delete catalog_;
    catalog_ = nullptr;
  }
  static ResolvedScenario resolved(const std::string& option_body) {
    return resolve(parse(kHead + "[option:own]\nkind = buy\n" + option_body), *catalog_);
  }
  /// The ScenarioError resolving (or parsing) gives, "" when none.
  static std::string error_of(const std::string& option_body) {
    try {
      resolved(option_body);
    } catch (const ScenarioError& e) {
      return e.what();
    }
    return "";
  }
  static Catalog* catalog_;
};
Catalog* SystemOption::catalog_ = nullptr;

TEST_F(SystemOption, hgxNodeTakesItsDevicesPowerAndWholePrice) {
  const ResolvedScenario r = resolved("system = hgx-h100-8x-ib\n");
  const OptionInputs& o = option(r, "own");
  EXPECT_EQ(o.system_id, "hgx-h100-8x-ib");
  EXPECT_EQ(o.system_name, "8x H100 server with InfiniBand (quoted node)");
  EXPECT_EQ(o.device.id, "h100-sxm");
  EXPECT_EQ(o.count, 8);
  EXPECT_DOUBLE_EQ(o.host_power_w, 4600);  // systems.csv: 10,200 W less 8 x 700 W
  // system_prices.csv: 313,500 USD for the whole node, in the plan's own currency; the
  // devices carry it: 313,500 / 8 = 39,187.5 each, host 0.
  EXPECT_DOUBLE_EQ(o.price_per_gpu, 39187.5);
  EXPECT_DOUBLE_EQ(o.host_cost, 0);
  const InputRow* price = input(r, "own", "system_price");
  ASSERT_NE(price, nullptr);
  EXPECT_DOUBLE_EQ(*price->value, 313500);
  EXPECT_NE(price->provenance.find("Latent Space '$2 H100s' companion sheet"), std::string::npos)
      << price->provenance;
  EXPECT_EQ(input(r, "own", "count")->provenance, "catalog system hgx-h100-8x-ib");
  EXPECT_NE(input(r, "own", "host_power_w")->provenance.find("catalog system hgx-h100-8x-ib"),
            std::string::npos);
  EXPECT_EQ(input(r, "own", "system")->provenance, "scenario file line 14");
  // The quote is of 2024-08-01: on the Sources sheet, stale at 2026-06-01.
  bool listed = false;
  for (const auto& source : r.sources) {
    if (source.what != "system hgx-h100-8x-ib purchase (new, whole system)") continue;
    listed = true;
    EXPECT_DOUBLE_EQ(source.amount, 313500);
    EXPECT_EQ(source.currency, "USD");
    EXPECT_TRUE(source.stale);
  }
  EXPECT_TRUE(listed);

  const Plan plan = make_plan(r.plan_inputs);
  const CashFlow& cf = plan.options.at(0).cash_flow;
  EXPECT_NEAR(cf.capex.at(0), 313500, 1e-6);
  // Month 1, one unit at load (no demand stated) for 10 h x 20 days = 200 h, PUE 1:
  // (8 x 700 W + 4,600 W) = 10.2 kW x 200 h = 2,040 kWh, x 0.15 USD/kWh = 306 USD.
  EXPECT_NEAR(cf.energy_kwh.at(1), 2040, 1e-6);
  EXPECT_NEAR(cf.energy.at(1), 306, 1e-6);
}

TEST_F(SystemOption, usedRigIsItsNewHostPlusFourUsedCards) {
  // rig-4x-rtx-3090 has a host-only price, new: 1,500 USD (2026-01-01), no used one: the new
  // host with used cards. The used RTX 3090 at 2026-06-01, street basis, fresh first: the
  // only one within 90 days, 750 USD (2026-05-16). 1,500 + 4 x 750 = 4,500 USD.
  const ResolvedScenario r = resolved("system = rig-4x-rtx-3090\ncondition = used\n");
  const OptionInputs& o = option(r, "own");
  EXPECT_EQ(o.device.id, "rtx-3090");
  EXPECT_EQ(o.count, 4);
  EXPECT_EQ(o.condition, Condition::used);
  EXPECT_DOUBLE_EQ(o.price_per_gpu, 750);
  EXPECT_DOUBLE_EQ(o.host_cost, 1500);
  EXPECT_DOUBLE_EQ(o.host_power_w, 150);
  EXPECT_NE(input(r, "own", "host_cost")->provenance.find("no used price: the new host"),
            std::string::npos);
  const Plan plan = make_plan(r.plan_inputs);
  EXPECT_NEAR(plan.options.at(0).cash_flow.capex.at(0), 4500, 1e-6);
}

TEST_F(SystemOption, convertedToThePlanCurrencyLikeOtherPrices) {
  // [fx] USD = 0.9: 313,500 USD = 282,150 EUR, 35,268.75 per device.
  const std::string text =
      "[scenario]\ncurrency = EUR\nas_of = 2026-06-01\n[workload]\nmodel = qwen3-32b\n"
      "quant = Q4_K_M\n[site]\ntariff_per_kwh = 0.2\n[fx]\nUSD = 0.9\n"
      "[option:own]\nkind = buy\nsystem = hgx-h100-8x-ib\n";
  const ResolvedScenario r = resolve(parse(text), *catalog_);
  const OptionInputs& o = option(r, "own");
  EXPECT_DOUBLE_EQ(o.price_per_gpu, 35268.75);
  EXPECT_EQ(o.converted_from.price_per_gpu, "USD");
  const InputRow* price = input(r, "own", "system_price");
  EXPECT_DOUBLE_EQ(*price->value, 282150);
  ASSERT_TRUE(price->published_amount.has_value());
  EXPECT_DOUBLE_EQ(*price->published_amount, 313500);
}

TEST_F(SystemOption, typedKeysReplaceThePartTheyName) {
  // host_power_w typed: it, not the catalog's 4,600 W.
  EXPECT_DOUBLE_EQ(
      option(resolved("system = hgx-h100-8x-ib\nhost_power_w = 5000\n"), "own").host_power_w, 5000);
  // host_cost typed with a whole-system price: the host's share of it; the devices carry the
  // rest, (313,500 - 13,500) / 8 = 37,500, and the capex stays 313,500.
  const OptionInputs split =
      option(resolved("system = hgx-h100-8x-ib\nhost_cost = 13500\n"), "own");
  EXPECT_DOUBLE_EQ(split.host_cost, 13500);
  EXPECT_DOUBLE_EQ(split.price_per_gpu, 37500);
  // price_per_gpu typed replaces the whole-system price: 8 x 30,000, host 0 unless typed.
  const OptionInputs typed =
      option(resolved("system = hgx-h100-8x-ib\nprice_per_gpu = 30000\n"), "own");
  EXPECT_DOUBLE_EQ(typed.price_per_gpu, 30000);
  EXPECT_DOUBLE_EQ(typed.host_cost, 0);
  // ... and says the host is free (newcomer5), naming the host; a typed host_cost is silent.
  ASSERT_EQ(typed.input_warnings.size(), 1u);
  EXPECT_EQ(typed.input_warnings[0],
            "host_cost is 0: price_per_gpu replaces the catalog's whole-system price of system "
            "hgx-h100-8x-ib (host included), so the host (8x H100 SXM node with InfiniBand "
            "networking, as quoted) costs nothing in this plan; set host_cost to price it");
  const OptionInputs host_typed =
      option(resolved("system = hgx-h100-8x-ib\nprice_per_gpu = 30000\nhost_cost = 9000\n"), "own");
  EXPECT_TRUE(host_typed.input_warnings.empty());
  // The rig's host price replaced, its cards still the catalog's: 2,000 + 4 x 750.
  const OptionInputs rig =
      option(resolved("system = rig-4x-rtx-3090\ncondition = used\nhost_cost = 2000\n"), "own");
  EXPECT_DOUBLE_EQ(rig.host_cost, 2000);
  EXPECT_DOUBLE_EQ(rig.price_per_gpu, 750);
  // The same gpu or count as the system's is no contradiction.
  EXPECT_EQ(error_of("system = hgx-h100-8x-ib\ngpu = H100-SXM\ncount = 8\n"), "");
  // A system with no price for the condition, priced by the keys instead.
  const OptionInputs dgx = option(resolved("system = dgx-h100\nprice_per_gpu = 40000\n"), "own");
  EXPECT_EQ(dgx.count, 8);
  EXPECT_DOUBLE_EQ(dgx.price_per_gpu, 40000);
}

TEST_F(SystemOption, badInputNamesTheKeyAndLine) {
  EXPECT_EQ(error_of("system = hgx-h100-8x\n"),
            "test.ini:14: [option:own] system: unknown system 'hgx-h100-8x'; did you mean "
            "'hgx-h100-8x-ib'? (gputco catalog list systems)");
  EXPECT_EQ(error_of("system = hgx-h100-8x-ib\ngpu = rtx-4090\n"),
            "test.ini:15: [option:own] gpu: 'rtx-4090' contradicts system = hgx-h100-8x-ib, "
            "which holds 8 x h100-sxm; leave gpu out (the system sets it) or describe the "
            "machine with gpu and count instead of system");
  EXPECT_EQ(error_of("system = hgx-h100-8x-ib\ncount = 4\n"),
            "test.ini:15: [option:own] count: 4 contradicts system = hgx-h100-8x-ib, which holds "
            "8 x h100-sxm; leave count out (the system sets it) or describe the machine with gpu "
            "and count instead of system");
  EXPECT_EQ(error_of("gpu = hgx-h100-8x-ib\n"),
            "test.ini:14: [option:own] gpu: 'hgx-h100-8x-ib' is a catalog system (8x H100 server "
            "with InfiniBand (quoted node): 8 x h100-sxm), not a device; use system = "
            "hgx-h100-8x-ib");
  // The quoted node has a new price only; dgx-h100 none at all.
  EXPECT_EQ(error_of("system = hgx-h100-8x-ib\ncondition = used\n"),
            "test.ini:14: [option:own] system: the catalog has no used price for system "
            "hgx-h100-8x-ib as of 2026-06-01; price_per_gpu (per device) and host_cost can "
            "supply it");
  EXPECT_EQ(error_of("system = dgx-h100\n"),
            "test.ini:14: [option:own] system: the catalog has no new price for system dgx-h100 "
            "as of 2026-06-01; price_per_gpu (per device) and host_cost can supply it");
  // With a whole-system price, host_cost is the host's share of it.
  EXPECT_EQ(error_of("system = hgx-h100-8x-ib\nhost_cost = 400000\n"),
            "test.ini:15: [option:own] host_cost: 400000.00 USD is above the whole price of "
            "system hgx-h100-8x-ib, 313500.00 USD: with a whole-system price host_cost is the "
            "host's share of it");
}

TEST_F(SystemOption, onlyBuyOptionsNameASystem) {
  const auto message = [](const std::string& body) {
    try {
      parse(kHead + "[option:r]\n" + body);
    } catch (const ScenarioError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(message("kind = rent_hourly\nsystem = hgx-h100-8x-ib\n"),
            "test.ini:14: [option:r] system: applies to kind = buy only (this option is "
            "rent_hourly)");
  // A rental naming a system as its gpu is told the device and count to use.
  try {
    resolve(parse(kHead + "[option:r]\nkind = rent_hourly\ngpu = hgx-h100-8x-ib\n"), *catalog_);
    ADD_FAILURE() << "a system id as a rental's gpu must be refused";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(std::string(e.what()),
              "test.ini:14: [option:r] gpu: 'hgx-h100-8x-ib' is a catalog system (8x H100 server "
              "with InfiniBand (quoted node): 8 x h100-sxm), not a device; use system = "
              "hgx-h100-8x-ib on a buy option, or gpu = h100-sxm with count = 8");
  }
  // colocation and blend are kinds of buy.
  EXPECT_EQ(message("kind = colocation\nsystem = hgx-h100-8x-ib\ncolo_per_kw_month = 150\n"), "");
}

}  // namespace
}  // namespace gputco
