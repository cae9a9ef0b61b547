#include "engine/hardware/power_limit.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <utility>

#include "engine/base/error.hpp"

namespace gputco {

namespace {

constexpr double kFloorFraction = 0.25;
constexpr double kReliableFraction = 0.6;

// Fitted by fit_power_curve on the compute rows (metric prefill or compute) of
// tests/data/reference/power_limit_measured.csv at the fractions below: an RTX PRO 6000 at 300 of
// 600 W (pp512 0.770 of stock), six RTX 3090 at 300-100 of 350 W (prefill 0.943 to 0.141) and four
// RTX 3090 at 280 W (TensorFlow training, "over 95 %"). The test PowerLimit.curveMatchesTheSweeps
// recomputes them. Residuals: within 5 % at 0.7 and above; the RTX PRO 6000 at 0.5 is 26 % below
// the curve and the RTX 3090 at 0.57 and 0.43 23 % and 32 % above it: below 0.6 cards differ by
// how much of their board power the memory takes (GDDR6X on the 3090), which one curve cannot say.
const std::vector<PowerCurveKnot>& compiled_knots() {
  static const std::vector<PowerCurveKnot> knots{{0.25, 0.1060}, {0.40, 0.2509}, {0.55, 0.7248},
                                                 {0.70, 0.8294}, {0.85, 0.9637}, {1.00, 1.0}};
  return knots;
}

// Solves the k x k system a x = b by Gaussian elimination with partial pivoting; false when a
// pivot vanishes against the matrix's scale.
bool solve(std::vector<std::vector<double>> a, std::vector<double> b, std::vector<double>& x) {
  const std::size_t k = b.size();
  double scale = 0;
  for (const auto& row : a) {
    for (double v : row) scale = std::max(scale, std::abs(v));
  }
  for (std::size_t c = 0; c < k; ++c) {
    std::size_t p = c;
    for (std::size_t r = c + 1; r < k; ++r) {
      if (std::abs(a[r][c]) > std::abs(a[p][c])) p = r;
    }
    if (std::abs(a[p][c]) <= 1e-12 * scale) return false;
    std::swap(a[p], a[c]);
    std::swap(b[p], b[c]);
    for (std::size_t r = 0; r < k; ++r) {
      if (r == c) continue;
      const double f = a[r][c] / a[c][c];
      for (std::size_t j = c; j < k; ++j) a[r][j] -= f * a[c][j];
      b[r] -= f * b[c];
    }
  }
  x.resize(k);
  for (std::size_t c = 0; c < k; ++c) x[c] = b[c] / a[c][c];
  return true;
}

// The hat-function weights of `fraction` on the knots' fractions.
std::vector<double> hat_weights(const std::vector<double>& fractions, double fraction) {
  std::vector<double> w(fractions.size(), 0.0);
  for (std::size_t i = 0; i + 1 < fractions.size(); ++i) {
    const double lo = fractions[i], hi = fractions[i + 1];
    if (fraction >= lo && fraction <= hi) {
      const double t = (fraction - lo) / (hi - lo);
      w[i] = 1 - t;
      w[i + 1] = t;
      return w;
    }
  }
  return w;
}

std::string device_name(const Device& d) {
  return d.id.empty() ? std::string("device") : "device " + d.id;
}

}  // namespace

double power_limit_floor_fraction() {
  return kFloorFraction;
}

double power_limit_reliable_fraction() {
  return kReliableFraction;
}

const std::vector<PowerCurveKnot>& power_curve_knots() {
  return compiled_knots();
}

double power_curve_at(const std::vector<PowerCurveKnot>& knots, double fraction) {
  GPUTCO_REQUIRE(!knots.empty(), "a power curve needs at least one knot");
  if (fraction >= knots.back().fraction) return knots.back().compute_share;
  if (fraction <= knots.front().fraction) return knots.front().compute_share;
  for (std::size_t i = 0; i + 1 < knots.size(); ++i) {
    const PowerCurveKnot& lo = knots[i];
    const PowerCurveKnot& hi = knots[i + 1];
    if (fraction <= hi.fraction) {
      const double t = (fraction - lo.fraction) / (hi.fraction - lo.fraction);
      return lo.compute_share + t * (hi.compute_share - lo.compute_share);
    }
  }
  return knots.back().compute_share;
}

double power_limit_compute_share(double fraction) {
  GPUTCO_REQUIRE(
      std::isfinite(fraction) && fraction >= kFloorFraction,
      "a power limit must be at least " << kFloorFraction << " of board power, got " << fraction);
  return power_curve_at(compiled_knots(), fraction);
}

PowerLimitEffect power_limit_effect(const Device& device) {
  PowerLimitEffect e;
  e.load_power_w = device.board_power_w > 0 ? device.board_power_w : 0;
  if (device.power_limit_w <= 0) return e;
  GPUTCO_REQUIRE(std::isfinite(device.power_limit_w),
                 device_name(device)
                     << ": power limit must be a number of W, got " << device.power_limit_w);
  GPUTCO_REQUIRE(device.board_power_w > 0,
                 device_name(device) << ": a power limit of " << device.power_limit_w
                                     << " W needs the board power it limits (board_power_w)");
  GPUTCO_REQUIRE(device.power_limit_w <= device.board_power_w,
                 device_name(device)
                     << ": power limit " << device.power_limit_w << " W is above its board power "
                     << device.board_power_w
                     << " W; a higher limit does not make decode faster (describe a card sold "
                        "with a higher board power in a [device:] section)");
  e.fraction = device.power_limit_w / device.board_power_w;
  GPUTCO_REQUIRE(e.fraction >= kFloorFraction,
                 device_name(device)
                     << ": power limit " << device.power_limit_w << " W is below "
                     << kFloorFraction * 100 << " % of its board power " << device.board_power_w
                     << " W (" << kFloorFraction * device.board_power_w
                     << " W): no card allows it and no sweep measures it");
  e.limited = e.fraction < 1;
  e.compute_share = power_limit_compute_share(e.fraction);
  e.load_power_w = device.power_limit_w;
  if (e.fraction < kReliableFraction) {
    std::ostringstream w;
    w << device_name(device) << " at " << device.power_limit_w << " W is "
      << std::lround(e.fraction * 100) << " % of its board power " << device.board_power_w
      << " W: below " << std::lround(kReliableFraction * 100)
      << " % the published sweeps disagree (an RTX 3090 at 57 % decoded at 64 % of its speed in "
         "one, 94 % in another), read its speed as uncertain";
    e.warning = w.str();
  }
  return e;
}

double load_power_w(const Device& device) {
  if (device.power_limit_w > 0 && device.board_power_w > 0 &&
      device.power_limit_w < device.board_power_w) {
    return device.power_limit_w;
  }
  return device.board_power_w;
}

Device with_power_limit_applied(const Device& device) {
  const PowerLimitEffect e = power_limit_effect(device);
  Device d = device;
  d.power_limit_w = 0;
  if (!e.limited) return d;
  d.fp16_tflops *= e.compute_share;
  d.fp8_tflops *= e.compute_share;
  d.fp4_tflops *= e.compute_share;
  d.board_power_w = e.load_power_w;
  return d;
}

std::vector<PowerCurveKnot> fit_power_curve(const std::vector<PowerSample>& samples,
                                            const std::vector<double>& fractions) {
  GPUTCO_REQUIRE(fractions.size() >= 2 && fractions.back() == 1.0,
                 "a power curve needs at least two knots, the last at 1.0");
  for (std::size_t i = 0; i + 1 < fractions.size(); ++i) {
    GPUTCO_REQUIRE(fractions[i] < fractions[i + 1], "power curve knots must ascend");
  }
  const std::size_t k = fractions.size() - 1;  // free knots; the last is fixed at 1
  GPUTCO_REQUIRE(samples.size() >= k, "a power curve of " << k << " free knots needs at least " << k
                                                          << " samples, got " << samples.size());
  std::vector<std::vector<double>> a(k, std::vector<double>(k, 0));
  std::vector<double> b(k, 0);
  for (const PowerSample& s : samples) {
    GPUTCO_REQUIRE(std::isfinite(s.fraction) && s.fraction >= fractions.front() &&
                       s.fraction <= 1.0 && std::isfinite(s.share) && s.share > 0,
                   "power sample out of range: fraction " << s.fraction << ", share " << s.share);
    const std::vector<double> w = hat_weights(fractions, s.fraction);
    const double rest = s.share - w.back();  // the fixed knot's part moves to the right side
    for (std::size_t i = 0; i < k; ++i) {
      b[i] += w[i] * rest;
      for (std::size_t j = 0; j < k; ++j) a[i][j] += w[i] * w[j];
    }
  }
  std::vector<double> x;
  GPUTCO_REQUIRE(solve(a, b, x), "power curve fit is degenerate (a segment without samples)");
  std::vector<PowerCurveKnot> knots;
  for (std::size_t i = 0; i < k; ++i) knots.push_back({fractions[i], x[i]});
  knots.push_back({1.0, 1.0});
  for (std::size_t i = 0; i + 1 < knots.size(); ++i) {
    GPUTCO_REQUIRE(
        knots[i].compute_share <= knots[i + 1].compute_share && knots[i].compute_share > 0,
        "power curve fit is not increasing: "
            << knots[i].compute_share << " at " << knots[i].fraction << ", "
            << knots[i + 1].compute_share << " at " << knots[i + 1].fraction);
  }
  return knots;
}

}  // namespace gputco
