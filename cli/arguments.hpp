// Command-line parsing shared by the subcommands.
#pragma once

#include <boost/program_options.hpp>
#include <string>
#include <utility>
#include <vector>

namespace gputco::cli {

/// Parses `args` against `visible` options plus the positional arguments named in
/// `positional` (each taking one value, stored into the matching string, in order). Returns
/// the variables map; throws boost::program_options errors (exit 2 in main).
boost::program_options::variables_map parse_arguments(
    const std::vector<std::string>& args,
    const boost::program_options::options_description& visible,
    const std::vector<std::pair<const char*, std::string*>>& positional);

/// The output format of `command` from --format FMT and --json (its short form): FMT, "json"
/// for --json alone, `allowed.front()` when neither is given. Throws UsageError (exit 2)
/// when FMT is not in `allowed` (naming the nearest) or disagrees with --json.
std::string output_format(const std::string& command, const std::string& format, bool json,
                          const std::vector<std::string>& allowed);

}  // namespace gputco::cli
