// gputco: buy or rent GPUs for serving a model, and when owning pays off.
#include <cerrno>
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include <boost/program_options/errors.hpp>

#include "cli/commands.hpp"
#include "cli/terminal_output.hpp"
#include "engine/base/error.hpp"
#include "gputco_version.hpp"
#include "pricing/catalog.hpp"
#include "pricing/suggest.hpp"
#include "pricing/visible_text.hpp"
#include "reports/atomic_file.hpp"
#include "scenarios/scenario.hpp"

namespace {

constexpr const char* kUsage =
    "gputco: buy GPUs (new or used) or rent them, and when owning pays off.\n"
    "\n"
    "usage: gputco COMMAND [options]\n"
    "\n"
    "commands:\n"
    "  plan SCENARIO   plan a scenario: fit, speed, monthly costs, NPV, break-even; writes a\n"
    "                  workbook and prints a summary (gputco plan --help)\n"
    "  fit             does a model fit on a device, and how fast (gputco fit --help)\n"
    "  catalog list    list the catalog: gpus (or devices), models, quants, systems,\n"
    "                  prices, rentals, tariffs, apis (API prices), carbon (grid intensity)\n"
    "  catalog show    a device's price history, each price dated with its source\n"
    "  catalog import  import a price file into a price book of the user catalog\n"
    "  catalog export  write a price book as CSV (importable again)\n"
    "  catalog check   integrity report of the built-in and user catalogs\n"
    "  sweep SCENARIO  plan again as one number varies: --vary KEY=FROM:TO:STEP\n"
    "  risk SCENARIO   Monte Carlo: how often buying beats renting, P10/P50/P90 of cost\n"
    "  throughput      serving throughput of a model on a box of GPUs with an engine\n"
    "                  (vLLM, SGLang, TensorRT-LLM, llama.cpp) at a batch or latency target\n"
    "  calibrate FILE  store your serving benchmark runs (vLLM, SGLang, TensorRT-LLM,\n"
    "                  genai-perf, llama-bench): the serving model refits itself to them\n"
    "  diff OLD NEW    two scenarios or plans' JSON side by side: inputs, costs, the\n"
    "                  recommendation, as text, JSON or Markdown (gputco diff --help)\n"
    "\n"
    "  --help          this text\n"
    "  --version       the version and the catalog schema\n"
    "\n"
    "defaults: $XDG_CONFIG_HOME/gputco/config.ini (else ~/.config/gputco/config.ini)\n"
    "exit codes: 0 success, 1 runtime failure, 2 bad usage or bad input\n"
    "manual: man gputco, man 5 gputco-scenario\n";

/// An error's message for the terminal: values quoted from files and catalogs may hold
/// escape sequences or carriage returns, shown as escapes (lines kept).
std::string shown(const std::exception& e) {
  return gputco::visible_text(e.what(), true);
}

/// Set once the loss of standard output was reported (a command's flush_output): main's last
/// check does not say it twice.
bool output_loss_reported = false;

/// Runs the command of `args` and returns its exit code; every error becomes its message on
/// stderr and its exit code here (0 success, 1 runtime failure, 2 bad usage or bad input).
int run(const std::vector<std::string>& args) {
  using namespace gputco;
  try {
    if (args.empty()) {
      std::cerr << kUsage;
      return 2;
    }
    const std::string command = args.front();
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (command == "--help" || command == "-h" || command == "help") {
      std::cout << kUsage;
      return 0;
    }
    if (command == "--version") {
      std::cout << "gputco " << kGputcoVersion << " (catalog schema "
                << Catalog::open_builtin().schema_version() << ")\n";
      return 0;
    }
    if (command == "plan") return cli::plan_command(rest, std::cout, std::cerr);
    if (command == "fit") return cli::fit_command(rest, std::cout, std::cerr);
    if (command == "catalog") return cli::catalog_command(rest, std::cout, std::cerr);
    if (command == "sweep") return cli::sweep_command(rest, std::cout, std::cerr);
    if (command == "risk") return cli::risk_command(rest, std::cout, std::cerr);
    if (command == "throughput") return cli::throughput_command(rest, std::cout, std::cerr);
    if (command == "diff") return cli::diff_command(rest, std::cout, std::cerr);
    if (command == "calibrate") return cli::calibrate_command(rest, std::cout, std::cerr);
    std::cerr << "gputco: unknown command '" << gputco::visible_text(command) << "'"
              << did_you_mean(command, {"plan", "fit", "catalog", "sweep", "risk", "diff",
                                        "throughput", "calibrate"})
              << "\n\n"
              << kUsage;
    return 2;
  } catch (const cli::UsageError& e) {
    std::cerr << "gputco: " << shown(e) << "\n";
    return 2;
  } catch (const boost::program_options::error& e) {
    std::cerr << "gputco: " << shown(e) << " (see --help)\n";
    return 2;
  } catch (const ScenarioError& e) {
    std::cerr << "error: " << shown(e) << "\n";
    return 2;
  } catch (const EngineError& e) {
    std::cerr << "error: " << shown(e) << "\n";
    return 2;
  } catch (const CatalogFileInvalid& e) {
    std::cerr << "catalog error: " << shown(e) << "\n";
    return 2;  // the file named as a catalog is not one: bad input
  } catch (const CatalogError& e) {
    std::cerr << "catalog error: " << shown(e) << "\n";
    return 1;
  } catch (const cli::OutputLost& e) {
    std::cerr << "gputco: " << shown(e) << "\n";
    output_loss_reported = true;
    return 1;
  } catch (const OutputRefused& e) {
    std::cerr << "error: " << shown(e) << "\n";
    return 2;
  } catch (const ReportError& e) {
    std::cerr << "error: " << shown(e) << "\n";
    return 1;
  } catch (const std::bad_alloc&) {
    // Anywhere: a runtime failure with a message, never "std::bad_alloc" (issue #39). The
    // outputs are written to temporary files that their owners remove on the way here.
    std::cerr << "error: out of memory; free memory or raise the limit (ulimit -v) and run "
                 "again\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "error: " << shown(e) << "\n";
    return 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  int code = 0;
  {
    // On a terminal, escape sequences from scenarios and catalogs are shown, never obeyed;
    // the filter hands the rest to standard output's own buffer when it goes.
    const gputco::cli::TerminalSafeOutput terminal_safe_stdout(std::cout, 1);
    code = run(std::vector<std::string>(argv + 1, argv + argc));
  }
  // Output that never arrived is a failure (a full disk, a closed pipe, > /dev/full): what
  // the command wrote is still in the buffer, so flush it and look.
  errno = 0;
  std::cout.flush();
  if (!std::cout) {
    if (!output_loss_reported)
      std::cerr << "gputco: " << shown(gputco::cli::OutputLost(errno)) << "\n";
    return code == 0 ? 1 : code;
  }
  return code;
}
