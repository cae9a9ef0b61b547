// An independent spreadsheet engine recalculates every workbook we write (the hand-built
// sample with every sheet, the real engine's plan, the quote, and every bundled example):
// every formula must give the engine's figure that the file stores as its cached result,
// and no cell may be an error.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "engine/plan/sensitivity.hpp"
#include "reports/xlsx/report.hpp"
#include "tests/unit/reports_xlsx_fixture.hpp"

namespace gputco {
namespace {

using test::CsvTable;
using Sheets = std::map<std::string, CsvTable>;

const std::string* csv_cell(const Sheets& sheets, const std::string& sheet, int row, int col) {
  const auto it = sheets.find(sheet);
  if (it == sheets.end()) return nullptr;
  const CsvTable& table = it->second;
  if (row < 0 || static_cast<size_t>(row) >= table.size()) return nullptr;
  const auto& fields = table[static_cast<size_t>(row)];
  if (col < 0 || static_cast<size_t>(col) >= fields.size()) return nullptr;
  return &fields[static_cast<size_t>(col)];
}

bool is_error_text(const std::string& text) {
  for (const char* error :
       {"#REF!", "#NAME?", "#VALUE!", "#DIV/0!", "#N/A", "#NUM!", "#NULL!", "Err:", "#ERR"}) {
    if (text.rfind(error, 0) == 0) return true;
  }
  return false;
}

/// Days since 1899-12-30 (the spreadsheet date serial) of a YYYY-MM-DD date, or NaN.
double date_serial(const std::string& text) {
  int y = 0, m = 0, d = 0;
  char tail = 0;
  if (text.size() != 10 || std::sscanf(text.c_str(), "%4d-%2d-%2d%c", &y, &m, &d, &tail) != 3) {
    return std::nan("");
  }
  // Days from civil (proleptic Gregorian), then shifted to the spreadsheet epoch.
  const int yy = m <= 2 ? y - 1 : y;
  const int era = (yy >= 0 ? yy : yy - 399) / 400;
  const int yoe = yy - era * 400;
  const int doy = (153 * ((m + 9) % 12) + 2) / 5 + d - 1;
  const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return static_cast<double>(era * 146097 + doe - 719468 + 25569);
}

/// A recalculated cell as a number: booleans are 1 and 0, dates (LibreOffice writes date
/// cells as YYYY-MM-DD even when asked for raw values) their serial, percentages (written
/// "12.5%" with every digit) their fraction; NaN otherwise.
double as_number(const std::string& text) {
  if (text == "TRUE") return 1;
  if (text == "FALSE") return 0;
  if (const double serial = date_serial(text); !std::isnan(serial)) return serial;
  if (!text.empty() && text.back() == '%') return as_number(text.substr(0, text.size() - 1)) / 100;
  try {
    size_t used = 0;
    const double value = std::stod(text, &used);
    return used == text.size() ? value : std::nan("");
  } catch (const std::exception&) {
    return std::nan("");
  }
}

/// One workbook of the suite: its file and what LibreOffice made of it.
struct Book {
  std::string label;
  std::string path;
  size_t sheets = 0;  ///< sheets LibreOffice must export
};

class Recalculation : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!test::soffice_available()) return;
    // ctest runs each test in its own process, each with this set-up: one directory each.
    dir_ = test::fresh_dir("recalc-" + std::to_string(::getpid()));
    sample_ = new test::SamplePlan(test::sample_plan());
    sample_->scenario.customer = "=1+2";
    books_ = new std::vector<Book>();
    const Sensitivity sensitivity = test::sample_sensitivity(*sample_);
    WorkbookOptions with_sensitivity;
    with_sensitivity.sensitivity = &sensitivity;
    add("hand-built sample, every sheet", "sample", *sample_, with_sensitivity, 12);
    // A control whose cached total is deliberately wrong: after recalculation it must show
    // the true sum, or LibreOffice did not recalculate and the comparison proves nothing.
    test::SamplePlan tampered = *sample_;
    tampered.plan.options[0].total_cost += 1000;
    control_ = dir_ + "/control.xlsx";
    write_workbook(tampered.plan, tampered.scenario, control_);
    // The real engine's plan and its real sensitivity run.
    const test::SamplePlan engine = test::engine_sample_plan();
    const Sensitivity engine_sensitivity = analyse(engine.scenario.plan_inputs, engine.plan);
    WorkbookOptions engine_options;
    engine_options.sensitivity = &engine_sensitivity;
    add("the real engine's plan", "engine", engine, engine_options, 12);
    // Issue #8: a pay-per-token API option, idle energy and carbon, planned by the engine.
    const test::SamplePlan api = test::api_carbon_sample_plan();
    const Sensitivity api_sensitivity = analyse(api.scenario.plan_inputs, api.plan);
    WorkbookOptions api_options;
    api_options.sensitivity = &api_sensitivity;
    add("the api and carbon plan", "apicarbon", api, api_options, 12);
    // Issue #20: a loan at 1e-17 a year (the parser reads that as 0; here it reaches the
    // engine and the workbook as it is): 1 + r rounds r away, and PMT and FV would divide by
    // zero (#VALUE!) without the negligible-rate test in the formula.
    test::SamplePlan tiny_loan = test::engine_sample_plan();
    OptionInputs& own = tiny_loan.scenario.plan_inputs.options[0];
    own.financing = Financing::loan;
    own.down_payment_fraction = 0.2;
    own.loan_rate_per_year = 1e-17;
    own.loan_term_months = 36;
    tiny_loan.plan = make_plan(tiny_loan.scenario.plan_inputs);
    const Sensitivity tiny_loan_sensitivity =
        analyse(tiny_loan.scenario.plan_inputs, tiny_loan.plan);
    WorkbookOptions tiny_loan_options;
    tiny_loan_options.sensitivity = &tiny_loan_sensitivity;
    add("a loan at 1e-17 a year", "tinyloan", tiny_loan, tiny_loan_options, 12);
    // Issue #21: the demand at its peak: a peak factor (units and always-on instances sized
    // for it), and an hourly profile (autoscaled bills and rented overflow hour by hour: those
    // rows hold the engine's figures; the rest stay formulas over Inputs' peak_multiplier).
    add_peaked("a peak factor of 2.5", "peakfactor",
               [](PlanInputs& in) { in.workload.peak_factor = 2.5; });
    add_peaked("an hourly profile", "hourlyprofile", [](PlanInputs& in) {
      WorkloadInputs& w = in.workload;
      const int hours = std::max(2, static_cast<int>(std::lround(w.hours_per_day)));
      w.hours_per_day = hours;
      w.hourly_profile.assign(24, 0.0);
      // From 08:00, the first hour three times the share of each of the others.
      for (int h = 0; h < hours; ++h) w.hourly_profile[static_cast<size_t>(8 + h) % 24] = 1.0;
      w.hourly_profile[8] = 3.0;
      for (double& share : w.hourly_profile) share /= hours + 2.0;
      // An autoscaled rental (billed hour by hour) and owned hardware that rents its
      // overflow from it (what each hour leaves over).
      for (OptionInputs& o : in.options) {
        if (o.kind != OptionKind::rent_hourly) continue;
        o.hourly_billing.billing = Billing::autoscaled;
        o.hourly_billing.granularity = BillingGranularity::minute;
        for (OptionInputs& owned : in.options) {
          if (owned.kind != OptionKind::buy) continue;
          owned.overflow = Overflow::rent;
          owned.overflow_option_id = o.id;
        }
        break;
      }
    });
    // Newcomer3 M3: a service reachable 24x7 keeps owned hardware on (the resolver's default
    // then): idle energy on the Cash flow sheet, and an always-on rental billed every hour, so
    // owning may be cheaper at any use (break-even "always", not 0).
    add_peaked("availability 24x7", "allday", [](PlanInputs& in) {
      in.workload.availability = Availability::around_the_clock;
      for (OptionInputs& o : in.options) {
        if (o.kind == OptionKind::buy) o.powered_off_when_idle = false;
      }
    });
    // Issue #21: overflow billed as its rental bills (a demand of 2 owned units a day,
    // 7,092,000 tokens in 10 h on the office-3090's 354,600 tokens/h): always on at a peak
    // factor of 2 (the instances the peak leaves over, a formula over peak_multiplier), and
    // autoscaled with a minimum, per minute, around the clock (a formula on a flat day; its
    // hours-scaled part 2 x (rent - rent at half the hours)).
    const auto rent_overflow = [](PlanInputs& in, const HourlyBilling& billing) {
      in.workload.tokens_per_day = 7'092'000;
      for (OptionInputs& o : in.options) {
        if (o.kind != OptionKind::rent_hourly) continue;
        o.hourly_billing = billing;
        for (OptionInputs& owned : in.options) {
          if (owned.kind != OptionKind::buy) continue;
          owned.overflow = Overflow::rent;
          owned.overflow_option_id = o.id;
        }
        break;
      }
    };
    add_peaked("overflow always on at a peak factor of 2", "overflowalwayson", [&](PlanInputs& in) {
      rent_overflow(in, HourlyBilling{});
      in.workload.peak_factor = 2;
    });
    add_peaked("overflow autoscaled around the clock", "overflowautoscaled", [&](PlanInputs& in) {
      HourlyBilling billing;
      billing.billing = Billing::autoscaled;
      billing.min_instances = 1;
      billing.granularity = BillingGranularity::minute;
      rent_overflow(in, billing);
      in.workload.availability = Availability::around_the_clock;
    });
    WorkbookOptions api_quote;
    api_quote.quote = true;
    add("the api and carbon plan (quote)", "carbonquote", api, api_quote, 5);
    WorkbookOptions quote;
    quote.quote = true;
    add("the quote", "quote", *sample_, quote, 5);
    int n = 0;
    for (const auto& [name, example] : test::example_plans()) {
      // What `gputco plan` writes: the plan with the engine's sensitivity run.
      const Sensitivity example_sensitivity = analyse(example.scenario.plan_inputs, example.plan);
      WorkbookOptions example_options;
      example_options.sensitivity = &example_sensitivity;
      add("example " + name, "example" + std::to_string(n++), example, example_options, 12);
      WorkbookOptions example_quote;
      example_quote.quote = true;
      add("example " + name + " (quote)", "example" + std::to_string(n++), example, example_quote,
          5);
    }
    std::vector<std::string> paths = {control_};
    for (const Book& book : *books_) paths.push_back(book.path);
    results_ = new std::map<std::string, Sheets>(test::recalculate_with_libreoffice(paths, dir_));
  }
  /// The real engine's plan with its workload changed by `change`, re-planned, with an
  /// autoscaled twin of its first hourly rental and its sensitivity run.
  template <typename Change>
  static void add_peaked(const std::string& label, const std::string& stem, Change change) {
    test::SamplePlan peaked = test::engine_sample_plan();
    change(peaked.scenario.plan_inputs);
    peaked.plan = make_plan(peaked.scenario.plan_inputs);
    const Sensitivity sensitivity = analyse(peaked.scenario.plan_inputs, peaked.plan);
    WorkbookOptions options;
    options.sensitivity = &sensitivity;
    add(label, stem, peaked, options, 12);
  }
  static void add(const std::string& label, const std::string& stem, const test::SamplePlan& sample,
                  const WorkbookOptions& options, size_t sheets) {
    const std::string path = dir_ + "/" + stem + ".xlsx";
    write_workbook(sample.plan, sample.scenario, path, options);
    books_->push_back({label, path, sheets});
  }
  static void TearDownTestSuite() {
    if (!dir_.empty() && !::testing::UnitTest::GetInstance()->Failed()) {
      std::filesystem::remove_all(dir_);  // keep the evidence when something failed
    }
    delete sample_;
    delete results_;
    delete books_;
    sample_ = nullptr;
    results_ = nullptr;
    books_ = nullptr;
  }
  void SetUp() override {
    if (!test::soffice_available()) GTEST_SKIP() << "soffice (LibreOffice) is not installed";
  }
  static const Sheets& sheets_of(const std::string& path) { return results_->at(path); }

  static std::string dir_, control_;
  static test::SamplePlan* sample_;
  static std::vector<Book>* books_;
  static std::map<std::string, Sheets>* results_;
};

