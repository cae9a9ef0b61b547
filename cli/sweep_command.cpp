// gputco sweep SCENARIO --vary KEY=FROM:TO:STEP [--format text|json|csv] [--catalog DB]
//
// Varies one number of the scenario and plans it again at every value. The value goes into
// the parsed Scenario before resolve(), so everything downstream is what a user would get
// by writing that value in the file: a price given replaces the catalog's (and its source
// row), a count re-fits, a tariff given wins over a catalog tariff. The Inputs row of the
// varied key says where its value came from ("gputco sweep --vary ..."), not the file.
// The values are resolved and planned on a few threads (engine/base/parallel.hpp), each into its
// own row: the output is the same on any number of threads.
#include <fmt/format.h>
#include <algorithm>
#include <atomic>
#include <boost/program_options.hpp>
#include <charconv>
#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "cli/arguments.hpp"
#include "cli/catalog_open.hpp"
#include "cli/commands.hpp"
#include "cli/environment.hpp"
#include "cli/freed_memory.hpp"
#include "cli/progress.hpp"
#include "engine/base/parallel.hpp"
#include "engine/plan/plan.hpp"
#include "pricing/csv_table.hpp"
#include "pricing/number_text.hpp"
#include "pricing/suggest.hpp"
#include "reports/json_stamp.hpp"
#include "reports/text_report.hpp"
#include "scenarios/currencies.hpp"
#include "scenarios/resolve.hpp"
#include "scenarios/scenario.hpp"
#include "scenarios/scenario_tree.hpp"

namespace po = boost::program_options;

