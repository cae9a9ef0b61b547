// Every input a reader can type into keeps every output true (issue #37): for every bundled
// example, each yellow input of the Inputs sheet (the ones a formula reads) is edited in a copy
// of the workbook, x 0.5 and x 1.5 (whole numbers rounded half up; a switch flipped), within
// the values the input's cell accepts and the scenario parser takes; every copy is recalculated
// in headless LibreOffice (the copies batched into two runs side by side), and what it shows is
// compared with gputco planning the same change (`plan --set SECTION.KEY=VALUE` through the
// parser and resolver, or the engine's inputs for a figure the scenario file cannot set):
// every option's total and NPV, the break-even month, hours and volume, the recommendation and
// the master check, and no error value in any cell of any sheet. An edit of an input that
// gputco's own estimates rest on (devices per unit, concurrent streams, the mean request) may
// leave the totals on stale estimates: then the Checks sheet must say "stale: re-run gputco",
// and the engine's estimates must really have moved. Every edit makes the figures only gputco
// computes (Sensitivity, Hardware) stale, and the Checks must say so.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <future>
#include <regex>

#include "engine/base/error.hpp"
#include "pricing/catalog.hpp"
#include "reports/xlsx/report.hpp"
#include "reports/xlsx/sheets.hpp"
#include "scenarios/overrides.hpp"
#include "scenarios/resolve.hpp"
#include "scenarios/scenario.hpp"
#include "tests/support/paths.hpp"
#include "tests/unit/reports_xlsx_fixture.hpp"

