#include "engine/serving/serving_measured.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <map>
#include <mutex>
#include <utility>

#include "engine/base/error.hpp"
#include "engine/serving/coordinate_descent.hpp"
#include "engine/serving/serving_batch.hpp"

namespace gputco {

namespace {

constexpr double kMs = 1000.0;
/// Relative tolerance of a request's token counts and in-flight requests against a run's for
/// the run's figures to stand for it (run_of_shape).
constexpr double kShapeTolerance = 0.05;
/// The factor on the step's time is searched over 1/20 .. 20 (log units +-3).
constexpr double kLogFactorBound = 3.0;
constexpr int kGoldenIterations = 80;
/// Coordinate descent of the refit: first step (log units, x 1.28), smallest, rounds.
constexpr double kStartStep = 0.25;
constexpr double kSmallestStep = 1e-4;
constexpr int kMaxRounds = 300;
/// Memoised calibrations kept at most (a sweep asks the same few many times).
constexpr std::size_t kMemoLimit = 256;

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

std::string without_v(const std::string& version) {
  return !version.empty() && (version[0] == 'v' || version[0] == 'V') ? version.substr(1) : version;
}

bool is_llama_cpp(ServingEngine engine) {
  return engine == ServingEngine::llama_cpp;
}

}  // namespace

double decode_batch(const MeasuredServingRun& run) {
  if (run.mean_tpot_ms > 0 && run.mean_ttft_ms > 0 && run.output_tokens >= 2) {
    const double decode_ms = (run.output_tokens - 1.0) * run.mean_tpot_ms;
    return std::max(1.0, run.concurrency * decode_ms / (run.mean_ttft_ms + decode_ms));
  }
  return std::max(1.0, run.concurrency);
}

namespace {

/// One run made ready to estimate: its replica (memory fixed: it does not depend on the
/// constants), its batch per replica and its replicas.
struct PreparedRun {
  const MeasuredServingRun* run = nullptr;
  ReplicaSetup setup;
  int replicas = 1;
  double batch = 1;
};

/// "run ID", or "the run" before it is stored (a file being imported: its runs have no id).
std::string run_name(const MeasuredServingRun& run) {
  return run.id.empty() ? std::string("the run") : "run " + run.id;
}

PreparedRun prepare(const ServingRequest& request, const Device& device,
                    const MeasuredServingRun& run) {
  const ServingLayout layout = run_layout(run);
  GPUTCO_REQUIRE(run.gpu_count >= 1 && run.gpu_count % (layout.tp * layout.pp) == 0,
                 run_name(run) << ": TP " << layout.tp << " x PP " << layout.pp
                               << " does not divide its box of " << run.gpu_count << " GPUs");
  GPUTCO_REQUIRE(run.input_tokens > 0 && run.output_tokens >= 1,
                 run_name(run) << ": input and output tokens must be positive");
  ServingRequest r = request;
  r.engine = run.engine;
  r.input_tokens = std::max(1, static_cast<int>(std::lround(run.input_tokens)));
  r.output_tokens = std::max(1, static_cast<int>(std::lround(run.output_tokens)));
  if (!run.kv_cache.empty()) {
    if (const auto kv = parse_kv_cache_type(run.kv_cache)) r.kv_cache = *kv;
  }
  r.measured_runs.clear();
  PreparedRun p;
  p.run = &run;
  p.setup = replica_setup(r, device, layout.tp, layout.pp);
  const ReplicaMemory memory = replica_memory(p.setup);
  GPUTCO_REQUIRE(memory.max_batch >= 1, run_name(run) << ": " << request.model.id << " in "
                                                      << request.quant.id << " does not fit TP"
                                                      << layout.tp << " x PP" << layout.pp << " on "
                                                      << device.id << " by the model's memory");
  const int cap = p.setup.profile.max_batch > 0
                      ? std::min(memory.max_batch, p.setup.profile.max_batch)
                      : memory.max_batch;
  p.replicas = run.gpu_count / (layout.tp * layout.pp);
  p.batch = std::clamp(decode_batch(run) / p.replicas, 1.0, static_cast<double>(cap));
  return p;
}

/// The model's figures of a prepared run with `c`'s constants and factors, and its residual
/// corrections when `corrected`.
RunEstimate estimate_prepared(const PreparedRun& p, const MeasuredCalibration& c,
                              bool corrected = false) {
  ReplicaSetup s = p.setup;
  if (!is_llama_cpp(s.profile.engine)) s.profile.constants = c.constants;
  s.step_time_factor = c.step_time_factor;
  s.prefill_time_factor = c.prefill_time_factor;
  if (corrected) {
    s.step_corrections =
        step_corrections_for(c, s.tp, s.pp, p.run->input_tokens, p.run->output_tokens);
  }
  const serving_detail::Point point = serving_detail::evaluate(s, p.batch);
  RunEstimate e;
  e.tp = s.tp;
  e.pp = s.pp;
  e.batch_per_replica = p.batch;
  e.output_tokens_per_s = point.output_per_s * p.replicas;
  e.mean_tpot_ms = point.tpot_s * kMs;
  e.mean_ttft_ms = point.ttft_own_s * kMs;
  e.prefill_tokens_per_s = p.replicas / point.prefill_s;
  e.step_s = point.step.total_s;
  e.cycle_s = point.cycle_s;
  return e;
}

/// The terms a run is compared on: its throughput (not for llama-bench, whose decode runs
/// measure one stream's speed, the TPOT again, and whose prefill runs no output), its mean
/// TPOT where measured (two output tokens at least), its prefill speed where measured.
/// `decode` and `prefill` pick the kinds (llama.cpp fits them apart).
struct Terms {
  bool decode = true;
  bool prefill = true;
};

/// Sum of |log(estimate / measured)| over the terms of `p`, and how many terms.
std::pair<double, int> run_error(const PreparedRun& p, const MeasuredCalibration& c, Terms terms,
                                 bool relative = false) {
  const MeasuredServingRun& run = *p.run;
  const RunEstimate e = estimate_prepared(p, c);
  double sum = 0;
  int n = 0;
  const auto add = [&](double estimate, double measured) {
    if (!(measured > 0) || !(estimate > 0) || !std::isfinite(estimate)) return;
    sum += relative ? std::abs(estimate / measured - 1.0) : std::abs(std::log(estimate / measured));
    ++n;
  };
  if (terms.decode) {
    if (run.format != "llama-bench") add(e.output_tokens_per_s, run.output_tokens_per_s);
    if (run.mean_tpot_ms > 0 && run.output_tokens >= 2) add(e.mean_tpot_ms, run.mean_tpot_ms);
  }
  if (terms.prefill) add(e.prefill_tokens_per_s, run.prefill_tokens_per_s);
  return {sum, n};
}

/// Mean absolute log error over the runs' terms; 0 when there is none.
double loss(const std::vector<PreparedRun>& runs, const MeasuredCalibration& c, Terms terms,
            bool relative = false) {
  double sum = 0;
  int n = 0;
  for (const PreparedRun& p : runs) {
    const auto [s, k] = run_error(p, c, terms, relative);
    sum += s;
    n += k;
  }
  return n > 0 ? sum / n : 0.0;
}

bool has_terms(const std::vector<PreparedRun>& runs, Terms terms) {
  MeasuredCalibration neutral;
  for (const PreparedRun& p : runs) {
    neutral.constants = p.setup.profile.constants;
    if (run_error(p, neutral, terms).second > 0) return true;
  }
  return false;
}

/// The factor k in 1/20..20 minimising `error(k)` (golden-section search on log k).
template <typename Error>
double best_factor(Error error) {
  const double phi = (std::sqrt(5.0) - 1.0) / 2.0;
  double a = -kLogFactorBound, b = kLogFactorBound;
  double x1 = b - phi * (b - a), x2 = a + phi * (b - a);
  double f1 = error(std::exp(x1)), f2 = error(std::exp(x2));
  for (int i = 0; i < kGoldenIterations; ++i) {
    if (f1 <= f2) {
      b = x2;
      x2 = x1;
      f2 = f1;
      x1 = b - phi * (b - a);
      f1 = error(std::exp(x1));
    } else {
      a = x1;
      x1 = x2;
      f1 = f2;
      x2 = a + phi * (b - a);
      f2 = error(std::exp(x2));
    }
  }
  return std::exp(0.5 * (a + b));
}

/// A refitted constant: its field, its bounds and first step.
struct Knob {
  double ServingConstants::*field;
  DescentCoordinate coordinate;
};
// Bounds as the published fit's (engine/serving/serving_calibration.hpp).
constexpr std::array<Knob, 4> kKnobs{{
    {&ServingConstants::bandwidth_efficiency, {0.02, 1.2, 0}},
    {&ServingConstants::compute_efficiency, {0.02, 1.2, 0}},
    {&ServingConstants::step_fixed_s, {0.0, 0.1, 1e-3}},
    {&ServingConstants::step_per_sequence_s, {0.0, 2e-3, 2e-5}},
}};

/// `base` with the knobs' fields set to `values` (in kKnobs' order).
ServingConstants with_knobs(ServingConstants base, const std::vector<double>& values) {
  for (std::size_t k = 0; k < kKnobs.size(); ++k) base.*kKnobs[k].field = values[k];
  return base;
}

/// Coordinate descent (engine/serving/coordinate_descent.hpp) of the knobs from `start` (the scaled
/// constants).
ServingConstants refit(const std::vector<PreparedRun>& runs, const ServingConstants& start) {
  std::vector<DescentCoordinate> coordinates;
  std::vector<double> values;
  for (const Knob& knob : kKnobs) {
    coordinates.push_back(knob.coordinate);
    values.push_back(start.*knob.field);
  }
  const DescentOptions options{kStartStep, kSmallestStep, kMaxRounds};
  const DescentResult result =
      coordinate_descent(coordinates, std::move(values), options, [&](const auto& trial) {
        MeasuredCalibration c;
        c.constants = with_knobs(start, trial);
        return loss(runs, c, Terms{});
      });
  return with_knobs(start, result.values);
}

std::vector<StepCorrection> corrections(const std::vector<PreparedRun>& runs,
                                        const MeasuredCalibration& c);

MeasuredCalibration fit(const ServingRequest& request, const Device& device,
                        const std::vector<MeasuredServingRun>& runs) {
  GPUTCO_REQUIRE(!runs.empty(), "no measured runs to calibrate on");
  std::vector<PreparedRun> prepared;
  prepared.reserve(runs.size());
  for (const auto& run : runs) prepared.push_back(prepare(request, device, run));
  MeasuredCalibration c;
  c.constants = request.constants.value_or(prepared.front().setup.profile.constants);
  const bool llama = is_llama_cpp(request.engine);
  if (llama) {
    // llama.cpp: a factor on its decode step from the decode runs, one on its prefill from the
    // prefill runs; a kind not measured keeps the model's.
    const Terms decode{true, false}, prefill{false, true};
    if (has_terms(prepared, decode)) {
      c.step_time_factor = best_factor([&](double k) {
        MeasuredCalibration t = c;
        t.step_time_factor = k;
        return loss(prepared, t, decode);
      });
    }
    if (has_terms(prepared, prefill)) {
      c.prefill_time_factor = best_factor([&](double k) {
        MeasuredCalibration t = c;
        t.prefill_time_factor = k;
        return loss(prepared, t, prefill);
      });
    }
    c.summary.method = "scale";
  } else {
    const double k = best_factor([&](double f) {
      MeasuredCalibration t = c;
      t.step_time_factor = t.prefill_time_factor = f;
      return loss(prepared, t, Terms{});
    });
    if (runs.size() >= 3) {
      // Start the descent at the scaled step: efficiencies / k, fixed cost x k.
      ServingConstants start = c.constants;
      start.bandwidth_efficiency = std::clamp(start.bandwidth_efficiency / k, 0.02, 1.2);
      start.compute_efficiency = std::clamp(start.compute_efficiency / k, 0.02, 1.2);
      start.step_fixed_s = std::clamp(start.step_fixed_s * k, 0.0, 0.1);
      c.constants = refit(prepared, start);
      c.summary.method = "refit";
    } else {
      c.step_time_factor = c.prefill_time_factor = k;
      c.summary.method = "scale";
    }
  }
  c.constants.calibrated = true;
  c.summary.runs = static_cast<int>(runs.size());
  // The refitted model's own error, before the residuals make it exact at the runs.
  c.summary.in_sample_error = loss(prepared, c, Terms{}, true);
  c.corrections = corrections(prepared, c);
  for (const auto& run : runs) {
    c.summary.run_ids.push_back(run.id);
    c.summary.latest_measured_on = std::max(c.summary.latest_measured_on, run.measured_on);
  }
  return c;
}

bool within(double a, double b, double tolerance) {
  return std::abs(a - b) <= tolerance * std::abs(b);
}

/// The steps the runs imply (StepCorrection), grouped by shape (layout, prompt and output
/// lengths within 5 %); runs at one batch (within 1 %) averaged.
std::vector<StepCorrection> corrections(const std::vector<PreparedRun>& runs,
                                        const MeasuredCalibration& c) {
  constexpr double kLeastFactor = 0.05;
  std::vector<StepCorrection> groups;
  std::vector<std::vector<int>> counts;
  for (const PreparedRun& p : runs) {
    const MeasuredServingRun& run = *p.run;
    const RunEstimate e = estimate_prepared(p, c);
    if (!(e.step_s > 0)) continue;
    double step_s = 0;
    if (run.mean_tpot_ms > 0 && run.output_tokens >= 2 && e.mean_tpot_ms > 0) {
      // TPOT = step + the others' prefill: the step is the measured TPOT less the model's share.
      const double prefill_share_s = e.mean_tpot_ms / kMs - e.step_s;
      step_s = run.mean_tpot_ms / kMs - prefill_share_s;
    } else if (run.output_tokens_per_s > 0 && e.output_tokens_per_s > 0 &&
               run.format != "llama-bench") {
      // throughput = batch x replicas / cycle, cycle = step + the replacing requests' prefill.
      const double cycle_s = p.batch * p.replicas / run.output_tokens_per_s;
      step_s = cycle_s - (e.cycle_s - e.step_s);
    } else {
      continue;  // a prefill-only run says nothing of the decode step
    }
    step_s = std::max(step_s, kLeastFactor * e.step_s);
    std::size_t g = 0;
    for (; g < groups.size(); ++g) {
      if (groups[g].tp == e.tp && groups[g].pp == e.pp &&
          within(run.input_tokens, groups[g].input_tokens, kShapeTolerance) &&
          within(run.output_tokens, groups[g].output_tokens, kShapeTolerance)) {
        break;
      }
    }
    if (g == groups.size()) {
      StepCorrection group;
      group.tp = e.tp;
      group.pp = e.pp;
      group.input_tokens = run.input_tokens;
      group.output_tokens = run.output_tokens;
      groups.push_back(group);
      counts.emplace_back();
    }
    auto& points = groups[g].points;
    const auto same = std::find_if(points.begin(), points.end(), [&](const MeasuredStepPoint& q) {
      return within(p.batch, q.batch, 0.01);
    });
    if (same != points.end()) {
      // A running mean of the runs at this batch.
      int& n = counts[g][static_cast<std::size_t>(same - points.begin())];
      same->step_s = (same->step_s * n + step_s) / (n + 1);
      same->factor = (same->factor * n + step_s / e.step_s) / (n + 1);
      ++n;
    } else {
      points.push_back({p.batch, step_s, step_s / e.step_s});
      counts[g].push_back(1);
    }
  }
  for (auto& g : groups) {
    std::sort(
        g.points.begin(), g.points.end(),
        [](const MeasuredStepPoint& a, const MeasuredStepPoint& b) { return a.batch < b.batch; });
  }
  return groups;
}

/// The memo's key: everything the fit reads.
std::string memo_key(const ServingRequest& r, const Device& d,
                     const std::vector<MeasuredServingRun>& runs) {
  const ServingConstants c = r.constants.value_or(ServingConstants{});
  std::string key = fmt::format(
      "{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}", r.model.id,
      r.model.layers, r.model.hidden, r.model.params_b, r.quant.id, r.quant.bits_per_weight,
      to_string(r.kv_cache), to_string(r.engine), r.engine_version, r.memory_share.value_or(-1),
      r.max_batch.value_or(-1), r.tuned, r.constants.has_value(), c.bandwidth_efficiency,
      c.compute_efficiency, c.step_fixed_s, c.amd_factor, c.moe_read_factor, c.moe_compute_factor,
      c.fp4_factor, c.tp_factor, d.id, d.bandwidth_gbps, d.memory_nameplate_gb);
  for (const auto& run : runs) {
    key += fmt::format("|{}:{}:{}:{}:{}:{}:{}:{}:{}:{}:{}:{}:{}", run.id, run.gpu_count, run.tp,
                       run.pp, run.kv_cache, run.input_tokens, run.output_tokens, run.concurrency,
                       run.output_tokens_per_s, run.mean_tpot_ms, run.prefill_tokens_per_s,
                       run.format, run.measured_on);
  }
  return key;
}

}  // namespace

std::string calibration_sentence(const ServingCalibrationSummary& s) {
  if (s.runs == 0) return "";
  std::string text = fmt::format(
      "calibrated on {} run{} of yours, {} ({}; the refitted model is {:.1f} % off {} on "
      "average, and goes through {} at their shapes)",
      s.runs, s.runs == 1 ? "" : "s", s.latest_measured_on,
      s.method == "refit" ? "refit: the efficiencies, the fixed cost and the cost per sequence"
                          : "scale: one factor on the step's time",
      100 * s.in_sample_error, s.runs == 1 ? "it" : "them", s.runs == 1 ? "it" : "them");
  if (!s.measured_run_id.empty()) {
    text += fmt::format("; these figures are your run {} ({}), measured", s.measured_run_id,
                        s.measured_run_file);
  }
  if (!s.unmeasured_layout.empty()) {
    text += fmt::format(
        "; none of them ran {} (they ran {}): its figures extrapolate the "
        "refitted model",
        s.unmeasured_layout, s.measured_layouts);
  }
  return text;
}

bool engine_version_matches(const std::string& wanted, const std::string& run_version) {
  const std::string w = without_v(wanted), v = without_v(run_version);
  if (w.empty() || v.empty()) return true;
  if (v == w) return true;
  return v.size() > w.size() && v.compare(0, w.size(), w) == 0 &&
         (v[w.size()] == '.' || v[w.size()] == '+' || v[w.size()] == '-');
}

std::vector<MeasuredServingRun> runs_for(const ServingRequest& request, const Device& device,
                                         const std::vector<MeasuredServingRun>& runs) {
  std::vector<MeasuredServingRun> out;
  const std::string model = lower(request.model.id), quant = lower(request.quant.id),
                    gpu = lower(device.id);
  for (const auto& run : runs) {
    if (lower(run.model_id) != model || lower(run.quant) != quant || lower(run.device_id) != gpu)
      continue;
    if (run.engine != request.engine) continue;
    if (!engine_version_matches(request.engine_version, run.engine_version)) continue;
    out.push_back(run);
  }
  return out;
}

ServingLayout run_layout(const MeasuredServingRun& run) {
  ServingLayout layout;
  layout.pp = run.pp > 0 ? run.pp : 1;
  layout.tp = run.tp > 0 ? run.tp : std::max(1, run.gpu_count / layout.pp);
  return layout;
}

RunEstimate estimate_run(const ServingRequest& request, const Device& device,
                         const MeasuredServingRun& run, const MeasuredCalibration& calibration) {
  return estimate_prepared(prepare(request, device, run), calibration, true);
}

MeasuredCalibration calibrate_to_runs(const ServingRequest& request, const Device& device,
                                      const std::vector<MeasuredServingRun>& runs) {
  static std::mutex mutex;
  static std::map<std::string, MeasuredCalibration> memo;
  const std::string key = memo_key(request, device, runs);
  {
    const std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = memo.find(key); it != memo.end()) return it->second;
  }
  MeasuredCalibration c = fit(request, device, runs);
  const std::lock_guard<std::mutex> lock(mutex);
  if (memo.size() >= kMemoLimit) memo.clear();
  memo.emplace(key, c);
  return c;
}

