// The --power-limit W argument of the commands that estimate one device (fit --gpu,
// throughput): a power limit per card, as nvidia-smi -pl sets it (engine/hardware/power_limit.hpp).
#pragma once

#include <iosfwd>
#include <string>

#include "engine/hardware/hardware.hpp"

namespace gputco::cli {

/// `watts` as the power limit of `device` for `command`, checked by the engine
/// (power_limit_effect): returned when accepted, with the engine's warning written to `err`
/// ("warning: ...") below 60 % of board power. Throws UsageError (exit 2) "COMMAND:
/// --power-limit: ..." when the limit is above the board power, below a quarter of it, or the
/// device has no board power.
double power_limit_argument(const std::string& command, const Device& device, double watts,
                            std::ostream& err);

}  // namespace gputco::cli
