// gputco risk SCENARIO|- [--draws N] [--seed S] [--set SECTION.KEY=VALUE]... [--json]
//   [--threads N] [--quiet] [--time] [--catalog DB]
#include <fmt/format.h>
#include <boost/program_options.hpp>
#include <charconv>
#include <chrono>
#include <ctime>
#include <iostream>

#include "cli/arguments.hpp"
#include "cli/catalog_open.hpp"
#include "cli/commands.hpp"
#include "cli/environment.hpp"
#include "cli/progress.hpp"
#include "engine/base/parallel.hpp"
#include "engine/plan/plan.hpp"
#include "engine/plan/sensitivity.hpp"
#include "reports/risk_report.hpp"
#include "scenarios/resolve.hpp"
#include "scenarios/scenario.hpp"

namespace po = boost::program_options;

namespace gputco::cli {

namespace {

/// The most --threads: more than the cores only adds switching (the result is the same).
constexpr int kMaxRiskThreads = 64;

/// A whole decimal number in [min, max], digits only ("1e5", "-1", "10,000" are refused).
std::uint64_t parse_whole(const std::string& text, const char* option, std::uint64_t min,
                          std::uint64_t max) {
  std::uint64_t value = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() || value < min ||
      value > max) {
    throw UsageError(fmt::format("risk: --{} expects a whole number from {} to {}, got '{}'",
                                 option, min, max, text));
  }
  return value;
}

/// What the command line asked for, as typed: the counts are checked by parse_counts.
struct RiskArguments {
  std::string catalog_path, scenario_path,
      draws_text = "10000", seed_text = std::to_string(kDefaultRiskSeed), threads_text;
  std::vector<std::string> sets, unsets;
  bool json = false, timing = false, quiet = false;
};

/// The --draws, --seed and --threads the user gave (or their defaults), checked.
struct RiskCounts {
  int draws = 0;
  std::uint64_t seed = 0;
  int threads = 0;
};

/// risk's options, written into `a`; the usage text is the description's caption.
po::options_description risk_options(RiskArguments& a) {
  po::options_description visible(
      "usage: gputco risk SCENARIO [options]   (SCENARIO - reads standard input)\n\n"
      "A seeded Monte Carlo of the scenario: purchase prices, resale, tariff, hours per day,\n"
      "rental rates, maintenance, failures, demand and growth drawn from their distributions\n"
      "(symmetric defaults, or the scenario's [risk] section); prints how often each option\n"
      "has the lowest NPV of cost (the recommendation rule in each draw), how often buying\n"
      "(the owned option with the lowest NPV) beats renting (the rental baseline) and\n"
      "P10/P50/P90 of every option's total cost; without an owned option and a rental to\n"
      "compare, the percentiles only. [risk] fx.CODE varies an exchange rate. Same scenario,\n"
      "draws and seed: same output.\n\n"
      "options");
  visible.add_options()("help,h", "this text")(
      "draws", po::value(&a.draws_text)->value_name("N"),
      fmt::format("number of draws, 1 to {} (default 10000)", kMaxRiskDraws).c_str())(
      "seed", po::value(&a.seed_text)->value_name("S"),
      fmt::format("seed of the random numbers, 0 to 2^64-1 (default {})", kDefaultRiskSeed)
          .c_str())("unset", po::value(&a.unsets)->value_name("SECTION.KEY")->composing(),
                    kUnsetOptionHelp)(
      "set", po::value(&a.sets)->value_name("SECTION.KEY=VALUE")->composing(),
      "a value in place of the scenario's (repeatable), as plan --set")(
      "threads", po::value(&a.threads_text)->value_name("N"),
      fmt::format("threads for the draws, 1 to {} (default: the cores, at most 2); the result "
                  "is the same for any number",
                  kMaxRiskThreads)
          .c_str())("json", po::bool_switch(&a.json), "print JSON on stdout instead of the text")(
      "quiet,q", po::bool_switch(&a.quiet), "no progress bar")(
      "time", po::bool_switch(&a.timing),
      "print how long the Monte Carlo took on stderr (not part of the result)")(
      "catalog", po::value(&a.catalog_path)->value_name("DB"), kCatalogOptionHelp);
  return visible;
}

/// The counts of `a`, each checked against its range (UsageError naming the option).
RiskCounts parse_counts(const RiskArguments& a) {
  RiskCounts counts;
  counts.draws = static_cast<int>(
      parse_whole(a.draws_text, "draws", 1, static_cast<std::uint64_t>(kMaxRiskDraws)));
  counts.seed = parse_whole(a.seed_text, "seed", 0, std::numeric_limits<std::uint64_t>::max());
  counts.threads = a.threads_text.empty()
                       ? default_thread_count()
                       : static_cast<int>(parse_whole(a.threads_text, "threads", 1,
                                                      static_cast<std::uint64_t>(kMaxRiskThreads)));
  return counts;
}

/// Bounded work: `draws` x the scenario's options above kMaxRiskOptionDraws is refused
/// (UsageError with the most draws allowed) before any plan is made.
void check_draw_limit(int draws, const Scenario& scenario) {
  const auto options = static_cast<long long>(scenario.options.size());
  if (draws * options > kMaxRiskOptionDraws) {
    throw UsageError(fmt::format(
        "risk: --draws {} x {} options = {} option cash flows, above the limit of {}; give "
        "--draws {} or fewer",
        draws, options, draws * options, kMaxRiskOptionDraws, kMaxRiskOptionDraws / options));
  }
}

/// The note risk prints when the plan has no owned option or no rental to compare (`pair` is
/// empty): every option's percentiles alike, and why there is no probability; "" when there is
/// a pair. Throws UsageError naming each option's reason when no option is priced at all.
std::string no_comparison_note(const Scenario& scenario, const ResolvedScenario& resolved,
                               const Plan& plan, const std::optional<Comparison>& pair) {
  if (pair) return "";
  bool any_feasible = false;
  for (const auto& o : plan.options) any_feasible = any_feasible || o.feasible;
  SensitivityOptions no_draws;
  no_draws.draws = 0;
  const Sensitivity why =
      on_scenario(scenario.file, [&] { return analyse(resolved.plan_inputs, plan, no_draws); });
  if (!any_feasible) {
    // Each option's own reason: the model does not fit, or no layout meets the targets.
    std::string reasons;
    for (const auto& o : plan.options) {
      reasons += (reasons.empty() ? "" : "; ") + o.id + ": " +
                 (o.note.empty() ? std::string("not priced") : o.note);
    }
    throw UsageError("risk: no option is priced, so there is no cost to draw (" + reasons + ")");
  }
  return why.note;
}

/// The Monte Carlo over `plan` with a progress bar on `err`; with --time, how long it took
/// (CPU and wall, not part of the result) on `err` too.
RiskResult run_monte_carlo(const Scenario& scenario, const ResolvedScenario& resolved,
                           const Plan& plan, const std::optional<Comparison>& pair,
                           const RiskCounts& counts, const RiskArguments& a, std::ostream& err) {
  const RiskModel& model = resolved.risk_model;  // the scenario's [risk] over the defaults
  ProgressBar progress(err, "risk", a.quiet);
  const auto start = std::chrono::steady_clock::now();
  const std::clock_t cpu_start = std::clock();
  RiskResult result = on_scenario(scenario.file, [&] {
    return monte_carlo(
        resolved.plan_inputs, plan, pair, counts.draws, counts.seed, model,
        [&](int done, int total) { progress.update(done, total); }, counts.threads);
  });
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  const double cpu_seconds = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  progress.finish();
  if (a.timing) {
    // CPU time of this process, all its threads together: the work done, even when other
    // processes share the machine; wall time falls with more threads, CPU time does not.
    err << fmt::format(
        "risk: {} draws x {} options on {} thread(s): {:.3f} s CPU, {:.3f} s wall (Monte Carlo "
        "only)\n",
        counts.draws, result.options.size(), counts.threads, cpu_seconds, elapsed.count());
  }
  return result;
}

}  // namespace

