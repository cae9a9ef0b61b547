// gputco plan SCENARIO [-o OUT.xlsx] [--json] [--catalog DB]
#include <boost/program_options.hpp>
#include <filesystem>
#include <iostream>

#include "cli/catalog_open.hpp"
#include "cli/commands.hpp"
#include "engine/plan.hpp"
#include "reports/json_report.hpp"
#include "reports/text_report.hpp"
#include "reports/xlsx_report.hpp"
#include "scenarios/resolve.hpp"
#include "scenarios/scenario.hpp"

namespace po = boost::program_options;

namespace gputco::cli {

int plan_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  po::options_description visible(
      "usage: gputco plan SCENARIO [options]\n\n"
      "Plans a scenario (.ini or .json): fit and speed of every option, monthly cash flows,\n"
      "total cost, NPV, break-even hours and month, cost per million tokens. Writes a\n"
      "workbook and prints a summary.\n\noptions");
  std::string output, catalog_path, scenario_path;
  bool json = false;
  visible.add_options()("help,h", "this text")(
      "output,o", po::value(&output)->value_name("OUT.xlsx"),
      "workbook to write (default: the scenario's name with .xlsx, in the current directory)")(
      "json", po::bool_switch(&json), "print JSON on stdout instead of the summary")(
      "catalog", po::value(&catalog_path)->value_name("DB"),
      "catalog database to use instead of the built-in one (opened read-only)");
  po::options_description all;
  all.add(visible).add_options()("scenario", po::value(&scenario_path));
  po::positional_options_description positional;
  positional.add("scenario", 1);
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(all).positional(positional).run(), vm);
  po::notify(vm);
  if (vm.count("help")) {
    out << visible << "\n";
    return 0;
  }
  if (scenario_path.empty()) throw UsageError("plan: missing SCENARIO (see gputco plan --help)");
  if (output.empty()) {
    output = std::filesystem::path(scenario_path).stem().string() + ".xlsx";
  }
  if (std::filesystem::path(output).extension() != ".xlsx") {
    throw UsageError("plan: --output must end in .xlsx, got '" + output + "'");
  }

  const Catalog catalog = open_catalog(catalog_path);
  const Scenario scenario = load_scenario(scenario_path);
  const ResolvedScenario resolved = resolve(scenario, catalog);
  const Plan plan = make_plan(resolved.plan_inputs);
  write_workbook(plan, resolved, output);
  if (json) {
    out << plan_json(plan, resolved);
    err << "workbook: " << output << "\n";
  } else {
    out << plan_summary_text(plan, resolved) << "Workbook: " << output << "\n";
  }
  return 0;
}

}  // namespace gputco::cli
