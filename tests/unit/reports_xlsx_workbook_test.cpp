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

#include "reports/xlsx_report.hpp"
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
  EXPECT_EQ(sheet_names(path),
            (std::vector<std::string>{"Cover", "Summary", "Inputs", "Timeline", "Cash flow",
                                      "Hardware", "Sources", "Checks"}));
}

TEST(XlsxReport, aSensitivityRunAddsTheSensitivityAndCrossoverSheets) {
  const auto sample = sample_plan();
  const Sensitivity sensitivity = test::sample_sensitivity(sample);
  WorkbookOptions options;
  options.sensitivity = &sensitivity;
  const std::string path = fresh_dir("sensitivity") + "/tco.xlsx";
  write_workbook(sample.plan, sample.scenario, path, options);
  EXPECT_EQ(sheet_names(path), (std::vector<std::string>{"Cover", "Summary", "Inputs", "Timeline",
                                                         "Cash flow", "Sensitivity", "Crossover",
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

TEST(XlsxReport, theQuoteIsCoverSummaryAndSourcesWithNoFormulaReachingOtherSheets) {
  const auto sample = sample_plan();
  WorkbookOptions options;
  options.quote = true;
  const std::string path = fresh_dir("quote") + "/quote.xlsx";
  write_workbook(sample.plan, sample.scenario, path, options);
  const auto names = sheet_names(path);
  EXPECT_EQ(names, (std::vector<std::string>{"Cover", "Summary", "Sources", "Chart data"}));
  const std::string workbook = zip_member(path, "xl/workbook.xml");
  EXPECT_NE(workbook.find("<sheet name=\"Chart data\" sheetId=\"4\" state=\"hidden\""),
            std::string::npos)
      << workbook;
  const std::set<std::string> visible = {"Cover", "Summary", "Sources"};
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
  EXPECT_EQ(rules.size(), cell_of.size() - 5);
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
  EXPECT_EQ(stale.formula, "IF(G7>max_price_age_days,\"stale\",\"no\")");
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

TEST(XlsxReport, theArchiveAndEveryXmlPartAreWellFormed) {
  const auto sample = sample_plan();
  const Sensitivity sensitivity = test::sample_sensitivity(sample);
  WorkbookOptions options;
  options.sensitivity = &sensitivity;
  const std::string dir = fresh_dir("wellformed");
  write_workbook(sample.plan, sample.scenario, dir + "/tco.xlsx", options);
  WorkbookOptions quote;
  quote.quote = true;
  write_workbook(sample.plan, sample.scenario, dir + "/quote.xlsx", quote);
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
      // Well-formed XML, where xmllint is installed.
      if (std::system("command -v xmllint >/dev/null 2>&1") == 0) {
        const std::string copy = dir + "/part.xml";
        {
          std::ofstream out(copy, std::ios::binary);
          out << xml;
        }
        EXPECT_EQ(std::system(("xmllint --noout '" + copy + "' 2>/dev/null").c_str()), 0)
            << path << ": " << member;
      }
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
  EXPECT_EQ(test::sheet_parts(dir + "/a.xlsx").size(), 10u);

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
  // units, rent, VAT = 4.
  EXPECT_EQ(on("Cash flow"), 12 * 25 + (10 + 3 + 4) * 25 + 3 * 3 * 25 + 3 * 2);
  // Timeline: date, plan year, calendar year, 4 flags, discount factor per month.
  EXPECT_EQ(on("Timeline"), 8 * 25);

  const auto& own = sample.plan.options[0];
  // Cash flow layout: months from column C (month 0); timeline rows 4-15; first block title
  // on row 17: load 18, units 19, overflow 20, capex 21, energy 22, maintenance 23, hosting
  // 24, failures 25, rent 26, financing 27, VAT 28, resale 29, total 30, cumulative 31,
  // discounted 32, depreciation 33, book value 34; the second block starts on row 36.
  expect_near_relative(formula_at(cells, "Cash flow", "C21").cached, own.cash_flow.capex[0],
                       "capex at month 0");
  expect_near_relative(formula_at(cells, "Cash flow", "D22").cached, own.cash_flow.energy[1],
                       "energy at month 1");
  expect_near_relative(formula_at(cells, "Cash flow", "AA29").cached, own.cash_flow.resale[24],
                       "resale at month 24");
  expect_near_relative(formula_at(cells, "Cash flow", "B30").cached, own.total_cost, "total cost");
  expect_near_relative(formula_at(cells, "Cash flow", "B32").cached, own.npv, "NPV");
  EXPECT_EQ(formula_at(cells, "Cash flow", "D22").formula,
            "D$6*MIN(D18,D19)*(opt_office_3090_count*opt_office_3090_board_power_w+opt_office_"
            "3090_host_power_w)/watts_per_kw*D$12*tariff_per_kwh*pue*D$15");
  EXPECT_EQ(formula_at(cells, "Cash flow", "E31").formula, "SUM($C$30:E30)");
  expect_near_relative(formula_at(cells, "Cash flow", "E33").cached, own.cash_flow.depreciation[2],
                       "depreciation at month 2");
  expect_near_relative(formula_at(cells, "Cash flow", "E9").cached,
                       own.cash_flow.discount_factor[2], "discount factor at month 2");

  // Every Summary formula of the options table caches the engine's figure.
  int summary_formulas = 0;
  for (const auto& cell : cells) {
    if (cell.sheet != "Summary" || cell.row < 16 || cell.row > 18) continue;
    ++summary_formulas;
    const size_t i = static_cast<size_t>(cell.row - 16);
    ASSERT_LT(i, sample.plan.options.size()) << cell.ref;
    const auto& option = sample.plan.options[i];
    const double expected = cell.col == 5 ? option.total_cost
                            : cell.col == 6
                                ? option.npv
                                : option.annual_costs.at(static_cast<size_t>(cell.col - 7));
    expect_near_relative(cell.cached, expected, "Summary!" + cell.ref);
  }
  EXPECT_EQ(summary_formulas, 3 * 4);
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
  EXPECT_EQ(sheets.size(), 8u) << "every sheet but Inputs and Hardware has formulas";
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
  // The master check: the Checks sheet's AND, cached TRUE (the Hetzner price is stale, a
  // warning outside the AND).
  bool found = false;
  for (const auto& cell : cells) {
    if (cell.sheet == "Cover" && cell.formula.rfind("'Checks'!", 0) == 0) {
      found = true;
      EXPECT_EQ(cell.cached, 1);
      const auto master = formula_at(
          cells, "Checks", cell.formula.substr(cell.formula.find('!') + 1).erase(0, 1).erase(1, 1));
      EXPECT_EQ(master.formula.rfind("AND(", 0), 0u) << master.formula;
    }
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
  EXPECT_NE(strings.find("<t>-3-4</t>"), std::string::npos);
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
  const std::string strings = zip_member(path, "xl/sharedStrings.xml");
  EXPECT_NE(strings.find("<t>n/a</t>"), std::string::npos);
  EXPECT_NE(strings.find("<t>never</t>"), std::string::npos);
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

/// A text cell's shared string is in the workbook (user text and "unknown" are strings).
bool has_string(const std::string& path, const std::string& text) {
  return zip_member(path, "xl/sharedStrings.xml").find(text) != std::string::npos;
}

TEST(XlsxReportApiCarbon, apiFeesEnergyAndEmissionsAreLiveFormulas) {
  const auto sample = test::api_carbon_sample_plan();
  const std::string path = fresh_dir("api-carbon") + "/tco.xlsx";
  write_workbook(sample.plan, sample.scenario, path);
  const auto cells = formula_cells(path);
  ASSERT_EQ(sample.plan.options.size(), 4u);
  const auto& own = sample.plan.options[0];
  const auto& hourly = sample.plan.options[1];
  const auto& monthly = sample.plan.options[2];
  const auto& api = sample.plan.options[3];
  ASSERT_EQ(api.kind, OptionKind::api);

  // Timeline rows 4-16: the API price factor is row 16, (1 - 0.2)^((m - 1) / 12).
  EXPECT_EQ(formula_at(cells, "Cash flow", "D16").formula,
            "(1+api_price_trend_per_year)^(MAX(0,D$4-1)/months_per_year)");
  expect_near_relative(formula_at(cells, "Cash flow", "P16").cached, 0.8, "API factor, month 13");

  // Blocks of 22 rows from row 18: the api block (4th) has its title on row 84, load 85,
  // rent 93 (the per-token fees), VAT 95, total 97, kWh 102, idle kWh 103, kg CO2e 104.
  EXPECT_EQ(formula_at(cells, "Cash flow", "D93").formula,
            "D$11*D$13*(tokens_per_day*input_tokens_per_output_token*opt_api_llama_input_price_"
            "per_million+tokens_per_day*opt_api_llama_output_price_per_million)/"
            "tokens_per_million*D$16");
  // Month 1: 730/24 days x (200000 x 3 x 0.50 + 200000 x 0.80) / 1e6 = 30.41667 x 0.46.
  const double days = 730.0 / 24.0;
  expect_near_relative(formula_at(cells, "Cash flow", "D93").cached, days * 0.46, "api month 1");
  expect_near_relative(formula_at(cells, "Cash flow", "P93").cached, days * 0.46 * 0.8,
                       "api month 13 (prices -20 %)");
  // An api has no capacity of ours: its load row is no formula (a plain 0), never the
  // 200,000 tokens a day of the demand (which the fee row above carries).
  for (const auto& cell : cells) {
    EXPECT_FALSE(cell.sheet == "Cash flow" && cell.ref == "D85") << "api load: " << cell.formula;
  }
  for (double load : api.cash_flow.load) EXPECT_EQ(load, 0.0);
  expect_near_relative(formula_at(cells, "Cash flow", "B97").cached, api.total_cost, "api total");
  double api_total = 0;
  for (int m = 1; m <= 24; ++m) api_total += days * 0.46 * std::pow(0.8, (m - 1) / 12.0);
  expect_near_relative(api.total_cost, api_total, "api total by hand (no growth, no VAT)");

  // The rig (block 1) stays on: kWh at month 1 = min(L, 1) x 850 W x 304.17 h x PUE 1.1 +
  // (730 - min(L, 1) x 304.17) x 100 W x 1.1, CO2e = kWh x 350 / 1000.
  const double load = std::min(own.cash_flow.load[1], 1.0);
  const double hours = 10 * days;
  const double idle = (730 - load * hours) * 100 / 1000 * 1.1;
  const double kwh = load * 850.0 / 1000 * hours * 1.1 + idle;
  EXPECT_EQ(formula_at(cells, "Cash flow", "D36").formula,
            "D$6*MIN(D19,D20)*(opt_office_3090_count*opt_office_3090_board_power_w+opt_office_"
            "3090_host_power_w)/watts_per_kw*D$12*pue+D37");
  EXPECT_EQ(formula_at(cells, "Cash flow", "D37").formula,
            "D$6*(1-opt_office_3090_powered_off_when_idle)*MAX(0,D20*D$10-MIN(D19,D20)*D$12)*"
            "opt_office_3090_idle_power_w/watts_per_kw*pue");
  EXPECT_EQ(formula_at(cells, "Cash flow", "D38").formula,
            "D36*grid_g_co2e_per_kwh/grams_per_kilogram");
  expect_near_relative(formula_at(cells, "Cash flow", "D37").cached, idle, "rig idle kWh");
  expect_near_relative(formula_at(cells, "Cash flow", "D36").cached, kwh, "rig kWh");
  expect_near_relative(formula_at(cells, "Cash flow", "D38").cached, kwh * 0.35, "rig kg CO2e");
  expect_near_relative(formula_at(cells, "Cash flow", "B36").cached, *own.energy_kwh_total,
                       "rig kWh over the horizon");
  expect_near_relative(formula_at(cells, "Cash flow", "B38").cached, *own.co2e_kg_total,
                       "rig kg CO2e over the horizon");
  // The money rows' SUM stops at resale: the physical rows are not in the total.
  EXPECT_EQ(formula_at(cells, "Cash flow", "D31").formula, "SUM(D22:D30)");

  // The hourly rental (block 2, rows 40-61): kWh by use at the data centre's PUE; its region
  // has no intensity: "unknown", no formula.
  EXPECT_EQ(formula_at(cells, "Cash flow", "D58").formula,
            "D$6*opt_runpod_h100_count*opt_runpod_h100_board_power_w/watts_per_kw*D$12*D41/"
            "opt_runpod_h100_goodput*opt_runpod_h100_pue+D59");
  expect_near_relative(formula_at(cells, "Cash flow", "D58").cached,
                       700.0 / 1000 * hours * hourly.cash_flow.load[1] * kDefaultDataCentrePue,
                       "H100 kWh");
  EXPECT_FALSE(hourly.co2e_kg_total.has_value());
  for (const auto& cell : cells) {
    EXPECT_FALSE(cell.sheet == "Cash flow" && cell.row == 59) << cell.ref << " " << cell.formula;
  }
  // The monthly server (block 3): idle all month at 7 W, 380 g/kWh.
  expect_near_relative(formula_at(cells, "Cash flow", "B82").cached, *monthly.co2e_kg_total,
                       "server kg CO2e");
  EXPECT_EQ(formula_at(cells, "Cash flow", "D82").formula,
            "D80*opt_hetzner_gex44_grid_g_co2e_per_kwh/grams_per_kilogram");
  // The API: energy unknown (no provider publishes it), never 0, no formula.
  for (const auto& cell : cells) {
    EXPECT_FALSE(cell.sheet == "Cash flow" && cell.row >= 101 && cell.row <= 103)
        << cell.ref << " " << cell.formula;
  }
  EXPECT_TRUE(
      has_string(path, "the provider publishes no energy per token for llama-3.1-8b-instant"));

  // Summary: kWh and kg CO2e link to the Cash flow sums; the API's are "unknown".
  // Columns: years H-I, break-even hours J, month K, cost per million L, kWh M, CO2e N,
  // break-even tokens/day O.
  const auto& summary_kwh = formula_at(cells, "Summary", "M17");
  EXPECT_EQ(summary_kwh.formula, "'Cash flow'!$B$36");
  expect_near_relative(summary_kwh.cached, *own.energy_kwh_total, "Summary kWh");
  const auto& summary_co2e = formula_at(cells, "Summary", "N17");
  EXPECT_EQ(summary_co2e.formula, "'Cash flow'!$B$38");
  for (const auto& cell : cells) {
    EXPECT_FALSE(cell.sheet == "Summary" && cell.row == 19 && (cell.col == 12 || cell.col == 13))
        << "the API's energy is unknown: " << cell.ref;
    EXPECT_FALSE(cell.sheet == "Summary" && cell.row == 17 && cell.col == 13)
        << "the H100's emissions are unknown: " << cell.ref;
  }
  EXPECT_TRUE(has_string(path, "costs as much over the horizon as api-llama"));

  // Checks: the rate limits are warnings, outside the master check's AND.
  EXPECT_TRUE(has_string(path, "API peak tokens per minute within the published limit"));
  std::string master;
  int rate_checks = 0;
  for (const auto& cell : cells) {
    if (cell.sheet != "Checks") continue;
    if (cell.row == 4) master = cell.formula;
    if (cell.formula.find("opt_api_llama_tokens_per_minute_limit") != std::string::npos ||
        cell.formula.find("opt_api_llama_requests_per_minute_limit") != std::string::npos) {
      ++rate_checks;
      EXPECT_EQ(cell.cached, 1) << cell.formula;  // 1333 tokens/min, 0.83 requests/min
      EXPECT_EQ(master.find(cell.ref), std::string::npos) << "warning in the master check";
    }
  }
  EXPECT_EQ(rate_checks, 2);
  // Hardware: the API is hosted, no memory or speed figures that look like a fit.
  EXPECT_TRUE(has_string(path, "hosted (API)"));
  // Sources: the grid intensity with its date.
  EXPECT_TRUE(has_string(path, "grid carbon nl (2025)"));
}

/// The shared-string text cells of one sheet: cell reference ("D17") -> text.
std::map<std::string, std::string> text_cells(const std::string& path, const std::string& sheet) {
  std::vector<std::string> strings;
  const std::string shared = zip_member(path, "xl/sharedStrings.xml");
  const std::regex si(R"re(<si>(.*?)</si>)re");
  const std::regex t(R"re(<t[^>]*>([^<]*)</t>)re");
  for (std::sregex_iterator it(shared.begin(), shared.end(), si), end; it != end; ++it) {
    const std::string item = (*it)[1];
    std::string text;
    for (std::sregex_iterator jt(item.begin(), item.end(), t); jt != end; ++jt) text += (*jt)[1];
    strings.push_back(text);
  }
  std::map<std::string, std::string> out;
  const std::string xml = zip_member(path, test::sheet_parts(path).at(sheet));
  const std::regex cell(R"re(<c r="([A-Z]+[0-9]+)"[^>]*t="s"[^>]*><v>([0-9]+)</v></c>)re");
  for (std::sregex_iterator it(xml.begin(), xml.end(), cell), end; it != end; ++it) {
    out[(*it)[1]] = strings.at(std::stoul((*it)[2]));
  }
  return out;
}

TEST(XlsxReportApiCarbon, summaryShowsTheApiAsHostedWithoutASpeed) {
  const auto sample = test::api_carbon_sample_plan();
  const std::string path = fresh_dir("api-summary") + "/tco.xlsx";
  write_workbook(sample.plan, sample.scenario, path);
  const auto texts = text_cells(path, "Summary");
  const auto column_of = [](const std::string& ref) {
    return ref.substr(0, ref.find_first_of("0123456789"));
  };
  const auto row_of = [](const std::string& ref) {
    return ref.substr(ref.find_first_of("0123456789"));
  };
  std::string fit_col, decode_col, api_row;
  for (const auto& [ref, text] : texts) {
    if (text == "Fit") fit_col = column_of(ref);
    if (text == "Decode tokens/s per stream") decode_col = column_of(ref);
    if (text == sample.plan.options[3].id && column_of(ref) == "A") api_row = row_of(ref);
  }
  ASSERT_FALSE(fit_col.empty());
  ASSERT_FALSE(api_row.empty());
  // As in the terminal and JSON: the provider serves the model; no fit verdict, no speed.
  EXPECT_EQ(texts.at(fit_col + api_row), "hosted");
  EXPECT_EQ(texts.at(decode_col + api_row), "n/a");
}

}  // namespace
}  // namespace gputco
