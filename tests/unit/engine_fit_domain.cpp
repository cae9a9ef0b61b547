// DOMAIN memory cases M2..M13, fit verdicts and usable memory.
//
// The guides' totals include the CUDA context of the process; this engine subtracts it from
// usable memory instead (MemoryPolicy::driver_reserve_mib), so a published total is compared
// with total_gib + that reserve: what the serving process occupies on the card. The guides
// use rules of thumb (overhead ~10 % of weights): totals are checked within 10 %.
#include <gtest/gtest.h>

#include "engine/base/error.hpp"
#include "engine/base/units.hpp"
#include "engine/hardware/fit.hpp"
#include "tests/support/reference_data.hpp"
#include "tests/support/tolerance.hpp"

namespace gputco {
namespace {

using test::expect_within;
using test::reference_device;
using test::reference_model;
using test::reference_quant;

const double kDriverContextGib = MemoryPolicy{}.driver_reserve_mib / kMiBPerGiB;

FitRequest request(const std::string& model, const std::string& quant, int context, int streams = 1,
                   KvCacheType kv = KvCacheType::f16) {
  FitRequest r;
  r.model = reference_model(model);
  r.quant = reference_quant(quant);
  r.context_tokens = context;
  r.concurrent_streams = streams;
  r.kv_cache = kv;
  return r;
}

double process_gib(const FitRequest& r, int devices = 1) {
  return estimate_memory(r, devices).total_gib + devices * kDriverContextGib;
}

// DOMAIN M2: a 7B model at 4-bit fits comfortably in 8 GB; at 16-bit it needs ~16 GB.
TEST(FitDomain, m2SevenBillionAt4BitFitsIn8GB) {
  Device card8;
  card8.id = "8gb-card";
  card8.memory_nameplate_gb = 8;
  const FitRequest q4 = request("mistral-7b", "Q4_K_M", 4096);
  EXPECT_EQ(fit(q4, card8, 1).verdict, Verdict::fits)
      << "total " << estimate_memory(q4).total_gib << " GiB, usable "
      << usable_memory_gib(card8, 1);
  const FitRequest f16 = request("mistral-7b", "F16", 4096);
  EXPECT_EQ(fit(f16, card8, 1).verdict, Verdict::does_not_fit);
  expect_within("DOMAIN M2 7B F16 needs, GB", gib_to_bytes(process_gib(f16)) / kBytesPerGB, 16.0,
                0.10);
}

// DOMAIN M3: Llama 3.1 8B Q4_K_M: ~4.5 GiB weights, ~1 GiB cache, ~6.6 total at 8K; ~22.8
// total at 128K of which 16 GiB cache.
TEST(FitDomain, m3Llama31At8KAnd128K) {
  const MemoryBreakdown at8k = estimate_memory(request("llama-3.1-8b", "Q4_K_M", 8192));
  expect_within("DOMAIN M3 weights GiB", at8k.weights_gib, 4.5, 0.05);
  expect_within("DOMAIN M3 cache at 8K GiB", at8k.kv_cache_gib, 1.0, 0.01);
  expect_within("DOMAIN M3 total at 8K GiB", process_gib(request("llama-3.1-8b", "Q4_K_M", 8192)),
                6.6, 0.10);
  const FitRequest long_context = request("llama-3.1-8b", "Q4_K_M", 131072);
  expect_within("DOMAIN M3 cache at 128K GiB", estimate_memory(long_context).kv_cache_gib, 16.0,
                0.01);
  expect_within("DOMAIN M3 total at 128K GiB", process_gib(long_context), 22.8, 0.10);
}

// DOMAIN M4: Qwen3 32B Q4_K_M at 8K: 22.8 = 18.5 weights + 2.0 cache + overhead; 21.7 at 4K;
// 18.9 at Q3_K_M. On a headless 24 GB card it fits, tightly.
TEST(FitDomain, m4Qwen3On24GBCard) {
  const FitRequest r = request("qwen3-32b", "Q4_K_M", 8192);
  const MemoryBreakdown mb = estimate_memory(r);
  expect_within("DOMAIN M4 weights GiB", mb.weights_gib, 18.5, 0.03);
  expect_within("DOMAIN M4 cache GiB", mb.kv_cache_gib, 2.0, 0.01);
  expect_within("DOMAIN M4 total at 8K GiB", process_gib(r), 22.8, 0.10);
  expect_within("DOMAIN M4 total at 4K GiB", process_gib(request("qwen3-32b", "Q4_K_M", 4096)),
                21.7, 0.10);
  expect_within("DOMAIN M4 total Q3_K_M GiB", process_gib(request("qwen3-32b", "Q3_K_M", 8192)),
                18.9, 0.10);
  EXPECT_EQ(fit(r, reference_device("rtx-4090"), 1).verdict, Verdict::tight)
      << "total " << mb.total_gib << " GiB, usable "
      << usable_memory_gib(reference_device("rtx-4090"), 1);
}

// DOMAIN M6: Qwen3 14B Q4_K_M at 8K: 11.0 total; on a 12 GB card 0.2 of margin: tight.
TEST(FitDomain, m6Qwen3_14BOn12GBCardIsTight) {
  const FitRequest r = request("qwen3-14b", "Q4_K_M", 8192);
  expect_within("DOMAIN M6 total GiB", process_gib(r), 11.0, 0.10);
  const FitResult f = fit(r, reference_device("rtx-3060-12gb"), 1);
  EXPECT_EQ(f.verdict, Verdict::tight) << "headroom " << f.headroom_gib << " GiB";
  EXPECT_LT(f.headroom_gib, 1.0);
}

// DOMAIN M7: MoE capacity follows total parameters. gpt-oss 120B ~63.4 at 8K; Qwen3 30B-A3B
// Q4 20.1 at 8K; Llama 3.3 70B Q4 46.4 at 8K.
TEST(FitDomain, m7MoeCapacityFollowsTotalParameters) {
  expect_within("DOMAIN M7 gpt-oss 120B GiB", process_gib(request("gpt-oss-120b", "MXFP4", 8192)),
                63.4, 0.10);
  expect_within("DOMAIN M7 Qwen3 30B-A3B GiB",
                process_gib(request("qwen3-30b-a3b", "Q4_K_M", 8192)), 20.1, 0.10);
  expect_within("DOMAIN M7 Llama 3.3 70B GiB",
                process_gib(request("llama-3.3-70b", "Q4_K_M", 8192)), 46.4, 0.10);
}

// DOMAIN M8: Llama 3.3 70B Q4 at 32K: 54.5 with f16 cache, 49.4 with q8_0, 46.7 with q4_0.
TEST(FitDomain, m8KvCacheQuantization) {
  const auto total = [](KvCacheType kv) {
    return process_gib(request("llama-3.3-70b", "Q4_K_M", 32768, 1, kv));
  };
  expect_within("DOMAIN M8 f16 cache GiB", total(KvCacheType::f16), 54.5, 0.10);
  expect_within("DOMAIN M8 q8_0 cache GiB", total(KvCacheType::q8_0), 49.4, 0.10);
  expect_within("DOMAIN M8 q4_0 cache GiB", total(KvCacheType::q4_0), 46.7, 0.10);
  // Savings: 10 GiB of f16 cache -> 5.31 (q8_0) -> 2.81 (q4_0); published 5.1 and 2.7.
  expect_within("DOMAIN M8 saving f16->q8_0 GiB",
                total(KvCacheType::f16) - total(KvCacheType::q8_0), 5.1, 0.10);
  expect_within("DOMAIN M8 saving q8_0->q4_0 GiB",
                total(KvCacheType::q8_0) - total(KvCacheType::q4_0), 2.7, 0.10);
}

// DOMAIN M9: 8 concurrent streams of an 8B model need 14.2 instead of 6.6: streams multiply
// the cache, not the weights.
TEST(FitDomain, m9ConcurrentStreamsMultiplyTheCacheOnly) {
  const MemoryBreakdown one = estimate_memory(request("llama-3.1-8b", "Q4_K_M", 8192, 1));
  const MemoryBreakdown eight = estimate_memory(request("llama-3.1-8b", "Q4_K_M", 8192, 8));
  EXPECT_DOUBLE_EQ(eight.weights_gib, one.weights_gib);
  EXPECT_DOUBLE_EQ(eight.kv_cache_gib, 8 * one.kv_cache_gib);
  expect_within("DOMAIN M9 8 streams GiB", process_gib(request("llama-3.1-8b", "Q4_K_M", 8192, 8)),
                14.2, 0.10);
}

// DOMAIN M10: Gemma 3 27B at 131K: ~10.4 GiB of cache where a conventional 32B pays ~32 (also
// in engine_fit_kv_cache.cpp); here through estimate_memory. llama.cpp allocates 10.61 GiB
// (each sliding layer holds the window plus one 512-token micro-batch): within 3 % of 10.4.
TEST(FitDomain, m10SlidingWindowCacheThroughEstimateMemory) {
  expect_within("DOMAIN M10 Gemma 3 27B cache at 131K GiB",
                estimate_memory(request("gemma-3-27b", "Q4_K_M", 131072)).kv_cache_gib, 10.4, 0.03);
  expect_within("DOMAIN M10 Qwen3 32B cache at 131K GiB",
                estimate_memory(request("qwen3-32b", "Q4_K_M", 131072)).kv_cache_gib, 32.0, 0.02);
}

// DOMAIN M11: DeepSeek R1 at Q4 needs ~410.
TEST(FitDomain, m11DeepSeekR1AtQ4) {
  expect_within("DOMAIN M11 DeepSeek R1 Q4_K_M at 8K GiB",
                process_gib(request("deepseek-r1", "Q4_K_M", 8192)), 410, 0.10);
}

// DOMAIN M12: a runtime may allocate about three quarters of unified memory: 512 -> 384,
// 192 -> 144.
TEST(FitDomain, m12UnifiedMemoryThreeQuarters) {
  EXPECT_DOUBLE_EQ(usable_memory_gib(reference_device("m3-ultra-80c"), 1), 384.0);
  EXPECT_DOUBLE_EQ(usable_memory_gib(reference_device("m2-ultra-76c"), 1), 144.0);
  MemoryPolicy raised;  // sysctl iogpu.wired_limit_mb raises it
  raised.unified_usable_fraction = 0.9;
  EXPECT_NEAR(usable_memory_gib(reference_device("m2-ultra-76c"), 1, raised), 172.8, 1e-9);
}

// DOMAIN M13 / M5: verdict thresholds are the policy's; capacity tiers are cliffs.
TEST(FitDomain, m13VerdictThresholdsAreConfigurable) {
  const FitRequest r = request("llama-3.1-8b", "Q4_K_M", 8192);
  const double total = estimate_memory(r).total_gib;
  Device card;
  card.id = "test-card";
  MemoryPolicy p;
  p.driver_reserve_mib = 0;
  p.runtime_margin_mib = 0;
  p.firmware_reserve_fraction = 0;
  card.memory_nameplate_gb = total / 0.95;  // 95 % used
  EXPECT_EQ(fit(r, card, 1, p).verdict, Verdict::tight);
  p.fits_max_ratio = 0.96;
  EXPECT_EQ(fit(r, card, 1, p).verdict, Verdict::fits);
  card.memory_nameplate_gb = total * 0.999;
  EXPECT_EQ(fit(r, card, 1, p).verdict, Verdict::does_not_fit);
  EXPECT_LT(fit(r, card, 1, p).headroom_gib, 0);
  card.memory_nameplate_gb = total;  // exactly full: fits, tightly
  EXPECT_EQ(fit(r, card, 1, p).verdict, Verdict::tight);
}

// DOMAIN "Units" and M5: a "24 GB" card holds 24 GiB (nvidia-smi 24,564 MiB); usable on a
// headless server = 24 GiB - 0.45 % firmware - 512 MiB driver/context - 1 GiB llama.cpp
// margin = 22.39 GiB. (The guide of M5 publishes 22.3, 29.8, 43.2 and 11.2 for 24, 32, 2 x 24
// and 12 GB: decimal nameplates, close to a desktop's free memory.)
TEST(FitDomain, usableMemoryOfDiscreteCardsIsBinaryMinusReserves) {
  const auto headless = [](double nameplate_gib) { return nameplate_gib * 0.9955 - 1.5; };
  EXPECT_DOUBLE_EQ(usable_memory_gib(reference_device("rtx-4090"), 1), headless(24));
  EXPECT_NEAR(usable_memory_gib(reference_device("rtx-4090"), 1), 22.39, 0.01);
  EXPECT_DOUBLE_EQ(usable_memory_gib(reference_device("rtx-5090"), 1), headless(32));
  EXPECT_DOUBLE_EQ(usable_memory_gib(reference_device("rtx-4090"), 2), 2 * headless(24));
  EXPECT_DOUBLE_EQ(usable_memory_gib(reference_device("rtx-3060-12gb"), 1), headless(12));
  // Not above what nvidia-smi reports less a ~400 MiB context and the 1 GiB margin:
  // H100 81,559 MiB, H200 143,771 MiB.
  EXPECT_LE(usable_memory_gib(reference_device("h100-sxm"), 1),
            (81559.0 - 400 - 1024) / kMiBPerGiB);
  EXPECT_LE(usable_memory_gib(reference_device("h200-sxm"), 1),
            (143771.0 - 400 - 1024) / kMiBPerGiB);
  MemoryPolicy desktop;  // a card that also drives a desktop session
  desktop.driver_reserve_mib = 1536;
  EXPECT_DOUBLE_EQ(usable_memory_gib(reference_device("rtx-4090"), 1, desktop), headless(24) - 1);
  MemoryPolicy ollama;
  ollama.runtime_margin_mib = 457;
  EXPECT_NEAR(usable_memory_gib(reference_device("rtx-4090"), 1, ollama),
              24 * 0.9955 - (512 + 457) / kMiBPerGiB, 1e-12);
}

// "How other calculators go wrong": compute buffers left out (~2.4 GB for a mid-size MoE at
// 32K context). Without flash attention llama.cpp materialises heads x n_kv x ubatch f32
// scores: Qwen3 30B-A3B at 32K, 32 heads, 512-token micro-batches: 2.0 GiB + activations.
TEST(FitDomain, computeBuffersAreCounted) {
  FitRequest r = request("qwen3-30b-a3b", "Q4_K_M", 32768);
  r.flash_attention = false;
  expect_within("compute buffer Qwen3 30B-A3B 32K no FA, GB", compute_buffer_bytes(r) / kBytesPerGB,
                2.4, 0.15);
  // llama.cpp log for Llama 3 8B at n_ctx 8192 without flash attention: 560 MiB.
  FitRequest llama = request("llama-3-8b", "Q4_K_M", 8192);
  llama.flash_attention = false;
  expect_within("compute buffer Llama 3 8B 8K no FA, MiB",
                compute_buffer_bytes(llama) / kBytesPerMiB, 560, 0.05);
  // With flash attention the buffer hardly grows with context (logits dominate).
  r.flash_attention = true;
  EXPECT_LT(compute_buffer_bytes(r), 0.5 * kBytesPerGiB);
  EXPECT_GT(estimate_memory(r).overhead_gib, 0.0);
  // One buffer per device; the logits only on one of them.
  EXPECT_GT(estimate_memory(r, 2).overhead_gib, estimate_memory(r, 1).overhead_gib);
  EXPECT_LT(estimate_memory(r, 2).overhead_gib, 2 * estimate_memory(r, 1).overhead_gib);
}

TEST(FitDomain, devicesNeededIsTheSmallestCountThatHolds) {
  const FitRequest r = request("llama-3.3-70b", "Q4_K_M", 8192);
  EXPECT_EQ(devices_needed(r, reference_device("rtx-4090")), 2);
  EXPECT_EQ(devices_needed(r, reference_device("h100-sxm")), 1);
  EXPECT_EQ(devices_needed(r, reference_device("rtx-3060-12gb"), 3), 0);
  EXPECT_THROW(devices_needed(r, reference_device("rtx-4090"), 0), EngineError);
}

TEST(FitDomain, badInputsThrowInsteadOfReturningNonsense) {
  FitRequest r = request("llama-3.1-8b", "Q4_K_M", 8192);
  EXPECT_THROW(estimate_memory(r, 0), EngineError);
  r.context_tokens = 0;
  EXPECT_THROW(estimate_memory(r), EngineError);
  r = request("llama-3.1-8b", "Q4_K_M", 8192, 0);
  EXPECT_THROW(estimate_memory(r), EngineError);
  r = request("llama-3.1-8b", "Q4_K_M", 8192);
  r.model.layers = 0;
  EXPECT_THROW(estimate_memory(r), EngineError);
  Device empty;
  EXPECT_THROW(usable_memory_gib(empty, 1), EngineError);
  EXPECT_THROW(usable_memory_gib(reference_device("rtx-4090"), 0), EngineError);
  MemoryPolicy bad;
  bad.fits_max_ratio = 1.5;
  EXPECT_THROW(usable_memory_gib(reference_device("rtx-4090"), 1, bad), EngineError);
  EXPECT_EQ(to_string(Verdict::does_not_fit), "does_not_fit");
}

TEST(FitContext, theDefaultIsCappedAtTheModelsTrainedMaximum) {
  // Llama 2 7B was trained for 4,096 tokens (its config's max_position_embeddings); Llama
  // 3.1 8B for 131,072. The default 8,192 is capped for the first, kept for the second.
  const ModelArch llama2 = reference_model("llama-2-7b");
  const ModelArch llama31 = reference_model("llama-3.1-8b");
  EXPECT_EQ(default_context_tokens(llama2), 4096);
  EXPECT_EQ(default_context_tokens(llama31), 8192);
  EXPECT_EQ(context_beyond_model_reason(llama2, 4096), "");
  EXPECT_EQ(context_beyond_model_reason(llama2, 4097),
            "4097 is beyond llama-2-7b's maximum context of 4096 tokens");
  ModelArch unstated = llama2;
  unstated.max_context = 0;  // not stated by a custom catalog: no cap, no refusal
  EXPECT_EQ(default_context_tokens(unstated), 8192);
  EXPECT_EQ(context_beyond_model_reason(unstated, 1'000'000), "");
}

}  // namespace
}  // namespace gputco