std::string Recalculation::dir_;
std::string Recalculation::control_;
test::SamplePlan* Recalculation::sample_ = nullptr;
std::vector<Book>* Recalculation::books_ = nullptr;
std::map<std::string, Sheets>* Recalculation::results_ = nullptr;

TEST_F(Recalculation, libreOfficeRecalculatesOnLoad) {
  // Cash flow!B35: the first option's total cost (see the workbook test for the layout).
  const std::string* total = csv_cell(sheets_of(control_), "Cash flow", 34, 1);
  ASSERT_NE(total, nullptr);
  const double expected = sample_->plan.options[0].total_cost;
  EXPECT_NEAR(std::stod(*total), expected, 1e-9 * expected)
      << "LibreOffice kept the stored value instead of recalculating";
}

/// Compares every formula cell's recalculated value with its cached one; returns the
/// number of mismatches and describes the first ones in `report`.
int count_mismatches(const Book& book, const Sheets& sheets, std::ostringstream& report) {
  const auto cells = test::formula_cells(book.path);
  EXPECT_GT(cells.size(), book.sheets > 5 ? 500u : 5u) << book.label;
  int mismatches = 0;
  for (const auto& cell : cells) {
    const std::string* text = csv_cell(sheets, cell.sheet, cell.row, cell.col);
    bool same = false;
    double tolerance = 0;
    if (cell.text_result) {
      same = text != nullptr && *text == cell.cached_text;
    } else {
      const double recalculated = text != nullptr ? as_number(*text) : std::nan("");
      tolerance = 1e-9 * std::max(1.0, std::abs(cell.cached));
      same = std::abs(recalculated - cell.cached) <= tolerance;
    }
    if (!same && ++mismatches <= 20) {
      report << book.label << ": " << cell.sheet << "!" << cell.ref << " = " << cell.formula
             << ": recalculated '" << (text != nullptr ? *text : "<missing>") << "', cached "
             << (cell.text_result ? cell.cached_text : std::to_string(cell.cached))
             << ", tolerance " << tolerance << "\n";
    }
  }
  std::printf("LibreOffice recalculation of %s (%s): %zu formula cells, %d mismatches\n",
              book.path.c_str(), book.label.c_str(), cells.size(), mismatches);
  return mismatches;
}

