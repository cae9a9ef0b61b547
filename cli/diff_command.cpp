// gputco diff OLD NEW [--format text|json|markdown] [--json] [--catalog DB]
#include <boost/program_options.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/arguments.hpp"
#include "cli/catalog_open.hpp"
#include "cli/commands.hpp"
#include "engine/base/error.hpp"
#include "engine/plan/plan.hpp"
#include "engine/plan/plan_diff.hpp"
#include "reports/diff_report.hpp"
#include "reports/plan_snapshot.hpp"
#include "scenarios/resolve.hpp"
#include "scenarios/scenario.hpp"

namespace po = boost::program_options;

namespace gputco::cli {
namespace {

/// A plan's JSON larger than this is not one gputco wrote (a plan of the most options over
/// the longest horizon is a few MiB).
constexpr std::uintmax_t kMaxPlanJsonBytes = 256u * 1024 * 1024;

/// The text of a .json file, or "" for another extension (a scenario to plan).
std::string json_text(const std::string& path) {
  std::string extension = std::filesystem::path(path).extension().string();
  for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (extension != ".json") return "";
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) return "";  // the scenario reader says why
  if (std::filesystem::file_size(path, error) > kMaxPlanJsonBytes) {
    throw UsageError("diff: " + path + ": larger than 256 MiB: not a plan's JSON");
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// OLD or NEW: a plan's JSON (gputco plan --json) read back, or a scenario planned now.
PlanSnapshot snapshot_of(const std::string& path, const std::string& catalog_path) {
  const std::string text = json_text(path);
  if (!text.empty() && is_plan_json(text)) {
    try {
      return plan_snapshot_from_json(text, path);
    } catch (const PlanJsonError& e) {
      throw UsageError("diff: " + path + ": not a plan's JSON (gputco plan --json): " + e.what());
    }
  }
  const Catalog catalog = open_catalog(catalog_path);
  const Scenario scenario = load_scenario(path);
  const ResolvedScenario resolved = resolve(scenario, catalog);
  const Plan plan = on_scenario(scenario, [&] { return make_plan(resolved.plan_inputs); });
  return plan_snapshot(plan, resolved, path);
}

}  // namespace

int diff_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& /*err*/) {
  po::options_description visible(
      "usage: gputco diff OLD NEW [options]\n\n"
      "Compares two plans: what changed in the inputs, each option's total cost and NPV, and\n"
      "the recommendation. OLD and NEW are scenarios (.ini or .json, planned now) or plans'\n"
      "JSON (written by gputco plan --json). Writes no workbook.\n\noptions");
  std::string format, catalog_path, old_path, new_path;
  bool json = false;
  visible.add_options()("help,h", "this text")(
      "format", po::value(&format)->value_name("FMT"),
      "text (the default), json, or markdown (a pull request, an e-mail)")(
      "json", po::bool_switch(&json), "the same as --format json")(
      "catalog", po::value(&catalog_path)->value_name("DB"),
      "catalog database to plan scenarios with instead of the built-in one (opened read-only)");
  const auto vm = parse_arguments(args, visible, {{"old", &old_path}, {"new", &new_path}});
  if (vm.count("help")) {
    out << visible << "\n";
    return 0;
  }
  if (old_path.empty() || new_path.empty()) {
    throw UsageError("diff: give two files, OLD and NEW (see gputco diff --help)");
  }
  if (json) {
    if (!format.empty() && format != "json") {
      throw UsageError("diff: --json and --format " + format + " disagree; give one of them");
    }
    format = "json";
  }
  if (format.empty()) format = "text";
  if (format != "text" && format != "json" && format != "markdown") {
    throw UsageError("diff: --format must be text, json or markdown, got '" + format + "'");
  }
  const PlanSnapshot before = snapshot_of(old_path, catalog_path);
  const PlanSnapshot after = snapshot_of(new_path, catalog_path);
  PlanDiff diff;
  try {
    diff = diff_plans(before, after);
  } catch (const EngineError& e) {
    throw UsageError(std::string("diff: ") + e.what());
  }
  out << (format == "json"       ? diff_json(diff)
          : format == "markdown" ? diff_markdown(diff)
                                 : diff_text(diff));
  return 0;
}

}  // namespace gputco::cli
