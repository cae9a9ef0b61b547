// llama.cpp's layer split over a box of GPUs, equal or not (engine/hardware/layer_split.hpp): where
// the layers go, the memory of each GPU and of the host, and the speed of the stages taking turns.
#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

#include "engine/base/error.hpp"
#include "engine/base/units.hpp"
#include "engine/hardware/layer_split.hpp"
#include "engine/hardware/model_bytes.hpp"
#include "tests/support/reference_data.hpp"

namespace gputco {
namespace {

using test::reference_device;
using test::reference_model;
using test::reference_quant;

FitRequest request(const std::string& model, const std::string& quant, int context = 8192) {
  FitRequest r;
  r.model = reference_model(model);
  r.quant = reference_quant(quant);
  r.context_tokens = context;
  return r;
}

std::vector<Device> box(const std::vector<std::pair<int, std::string>>& parts) {
  std::vector<Device> out;
  for (const auto& [n, id] : parts) {
    for (int i = 0; i < n; ++i) out.push_back(reference_device(id));
  }
  return out;
}

// The box: two Tesla M40 24 GB and a T4 16 GB. Free memory (nameplate as GiB, less 0.45 %
// firmware and 512 MiB driver): M40 24 - 0.108 - 0.5 = 23.392 GiB, T4 16 - 0.072 - 0.5 = 15.428;
// proportions 23.392 / 62.212 = 0.37601 each and 15.428 / 62.212 = 0.24799. Llama 3.3 70B has 80
// layers and the output layer: 81 slots. Layer il goes to the first card whose split point
// (0.37601, 0.75202, 1) exceeds il / 81: il < 30.46 on the first (0-30: 31 layers), il < 60.91
// on the second (31-60: 30), the rest and the output on the T4 (61-79: 19).
TEST(LayerSplit, placesLayersByFreeMemoryAsLlamaCppDoes) {
  const std::vector<Device> gpus = box({{2, "tesla-m40"}, {1, "t4"}});
  EXPECT_NEAR(free_memory_gib(gpus[0]), 23.392, 1e-9);
  EXPECT_NEAR(free_memory_gib(gpus[2]), 15.428, 1e-9);
  const auto p = layer_split_proportions(gpus, {});
  EXPECT_NEAR(p[0], 23.392 / 62.212, 1e-12);
  EXPECT_NEAR(p[2], 15.428 / 62.212, 1e-12);
  const LayerSplitFit f = fit_layer_split(request("llama-3.3-70b", "Q3_K_M"), gpus);
  ASSERT_EQ(f.gpus.size(), 3u);
  EXPECT_EQ(f.gpus[0].first_layer, 0);
  EXPECT_EQ(f.gpus[0].layers, 31);
  EXPECT_EQ(f.gpus[1].first_layer, 31);
  EXPECT_EQ(f.gpus[1].layers, 30);
  EXPECT_EQ(f.gpus[2].first_layer, 61);
  EXPECT_EQ(f.gpus[2].layers, 19);
  EXPECT_FALSE(f.gpus[0].output_layer || f.gpus[1].output_layer);
  EXPECT_TRUE(f.gpus[2].output_layer);
  EXPECT_EQ(box_text(gpus), "2x tesla-m40 + 1x t4");
  for (const GpuShare& g : f.gpus) {
    std::printf(
        "  %-10s layers %2d-%2d%s: weights %.2f + KV %.2f + compute %.2f = %.2f of %.2f "
        "GiB (%s)\n",
        g.device.id.c_str(), g.first_layer, g.first_layer + g.layers - 1,
        g.output_layer ? " + output" : "", g.weights_gib, g.kv_cache_gib, g.compute_buffer_gib,
        g.total_gib, g.usable_gib, to_string(g.verdict).c_str());
  }
  // The devices hold every weight but the token embedding, which stays in host RAM.
  double weights = 0;
  for (const GpuShare& g : f.gpus) weights += g.weights_gib;
  const FitRequest r = request("llama-3.3-70b", "Q3_K_M");
  EXPECT_NEAR(weights,
              bytes_to_gib(weights_bytes(r.model, r.quant) - embedding_bytes(r.model, r.quant)),
              1e-9);
  EXPECT_NEAR(f.host_embedding_gib, bytes_to_gib(embedding_bytes(r.model, r.quant)), 1e-12);
  // Each card holds a compute buffer; only the T4's carries the logits (vocab 128,256).
  EXPECT_GT(f.gpus[2].compute_buffer_gib, f.gpus[0].compute_buffer_gib);
  EXPECT_DOUBLE_EQ(f.gpus[0].compute_buffer_gib, bytes_to_gib(compute_buffer_bytes(r, false)));
}

// --tensor-split 1,1,0 leaves the third card without layers: llama.cpp's split points 0.5, 1, 1.
TEST(LayerSplit, tensorSplitGivesTheProportions) {
  const std::vector<Device> gpus = box({{2, "tesla-m40"}, {1, "t4"}});
  const LayerSplitFit f = fit_layer_split(request("llama-3.1-8b", "Q4_K_M"), gpus, {1, 1, 0});
  EXPECT_TRUE(f.proportions_given);
  // 33 slots: il / 33 < 0.5 for il <= 16: layers 0-16 on the first (17), 17-31 and the output
  // on the second (15), none on the T4.
  EXPECT_EQ(f.gpus[0].layers, 17);
  EXPECT_EQ(f.gpus[1].layers, 15);
  EXPECT_TRUE(f.gpus[1].output_layer);
  EXPECT_EQ(f.gpus[2].layers, 0);
  EXPECT_EQ(f.gpus[2].total_gib, 0);
  EXPECT_THROW(fit_layer_split(request("llama-3.1-8b", "Q4_K_M"), gpus, {1, 1}), EngineError);
  EXPECT_THROW(fit_layer_split(request("llama-3.1-8b", "Q4_K_M"), gpus, {0, 0, 0}), EngineError);
  EXPECT_THROW(fit_layer_split(request("llama-3.1-8b", "Q4_K_M"), gpus, {1, -1, 1}), EngineError);
  EXPECT_THROW(fit_layer_split(request("llama-3.1-8b", "Q4_K_M"), {}, {}), EngineError);
}

// On equal cards the stages' sum is the layer split estimate_speed models: the same bytes at one
// card's bandwidth, the same fixed cost, one boundary.
TEST(LayerSplit, equalCardsDecodeAsTheLayerSplitModel) {
  const FitRequest fit = request("llama-3.3-70b", "Q4_K_M");
  const std::vector<Device> gpus = box({{2, "rtx-3090"}});
  SpeedRequest q;
  q.fit = fit;
  q.device_count = 2;
  q.backend = Backend::cuda;
  q.prompt_tokens = 512;
  const SpeedEstimate pooled = estimate_speed(q, gpus[0]);
  const SpeedEstimate staged = estimate_layer_split_speed(q, fit_layer_split(fit, gpus));
  EXPECT_NEAR(staged.decode_tokens_per_s, pooled.decode_tokens_per_s, 1e-9);
  EXPECT_NEAR(staged.bytes_per_token_gb, pooled.bytes_per_token_gb, 1e-9);
  EXPECT_NEAR(staged.prefill_tokens_per_s, pooled.prefill_tokens_per_s, 1e-6);
}

// A box of unequal cards decodes between its cards' speeds: each card streams its own layers at
// its own bandwidth (the slowest sets the pace of its layers only).
TEST(LayerSplit, unequalCardsDecodeBetweenTheirSpeeds) {
  const FitRequest fit = request("llama-3.3-70b", "Q3_K_M");
  SpeedRequest q;
  q.fit = fit;
  q.backend = Backend::cuda;
  const auto speed = [&](const std::vector<Device>& gpus) {
    return estimate_layer_split_speed(q, fit_layer_split(fit, gpus)).decode_tokens_per_s;
  };
  const double mixed = speed(box({{2, "tesla-m40"}, {1, "t4"}}));
  const double m40s = speed(box({{3, "tesla-m40"}}));
  const double t4s = speed(box({{3, "t4"}}));
  std::printf("  3x tesla-m40 %.2f, 2x tesla-m40 + 1x t4 %.2f, 3x t4 %.2f tokens/s\n", m40s, mixed,
              t4s);
  EXPECT_GT(mixed, m40s);  // the T4 (320 GB/s) streams its 19 layers faster than an M40 (288)
  EXPECT_LT(mixed, t4s);
  // A power-limited card slows only its own layers' fixed cost.
  std::vector<Device> capped = box({{2, "tesla-m40"}, {1, "t4"}});
  capped[0].power_limit_w = 180;
  EXPECT_LT(speed(capped), mixed);
  EXPECT_GT(speed(capped), 0.9 * mixed);
}

}  // namespace
}  // namespace gputco