TEST_F(Recalculation, everyFormulaOfEveryWorkbookGivesTheCachedValue) {
  ASSERT_GE(books_->size(), 5u);
  for (const Book& book : *books_) {
    const Sheets& sheets = sheets_of(book.path);
    EXPECT_EQ(sheets.size(), book.sheets) << book.label;
    std::ostringstream report;
    EXPECT_EQ(count_mismatches(book, sheets, report), 0) << report.str();
  }
}

TEST_F(Recalculation, noCellOfAnyWorkbookHoldsAnError) {
  int cells = 0;
  for (const Book& book : *books_) {
    for (const auto& [sheet, table] : sheets_of(book.path)) {
      for (size_t r = 0; r < table.size(); ++r) {
        for (size_t c = 0; c < table[r].size(); ++c) {
          ++cells;
          EXPECT_FALSE(is_error_text(table[r][c]))
              << book.label << ": " << sheet << " row " << r + 1 << " column " << c + 1 << ": "
              << table[r][c];
        }
      }
    }
  }
  std::printf("%d cells of %zu workbooks checked for errors\n", cells, books_->size());
}

TEST_F(Recalculation, everyCheckButTheStalePriceHolds) {
  // The sample's Hetzner price is 148 days old (stale at 90): that check is FALSE; every other
  // check recalculates to TRUE, and so does the master check (a stale price is a warning,
  // not an error of the arithmetic).
  const Sheets& sheets = sheets_of(books_->front().path);
  const CsvTable& checks = sheets.at("Checks");
  int seen = 0;
  for (size_t r = 7; r < checks.size(); ++r) {
    if (checks[r].size() < 3 || checks[r][2] == "n/a") continue;
    // The statuses (issue #37): nothing edited, gputco's figures are current.
    if (checks[r][0].find("(status)") != std::string::npos) {
      EXPECT_EQ(checks[r][2], "current") << "Checks row " << r + 1 << ": " << checks[r][0];
      continue;
    }
    ++seen;
    const bool stale_check = checks[r][0] == "No price older than the scenario allows";
    EXPECT_EQ(checks[r][2], stale_check ? "FALSE" : "TRUE")
        << "Checks row " << r + 1 << ": " << checks[r][0];
  }
  EXPECT_GE(seen, 15);
  EXPECT_EQ(checks.at(4).at(2), "TRUE") << "the master check";
  // The Cover says both on one status line that cannot contradict itself.
  EXPECT_EQ(test::key_value(sheets.at("Cover"), "Status"),
            "All checks pass; 1 of 3 prices older than 90 days (see Sources)");
}

