// The actions of `gputco catalog`: list, show, import, export, check. Each takes the arguments
// after its name, writes to the given streams and returns the exit code; catalog_command
// dispatches to them.
#pragma once

#include <boost/program_options.hpp>
#include <iosfwd>
#include <string>
#include <vector>

namespace gputco::cli {

int catalog_list(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int catalog_show(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int catalog_import(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int catalog_export(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int catalog_check(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// Parses `args` against `visible` options plus the positional arguments named in
/// `positional` (each taking one value, stored into the matching string). Returns the
/// variables map; throws boost::program_options errors (exit 2 in main).
boost::program_options::variables_map parse_action(
    const std::vector<std::string>& args,
    const boost::program_options::options_description& visible,
    const std::vector<std::pair<const char*, std::string*>>& positional);

/// Throws UsageError unless `date` is YYYY-MM-DD; `option` names it in the message.
void require_date_option(const std::string& option, const std::string& date);

}  // namespace gputco::cli