namespace gputco::cli {

namespace {

constexpr const char* kVaryExample = "e.g. workload.hours_per_day=2:24:2";
constexpr size_t kMaxSweepPoints = 1000;
/// Points x options a sweep plans at most: 20,000 (1,000 points of 20 options, 200 of 100;
/// about 0.8 ms of CPU each, 17 s in all). The plans are kept for the table.
constexpr size_t kMaxSweepOptionPlans = 20'000;
/// The most --threads: more than the cores only adds switching (the result is the same).
constexpr int kMaxSweepThreads = 64;

struct Vary {
  std::string text;  ///< as given, for messages and provenance
  std::string name;  ///< KEY
  double from = 0, to = 0, step = 0;
};

[[noreturn]] void bad_vary(const std::string& text, const std::string& problem) {
  throw UsageError("sweep: --vary '" + text + "': " + problem);
}

/// FROM, TO or STEP in the grammar of every number typed (parse_number_text).
double parse_number(const std::string& text, const std::string& part, const char* what) {
  const auto value = parse_number_text(part);
  if (!value) {
    bad_vary(text, std::string("the ") + what + " '" + part +
                       "' is not a number (use a dot as the decimal separator)");
  }
  return *value;
}

Vary parse_vary(const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0) {
    bad_vary(text, std::string("expected KEY=FROM:TO:STEP, ") + kVaryExample);
  }
  Vary v;
  v.text = text;
  v.name = text.substr(0, eq);
  const std::string range = text.substr(eq + 1);
  const auto c1 = range.find(':');
  const auto c2 = c1 == std::string::npos ? c1 : range.find(':', c1 + 1);
  if (c1 == std::string::npos || c2 == std::string::npos ||
      range.find(':', c2 + 1) != std::string::npos) {
    bad_vary(text, std::string("expected KEY=FROM:TO:STEP (three numbers), ") + kVaryExample);
  }
  v.from = parse_number(text, range.substr(0, c1), "FROM");
  v.to = parse_number(text, range.substr(c1 + 1, c2 - c1 - 1), "TO");
  v.step = parse_number(text, range.substr(c2 + 1), "STEP");
  if (!(v.step > 0)) bad_vary(text, "STEP must be above 0");
  if (v.from > v.to) bad_vary(text, "FROM must not be above TO");
  return v;
}

/// The key named by `name`: "section.key", "option:ID.key" or a bare key of [scenario],
/// [workload] or [site], among the number keys the parser read from the file; or an exchange
/// rate fx.CODE (any ISO 4217 code: [fx] is created when the file has none, and the parser
/// checks each value as for a file holding it, the plan's own currency refused). Unknown
/// names fail with the nearest known one; text keys say so.
ScenarioNumberKey find_key(const Scenario& s, const Vary& vary) {
  for (const auto& k : s.number_keys) {
    if (k.full_name() == vary.name) return k;
  }
  // newcomer7: `--vary fx.USD=...` was an unknown key unless the file had [fx] USD, though
  // `plan --set fx.USD=0.92` works. The parser's range for a rate.
  const std::string fx_prefix = "fx.";
  if (vary.name.rfind(fx_prefix, 0) == 0 &&
      is_iso_4217_currency(vary.name.substr(fx_prefix.size()))) {
    return {"fx", vary.name.substr(fx_prefix.size()), kMinFxRate, kMaxFxRate, false};
  }
  const bool bare = vary.name.find('.') == std::string::npos;
  for (const auto& k : s.number_keys) {
    if (bare && k.key == vary.name &&
        (k.section == "scenario" || k.section == "workload" || k.section == "site")) {
      return k;
    }
  }
  const auto dot = vary.name.rfind('.');
  const std::string section = dot == std::string::npos ? "" : vary.name.substr(0, dot);
  const std::string key = dot == std::string::npos ? vary.name : vary.name.substr(dot + 1);
  const bool number_key = std::any_of(s.number_keys.begin(), s.number_keys.end(),
                                      [&](const ScenarioNumberKey& k) { return k.key == key; });
  for (const char* known : {"scenario", "workload", "site"}) {
    if (!number_key && (section.empty() || section == known || section.rfind("option:", 0) == 0) &&
        is_scenario_key(section.empty() ? known : section, key)) {
      bad_vary(vary.text,
               "'" + key + "' is not a number; sweep varies numbers (" + kVaryExample + ")");
    }
  }
  std::vector<std::string> names;
  for (const auto& k : s.number_keys) names.push_back(k.full_name());
  bad_vary(vary.text, "unknown key '" + vary.name + "'" + did_you_mean(vary.name, names) +
                          " (keys are SECTION.KEY or option:ID.KEY and must be numbers, " +
                          kVaryExample + ")");
}

/// The fewest decimals (0 to 15) that write `x` exactly as the double it is (0.1: 1,
/// 0.024: 3, 500: 0); nullopt when none does (a value with more digits than that).
std::optional<int> decimals_of(double x) {
  double scale = 1;
  for (int d = 0; d <= 15; ++d, scale *= 10) {
    if (std::round(x * scale) / scale == x) return d;
  }
  return std::nullopt;
}

/// --threads N: a whole decimal number from 1 to kMaxSweepThreads, digits only.
int parse_threads(const std::string& text) {
  int value = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() || value < 1 ||
      value > kMaxSweepThreads) {
    throw UsageError(fmt::format("sweep: --threads expects a whole number from 1 to {}, got '{}'",
                                 kMaxSweepThreads, text));
  }
  return value;
}

/// Points FROM + i x STEP, each computed from FROM (no sum carried over), rounded to the
/// decimals FROM and STEP are written with: 0.1 + 2 x 0.1 is 0.30000000000000004 in doubles,
/// which would reach the scenario and every output; rounded to 1 decimal it is 0.3.
std::vector<double> sweep_values(const Vary& vary, const ScenarioNumberKey& key) {
  const double intervals = std::floor((vary.to - vary.from) / vary.step + 1e-9);
  if (intervals + 1 > static_cast<double>(kMaxSweepPoints)) {
    bad_vary(vary.text, fmt::format("{:.0f} points; at most {}", intervals + 1, kMaxSweepPoints));
  }
  const auto from_decimals = decimals_of(vary.from);
  const auto step_decimals = decimals_of(vary.step);
  const auto on_grid = [&](double v) {
    if (!from_decimals || !step_decimals) return v;
    const double scale = std::pow(10.0, std::max(*from_decimals, *step_decimals));
    return std::round(v * scale) / scale;
  };
  std::vector<double> values;
  for (int i = 0; i <= static_cast<int>(intervals); ++i) {
    const double v = std::min(on_grid(vary.from + i * vary.step), vary.to);
    if (v < key.min || v > key.max) {
      bad_vary(vary.text,
               fmt::format("{} = {} is outside {} .. {}", key.full_name(), v, key.min, key.max));
    }
    if (key.whole && std::floor(v) != v) {
      bad_vary(vary.text, fmt::format("{} takes whole numbers, got {}", key.full_name(), v));
    }
    values.push_back(v);
  }
  return values;
}

