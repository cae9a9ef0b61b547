#include "cli/power_limit_argument.hpp"

#include <ostream>

#include "cli/commands.hpp"
#include "engine/base/error.hpp"
#include "engine/hardware/power_limit.hpp"

namespace gputco::cli {

double power_limit_argument(const std::string& command, const Device& device, double watts,
                            std::ostream& err) {
  Device limited = device;
  limited.power_limit_w = watts;
  try {
    if (!(watts > 0)) throw EngineError("must be a power in W above 0");
    const PowerLimitEffect effect = power_limit_effect(limited);
    if (!effect.warning.empty()) err << "warning: " << effect.warning << "\n";
  } catch (const EngineError& e) {
    throw UsageError(command + ": --power-limit: " + e.what());
  }
  return watts;
}

}  // namespace gputco::cli
