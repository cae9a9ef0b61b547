#include "engine/serving/serving_batch.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/serving/serving_queue.hpp"

namespace gputco::serving_detail {

namespace {

constexpr double kP99 = 0.99;
constexpr double kMs = 1000.0;
/// The load of an idle queue: one request at a time, no wait for a slot.
constexpr double kIdle = 1e-6;

/// Prompt tokens one step can carry besides the decode tokens (at least a quarter of the
/// budget: engines schedule prefill chunks beside a full decode batch).
double prefill_tokens_per_step(const ReplicaSetup& s, double batch) {
  const double budget = std::max(1, s.profile.step_token_budget);
  return std::max(budget - batch, budget / 4.0);
}

}  // namespace

Point evaluate(const ReplicaSetup& s, double batch) {
  Point p;
  p.batch = batch;
  p.step = decode_step(s, batch);
  p.prefill_s = prefill_s_per_token(s);
  const double input = s.input_tokens, output = s.output_tokens;
  // Every step, batch / output sequences finish on average and are replaced (DOMAIN V4): the
  // replica's steps carry the prefill of all of them. TPOT is as MLPerf's LoadGen and vLLM's
  // benchmark_serving report it, a request's (latency - TTFT) / (output - 1): its own prompt
  // is prefilled before its first token, so during its decode only the batch - 1 other slots
  // turn over (about once each), and the prompts prefilled in its steps number batch - 1, not
  // batch. Over the slot's whole occupancy (own prefill + decode) the two agree: a request
  // holds its slot for input x prefill + output x TPOT = output x cycle.
  p.cycle_s = p.step.total_s + batch * input / output * p.prefill_s;
  p.tpot_s = p.step.total_s + (batch - 1) * input / output * p.prefill_s;
  const double chunk = prefill_tokens_per_step(s, batch);
  p.ttft_own_s = std::ceil(input / chunk) * p.step.total_s + input * p.prefill_s;
  p.ttft_s = p.ttft_p99_s = p.ttft_own_s;
  return at_load(s, p, 1.0, false);
}

Point at_load(const ReplicaSetup& s, const Point& base, double utilization, bool queue) {
  Point p = base;
  const double input = s.input_tokens, output = s.output_tokens;
  p.utilization = utilization;
  p.output_per_s = utilization * p.batch / p.cycle_s;
  // TPOT as MLPerf and the engines' benchmarks report it: a request's (latency - TTFT) /
  // (output - 1), its average over its own decode. While it decodes, the other batch - 1 slots
  // turn over about once, so the prompts prefilled in its steps are Poisson with mean
  // utilization x (batch - 1); the p99 request sees the 99th percentile of that count.
  const double arrivals_p99 = poisson_quantile(utilization * (p.batch - 1), kP99);
  p.tpot_p99_s = std::max(p.tpot_s, p.step.total_s + arrivals_p99 * input / output * p.prefill_s);
  p.ttft_s = p.ttft_p99_s = p.ttft_own_s;
  p.queued = queue;
  if (queue) {
    const double service_s = output * p.cycle_s;  // a slot: own prefill + whole decode
    const int slots = std::max(1, static_cast<int>(std::lround(p.batch)));
    const double arrival = utilization * slots / service_s;
    const QueueWait wait = queue_wait_s(slots, arrival, service_s, kP99);
    p.ttft_s += wait.mean_s;
    p.ttft_p99_s += wait.quantile_s;
  }
  return p;
}

namespace {

bool meets_tpot(const Point& p, const ServingGoal& g) {
  if (g.tpot_p99_ms && p.tpot_p99_s * kMs > *g.tpot_p99_ms) return false;
  if (g.user_tokens_per_s && 1.0 / p.tpot_s < *g.user_tokens_per_s) return false;
  return true;
}

/// The highest utilization in (0, 1) whose p99 TTFT meets the target at `batch`; nullopt when
/// even an idle queue misses it (the own prefill is too long).
std::optional<Point> best_under_ttft(const ReplicaSetup& s, double batch, double ttft_ms) {
  const Point base = evaluate(s, batch);
  if (at_load(s, base, kIdle, true).ttft_p99_s * kMs > ttft_ms) return std::nullopt;
  double lo = kIdle, hi = 1.0 - 1e-9;
  for (int i = 0; i < 16; ++i) {
    const double mid = 0.5 * (lo + hi);
    (at_load(s, base, mid, true).ttft_p99_s * kMs <= ttft_ms ? lo : hi) = mid;
  }
  return at_load(s, base, lo, true);
}

}  // namespace

Choice choose_batch(const ReplicaSetup& s, int max_batch, const ServingGoal& g) {
  Choice c;
  if (g.mode == ServingGoal::Mode::batch) {
    c.point = evaluate(s, g.batch);
    return c;
  }
  if (g.mode == ServingGoal::Mode::max_batch) {
    c.point = evaluate(s, max_batch);
    return c;
  }
  // Latency targets: the largest batch meeting the per-token targets (monotone in the batch),
  // then, under a TTFT target, the batch and load with the highest throughput.
  const auto tpot_ok = [&](int b) { return meets_tpot(evaluate(s, b), g); };
  if (!tpot_ok(1)) {
    c.target_met = false;
    c.missed = LatencyMiss::tpot;
    c.point = evaluate(s, 1);
    return c;
  }
  int lo = 1, hi = max_batch;
  while (lo < hi) {
    const int mid = lo + (hi - lo + 1) / 2;
    if (tpot_ok(mid)) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  const int tpot_batch = lo;
  c.latency_capped = tpot_batch < max_batch;
  if (!g.ttft_p99_ms) {
    c.point = evaluate(s, tpot_batch);
    return c;
  }
  // Throughput at the TTFT target rises with the batch until the slot queue's wait and the
  // longer steps take over: a coarse geometric grid, then a finer look around its best.
  std::optional<Point> best;
  std::size_t best_index = 0;
  std::vector<int> grid;
  for (int b = 1; b < tpot_batch; b = std::max(b + 1, static_cast<int>(b * 1.5))) grid.push_back(b);
  grid.push_back(tpot_batch);
  const auto consider = [&](int b) {
    const auto p = best_under_ttft(s, b, *g.ttft_p99_ms);
    const bool better = p && (!best || p->output_per_s > best->output_per_s);
    if (better) best = p;
    return better;
  };
  for (std::size_t i = 0; i < grid.size(); ++i) {
    if (consider(grid[i])) best_index = i;
  }
  if (best) {
    const int lo_b = grid[best_index > 0 ? best_index - 1 : 0];
    const int hi_b = grid[std::min(best_index + 1, grid.size() - 1)];
    constexpr int kRefinePoints = 8;
    for (int k = 1; k < kRefinePoints; ++k) consider(lo_b + (hi_b - lo_b) * k / kRefinePoints);
  }
  if (!best) {
    c.target_met = false;
    c.missed = LatencyMiss::ttft;
    c.point = at_load(s, evaluate(s, 1), kIdle, true);
    return c;
  }
  c.point = *best;
  c.latency_capped = true;
  return c;
}

}  // namespace gputco::serving_detail
