#include "engine/serving/serving_load.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "engine/base/error.hpp"
#include "engine/serving/serving_batch.hpp"
#include "engine/serving/serving_measured.hpp"
#include "engine/serving/serving_queue.hpp"

namespace gputco {

namespace {

constexpr double kP99 = 0.99;
constexpr double kMs = 1000.0;
/// Bisection steps on the sequences in flight: 2^-60 of the slots, far below any figure shown.
constexpr int kBisections = 60;

/// The replica of `capacity`, as serving_capacity evaluated it: the user's measured runs of
/// the request's model, device and engine (runs_for) refit its constants here as they did
/// there, so the figures at a load are those of the replica the fleet was sized with (a
/// calibrated box sized on its measured speed once showed the uncalibrated model's TPOT at
/// its load, above the target the fleet met).
ReplicaSetup setup_of(const ServingRequest& request, const Device& device,
                      const ServingCapacity& capacity) {
  std::optional<MeasuredCalibration> measured;
  if (!request.measured_runs.empty()) {
    const std::vector<MeasuredServingRun> runs = runs_for(request, device, request.measured_runs);
    if (!runs.empty()) measured = calibrate_to_runs(request, device, runs);
  }
  return serving_detail::make_setup(request, device, capacity.tp, capacity.pp, capacity.compute,
                                    measured ? &*measured : nullptr);
}

/// The batch one request's steps carry when `in_flight` sequences are in flight on `slots`.
double batch_seen(double in_flight, double slots) {
  return std::clamp(1.0 + in_flight * (slots - 1.0) / slots, 1.0, slots);
}

/// The per-user figures of a point at batch `batch`, its p99 TPOT from the others' prompts.
ServingAtLoad figures_at(const ReplicaSetup& s, const serving_detail::Point& p) {
  ServingAtLoad out;
  out.batch = p.batch;
  const double others_p99 = poisson_quantile(p.batch - 1.0, kP99);
  const double tpot_p99_s = std::max(
      p.tpot_s, p.step.total_s + others_p99 * s.input_tokens / s.output_tokens * p.prefill_s);
  out.per_user_tokens_per_s = 1.0 / p.tpot_s;
  out.tpot_ms = p.tpot_s * kMs;
  out.tpot_p99_ms = tpot_p99_s * kMs;
  out.ttft_ms = out.ttft_p99_ms = p.ttft_own_s * kMs;
  return out;
}

}  // namespace

ServingAtLoad serving_at_rate(const ServingRequest& request, const Device& device,
                              const ServingCapacity& capacity, double output_tokens_per_s) {
  GPUTCO_REQUIRE(
      std::isfinite(output_tokens_per_s) && output_tokens_per_s >= 0,
      "output tokens per second must be a non-negative number, got " << output_tokens_per_s);
  const ReplicaSetup s = setup_of(request, device, capacity);
  const double slots = std::max(1, capacity.batch_per_replica);
  const double rate = output_tokens_per_s;
  // Little's law: in flight n = requests/s x the slot's occupancy = rate / output x output x
  // cycle(b(n)) = rate x cycle(b(n)); n - rate x cycle(b(n)) rises with n below capacity.
  const auto excess = [&](double n) {
    return n - rate * serving_detail::evaluate(s, batch_seen(n, slots)).cycle_s;
  };
  double n = slots;
  if (excess(slots) > 0) {
    double lo = 0, hi = slots;
    for (int i = 0; i < kBisections; ++i) {
      const double mid = 0.5 * (lo + hi);
      (excess(mid) > 0 ? hi : lo) = mid;
    }
    n = hi;
  }
  const serving_detail::Point p = serving_detail::evaluate(s, batch_seen(n, slots));
  ServingAtLoad out = figures_at(s, p);
  out.in_flight = n;
  out.output_tokens_per_s = rate;
  out.utilization = capacity.output_tokens_per_s_per_replica > 0
                        ? rate / capacity.output_tokens_per_s_per_replica
                        : 0.0;
  // The wait for one of the slots: M/M/c, c = the slots, a slot held for output x cycle.
  const double service_s = s.output_tokens * p.cycle_s;
  const double arrival_per_s = rate / s.output_tokens;
  const QueueWait wait = queue_wait_s(static_cast<int>(slots), arrival_per_s, service_s, kP99);
  if (std::isfinite(wait.mean_s) && std::isfinite(wait.quantile_s)) {
    out.ttft_ms += wait.mean_s * kMs;
    out.ttft_p99_ms += wait.quantile_s * kMs;
  }
  return out;
}

ServingAtLoad serving_at_streams(const ServingRequest& request, const Device& device,
                                 const ServingCapacity& capacity, double streams) {
  GPUTCO_REQUIRE(std::isfinite(streams) && streams >= 0,
                 "streams must be a non-negative number, got " << streams);
  const ReplicaSetup s = setup_of(request, device, capacity);
  const double slots = std::max(1, capacity.batch_per_replica);
  const double batch = std::max(1.0, std::min(streams, std::max(slots, 1.0)));
  const serving_detail::Point p = serving_detail::evaluate(s, batch);
  ServingAtLoad out = figures_at(s, p);
  out.in_flight = batch;
  out.output_tokens_per_s = batch * out.per_user_tokens_per_s;
  out.utilization = capacity.output_tokens_per_s_per_replica > 0
                        ? out.output_tokens_per_s / capacity.output_tokens_per_s_per_replica
                        : 0.0;
  return out;
}

}  // namespace gputco
