// libFuzzer harness: a scenario file (INI or JSON, chosen at compile time by
// GPUTCO_FUZZ_JSON) through the whole planning path that reads no file and writes none:
// parse_scenario, then, when it parses, resolve() against the built-in catalog, make_plan()
// and the two in-memory reports (JSON and the text summary).
//
// Only the documented exception types are caught: ScenarioError (parse_scenario, resolve)
// and EngineError (make_plan). Any other exception escapes and libFuzzer reports it as a
// crash; so does a plan figure that is NaN or infinite (issue 7: never carried or printed).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

#include "engine/base/error.hpp"
#include "engine/plan/plan.hpp"
#include "pricing/catalog.hpp"
#include "reports/json_report.hpp"
#include "reports/text_report.hpp"
#include "scenarios/resolve.hpp"
#include "scenarios/scenario.hpp"

namespace {

#ifdef GPUTCO_FUZZ_JSON
constexpr gputco::ScenarioFormat kFormat = gputco::ScenarioFormat::json;
constexpr const char* kFile = "fuzz.json";
#else
constexpr gputco::ScenarioFormat kFormat = gputco::ScenarioFormat::ini;
constexpr const char* kFile = "fuzz.ini";
#endif

const gputco::Catalog& catalog() {
  static const gputco::Catalog c = gputco::Catalog::open_builtin();
  return c;
}

void require_finite(double value, const char* what, const std::string& option) {
  if (!std::isfinite(value)) {
    std::fprintf(stderr, "plan figure %s of option %s is not finite: %g\n", what, option.c_str(),
                 value);
    std::abort();
  }
}

void check_plan(const gputco::Plan& plan) {
  for (const auto& o : plan.options) {
    require_finite(o.total_cost, "total_cost", o.id);
    require_finite(o.npv, "npv", o.id);
    require_finite(o.power_at_load_w, "power_at_load_w", o.id);
    require_finite(o.energy_kwh_per_month, "energy_kwh_per_month", o.id);
    require_finite(o.tokens_per_month, "tokens_per_month", o.id);
    require_finite(o.speed.decode_tokens_per_s, "decode_tokens_per_s", o.id);
    require_finite(o.speed.aggregate_tokens_per_s, "aggregate_tokens_per_s", o.id);
    require_finite(o.fit.memory.total_gib, "fit.memory.total_gib", o.id);
    require_finite(o.fit.usable_gib, "fit.usable_gib", o.id);
    require_finite(o.fit.headroom_gib, "fit.headroom_gib", o.id);
    if (o.break_even_hours) require_finite(*o.break_even_hours, "break_even_hours", o.id);
    if (o.cost_per_million_tokens) {
      require_finite(*o.cost_per_million_tokens, "cost_per_million_tokens", o.id);
    }
    for (double v : o.annual_costs) require_finite(v, "annual_costs", o.id);
    for (const auto* row : {&o.cash_flow.total, &o.cash_flow.cumulative,
                            &o.cash_flow.discount_factor, &o.cash_flow.discounted}) {
      for (double v : *row) require_finite(v, "cash_flow", o.id);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  gputco::Scenario scenario;
  try {
    scenario = gputco::parse_scenario(in, kFormat, kFile);
  } catch (const gputco::ScenarioError&) {
    return 0;
  }
  try {
    const gputco::ResolvedScenario resolved = gputco::resolve(scenario, catalog());
    const gputco::Plan plan = gputco::make_plan(resolved.plan_inputs);
    check_plan(plan);
    const std::string json = gputco::plan_json(plan, resolved, {});
    const std::string text = gputco::plan_summary_text(plan, resolved);
    if (json.empty() || text.empty()) std::abort();
  } catch (const gputco::ScenarioError&) {
  } catch (const gputco::EngineError&) {
  }
  return 0;
}
