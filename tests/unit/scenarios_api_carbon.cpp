// Issue #8's scenario keys: the token mix, api options, idle power, grid carbon and green
// power; parsing errors with file:line:key, and resolution against the built-in catalog
// (API prices converted from USD, intensities by region, with provenance).
#include <gtest/gtest.h>

#include <sstream>

#include "engine/plan/plan.hpp"
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
    "quant = Q4_K_M\n";

std::string resolve_error_of(const std::string& text) {
  try {
    const Catalog catalog = Catalog::open_builtin();
    resolve(parse(text), catalog);
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "";
}

ResolvedScenario resolved(const std::string& text) {
  const Catalog catalog = Catalog::open_builtin();
  return resolve(parse(text), catalog);
}

const InputRow* input(const ResolvedScenario& r, const std::string& section,
                      const std::string& key) {
  for (const auto& row : r.inputs) {
    if (row.section == section && row.key == key) return &row;
  }
  return nullptr;
}

const OptionInputs& option(const ResolvedScenario& r, const std::string& id) {
  for (const auto& o : r.plan_inputs.options) {
    if (o.id == id) return o;
  }
  throw std::runtime_error("no option " + id);
}

TEST(TokenMix, requestsTimesTokensPerRequest) {
  // 1,200 requests x 400 output tokens = 480,000 tokens/day; 1,500 / 400 = 3.75 input per
  // output token.
  const auto r = resolved(kHead +
                          "requests_per_day = 1200\nprompt_tokens_per_request = 1500\n"
                          "output_tokens_per_request = 400\n"
                          "[site]\ntariff_per_kwh = 0.25\n"
                          "[option:api]\nkind = api\napi = groq-qwen3-32b\n");
  const auto& w = r.plan_inputs.workload;
  ASSERT_TRUE(w.tokens_per_day && w.input_tokens_per_output_token && w.requests_per_day);
  EXPECT_DOUBLE_EQ(*w.tokens_per_day, 480'000);
  EXPECT_DOUBLE_EQ(*w.input_tokens_per_output_token, 3.75);
  EXPECT_DOUBLE_EQ(*w.requests_per_day, 1200);
  const auto* row = input(r, "workload", "tokens_per_day");
  ASSERT_NE(row, nullptr);
  EXPECT_EQ(row->provenance, "derived: requests_per_day x output_tokens_per_request");
}

TEST(TokenMix, conflictingOrIncompleteMixesAreRefusedWithTheLine) {
  EXPECT_EQ(error_of(kHead + "requests_per_day = 100\ntokens_per_day = 1000\n"),
            "test.ini:7: [workload] requests_per_day: give either requests_per_day (with "
            "prompt_tokens_per_request and output_tokens_per_request) or tokens_per_day, not "
            "both");
  EXPECT_EQ(error_of(kHead + "requests_per_day = 100\n"),
            "test.ini:7: [workload] requests_per_day: needs prompt_tokens_per_request and "
            "output_tokens_per_request (the tokens of one request)");
  EXPECT_EQ(error_of(kHead + "tokens_per_day = 1000\nprompt_tokens_per_request = 10\n"
                             "output_tokens_per_request = 5\ninput_tokens_per_output_token = 2\n"),
            "test.ini:10: [workload] input_tokens_per_output_token: the token mix is given "
            "twice: drop it, or drop prompt_tokens_per_request and output_tokens_per_request");
  EXPECT_NE(error_of(kHead + "output_tokens_per_request = 0\n")
                .find("test.ini:7: [workload] output_tokens_per_request: expected generated "
                      "(output) tokens per request between 1 and"),
            std::string::npos);
  EXPECT_EQ(error_of(kHead + "prompt_tokens_per_reqest = 10\n"),
            "test.ini:7: [workload] prompt_tokens_per_reqest: unknown key; did you mean "
            "'prompt_tokens_per_request'?");
}

TEST(ApiOption, needsAStatedVolumeNamingTheKeys) {
  const std::string text = kHead + "[site]\ntariff_per_kwh = 0.25\n" +
                           "[option:api]\nkind = api\napi = groq-qwen3-32b\n";
  const std::string e = resolve_error_of(text);
  EXPECT_NE(e.find("test.ini:4: [workload] tokens_per_day: missing: option 'api' is a "
                   "pay-per-token API: state the volume, requests_per_day with "
                   "prompt_tokens_per_request and output_tokens_per_request, or tokens_per_day "
                   "with input_tokens_per_output_token"),
            std::string::npos)
      << e;
  const std::string no_mix = kHead + "tokens_per_day = 1000\n[site]\ntariff_per_kwh = 0.25\n" +
                             "[option:api]\nkind = api\napi = groq-qwen3-32b\n";
  EXPECT_NE(resolve_error_of(no_mix).find("[workload] input_tokens_per_output_token: missing"),
            std::string::npos)
      << resolve_error_of(no_mix);
}

TEST(ApiOption, keysOfOtherKindsAndMissingPricesAreRefused) {
  const std::string mix = kHead + "tokens_per_day = 1000\ninput_tokens_per_output_token = 2\n";
  // A missing key has no line of its own: the message names its section's.
  EXPECT_EQ(error_of(mix + "[option:a]\nkind = api\n"),
            "test.ini:9: [option:a] api: missing: set api to a catalog API price id (gputco "
            "catalog list apis), or both input_price_per_million and output_price_per_million");
  EXPECT_EQ(error_of(mix + "[option:a]\nkind = api\napi = x\ngpu = rtx-3090\n"),
            "test.ini:12: [option:a] gpu: an api option has no devices (kind = api)");
  EXPECT_EQ(error_of(mix + "[option:a]\nkind = buy\ngpu = rtx-3090\napi = x\n"),
            "test.ini:12: [option:a] api: applies to kind = api only (this option is buy)");
  EXPECT_EQ(error_of(mix + "[option:a]\nkind = api\napi = x\ngrid_region = nl\n"),
            "test.ini:12: [option:a] grid_region: does not apply to kind = api (the provider's "
            "energy is not published)");
  EXPECT_EQ(error_of(mix + "[option:a]\nkind = rent_hourly\ngpu = l40s\nidle_power_w = 30\n"),
            "test.ini:12: [option:a] idle_power_w: applies to kind = buy only (this option is "
            "rent_hourly)");
  EXPECT_EQ(resolve_error_of(mix + "[option:a]\nkind = api\napi = groq-qwen-32b\n"),
            "test.ini:11: [option:a] api: unknown API price (as of 2026-11-27) 'groq-qwen-32b'; "
            "did you mean 'groq-qwen3-32b'? (gputco catalog list apis)");
}

TEST(ApiOption, catalogPricesConvertedWithProvenanceAndGivenPricesKept) {
  const auto r = resolved(kHead + "tokens_per_day = 1000\ninput_tokens_per_output_token = 2\n" +
                          "[option:groq]\nkind = api\napi = groq-llama-3.3-70b\n" +
                          "[option:own]\nkind = api\ninput_price_per_million = 0.5\n" +
                          "output_price_per_million = 1.5\ntokens_per_minute_limit = 5000\n");
  const auto& groq = option(r, "groq");
  EXPECT_EQ(groq.kind, OptionKind::api);
  EXPECT_EQ(groq.api_model, "llama-3.3-70b-versatile");
  // Catalog: 0.59 / 0.79 USD, 30 requests/min, 12,000 tokens/min (Groq free plan).
  const Catalog catalog = Catalog::open_builtin();
  const auto fx = catalog.fx_rate("USD", "EUR", "2026-11-27");
  ASSERT_TRUE(fx);
  EXPECT_DOUBLE_EQ(groq.input_price_per_million, 0.59 * fx->rate);
  EXPECT_DOUBLE_EQ(groq.output_price_per_million, 0.79 * fx->rate);
  EXPECT_DOUBLE_EQ(groq.requests_per_minute_limit.value_or(0), 30);
  EXPECT_DOUBLE_EQ(groq.tokens_per_minute_limit.value_or(0), 12000);
  const auto* row = input(r, "groq", "output_price_per_million");
  ASSERT_NE(row, nullptr);
  EXPECT_NE(row->provenance.find("catalog: BerriAI/litellm"), std::string::npos) << row->provenance;
  EXPECT_NE(row->provenance.find("converted from 0.7900 USD"), std::string::npos);
  bool listed = false;
  for (const auto& s : r.sources)
    listed = listed || s.what == "API groq-llama-3.3-70b output tokens";
  EXPECT_TRUE(listed);
  const auto& own = option(r, "own");
  EXPECT_DOUBLE_EQ(own.input_price_per_million, 0.5);
  EXPECT_DOUBLE_EQ(own.output_price_per_million, 1.5);
  EXPECT_DOUBLE_EQ(own.tokens_per_minute_limit.value_or(0), 5000);
  EXPECT_FALSE(own.requests_per_minute_limit);
}

TEST(GridCarbon, siteIntensityFromTheTariffRegionTheRegionOrGreenPower) {
  const std::string option =
      "[option:rig]\nkind = buy\ngpu = rtx-3090\ncondition = used\ncount = 2\n";
  // The tariff's region (nl) by default.
  auto r = resolved(kHead + "[site]\ntariff = nl-business\n" + option);
  ASSERT_TRUE(r.plan_inputs.site.grid_g_co2e_per_kwh);
  EXPECT_DOUBLE_EQ(*r.plan_inputs.site.grid_g_co2e_per_kwh, 251);
  const auto* row = input(r, "site", "grid_g_co2e_per_kwh");
  ASSERT_NE(row, nullptr);
  EXPECT_NE(row->provenance.find("default: the tariff's region 'nl'"), std::string::npos);
  // A named region.
  r = resolved(kHead + "[site]\ntariff = nl-business\ngrid_region = fr\n" + option);
  EXPECT_DOUBLE_EQ(r.plan_inputs.site.grid_g_co2e_per_kwh.value_or(-1), 33);
  // A green-power contract: 0 g/kWh, market-based, unless stated.
  r = resolved(kHead + "[site]\ntariff = nl-business\ngreen_power = true\n" + option);
  EXPECT_DOUBLE_EQ(r.plan_inputs.site.grid_g_co2e_per_kwh.value_or(-1), 0);
  r = resolved(kHead +
               "[site]\ntariff = nl-business\ngreen_power = true\n"
               "green_power_g_co2e_per_kwh = 20\n" +
               option);
  EXPECT_DOUBLE_EQ(r.plan_inputs.site.grid_g_co2e_per_kwh.value_or(-1), 20);
  // A plain tariff figure says nothing about the grid: unknown, never 0.
  r = resolved(kHead + "[site]\ntariff_per_kwh = 0.25\n" + option);
  EXPECT_FALSE(r.plan_inputs.site.grid_g_co2e_per_kwh);
  EXPECT_EQ(resolve_error_of(kHead + "[site]\ntariff_per_kwh = 0.25\ngrid_region = nll\n" + option),
            "test.ini:9: [site] grid_region: unknown grid region (as of 2026-11-27) 'nll'; did "
            "you mean 'nl'? (gputco catalog list carbon)");
  EXPECT_EQ(error_of(kHead + "[site]\ngreen_power_g_co2e_per_kwh = 10\n"),
            "test.ini:8: [site] green_power_g_co2e_per_kwh: applies with green_power = true only");
}

TEST(GridCarbon, rentalsTakeTheOffersRegionOrAreUnknown) {
  const std::string head = kHead + "[site]\ntariff_per_kwh = 0.25\n";
  // Scaleway's Paris offer: fr-par-2 -> the French grid.
  auto r = resolved(head + "[option:l40s]\nkind = rent_hourly\ngpu = l40s\nprovider = scaleway\n");
  const auto& l40s = option(r, "l40s");
  EXPECT_DOUBLE_EQ(l40s.grid_g_co2e_per_kwh.value_or(-1), 33);
  EXPECT_DOUBLE_EQ(l40s.pue.value_or(0), 1.58);
  // RunPod's offer is "global": no intensity, a reason instead.
  r = resolved(head + "[option:l40s]\nkind = rent_hourly\ngpu = l40s\nprovider = runpod\n");
  EXPECT_FALSE(option(r, "l40s").grid_g_co2e_per_kwh);
  EXPECT_EQ(option(r, "l40s").carbon_unknown_reason,
            "unknown: the catalog has no grid carbon intensity for the provider's region "
            "'global'");
  // A rate given by hand has no region, unless the scenario names one.
  r = resolved(head +
               "[option:l40s]\nkind = rent_hourly\ngpu = l40s\nrate_per_gpu_hour = 1\n"
               "grid_region = de\n");
  EXPECT_DOUBLE_EQ(option(r, "l40s").grid_g_co2e_per_kwh.value_or(-1), 341);
}

TEST(IdlePower, defaultsAndKeys) {
  const std::string head = kHead + "[site]\ntariff_per_kwh = 0.25\n";
  auto r =
      resolved(head + "[option:rig]\nkind = buy\ngpu = rtx-3090\ncondition = used\ncount = 2\n");
  // 2 x 350 W x 10 % + 150 W host x 50 % = 70 + 75 = 145 W; off when idle by default.
  EXPECT_DOUBLE_EQ(option(r, "rig").idle_power_w, 145);
  EXPECT_TRUE(option(r, "rig").powered_off_when_idle);
  r = resolved(head +
               "[option:rig]\nkind = buy\ngpu = rtx-3090\ncondition = used\ncount = 2\n"
               "idle_power_w = 90\n"
               "powered_off_when_idle = false\n");
  EXPECT_DOUBLE_EQ(option(r, "rig").idle_power_w, 90);
  EXPECT_FALSE(option(r, "rig").powered_off_when_idle);
}

TEST(IdlePower, aServiceReachable24x7KeepsOwnedHardwareOnUnlessTheFileSaysOff) {
  const std::string rig =
      "[site]\ntariff_per_kwh = 0.25\n[option:rig]\nkind = buy\ngpu = rtx-3090\n"
      "condition = used\ncount = 2\n";
  // availability = 24x7: reachable every hour, so on all month by default; no warning.
  auto r = resolved(kHead + "hours_per_day = 8\navailability = 24x7\n" + rig);
  EXPECT_FALSE(option(r, "rig").powered_off_when_idle);
  const InputRow* row = input(r, "rig", "powered_off_when_idle");
  ASSERT_NE(row, nullptr);
  EXPECT_EQ(row->value.value_or(-1), 0.0);
  EXPECT_NE(row->provenance.find("availability = 24x7"), std::string::npos) << row->provenance;
  EXPECT_TRUE(r.warnings.empty());
  // The engine then counts the idle unit-hours: month 1 (730 h) less the 8 h x 730 / 24 =
  // 243.33 h at load (no stated demand: one unit at full load) = 486.67 h x 145 W (2 x 350 W
  // x 10 % + 150 W x 50 %) / 1000 x PUE 1.0 = 70.57 kWh.
  const Plan plan = make_plan(r.plan_inputs);
  EXPECT_NEAR(plan.options.at(0).cash_flow.idle_kwh.at(1), (730 - 8 * 730 / 24.0) * 0.145, 1e-9);
  // Hours of use (the default availability): off outside them, as before.
  r = resolved(kHead + "hours_per_day = 8\n" + rig);
  EXPECT_TRUE(option(r, "rig").powered_off_when_idle);
  // An explicit true wins, with a warning naming the option and the conflict.
  r = resolved(kHead + "hours_per_day = 8\navailability = 24x7\n" + rig +
               "powered_off_when_idle = true\n");
  EXPECT_TRUE(option(r, "rig").powered_off_when_idle);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0].rfind("option rig: powered_off_when_idle = true with availability = "
                                "24x7: the unit is counted as switched off outside the hours of "
                                "use",
                                0),
            0u)
      << r.warnings[0];
  // ... but not when the hours of use fill the month (24 h x 730 / 24 days = 730 h): no
  // hour is left to be off in.
  r = resolved(kHead + "hours_per_day = 24\navailability = 24x7\n" + rig +
               "powered_off_when_idle = true\n");
  EXPECT_TRUE(r.warnings.empty());
  // An explicit false with 24x7 agrees: no warning.
  r = resolved(kHead + "hours_per_day = 8\navailability = 24x7\n" + rig +
               "powered_off_when_idle = false\n");
  EXPECT_FALSE(option(r, "rig").powered_off_when_idle);
  EXPECT_TRUE(r.warnings.empty());
}

TEST(ApiOption, jsonScenariosCarryTheSameKeys) {
  std::istringstream in(R"({"scenario": {"as_of": "2026-11-27"},
    "workload": {"model": "qwen3-32b", "quant": "Q4_K_M", "requests_per_day": 100,
                 "prompt_tokens_per_request": 1000, "output_tokens_per_request": 250},
    "site": {"tariff": "de-business"},
    "option:api": {"kind": "api", "api": "groq-qwen3-32b"}})");
  const Scenario s = parse_scenario(in, ScenarioFormat::json, "test.json");
  const Catalog catalog = Catalog::open_builtin();
  const auto r = resolve(s, catalog);
  EXPECT_DOUBLE_EQ(r.plan_inputs.workload.tokens_per_day.value_or(0), 25'000);
  EXPECT_DOUBLE_EQ(r.plan_inputs.workload.input_tokens_per_output_token.value_or(0), 4);
  EXPECT_DOUBLE_EQ(r.plan_inputs.site.grid_g_co2e_per_kwh.value_or(-1), 341);
}

}  // namespace
}  // namespace gputco
