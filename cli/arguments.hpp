// Command-line parsing shared by the subcommands.
#pragma once

#include <boost/program_options.hpp>
#include <string>
#include <utility>
#include <vector>

#include "cli/commands.hpp"
#include "pricing/suggest.hpp"
#include "scenarios/scenario.hpp"

namespace gputco::cli {

/// Parses `args` against `visible` options plus the positional arguments named in
/// `positional` (each taking one value, stored into the matching string, in order). Returns
/// the variables map; throws boost::program_options errors (exit 2 in main).
boost::program_options::variables_map parse_arguments(
    const std::vector<std::string>& args,
    const boost::program_options::options_description& visible,
    const std::vector<std::pair<const char*, std::string*>>& positional);

/// Throws UsageError "COMMAND: --OPTION: unknown id 'ID'; did you mean 'NEAREST'? (LIST)" for
/// an id none of `items` carries (id_of(item) gives each one's id; the hint is left out when
/// no id is near), LIST naming the command that lists them.
template <typename T, typename IdOf>
[[noreturn]] void unknown_id(const std::string& command, const std::string& option,
                             const std::string& id, const std::vector<T>& items, IdOf id_of,
                             const std::string& list) {
  std::vector<std::string> ids;
  for (const auto& item : items) ids.push_back(id_of(item));
  throw UsageError(command + ": --" + option + ": unknown id '" + id + "'" + did_you_mean(id, ids) +
                   " (" + list + ")");
}

/// The output format of `command` from --format FMT and --json (its short form): FMT, "json"
/// for --json alone, `allowed.front()` when neither is given. Throws UsageError (exit 2)
/// when FMT is not in `allowed` (naming the nearest) or disagrees with --json.
std::string output_format(const std::string& command, const std::string& format, bool json,
                          const std::vector<std::string>& allowed);

}  // namespace gputco::cli
