// A buy option naming a catalog system (`system = ID`, issue #21 item 2) through the binary:
// the terminal names the system, the JSON gives its id, bad input exits 2 naming the key.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/paths.hpp"
#include "tests/support/process.hpp"

namespace gputco {
namespace {

const std::string kScenario =
    "[scenario]\ncurrency = USD\nas_of = 2026-06-01\nhorizon_months = 12\n"
    "[workload]\nmodel = qwen3-32b\nquant = Q4_K_M\nhours_per_day = 10\ndays_per_month = 20\n"
    "[site]\ntariff_per_kwh = 0.15\n"
    "[option:node]\nkind = buy\nsystem = hgx-h100-8x-ib\n"
    "[option:rig]\nkind = buy\ngpu = rtx-3090\ncount = 2\ncondition = used\n";

TEST(SystemOption, terminalAndJsonNameTheSystem) {
  test::TempDir dir;
  const std::string scenario = dir.file("s.ini");
  test::write_file(scenario, kScenario);
  const auto text = test::run(test::gputco_exe(), {"plan", scenario, "--no-workbook"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("\nnode system: hgx-h100-8x-ib (8x H100 server with InfiniBand "
                          "(quoted node)), 8 x h100-sxm\n"),
            std::string::npos)
      << text.out;
  EXPECT_EQ(text.out.find("rig system:"), std::string::npos) << text.out;

  const auto json = test::run(test::gputco_exe(), {"plan", scenario, "--no-workbook", "--json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto plan = nlohmann::json::parse(json.out);
  ASSERT_EQ(plan["options"].size(), 2u);
  EXPECT_EQ(plan["options"][0]["system_id"], "hgx-h100-8x-ib");
  EXPECT_EQ(plan["options"][0]["gpu"], "h100-sxm");
  EXPECT_EQ(plan["options"][0]["count"], 8);
  EXPECT_TRUE(plan["options"][1]["system_id"].is_null());
  // The system's price is an input of the option, in USD as published (system_prices.csv).
  double price = 0;
  for (const auto& row : plan["inputs"]) {
    if (row["section"] == "node" && row["key"] == "system_price") price = row["value"];
  }
  EXPECT_DOUBLE_EQ(price, 313500);
}

TEST(SystemOption, aSystemIdAsGpuExitsTwoSayingUseSystem) {
  test::TempDir dir;
  const std::string scenario = dir.file("s.ini");
  std::string text = kScenario;
  text.replace(text.find("system = hgx-h100-8x-ib"), 23, "gpu = hgx-h100-8x-ib");
  test::write_file(scenario, text);
  const auto result = test::run(test::gputco_exe(), {"plan", scenario, "--no-workbook"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find(scenario + ":14: [option:node] gpu: 'hgx-h100-8x-ib' is a catalog "
                                       "system"),
            std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find("use system = hgx-h100-8x-ib"), std::string::npos) << result.err;
  EXPECT_EQ(result.out, "");
}

}  // namespace
}  // namespace gputco
