// How long the Monte Carlo takes (issue 4, "Done when": 100,000 draws over an example with at
// least 5 options and a 36-month horizon in under a second on one core), and the tornado and
// utilization sweep beside it.
// Run: BUILD/tests/bench/risk_bench   (single-threaded; read the CPU column)
#include <benchmark/benchmark.h>

#include <algorithm>
#include <random>
#include <vector>

#include "engine/plan/sensitivity.hpp"
#include "engine/risk/risk.hpp"
#include "scenarios/resolve.hpp"
#include "scenarios/scenario.hpp"
#include "scenarios/scenario_tree.hpp"

namespace gputco {
namespace {

struct Example {
  PlanInputs inputs;
  Plan plan;
  Comparison pair;
};

/// scenarios/examples/office-assistant-32b.ini: 6 options (4 owned, an hourly rental, a
/// monthly server), 36 months, resolved against the built-in catalog.
const Example& example() {
  static const Example e = [] {
    const Catalog catalog = Catalog::open_builtin();
    const Scenario scenario = load_scenario(std::string(GPUTCO_SOURCE_DIR) +
                                            "/scenarios/examples/office-assistant-32b.ini");
    Example out;
    out.inputs = resolve(scenario, catalog).plan_inputs;
    out.plan = make_plan(out.inputs);
    out.pair = *comparison(out.inputs, out.plan);
    return out;
  }();
  return e;
}

void BM_MonteCarlo(benchmark::State& state) {
  const Example& e = example();
  const int draws = static_cast<int>(state.range(0));
  const int threads = static_cast<int>(state.range(1));
  for (auto _ : state) {
    benchmark::DoNotOptimize(
        monte_carlo(e.inputs, e.plan, e.pair, draws, kDefaultRiskSeed, {}, {}, threads));
  }
  state.SetItemsProcessed(state.iterations() * draws);
  state.counters["options"] = static_cast<double>(e.inputs.options.size());
  state.counters["feasible"] = [&] {
    double n = 0;
    for (const auto& o : e.plan.options) n += o.feasible ? 1 : 0;
    return n;
  }();
  state.counters["horizon_months"] = e.inputs.finance.horizon_months;
}
// Draws x threads (issue #19: the same figures on any thread count; read the real time for
// two threads, the CPU column counts the calling thread only).
BENCHMARK(BM_MonteCarlo)
    ->Args({10'000, 1})
    ->Args({100'000, 1})
    ->Args({100'000, 2})
    ->Args({1'000'000, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

/// The Monte Carlo's last step: P10/P50/P90 of one column of draws (a million totals by
/// default: read through bands, engine/risk/risk.hpp), on a fresh copy each iteration.
void BM_RiskPercentiles(benchmark::State& state) {
  const auto n = static_cast<size_t>(state.range(0));
  std::mt19937_64 generator(5);
  std::vector<double> column(n);
  for (auto& v : column) {
    v = 40000 + 25000 * risk::uniform01(generator) * risk::uniform01(generator);
  }
  std::vector<double> work(n);
  for (auto _ : state) {
    std::copy(column.begin(), column.end(), work.begin());
    benchmark::DoNotOptimize(risk::p10_p50_p90(work.data(), n));
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(n));
}
BENCHMARK(BM_RiskPercentiles)->Arg(20'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

/// The work of `gputco sweep` over 1,000 values of hours_per_day (issue #19): the file read
/// into its tree once, the tree checked at each value as the file would hold it, resolved
/// against the catalog and planned.
void BM_SweepThousandValues(benchmark::State& state) {
  const Catalog catalog = Catalog::open_builtin();
  const ScenarioTree tree = read_scenario_tree(read_scenario_source(
      std::string(GPUTCO_SOURCE_DIR) + "/scenarios/examples/office-assistant-32b.ini"));
  for (auto _ : state) {
    for (int i = 1; i <= 1000; ++i) {
      const Scenario s =
          parse_scenario(tree, {{"workload", "hours_per_day", std::to_string(0.024 * i)}});
      benchmark::DoNotOptimize(make_plan(resolve(s, catalog).plan_inputs));
    }
  }
}
BENCHMARK(BM_SweepThousandValues)->Unit(benchmark::kMillisecond);

/// What `gputco plan` adds: tornado + 0..24 h sweep + 10,000 draws.
void BM_AnalyseDefaults(benchmark::State& state) {
  const Example& e = example();
  for (auto _ : state) benchmark::DoNotOptimize(analyse(e.inputs, e.plan));
}
BENCHMARK(BM_AnalyseDefaults)->Unit(benchmark::kMillisecond);

/// One option's cash flow, the unit of work of every draw.
void BM_OptionCashFlow(benchmark::State& state) {
  const Example& e = example();
  const auto& o = e.inputs.options[e.pair.owned];
  for (auto _ : state) {
    benchmark::DoNotOptimize(
        option_cash_flow(o, e.inputs.workload, e.inputs.site, e.inputs.finance));
  }
}
BENCHMARK(BM_OptionCashFlow);

}  // namespace
}  // namespace gputco

BENCHMARK_MAIN();