/// One option of one value's plan, as the sweep's output shows it.
struct SweepOption {
  std::string id;
  bool feasible = false;
  double total_cost = 0;  ///< plan currency
  double npv = 0;         ///< plan currency
};

/// What the output needs of one value's plan, and no more (issue #19: a whole Plan holds
/// every option's cash flows, about 50 kB; 1,000 of them were kept until the output).
struct SweepRow {
  double value = 0;
  std::string currency;
  int horizon_months = 0;
  std::vector<SweepOption> options;
  std::optional<std::string> recommendation;
};

/// The row of `plan` at `value`.
SweepRow sweep_row(double value, const Plan& plan) {
  SweepRow row{value, plan.currency, plan.horizon_months, {}, plan.recommendation};
  row.options.reserve(plan.options.size());
  for (const auto& o : plan.options) row.options.push_back({o.id, o.feasible, o.total_cost, o.npv});
  return row;
}

/// The shortest text that reads back as `v` (0.3, 1500, 2.5e-07), as the CSV and JSON write it.
std::string value_text(double v) {
  return fmt::format("{}", v);
}

std::string sweep_text(const Vary& vary, const ScenarioNumberKey& key, const InputRow* row,
                       const ResolvedScenario& first, const std::vector<SweepRow>& rows) {
  std::string out;
  const std::string unit = row && !row->unit.empty() ? row->unit : "";
  out += fmt::format("{}\n", first.name);
  // newcomer6: a sweep of the horizon itself said "over 12 months" (the first row's) above
  // rows of 24 and 36 months.
  const bool same_horizon = std::all_of(rows.begin(), rows.end(), [&](const SweepRow& r) {
    return r.horizon_months == rows.front().horizon_months;
  });
  const std::string period = same_horizon
                                 ? fmt::format("over {} months", rows.front().horizon_months)
                                 : std::string("over each row's horizon");
  out += fmt::format("sweep of {}{} from {} to {} step {}; amounts in {} {}\n", key.full_name(),
                     unit.empty() ? "" : " (" + unit + ")", value_text(vary.from),
                     value_text(vary.to), value_text(vary.step), rows.front().currency, period);
  out +=
      "total cost and NPV of cost per option; n/a: the option cannot serve the demand (no fit, or "
      "a latency target missed)\n\n";
  const auto& options = rows.front().options;
  std::vector<size_t> widths;
  for (const auto& o : options) widths.push_back(std::max<size_t>(11, (o.id.size() + 1) / 2));
  const size_t value_width = std::max<size_t>(10, key.key.size());
  std::string header1 = fmt::format("{:<{}}", "", value_width);
  std::string header2 = fmt::format("{:>{}}", key.key, value_width);
  for (size_t i = 0; i < options.size(); ++i) {
    header1 += fmt::format("  {:>{}}", options[i].id, 2 * widths[i] + 1);
    header2 += fmt::format("  {:>{}} {:>{}}", "total", widths[i], "NPV", widths[i]);
  }
  out += header1 + "\n" + header2 + "  recommendation\n";
  for (const auto& r : rows) {
    std::string line = fmt::format("{:>{}}", value_text(r.value), value_width);
    for (size_t i = 0; i < r.options.size(); ++i) {
      const auto& o = r.options[i];
      line += fmt::format("  {:>{}} {:>{}}", o.feasible ? whole_money_text(o.total_cost) : "n/a",
                          widths[i], o.feasible ? whole_money_text(o.npv) : "n/a", widths[i]);
    }
    line += "  " + r.recommendation.value_or("none");
    out += line + "\n";
  }
  return out;
}

