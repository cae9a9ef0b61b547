// How long the Monte Carlo takes (issue 4, "Done when": 100,000 draws over an example with at
// least 5 options and a 36-month horizon in under a second on one core), and the tornado and
// utilization sweep beside it.
// Run: BUILD/tests/bench/risk_bench   (single-threaded; read the CPU column)
#include <benchmark/benchmark.h>

#include "engine/sensitivity.hpp"
#include "scenarios/resolve.hpp"
#include "scenarios/scenario.hpp"

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
  for (auto _ : state) {
    benchmark::DoNotOptimize(monte_carlo(e.inputs, e.plan, e.pair, draws, kDefaultRiskSeed));
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
BENCHMARK(BM_MonteCarlo)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMillisecond);

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
