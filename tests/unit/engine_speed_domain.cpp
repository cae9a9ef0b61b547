// DOMAIN speed cases S2..S12 and the multi-device, batching and prefill behaviour.
//
// S2-S9 are guides' estimates, not measurements: dense models are checked within 20 %, MoE
// loosely (DOMAIN: S4's 446 and S5's 269 are likely optimistic); measured rows are checked
// tightly in engine_speed_calibration.cpp and below.
#include <gtest/gtest.h>

#include <limits>

#include "engine/base/error.hpp"
#include "engine/hardware/calibration.hpp"
#include "engine/hardware/speed.hpp"
#include "tests/support/reference_data.hpp"
#include "tests/support/tolerance.hpp"

namespace gputco {
namespace {

using test::expect_within;
using test::reference_device;
using test::reference_model;
using test::reference_quant;

SpeedRequest request(const std::string& model, const std::string& quant, int context = 8192,
                     int devices = 1, SplitMode split = SplitMode::layer, int streams = 1) {
  SpeedRequest r;
  r.fit.model = reference_model(model);
  r.fit.quant = reference_quant(quant);
  r.fit.context_tokens = context;
  r.fit.concurrent_streams = streams;
  r.device_count = devices;
  r.split = split;
  return r;
}

double decode(const SpeedRequest& r, const std::string& device_id) {
  SpeedRequest with_backend = r;
  const Device d = reference_device(device_id);
  with_backend.backend = default_backend(d);
  return estimate_speed(with_backend, d).decode_tokens_per_s;
}

// DOMAIN S2: RTX 5080 (960 GB/s), Llama 3.1 8B Q4_K_M at 8K -> ~121.
TEST(DemandStreams, theStreamsAtTheirSpeedNeverMoreThanTheUnit) {
  // Hand-computed: 4 streams x 47.5 tokens/s = 190 < 380 (a box of two instances); on a unit
  // whose aggregate is 100 tokens/s, 100; nothing when the model does not fit.
  SpeedEstimate two_instances;
  two_instances.decode_tokens_per_s = 47.5;
  two_instances.aggregate_tokens_per_s = 380;
  EXPECT_DOUBLE_EQ(demand_streams_tokens_per_s(4, two_instances), 190.0);
  SpeedEstimate slow = two_instances;
  slow.aggregate_tokens_per_s = 100;
  EXPECT_DOUBLE_EQ(demand_streams_tokens_per_s(4, slow), 100.0);
  EXPECT_EQ(demand_streams_tokens_per_s(4, SpeedEstimate{}), 0.0);
  SpeedEstimate broken = two_instances;
  broken.decode_tokens_per_s = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(demand_streams_tokens_per_s(4, broken), 0.0);
}

TEST(SpeedDomain, s2Rtx5080Llama8B) {
  expect_within("DOMAIN S2 RTX 5080 8B tok/s",
                decode(request("llama-3.1-8b", "Q4_K_M"), "rtx-5080"), 121, 0.20);
}

// DOMAIN S3: RTX 4090 8B -> ~127; two RTX 4090 in layer split -> ~102: one card works at a
// time, so adding a card slows a single stream down. The guide's 102 charges ~1.9 ms per
// boundary; the measured multi-card rows (decode_measured.csv) resolve no cost beyond our
// single-card model, so layer_split_boundary_s is its physical floor (25 us): two cards are
// slightly slower than one, and within 25 % of the guide's figure.
TEST(SpeedDomain, s3LayerSplitSlowsASingleStream) {
  const double one = decode(request("llama-3.1-8b", "Q4_K_M"), "rtx-4090");
  const double two = decode(request("llama-3.1-8b", "Q4_K_M", 8192, 2), "rtx-4090");
  expect_within("DOMAIN S3 RTX 4090 8B tok/s", one, 127, 0.20);
  expect_within("DOMAIN S3 2 x RTX 4090 layer split 8B tok/s", two, 102, 0.25);
  EXPECT_LT(two, one);
  EXPECT_NEAR(1 / two - 1 / one, layer_split_boundary_s(Backend::cuda), 1e-12);
}

// DOMAIN S4: RTX PRO 6000 Blackwell (1792 GB/s): gpt-oss 120B ~446 (optimistic: measured
// 196 at tg128); Llama 3.3 70B Q4 ~30.
TEST(SpeedDomain, s4RtxPro6000) {
  const double oss = decode(request("gpt-oss-120b", "MXFP4"), "rtx-pro-6000-blackwell");
  std::printf(
      "  DOMAIN S4 gpt-oss 120B: estimated %.1f, published 446 (optimistic), measured "
      "196.3 at tg128\n",
      oss);
  EXPECT_LT(oss, 446);
  EXPECT_GT(oss, 196.31 * 0.9);
  expect_within("DOMAIN S4 Llama 3.3 70B Q4 tok/s",
                decode(request("llama-3.3-70b", "Q4_K_M"), "rtx-pro-6000-blackwell"), 30, 0.20);
}

// DOMAIN S5: RTX 4090: Qwen3 30B-A3B ~269 (MoE, optimistic); Gemma 3 27B ~43; Qwen3 32B Q3_K_M
// ~42. RTX 5090: Qwen3 32B Q4 ~61.
TEST(SpeedDomain, s5Rtx4090And5090) {
  const double moe = decode(request("qwen3-30b-a3b", "Q4_K_M"), "rtx-4090");
  std::printf(
      "  DOMAIN S5 Qwen3 30B-A3B on RTX 4090: estimated %.1f, published 269 (MoE, "
      "optimistic)\n",
      moe);
  EXPECT_LT(moe, 269 * 1.05);
  EXPECT_GT(moe, 269 * 0.5);
  expect_within("DOMAIN S5 Gemma 3 27B on RTX 4090 tok/s",
                decode(request("gemma-3-27b", "Q4_K_M"), "rtx-4090"), 43, 0.20);
  expect_within("DOMAIN S5 Qwen3 32B Q3_K_M on RTX 4090 tok/s",
                decode(request("qwen3-32b", "Q3_K_M"), "rtx-4090"), 42, 0.20);
  expect_within("DOMAIN S5 Qwen3 32B Q4 on RTX 5090 tok/s",
                decode(request("qwen3-32b", "Q4_K_M"), "rtx-5090"), 61, 0.20);
}

// DOMAIN S6: four used RTX 3090 (layer split): Llama 3.3 70B ~12. The measurements say more:
// 2 x RTX 4090 reach 19.2 on Llama 3 70B Q4_K_M (decode_measured.csv), which scaled to the
// 3090's 936 GB/s gives ~17.8. Our estimate follows the measurements; S6 is checked loosely
// (between the guide and the measurement-based 17.8 + 5 %).
TEST(SpeedDomain, s6FourRtx3090LayerSplit) {
  const double est = decode(request("llama-3.3-70b", "Q4_K_M", 8192, 4), "rtx-3090");
  std::printf(
      "  DOMAIN S6 4 x RTX 3090 70B: estimated %.1f, published 12, measurement-based ~17.8\n", est);
  EXPECT_GT(est, 12);
  EXPECT_LT(est, 17.8 * 1.05);
}

// DOMAIN S7: 8B model: T4 ~40, P100 ~92, L4 ~38, Mac mini M4 (120 GB/s) ~13; MacBook Pro M4 Pro
// (273 GB/s): Gemma 3 27B ~10. The Apple cases come out 20-30 % above the guide: our Metal
// constants are fitted on Q4_0/Q8_0/F16 rows, and Apple GPUs run K-quants slower per byte (the
// measured M1 Max Llama 3 8B Q4_K_M row is 35.7 where we estimate 54): checked within 35 %.
// The P100 has HBM2: the guide's 92 is 0.6 x bandwidth / bytes, but llama.cpp reaches only
// ~0.44 of an HBM part's peak (measured A100 and H100 rows, calibration.hpp), so our estimate
// is ~55: checked between half the guide's figure and the guide's figure.
TEST(SpeedDomain, s7SmallCardsAndMacs) {
  const SpeedRequest r = request("llama-3.1-8b", "Q4_K_M");
  expect_within("DOMAIN S7 T4 8B tok/s", decode(r, "t4"), 40, 0.20);
  const double p100 = decode(r, "p100");
  std::printf("  DOMAIN S7 P100 8B: estimated %.1f, published 92 (0.6 x bandwidth)\n", p100);
  EXPECT_GT(p100, 92 * 0.5);
  EXPECT_LT(p100, 92);
  expect_within("DOMAIN S7 L4 8B tok/s", decode(r, "l4"), 38, 0.20);
  expect_within("DOMAIN S7 Mac mini M4 8B tok/s", decode(r, "m4-10c"), 13, 0.35);
  expect_within("DOMAIN S7 M4 Pro Gemma 3 27B tok/s",
                decode(request("gemma-3-27b", "Q4_K_M"), "m4-pro-20c"), 10, 0.35);
}

// DOMAIN S8: a 70B model at 4-bit is ~42 GB; 60 tokens/s would need ~2.5 TB/s of reads.
TEST(SpeedDomain, s8SeventyBillionReadsPerToken) {
  SpeedRequest r = request("llama-3.3-70b", "Q4_K_M", 1);
  const double gb = estimate_speed(r, reference_device("h100-sxm")).bytes_per_token_gb;
  expect_within("DOMAIN S8 70B Q4 GB read per token", gb, 42, 0.05);
  expect_within("DOMAIN S8 TB/s for 60 tok/s", gb * 60 / 1000, 2.5, 0.05);
}

// DOMAIN S9: 8 streams of an 8B model on an RTX 4090 each see ~56 tokens/s instead of 127,
// while the machine produces far more: weights read once per step, KV per stream.
TEST(SpeedDomain, s9BatchingSharesTheWeightReads) {
  const SpeedRequest single = request("llama-3.1-8b", "Q4_K_M");
  const SpeedRequest batch = request("llama-3.1-8b", "Q4_K_M", 8192, 1, SplitMode::layer, 8);
  const Device d = reference_device("rtx-4090");
  const SpeedEstimate one = estimate_speed(single, d);
  const SpeedEstimate eight = estimate_speed(batch, d);
  expect_within("DOMAIN S9 per stream of 8 tok/s", eight.decode_tokens_per_s, 56, 0.20);
  EXPECT_DOUBLE_EQ(eight.aggregate_tokens_per_s, 8 * eight.decode_tokens_per_s);
  EXPECT_GT(eight.aggregate_tokens_per_s, 3 * one.aggregate_tokens_per_s);
  EXPECT_LT(eight.decode_tokens_per_s, one.decode_tokens_per_s);
}

// DOMAIN S10 / measured: power-limiting an RTX PRO 6000 from 600 W to 300 W cost ~7 %. The
// engine ignores the power limit (decode is memory bound); both measured rows are within 15 %.
TEST(SpeedDomain, s10PowerLimitIsNotModelledAndBarelyMatters) {
  const double est =
      estimate_speed(request("llama-2-7b", "Q4_0", 64), reference_device("rtx-pro-6000-blackwell"))
          .decode_tokens_per_s;
  expect_within("DOMAIN S10 600 W row tok/s", est, 278.95, 0.15);
  expect_within("DOMAIN S10 300 W row tok/s", est, 260.42, 0.15);
}

// DOMAIN S11: tensor parallel needs a fast interconnect; an 8x PCIe workstation reaches as
// little as a third of an 8x NVLink system; the card count must divide the attention heads.
TEST(SpeedDomain, s11TensorParallelDependsOnTheInterconnect) {
  Device nvlink = reference_device("h100-sxm");
  nvlink.nvlink_gbps = 900;  // E7
  Device pcie = nvlink;
  pcie.nvlink_gbps = 0;
  const SpeedRequest tp8 = request("llama-3.3-70b", "Q4_K_M", 8192, 8, SplitMode::tensor);
  const double fast = estimate_speed(tp8, nvlink).decode_tokens_per_s;
  const double slow = estimate_speed(tp8, pcie).decode_tokens_per_s;
  std::printf(
      "  DOMAIN S11 8 x H100 70B tensor parallel: NVLink %.1f, PCIe %.1f (ratio %.2f, "
      "published: as little as 1/3)\n",
      fast, slow, slow / fast);
  EXPECT_LT(slow / fast, 0.5);
  EXPECT_GT(slow / fast, 0.25);
  const SpeedRequest layer8 = request("llama-3.3-70b", "Q4_K_M", 8192, 8, SplitMode::layer);
  EXPECT_GT(fast, estimate_speed(layer8, nvlink).decode_tokens_per_s);
  EXPECT_EQ(estimate_speed(tp8, nvlink).split_used, SplitMode::tensor);
  // 3 does not divide 64 heads: estimated as a layer split, and said so.
  const SpeedEstimate three =
      estimate_speed(request("llama-3.3-70b", "Q4_K_M", 8192, 3, SplitMode::tensor), nvlink);
  EXPECT_EQ(three.split_used, SplitMode::layer);
  EXPECT_NE(three.note.find("64 attention heads"), std::string::npos) << three.note;
  EXPECT_DOUBLE_EQ(
      three.decode_tokens_per_s,
      estimate_speed(request("llama-3.3-70b", "Q4_K_M", 8192, 3), nvlink).decode_tokens_per_s);
}

// DOMAIN S12: prefill is compute bound: a Mac (high bandwidth, low compute) starts answering
// long documents slowly, then streams fast. FP16 TFLOPS set here: RTX 4090 165 (dense, FP32
// accumulate), M3 Ultra 80-core ~28.
TEST(SpeedDomain, s12PrefillIsComputeBound) {
  Device gpu = reference_device("rtx-4090");
  gpu.fp16_tflops = 165;
  Device mac = reference_device("m3-ultra-80c");
  mac.fp16_tflops = 28;
  SpeedRequest r = request("llama-3.3-70b", "Q4_K_M", 32768);
  r.prompt_tokens = 32768;
  r.backend = Backend::metal;
  const SpeedEstimate on_mac = estimate_speed(r, mac);
  r.backend = Backend::cuda;
  r.device_count = 2;
  const SpeedEstimate on_gpus = estimate_speed(r, gpu);
  std::printf(
      "  DOMAIN S12 70B, 32K prompt: Mac TTFT %.0f s at %.1f tok/s decode; 2 x RTX 4090 "
      "TTFT %.0f s at %.1f tok/s\n",
      on_mac.time_to_first_token_s, on_mac.decode_tokens_per_s, on_gpus.time_to_first_token_s,
      on_gpus.decode_tokens_per_s);
  EXPECT_GT(on_mac.time_to_first_token_s, 3 * on_gpus.time_to_first_token_s);
  EXPECT_GT(on_mac.decode_tokens_per_s, 0.5 * on_gpus.decode_tokens_per_s);
  // Unknown compute: no prefill figure rather than a made-up one.
  gpu.fp16_tflops = 0;
  const SpeedEstimate unknown = estimate_speed(r, gpu);
  EXPECT_EQ(unknown.prefill_tokens_per_s, 0.0);
  EXPECT_EQ(unknown.time_to_first_token_s, 0.0);
}

// Measured prefill (pp512) on an RTX 4090, Llama 3 8B Q4_K_M: 7,139 tokens/s. With 165 FP16
// TFLOPS and the uncalibrated 0.5 efficiency the estimate is within 25 %.
TEST(SpeedDomain, prefillAgainstAMeasuredRow) {
  Device gpu = reference_device("rtx-4090");
  gpu.fp16_tflops = 165;
  SpeedRequest r = request("llama-3-8b", "Q4_K_M", 512);
  r.prompt_tokens = 512;
  const SpeedEstimate e = estimate_speed(r, gpu);
  expect_within("pp512 RTX 4090 Llama 3 8B tok/s", e.prefill_tokens_per_s, 7138.99, 0.25);
  EXPECT_NEAR(e.time_to_first_token_s, 512 / e.prefill_tokens_per_s, 1e-12);
}

// Measured layer-split rows (decode_measured.csv): 2 x RTX 4090 Llama 3 70B Q4_K_M 19.22;
// 6 x RTX 3090 Llama 3 70B F16 5.85. Within 10 %.
TEST(SpeedDomain, layerSplitMeasuredRows) {
  for (const auto& row : test::measured_decode_rows()) {
    if (row.count < 2) continue;
    expect_within("measured " + std::to_string(row.count) + " x " + row.device_id + " " +
                      row.model_id + " " + row.quant,
                  test::estimated_decode_tokens_per_s(row), row.decode_tokens_per_s, 0.10);
  }
}

// DOMAIN M7: MoE speed follows ACTIVE parameters, memory total ones.
TEST(SpeedDomain, moeSpeedFollowsActiveParameters) {
  const double moe = decode(request("qwen3-30b-a3b", "Q4_K_M"), "rtx-4090");
  const double dense = decode(request("qwen3-32b", "Q4_K_M"), "rtx-4090");
  EXPECT_GT(moe, 3 * dense) << "MoE " << moe << " tok/s, dense " << dense << " tok/s";
}

TEST(SpeedDomain, badInputsThrowInsteadOfReturningNonsense) {
  const Device d = reference_device("rtx-4090");
  SpeedRequest r = request("llama-3.1-8b", "Q4_K_M");
  r.device_count = 0;
  EXPECT_THROW(estimate_speed(r, d), EngineError);
  r = request("llama-3.1-8b", "Q4_K_M");
  r.prompt_tokens = -1;
  EXPECT_THROW(estimate_speed(r, d), EngineError);
  r = request("llama-3.1-8b", "Q4_K_M", 0);
  EXPECT_THROW(estimate_speed(r, d), EngineError);
  Device no_bandwidth = d;
  no_bandwidth.bandwidth_gbps = 0;
  EXPECT_THROW(estimate_speed(request("llama-3.1-8b", "Q4_K_M"), no_bandwidth), EngineError);
  // Every backend gives a finite, positive speed.
  for (Backend b : {Backend::cuda, Backend::metal, Backend::rocm, Backend::vulkan, Backend::sycl}) {
    SpeedRequest ok = request("llama-3.1-8b", "Q4_K_M");
    ok.backend = b;
    const double tps = estimate_speed(ok, d).decode_tokens_per_s;
    EXPECT_TRUE(std::isfinite(tps) && tps > 0) << to_string(b) << ": " << tps;
  }
}

}  // namespace
}  // namespace gputco