std::string sweep_json(const Vary& vary, const ScenarioNumberKey& key, const InputRow* row,
                       const ResolvedScenario& first, const std::vector<SweepRow>& rows,
                       const JsonStamp& stamp) {
  using ordered = nlohmann::ordered_json;
  ordered j;
  j["gputco"] = stamp_json(stamp);
  j["scenario"] = first.name;
  j["key"] = key.full_name();
  j["label"] = row ? row->label : key.key;
  j["unit"] = row ? row->unit : "";
  j["from"] = vary.from;
  j["to"] = vary.to;
  j["step"] = vary.step;
  j["provenance"] = row ? row->provenance : "";
  j["currency"] = rows.front().currency;
  j["horizon_months"] = rows.front().horizon_months;
  ordered points = ordered::array();
  for (const auto& r : rows) {
    ordered p;
    p["value"] = r.value;
    p["horizon_months"] = r.horizon_months;  // the sweep may vary it
    ordered options = ordered::array();
    for (const auto& o : r.options) {
      ordered x;
      x["id"] = o.id;
      x["feasible"] = o.feasible;
      x["total_cost"] = o.total_cost;
      x["npv"] = o.npv;
      options.push_back(std::move(x));
    }
    p["options"] = std::move(options);
    p["recommendation"] = r.recommendation ? ordered(*r.recommendation) : ordered();
    points.push_back(std::move(p));
  }
  j["points"] = std::move(points);
  return j.dump(2) + "\n";
}

/// One CSV row (RFC 4180, CRLF) per value and option: key, value, option, feasible, currency,
/// total_cost, npv (empty where the option cannot serve the demand), recommended.
std::string sweep_csv(const ScenarioNumberKey& key, const std::vector<SweepRow>& rows) {
  std::string out = "key,value,option,feasible,currency,total_cost,npv,recommended\r\n";
  for (const auto& r : rows) {
    for (const auto& o : r.options) {
      const auto amount = [&](double x) { return o.feasible ? fmt::format("{}", x) : ""; };
      out += fmt::format("{},{},{},{},{},{},{},{}\r\n", csv_text_field(key.full_name()), r.value,
                         csv_text_field(o.id), o.feasible, csv_text_field(r.currency),
                         amount(o.total_cost), amount(o.npv), r.recommendation == o.id);
    }
  }
  return out;
}

}  // namespace

