// The power limit an option's devices run under (issue #41 item 1): the option's power_limit_w,
// else its [device:] section's, into oi.device.power_limit_w, where the engine's speed (decode's
// fixed part and prefill at the compute share) and energy (the limit instead of the board
// power) read it (engine/hardware/power_limit.hpp).
#include <fmt/format.h>

#include <string>

#include "engine/base/error.hpp"
#include "engine/hardware/power_limit.hpp"
#include "scenarios/resolver.hpp"

namespace gputco::resolve_detail {

void Resolver::resolve_power_limit(const ScenarioOption& o, OptionInputs& oi,
                                   const std::string& section) {
  if (oi.kind == OptionKind::api) return;
  if (o.power_limit_w) oi.device.power_limit_w = *o.power_limit_w;
  if (oi.device.power_limit_w <= 0) return;
  PowerLimitEffect effect;
  try {
    effect = power_limit_effect(oi.device);
  } catch (const EngineError& e) {
    fail(section, "power_limit_w", e.what());
  }
  const std::string provenance = o.power_limit_w
                                     ? s_.provenance(file_section(o.id), "power_limit_w")
                                     : "[device:" + oi.device.id + "] power_limit_w";
  number(o.id, "power_limit_w", "Power limit per device (speed and energy)",
         oi.device.power_limit_w, "W", provenance);
  number(o.id, "power_limit_compute_share",
         "Compute share at the power limit (prefill rate; decode's fixed cost per layer)",
         effect.compute_share, "fraction",
         fmt::format(
             "engine/hardware/power_limit.cpp: the curve fitted on published power-limit sweeps "
             "at {:.0f} / {:.0f} W = {:.3f} of board power (modelled)",
             oi.device.power_limit_w, oi.device.board_power_w, effect.fraction));
  if (!effect.warning.empty()) oi.input_warnings.push_back(effect.warning);
}

}  // namespace gputco::resolve_detail
