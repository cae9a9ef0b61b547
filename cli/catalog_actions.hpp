// The actions of `gputco catalog`: list, show, import, export, check. Each takes the arguments
// after its name, writes to the given streams and returns the exit code; catalog_command
// dispatches to them.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "cli/arguments.hpp"

namespace gputco::cli {

int catalog_list(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int catalog_show(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int catalog_import(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int catalog_export(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int catalog_check(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// Throws UsageError unless `date` is YYYY-MM-DD; `option` names it in the message.
void require_date_option(const std::string& option, const std::string& date);

}  // namespace gputco::cli