namespace gputco {
namespace {

using Sheets = std::map<std::string, test::CsvTable>;

/// A yellow row of the Inputs sheet as gputco wrote it.
struct InputCell {
  std::string section;  ///< "workload", an option id, ...
  std::string key;
  std::string name;  ///< the workbook name
  double value = 0;
};

/// How the engine gets the same change.
enum class Same {
  set,       ///< through the scenario parser: `overrides`
  inputs,    ///< a field of the resolved PlanInputs (no scenario key: a device's board power)
  estimate,  ///< an engine estimate typed over (a measured speed): no engine run to compare
};

struct Edit {
  InputCell input;
  double value = 0;  ///< the edited cell's new value
  Same same = Same::set;
  std::vector<std::string> overrides;  ///< `--set` texts
  std::string workbook;
};

/// Every yellow input ("yes" in the Recalculates column), and every named value by
/// (section, key), as gputco wrote them.
std::vector<InputCell> yellow_inputs(const std::string& xlsx,
                                     std::map<std::pair<std::string, std::string>, double>& all) {
  const auto texts = test::text_cells(xlsx, kInputsSheet);
  const auto numbers = test::plain_numbers(xlsx, kInputsSheet);
  std::map<std::string, double> formulas;
  for (const auto& f : test::formula_cells(xlsx)) {
    if (f.sheet == kInputsSheet && !f.text_result) formulas[f.ref] = f.cached;
  }
  std::vector<InputCell> inputs;
  for (int row = 1; row < 2000; ++row) {
    const std::string r = std::to_string(row);
    const auto text = [&](const char* col) {
      const auto it = texts.find(col + r);
      return it == texts.end() ? std::string() : it->second;
    };
    if (text("G").empty()) continue;
    double value = 0;
    if (const auto it = numbers.find("D" + r); it != numbers.end()) value = it->second;
    if (const auto it = formulas.find("D" + r); it != formulas.end()) value = it->second;
    all[{text("A"), text("C")}] = value;
    if (text("H") == "yes") inputs.push_back({text("A"), text("C"), text("G"), value});
  }
  return inputs;
}

bool is_switch(const xlsx::InputDomain& domain) {
  return domain.whole && domain.minimum == 0 && domain.maximum == 1;
}

/// The values an input is edited to: x 0.5 and x 1.5 (whole numbers rounded half up), or the
/// other position of a switch; each within the cell's domain and unlike the value written.
std::vector<double> edited_values(const InputCell& input, int horizon_months) {
  const xlsx::InputDomain domain = xlsx::input_domain(input.key, horizon_months);
  std::vector<double> values;
  if (is_switch(domain)) return {1 - input.value};
  for (double factor : {0.5, 1.5}) {
    double value = input.value * factor;
    if (domain.whole) value = std::floor(value + 0.5);
    if (value == input.value || value < domain.minimum || value > domain.maximum) continue;
    values.push_back(value);
  }
  return values;
}

std::string number_text(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

bool is_estimate(const std::string& key) {
  return key == "decode_tokens_per_s_per_stream" || key == "aggregate_decode_tokens_per_s" ||
         key == "prefill_tokens_per_s" || key == "replicas" || key == "capacity_tokens_per_hour" ||
         key == "peak_multiplier";
}

/// The scenario file's way of making `edit` (its `--set` texts), or another Same.
void describe_same(Edit& edit, const std::map<std::pair<std::string, std::string>, double>& all) {
  const InputCell& in = edit.input;
  const bool plan_section = in.section == "scenario" || in.section == "workload" ||
                            in.section == "site" || in.section == "tax" || in.section == "fx";
  const std::string section = plan_section ? in.section : "option:" + in.section;
  const auto value_of = [&](const std::string& s, const std::string& k) {
    const auto it = all.find({s, k});
    return it == all.end() ? 0.0 : it->second;
  };
  const auto set = [&](const std::string& key, const std::string& value) {
    edit.overrides.push_back(section + "." + key + "=" + value);
  };
  const std::string& key = in.key;
  const double v = edit.value;
  const char* flag = v != 0 ? "true" : "false";
  if (is_estimate(key)) {
    edit.same = Same::estimate;
  } else if (key == "start_year" || key == "start_month") {
    char start[16];
    std::snprintf(start, sizeof start, "%04d-%02d",
                  static_cast<int>(key == "start_year" ? v : value_of("scenario", "start_year")),
                  static_cast<int>(key == "start_month" ? v : value_of("scenario", "start_month")));
    set("start", start);
  } else if (key == "hours_per_month") {
    set("hours_per_month_convention", number_text(v));
  } else if (key == "devices_declining_balance" || key == "host_declining_balance") {
    set(key.substr(0, key.find('_')) + "_method", v != 0 ? "declining_balance" : "straight_line");
  } else if (key == "vat_reclaimable" || key == "powered_off_when_idle" || key == "power_metered" ||
             key == "switch_to_straight_line") {
    set(key, flag);
  } else if (key.size() > 10 && key.compare(key.size() - 10, 10, "_published") == 0) {
    // The amount as published, converted at the rate the workbook's value shows.
    const std::string plain = key.substr(0, key.size() - 10);
    const double rate = value_of(in.section, plain) / in.value;
    set(plain, number_text(v * rate));
  } else if (key == "device_residual_fraction" || key == "host_residual_fraction") {
    // The blend the resolver makes of the two fractions (scenarios/resolve_owned.cpp).
    const double devices = value_of(in.section, "count") * value_of(in.section, "price_per_gpu");
    const double host = value_of(in.section, "host_cost");
    const double device_fraction =
        key == "device_residual_fraction" ? v : value_of(in.section, "device_residual_fraction");
    const double host_fraction =
        key == "host_residual_fraction" ? v : value_of(in.section, "host_residual_fraction");
    set("residual_fraction",
        number_text((device_fraction * devices + host_fraction * host) / (devices + host)));
  } else if (key == "price_per_month" && all.count({in.section, "setup_fee"})) {
    // A stated monthly price is no catalog offer: the resolver then takes the setup fee as 0
    // unless it is stated too, where the workbook keeps the offer's fee beside the edit.
    set(key, number_text(v));
    set("setup_fee", number_text(value_of(in.section, "setup_fee")));
  } else if (is_scenario_key(plan_section ? in.section : "option:" + in.section, key) ||
             in.section == "tax" || in.section == "fx") {
    set(key, number_text(v));
  } else {
    edit.same = Same::inputs;
  }
}

/// Makes the change on the engine's inputs (keys no scenario file sets). False: not one this
/// knows.
bool change_inputs(PlanInputs& inputs, const Edit& edit) {
  for (OptionInputs& o : inputs.options) {
    if (o.id != edit.input.section) continue;
    if (edit.input.key == "board_power_w") {
      o.device.board_power_w = edit.value;
    } else if (edit.input.key == "idle_power_w") {
      o.idle_power_w = edit.value;
    } else if (edit.input.key == "goodput") {
      o.goodput = edit.value;
    } else if (edit.input.key == "pue") {
      o.pue = edit.value;
    } else {
      return false;
    }
    return true;
  }
  return false;
}

/// The cells of every sheet that hold an error value ("#VALUE!", "Err:502").
std::vector<std::string> error_cells(const Sheets& sheets) {
  std::vector<std::string> errors;
  for (const auto& [sheet, table] : sheets) {
    for (size_t r = 0; r < table.size(); ++r) {
      for (size_t c = 0; c < table[r].size(); ++c) {
        const std::string& field = table[r][c];
        if ((!field.empty() && field[0] == '#') || field.rfind("Err:", 0) == 0) {
          errors.push_back(sheet + " row " + std::to_string(r + 1) + " col " +
                           std::to_string(c + 1) + ": " + field);
        }
      }
    }
  }
  return errors;
}

/// The result of a status row of the Checks sheet ("current" or "stale: re-run gputco").
std::string status_of(const Sheets& sheets, const std::string& name) {
  for (const auto& row : sheets.at("Checks")) {
    if (row.size() > 2 && row[0] == name) return row[2];
  }
  return "";
}

bool near(double actual, double expected, double relative) {
  return std::abs(actual - expected) <= relative * std::max(1.0, std::abs(expected));
}

/// What differs between the recalculated Summary and the engine's plan (empty: nothing).
/// `written_baseline`: the break-even baseline gputco chose for the workbook. A workbook
/// cannot re-pick it: where the edit makes gputco pick another, its break-even figures are
/// against the one written, and its Checks must warn that the baseline is no longer the
/// cheapest.
std::vector<std::string> differences(const Sheets& sheets, const Plan& expected,
                                     const std::string& written_baseline) {
  std::vector<std::string> out;
  const bool baseline_moved = expected.baseline_option_id != written_baseline;
  if (baseline_moved &&
      status_of(sheets,
                "The break-even baseline is still the cheapest rental per hour (warning)") !=
          "FALSE") {
    out.push_back("gputco picks the baseline " + expected.baseline_option_id + " over " +
                  written_baseline + ", and the Checks do not warn");
  }
  const test::CsvTable& summary = sheets.at("Summary");
  const std::string recommendation = test::key_value(summary, "Recommendation");
  if (recommendation != expected.recommendation.value_or("none")) {
    out.push_back("recommendation " + recommendation + ", engine " +
                  expected.recommendation.value_or("none"));
  }
  const auto compare = [&](const std::string& header, const std::string& id,
                           const std::optional<double>& value) {
    const std::string field = test::table_cell(summary, header, id);
    if (field.empty() || field == "n/a" || field == "rerun gputco") return;
    const double shown = test::csv_number(field);
    const bool same = value ? !std::isnan(shown) && near(shown, *value, 1e-6) : std::isnan(shown);
    if (!same) {
      out.push_back(id + " " + header + ": workbook " + field + ", engine " +
                    (value ? number_text(*value) : "none"));
    }
  };
  const std::string& currency = expected.currency;
  for (const OptionResult& option : expected.options) {
    compare("Total cost, " + currency, option.id, option.total_cost);
    compare("NPV of cost, " + currency, option.id, option.npv);
    if (option.kind == OptionKind::buy && option.feasible && !baseline_moved) {
      compare(
          "Break-even month", option.id,
          option.break_even_month ? std::optional<double>(*option.break_even_month) : std::nullopt);
      compare("Break-even hours of use", option.id, option.break_even_hours);
    }
    if (!expected.api_reference_option_id.empty() && option.kind != OptionKind::api &&
        option.feasible) {
      compare("Break-even output tokens per day of use", option.id,
              option.break_even_tokens_per_day);
    }
  }
  if (test::key_value(sheets.at("Checks"), "All checks pass (the master check)").empty()) {
    out.push_back("no master check");
  }
  for (const auto& row : sheets.at("Checks")) {
    if (row.size() > 2 && row[0] == "All checks pass (the master check)" && row[2] != "TRUE") {
      out.push_back("master check " + row[2]);
    }
  }
  return out;
}

/// Whether gputco's own estimates (decode, prefill and box speed, instances per unit) differ
/// between two plans.
bool estimates_moved(const Plan& before, const Plan& after) {
  for (size_t i = 0; i < before.options.size() && i < after.options.size(); ++i) {
    const OptionResult& a = before.options[i];
    const OptionResult& b = after.options[i];
    if (!near(a.speed.aggregate_tokens_per_s, b.speed.aggregate_tokens_per_s, 1e-9) ||
        !near(a.speed.decode_tokens_per_s, b.speed.decode_tokens_per_s, 1e-9) ||
        // The prefill speed at the prompt's length (attention grows with it): the Inputs'
        // prefill_tokens_per_s, which the capacity formula reads.
        !near(a.speed.prefill_tokens_per_s, b.speed.prefill_tokens_per_s, 1e-9) ||
        a.replicas != b.replicas || a.feasible != b.feasible ||
        // An autoscaled rental over an uneven day: the engine's instance-hours, which its rent
        // formula reads (the Checks' estimates status names what they rest on).
        !near(a.billed_instance_hours, b.billed_instance_hours, 1e-9)) {
      return true;
    }
  }
  return false;
}

class EditedWorkbook : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!test::soffice_available()) GTEST_SKIP() << "soffice (LibreOffice) is not installed";
    if (!test::zip_available()) GTEST_SKIP() << "zip/unzip are not installed";
    dir_ = test::fresh_dir("edited-" + std::to_string(::getpid()));
  }
  void TearDown() override {
    if (!dir_.empty() && !::testing::Test::HasFailure()) std::filesystem::remove_all(dir_);
  }
  std::string dir_;
};

