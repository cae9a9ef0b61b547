// How long writing the workbook takes (issue 5, "Done when": a 10-option, 60-month scenario
// well under a second). The example scenarios/examples/office-assistant-32b.ini (6 options)
// gets 4 more options (copies with other counts) and a 60-month horizon, is planned and
// analysed once, then only write_workbook is timed, every sheet (sensitivity included).
// Run: BUILD/tests/bench/workbook_bench   (single-threaded; read the Time column)
#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>

#include "engine/plan/sensitivity.hpp"
#include "reports/xlsx/report.hpp"
#include "scenarios/resolve.hpp"
#include "scenarios/scenario.hpp"

namespace gputco {
namespace {

struct Example {
  ResolvedScenario scenario;
  Plan plan;
  Sensitivity sensitivity;
};

const Example& example() {
  static const Example e = [] {
    const Catalog catalog = Catalog::open_builtin();
    Scenario scenario = load_scenario(std::string(GPUTCO_SOURCE_DIR) +
                                      "/scenarios/examples/office-assistant-32b.ini");
    scenario.horizon_months = 60;
    const size_t base = scenario.options.size();
    for (size_t i = 0; scenario.options.size() < 10; ++i) {
      ScenarioOption copy = scenario.options[i % base];
      copy.id += "-x" + std::to_string(i);
      copy.count = copy.count.value_or(1) + 1;
      scenario.options.push_back(copy);
    }
    Example out;
    out.scenario = resolve(scenario, catalog);
    out.plan = make_plan(out.scenario.plan_inputs);
    out.sensitivity = analyse(out.scenario.plan_inputs, out.plan);
    return out;
  }();
  return e;
}

void BM_WriteWorkbook(benchmark::State& state) {
  const Example& e = example();
  WorkbookOptions options;
  options.sensitivity = &e.sensitivity;
  const std::string path =
      (std::filesystem::temp_directory_path() / "gputco-workbook-bench.xlsx").string();
  for (auto _ : state) write_workbook(e.plan, e.scenario, path, options);
  state.counters["options"] = static_cast<double>(e.plan.options.size());
  state.counters["horizon_months"] = e.plan.horizon_months;
  state.counters["bytes"] = static_cast<double>(std::filesystem::file_size(path));
  std::filesystem::remove(path);
}
BENCHMARK(BM_WriteWorkbook)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace gputco

BENCHMARK_MAIN();
