// gputco: buy or rent GPUs for serving a model, and when owning pays off.
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include <boost/program_options/errors.hpp>

#include "cli/commands.hpp"
#include "cli/terminal_output.hpp"
#include "engine/error.hpp"
#include "pricing/catalog.hpp"
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
    "  catalog list    list catalog devices, models, quants, prices, rentals, tariffs,\n"
    "                  API prices (apis), grid carbon intensities (carbon)\n"
    "  catalog show    a device's price history, each price dated with its source\n"
    "  catalog import  import a price file into a price book of the user catalog\n"
    "  catalog export  write a price book as CSV (importable again)\n"
    "  catalog check   integrity report of the built-in and user catalogs\n"
    "  sweep SCENARIO  plan again as one number varies: --vary KEY=FROM:TO:STEP\n"
    "  risk SCENARIO   Monte Carlo: how often buying beats renting, P10/P50/P90 of cost\n"
    "\n"
    "  --help          this text\n"
    "  --version       the version and the catalog schema\n"
    "\n"
    "exit codes: 0 success, 1 runtime failure, 2 bad usage or bad input\n";

/// An error's message for the terminal: values quoted from files and catalogs may hold
/// escape sequences or carriage returns, shown as escapes (lines kept).
std::string shown(const std::exception& e) {
  return gputco::visible_text(e.what(), true);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace gputco;
  std::vector<std::string> args(argv + 1, argv + argc);
  // On a terminal, escape sequences from scenarios and catalogs are shown, never obeyed.
  const cli::TerminalSafeOutput terminal_safe_stdout(std::cout, 1);
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
      std::cout << "gputco " << GPUTCO_VERSION << " (catalog schema "
                << Catalog::open_builtin().schema_version() << ")\n";
      return 0;
    }
    if (command == "plan") return cli::plan_command(rest, std::cout, std::cerr);
    if (command == "fit") return cli::fit_command(rest, std::cout, std::cerr);
    if (command == "catalog") return cli::catalog_command(rest, std::cout, std::cerr);
    if (command == "sweep") return cli::sweep_command(rest, std::cout, std::cerr);
    if (command == "risk") return cli::risk_command(rest, std::cout, std::cerr);
    std::cerr << "gputco: unknown command '" << command << "'\n\n" << kUsage;
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
  } catch (const CatalogError& e) {
    std::cerr << "catalog error: " << shown(e) << "\n";
    return 1;
  } catch (const OutputRefused& e) {
    std::cerr << "error: " << shown(e) << "\n";
    return 2;
  } catch (const ReportError& e) {
    std::cerr << "error: " << shown(e) << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "error: " << shown(e) << "\n";
    return 1;
  }
}