int sweep_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  po::options_description visible(
      "usage: gputco sweep SCENARIO --vary KEY=FROM:TO:STEP [options]   (SCENARIO - reads "
      "standard input)\n\n"
      "Plans the scenario once per value of one number and prints each option's total cost\n"
      "and NPV and the recommendation at every value. KEY is SECTION.KEY or option:ID.KEY,\n"
      "as in the scenario file (a bare key of [scenario], [workload] or [site] works too):\n"
      "  workload.hours_per_day=2:24:2     site.tariff_per_kwh=0.1:0.4:0.05\n"
      "  option:rig-3090.price_per_gpu=500:900:100\n"
      "Values run FROM, FROM+STEP, ... up to TO (at most 1000); each must be a value the\n"
      "scenario file could hold.\n\noptions");
  std::string catalog_path, scenario_path, vary_text, format, threads_text;
  std::vector<std::string> sets, unsets;
  bool json = false, quiet = false;
  visible.add_options()("help,h", "this text")(
      "vary", po::value(&vary_text)->value_name("KEY=FROM:TO:STEP"), "the number to vary")(
      "format", po::value(&format)->value_name("FMT"),
      "what goes to stdout: text (the table, default), json, or csv (one row per value and "
      "option, RFC 4180)")("json", po::bool_switch(&json), "the same as --format json")(
      "unset", po::value(&unsets)->value_name("SECTION.KEY")->composing(), kUnsetOptionHelp)(
      "set", po::value(&sets)->value_name("SECTION.KEY=VALUE")->composing(),
      "a value in place of the scenario's (repeatable), as plan --set")(
      "threads", po::value(&threads_text)->value_name("N"),
      fmt::format("threads planning the values, 1 to {} (default: the cores, at most 2); the "
                  "result is the same for any number",
                  kMaxSweepThreads)
          .c_str())("quiet,q", po::bool_switch(&quiet), "no progress bar")(
      "catalog", po::value(&catalog_path)->value_name("DB"), kCatalogOptionHelp);
  const auto vm = parse_arguments(args, visible, {{"scenario", &scenario_path}});
  if (vm.count("help")) {
    out << visible << "\n";
    return 0;
  }
  if (scenario_path.empty()) throw UsageError("sweep: missing SCENARIO (see gputco sweep --help)");
  if (vary_text.empty()) {
    throw UsageError(std::string("sweep: missing --vary KEY=FROM:TO:STEP, ") + kVaryExample);
  }
  format = output_format("sweep", format, json, {"text", "json", "csv"});
  const Vary vary = parse_vary(vary_text);
  const int threads = threads_text.empty() ? default_thread_count() : parse_threads(threads_text);

  // Read once (standard input cannot be read again) into its tree, once; the tree is
  // type-checked once per value (scenarios/scenario_tree.hpp).
  const ScenarioSource source = read_scenario_source(scenario_path);
  const std::vector<ScenarioOverride> base = scenario_overrides(sets, unsets);
  const ScenarioTree tree = read_scenario_tree(source);
  const Scenario scenario = parse_scenario(tree, base);
  const ScenarioNumberKey key = find_key(scenario, vary);
  const std::vector<double> values = sweep_values(vary, key);
  if (values.size() * scenario.options.size() > kMaxSweepOptionPlans) {
    bad_vary(
        vary.text,
        fmt::format("{} points x {} options = {} plans, above the limit of {}; use at most "
                    "{} points (a larger STEP)",
                    values.size(), scenario.options.size(), values.size() * scenario.options.size(),
                    kMaxSweepOptionPlans, kMaxSweepOptionPlans / scenario.options.size()));
  }
  // Inputs name an option by its id, the scenario by "option:ID".
  const std::string input_section =
      key.section.rfind("option:", 0) == 0 ? key.section.substr(7) : key.section;
  const Catalog catalog = open_catalog(catalog_path);
  // Each value is parsed, resolved and planned into its own row (the catalog is read-only and
  // its memo locked: engine/base/parallel.hpp's contract); the first resolution and the first
  // Inputs row of the key are taken in the order of the values, and the error of the lowest
  // value that fails (in parsing, resolving or planning) is the one reported, as on one
  // thread. A value's parsed scenario and plan live only while its row is made (issue #19:
  // 1,000 parsed scenarios and plans were kept at once, 150 MB).
  keep_freed_memory();  // every value makes and drops the same objects again
  std::vector<SweepRow> rows(values.size());
  std::optional<ResolvedScenario> first;
  std::vector<std::optional<InputRow>> key_rows(values.size());
  std::atomic<long long> done{0};
  ProgressBar progress(err, "sweep", quiet);
  parallel_for(values.size(), threads, [&](size_t i, int thread) {
    // Every value goes through the parser, as if the file held it: its ranges and its checks
    // across keys apply. A demand swept in tokens replaces one given in requests (the mix
    // stays: prompt and output tokens per request, or the ratio), and the reverse
    // (superseded_keys).
    std::vector<ScenarioOverride> overrides = base;
    overrides.push_back({key.section, key.key, fmt::format("{}", values[i])});
    Scenario varied;
    try {
      varied = parse_scenario(tree, overrides);
    } catch (const ScenarioError& e) {
      bad_vary(vary.text,
               fmt::format("{} = {}: {}", key.full_name(), value_text(values[i]), e.what()));
    }
    ResolvedScenario resolved = resolve(varied, catalog);
    for (auto& input : resolved.inputs) {
      // Honest provenance: the value is the sweep's, not the file's or the catalog's.
      if (input.section == input_section && input.key == key.key) {
        input.provenance = "gputco sweep --vary " + vary.text;
        if (!key_rows[i]) key_rows[i] = input;
      }
    }
    rows[i] = sweep_row(values[i], on_scenario(
                                       varied, [&] { return make_plan(resolved.plan_inputs); },
                                       fmt::format(" (sweep: {} = {})", vary.name, values[i])));
    if (i == 0) first = std::move(resolved);
    const long long finished = ++done;
    // The bar is drawn by the calling thread alone (ProgressBar is not shared).
    if (thread == 0) progress.update(finished, static_cast<long long>(values.size()));
  });
  progress.finish();
  std::optional<InputRow> row;
  for (auto& r : key_rows) {
    if (r) {
      row = std::move(r);
      break;
    }
  }
  const InputRow* input_row = row ? &*row : nullptr;
  if (format == "json") {
    out << sweep_json(vary, key, input_row, *first, rows, json_stamp(catalog));
  } else if (format == "csv") {
    out << sweep_csv(key, rows);
  } else {
    out << sweep_text(vary, key, input_row, *first, rows);
  }
  return 0;
}

}  // namespace gputco::cli
