// A sweep's point is the plan of the file with the value written in it (issue #19: the sweep
// reads its file once and checks the tree at every value): for keys of every section over the
// six examples, `gputco sweep --vary KEY=V:V:1 --json` gives the totals, NPVs and
// recommendation of `gputco plan --json` on a copy of the file that holds KEY = V.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/paths.hpp"
#include "tests/support/process.hpp"

namespace gputco {
namespace {

using nlohmann::json;

test::RunResult gputco(const std::vector<std::string>& args) {
  return test::run(test::gputco_exe(), args);
}

/// `ini` with `key = value` in [section]: the key's line replaced where the section has one,
/// else a line added below the section's header.
std::string with_value(const std::string& ini, const std::string& section, const std::string& key,
                       const std::string& value) {
  std::istringstream in(ini);
  std::string out, line;
  bool in_section = false, written = false;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] == '[') {
      in_section = line == "[" + section + "]";
      out += line + "\n";
      if (in_section) {
        // Added here; a line of the key further down is dropped below.
        out += key + " = " + value + "\n";
        written = true;
      }
      continue;
    }
    const bool key_line = line.rfind(key + " ", 0) == 0 || line.rfind(key + "=", 0) == 0;
    if (in_section && key_line) continue;
    out += line + "\n";
  }
  EXPECT_TRUE(written) << "no [" << section << "]";
  return out;
}

struct Case {
  const char* example;
  const char* section;
  const char* key;
  const char* value;
};

TEST(CliSweep, aPointIsThePlanOfTheFileWithTheValueWrittenInIt) {
  const std::vector<Case> cases = {
      {"office-assistant-32b.ini", "workload", "hours_per_day", "5.5"},
      {"office-assistant-32b.ini", "scenario", "horizon_months", "24"},
      {"office-assistant-32b.ini", "option:rtx-4090", "count", "3"},
      {"office-assistant-32b.ini", "site", "tariff_per_kwh", "0.31"},
      {"finance-view-70b.ini", "workload", "requests_per_day", "9000"},
      {"finance-view-70b.ini", "option:colo-2xh100", "loan_rate", "0.05"},
      {"finance-view-70b.ini", "tax", "devices_life_years", "3"},
      {"long-context-70b-datacenter.ini", "option:own-h100", "residual_fraction", "0.3"},
      {"long-context-70b-datacenter.ini", "scenario", "discount_rate", "0.05"},
      {"own-base-rent-peaks.ini", "workload", "tokens_per_day", "8000000"},
      {"own-base-rent-peaks.ini", "workload", "growth_per_month", "0.02"},
      {"own-base-rent-peaks.ini", "option:spot-h100", "goodput", "0.9"},
      {"rig-rent-or-api-30-people.ini", "workload", "users", "45"},
      {"rig-rent-or-api-30-people.ini", "workload", "hours_per_day", "12"},
      {"used-3090-rig-vs-rented-h100.ini", "option:rig-3090", "price_per_gpu", "650"},
      {"used-3090-rig-vs-rented-h100.ini", "scenario", "vat_rate", "0.2"},
  };
  test::TempDir dir;
  for (const auto& c : cases) {
    const std::string where = std::string(c.example) + " " + c.section + "." + c.key;
    const std::string original = test::source_path(std::string("scenarios/examples/") + c.example);
    const std::string vary =
        std::string(c.section) + "." + c.key + "=" + c.value + ":" + c.value + ":1";
    const auto sweep = gputco({"sweep", original, "--vary", vary, "--json", "--quiet"});
    ASSERT_EQ(sweep.exit_code, 0) << where << ": " << sweep.err;
    const auto point = json::parse(sweep.out)["points"][0];
    ASSERT_EQ(point["value"].get<double>(), std::stod(c.value)) << where;

    const std::string written = dir.file(c.example);
    test::write_file(written, with_value(test::read_file(original), c.section, c.key, c.value));
    const auto plan = gputco({"plan", written, "--no-workbook", "--json", "--quiet"});
    ASSERT_EQ(plan.exit_code, 0) << where << ": " << plan.err;
    const auto p = json::parse(plan.out);

    ASSERT_EQ(point["options"].size(), p["options"].size()) << where;
    for (size_t i = 0; i < p["options"].size(); ++i) {
      const auto& swept = point["options"][i];
      const auto& planned = p["options"][i];
      EXPECT_EQ(swept["id"], planned["id"]) << where;
      if (!swept["feasible"].get<bool>()) continue;  // the plan's totals of an n/a option
      // The same doubles, not nearly: the same parse, resolution and plan.
      EXPECT_EQ(swept["total_cost"].get<double>(), planned["total_cost"].get<double>())
          << where << " " << swept["id"];
      EXPECT_EQ(swept["npv"].get<double>(), planned["npv"].get<double>())
          << where << " " << swept["id"];
    }
    EXPECT_EQ(point["recommendation"], p["recommendation"]) << where;
    EXPECT_EQ(point["horizon_months"], p["horizon_months"]) << where;
  }
}

}  // namespace
}  // namespace gputco
