// The workbook at Excel's limits (issue #20): page headers with user text (codes escaped, cut
// on a character boundary, the quote id kept whole), and charts over more options than Excel
// draws series.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <string>
#include <vector>

#include "reports/xlsx/cells.hpp"
#include "reports/xlsx/report.hpp"
#include "reports/xlsx/sheets.hpp"
#include "tests/unit/reports_xlsx_fixture.hpp"

namespace gputco {
namespace {

/// Characters (code points) of valid UTF-8; -1 when `text` is not valid UTF-8.
long utf8_length(const std::string& text) {
  long chars = 0;
  for (size_t i = 0; i < text.size();) {
    const auto b = static_cast<unsigned char>(text[i]);
    const size_t length = b < 0x80           ? 1
                          : (b >> 5) == 0x6  ? 2
                          : (b >> 4) == 0xE  ? 3
                          : (b >> 3) == 0x1E ? 4
                                             : 0;
    if (length == 0 || i + length > text.size()) return -1;
    for (size_t k = 1; k < length; ++k) {
      if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return -1;
    }
    i += length;
    ++chars;
  }
  return chars;
}

/// The text of `tag` in a sheet's XML, entities undone.
std::string element_text(const std::string& xml, const std::string& tag) {
  const size_t open = xml.find("<" + tag + ">");
  const size_t close = xml.find("</" + tag + ">");
  if (open == std::string::npos || close == std::string::npos) return "";
  std::string text = xml.substr(open + tag.size() + 2, close - open - tag.size() - 2);
  for (size_t at = text.find("&amp;"); at != std::string::npos; at = text.find("&amp;", at + 1)) {
    text.replace(at, 5, "&");
  }
  return text;
}

TEST(XlsxHeaderFooter, ampersandsAreDoubledAndACutNeverSplitsACharacterOrACode) {
  // "&" -> "&&" (two characters). "a&b" is 4 characters escaped: in 3, "a" and the ellipsis
  // ("a&" would be a code, "a&&" leaves no room for the ellipsis); "a&bc" in 4: "a&&…".
  EXPECT_EQ(xlsx::header_footer_text("Müller & Söhne", 100), "Müller && Söhne");
  EXPECT_EQ(xlsx::header_footer_text("a&b", 4), "a&&b");
  EXPECT_EQ(xlsx::header_footer_text("a&b", 3), "a\xE2\x80\xA6");
  EXPECT_EQ(xlsx::header_footer_text("a&bc", 4), "a&&\xE2\x80\xA6");
  EXPECT_EQ(xlsx::header_footer_text("üüüü", 3), "üü\xE2\x80\xA6");
  EXPECT_EQ(xlsx::header_footer_text("two\nlines", 20), "two lines");
  EXPECT_EQ(xlsx::header_footer_text("anything", 0), "");
}

TEST(XlsxHeaderFooter, aLongCustomerNameKeepsTheQuoteIdWholeAndTheHeaderWithinExcelsLimit) {
  auto sample = test::sample_plan();
  std::string customer;
  for (int i = 0; i < 60; ++i) customer += "Ü&ß ";  // 240 characters, 60 ampersands
  sample.scenario.customer = customer;
  sample.scenario.quote_id = "Q-2026-0042";
  const std::string path = test::fresh_dir("long-header") + "/tco.xlsx";
  write_workbook(sample.plan, sample.scenario, path);
  for (const auto& [sheet, part] : test::sheet_parts(path)) {
    const std::string header = element_text(test::zip_member(path, part), "oddHeader");
    const long chars = utf8_length(header);
    ASSERT_GT(chars, 0) << sheet << ": not valid UTF-8: " << header;
    EXPECT_LE(chars, 255) << sheet;
    // The quote id closes the header whole, after the right-section code.
    const std::string tail = "&RQuote Q-2026-0042";
    ASSERT_GE(header.size(), tail.size());
    EXPECT_EQ(header.substr(header.size() - tail.size()), tail) << sheet << ": " << header;
    // The customer's part: every '&' doubled (an even run), then the ellipsis of the cut.
    const std::string left = header.substr(2, header.size() - tail.size() - 2);
    EXPECT_EQ(header.substr(0, 2), "&L");
    const std::regex odd_run("(^|[^&])(&&)*&([^&]|$)");
    EXPECT_FALSE(std::regex_search(left, odd_run)) << sheet << ": a lone '&' (a code): " << left;
    EXPECT_EQ(left.substr(left.size() - 3), "\xE2\x80\xA6") << sheet << ": cut, and says so";
  }
}

/// The sample plan's three options repeated to 300 (each its own price and rate), money
/// recomputed, written with its Sensitivity sheet to `dir`/tco.xlsx; returns the path.
std::string write_three_hundred_options(const std::string& dir) {
  auto sample = test::sample_plan();
  auto& in = sample.scenario.plan_inputs;
  const auto base_options = in.options;
  const auto base_results = sample.plan.options;
  in.options.clear();
  sample.plan.options.clear();
  for (size_t i = 0; i < 300; ++i) {
    OptionInputs option = base_options[i % 3];
    OptionResult result = base_results[i % 3];
    option.id = result.id = base_options[i % 3].id + "-" + std::to_string(i);
    option.price_per_gpu += static_cast<double>(i);  // every owned option its own cost
    option.rate_per_gpu_hour += 0.01 * static_cast<double>(i);
    in.options.push_back(option);
    sample.plan.options.push_back(result);
  }
  test::recompute_money(sample);
  sample.plan.baseline_option_id = in.options[1].id;
  const Sensitivity sensitivity = test::sample_sensitivity(sample);
  WorkbookOptions options;
  options.sensitivity = &sensitivity;
  const std::string path = test::fresh_dir(dir) + "/tco.xlsx";
  write_workbook(sample.plan, sample.scenario, path, options);
  return path;
}

/// The most arguments any one function call of `formula` takes (commas at its own depth + 1;
/// text in double quotes skipped); 0 for a formula without calls.
size_t most_arguments(const std::string& formula) {
  std::vector<size_t> open;  // the arguments so far of each open call
  size_t most = 0;
  bool quoted = false;
  for (size_t i = 0; i < formula.size(); ++i) {
    const char c = formula[i];
    if (c == '"') quoted = !quoted;
    if (quoted) continue;
    if (c == '(') open.push_back(i + 1 < formula.size() && formula[i + 1] == ')' ? 0 : 1);
    if (c == ',' && !open.empty()) ++open.back();
    if (c == ')' && !open.empty()) {
      most = std::max(most, open.back());
      open.pop_back();
    }
  }
  return most;
}

TEST(XlsxFormulas, functionCallNestsAboveTwoHundredFiftyFiveTerms) {
  EXPECT_EQ(function_call("AND", {"A1", "B2", "C3"}), "AND(A1,B2,C3)");
  std::vector<std::string> terms;
  for (int i = 1; i <= 256; ++i) terms.push_back("A" + std::to_string(i));
  const std::string two = function_call("AND", terms);
  EXPECT_EQ(two.substr(0, 12), "AND(AND(A1,A");
  EXPECT_EQ(two.substr(two.size() - 21), "A254,A255),AND(A256))");
  EXPECT_EQ(most_arguments(two), 255u);
  // 255 x 255 + 1 terms: 256 calls of the first level, two of the second, one of the third.
  terms.clear();
  for (int i = 0; i < 255 * 255 + 1; ++i) terms.push_back("1");
  const std::string three = function_call("SUM", terms);
  EXPECT_EQ(three.substr(0, 15), "SUM(SUM(SUM(1,1");
  EXPECT_EQ(three.substr(three.size() - 15), ")),SUM(SUM(1)))");
  EXPECT_EQ(most_arguments(three), 255u);
  EXPECT_THROW(function_call("AND", {}), std::invalid_argument);
}

/// Every formula of a sheet's XML (the text of each <f> element, entities undone), read with
/// plain searches: std::regex recursed past the stack on a 9,000-character formula (ASan).
std::vector<std::string> sheet_formulas(const std::string& xml) {
  std::vector<std::string> out;
  for (size_t at = xml.find("<f>"); at != std::string::npos; at = xml.find("<f>", at + 3)) {
    const size_t end = xml.find("</f>", at);
    if (end == std::string::npos) break;
    std::string f = xml.substr(at + 3, end - at - 3);
    for (const auto& [entity, c] : {std::pair<std::string, std::string>{"&lt;", "<"},
                                    {"&gt;", ">"},
                                    {"&quot;", "\""},
                                    {"&amp;", "&"}}) {
      for (size_t e = f.find(entity); e != std::string::npos; e = f.find(entity, e + 1)) {
        f.replace(e, entity.size(), c);
      }
    }
    out.push_back(f);
  }
  return out;
}

TEST(XlsxFormulas, aPlanOfThreeHundredOptionsCallsNoFunctionWithMoreThan255Arguments) {
  // newcomer7: the master check was one AND of every check (5 or more per option): 302
  // arguments at 60 options, Err:512 in LibreOffice and a broken formula in Excel.
  const std::string path = write_three_hundred_options("many-options-formulas");
  size_t master_terms = 0, formulas = 0;
  for (const auto& [sheet, part] : test::sheet_parts(path)) {
    for (const std::string& formula : sheet_formulas(test::zip_member(path, part))) {
      ++formulas;
      EXPECT_LE(most_arguments(formula), kMaxFunctionArguments) << sheet << ": " << formula;
      if (sheet == "Checks" && formula.rfind("AND(AND(", 0) == 0) {
        master_terms = static_cast<size_t>(std::count(formula.begin(), formula.end(), ','));
      }
    }
  }
  EXPECT_GT(formulas, 10000u);
  EXPECT_GT(master_terms, 1500u) << "the master check nests the checks of 300 options";
}

TEST(XlsxCharts, aPlanOfThreeHundredOptionsChartsTheCheapestWithinExcelsSeriesLimit) {
  const std::string path = write_three_hundred_options("many-options");
  int charts = 0;
  const std::regex series("<c:ser>");
  for (const auto& member : test::zip_members(path)) {
    if (member.rfind("xl/charts/chart", 0) != 0) continue;
    ++charts;
    const std::string xml = test::zip_member(path, member);
    const auto count =
        std::distance(std::sregex_iterator(xml.begin(), xml.end(), series), std::sregex_iterator());
    EXPECT_LE(count, static_cast<long>(xlsx::kMaxChartSeries)) << member;
    if (xml.find("Cumulative cost by month") != std::string::npos ||
        xml.find("against hours of use per day") != std::string::npos) {
      // 20 lines (and the crossover's marker, the cumulative chart's crossings), and the
      // title says which.
      EXPECT_LE(count, 20 + 20) << member;
      EXPECT_NE(xml.find("the 20 cheapest of 300 options by NPV"), std::string::npos) << member;
    }
  }
  EXPECT_GE(charts, 3);
}

TEST(XlsxCharts, theChartedOptionsAreTheCheapestAndKeepTheBaseline) {
  auto sample = test::sample_plan();
  // NPVs of the three sample options in plan order; with room for two, the two cheapest,
  // unless the baseline (kept) is not among them.
  std::vector<size_t> by_npv = {0, 1, 2};
  std::sort(by_npv.begin(), by_npv.end(), [&](size_t a, size_t b) {
    return sample.plan.options[a].npv < sample.plan.options[b].npv;
  });
  std::vector<size_t> two(by_npv.begin(), by_npv.begin() + 2);
  std::sort(two.begin(), two.end());
  EXPECT_EQ(xlsx::chart_options(sample.plan, 2, {}), two);
  const std::string dearest = sample.plan.options[by_npv[2]].id;
  const auto kept = xlsx::chart_options(sample.plan, 2, {dearest});
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_TRUE(kept[0] == by_npv[2] || kept[1] == by_npv[2]);
  EXPECT_TRUE(kept[0] == by_npv[0] || kept[1] == by_npv[0]) << "the cheapest stays";
  EXPECT_EQ(xlsx::chart_options(sample.plan, 3, {}), (std::vector<size_t>{0, 1, 2}));
  EXPECT_EQ(xlsx::chart_subset_note(20, 300), " (the 20 cheapest of 300 options by NPV)");
  EXPECT_EQ(xlsx::chart_subset_note(3, 3), "");
}

}  // namespace
}  // namespace gputco
