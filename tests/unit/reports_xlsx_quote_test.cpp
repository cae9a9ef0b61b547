// The quote as a customer gets it (issue #15): the seller and the option proposed beside the
// recommendation, every price, rate and term on the Assumptions sheet, sources by publisher and
// date, one status line, options by their labels, A4 and Letter at 70 % or more, and no ###
// for any amount up to 10^9.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>

#include "engine/money/instalment.hpp"
#include "pricing/catalog.hpp"
#include "reports/xlsx/report.hpp"
#include "reports/xlsx/sheets.hpp"
#include "scenarios/resolve.hpp"
#include "scenarios/scenario.hpp"
#include "tests/support/paths.hpp"
#include "tests/unit/reports_xlsx_fixture.hpp"

namespace gputco {
namespace {

using test::fresh_dir;
using test::text_cells;
using test::zip_member;

/// A 4 x 2 PNG: signature and IHDR (libxlsxwriter reads the size; the pixels are not checked).
void write_png(const std::string& path) {
  std::string png = "\x89PNG\r\n\x1a\n";
  png +=
      std::string("\0\0\0\x0d", 4) + "IHDR" + std::string("\0\0\0\x04\0\0\0\x02\x08\x02\0\0\0", 13);
  png += std::string(4, '\0') + std::string("\0\0\0\0IEND\xAE\x42\x60\x82", 12);
  std::ofstream(path, std::ios::binary) << png;
}

/// The rig-rent-or-api example as a reseller quotes it: a seller with a logo and terms, its
/// own rig proposed, every option with a label, a loan on the rig and a leased alternative;
/// over `horizon_months` (the example's 36 unless told).
test::SamplePlan seller_quote(const std::string& dir, int horizon_months = 36) {
  write_png(dir + "/logo.png");
  std::ifstream in(test::source_path("scenarios/examples/rig-rent-or-api-30-people.ini"));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto replace = [&](const std::string& from, const std::string& to) {
    const size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
  };
  replace("customer = Example B.V.",
          "customer = Example B.V.\nquote_id = Q-2026-0117\nproposed = rig-2x3090");
  replace("[workload]",
          "[seller]\ncompany = Rechenwerk Systems GmbH\ncontact = Jana Kovac, +49 30 1234567\n"
          "logo = logo.png\nterms = Payment 30 days net. Delivery within 10 working days.\n\n"
          "[workload]");
  replace("[option:rig-2x3090]",
          "[option:rig-2x3090]\nlabel = Office rig, 2 x RTX 3090 (used)\nfinancing = loan\n"
          "loan_rate = 0.069\nloan_term_months = 24\ndown_payment = 0.2");
  replace("[option:l40s-paris]", "[option:l40s-paris]\nlabel = L40S rented in Paris");
  replace("horizon_months = 36", "horizon_months = " + std::to_string(horizon_months));
  text +=
      "\n[option:leased-5090]\nlabel = RTX 5090, leased\nkind = buy\ngpu = rtx-5090\n"
      "host_cost = 1500\nfinancing = lease\nlease_rate_per_month = 0.035\n"
      "lease_term_months = 36\n";
  std::ofstream(dir + "/quote.ini") << text;
  test::SamplePlan sample;
  sample.scenario = resolve(load_scenario(dir + "/quote.ini"), Catalog::open_builtin());
  sample.plan = make_plan(sample.scenario.plan_inputs);
  return sample;
}

bool has_text(const std::map<std::string, std::string>& texts, const std::string& text) {
  for (const auto& [ref, value] : texts) {
    if (value == text) return true;
  }
  return false;
}

TEST(XlsxQuote, theCoverShowsTheSellerTheProposedOptionAndTheRecommendationBesideIt) {
  const std::string dir = fresh_dir("quote-seller");
  const auto sample = seller_quote(dir);
  ASSERT_TRUE(sample.plan.recommendation);
  ASSERT_NE(*sample.plan.recommendation, "rig-2x3090") << "the seller proposes a dearer option";
  WorkbookOptions options;
  options.quote = true;
  const std::string path = dir + "/quote.xlsx";
  write_workbook(sample.plan, sample.scenario, path, options);
  const auto cover = text_cells(path, "Cover");
  for (const char* text :
       {"Rechenwerk Systems GmbH", "Jana Kovac, +49 30 1234567", "Office rig, 2 x RTX 3090 (used)",
        "Proposed", "Recommendation", "Payment 30 days net. Delivery within 10 working days.",
        "A4 (the default for EUR), one page wide"}) {
    EXPECT_TRUE(has_text(cover, text)) << text;
  }
  // The logo is in the workbook, on the Cover's drawing.
  const auto members = test::zip_members(path);
  EXPECT_NE(std::find(members.begin(), members.end(), "xl/media/image1.png"), members.end());
  // Proposed minus recommended NPV: a formula of the two NPVs on the Cover, the engine's
  // difference as its value.
  double proposed_npv = 0, recommended_npv = 0;
  for (const auto& option : sample.plan.options) {
    if (option.id == "rig-2x3090") proposed_npv = option.npv;
    if (option.id == *sample.plan.recommendation) recommended_npv = option.npv;
  }
  bool difference = false;
  for (const auto& cell : test::formula_cells(path)) {
    if (cell.sheet != "Cover" || cell.text_result) continue;
    if (std::abs(cell.cached - (proposed_npv - recommended_npv)) < 1e-6) difference = true;
  }
  EXPECT_TRUE(difference) << "no cell holds the NPV the proposed option costs more";
  // The recommendation by its label, the status on one line.
  const std::string recommended = option_label(sample.scenario, *sample.plan.recommendation);
  bool recommendation = false, status = false;
  for (const auto& cell : test::formula_cells(path)) {
    if (cell.sheet == "Cover" && cell.text_result && cell.cached_text == recommended) {
      recommendation = true;
    }
  }
  for (const auto& [ref, text] : cover) {
    status = status || text.find("All checks pass") != std::string::npos;
  }
  EXPECT_TRUE(recommendation);
  // Issue #37: a quote has no Checks sheet, so its Cover claims no check result.
  EXPECT_FALSE(status) << "a quote's Cover says nothing of checks it does not contain";
  // The loan the customer signs for: its monthly instalment, beside its terms as typed.
  // (900 + 2 x 750 USD x 0.8593) capex, 80 % financed at 6.9 % a year over 24 months.
  const OptionInputs* rig = xlsx::find_option_inputs(sample.scenario, "rig-2x3090");
  ASSERT_NE(rig, nullptr);
  const OptionResult& rig_result = sample.plan.options.at(0);
  ASSERT_EQ(rig_result.id, "rig-2x3090");
  const auto instalment = financing_instalment(*rig, rig_result.cash_flow);
  ASSERT_TRUE(instalment.has_value());
  EXPECT_NEAR(instalment->per_month, rig_result.cash_flow.financing.at(1), 1e-9);
  EXPECT_TRUE(has_text(cover, "Monthly instalment"));
  EXPECT_TRUE(has_text(cover, "loan: 24 instalments at 6.9 % a year"));
  bool instalment_shown = false;
  for (const auto& [ref, number] : test::plain_numbers(path, "Cover")) {
    instalment_shown = instalment_shown || std::abs(number - instalment->per_month) < 1e-9;
  }
  EXPECT_TRUE(instalment_shown) << "the Cover shows the monthly instalment "
                                << instalment->per_month;
}

TEST(XlsxQuote, theAssumptionsListEveryPriceRateAndTermWithWhereItComesFrom) {
  const std::string dir = fresh_dir("quote-assumptions");
  const auto sample = seller_quote(dir);
  WorkbookOptions options;
  options.quote = true;
  const std::string path = dir + "/quote.xlsx";
  write_workbook(sample.plan, sample.scenario, path, options);
  const auto texts = text_cells(path, "Assumptions");
  for (const char* label :
       {"Discount rate", "Electricity tariff (nl-business)", "Purchase price per device",
        "Loan rate per year (nominal, monthly instalments)", "Loan term", "Down payment",
        "Lease fee per month", "Lease term", "Rate per device-hour (scaleway)",
        "Decode speed per stream",
        "Office rig, 2 x RTX 3090 (used): buy (used, loan), 2 x GeForce RTX 3090",
        "stated for this quote", "Eurostat, 2024-07-01"}) {
    EXPECT_TRUE(has_text(texts, label)) << label;
  }
  // Every scenario input is there (its label), none is left out.
  size_t listed = 0;
  for (const InputRow& row : sample.scenario.inputs) {
    const bool found = has_text(texts, row.label);
    listed += found ? 1 : 0;
    EXPECT_TRUE(found) << row.section << "." << row.key << ": " << row.label;
  }
  EXPECT_EQ(listed, sample.scenario.inputs.size());
}

TEST(XlsxQuote, sourcesNameThePublisherAndDateAndKeepTheReferenceInANote) {
  const std::string dir = fresh_dir("quote-sources");
  const auto sample = seller_quote(dir);
  WorkbookOptions options;
  options.quote = true;
  const std::string path = dir + "/quote.xlsx";
  write_workbook(sample.plan, sample.scenario, path, options);
  const auto texts = text_cells(path, "Sources");
  EXPECT_TRUE(has_text(texts, "Published by"));
  EXPECT_TRUE(has_text(texts, "Eurostat"));
  EXPECT_TRUE(has_text(texts, "European Central Bank (ECB)"));
  for (const auto& [ref, text] : texts) {
    EXPECT_EQ(text.find(" @ "), std::string::npos) << ref << ": a repository reference: " << text;
  }
  // The notes (comments) hold the reference as recorded and its address.
  std::string comments;
  for (const auto& member : test::zip_members(path)) {
    if (member.rfind("xl/comments", 0) == 0) comments += zip_member(path, member);
  }
  EXPECT_NE(comments.find("Source as recorded: Eurostat nrg_pc_205"), std::string::npos);
  EXPECT_NE(comments.find("Address: https://"), std::string::npos);
}

/// The print scale of a sheet fitted one page wide: the printable width of its paper and
/// orientation over the width of its columns up to the last one used by a cell or a drawing,
/// whichever reaches further (Calibri 11: a column of width w characters is
/// trunc((256 w + 18) / 256 x 7) pixels, 96 to the inch).
double print_scale(const std::string& path, const std::string& sheet) {
  const auto parts = test::sheet_parts(path);
  const std::string part = parts.at(sheet);
  const std::string xml = zip_member(path, part);
  std::smatch m;
  EXPECT_TRUE(
      std::regex_search(xml, m, std::regex(R"re(<dimension ref="[A-Z]+\d+:([A-Z]+)\d+")re")))
      << sheet;
  const int last_cell_col = test::parse_ref(m[1].str() + "1").second;
  double last_col = last_cell_col;
  double partial_px = 0;
  // A drawing (chart, logo) may reach further: its anchor's end column and offset.
  const std::string rels_part =
      part.substr(0, part.rfind('/')) + "/_rels" + part.substr(part.rfind('/')) + ".rels";
  for (const auto& member : test::zip_members(path)) {
    if (member != rels_part) continue;
    const std::string rels = zip_member(path, member);
    if (!std::regex_search(rels, m, std::regex(R"re(Target="../drawings/(drawing\d+\.xml)")re"))) {
      continue;
    }
    const std::string drawing = zip_member(path, "xl/drawings/" + m[1].str());
    const std::regex to(R"re(<xdr:to><xdr:col>(\d+)</xdr:col><xdr:colOff>(\d+)</xdr:colOff>)re");
    for (std::sregex_iterator it(drawing.begin(), drawing.end(), to), end; it != end; ++it) {
      const double col = std::stod((*it)[1]);
      const double offset_px = std::stod((*it)[2]) / 9525.0;
      if (col > last_col || (col == last_col && offset_px > partial_px)) {
        last_col = col;
        partial_px = offset_px;
      }
    }
  }
  std::map<int, double> widths;  // zero-based column -> characters
  const std::regex col(R"re(<col min="(\d+)" max="(\d+)" width="([0-9.]+)")re");
  for (std::sregex_iterator it(xml.begin(), xml.end(), col), end; it != end; ++it) {
    for (int c = std::stoi((*it)[1]); c <= std::stoi((*it)[2]); ++c) {
      widths[c - 1] = std::stod((*it)[3]);
    }
  }
  const auto columns_px = [&](int count) {
    double px = 0;
    for (int c = 0; c < count; ++c) {
      const double w = widths.count(c) ? widths[c] : 8.43 + 0.7109375;
      px += std::trunc((256 * w + 18) / 256 * 7);
    }
    return px;
  };
  // A cell fills its whole column; a drawing ends partway into its last one.
  const double content_px =
      std::max(columns_px(last_cell_col + 1),
               partial_px > 0 ? columns_px(static_cast<int>(last_col)) + partial_px
                              : columns_px(static_cast<int>(last_col) + 1));
  const bool letter = xml.find("paperSize=\"1\"") != std::string::npos;
  const bool landscape = xml.find("orientation=\"landscape\"") != std::string::npos;
  const double paper_in = landscape ? (letter ? 11.0 : 11.69) : (letter ? 8.5 : 8.27);
  EXPECT_TRUE(std::regex_search(
      xml, m, std::regex(R"re(<pageMargins left="([0-9.]+)" right="([0-9.]+)")re")))
      << sheet;
  const double printable_px = (paper_in - std::stod(m[1]) - std::stod(m[2])) * 96;
  return std::min(1.0, printable_px / content_px);
}

TEST(XlsxQuote, everyPageOfTheQuotePrintsAtSeventyPercentOrMoreOnA4AndLetter) {
  const std::string dir = fresh_dir("quote-scale");
  auto sample = seller_quote(dir);
  for (const char* paper : {"a4", "letter"}) {
    sample.scenario.paper = paper;
    for (const bool quote : {true, false}) {
      WorkbookOptions options;
      options.quote = quote;
      const std::string path = dir + "/" + paper + (quote ? "-quote" : "-full") + ".xlsx";
      write_workbook(sample.plan, sample.scenario, path, options);
      for (const char* sheet : {"Cover", "Summary", "Assumptions", "Sources"}) {
        if (!quote && std::string(sheet) == "Assumptions") continue;
        const double scale = print_scale(path, sheet);
        std::printf("%s %s %s: printed at %.0f %%\n", paper, quote ? "quote" : "workbook", sheet,
                    scale * 100);
        EXPECT_GE(scale, 0.70) << paper << " " << sheet;
      }
    }
  }
}

TEST(XlsxQuote, everyExamplesQuotePrintsAtSeventyPercentOrMore) {
  const std::string dir = fresh_dir("quote-scale-examples");
  for (auto& [name, example] : test::example_plans()) {
    for (const char* paper : {"a4", "letter"}) {
      example.scenario.paper = paper;
      WorkbookOptions options;
      options.quote = true;
      const std::string path = dir + "/" + name + "-" + paper + ".xlsx";
      write_workbook(example.plan, example.scenario, path, options);
      for (const char* sheet : {"Cover", "Summary", "Assumptions", "Sources"}) {
        EXPECT_GE(print_scale(path, sheet), 0.70) << name << " " << paper << " " << sheet;
      }
    }
  }
}

TEST(XlsxQuote, aFiftyYearHorizonWrapsTheCostByPlanYearAndKeepsTheSummaryOnePageWide) {
  // M5: 600 months are 50 plan years. One column per year made the Summary 24 + 50 x 15
  // characters wide, fitted one page wide at a few percent. In blocks of ten years it keeps
  // columns A..K: 173 + 10 x 110 = 1,273 pixels (Calibri 11: w characters are
  // trunc((256 (w + 0.7109375) + 18) / 256 x 7) pixels), printed on 10.69 inches of A4 and 10
  // of Letter landscape (0.5-inch margins) at 96 pixels: 1,026.24 / 1,273 = 80.6 % and
  // 960 / 1,273 = 75.4 %.
  const std::string dir = fresh_dir("quote-fifty-years");
  auto sample = seller_quote(dir, 600);
  ASSERT_EQ(sample.plan.options.size(), 4u);
  ASSERT_EQ(sample.plan.options[0].annual_costs.size(), 50u);
  for (const char* paper : {"a4", "letter"}) {
    sample.scenario.paper = paper;
    for (const bool quote : {true, false}) {
      WorkbookOptions options;
      options.quote = quote;
      const std::string path = dir + "/" + paper + (quote ? "-quote" : "-full") + ".xlsx";
      write_workbook(sample.plan, sample.scenario, path, options);
      const double expected = (std::string(paper) == "a4" ? 1026.24 : 960.0) / 1273;
      EXPECT_NEAR(print_scale(path, "Summary"), expected, 1e-9) << paper << " " << quote;
    }
  }

  // The blocks in the full workbook: four options, so a block is its header, four option rows
  // and a blank row (6 rows). With the table's title on row t, block 1's header is row t + 1
  // (years 1-10 in B..K) and option 1's row t + 2; year 11 is in column B of block 2, option 1
  // on row t + 8; year 50 in column K of block 5, option 1 on row t + 2 + 4 x 6 = t + 26.
  const std::string path = dir + "/letter-full.xlsx";
  int title = 0;
  for (const auto& [ref, text] : text_cells(path, "Summary")) {
    if (text == "Cost by plan year, EUR") title = test::parse_ref(ref).first + 1;
  }
  ASSERT_GT(title, 0);
  const auto texts = text_cells(path, "Summary");
  for (int block = 0; block < 5; ++block) {
    const auto header = texts.find("A" + std::to_string(title + 1 + 6 * block));
    ASSERT_NE(header, texts.end()) << block;
    EXPECT_EQ(header->second, "Option") << block;
  }
  const auto cells = test::formula_cells(path);
  const auto at = [&](const std::string& ref) {
    for (const auto& cell : cells) {
      if (cell.sheet == "Summary" && cell.ref == ref) return cell;
    }
    ADD_FAILURE() << "no formula at Summary!" << ref;
    return test::FormulaCell{};
  };
  const auto& costs = sample.plan.options[0].annual_costs;
  const auto year_11 = at("B" + std::to_string(title + 8));
  EXPECT_NE(year_11.formula.find(",B$" + std::to_string(title + 7) + ","), std::string::npos)
      << year_11.formula;
  EXPECT_NEAR(year_11.cached, costs[10], 1e-6 * std::max(1.0, std::abs(costs[10])));
  const auto year_50 = at("K" + std::to_string(title + 26));
  EXPECT_NE(year_50.formula.find(",K$" + std::to_string(title + 25) + ","), std::string::npos)
      << year_50.formula;
  EXPECT_NEAR(year_50.cached, costs[49], 1e-6 * std::max(1.0, std::abs(costs[49])));
  // Nothing of the table right of column K.
  for (const auto& cell : cells) {
    if (cell.sheet == "Summary") {
      EXPECT_LE(cell.col, 10) << cell.ref << " " << cell.formula;
    }
  }
  // The Checks sheet adds the option's five blocks: B..K of each option-1 row.
  bool found = false;
  for (const auto& cell : cells) {
    if (cell.sheet != "Checks" || cell.formula.find("SUM('Summary'!$B$") == std::string::npos) {
      continue;
    }
    if (cell.formula.find("$B$" + std::to_string(title + 2) + ":$K$" + std::to_string(title + 2)) ==
        std::string::npos) {
      continue;
    }
    found = true;
    for (int block = 0; block < 5; ++block) {
      const std::string row = std::to_string(title + 2 + 6 * block);
      EXPECT_NE(cell.formula.find("'Summary'!$B$" + row + ":$K$" + row), std::string::npos)
          << cell.formula;
    }
    EXPECT_EQ(cell.cached, 1) << cell.formula;
  }
  EXPECT_TRUE(found) << "the years-add-up check of option 1";

  // The Profit and loss sheet (one column per plan year) prints eight years a page: 50 years
  // are ceil(50 / 8) = 7 pages wide, the label and horizon columns repeated on each; its
  // introduction merged across A..J (label, horizon and the first eight years).
  const std::string pnl = zip_member(path, test::sheet_parts(path).at("Profit and loss"));
  EXPECT_NE(pnl.find("fitToWidth=\"7\""), std::string::npos);
  EXPECT_NE(pnl.find("<mergeCell ref=\"A2:J2\"/>"), std::string::npos);
}

TEST(XlsxQuote, aLongOptionNameKeepsItsYearInTheComponentTable) {
  const std::string dir = fresh_dir("quote-component-names");
  const auto sample = seller_quote(dir);
  WorkbookOptions options;
  options.quote = true;
  const std::string path = dir + "/quote.xlsx";
  write_workbook(sample.plan, sample.scenario, path, options);
  std::string ref;
  for (const auto& [at, text] : text_cells(path, "Summary")) {
    if (text == "Office rig, 2 x RTX 3090 (used), year 1") ref = at;
  }
  ASSERT_EQ(ref.rfind("A", 0), 0u) << "the name's cell, in column A";
  const std::string xml = zip_member(path, test::sheet_parts(path).at("Summary"));
  std::smatch m;
  ASSERT_TRUE(std::regex_search(xml, m, std::regex("<c r=\"" + ref + "\" s=\"([0-9]+)\"")));
  const size_t style = std::stoul(m[1]);
  const std::string styles = zip_member(path, "xl/styles.xml");
  const std::string xfs = styles.substr(styles.find("<cellXfs"));
  const std::regex xf(R"re(<xf [^>]*?(/>|>.*?</xf>))re");
  std::vector<std::string> formats;
  for (std::sregex_iterator it(xfs.begin(), xfs.end(), xf), end; it != end; ++it) {
    formats.push_back((*it)[0]);
  }
  ASSERT_LT(style, formats.size());
  EXPECT_NE(formats[style].find("wrapText=\"1\""), std::string::npos) << formats[style];
  // 39 characters at 25 a line: 2 lines of 15 points.
  ASSERT_TRUE(std::regex_search(
      xml, m, std::regex("<row r=\"" + ref.substr(1) + "\"[^>]* ht=\"([0-9.]+)\"")));
  EXPECT_EQ(std::stod(m[1]), 30);
}

bool tool_available(const char* tool) {
  return std::system((std::string("command -v ") + tool + " >/dev/null 2>&1").c_str()) == 0;
}

TEST(XlsxQuote, amountsUpToAThousandMillionNeverPrintAsHashes) {
  if (!test::soffice_available()) GTEST_SKIP() << "soffice (LibreOffice) is not installed";
  if (!tool_available("pdftotext")) GTEST_SKIP() << "pdftotext (poppler-utils) is not installed";
  // The hand-built sample at prices that make every total approach 10^9 EUR: 2 x 490 M per
  // card, 130,000 EUR an hour, 40 M a month.
  auto sample = test::sample_plan();
  const std::string dir = fresh_dir("quote-hashes-" + std::to_string(::getpid()));
  // At the sample's own prices first: amounts of a few thousand, negative ones among them.
  write_workbook(sample.plan, sample.scenario, dir + "/small.xlsx", WorkbookOptions{});
  auto& options = sample.scenario.plan_inputs.options;
  options[0].price_per_gpu = 4.9e8;
  options[1].rate_per_gpu_hour = 1.3e5;
  options[2].price_per_month = 4e7;
  test::recompute_money(sample);
  double largest = 0;
  for (const auto& option : sample.plan.options) largest = std::max(largest, option.total_cost);
  ASSERT_GT(largest, 9e8);
  ASSERT_LT(largest, 1e9);
  WorkbookOptions quote;
  quote.quote = true;
  write_workbook(sample.plan, sample.scenario, dir + "/quote.xlsx", quote);
  const Sensitivity sensitivity = test::sample_sensitivity(sample);
  WorkbookOptions full;
  full.sensitivity = &sensitivity;
  write_workbook(sample.plan, sample.scenario, dir + "/full.xlsx", full);
  const std::string convert =
      "cd " + dir + " && HOME=" + dir + " timeout 300 soffice -env:UserInstallation=file://" + dir +
      "/profile --headless --convert-to pdf quote.xlsx full.xlsx small.xlsx "
      ">soffice.log 2>&1 && pdftotext -layout quote.pdf quote.txt && "
      "pdftotext -layout full.pdf full.txt && "
      "pdftotext -layout small.pdf small.txt";
  ASSERT_EQ(std::system(convert.c_str()), 0) << test::read_bytes(dir + "/soffice.log");
  for (const char* text : {"quote.txt", "full.txt"}) {
    const std::string pages = test::read_bytes(dir + "/" + text);
    EXPECT_GT(pages.size(), 1000u) << text;
    EXPECT_EQ(pages.find("###"), std::string::npos)
        << text << ": " << pages.substr(pages.find("###") > 200 ? pages.find("###") - 200 : 0, 400);
    EXPECT_NE(pages.find("Total cost, EUR"), std::string::npos) << text;
  }
  // Was: LibreOffice printed every negative amount between -1,000,000 and 0 without its
  // minus (a conditional number format's last section): the resale of the last month, a
  // credit, read as a cost. As printed, the resale row carries a minus.
  const std::string printed = test::read_bytes(dir + "/small.txt");
  EXPECT_TRUE(std::regex_search(printed, std::regex(R"((^|\n) *Resale[^\n]* -[0-9])")))
      << "no negative resale amount printed with its minus";
  if (!::testing::Test::HasFailure()) std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace gputco
