// The subcommands. Each takes its own arguments (after the subcommand name), writes to
// the given streams and returns the process exit code; errors propagate as exceptions to
// main, the one place that maps them to exit codes.
#pragma once

#include <iosfwd>
#include <stdexcept>
#include <string>
#include <vector>

namespace gputco::cli {

/// Bad command-line usage (unknown option, missing argument): exit code 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

int plan_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int fit_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int catalog_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace gputco::cli