TEST_F(EditedWorkbook, everyExampleFollowsEveryInputEditAsGputcoPlansIt) {
  namespace fs = std::filesystem;
  const auto started = std::chrono::steady_clock::now();
  const Catalog catalog = Catalog::open_builtin();
  struct Example {
    std::string file;
    Plan plan;
    std::vector<Edit> edits;
    std::vector<std::optional<Plan>> expected;  ///< the engine's plan of each edit
  };
  std::vector<Example> examples;
  std::vector<std::string> books;
  for (const auto& entry : fs::directory_iterator(test::source_path("scenarios/examples"))) {
    examples.push_back({entry.path().string(), {}, {}, {}});
  }
  std::sort(examples.begin(), examples.end(),
            [](const Example& a, const Example& b) { return a.file < b.file; });
  size_t skipped = 0;
  for (size_t e = 0; e < examples.size(); ++e) {
    Example& example = examples[e];
    const ResolvedScenario scenario = resolve(load_scenario(example.file), catalog);
    example.plan = make_plan(scenario.plan_inputs);
    const Sensitivity sensitivity = analyse(scenario.plan_inputs, example.plan);
    WorkbookOptions options;
    options.sensitivity = &sensitivity;
    const std::string base = dir_ + "/x" + std::to_string(e) + ".xlsx";
    write_workbook(example.plan, scenario, base, options);
    std::map<std::pair<std::string, std::string>, double> all;
    for (const InputCell& input : yellow_inputs(base, all)) {
      for (double value : edited_values(input, example.plan.horizon_months)) {
        Edit edit{input, value, Same::set, {}, ""};
        describe_same(edit, all);
        // The engine's plan of the same change; an edit the parser or the engine refuses is
        // outside the input's valid range: not an edit to make.
        std::optional<Plan> plan;
        try {
          if (edit.same == Same::set) {
            std::vector<ScenarioOverride> overrides;
            for (const auto& text : edit.overrides) overrides.push_back(parse_set_option(text));
            plan = make_plan(resolve(load_scenario(example.file, overrides), catalog).plan_inputs);
          } else if (edit.same == Same::inputs) {
            PlanInputs changed = scenario.plan_inputs;
            if (change_inputs(changed, edit)) plan = make_plan(changed);
          }
        } catch (const ScenarioError&) {
          ++skipped;
          continue;
        } catch (const EngineError&) {
          ++skipped;
          continue;
        }
        edit.workbook =
            dir_ + "/x" + std::to_string(e) + "-" + std::to_string(example.edits.size()) + ".xlsx";
        test::copy_with_input(base, input.name, value, edit.workbook);
        books.push_back(edit.workbook);
        example.edits.push_back(std::move(edit));
        example.expected.push_back(std::move(plan));
      }
    }
  }
  ASSERT_GT(books.size(), 300U) << "too few edits to prove anything";

  // Two LibreOffice runs side by side (two cores), each over half the copies.
  std::vector<std::string> halves[2];
  for (size_t k = 0; k < books.size(); ++k) halves[k % 2].push_back(books[k]);
  std::future<std::string> runs[2];
  for (int h = 0; h < 2; ++h) {
    const std::string work = dir_ + "/run" + std::to_string(h);
    fs::create_directories(work);
    runs[h] = std::async(std::launch::async, [work, books = halves[h]] {
      return test::convert_with_libreoffice(books, work);
    });
  }
  const std::string csv[2] = {runs[0].get(), runs[1].get()};

  size_t compared = 0, stale = 0, estimates = 0;
  size_t index = 0;
  for (size_t e = 0; e < examples.size(); ++e) {
    const std::string example = fs::path(examples[e].file).filename().string();
    for (size_t k = 0; k < examples[e].edits.size(); ++k, ++index) {
      const Edit& edit = examples[e].edits[k];
      const std::string what = example + ": " + edit.input.section + "." + edit.input.key + " " +
                               number_text(edit.input.value) + " -> " + number_text(edit.value);
      const Sheets sheets = test::read_recalculated(csv[index % 2], edit.workbook);
      ASSERT_TRUE(sheets.count("Summary") && sheets.count("Checks")) << what;
      const auto errors = error_cells(sheets);
      EXPECT_TRUE(errors.empty()) << what << ": " << errors.size() << " error cells, first "
                                  << (errors.empty() ? "" : errors.front());
      EXPECT_EQ(status_of(sheets, "Figures only gputco computes are current (status)"),
                "stale: re-run gputco")
          << what;
      const std::optional<Plan>& plan = examples[e].expected[k];
      if (edit.same == Same::estimate || !plan) {
        ++estimates;
        continue;
      }
      const auto diff = differences(sheets, *plan, examples[e].plan.baseline_option_id);
      const std::string estimate_status =
          status_of(sheets, "The engine's estimates the formulas read are current (status)");
      if (estimate_status == "stale: re-run gputco") {
        // The totals rest on estimates for other inputs: allowed to differ, only where the
        // engine's estimates did move.
        ++stale;
        if (!diff.empty()) {
          EXPECT_TRUE(estimates_moved(examples[e].plan, *plan))
              << what << ": stale, the totals differ, yet no estimate moved: " << diff.front();
        }
        continue;
      }
      ++compared;
      EXPECT_TRUE(diff.empty()) << what << " (" << edit.overrides.size() << " --set"
                                << (edit.overrides.empty() ? "" : " " + edit.overrides.front())
                                << "): " << diff.size() << " differences, first "
                                << (diff.empty() ? "" : diff.front());
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::printf(
      "edited workbooks: %zu edits of %zu examples in %.0f s (%zu compared with the engine, %zu "
      "on stale estimates, %zu estimates typed over; %zu refused by the parser)\n",
      books.size(), examples.size(), seconds, compared, stale, estimates, skipped);
  EXPECT_GT(compared, books.size() / 2) << "most edits must be compared with the engine";
}

}  // namespace
}  // namespace gputco
