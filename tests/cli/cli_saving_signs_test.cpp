// A newcomer's report: at a 600-month horizon with a falling rent, owning the rig costs more
// than renting over the horizon, yet the terminal said it breaks even in month 13 with an
// IRR of -64.2 %. The saving of owning changes sign three times there (the outlay; savings
// while the rent is high; losses once it has fallen; the resale at month 600): the IRR is
// not unique and the lead of months 13-146 is lost from month 147 on. And the CSV's
// break-even columns now say "always", "never" and "n/a" rather than an empty field for all.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/support/paths.hpp"
#include "tests/support/process.hpp"

namespace gputco {
namespace {

const std::string kExample = "scenarios/examples/used-3090-rig-vs-rented-h100.ini";

/// The repro: the classic example over 600 months with the H100's rent falling 30 % a year.
std::vector<std::string> repro_args(const std::string& format) {
  return {"plan",
          test::source_path(kExample),
          "--no-workbook",
          "--set",
          "scenario.horizon_months=600",
          "--set",
          "scenario.rent_trend_per_year=-0.3",
          "--format",
          format};
}

/// The CSV's lines (CRLF) split into fields (none of the fields read here is quoted).
std::vector<std::vector<std::string>> csv_rows(const std::string& out) {
  std::vector<std::vector<std::string>> rows;
  for (size_t at = 0; at < out.size();) {
    const size_t end = out.find("\r\n", at);
    if (end == std::string::npos) break;
    std::vector<std::string> fields;
    std::stringstream line(out.substr(at, end - at));
    for (std::string field; std::getline(line, field, ',');) fields.push_back(field);
    rows.push_back(fields);
    at = end + 2;
  }
  return rows;
}

std::string field(const std::vector<std::vector<std::string>>& rows, const std::string& option,
                  const std::string& column) {
  size_t col = 0;
  while (col < rows.at(0).size() && rows[0][col] != column) ++col;
  for (const auto& row : rows) {
    if (!row.empty() && row[0] == option && col < row.size()) return row[col];
  }
  return "<missing>";
}

TEST(SavingSigns, ownedOptionDearerOverTheHorizonNeverBreaksEvenAndHasNoIrr) {
  const auto json_run = test::run(test::gputco_exe(), repro_args("json"));
  ASSERT_EQ(json_run.exit_code, 0) << json_run.err;
  const auto plan = nlohmann::json::parse(json_run.out);
  const auto& rig = plan["options"][0];
  const auto& rented = plan["options"][1];
  ASSERT_EQ(rig["id"], "rig-3090");
  ASSERT_EQ(rented["id"], "h100-rented");
  // What the report was about: owning costs more over the horizon, in total and in NPV
  // (53,231 against 16,576; 16,776 against 13,590 EUR).
  EXPECT_GT(rig["total_cost"].get<double>(), rented["total_cost"].get<double>());
  EXPECT_GT(rig["npv"].get<double>(), rented["npv"].get<double>());
  // The saving by month (rented - owned, from monthly_total): month 0 negative (the rig's
  // purchase), months 1-60 positive (the rent above the rig's power and upkeep), months
  // 61-599 negative (the rent fallen 30 % a year below them), month 600 positive (the
  // resale): -, +, -, +, three sign changes.
  const auto& own_total = rig["monthly_total"];
  const auto& rent_total = rented["monthly_total"];
  ASSERT_EQ(own_total.size(), 601u);
  const auto saving = [&](size_t m) {
    return rent_total[m].get<double>() - own_total[m].get<double>();
  };
  EXPECT_LT(saving(0), 0);
  EXPECT_GT(saving(1), 0);
  EXPECT_GT(saving(60), 0);
  EXPECT_LT(saving(61), 0);
  EXPECT_LT(saving(599), 0);
  EXPECT_GT(saving(600), 0);
  EXPECT_EQ(rig["saving_sign_changes"], 3);
  EXPECT_TRUE(rig["irr"].is_null());  // was -0.642 (the lowest of the NPV's roots)
  EXPECT_EQ(rig["irr_na_reason"].get<std::string>().rfind("the saving changes sign 3 times: ", 0),
            0u)
      << rig["irr_na_reason"];
  // The cumulative saving is >= 0 from month 13 to 146 and negative from 147 to 600: no
  // break-even (was 13), no payback (was 12.4 months).
  EXPECT_TRUE(rig["break_even_month"].is_null());
  EXPECT_TRUE(rig["payback_months"].is_null());
  EXPECT_EQ(rig["ahead_then_behind"]["ahead_first_month"], 13);
  EXPECT_EQ(rig["ahead_then_behind"]["ahead_last_month"], 146);
  EXPECT_EQ(rig["ahead_then_behind"]["behind_from_month"], 147);
  EXPECT_TRUE(rented["irr_na_reason"].is_null());
  EXPECT_TRUE(rented["ahead_then_behind"].is_null());

  const auto text = test::run(test::gputco_exe(), repro_args("text"));
  ASSERT_EQ(text.exit_code, 0) << text.err;
  // The options table: break-even hours and month "never"; then payback "never", IRR "n/a".
  EXPECT_NE(text.out.find("   53231        16776       never     never "), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("rig-3090         used                           1065      never "
                          "      n/a        never"),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("  rig-3090: IRR n/a (saving changes sign 3 times): several rates or "
                          "none zero the saving's NPV (Descartes' rule of signs)"),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("  rig-3090: break-even month never (ahead months 13-146, behind from "
                          "147): the cumulative cost of owning was at or below h100-rented's in "
                          "months 13-146 and is above it from month 147 to the end (600)"),
            std::string::npos)
      << text.out;
}

TEST(SavingSigns, aCumulativeSavingThatTurnsPositiveOnceKeepsItsIrr) {
  // newcomer5: in own-base-rent-peaks the rig's monthly saving against rent-h100 changes sign
  // 7 times (a card bought in months 18, 28 and 35 costs more than that month's rent), so the
  // strict Descartes rule said "n/a"; its cumulative saving turns positive once (month 12)
  // and stays so: Norstrom's criterion gives one rate above 0, which is the IRR.
  const auto run = test::run(
      test::gputco_exe(), {"plan", test::source_path("scenarios/examples/own-base-rent-peaks.ini"),
                           "--no-workbook", "--format", "json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto plan = nlohmann::json::parse(run.out);
  const nlohmann::json* rig = nullptr;
  const nlohmann::json* rented = nullptr;
  for (const auto& o : plan["options"]) {
    if (o["id"] == "used-3090-rig") rig = &o;
    if (o["id"] == "rent-h100") rented = &o;
  }
  ASSERT_TRUE(rig && rented);
  EXPECT_EQ((*rig)["saving_sign_changes"], 7);
  EXPECT_EQ((*rig)["cumulative_saving_sign_changes"], 1);
  ASSERT_TRUE((*rig)["irr"].is_number()) << (*rig)["irr_na_reason"];
  // The rate is a root of the saving's NPV, recomputed here from the monthly totals: at the
  // monthly rate (1 + irr)^(1/12) - 1 the discounted saving sums to 0 (within 1e-6 of the
  // outlay), and it is above 0.
  const double annual = (*rig)["irr"].get<double>();
  EXPECT_GT(annual, 0);
  const double monthly = std::pow(1 + annual, 1.0 / 12) - 1;
  double npv = 0, discount = 1;
  const auto& own = (*rig)["monthly_total"];
  const auto& rent = (*rented)["monthly_total"];
  ASSERT_EQ(own.size(), rent.size());
  for (size_t m = 0; m < own.size(); ++m) {
    npv += (rent[m].get<double>() - own[m].get<double>()) * discount;
    discount /= 1 + monthly;
  }
  const double outlay = own[0].get<double>() - rent[0].get<double>();
  EXPECT_NEAR(npv, 0, 1e-6 * outlay);
  // The loan's cumulative saving changes sign 3 times: no unique rate, said so.
  const auto& loan = plan["options"][1];
  ASSERT_EQ(loan["id"], "new-5090-loan");
  EXPECT_TRUE(loan["irr"].is_null());
  EXPECT_EQ(loan["cumulative_saving_sign_changes"], 3);
}

TEST(SavingSigns, csvBreakEvenColumnsSayAlwaysNeverOrNotApplicable) {
  // The repro: the rig never breaks even (hours: renting stays cheaper at 24 h/day over a
  // rent that falls 30 % a year; month: dearer at the end); the rental is not compared.
  const auto repro = test::run(test::gputco_exe(), repro_args("csv"));
  ASSERT_EQ(repro.exit_code, 0) << repro.err;
  const auto rows = csv_rows(repro.out);
  EXPECT_EQ(field(rows, "rig-3090", "break_even_hours"), "never");
  EXPECT_EQ(field(rows, "rig-3090", "break_even_month"), "never");
  EXPECT_EQ(field(rows, "h100-rented", "break_even_hours"), "n/a");
  EXPECT_EQ(field(rows, "h100-rented", "break_even_month"), "n/a");
  // No API option: the break-even volume is not applicable to either.
  EXPECT_EQ(field(rows, "rig-3090", "break_even_tokens_per_day"), "n/a");
  EXPECT_EQ(field(rows, "h100-rented", "break_even_tokens_per_day"), "n/a");

  // Around the clock the H100 is billed all 730 h of each month while the rig draws about
  // 1.6 kW: owning is no dearer unused and at 24 h/day: "always"; it breaks even in month 3.
  const auto all_day =
      test::run(test::gputco_exe(), {"plan", test::source_path(kExample), "--no-workbook", "--set",
                                     "workload.availability=24x7", "--format", "csv"});
  ASSERT_EQ(all_day.exit_code, 0) << all_day.err;
  const auto day_rows = csv_rows(all_day.out);
  EXPECT_EQ(field(day_rows, "rig-3090", "break_even_hours"), "always");
  EXPECT_EQ(field(day_rows, "rig-3090", "break_even_month"), "3");
  EXPECT_EQ(field(day_rows, "h100-rented", "break_even_hours"), "n/a");
}

}  // namespace
}  // namespace gputco
