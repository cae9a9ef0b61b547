// A card under a power limit (engine/hardware/power_limit.hpp): the compute-share curve fitted on
// the published sweeps of tests/data/reference/power_limit_measured.csv, what it does to decode and
// prefill, the load power energy counts, and the limits refused.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "engine/base/error.hpp"
#include "engine/hardware/calibration.hpp"
#include "engine/hardware/power_limit.hpp"
#include "engine/hardware/speed.hpp"
#include "tests/support/paths.hpp"
#include "tests/support/reference_data.hpp"

namespace gputco {
namespace {

using test::read_csv;
using test::reference_device;
using test::reference_model;
using test::reference_quant;

const std::vector<double> kKnotFractions{0.25, 0.40, 0.55, 0.70, 0.85, 1.00};

struct SweepRow {
  std::string device_id, split, metric, model_id, quant, source;
  int count = 1, context_tokens = 0;
  double board_power_w = 0, power_limit_w = 0, at_limit = 0, at_board = 0;
  double fraction() const { return power_limit_w / board_power_w; }
  double share() const { return at_limit / at_board; }
};

std::vector<SweepRow> sweep_rows() {
  std::vector<SweepRow> out;
  for (const auto& r :
       read_csv(test::source_path("tests/data/reference/power_limit_measured.csv"))) {
    SweepRow s;
    s.device_id = r.at("device_id");
    s.count = std::stoi(r.at("count"));
    s.split = r.at("split");
    s.board_power_w = std::stod(r.at("board_power_w"));
    s.power_limit_w = std::stod(r.at("power_limit_w"));
    s.metric = r.at("metric");
    s.model_id = r.at("model_id");
    s.quant = r.at("quant");
    s.context_tokens = r.at("context_tokens").empty() ? 0 : std::stoi(r.at("context_tokens"));
    s.at_limit = std::stod(r.at("measured_at_limit"));
    s.at_board = std::stod(r.at("measured_at_board_power"));
    s.source = r.at("source");
    out.push_back(s);
  }
  return out;
}

std::vector<PowerSample> compute_samples() {
  std::vector<PowerSample> samples;
  for (const SweepRow& r : sweep_rows()) {
    if (r.metric == "prefill" || r.metric == "compute")
      samples.push_back({r.fraction(), r.share()});
  }
  return samples;
}

// The compiled knots are what least squares on the prefill and compute rows gives.
TEST(PowerLimit, curveMatchesTheSweeps) {
  const auto samples = compute_samples();
  ASSERT_EQ(samples.size(), 7u);
  const auto fitted = fit_power_curve(samples, kKnotFractions);
  const auto& compiled = power_curve_knots();
  ASSERT_EQ(fitted.size(), compiled.size());
  for (std::size_t i = 0; i < fitted.size(); ++i) {
    std::printf("  knot %.2f: fitted %.4f, compiled %.4f\n", fitted[i].fraction,
                fitted[i].compute_share, compiled[i].compute_share);
    EXPECT_DOUBLE_EQ(fitted[i].fraction, compiled[i].fraction);
    EXPECT_NEAR(fitted[i].compute_share, compiled[i].compute_share, 0.0005)
        << "refit the knots in engine/hardware/power_limit.cpp";
  }
  for (const PowerSample& s : samples) {
    const double curve = power_curve_at(compiled, s.fraction);
    std::printf("  compute at %.3f of board power: measured %.3f, curve %.3f (%+.1f %%)\n",
                s.fraction, s.share, curve, 100 * (curve / s.share - 1));
    // At 0.7 and above the curve holds the sweeps within 5 %.
    if (s.fraction >= 0.7) {
      EXPECT_NEAR(curve / s.share, 1, 0.05) << s.fraction;
    }
  }
}

double decode_at(const SweepRow& r, double limit_w) {
  SpeedRequest q;
  q.fit.model = reference_model(r.model_id);
  q.fit.quant = reference_quant(r.quant);
  q.fit.context_tokens = std::max(r.context_tokens, 1);
  q.device_count = r.count;
  q.split = SplitMode::layer;
  Device d = reference_device(r.device_id);
  q.backend = default_backend(d);
  d.power_limit_w = limit_w;
  return estimate_speed(q, d).decode_tokens_per_s;
}

// Held out: the decode rows (never fitted). The estimate at the limit is the measured stock
// speed x the engine's ratio (limit / stock), so the row's own model error cancels and what is
// checked is the power model. Measured: the 7 rows at 0.6 of board power and above within 5 %
// (RTX 3090 at 300, 275, 250 W: -3.4, -3.1, -0.8 %; six RTX 3090 at 300, 250 W: -0.8, -4.9 %;
// RTX 5060 Ti at 162, 150 W: -0.4, +0.6 %; mean 2.0 %). Below 0.6 the sweeps disagree and the
// estimate warns: the RTX PRO 6000 at 0.5 -13.0 %, six RTX 3090 at 200 W -7.6 %, but a single
// RTX 3090 whose core clock collapses at 200 W (480 MHz) +50 %, at 150 W +225 %, and the six at
// 150 and 100 W -36 % and +66 %. Those rows are printed, not asserted.
TEST(PowerLimit, decodeRowsAreHeldOut) {
  int checked = 0;
  for (const SweepRow& r : sweep_rows()) {
    if (r.metric != "decode") continue;
    const double ratio = decode_at(r, r.power_limit_w) / decode_at(r, 0);
    const double estimate = r.at_board * ratio;
    const double off = estimate / r.at_limit - 1;
    std::printf("  %-24s x%d %4.0f of %3.0f W: measured %6.2f, estimated %6.2f (%+.1f %%)\n",
                r.device_id.c_str(), r.count, r.power_limit_w, r.board_power_w, r.at_limit,
                estimate, 100 * off);
    EXPECT_LE(ratio, 1.0);
    if (r.fraction() >= power_limit_reliable_fraction()) {
      EXPECT_LT(std::abs(off), 0.05) << r.device_id << " at " << r.power_limit_w << " W";
      ++checked;
    }
  }
  EXPECT_EQ(checked, 7);
}

// An RTX 3090 at 250 W: 250 / 350 = 0.714, between the knots 0.70 (0.8294) and 0.85 (0.9637):
// 0.8294 + (0.714286 - 0.70) / 0.15 x (0.9637 - 0.8294) = 0.8294 + 0.095238 x 0.1343 = 0.84219.
TEST(PowerLimit, effectOfA3090At250W) {
  Device d = reference_device("rtx-3090");
  d.power_limit_w = 250;
  const PowerLimitEffect e = power_limit_effect(d);
  EXPECT_TRUE(e.limited);
  EXPECT_NEAR(e.fraction, 250.0 / 350.0, 1e-12);
  EXPECT_NEAR(e.compute_share, 0.84219, 1e-5);
  EXPECT_EQ(e.load_power_w, 250);
  EXPECT_EQ(load_power_w(d), 250);
  EXPECT_TRUE(e.warning.empty());
  d.power_limit_w = 0;
  EXPECT_EQ(load_power_w(d), 350);
  EXPECT_FALSE(power_limit_effect(d).limited);
  // At 200 W (0.571) it warns; at the board power it is no limit.
  d.power_limit_w = 200;
  EXPECT_NE(power_limit_effect(d).warning.find("below 60 %"), std::string::npos);
  d.power_limit_w = 350;
  EXPECT_FALSE(power_limit_effect(d).limited);
  EXPECT_EQ(power_limit_effect(d).compute_share, 1);
}

TEST(PowerLimit, refusesLimitsNoCardRunsAt) {
  Device d = reference_device("rtx-3090");
  d.power_limit_w = 400;  // above 350 W
  EXPECT_THROW(power_limit_effect(d), EngineError);
  d.power_limit_w = 80;  // 0.23 of 350 W
  EXPECT_THROW(power_limit_effect(d), EngineError);
  d.power_limit_w = 250;
  d.board_power_w = 0;  // nothing to limit
  EXPECT_THROW(power_limit_effect(d), EngineError);
  try {
    Device e = reference_device("rtx-3090");
    e.power_limit_w = 400;
    power_limit_effect(e);
  } catch (const EngineError& err) {
    EXPECT_NE(std::string(err.what()).find("above its board power 350 W"), std::string::npos)
        << err.what();
  }
}

// Decode keeps its memory-bound part and pays the fixed part 1 / c times over; prefill runs at
// c. Llama 3.1 8B Q4_K_M on an RTX 3090 at 250 W: the fixed part is 32 layers x 34.68 us =
// 1.1098 ms, so the step grows by 1.1098 ms x (1 / 0.84219 - 1) = 0.2080 ms.
TEST(PowerLimit, decodePaysTheFixedPartAtTheComputeShare) {
  SpeedRequest q;
  q.fit.model = reference_model("llama-3.1-8b");
  q.fit.quant = reference_quant("Q4_K_M");
  q.fit.context_tokens = 4096;
  q.prompt_tokens = 1000;
  q.backend = Backend::cuda;
  Device d = reference_device("rtx-3090");
  const SpeedEstimate stock = estimate_speed(q, d);
  d.power_limit_w = 250;
  const SpeedEstimate limited = estimate_speed(q, d);
  const double fixed_s = decode_fixed_s(decode_constants(Backend::cuda), q.fit.model);
  EXPECT_NEAR(fixed_s, 32 * 34.68e-6, 1e-12);
  const double expected_step = 1 / stock.decode_tokens_per_s + fixed_s * (1 / 0.84219 - 1);
  EXPECT_NEAR(1 / limited.decode_tokens_per_s, expected_step, 1e-8);
  EXPECT_NEAR(1 / limited.decode_tokens_per_s - 1 / stock.decode_tokens_per_s, 0.2080e-3, 0.001e-3);
  // Decode loses far less than the 29 % power cut (DOMAIN S10): about 2 %.
  EXPECT_GT(limited.decode_tokens_per_s / stock.decode_tokens_per_s, 0.97);
  EXPECT_NEAR(limited.prefill_tokens_per_s / stock.prefill_tokens_per_s, 0.84219, 1e-5);
  EXPECT_NEAR(limited.time_to_first_token_s / stock.time_to_first_token_s, 1 / 0.84219, 1e-5);
}

// DOMAIN S10 and the RTX PRO 6000 row: 600 W to 300 W costs a single-digit share of a 7B
// model's decode on most models; the measured 278.95 -> 260.42 tokens/s (-6.6 %) is estimated
// at -15.7 % on this small, fast model (a third of its step is fixed cost), within 15 % of the
// measured speed once the engine's own stock error is taken out.
TEST(PowerLimit, domainS10HalfPowerOnTheRtxPro6000) {
  SweepRow r;
  r.device_id = "rtx-pro-6000-blackwell";
  r.model_id = "llama-2-7b";
  r.quant = "Q4_0";
  r.context_tokens = 64;
  const double ratio = decode_at(r, 300) / decode_at(r, 0);
  EXPECT_LT(ratio, 1.0);
  EXPECT_NEAR(278.95 * ratio / 260.42, 1, 0.15);
}

TEST(PowerLimit, servingRoofsScaleTheTensorPeaks) {
  Device d = reference_device("h100-sxm");
  d.power_limit_w = 0.7 * d.board_power_w;  // knot 0.70: 0.8294
  const Device applied = with_power_limit_applied(d);
  EXPECT_NEAR(applied.fp16_tflops, d.fp16_tflops * 0.8294, 1e-9);
  EXPECT_NEAR(applied.fp8_tflops, d.fp8_tflops * 0.8294, 1e-9);
  EXPECT_EQ(applied.bandwidth_gbps, d.bandwidth_gbps);
  EXPECT_EQ(applied.board_power_w, d.power_limit_w);
  EXPECT_EQ(applied.power_limit_w, 0);
  // Applied twice, it is applied once.
  EXPECT_EQ(with_power_limit_applied(applied).fp16_tflops, applied.fp16_tflops);
}

// A curve generated from known knots is fitted back exactly.
TEST(PowerLimit, fitRecoversKnownKnots) {
  const std::vector<PowerCurveKnot> truth{{0.25, 0.2}, {0.5, 0.6}, {1.0, 1.0}};
  std::vector<PowerSample> samples;
  for (double p : {0.25, 0.3, 0.45, 0.5, 0.7, 0.9})
    samples.push_back({p, power_curve_at(truth, p)});
  const auto fitted = fit_power_curve(samples, {0.25, 0.5, 1.0});
  ASSERT_EQ(fitted.size(), 3u);
  EXPECT_NEAR(fitted[0].compute_share, 0.2, 1e-12);
  EXPECT_NEAR(fitted[1].compute_share, 0.6, 1e-12);
  EXPECT_EQ(fitted[2].compute_share, 1.0);
  // A segment without samples is degenerate; a decreasing fit is refused.
  EXPECT_THROW(fit_power_curve({{0.3, 0.5}, {0.4, 0.6}}, {0.25, 0.5, 0.75, 1.0}), EngineError);
  EXPECT_THROW(fit_power_curve({{0.25, 0.9}, {0.5, 0.2}, {0.75, 0.3}}, {0.25, 0.5, 1.0}),
               EngineError);
}

}  // namespace
}  // namespace gputco
