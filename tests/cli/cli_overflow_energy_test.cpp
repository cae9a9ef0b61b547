// Issue #21 finding H1 end to end: the blend of the own-base-rent-peaks example counts its
// rented overflow's energy and CO2e, as its rental counts its own, in JSON and the terminal;
// with the on-demand rental's region unknown ("global") its CO2e is unknown, not a guess.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/paths.hpp"
#include "tests/support/process.hpp"

namespace gputco {
namespace {

const std::string kExample = "scenarios/examples/own-base-rent-peaks.ini";

test::RunResult plan(const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"plan", test::source_path(kExample), "--no-workbook"};
  args.insert(args.end(), extra.begin(), extra.end());
  return test::run(test::gputco_exe(), args);
}

nlohmann::json option(const nlohmann::json& plan, const std::string& id) {
  for (const auto& o : plan["options"]) {
    if (o["id"] == id) return o;
  }
  throw std::runtime_error("no option " + id);
}

double sum(const nlohmann::json& row) {
  double s = 0;
  for (const auto& x : row) s += x.get<double>();
  return s;
}

// The owned RTX 5090's own kWh at load over 36 months: what the blend reported in all before
// H1 (4,978.8 kWh, gputco at commit b448348).
constexpr double kOwnedLoadKwh = 4978.810386633253;
// ... and in all since newcomer6 H1, with the idle draw of the months its load is under one
// unit, through the hours of use (91.8 kWh): 5,070.6 kWh at 341 g = 1.729 t.
constexpr double kOwnedKwh = 5070.589867696832;

TEST(OverflowEnergyExample, onDemandOverflowCountsItsKwhAndLeavesCo2eUnknown) {
  const auto result = plan({"--format", "json"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto blend = option(nlohmann::json::parse(result.out), "blend-5090-h100");
  const auto& kwh = blend["energy_kwh"];
  EXPECT_NEAR(kwh["owned"].get<double>(), kOwnedKwh, 1e-6);
  // The load part is unchanged by H1: the owned kWh less its idle kWh.
  EXPECT_NEAR(kwh["owned"].get<double>() - sum(kwh["idle_per_month"]), kOwnedLoadKwh, 1e-6);
  EXPECT_EQ(kwh["overflow"]["option"], "rent-h100");
  const double overflow = kwh["overflow"]["total"].get<double>();
  EXPECT_GT(overflow, 1000);  // the H100s carry most of a demand growing 4 % a month
  EXPECT_NEAR(sum(kwh["overflow"]["per_month"]), overflow, 1e-9 * overflow);
  EXPECT_NEAR(kwh["total"].get<double>(), kOwnedKwh + overflow, 1e-6);
  EXPECT_NEAR(sum(kwh["per_month"]), kwh["total"].get<double>(), 1e-6);
  // rent-h100's region is "global": no intensity, so the blend's CO2e is unknown.
  const auto& co2e = blend["co2e_kg"];
  EXPECT_TRUE(co2e["total"].is_null());
  EXPECT_TRUE(co2e["overflow"]["total"].is_null());
  EXPECT_TRUE(co2e["overflow"]["grid_g_co2e_per_kwh"].is_null());
  EXPECT_NEAR(co2e["owned"].get<double>(), kOwnedKwh * 341 / 1000, 1e-6);  // 1,729.1 kg
  EXPECT_NE(co2e["unknown_reason"].get<std::string>().find(
                "the catalog has no grid carbon intensity for the provider's region 'global'"),
            std::string::npos);
  EXPECT_NE(co2e["unknown_reason"].get<std::string>().find("the owned units alone: 1.729 t"),
            std::string::npos);
  // Options without overflow: no split.
  EXPECT_TRUE(
      option(nlohmann::json::parse(result.out), "rent-h100")["energy_kwh"]["overflow"].is_null());
}

TEST(OverflowEnergyExample, spotOverflowTakesTheSpotRentalsIntensity) {
  const auto result =
      plan({"--format", "json", "--set", "option:blend-5090-h100.overflow_option=spot-h100"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto json = nlohmann::json::parse(result.out);
  const auto blend = option(json, "blend-5090-h100");
  const double overflow_kwh = blend["energy_kwh"]["overflow"]["total"].get<double>();
  const double spot_g = option(json, "spot-h100")["co2e_kg"]["grid_g_co2e_per_kwh"].get<double>();
  EXPECT_DOUBLE_EQ(spot_g, 487);  // the spot offer's region, as the spot option itself
  const auto& co2e = blend["co2e_kg"];
  EXPECT_DOUBLE_EQ(co2e["overflow"]["grid_g_co2e_per_kwh"].get<double>(), 487);
  // kg = kWh x 487 g / 1000; the total = the owned 4,978.8 kWh x 341 g / 1000 + that.
  EXPECT_NEAR(co2e["overflow"]["total"].get<double>(), overflow_kwh * 487 / 1000, 1e-6);
  EXPECT_NEAR(co2e["total"].get<double>(), kOwnedKwh * 341 / 1000 + overflow_kwh * 487 / 1000,
              1e-6);
  EXPECT_NEAR(blend["energy_kwh"]["total"].get<double>(), kOwnedKwh + overflow_kwh, 1e-6);
  EXPECT_TRUE(co2e["unknown_reason"].is_null());
}

TEST(OverflowEnergyExample, theTerminalSaysWhatTheOverflowAdds) {
  const auto result = plan({"--set", "option:blend-5090-h100.overflow_option=spot-h100"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("  blend-5090-h100: of which the overflow rented from spot-h100: "),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("at 487 g/kWh (the owned units: 5071 kWh, 1.729 t CO2e)"),
            std::string::npos)
      << result.out;
}

}  // namespace
}  // namespace gputco
