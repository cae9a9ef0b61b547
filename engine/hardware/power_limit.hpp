// A card run under a power limit (nvidia-smi -pl, rocm-smi --setpoweroverdrive): what it costs
// in speed, and what it saves in energy.
//
// Model: a power limit lowers the core clock, not the memory clock (the sweeps that log both:
// an RTX 3090 from 350 W to 250 W keeps its memory at 9,501 MHz while the core falls from
// 1,710 to 1,395 MHz). So
// - prefill (compute bound, DOMAIN S12) runs at the compute share c(p) of its stock rate, p =
//   limit / board power, c read off a piecewise-linear curve whose knots are fitted by least
//   squares on published prefill and compute sweeps (tests/data/reference/power_limit_measured.csv,
//   each row with its source; fit_power_curve recomputes them);
// - a llama.cpp decode step keeps its memory-bound part (bytes / bandwidth: the memory clock
//   holds) and pays its fixed part (kernel launches and the small latency-bound kernels that
//   run at the core clock, calibration.hpp's layer costs) 1 / c(p) times over. Decode thus
//   loses far less than the power cut, and a small model on a fast card (whose fixed part is
//   a third of its step) loses more than a large one (DOMAIN S10; the RTX PRO 6000 row). The
//   decode rows of the same file are not fitted: they check this.
// - the energy of a unit at load is counted at the limit instead of the board power.
#pragma once

#include <string>
#include <vector>

#include "engine/hardware/hardware.hpp"

namespace gputco {

/// The share of board power below which no limit is accepted: 0.25. The sweeps reach 0.29 of
/// an RTX 3090's 350 W (its driver's floor is 100 W); vendors' floors lie near a third.
double power_limit_floor_fraction();

/// The share of board power below which the published sweeps disagree (0.6): an RTX 3090 at
/// 200 W (0.57) decoded a dense 27B model at 64 % of its stock speed in one sweep and a
/// layer-split MoE model at 94 % in another. Below it an estimate warns.
double power_limit_reliable_fraction();

/// The compute share c(p) a card keeps at `fraction` = power limit / board power: 1 at or
/// above 1, the piecewise-linear curve below (power_curve_knots), never below its lowest knot's
/// value. Throws EngineError when fraction is not finite or below power_limit_floor_fraction.
double power_limit_compute_share(double fraction);

/// One knot of the curve: the compute share at a fraction of board power.
struct PowerCurveKnot {
  double fraction = 0;
  double compute_share = 0;
};

/// The compiled curve, lowest fraction first; the last knot is (1, 1). Never throws.
const std::vector<PowerCurveKnot>& power_curve_knots();

/// What a device's power limit does to one estimate, factors against the stock card.
struct PowerLimitEffect {
  bool limited = false;      ///< the device has a limit below its board power
  double fraction = 1;       ///< limit / board power (1 when not limited)
  double compute_share = 1;  ///< c(fraction): prefill rate and the fixed part of a decode step
  double load_power_w = 0;   ///< power at load: the limit, else the board power (0: unknown)
  std::string warning;       ///< below power_limit_reliable_fraction: says why; else ""
};

/// The effect of `device.power_limit_w` (0 = none). Throws EngineError naming the device when
/// a limit is set and the board power is unknown (0: nothing to scale), the limit is above the
/// board power (a higher limit does not make decode faster: describe the card with its own
/// board_power_w), or below power_limit_floor_fraction of it.
PowerLimitEffect power_limit_effect(const Device& device);

/// The power a unit of `device` draws at load, W: its power limit when it has one, else its
/// board power (0 = unknown). What energy, CO2e and the workbook's board_power_w input use.
/// Never throws (an invalid limit is refused where it is set).
double load_power_w(const Device& device);

/// `device` as the serving model's two roofs see it under its power limit: every tensor peak
/// (fp16, fp8, fp4 TFLOPS) x the compute share, the bandwidth as it is (the memory clock holds),
/// board power = the limit, and no limit left to apply again. The serving model has no fixed
/// part per layer to scale, so a limit there slows compute-bound steps and prefill only.
/// Throws like power_limit_effect.
Device with_power_limit_applied(const Device& device);

/// One measured point of a power-limit sweep, reduced to what the fit needs.
struct PowerSample {
  double fraction = 0;  ///< limit / board power
  double share = 0;     ///< measured rate at the limit / measured rate at board power
};

/// Least squares over the knot values of a piecewise-linear curve through `fractions`
/// (ascending, the last 1.0, whose value is fixed at 1): minimises sum (curve(p_i) - s_i)^2.
/// Returns the knots. Throws EngineError on fewer samples than free knots, a sample outside
/// [first fraction, 1], a degenerate system (a segment without samples), or a fitted curve
/// that is not non-decreasing in the fraction.
std::vector<PowerCurveKnot> fit_power_curve(const std::vector<PowerSample>& samples,
                                            const std::vector<double>& fractions);

/// The curve through `knots` at `fraction` (linear between knots, 1 above the last, the first
/// knot's value below it). Throws EngineError on an empty curve.
double power_curve_at(const std::vector<PowerCurveKnot>& knots, double fraction);

}  // namespace gputco