int risk_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  RiskArguments a;
  const po::options_description visible = risk_options(a);
  const auto vm = parse_arguments(args, visible, {{"scenario", &a.scenario_path}});
  if (vm.count("help")) {
    out << visible << "\n";
    return 0;
  }
  if (a.scenario_path.empty()) throw UsageError("risk: missing SCENARIO (see gputco risk --help)");
  const RiskCounts counts = parse_counts(a);

  const Catalog catalog = open_catalog(a.catalog_path);
  const Scenario scenario = load_scenario(a.scenario_path, scenario_overrides(a.sets, a.unsets));
  check_draw_limit(counts.draws, scenario);
  const ResolvedScenario resolved = resolve(scenario, catalog);
  const Plan plan = on_scenario(scenario.file, [&] { return make_plan(resolved.plan_inputs); });
  const auto pair = comparison(resolved.plan_inputs, plan);
  const std::string no_comparison = no_comparison_note(scenario, resolved, plan, pair);
  const RiskResult result = run_monte_carlo(scenario, resolved, plan, pair, counts, a, err);
  const RiskModel& model = resolved.risk_model;
  out << (a.json ? risk_json(resolved, plan, result, model, json_stamp(catalog), no_comparison)
                 : risk_text(resolved, plan, result, model, no_comparison));
  return 0;
}

}  // namespace gputco::cli
