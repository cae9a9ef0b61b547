// gputco plan SCENARIO|- [-o OUT.xlsx | --no-workbook] [--format text|json|csv] [--json]
//   [--set SECTION.KEY=VALUE]... [--quiet] [--quote] [--catalog DB]
#include <boost/program_options.hpp>
#include <cctype>
#include <filesystem>
#include <iostream>
#include <optional>

#include "cli/arguments.hpp"
#include "cli/catalog_open.hpp"
#include "cli/commands.hpp"
#include "cli/environment.hpp"
#include "cli/terminal_output.hpp"
#include "engine/base/parallel.hpp"
#include "engine/plan/plan.hpp"
#include "engine/plan/sensitivity.hpp"
#include "pricing/input_file.hpp"
#include "pricing/visible_text.hpp"
#include "reports/csv_report.hpp"
#include "reports/json_report.hpp"
#include "reports/text_report.hpp"
#include "reports/xlsx/report.hpp"
#include "scenarios/resolve.hpp"
#include "scenarios/scenario.hpp"

namespace po = boost::program_options;

namespace gputco::cli {
namespace {

/// The engine's sensitivity run (tornado, utilization sweep, seeded Monte Carlo with the
/// default draws and seed and the scenario's [risk] ranges) for the workbook's Sensitivity and
/// Crossover sheets.
Sensitivity sensitivity_of(const ResolvedScenario& resolved, const Plan& plan) {
  SensitivityOptions options;
  options.risk_model = resolved.risk_model;
  options.threads = default_thread_count();  // the same figures on any number
  return analyse(resolved.plan_inputs, plan, options);
}

}  // namespace

int plan_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  po::options_description visible(
      "usage: gputco plan SCENARIO [options]\n\n"
      "Plans a scenario (.ini or .json; - reads standard input): fit and speed of every\n"
      "option, monthly cash flows, total cost, NPV, break-even hours and month, cost per\n"
      "million tokens. Writes a workbook and prints a summary. Defaults not in the scenario\n"
      "come from $XDG_CONFIG_HOME/gputco/config.ini (else ~/.config/gputco/config.ini).\n\n"
      "options");
  std::string output, catalog_path, scenario_path, format;
  std::vector<std::string> sets, unsets;
  bool json = false, quote = false, no_workbook = false, quiet = false;
  visible.add_options()("help,h", "this text")(
      "output,o", po::value(&output)->value_name("OUT.xlsx"),
      "workbook to write (default: the scenario's name with .xlsx, or -quote.xlsx with "
      "--quote, in the current directory)")("no-workbook", po::bool_switch(&no_workbook),
                                            "write no workbook (only the output)")(
      "format", po::value(&format)->value_name("FMT"),
      "what goes to stdout: text (the summary, default), json (the whole plan) or csv (one "
      "row per option, RFC 4180)")("json", po::bool_switch(&json), "the same as --format json")(
      "unset", po::value(&unsets)->value_name("SECTION.KEY")->composing(), kUnsetOptionHelp)(
      "set", po::value(&sets)->value_name("SECTION.KEY=VALUE")->composing(),
      "a value in place of the scenario's (repeatable), e.g. workload.hours_per_day=10 or "
      "option:rig.count=2; it wins over the file and the config file")(
      "quiet,q", po::bool_switch(&quiet),
      "print nothing but errors (and the output a --format asked for)")(
      "quote", po::bool_switch(&quote),
      "write the customer-facing workbook to attach to a quote (Cover, Summary, Assumptions, Sources; "
      "figures as values)")("catalog", po::value(&catalog_path)->value_name("DB"),
                            kCatalogOptionHelp);
  const auto vm = parse_arguments(args, visible, {{"scenario", &scenario_path}});
  if (vm.count("help")) {
    out << visible << "\n";
    return 0;
  }
  if (scenario_path.empty()) throw UsageError("plan: missing SCENARIO (see gputco plan --help)");
  format = output_format("plan", format, json, {"text", "json", "csv"});
  // -o "" (an unset shell variable) is a mistake, not a request for the default name.
  if (vm.count("output") && output.empty()) {
    throw UsageError("plan: --output is empty; give a file name ending in .xlsx");
  }
  if (no_workbook && (vm.count("output") || quote)) {
    throw UsageError(std::string("plan: --no-workbook and ") + (quote ? "--quote" : "--output") +
                     " disagree; give one of them");
  }
  if (!no_workbook && output.empty() && scenario_path == kStandardInputPath) {
    throw UsageError(
        "plan: the scenario comes from standard input, so the workbook has no name: give -o "
        "OUT.xlsx (or --no-workbook)");
  }
  if (!no_workbook && output.empty()) {
    output =
        std::filesystem::path(scenario_path).stem().string() + (quote ? "-quote.xlsx" : ".xlsx");
  }
  std::string extension = std::filesystem::path(output).extension().string();
  for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (!no_workbook && extension != ".xlsx") {  // Excel and LibreOffice take .XLSX as well
    throw UsageError("plan: --output must end in .xlsx, got '" + output + "'");
  }

  // Refused before any work: an output that would replace an input, a directory or a FIFO.
  std::vector<CommandInput> inputs = catalog_inputs(catalog_path);
  inputs.push_back({"the scenario", scenario_path});
  check_output_path(output, inputs);

  const Catalog catalog = open_catalog(catalog_path);
  const Scenario scenario = load_scenario(scenario_path, scenario_overrides(sets, unsets));
  const ResolvedScenario resolved = resolve(scenario, catalog);
  Plan plan = on_scenario(scenario, [&] { return make_plan(resolved.plan_inputs); });
  // What resolving assumed (a model file's notes, a context within RoPE scaling) leads.
  plan.warnings.insert(plan.warnings.begin(), resolved.warnings.begin(), resolved.warnings.end());
  // All or nothing: the workbook waits, complete in its temporary file, until standard output
  // has arrived; a failure of either leaves the old workbook as it was.
  std::optional<StagedFile> workbook;
  if (!no_workbook) {
    WorkbookOptions options;
    options.quote = quote;
    // The quote shows no Sensitivity sheet: no need to run it.
    std::optional<Sensitivity> sensitivity;
    if (!quote) {
      sensitivity = on_scenario(scenario, [&] { return sensitivity_of(resolved, plan); });
    }
    options.sensitivity = sensitivity ? &*sensitivity : nullptr;
    workbook.emplace(stage_workbook(plan, resolved, output, options));
  }
  if (format == "json") {
    out << plan_json(plan, resolved, json_stamp(catalog));
  } else if (format == "csv") {
    out << plan_csv(plan, resolved);
  } else if (!quiet) {
    out << plan_summary_text(plan, resolved);
    if (!no_workbook) out << "Workbook: " << output << "\n";
  }
  if (workbook) {
    flush_output(out);
    workbook->commit();
  }
  if (format != "text" && !no_workbook && !quiet)
    err << "workbook: " << visible_text(output) << "\n";
  return 0;
}

}  // namespace gputco::cli
