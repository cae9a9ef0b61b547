// A catalog system's interconnect through the binary: `catalog list systems` shows the NVLink
// domain and the links (systems.csv nvlink_domain_gpus, interconnect), and a plan of an option
// resolved from a system says which links it used (terminal line, JSON keys).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/paths.hpp"
#include "tests/support/process.hpp"

namespace gputco {
namespace {

class SystemInterconnectCli : public ::testing::Test {
 protected:
  test::TempDir home_;
  test::TempDir work_;
  test::RunResult gputco(const std::vector<std::string>& args) const {
    return test::run(test::gputco_exe(), args, work_.path(), {{"XDG_DATA_HOME", home_.path()}});
  }
};

TEST_F(SystemInterconnectCli, catalogListSystemsShowsTheDomainAndTheLinks) {
  const auto text = gputco({"catalog", "list", "systems"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("NVLink interconnect\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("      1 PCIe 4.0 x16 per card, no NVLink bridge\n"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("      8 NVSwitch (4x), NVLink 900 GB/s per GPU\n"), std::string::npos)
      << text.out;
  const auto json = gputco({"catalog", "list", "systems", "--format", "json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  bool seen = false;
  const auto doc = nlohmann::json::parse(json.out);
  for (const auto& row : doc["rows"]) {
    if (row["id"] != "rig-4x-rtx-3090") continue;
    seen = true;
    EXPECT_EQ(row["nvlink_domain_gpus"], 1);
    EXPECT_EQ(row["interconnect"], "PCIe 4.0 x16 per card, no NVLink bridge");
  }
  EXPECT_TRUE(seen) << json.out;
}

TEST_F(SystemInterconnectCli, aPlanSaysWhichLinksASystemOptionUses) {
  test::write_file(work_.file("rig.ini"),
                   "[scenario]\ncurrency = USD\nas_of = 2026-06-01\nhorizon_months = 12\n"
                   "[workload]\nmodel = qwen3-32b\nquant = Q4_K_M\n[site]\ntariff_per_kwh = 0.15\n"
                   "[option:rig]\nkind = buy\nsystem = rig-4x-rtx-3090\ncondition = used\n"
                   "nvlink_domain_gpus = 2\n");
  const auto text = gputco({"plan", "rig.ini", "--no-workbook"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("rig interconnect: NVLink 112.5 GB/s within groups of 2 devices, PCIe "
                          "between the groups"),
            std::string::npos)
      << text.out;
  const auto json = gputco({"plan", "rig.ini", "--no-workbook", "--json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto option = nlohmann::json::parse(json.out)["options"][0];
  EXPECT_EQ(option["nvlink_domain_gpus"], 2);
  EXPECT_EQ(option["system_id"], "rig-4x-rtx-3090");
}

}  // namespace
}  // namespace gputco
