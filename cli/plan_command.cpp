// gputco plan SCENARIO [-o OUT.xlsx] [--format text|json|csv] [--json] [--quote] [--catalog DB]
#include <boost/program_options.hpp>
#include <cctype>
#include <filesystem>
#include <iostream>
#include <optional>

#include "cli/arguments.hpp"
#include "cli/catalog_open.hpp"
#include "cli/commands.hpp"
#include "engine/plan.hpp"
#include "engine/sensitivity.hpp"
#include "pricing/input_file.hpp"
#include "reports/csv_report.hpp"
#include "reports/json_report.hpp"
#include "reports/text_report.hpp"
#include "reports/xlsx_report.hpp"
#include "scenarios/resolve.hpp"
#include "scenarios/scenario.hpp"

namespace po = boost::program_options;

namespace gputco::cli {
namespace {

/// The engine's sensitivity run (tornado, utilization sweep, seeded Monte Carlo with the
/// default draws and seed) for the workbook's Sensitivity and Crossover sheets.
Sensitivity sensitivity_of(const PlanInputs& inputs, const Plan& plan) {
  return analyse(inputs, plan);
}

}  // namespace

int plan_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  po::options_description visible(
      "usage: gputco plan SCENARIO [options]\n\n"
      "Plans a scenario (.ini or .json): fit and speed of every option, monthly cash flows,\n"
      "total cost, NPV, break-even hours and month, cost per million tokens. Writes a\n"
      "workbook and prints a summary.\n\noptions");
  std::string output, catalog_path, scenario_path, format;
  bool json = false;
  bool quote = false;
  visible.add_options()("help,h", "this text")(
      "output,o", po::value(&output)->value_name("OUT.xlsx"),
      "workbook to write (default: the scenario's name with .xlsx, or -quote.xlsx with "
      "--quote, in the current directory)")(
      "format", po::value(&format)->value_name("FMT"),
      "what goes to stdout: text (the summary, default), json (the whole plan) or csv (one "
      "row per option, RFC 4180)")("json", po::bool_switch(&json), "the same as --format json")(
      "quote", po::bool_switch(&quote),
      "write the customer-facing workbook to attach to a quote (Cover, Summary, Sources; "
      "figures as values)")("catalog", po::value(&catalog_path)->value_name("DB"),
                            "catalog database to use instead of the built-in one (opened "
                            "read-only)");
  const auto vm = parse_arguments(args, visible, {{"scenario", &scenario_path}});
  if (vm.count("help")) {
    out << visible << "\n";
    return 0;
  }
  if (scenario_path.empty()) throw UsageError("plan: missing SCENARIO (see gputco plan --help)");
  if (json) {
    if (!format.empty() && format != "json") {
      throw UsageError("plan: --json and --format " + format + " disagree; give one of them");
    }
    format = "json";
  }
  if (format.empty()) format = "text";
  if (format != "text" && format != "json" && format != "csv") {
    throw UsageError("plan: --format must be text, json or csv, got '" + format + "'");
  }
  // -o "" (an unset shell variable) is a mistake, not a request for the default name.
  if (vm.count("output") && output.empty()) {
    throw UsageError("plan: --output is empty; give a file name ending in .xlsx");
  }
  if (output.empty() && is_standard_input(scenario_path)) {
    throw UsageError("plan: the scenario comes from standard input; name the workbook with -o");
  }
  if (output.empty()) {
    output =
        std::filesystem::path(scenario_path).stem().string() + (quote ? "-quote.xlsx" : ".xlsx");
  }
  std::string extension = std::filesystem::path(output).extension().string();
  for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (extension != ".xlsx") {  // Excel and LibreOffice take .XLSX as well
    throw UsageError("plan: --output must end in .xlsx, got '" + output + "'");
  }

  // Refused before any work: an output that would replace an input, a directory or a FIFO.
  std::vector<CommandInput> inputs = catalog_inputs(catalog_path);
  inputs.push_back({"the scenario", scenario_path});
  check_output_path(output, inputs);

  const Catalog catalog = open_catalog(catalog_path);
  const Scenario scenario = load_scenario(scenario_path);
  const ResolvedScenario resolved = resolve(scenario, catalog);
  Plan plan = on_scenario(scenario_path, [&] { return make_plan(resolved.plan_inputs); });
  // What resolving assumed (a model file's notes, a context within RoPE scaling) leads.
  plan.warnings.insert(plan.warnings.begin(), resolved.warnings.begin(), resolved.warnings.end());
  WorkbookOptions options;
  options.quote = quote;
  // The quote shows no Sensitivity sheet: no need to run it.
  std::optional<Sensitivity> sensitivity;
  if (!quote) {
    sensitivity =
        on_scenario(scenario_path, [&] { return sensitivity_of(resolved.plan_inputs, plan); });
  }
  options.sensitivity = sensitivity ? &*sensitivity : nullptr;
  write_workbook(plan, resolved, output, options);
  if (format == "json") {
    out << plan_json(plan, resolved);
    err << "workbook: " << output << "\n";
  } else if (format == "csv") {
    out << plan_csv(plan, resolved);
    err << "workbook: " << output << "\n";
  } else {
    out << plan_summary_text(plan, resolved) << "Workbook: " << output << "\n";
  }
  return 0;
}

}  // namespace gputco::cli
