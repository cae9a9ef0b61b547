#include "cli/arguments.hpp"

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

}  // namespace gputco::cli
