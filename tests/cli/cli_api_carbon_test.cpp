// Issue #8 end to end: the rig / rented L40S / pay-per-token API example planned side by
// side with money and emissions, in text, JSON and CSV; the catalog's API prices and grid
// intensities listed; an api option without a stated volume refused with exit 2.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>

#include "tests/support/paths.hpp"
#include "tests/support/process.hpp"

namespace gputco {
namespace {

const std::string kExample = "scenarios/examples/rig-rent-or-api-30-people.ini";

nlohmann::json plan_json(test::TempDir& dir) {
  const auto result = test::run(test::gputco_exe(), {"plan", test::source_path(kExample), "-o",
                                                     dir.file("plan.xlsx"), "--json"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  return nlohmann::json::parse(result.out);
}

const nlohmann::json& option(const nlohmann::json& plan, const std::string& id) {
  for (const auto& o : plan["options"]) {
    if (o["id"] == id) return o;
  }
  throw std::runtime_error("no option " + id);
}

TEST(ApiCarbonExample, threePathsSideBySideWithMoneyAndEmissions) {
  test::TempDir dir;
  const auto plan = plan_json(dir);
  ASSERT_EQ(plan["options"].size(), 3u);
  EXPECT_EQ(plan["api_reference"], "api-qwen3-32b");
  EXPECT_DOUBLE_EQ(plan["tokens_per_day"].get<double>(), 480'000);
  EXPECT_DOUBLE_EQ(plan["input_tokens_per_output_token"].get<double>(), 3.75);

  const auto& rig = option(plan, "rig-2x3090");
  const auto& l40s = option(plan, "l40s-paris");
  const auto& api = option(plan, "api-qwen3-32b");
  for (const auto* o : {&rig, &l40s, &api}) {
    EXPECT_TRUE((*o)["total_cost"].is_number()) << (*o)["id"];
    EXPECT_TRUE((*o)["npv"].is_number()) << (*o)["id"];
    EXPECT_TRUE((*o)["cost_per_million_tokens"].is_number()) << (*o)["id"];
  }
  // The rig and the L40S: energy and CO2e known (Dutch grid; the offer's French region).
  for (const auto* o : {&rig, &l40s}) {
    EXPECT_GT((*o)["energy_kwh"]["total"].get<double>(), 0) << (*o)["id"];
    EXPECT_GT((*o)["co2e_kg"]["total"].get<double>(), 0) << (*o)["id"];
    EXPECT_EQ((*o)["energy_kwh"]["per_month"].size(), 37u);
    EXPECT_TRUE((*o)["co2e_kg"]["unknown_reason"].is_null());
    double months = 0;
    for (const auto& x : (*o)["co2e_kg"]["per_month"]) months += x.get<double>();
    EXPECT_NEAR(months, (*o)["co2e_kg"]["total"].get<double>(), 1e-9 * months);
    EXPECT_TRUE((*o).contains("break_even_tokens_per_day"));
  }
  EXPECT_DOUBLE_EQ(rig["co2e_kg"]["grid_g_co2e_per_kwh"].get<double>(), 251);
  EXPECT_DOUBLE_EQ(l40s["co2e_kg"]["grid_g_co2e_per_kwh"].get<double>(), 33);
  // The rig stays on: idle energy is part of its kWh and of its energy cost.
  double idle = 0;
  for (const auto& x : rig["energy_kwh"]["idle_per_month"]) idle += x.get<double>();
  EXPECT_GT(idle, 0);
  // kWh x 251 g / 1000 = kg.
  EXPECT_NEAR(rig["co2e_kg"]["total"].get<double>(),
              rig["energy_kwh"]["total"].get<double>() * 0.251, 1e-6);
  // The API: unknown, never 0.
  EXPECT_TRUE(api["energy_kwh"]["total"].is_null());
  EXPECT_TRUE(api["energy_kwh"]["per_month"].is_null());
  EXPECT_TRUE(api["co2e_kg"]["total"].is_null());
  EXPECT_NE(api["co2e_kg"]["unknown_reason"].get<std::string>().find("unknown"), std::string::npos);
  EXPECT_EQ(api["fit"]["verdict"], "hosted");
  // No devices: memory, speed, power and the energy per month are null, never 0.
  for (const char* key : {"weights_gib", "required_gib", "usable_gib", "headroom_gib"}) {
    EXPECT_TRUE(api["fit"][key].is_null()) << key;
  }
  EXPECT_TRUE(api["speed"]["decode_tokens_per_s"].is_null());
  EXPECT_TRUE(api["speed"]["aggregate_tokens_per_s"].is_null());
  EXPECT_TRUE(api["power_at_load_w"].is_null());
  EXPECT_TRUE(api["full_load_kwh_per_month"].is_null());
  EXPECT_TRUE(api["break_even_tokens_per_day"].is_null());
  EXPECT_GT(api["api"]["output_price_per_million"].get<double>(), 0);
  EXPECT_FALSE(api["api"]["rate_limit_exceeded"].get<bool>());
}

TEST(ApiCarbonExample, summaryShowsEnergyEmissionsAndUnknown) {
  test::TempDir dir;
  const auto result = test::run(test::gputco_exe(),
                                {"plan", test::source_path(kExample), "-o", dir.file("plan.xlsx")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("kWh/month"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("t CO2e total"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("api-qwen3-32b: CO2e unknown"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("Break-even volume"), std::string::npos) << result.out;
  EXPECT_FALSE(std::regex_search(result.out, std::regex(R"(\bnan\b|\binf\b)")));
}

TEST(ApiCarbonExample, csvHasTheNewColumnsAndEmptyUnknowns) {
  test::TempDir dir;
  const auto result = test::run(test::gputco_exe(), {"plan", test::source_path(kExample), "-o",
                                                     dir.file("plan.xlsx"), "--format", "csv"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find(",break_even_tokens_per_day,energy_kwh,co2e_kg,"
                            "co2e_kg_per_million_tokens,grid_g_co2e_per_kwh,recommended,note\r\n"),
            std::string::npos)
      << result.out;
  // The API's break-even volume says n/a (not compared: the break-even columns hold a
  // number or always / never / n/a), energy, CO2e, per million and intensity are empty
  // (unknown), then recommended = true and an empty note.
  const auto api = result.out.find("api-qwen3-32b,api,");
  ASSERT_NE(api, std::string::npos);
  const auto end = result.out.find("\r\n", api);
  EXPECT_EQ(result.out.substr(end - 14, 14), ",n/a,,,,,true,") << result.out.substr(api, end - api);
  // Hosted, as in the text and JSON (not "fits"), and no decode speed (empty, not 0).
  EXPECT_EQ(result.out.find("api-qwen3-32b,api,qwen/qwen3-32b,1,hosted,true,,,EUR,", api), api)
      << result.out.substr(api, end - api);
}

TEST(ApiCarbonCli, anApiOptionWithoutAVolumeExitsTwoNamingTheKeys) {
  test::TempDir dir;
  const std::string scenario = dir.file("api.ini");
  std::ofstream(scenario) << "[scenario]\nas_of = 2026-11-27\n[workload]\nmodel = qwen3-32b\n"
                             "quant = Q4_K_M\n[option:api]\nkind = api\napi = groq-qwen3-32b\n";
  const auto result = test::run(test::gputco_exe(), {"plan", scenario, "-o", dir.file("api.xlsx")});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("[workload] tokens_per_day: missing: option 'api' is a "
                            "pay-per-token API: state the volume, requests_per_day"),
            std::string::npos)
      << result.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("api.xlsx")));
}

TEST(ApiCarbonCli, catalogListsApiPricesAndGridIntensities) {
  auto apis = test::run(test::gputco_exe(), {"catalog", "list", "apis", "--as-of", "2026-11-27"});
  ASSERT_EQ(apis.exit_code, 0) << apis.err;
  EXPECT_NE(apis.out.find("groq-qwen3-32b"), std::string::npos) << apis.out;
  auto carbon = test::run(test::gputco_exe(),
                          {"catalog", "list", "carbon", "--as-of", "2026-11-27", "--json"});
  ASSERT_EQ(carbon.exit_code, 0) << carbon.err;
  const auto rows = nlohmann::json::parse(carbon.out).at("rows");
  bool nl = false;
  for (const auto& row : rows) {
    if (row["id"] == "nl") {
      nl = true;
      EXPECT_DOUBLE_EQ(row["g_co2e_per_kwh"].get<double>(), 251);
      EXPECT_EQ(row["data_year"], 2024);
      EXPECT_TRUE(row["stale"].is_boolean());
    }
  }
  EXPECT_TRUE(nl);
}

}  // namespace
}  // namespace gputco