TEST_F(Recalculation, everyCheckOfEveryExampleHoldsButStalePrices) {
  // The examples' catalog prices can be older than the scenario allows: that check then says
  // FALSE, exactly when the Sources sheet flags a price stale; the master check stays TRUE.
  for (const Book& book : *books_) {
    if (book.label.rfind("example", 0) != 0 || book.sheets != 12) continue;
    const Sheets& sheets = sheets_of(book.path);
    bool any_stale = false;
    for (const auto& row : sheets.at("Sources")) {
      any_stale = any_stale || (row.size() > 7 && row[7] == "stale");
    }
    const CsvTable& checks = sheets.at("Checks");
    for (size_t r = 7; r < checks.size(); ++r) {
      if (checks[r].size() < 3 || checks[r][2] == "n/a") continue;
      if (checks[r][0].find("(status)") != std::string::npos) {
        EXPECT_EQ(checks[r][2], "current") << book.label << ": " << checks[r][0];
        continue;
      }
      const bool stale_check = checks[r][0] == "No price older than the scenario allows";
      // own-base-rent-peaks rents spot H100s at 5.6466 EUR/h beside on-demand ones at 2.3116
      // EUR/h (2.44 x): the spot check, a warning outside the master, is FALSE there.
      const bool spot_above = checks[r][0] == "Spot rate not above on-demand (warning)" &&
                              book.label.find("own-base-rent-peaks") != std::string::npos;
      EXPECT_EQ(checks[r][2], (stale_check && any_stale) || spot_above ? "FALSE" : "TRUE")
          << book.label << ": Checks row " << r + 1 << ": " << checks[r][0];
    }
    EXPECT_EQ(checks.at(4).at(2), "TRUE") << book.label << ": master";
    if (any_stale) std::printf("%s: stale catalog prices (a warning)\n", book.label.c_str());
  }
}

TEST_F(Recalculation, textThatLooksLikeAFormulaStaysText) {
  // Summary!B5 and Cover!B4 hold the customer, "=1+2": text, not 3.
  for (const char* sheet : {"Summary", "Cover"}) {
    const std::string* customer =
        csv_cell(sheets_of(books_->front().path), sheet, std::string(sheet) == "Cover" ? 3 : 4, 1);
    ASSERT_NE(customer, nullptr) << sheet;
    EXPECT_EQ(*customer, "=1+2") << sheet;
  }
}

}  // namespace
}  // namespace gputco
