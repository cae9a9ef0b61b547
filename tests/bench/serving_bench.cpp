// How long the serving model takes: one `gputco throughput` estimate (goal 50 ms per call), and
// the serving finder with a latency search over every catalog device (goal 0.3 s).
// Run: BUILD/tests/bench/serving_bench
#include <benchmark/benchmark.h>

#include "engine/serving/serving_finder.hpp"
#include "pricing/catalog.hpp"

namespace gputco {
namespace {

const Catalog& catalog() {
  static const Catalog c = Catalog::open_builtin();
  return c;
}

ServingRequest llama70b(ServingEngine engine) {
  ServingRequest r;
  r.model = *catalog().model("llama-3.3-70b");
  r.quant = *catalog().quant("FP8");
  r.engine = engine;
  r.input_tokens = 1000;
  r.output_tokens = 1000;
  return r;
}

ServingGoal latency_goal() {
  ServingGoal g;
  g.mode = ServingGoal::Mode::latency;
  g.tpot_p99_ms = 50;
  g.ttft_p99_ms = 2000;
  return g;
}

/// One throughput estimate at latency targets on a box of 8 with the layout chosen: the
/// heaviest form of the command (every layout, the TTFT search).
void BM_ThroughputAtLatencyTargetsOnABoxOf8(benchmark::State& state) {
  const ServingRequest r = llama70b(ServingEngine::vllm);
  const Device h100 = *catalog().device("h100-sxm");
  for (auto _ : state) {
    benchmark::DoNotOptimize(serving_capacity(r, h100, 8, ServingLayout{}, latency_goal()));
  }
}
BENCHMARK(BM_ThroughputAtLatencyTargetsOnABoxOf8)->Unit(benchmark::kMillisecond);

/// The finder: every catalog device, boxes of 1, 2, 4 and 8, at TPOT and TTFT targets.
void BM_ServingFinderEveryDeviceAtLatencyTargets(benchmark::State& state) {
  const ServingRequest r = llama70b(ServingEngine::vllm);
  std::vector<ServingOffer> offers;
  for (const auto& d : catalog().devices())
    offers.push_back(ServingOffer{d, std::nullopt, "", "", false, {}});
  for (auto _ : state) {
    benchmark::DoNotOptimize(rank_serving(r, offers, latency_goal()));
  }
}
BENCHMARK(BM_ServingFinderEveryDeviceAtLatencyTargets)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace gputco

BENCHMARK_MAIN();
