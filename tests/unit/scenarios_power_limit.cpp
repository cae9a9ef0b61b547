// A power limit in the scenario (issue #41 item 1): an option's power_limit_w, or a [device:]
// section's, reaches the engine's device (speed) and the energy at load (the limit instead of
// the board power); limits no card runs at exit 2 naming the key and line.
#include <gtest/gtest.h>

#include <string>

#include "engine/hardware/power_limit.hpp"
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

class PowerLimitOption : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { catalog_ = new Catalog(Catalog::open_builtin()); }
  static void TearDownTestSuite() {
    delete catalog_;
    catalog_ = nullptr;
  }
  static ResolvedScenario resolved(const std::string& option_body, const std::string& tail = "") {
    return resolve(parse(kHead + "[option:rig]\nkind = buy\n" + option_body + tail), *catalog_);
  }
  static std::string error_of(const std::string& option_body, const std::string& tail = "") {
    try {
      resolved(option_body, tail);
    } catch (const ScenarioError& e) {
      return e.what();
    }
    return "";
  }
  static Catalog* catalog_;
};
Catalog* PowerLimitOption::catalog_ = nullptr;

const std::string kRig = "gpu = rtx-3090\ncount = 2\nprice_per_gpu = 700\n";

// Two RTX 3090 capped at 250 W: month 1 at load for 10 h x 20 days = 200 h, PUE 1:
// (2 x 250 W + 150 W host) = 0.65 kW x 200 h = 130 kWh (uncapped: 0.85 kW, 170 kWh), x 0.15 USD
// = 19.50 USD.
TEST_F(PowerLimitOption, theLimitReachesSpeedAndEnergy) {
  const ResolvedScenario r = resolved(kRig + "power_limit_w = 250\n");
  const OptionInputs& o = option(r, "rig");
  EXPECT_EQ(o.device.power_limit_w, 250);
  EXPECT_EQ(o.device.board_power_w, 350);
  const InputRow* limit = input(r, "rig", "power_limit_w");
  ASSERT_NE(limit, nullptr);
  EXPECT_EQ(limit->provenance, "scenario file line 17");
  const InputRow* share = input(r, "rig", "power_limit_compute_share");
  ASSERT_NE(share, nullptr);
  EXPECT_NE(share->provenance.find("250 / 350 W = 0.714"), std::string::npos) << share->provenance;
  EXPECT_NE(input(r, "rig", "board_power_w")->provenance.find("board power 350 W"),
            std::string::npos);

  const Plan capped = make_plan(r.plan_inputs);
  EXPECT_NEAR(capped.options.at(0).cash_flow.energy_kwh.at(1), 130, 1e-6);
  EXPECT_NEAR(capped.options.at(0).cash_flow.energy.at(1), 19.5, 1e-6);
  EXPECT_NEAR(capped.options.at(0).power_at_load_w, 650, 1e-9);
  const Plan stock = make_plan(resolved(kRig).plan_inputs);
  EXPECT_NEAR(stock.options.at(0).cash_flow.energy_kwh.at(1), 170, 1e-6);
  // Decode loses a little (the fixed cost per layer at 0.842 of the clock), prefill more.
  const double decode = capped.options.at(0).speed.decode_tokens_per_s /
                        stock.options.at(0).speed.decode_tokens_per_s;
  EXPECT_LT(decode, 1.0);
  EXPECT_GT(decode, 0.97);
  EXPECT_NEAR(capped.options.at(0).speed.prefill_tokens_per_s /
                  stock.options.at(0).speed.prefill_tokens_per_s,
              power_limit_compute_share(250.0 / 350.0), 1e-9);
}

// A [device:] section's limit is the options' on it, unless an option gives its own.
TEST_F(PowerLimitOption, aDeviceSectionCarriesItsLimit) {
  const std::string device =
      "[device:capped-3090]\nvendor = nvidia\nmemory_gb = 24\nbandwidth_gbps = 936\n"
      "board_power_w = 350\nfp16_tflops = 71\npower_limit_w = 280\n";
  const std::string body = "gpu = capped-3090\ncount = 2\nprice_per_gpu = 700\n";
  const ResolvedScenario r = resolved(body, device);
  EXPECT_EQ(option(r, "rig").device.power_limit_w, 280);
  EXPECT_EQ(input(r, "rig", "power_limit_w")->provenance, "[device:capped-3090] power_limit_w");
  EXPECT_EQ(option(resolved(body + "power_limit_w = 300\n", device), "rig").device.power_limit_w,
            300);
  // Above the section's own board power: refused at the section.
  const std::string bad =
      "[device:capped-3090]\nvendor = nvidia\nmemory_gb = 24\n"
      "bandwidth_gbps = 936\nboard_power_w = 350\npower_limit_w = 400\n";
  const std::string message = error_of(body, bad);
  EXPECT_NE(message.find("[device:capped-3090] power_limit_w"), std::string::npos) << message;
  EXPECT_NE(message.find("above its board power 350 W"), std::string::npos) << message;
}

TEST_F(PowerLimitOption, limitsNoCardRunsAtExit2NamingTheKey) {
  const std::string above = error_of(kRig + "power_limit_w = 400\n");
  EXPECT_EQ(above.rfind("test.ini:17: [option:rig] power_limit_w: ", 0), 0u) << above;
  EXPECT_NE(above.find("above its board power 350 W"), std::string::npos) << above;
  const std::string below = error_of(kRig + "power_limit_w = 50\n");
  EXPECT_NE(below.find("below 25 % of its board power"), std::string::npos) << below;
  // Not a number.
  EXPECT_EQ(error_of(kRig + "power_limit_w = lots\n")
                .rfind("test.ini:17: [option:rig] power_limit_w: ", 0),
            0u);
  // Below 60 % of board power: planned, with a warning.
  const ResolvedScenario r = resolved(kRig + "power_limit_w = 200\n");
  bool warned = false;
  for (const auto& w : option(r, "rig").input_warnings)
    warned |= w.find("below 60 %") != std::string::npos;
  EXPECT_TRUE(warned);
}

}  // namespace
}  // namespace gputco
