// How long the estimates take: fit + speed for every catalog device x model x 4 quants x
// 4 context lengths, and the finder table (with prices, speed index and tiers) for one model.
// Run: BUILD/tests/bench/engine_bench
#include <benchmark/benchmark.h>

#include "engine/hardware/finder.hpp"
#include "pricing/catalog.hpp"

namespace gputco {
namespace {

const std::vector<const char*> kQuants = {"Q3_K_M", "Q4_K_M", "Q8_0", "F16"};
const std::vector<int> kContexts = {2048, 8192, 32768, 131072};

struct Sweep {
  std::vector<Device> devices;
  std::vector<ModelArch> models;
  std::vector<Quant> quants;
};

const Sweep& sweep() {
  static const Sweep s = [] {
    const Catalog catalog = Catalog::open_builtin();
    Sweep out{catalog.devices(), catalog.models(), {}};
    for (const char* q : kQuants) out.quants.push_back(*catalog.quant(q));
    return out;
  }();
  return s;
}

/// Every device x model x quant x context: fit, and speed where it fits (as the CLI does).
void BM_EstimateEveryCombination(benchmark::State& state) {
  const Sweep& s = sweep();
  std::int64_t estimates = 0;
  for (auto _ : state) {
    for (const auto& model : s.models) {
      for (const auto& quant : s.quants) {
        for (int context : kContexts) {
          const FitRequest request{model, quant, context, 1, KvCacheType::f16};
          for (const auto& device : s.devices) {
            benchmark::DoNotOptimize(evaluate_device(request, device, 1));
            ++estimates;
          }
        }
      }
    }
  }
  state.SetItemsProcessed(estimates);
  state.counters["combinations"] =
      static_cast<double>(s.devices.size() * s.models.size() * s.quants.size() * kContexts.size());
}
BENCHMARK(BM_EstimateEveryCombination)->Unit(benchmark::kMillisecond);

/// The same combinations, speed estimated whether or not the model fits.
void BM_SpeedEveryCombination(benchmark::State& state) {
  const Sweep& s = sweep();
  std::int64_t estimates = 0;
  for (auto _ : state) {
    for (const auto& model : s.models) {
      for (const auto& quant : s.quants) {
        for (int context : kContexts) {
          const FitRequest request{model, quant, context, 1, KvCacheType::f16};
          for (const auto& device : s.devices) {
            benchmark::DoNotOptimize(estimate_speed(
                SpeedRequest{request, 1, SplitMode::layer, default_backend(device), 0}, device));
            ++estimates;
          }
        }
      }
    }
  }
  state.SetItemsProcessed(estimates);
}
BENCHMARK(BM_SpeedEveryCombination)->Unit(benchmark::kMillisecond);

/// The finder table of `gputco fit --model llama-3.3-70b --quant Q4_K_M` without the catalog
/// queries: singles, multi-card systems, speed index and tiers.
void BM_FinderLlama70b(benchmark::State& state) {
  const Sweep& s = sweep();
  const Catalog catalog = Catalog::open_builtin();
  FinderRequest finder;
  finder.request = FitRequest{*catalog.model("llama-3.3-70b"), *catalog.quant("Q4_K_M"), 8192, 1,
                              KvCacheType::f16};
  finder.speed_reference = *catalog.device("rtx-3090");
  finder.tier_probe = TierProbe{s.models, *catalog.quant("Q4_K_M"), 8192, {}};
  std::vector<DeviceOffer> offers;
  for (const auto& d : s.devices) offers.push_back(DeviceOffer{d, std::nullopt, std::nullopt});
  for (auto _ : state) benchmark::DoNotOptimize(find_devices(finder, offers));
}
BENCHMARK(BM_FinderLlama70b)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace gputco

BENCHMARK_MAIN();