const MeasuredServingRun* run_of_shape(const std::vector<MeasuredServingRun>& runs,
                                       const ServingRequest& request,
                                       const ServingCapacity& capacity, int count) {
  const auto near = [](double a, double b, double floor) {
    return std::abs(a - b) <= std::max(floor, kShapeTolerance * std::abs(b));
  };
  const double in_flight =
      capacity.batch_per_replica * capacity.replicas * capacity.slot_utilization;
  for (const auto& run : runs) {
    if (!(run.output_tokens_per_s > 0) || run.gpu_count != count) continue;
    const ServingLayout layout = run_layout(run);
    if (layout.tp != capacity.tp || layout.pp != capacity.pp) continue;
    if (!near(request.input_tokens, run.input_tokens, 0.5) ||
        !near(request.output_tokens, run.output_tokens, 0.5)) {
      continue;
    }
    if (!near(in_flight, decode_batch(run), 0.5)) continue;
    return &run;
  }
  return nullptr;
}

std::vector<MeasuredStepPoint> step_corrections_for(const MeasuredCalibration& calibration, int tp,
                                                    int pp, double input_tokens,
                                                    double output_tokens) {
  constexpr double kNearShape = 0.25;
  const StepCorrection* best = nullptr;
  double best_distance = 0;
  for (const StepCorrection& g : calibration.corrections) {
    if (g.tp != tp || g.pp != pp || !within(input_tokens, g.input_tokens, kNearShape) ||
        !within(output_tokens, g.output_tokens, kNearShape)) {
      continue;
    }
    const double distance = std::abs(std::log(input_tokens / g.input_tokens)) +
                            std::abs(std::log(output_tokens / g.output_tokens));
    if (best == nullptr || distance < best_distance) {
      best = &g;
      best_distance = distance;
    }
  }
  return best != nullptr ? best->points : std::vector<MeasuredStepPoint>{};
}

double step_correction(const std::vector<MeasuredStepPoint>& points, double batch,
                       double model_step_s) {
  if (points.empty() || !(model_step_s > 0)) return 1.0;
  if (batch <= points.front().batch) return points.front().factor;
  if (batch >= points.back().batch) return points.back().factor;
  for (std::size_t i = 1; i < points.size(); ++i) {
    const MeasuredStepPoint& b = points[i];
    if (batch > b.batch) continue;
    const MeasuredStepPoint& a = points[i - 1];
    const double t = (batch - a.batch) / (b.batch - a.batch);
    return ((1 - t) * a.step_s + t * b.step_s) / model_step_s;
  }
  return points.back().factor;
}

}  // namespace gputco
