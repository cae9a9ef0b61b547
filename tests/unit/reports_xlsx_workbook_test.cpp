// The TCO workbook's structure: sheets, names, formulas, cached values, text, determinism,
// and what happens when it cannot be written.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <regex>
#include <set>

#include "reports/xlsx/report.hpp"
#include "tests/unit/reports_xlsx_fixture.hpp"

namespace gputco {
namespace {

using test::formula_cells;
using test::fresh_dir;
using test::read_bytes;
using test::sample_plan;
using test::zip_member;

/// The formula cell at `ref` on `sheet`; fails the test if there is none.
test::FormulaCell formula_at(const std::vector<test::FormulaCell>& cells, const std::string& sheet,
                             const std::string& ref) {
  for (const auto& cell : cells) {
    if (cell.sheet == sheet && cell.ref == ref) return cell;
  }
  ADD_FAILURE() << "no formula at " << sheet << "!" << ref;
  return {};
}

void expect_near_relative(double actual, double expected, const std::string& what) {
  const double tolerance = 1e-12 * std::max(1.0, std::abs(expected));
  EXPECT_NEAR(actual, expected, tolerance)
      << what << ": stored " << actual << ", expected " << expected << ", tolerance " << tolerance;
}

std::vector<std::string> sheet_names(const std::string& path) {
  const std::string workbook = zip_member(path, "xl/workbook.xml");
  const std::regex sheet(R"re(<sheet name="([^"]+)")re");
  std::vector<std::string> names;
  for (std::sregex_iterator it(workbook.begin(), workbook.end(), sheet), end; it != end; ++it) {
    names.push_back((*it)[1]);
  }
  return names;
}

TEST(XlsxReport, writesAZipWithTheSheetsInReadingOrder) {
  const auto sample = sample_plan();
  const std::string path = fresh_dir("sheets") + "/tco.xlsx";
  write_workbook(sample.plan, sample.scenario, path);

  const auto members = test::zip_members(path);
  EXPECT_NE(std::find(members.begin(), members.end(), "xl/workbook.xml"), members.end());
  EXPECT_NE(std::find(members.begin(), members.end(), "xl/charts/chart1.xml"), members.end());
  EXPECT_NE(std::find(members.begin(), members.end(), "xl/charts/chart2.xml"), members.end());
  EXPECT_EQ(sheet_names(path), (std::vector<std::string>{"Cover", "Summary", "Inputs", "Timeline",
                                                         "Cash flow", "Metrics", "Profit and loss",
                                                         "Hardware", "Sources", "Checks"}));
}

TEST(XlsxReport, aSensitivityRunAddsTheSensitivityAndCrossoverSheets) {
  const auto sample = sample_plan();
  const Sensitivity sensitivity = test::sample_sensitivity(sample);
  WorkbookOptions options;
  options.sensitivity = &sensitivity;
  const std::string path = fresh_dir("sensitivity") + "/tco.xlsx";
  write_workbook(sample.plan, sample.scenario, path, options);
  EXPECT_EQ(sheet_names(path),
            (std::vector<std::string>{"Cover", "Summary", "Inputs", "Timeline", "Cash flow",
                                      "Metrics", "Profit and loss", "Sensitivity", "Crossover",
                                      "Hardware", "Sources", "Checks"}));
  // Summary: cumulative and annual charts; Sensitivity: tornado; Crossover: cost by hours.
  const auto members = test::zip_members(path);
  EXPECT_NE(std::find(members.begin(), members.end(), "xl/charts/chart4.xml"), members.end());
  const std::string tornado = zip_member(path, "xl/charts/chart3.xml");
  EXPECT_NE(tornado.find("<c:barDir val=\"bar\"/>"), std::string::npos) << tornado;
  const std::string annual = zip_member(path, "xl/charts/chart2.xml");
  EXPECT_NE(annual.find("<c:grouping val=\"stacked\"/>"), std::string::npos);
  const std::string cumulative = zip_member(path, "xl/charts/chart1.xml");
  EXPECT_NE(cumulative.find("<c:errBars>"), std::string::npos) << "no break-even marker";

  // Engine results are values; what follows from them is a formula.
  const auto cells = formula_cells(path);
  int tornado_formulas = 0, crossover_formulas = 0;
  for (const auto& cell : cells) {
    tornado_formulas += cell.sheet == "Sensitivity";
    crossover_formulas += cell.sheet == "Crossover";
  }
  // Base difference; per bar: down, up, width; per Monte Carlo row: P90 - P10.
  EXPECT_EQ(tornado_formulas, 1 + 3 * 5 + 3);
  // The scenario's hours per day (twice) and the marker's top.
  EXPECT_EQ(crossover_formulas, 3);
}

TEST(XlsxReport, theQuoteIsCoverSummaryAssumptionsAndSourcesWithNoFormulaReachingOtherSheets) {
  const auto sample = sample_plan();
  WorkbookOptions options;
  options.quote = true;
  const std::string path = fresh_dir("quote") + "/quote.xlsx";
  write_workbook(sample.plan, sample.scenario, path, options);
  const auto names = sheet_names(path);
  EXPECT_EQ(names,
            (std::vector<std::string>{"Cover", "Summary", "Assumptions", "Sources", "Chart data"}));
  const std::string workbook = zip_member(path, "xl/workbook.xml");
  EXPECT_NE(workbook.find("<sheet name=\"Chart data\" sheetId=\"5\" state=\"hidden\""),
            std::string::npos)
      << workbook;
  const std::set<std::string> visible = {"Cover", "Summary", "Assumptions", "Sources"};
  const std::regex sheet_ref(R"re('([^']+)'!)re");
  const auto cells = formula_cells(path);
  EXPECT_GT(cells.size(), 0u);
  for (const auto& cell : cells) {
    for (std::sregex_iterator it(cell.formula.begin(), cell.formula.end(), sheet_ref), end;
         it != end; ++it) {
      EXPECT_TRUE(visible.count((*it)[1])) << cell.sheet << "!" << cell.ref << ": " << cell.formula;
    }
    for (const char* input_name : {"tariff_per_kwh", "horizon_months", "check_tolerance"}) {
      EXPECT_EQ(cell.formula.find(input_name), std::string::npos) << cell.formula;
    }
  }
  // Every defined name points at a sheet the quote has.
  const std::regex defined(R"re(<definedName name="([^"]+)"[^>]*>'?([^'!<]+)'?!)re");
  for (std::sregex_iterator it(workbook.begin(), workbook.end(), defined), end; it != end; ++it) {
    if ((*it)[1].str().rfind("_xlnm.", 0) == 0) continue;
    EXPECT_TRUE(visible.count((*it)[2])) << (*it)[1] << " -> " << (*it)[2];
  }
  // The charts plot the hidden sheet's values, never the missing Cash flow sheet.
  for (const auto& member : test::zip_members(path)) {
    if (member.rfind("xl/charts/", 0) != 0) continue;
    const std::string chart = zip_member(path, member);
    EXPECT_EQ(chart.find("Cash flow"), std::string::npos) << member;
  }
}

TEST(XlsxReport, everySheetPrintsOnPaperWithCustomerQuoteAndPages) {
  const auto sample = sample_plan();
  const std::string path = fresh_dir("print") + "/tco.xlsx";
  write_workbook(sample.plan, sample.scenario, path);
  for (const auto& [sheet, part] : test::sheet_parts(path)) {
    const std::string xml = zip_member(path, part);
    EXPECT_NE(xml.find("paperSize=\"9\""), std::string::npos) << sheet << ": A4 by default";
    EXPECT_NE(xml.find("fitToWidth") == std::string::npos ? xml.find("fitToHeight=\"0\"")
                                                          : xml.find("fitToHeight=\"0\""),
              std::string::npos)
        << sheet << ": one page wide";
    EXPECT_NE(xml.find(sheet == "Cover" ? "orientation=\"portrait\"" : "orientation=\"landscape\""),
              std::string::npos)
        << sheet;
    // The customer's '&' doubled: a literal ampersand, not a header code.
    EXPECT_NE(xml.find("<oddHeader>&amp;LMüller &amp;&amp; Söhne GmbH&amp;RQuote Q-2026-0042"
                       "</oddHeader>"),
              std::string::npos)
        << sheet << "\n"
        << xml.substr(
               xml.find("<headerFooter>") == std::string::npos ? 0 : xml.find("<headerFooter>"),
               300);
    EXPECT_NE(xml.find("<oddFooter>&amp;LPrices as of 2026-11-15&amp;CPage &amp;P of &amp;N"),
              std::string::npos)
        << sheet;
  }
}

TEST(XlsxReport, letterPaperAndValidDaysFollowTheScenario) {
  auto sample = sample_plan();
  sample.scenario.paper = "letter";
  sample.scenario.valid_days = 14;
  const std::string path = fresh_dir("letter") + "/tco.xlsx";
  write_workbook(sample.plan, sample.scenario, path);
  for (const auto& [sheet, part] : test::sheet_parts(path)) {
    const std::string xml = zip_member(path, part);
    EXPECT_NE(xml.find("paperSize=\"1\""), std::string::npos) << sheet << ": Letter";
  }
  // Valid until = prices as of (2026-11-15, serial 46341) + 14 days.
  const auto until = formula_at(formula_cells(path), "Cover", "B10");
  EXPECT_EQ(until.formula, "B8+B9");
  EXPECT_EQ(until.cached, 46341 + 14);
}

TEST(XlsxReport, inputCellsAreValidated) {
  const auto sample = sample_plan();
  const std::string path = fresh_dir("validation") + "/tco.xlsx";
  write_workbook(sample.plan, sample.scenario, path);
  const std::string xml = zip_member(path, test::sheet_parts(path).at("Inputs"));
  const std::regex rule(
      R"re(<dataValidation type="(\w+)"( operator="(\w+)")?[^>]*sqref="(D\d+)"[^>]*>(<formula1>([^<]*)</formula1>)?(<formula2>([^<]*)</formula2>)?)re");
  std::map<std::string, std::string> rules;  // cell -> "type op min max"
  for (std::sregex_iterator it(xml.begin(), xml.end(), rule), end; it != end; ++it) {
    rules[(*it)[4]] =
        (*it)[1].str() + " " + (*it)[3].str() + " " + (*it)[6].str() + " " + (*it)[8].str();
  }
  // One rule per named input (not the five constants).
  const std::string workbook = zip_member(path, "xl/workbook.xml");
  const std::regex defined(
      R"re(<definedName name="([^"]+)">'?Inputs'?!\$D\$(\d+)</definedName>)re");
  std::map<std::string, std::string> cell_of;
  for (std::sregex_iterator it(workbook.begin(), workbook.end(), defined), end; it != end; ++it) {
    cell_of[(*it)[1]] = "D" + (*it)[2].str();
  }
  // Every named input has a rule; the constants (definitions) and the figures that follow by
  // formula (each option's capacity) have none.
  size_t without_rule = 0;
  for (const auto& [name, cell] : cell_of) {
    const bool constant = name == "months_per_year" || name == "watts_per_kw" ||
                          name == "hours_per_full_day" || name == "seconds_per_hour" ||
                          name == "grams_per_kilogram" || name == "tokens_per_million" ||
                          name == "load_tolerance" || name == "comparison_tolerance";
    const bool derived = name.find("_capacity_tokens_per_hour") != std::string::npos;
    EXPECT_EQ(rules.count(cell), constant || derived ? 0u : 1u) << name;
    without_rule += constant || derived ? 1 : 0;
  }
  EXPECT_EQ(without_rule, 8u + 3u);
  EXPECT_EQ(rules[cell_of["hours_per_day"]], "decimal  0 24");
  EXPECT_EQ(rules[cell_of["pue"]], "decimal  1 3");
  EXPECT_EQ(rules[cell_of["discount_rate"]], "decimal  0 1");
  EXPECT_EQ(rules[cell_of["opt_office_3090_residual_fraction"]], "decimal  0 1");
  EXPECT_EQ(rules[cell_of["opt_office_3090_price_per_gpu"]], "decimal greaterThanOrEqual 0 ");
  EXPECT_EQ(rules[cell_of["opt_office_3090_count"]], "whole greaterThanOrEqual 1 ");
  EXPECT_EQ(rules[cell_of["horizon_months"]], "whole  1 24");
  EXPECT_EQ(rules.count(cell_of["months_per_year"]), 0u);
}

TEST(XlsxReport, sourcesFlagStalePricesByFormulaAndRule) {
  auto sample = sample_plan();
  sample.scenario.inputs.push_back(
      {"scenario", "max_price_age_days", "Stale after", 90.0, "", "days", "default"});
  const std::string path = fresh_dir("stale") + "/tco.xlsx";
  write_workbook(sample.plan, sample.scenario, path);
  const auto cells = formula_cells(path);
  const auto stale = formula_at(cells, "Sources", "H7");
  // max_price_age_days is the engine's (a workbook cannot re-pick catalog prices): a number
  // in the formula, and not an input the formulas read.
  EXPECT_EQ(stale.formula, "IF(G7>90,\"stale\",\"no\")");
  EXPECT_TRUE(stale.text_result);
  EXPECT_EQ(stale.cached_text, "stale");
  EXPECT_EQ(formula_at(cells, "Sources", "G7").formula, "prices_as_of-E7");
  EXPECT_EQ(formula_at(cells, "Sources", "G7").cached, 148);
  const std::string xml = zip_member(path, test::sheet_parts(path).at("Sources"));
  EXPECT_NE(xml.find("<formula>$H5=\"stale\"</formula>"), std::string::npos) << xml;
}

// The time it takes is a benchmark (tests/bench/workbook_bench), not a test; this checks that
// the large plan is written whole: every option's block over 61 month columns.
TEST(XlsxReport, tenOptionsOverSixtyMonthsAreWrittenWhole) {
  auto sample = sample_plan();
  auto& in = sample.scenario.plan_inputs;
  in.finance.horizon_months = 60;
  const auto base_options = in.options;
  const auto base_results = sample.plan.options;
  in.options.clear();
  sample.plan.options.clear();
  for (size_t i = 0; i < 10; ++i) {
    OptionInputs option = base_options[i % 3];
    OptionResult result = base_results[i % 3];
    option.id = result.id = base_options[i % 3].id + "-" + std::to_string(i);
    option.count += static_cast<int>(i / 3);
    in.options.push_back(option);
    sample.plan.options.push_back(result);
  }
  test::recompute_money(sample);
  const Sensitivity sensitivity = test::sample_sensitivity(sample);
  WorkbookOptions options;
  options.sensitivity = &sensitivity;
  const std::string path = fresh_dir("large") + "/tco.xlsx";
  write_workbook(sample.plan, sample.scenario, path, options);
  const auto cells = formula_cells(path);
  // Each option's discounted row holds a formula in every month column 0..60: 10 x 61 cells
  // of the form "<total cell>*<col>$9" (the discount factors are row 9 of the sheet).
  const std::regex discounted_formula(R"re(^[A-Z]+\d+\*[A-Z]+\$9$)re");
  size_t discounted = 0;
  for (const auto& cell : cells) {
    if (cell.sheet == "Cash flow" && std::regex_match(cell.formula, discounted_formula)) {
      ++discounted;
    }
  }
  EXPECT_EQ(discounted, 10u * 61u);
}

/// Writes the sample plan's full workbook (tco.xlsx, with the Sensitivity sheet) and its quote
/// (quote.xlsx) into `dir`; returns `dir`.
std::string write_full_and_quote(const std::string& dir) {
  const auto sample = sample_plan();
  const Sensitivity sensitivity = test::sample_sensitivity(sample);
  WorkbookOptions options;
  options.sensitivity = &sensitivity;
  write_workbook(sample.plan, sample.scenario, dir + "/tco.xlsx", options);
  WorkbookOptions quote;
  quote.quote = true;
  write_workbook(sample.plan, sample.scenario, dir + "/quote.xlsx", quote);
  return dir;
}

TEST(XlsxReport, theArchiveAndEveryXmlPartAreWellFormed) {
  const std::string dir = write_full_and_quote(fresh_dir("wellformed"));
  for (const char* book : {"/tco.xlsx", "/quote.xlsx"}) {
    const std::string path = dir + book;
    // CRCs and structure of the zip.
    EXPECT_EQ(std::system(("unzip -tq '" + path + "' >/dev/null").c_str()), 0) << path;
    const std::string types = zip_member(path, "[Content_Types].xml");
    for (const auto& member : test::zip_members(path)) {
      if (member.size() < 4 || member.substr(member.size() - 4) != ".xml") continue;
      const std::string xml = zip_member(path, member);
      EXPECT_EQ(xml.rfind("<?xml", 0), 0u) << member;
      if (member.rfind("xl/worksheets/", 0) == 0 || member.rfind("xl/charts/", 0) == 0) {
        EXPECT_NE(types.find("/" + member + "\""), std::string::npos)
            << member << " missing in [Content_Types].xml";
      }
    }
  }
}

TEST(XlsxReport, everyXmlPartPassesXmllint) {
  if (std::system("command -v xmllint >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "xmllint is not installed (libxml2-utils; scripts/bootstrap --test)";
  }
  const std::string dir = write_full_and_quote(fresh_dir("xmllint"));
  for (const char* book : {"/tco.xlsx", "/quote.xlsx"}) {
    const std::string path = dir + book;
    for (const auto& member : test::zip_members(path)) {
      if (member.size() < 4 || member.substr(member.size() - 4) != ".xml") continue;
      const std::string copy = dir + "/part.xml";
      {
        std::ofstream out(copy, std::ios::binary);
        out << zip_member(path, member);
      }
      EXPECT_EQ(std::system(("xmllint --noout '" + copy + "' 2>/dev/null").c_str()), 0)
          << path << ": " << member;
    }
  }
}

TEST(XlsxReport, sameInputGivesIdenticalBytes) {
  const auto sample = sample_plan();
  const Sensitivity sensitivity = test::sample_sensitivity(sample);
  WorkbookOptions options;
  options.sensitivity = &sensitivity;  // every sheet
  const std::string dir = fresh_dir("determinism");
  write_workbook(sample.plan, sample.scenario, dir + "/a.xlsx", options);
  WorkbookOptions quote;
  quote.quote = true;
  write_workbook(sample.plan, sample.scenario, dir + "/qa.xlsx", quote);
  // A different time zone and a later wall clock must not leak into the file.
  const char* old_tz = std::getenv("TZ");
  const std::string saved = old_tz != nullptr ? old_tz : "";
  ::setenv("TZ", "America/New_York", 1);
  ::tzset();
  ::sleep(1);
  write_workbook(sample.plan, sample.scenario, dir + "/b.xlsx", options);
  write_workbook(sample.plan, sample.scenario, dir + "/qb.xlsx", quote);
  if (old_tz != nullptr) {
    ::setenv("TZ", saved.c_str(), 1);
  } else {
    ::unsetenv("TZ");
  }
  ::tzset();
  const std::string a = read_bytes(dir + "/a.xlsx");
  ASSERT_FALSE(a.empty());
  EXPECT_TRUE(a == read_bytes(dir + "/b.xlsx")) << "the two files differ";
  EXPECT_TRUE(read_bytes(dir + "/qa.xlsx") == read_bytes(dir + "/qb.xlsx"))
      << "the two quotes differ";
  EXPECT_EQ(test::sheet_parts(dir + "/a.xlsx").size(), 12u);

  // Rewriting over an existing file gives the same bytes too.
  write_workbook(sample.plan, sample.scenario, dir + "/a.xlsx", options);
  EXPECT_TRUE(a == read_bytes(dir + "/a.xlsx"));
}

TEST(XlsxReport, creationDateIsTheAsOfDate) {
  const auto sample = sample_plan();
  const std::string path = fresh_dir("created") + "/tco.xlsx";
  write_workbook(sample.plan, sample.scenario, path);
  const std::string core = zip_member(path, "docProps/core.xml");
  EXPECT_NE(core.find("<dcterms:created xsi:type=\"dcterms:W3CDTF\">2026-11-15T00:00:00Z"),
            std::string::npos)
      << core;
  EXPECT_NE(core.find("Q-2026-0042"), std::string::npos);
}

TEST(XlsxReport, definedNamesPointAtTheInputsSheet) {
  const auto sample = sample_plan();
  const std::string path = fresh_dir("names") + "/tco.xlsx";
  write_workbook(sample.plan, sample.scenario, path);
  const std::string workbook = zip_member(path, "xl/workbook.xml");
  for (const char* name :
       {"tariff_per_kwh", "pue", "hours_per_day", "days_per_month", "discount_rate",
        "horizon_months", "months_per_year", "watts_per_kw", "opt_office_3090_price_per_gpu",
        "opt_office_3090_count", "opt_runpod_h100_rate_per_gpu_hour",
        "opt_hetzner_gex44_price_per_month", "opt_hetzner_gex44_setup_fee"}) {
    const std::regex defined("<definedName name=\"" + std::string(name) +
                             "\">'?Inputs'?!\\$D\\$[0-9]+</definedName>");
    EXPECT_TRUE(std::regex_search(workbook, defined)) << name << " missing in\n" << workbook;
  }
}

TEST(XlsxReport, formulasCarryTheEnginesValuesAsCachedResults) {
  const auto sample = sample_plan();
  const std::string path = fresh_dir("cached") + "/tco.xlsx";
  write_workbook(sample.plan, sample.scenario, path);
  const auto cells = formula_cells(path);
  // Cash flow, 25 months: 12 timeline rows (the month, 4 flags, year and discount factor
  // linked to the Timeline sheet; hours, days, growth and trend factors computed); the option
  // rows that apply (below); total, cumulative and discounted per option; 2 sums per option.
  const auto on = [&](const char* sheet) {
    return std::count_if(cells.begin(), cells.end(),
                         [&](const test::FormulaCell& c) { return c.sheet == sheet; });
  };
  // buy (cash, on site, adds units): load, units, capex, energy, maintenance, failures, VAT,
  // resale, depreciation, book value = 10; hourly: load, rent, VAT = 3; monthly server: load,
  // units, rent, VAT = 4. Physical rows: 3 per option. Output tokens served: every option;
  // what scales with the hours of use: the owned and the hourly option (a monthly server's
  // rent does not). Sums: total and NPV, tokens and what scales, per option. The cost lines:
  // staff, licences and support for every option, insurance for the owned one.
  EXPECT_EQ(on("Cash flow"), 12 * 25 + (10 + 3 + 4) * 25 + 3 * 3 * 25 + 3 * 2 + (3 + 2) * 25 +
                                 3 * 2 + (3 * 3 + 1) * 25);
  // Timeline: date, plan year, calendar year, 4 flags, discount factor per month.
  EXPECT_EQ(on("Timeline"), 8 * 25);

  const auto& own = sample.plan.options[0];
  // Cash flow layout: months from column C (month 0); timeline rows 4-15; first block title
  // on row 17: load 18, units 19, overflow 20, capex 21, energy 22, maintenance 23, hosting
  // 24, colocation extras 25, failures 26, licences 27, support 28, rent 29, financing 30,
  // staff 31, insurance 32, VAT 33, resale 34, total 35, cumulative 36, discounted 37,
  // depreciation 38, book value 39, interest 40, kWh 41, idle kWh 42, kg CO2e 43, output
  // tokens 44, what scales with the hours of use 45; the second block starts on row 47.
  expect_near_relative(formula_at(cells, "Cash flow", "C21").cached, own.cash_flow.capex[0],
                       "capex at month 0");
  // Within the horizon only (is start + is running): the units row grows on past a horizon
  // edited shorter, and must buy nothing there.
  EXPECT_EQ(formula_at(cells, "Cash flow", "D21").formula.rfind("(D$5+D$6)*", 0), 0u)
      << formula_at(cells, "Cash flow", "D21").formula;
  expect_near_relative(formula_at(cells, "Cash flow", "D22").cached, own.cash_flow.energy[1],
                       "energy at month 1");
  expect_near_relative(formula_at(cells, "Cash flow", "AA34").cached, own.cash_flow.resale[24],
                       "resale at month 24");
  expect_near_relative(formula_at(cells, "Cash flow", "B35").cached, own.total_cost, "total cost");
  expect_near_relative(formula_at(cells, "Cash flow", "B37").cached, own.npv, "NPV");
  EXPECT_EQ(formula_at(cells, "Cash flow", "D22").formula,
            "D$6*MIN(D18,D19)*(opt_office_3090_count*opt_office_3090_board_power_w+opt_office_"
            "3090_host_power_w)/watts_per_kw*D$12*tariff_per_kwh*pue*D$15+D$6*MAX(0,D19*(D$10*(1-"
            "opt_office_3090_powered_off_when_idle)+D$12*opt_office_3090_powered_off_when_idle)-"
            "MIN(D18,D19)*D$12)*opt_office_3090_idle_power_w/watts_per_kw*tariff_per_kwh*pue*D$15");
  EXPECT_EQ(formula_at(cells, "Cash flow", "E36").formula, "SUM($C$35:E35)");
  expect_near_relative(formula_at(cells, "Cash flow", "E38").cached, own.cash_flow.depreciation[2],
                       "depreciation at month 2");
  expect_near_relative(formula_at(cells, "Cash flow", "E9").cached,
                       own.cash_flow.discount_factor[2], "discount factor at month 2");

  // Metrics: option i on row 8 + i, total cost in C, NPV in D, both from the Cash flow sums.
  for (size_t i = 0; i < sample.plan.options.size(); ++i) {
    const std::string row = std::to_string(8 + i);
    expect_near_relative(formula_at(cells, "Metrics", "C" + row).cached,
                         sample.plan.options[i].total_cost, "Metrics total " + row);
    expect_near_relative(formula_at(cells, "Metrics", "D" + row).cached, sample.plan.options[i].npv,
                         "Metrics NPV " + row);
  }
  EXPECT_EQ(formula_at(cells, "Metrics", "C8").formula, "'Cash flow'!$B$35");
  // Every Summary formula that shows a Metrics figure caches that figure's value.
  int summary_formulas = 0, checked = 0;
  for (const auto& cell : cells) {
    if (cell.sheet != "Summary" || cell.formula.rfind("'Metrics'!", 0) != 0) continue;
    ++summary_formulas;
    const std::string ref = cell.formula.substr(std::string("'Metrics'!").size());
    std::string plain;
    for (char c : ref) plain += c == '$' ? "" : std::string(1, c);
    const auto found = std::find_if(cells.begin(), cells.end(), [&](const test::FormulaCell& c) {
      return c.sheet == "Metrics" && c.ref == plain;
    });
    if (found == cells.end()) continue;  // a word the Metrics sheet writes as text ("n/a")
    ++checked;
    const auto& source = *found;
    EXPECT_EQ(cell.text_result, source.text_result) << cell.ref;
    if (cell.text_result) {
      EXPECT_EQ(cell.cached_text, source.cached_text) << cell.ref;
    } else {
      expect_near_relative(cell.cached, source.cached, "Summary!" + cell.ref);
    }
  }
  // Total, NPV, per year, per million, per user (3 options); the owned option's five
  // break-even figures; the recommendation.
  EXPECT_EQ(summary_formulas, 3 * 5 + 5 + 1);
  EXPECT_GT(checked, 15);
}

/// Numbers in a formula other than structural 0 and 1: the inputs belong on Inputs.
std::vector<std::string> literal_numbers(const std::string& formula) {
  std::vector<std::string> literals;
  size_t i = 0;
  while (i < formula.size()) {
    const char c = formula[i];
    if (c == '\'' || c == '"') {  // quoted sheet name or string
      const size_t close = formula.find(c, i + 1);
      i = close == std::string::npos ? formula.size() : close + 1;
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$') {
      while (i < formula.size() && (std::isalnum(static_cast<unsigned char>(formula[i])) ||
                                    formula[i] == '_' || formula[i] == '$' || formula[i] == '.')) {
        ++i;
      }
    } else if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      const size_t start = i;
      while (i < formula.size() &&
             (std::isdigit(static_cast<unsigned char>(formula[i])) || formula[i] == '.')) {
        ++i;
      }
      const std::string number = formula.substr(start, i - start);
      if (number != "0" && number != "1") literals.push_back(number);
    } else {
      ++i;
    }
  }
  return literals;
}

TEST(XlsxReport, aPlanThatCostsNothingStillWrites) {
  // Every cost zero: no component to stack, so no annual chart (a chart needs a series).
  auto sample = sample_plan();
  for (auto& option : sample.scenario.plan_inputs.options) {
    option.price_per_gpu = option.host_cost = option.rate_per_gpu_hour = 0;
    option.price_per_month = option.setup_fee = option.maintenance_per_year = 0;
  }
  sample.scenario.plan_inputs.site.tariff_per_kwh = 0;
  test::recompute_money(sample);
  const std::string path = fresh_dir("zero") + "/tco.xlsx";
  EXPECT_NO_THROW(write_workbook(sample.plan, sample.scenario, path));
  const auto members = test::zip_members(path);
  EXPECT_NE(std::find(members.begin(), members.end(), "xl/charts/chart1.xml"), members.end());
  EXPECT_EQ(std::find(members.begin(), members.end(), "xl/charts/chart2.xml"), members.end());
}

TEST(XlsxReport, cashFlowTimelineRowsLinkToTheTimelineSheet) {
  const auto sample = sample_plan();
  const std::string path = fresh_dir("timeline-link") + "/tco.xlsx";
  write_workbook(sample.plan, sample.scenario, path);
  const auto cells = formula_cells(path);
  // Cash flow rows 4 (month), 5-7 (flags), 8 (year), 9 (discount factor) at month 2
  // (column E) read the Timeline's rows 6 (month), 10-12 (flags), 8 (plan year), 14.
  const std::pair<const char*, const char*> links[] = {
      {"E4", "'Timeline'!E$6"},  {"E5", "'Timeline'!E$10"}, {"E6", "'Timeline'!E$11"},
      {"E7", "'Timeline'!E$12"}, {"E8", "'Timeline'!E$8"},  {"E9", "'Timeline'!E$14"}};
  for (const auto& [ref, formula] : links) {
    EXPECT_EQ(formula_at(cells, "Cash flow", ref).formula, formula) << ref;
  }
  EXPECT_EQ(formula_at(cells, "Cash flow", "E4").cached, 2);
  EXPECT_EQ(formula_at(cells, "Timeline", "E7").formula, "EOMONTH(first_month_date,E$6-1)+E$10");
}

TEST(XlsxReport, formulasHoldNoConstantsBeyondZeroAndOne) {
  const auto sample = sample_plan();
  const Sensitivity sensitivity = test::sample_sensitivity(sample);
  WorkbookOptions options;
  options.sensitivity = &sensitivity;  // every sheet
  const std::string path = fresh_dir("constants") + "/tco.xlsx";
  write_workbook(sample.plan, sample.scenario, path, options);
  std::set<std::string> sheets;
  for (const auto& cell : formula_cells(path)) {
    sheets.insert(cell.sheet);
    EXPECT_TRUE(literal_numbers(cell.formula).empty())
        << cell.sheet << "!" << cell.ref << ": " << cell.formula;
  }
  // Every sheet, Hardware included: its peak sizing block (reports_xlsx_peak_sizing_test.cpp
  // checks those formulas and their cached values).
  EXPECT_EQ(sheets.size(), 12u) << "every sheet has formulas";
  EXPECT_EQ(sheets.count("Hardware"), 1u);
}

TEST(XlsxReport, coverDatesTheQuoteAndShowsTheMasterCheck) {
  const auto sample = sample_plan();
  const std::string path = fresh_dir("cover") + "/tco.xlsx";
  write_workbook(sample.plan, sample.scenario, path);
  const auto cells = formula_cells(path);
  // Valid until = prices as of (2026-11-15, serial 46341) + 30 days (the default).
  const auto until = formula_at(cells, "Cover", "B10");
  EXPECT_EQ(until.formula, "B8+B9");
  EXPECT_EQ(until.cached, 46341 + 30);
  const std::string workbook = zip_member(path, "xl/workbook.xml");
  EXPECT_NE(workbook.find("<definedName name=\"prices_as_of\">'Cover'!$B$8</definedName>"),
            std::string::npos)
      << workbook;
  // The status line: the Checks sheet's master check (their AND, cached TRUE: the Hetzner
  // price is stale, a warning outside the AND) and the count of stale prices, in one text.
  bool found = false;
  for (const auto& cell : cells) {
    if (cell.sheet != "Cover" || cell.formula.rfind("IF('Checks'!$C$5,", 0) != 0) continue;
    found = true;
    EXPECT_TRUE(cell.text_result);
    EXPECT_EQ(cell.cached_text, "All checks pass; 1 of 3 prices older than 90 days (see Sources)");
    EXPECT_EQ(formula_at(cells, "Checks", "C5").formula.rfind("AND(", 0), 0u);
  }
  EXPECT_TRUE(found);
}

TEST(XlsxReport, eachCashFlowRowIsOneFormulaCopiedAcross) {
  const auto sample = sample_plan();
  const std::string path = fresh_dir("copied") + "/tco.xlsx";
  write_workbook(sample.plan, sample.scenario, path);
  // Replace the column letters of relative references by a marker: a formula copied across
  // becomes the same text in every month column.
  std::map<int, std::set<std::string>> shapes;
  const std::regex relative_col(R"re((^|[^$A-Z_a-z])([A-Z]{1,3})(\$?[0-9]+))re");
  for (const auto& cell : formula_cells(path)) {
    if ((cell.sheet != "Cash flow" && cell.sheet != "Timeline") || cell.col < 2) continue;
    shapes[(cell.sheet == "Timeline" ? 100000 : 0) + cell.row].insert(
        std::regex_replace(cell.formula, relative_col, "$1#$3"));
  }
  EXPECT_GE(shapes.size(), 5u + 3 * 4 + 8);
  for (const auto& [row, forms] : shapes) {
    EXPECT_EQ(forms.size(), 1u) << "row " << row + 1 << " has " << forms.size()
                                << " different formulas, e.g. " << *forms.begin();
  }
}

TEST(XlsxReport, userTextIsWrittenAsTextNeverAsFormula) {
  auto sample = sample_plan();
  sample.scenario.customer = "=HYPERLINK(\"http://example.invalid\",\"click\")";
  sample.scenario.quote_id = "+1+2";
  sample.scenario.name = "@SUM(A1)";
  sample.plan.options[2].note = "-3-4";
  const std::string path = fresh_dir("text") + "/tco.xlsx";
  write_workbook(sample.plan, sample.scenario, path);

  const std::string strings = zip_member(path, "xl/sharedStrings.xml");
  EXPECT_NE(strings.find("<t>=HYPERLINK(\"http://example.invalid\",\"click\")</t>"),
            std::string::npos)
      << strings;
  EXPECT_NE(strings.find("<t>+1+2</t>"), std::string::npos);
  EXPECT_NE(strings.find("<t>@SUM(A1)</t>"), std::string::npos);
  EXPECT_NE(strings.find("<t>hetzner-gex44: -3-4</t>"), std::string::npos);
  for (const auto& cell : formula_cells(path)) {
    EXPECT_EQ(cell.formula.find("HYPERLINK"), std::string::npos) << cell.ref;
    EXPECT_NE(cell.formula, "1+2");
  }
}

TEST(XlsxReport, missingNumbersAreWrittenAsNotAvailableNeverNaN) {
  auto sample = sample_plan();
  auto& rent = sample.plan.options[2];
  rent.cost_per_million_tokens = std::numeric_limits<double>::quiet_NaN();
  rent.speed.aggregate_tokens_per_s = std::numeric_limits<double>::infinity();
  rent.break_even_hours.reset();
  sample.plan.options[0].break_even_month.reset();  // owned, with a baseline: "never"
  const std::string path = fresh_dir("nan") + "/tco.xlsx";
  write_workbook(sample.plan, sample.scenario, path);

  for (const auto& [sheet, part] : test::sheet_parts(path)) {
    const std::string xml = zip_member(path, part);
    for (const char* bad : {"<v>nan", "<v>-nan", "<v>inf", "<v>-inf", "<v>NAN", "<v>INF"}) {
      EXPECT_EQ(xml.find(bad), std::string::npos) << sheet << " holds " << bad;
    }
  }
  // "n/a" and "never" as text: a text cell or a formula's text result.
  std::string all = zip_member(path, "xl/sharedStrings.xml");
  for (const auto& [sheet, part] : test::sheet_parts(path)) all += zip_member(path, part);
  EXPECT_NE(all.find(">n/a<"), std::string::npos);
  EXPECT_NE(all.find(">never<"), std::string::npos);
}

TEST(XlsxReport, inputsMissingFromTheListAreAddedWithTheEnginesValue) {
  auto sample = sample_plan();
  auto& rows = sample.scenario.inputs;
  rows.erase(std::remove_if(rows.begin(), rows.end(),
                            [](const InputRow& r) {
                              return r.section == "office-3090" && r.key == "host_power_w";
                            }),
             rows.end());
  const std::string path = fresh_dir("missing") + "/tco.xlsx";
  write_workbook(sample.plan, sample.scenario, path);
  const std::string workbook = zip_member(path, "xl/workbook.xml");
  EXPECT_NE(workbook.find("<definedName name=\"opt_office_3090_host_power_w\">"),
            std::string::npos);
  const std::string strings = zip_member(path, "xl/sharedStrings.xml");
  EXPECT_NE(strings.find("the value the engine used"), std::string::npos);
}

TEST(XlsxReport, badAsOfThrowsAndLeavesTheTargetAlone) {
  auto sample = sample_plan();
  sample.scenario.as_of = "15/11/2026";
  const std::string dir = fresh_dir("bad-as-of");
  const std::string path = dir + "/tco.xlsx";
  test::read_bytes(path);
  EXPECT_THROW(write_workbook(sample.plan, sample.scenario, path), ReportError);
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_TRUE(std::filesystem::is_empty(dir));
}

TEST(XlsxReport, cashFlowOfTheWrongLengthThrowsNamingTheRow) {
  auto sample = sample_plan();
  sample.plan.options[1].cash_flow.rent.pop_back();
  const std::string path = fresh_dir("short") + "/tco.xlsx";
  try {
    write_workbook(sample.plan, sample.scenario, path);
    FAIL() << "no ReportError";
  } catch (const ReportError& e) {
    EXPECT_EQ(e.path(), path);
    EXPECT_NE(std::string(e.what()).find("runpod-h100"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("rent"), std::string::npos) << e.what();
  }
}

TEST(XlsxReport, missingDirectoryThrowsReportErrorWithThePath) {
  const auto sample = sample_plan();
  const std::string path = fresh_dir("no-dir") + "/missing/tco.xlsx";
  try {
    write_workbook(sample.plan, sample.scenario, path);
    FAIL() << "no ReportError";
  } catch (const ReportError& e) {
    EXPECT_EQ(e.path(), path);
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}

TEST(XlsxReport, oddOptionIdsGetValidDistinctNames) {
  auto sample = sample_plan();
  // Two ids that sanitise alike, one that starts with '='.
  sample.plan.options[1].id = "=runpod h100";
  sample.scenario.plan_inputs.options[1].id = "=runpod h100";
  sample.plan.options[2].id = "=runpod-h100";
  sample.scenario.plan_inputs.options[2].id = "=runpod-h100";
  sample.plan.baseline_option_id = "=runpod h100";
  sample.scenario.inputs.clear();  // every formula input then comes from the engine's inputs
  const std::string path = fresh_dir("odd-ids") + "/tco.xlsx";
  write_workbook(sample.plan, sample.scenario, path);
  const std::string workbook = zip_member(path, "xl/workbook.xml");
  EXPECT_NE(workbook.find("<definedName name=\"opt__runpod_h100_rate_per_gpu_hour\">"),
            std::string::npos)
      << workbook;
  EXPECT_NE(workbook.find("<definedName name=\"opt__runpod_h100_2_price_per_month\">"),
            std::string::npos)
      << workbook;
}

}  // namespace
}  // namespace gputco

namespace gputco {
namespace {

/// The Inputs sheet's value cell (column D) of the row named `name` (column G).
std::string inputs_value_ref(const std::string& path, const std::string& name) {
  for (const auto& [ref, text] : test::text_cells(path, "Inputs")) {
    if (ref[0] == 'G' && text == name) return "D" + ref.substr(1);
  }
  ADD_FAILURE() << "no Inputs row named " << name;
  return "";
}

// What the resolver derives when the scenario leaves it out follows, by formula, what it is
// derived from (EditedWorkbook: host_power_w and the site's tariff moved gputco's colocation
// total and not the workbook's). own-base-rent-peaks.ini: colo-h100, 1 x H100 SXM (700 W) and
// a 500 W host, contracted 1.5 kW = 1.2 kW rounded up to 0.5 kW steps; idle 1 x 70 W + 0.5 x
// 500 W = 320 W; the used-3090-rig idles at 2 x 35 W + 0.5 x 150 W = 145 W; the data centre's
// energy price is the site's tariff. max_price_age_days is no formula's input (a workbook
// cannot re-pick catalog prices): white, "no: rerun gputco".
TEST(XlsxReport, derivedDefaultsAreFormulasOfWhatTheyAreDerivedFrom) {
  for (const auto& [file, sample] : test::example_plans()) {
    if (file != "own-base-rent-peaks.ini") continue;
    const std::string path = fresh_dir("derived-defaults") + "/tco.xlsx";
    write_workbook(sample.plan, sample.scenario, path);
    const auto cells = formula_cells(path);
    const auto at = [&](const std::string& name) {
      return formula_at(cells, "Inputs", inputs_value_ref(path, name));
    };
    const auto contracted = at("opt_colo_h100_contracted_kw");
    EXPECT_EQ(contracted.formula,
              "ROUNDUP(MAX(0,(opt_colo_h100_count*700+opt_colo_h100_host_power_w)/watts_per_kw/"
              "opt_colo_h100_kw_step-1E-9),0)*opt_colo_h100_kw_step");
    EXPECT_DOUBLE_EQ(contracted.cached, 1.5);
    const auto idle = at("opt_colo_h100_idle_power_w");
    EXPECT_EQ(idle.formula, "opt_colo_h100_count*70+0.5*opt_colo_h100_host_power_w");
    EXPECT_DOUBLE_EQ(idle.cached, 320);
    EXPECT_DOUBLE_EQ(at("opt_used_3090_rig_idle_power_w").cached, 145);
    const auto tariff = at("opt_colo_h100_tariff_per_kwh");
    EXPECT_EQ(tariff.formula, "tariff_per_kwh");
    EXPECT_DOUBLE_EQ(tariff.cached, sample.scenario.plan_inputs.site.tariff_per_kwh);
    // The resale fractions read off the catalog's curves at the horizon (used, 36 months:
    // devices 0.449, host 0.125): read off them at the workbook's horizon (EditedWorkbook:
    // horizon 36 -> 18 kept the 36-month fractions where gputco reads 0.6795 and 0.375).
    const auto devices = at("opt_used_3090_rig_device_residual_fraction");
    EXPECT_EQ(devices.formula.rfind("MAX(0,MIN(1,IF(horizon_months<=", 0), 0u) << devices.formula;
    EXPECT_DOUBLE_EQ(devices.cached, 0.449);
    EXPECT_DOUBLE_EQ(at("opt_used_3090_rig_host_residual_fraction").cached, 0.125);
    const auto texts = test::text_cells(path, "Inputs");
    const std::string age_row = inputs_value_ref(path, "max_price_age_days").substr(1);
    EXPECT_EQ(texts.at("H" + age_row), "no: rerun gputco");
    return;
  }
  FAIL() << "no own-base-rent-peaks.ini";
}

}  // namespace
}  // namespace gputco
