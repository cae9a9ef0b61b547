#include "cli/arguments.hpp"

#include <algorithm>

#include "cli/commands.hpp"
#include "pricing/suggest.hpp"

namespace po = boost::program_options;

namespace gputco::cli {

po::variables_map parse_arguments(
    const std::vector<std::string>& args, const po::options_description& visible,
    const std::vector<std::pair<const char*, std::string*>>& positional) {
  po::options_description all;
  all.add(visible);
  po::positional_options_description positions;
  for (const auto& [name, target] : positional) {
    all.add_options()(name, po::value(target));
    positions.add(name, 1);
  }
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(all).positional(positions).run(), vm);
  po::notify(vm);
  return vm;
}

std::string output_format(const std::string& command, const std::string& format, bool json,
                          const std::vector<std::string>& allowed) {
  if (json && !format.empty() && format != "json") {
    throw UsageError(command + ": --json and --format " + format + " disagree; give one of them");
  }
  const std::string chosen = json ? "json" : format.empty() ? allowed.front() : format;
  if (std::find(allowed.begin(), allowed.end(), chosen) == allowed.end()) {
    std::string list;
    for (size_t i = 0; i < allowed.size(); ++i) {
      list += (i == 0 ? "" : i + 1 == allowed.size() ? " or " : ", ") + allowed[i];
    }
    throw UsageError(command + ": --format must be " + list + ", got '" + chosen + "'" +
                     did_you_mean(chosen, allowed));
  }
  return chosen;
}

}  // namespace gputco::cli
