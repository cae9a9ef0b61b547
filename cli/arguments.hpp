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

}  // namespace gputco::cli
