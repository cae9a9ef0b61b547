// gputco catalog check [--catalog DB] [--as-of DATE] [--max-age DAYS]
#include <boost/program_options.hpp>
#include <filesystem>
#include <iostream>

#include "cli/catalog_actions.hpp"
#include "cli/catalog_open.hpp"
#include "cli/commands.hpp"
#include "pricing/catalog_check.hpp"

namespace po = boost::program_options;

namespace gputco::cli {

int catalog_check(const std::vector<std::string>& args, std::ostream& out, std::ostream&) {
  po::options_description visible(
      "usage: gputco catalog check [options]\n\n"
      "Integrity report of the built-in catalog and the user catalog: SQLite's integrity and\n"
      "foreign-key checks, spot rates above on-demand, amounts at or below 0.01 per device,\n"
      "implausible purchase prices (below 1/5 or above 5 x the median of the item's other\n"
      "observations in that currency; used above every new price within 92 days; one book\n"
      "with two amounts for the same item, condition, date and source; a row whose note says\n"
      "'plausibility reviewed:' is a note, not a problem), and, with --as-of, price-book\n"
      "prices older than --max-age days at that date. Exit code 0 when there is no problem,\n"
      "1 when there is.\n\n"
      "options");
  std::string catalog_path, as_of;
  int max_age = 90;
  visible.add_options()("help,h", "this text")(
      "catalog", po::value(&catalog_path)->value_name("DB"),
      "user catalog to check (default: the config file's [catalog] path, else the XDG one, if "
      "it exists)")("as-of", po::value(&as_of)->value_name("DATE"),
                    "check staleness at this date YYYY-MM-DD")(
      "max-age", po::value(&max_age)->value_name("DAYS"),
      "a price older than this at --as-of is stale (default 90)");
  auto vm = parse_arguments(args, visible, {});
  if (vm.count("help")) {
    out << visible << "\n";
    return 0;
  }
  if (!as_of.empty()) require_date_option("--as-of", as_of);
  if (max_age < 0) throw UsageError("catalog check: --max-age must be 0 or more days");

  std::vector<std::string> problems = builtin_catalog_problems();
  out << "built-in catalog: " << (problems.empty() ? "integrity ok, foreign keys ok" : "PROBLEMS")
      << "\n";
  std::string user = catalog_path.empty() ? configured_user_catalog_path() : catalog_path;
  std::error_code ec;
  const bool has_user = !user.empty() && std::filesystem::exists(user, ec);
  if (!catalog_path.empty() && !has_user) {
    throw UsageError("--catalog: " + catalog_path + ": cannot open catalog: no such file");
  }
  if (has_user) {
    auto file_problems = catalog_file_problems(user);
    out << "user catalog " << user << ": "
        << (file_problems.empty() ? "integrity ok, foreign keys ok" : "PROBLEMS") << "\n";
    problems.insert(problems.end(), file_problems.begin(), file_problems.end());
  } else {
    out << "user catalog: none" << (user.empty() ? "" : " at " + user) << "\n";
  }
  const Catalog catalog = open_catalog(has_user ? user : std::string());
  const auto books = catalog.books();
  if (!books.empty()) {
    out << "books:";
    for (const auto& b : books) out << " " << b;
    out << "\n";
  }
  const Catalog::Audit audit = catalog.audit(as_of, max_age);
  problems.insert(problems.end(), audit.problems.begin(), audit.problems.end());
  for (const auto& note : audit.notes) out << "note: " << note << "\n";
  for (const auto& problem : problems) out << "problem: " << problem << "\n";
  out << problems.size() << (problems.size() == 1 ? " problem" : " problems") << "\n";
  return problems.empty() ? 0 : 1;
}

}  // namespace gputco::cli
