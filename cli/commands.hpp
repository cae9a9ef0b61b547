// The subcommands. Each takes its own arguments (after the subcommand name), writes to
// the given streams and returns the process exit code; errors propagate as exceptions to
// main, the one place that maps them to exit codes.
#pragma once

#include <iosfwd>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "engine/base/error.hpp"
#include "scenarios/scenario.hpp"

namespace gputco::cli {

/// Bad command-line usage (unknown option, missing argument): exit code 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Runs `engine_step` (the engine on `scenario`'s inputs). The engine's refusal of an input
/// (EngineError: a value the scenario reader let through) is bad input of that scenario
/// file: it becomes a ScenarioError (exit code 2) that names the file, and the line of the key
/// when the refusal names one (EngineError::key: the file's line, or the --set or config file
/// that gave it), with `context` (such as the sweep's value) after the engine's message.
template <typename EngineStep>
auto on_scenario(const Scenario& scenario, EngineStep&& engine_step,
                 const std::string& context = "") -> decltype(engine_step()) {
  try {
    return engine_step();
  } catch (const EngineError& e) {
    if (e.key().empty()) throw ScenarioError(scenario.file, 0, "", e.what() + context);
    const auto [file, line] = scenario.location_of(e.section(), e.key());
    throw ScenarioError(file, line, "", e.what() + context);
  }
}

/// The same for a scenario known by its file name alone: the error names the file.
template <typename EngineStep>
auto on_scenario(const std::string& file, EngineStep&& engine_step, const std::string& context = "")
    -> decltype(engine_step()) {
  Scenario named;
  named.file = file;
  return on_scenario(named, std::forward<EngineStep>(engine_step), context);
}

int plan_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int fit_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int catalog_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
/// gputco sweep SCENARIO --vary KEY=FROM:TO:STEP [--json]: the plan's totals, NPVs and
/// recommendation as one scenario key varies (cli/sweep_command.cpp).
int sweep_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
/// gputco risk SCENARIO [--draws N] [--seed S] [--json]: the seeded Monte Carlo
/// (cli/risk_command.cpp).
int risk_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
/// gputco throughput --model ID --quant Q --gpu ID --engine E --input-tokens N
/// --output-tokens N (--batch N | --max-batch | latency targets) [--json]: the serving
/// capacity of a box (cli/throughput_command.cpp).
int throughput_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
/// gputco diff OLD NEW [--format text|json|markdown]: two scenarios or plans' JSON side by
/// side, what changed in the inputs, the options' costs and the recommendation
/// (cli/diff_command.cpp).
/// gputco calibrate FILE... | --list | --remove: the user's serving benchmark runs in the user
/// catalog (cli/calibrate_command.cpp).
int calibrate_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int diff_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace gputco::cli
