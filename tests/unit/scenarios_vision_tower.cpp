// A multimodal model's vision tower (issue #41 item 2): from a config.json's vision_config or an
// mmproj GGUF, its weights and image buffer on the first GPU (engine/hardware/fit.hpp).
#include <gtest/gtest.h>

#include <string>

#include "engine/base/units.hpp"
#include "engine/hardware/fit.hpp"
#include "scenarios/hf_config.hpp"
#include "scenarios/mmproj_file.hpp"
#include "scenarios/model_file_error.hpp"
#include "tests/support/gguf_writer.hpp"

namespace gputco {
namespace {

// Mistral Small 3.1 24B as its config.json states it
// (mistralai/Mistral-Small-3.1-24B-Instruct-2503: text_config and vision_config), cut to the fields
// read.
const char* kMistralSmall31 = R"({
  "model_type": "mistral3",
  "text_config": {"model_type": "mistral", "hidden_size": 5120, "num_hidden_layers": 40,
                  "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128,
                  "intermediate_size": 32768, "vocab_size": 131072,
                  "max_position_embeddings": 131072},
  "vision_config": {"model_type": "pixtral", "hidden_size": 1024, "intermediate_size": 4096,
                    "num_hidden_layers": 24, "num_attention_heads": 16, "patch_size": 14,
                    "image_size": 1540, "hidden_act": "silu"},
  "torch_dtype": "bfloat16"
})";

// Encoder 24 x (4 x 1024^2 + 3 x 1024 x 4096) + 3 x 14^2 x 1024 + (1540 / 14)^2 x 1024 =
// 415,645,696; projector 1024^2 + 1024 x 5120 = 6,291,456; at 2 bytes 843,874,304 bytes =
// 804.8 MiB, where llama.cpp logs "model size: 802.50 MiB" for its mmproj. Image buffer:
// 4 x 12,100 patches x (4,096 + 3 x 1,024) = 346,931,200 bytes.
TEST(VisionTower, fromTheConfigsVisionConfig) {
  const HfConfig c = read_hf_config_text(kMistralSmall31, "Mistral-Small-3.1/config.json");
  ASSERT_TRUE(c.shape.arch.vision);
  const VisionTower& v = *c.shape.arch.vision;
  EXPECT_DOUBLE_EQ(v.weights_bytes, 843874304.0);
  EXPECT_EQ(v.hidden, 1024);
  EXPECT_EQ(v.intermediate, 4096);
  EXPECT_EQ(v.image_patches, 12100);
  EXPECT_DOUBLE_EQ(image_buffer_bytes(c.shape.arch), 346931200.0);
  bool noted = false;
  for (const auto& n : c.notes) noted |= n.find("vision tower from vision_config") == 0;
  EXPECT_TRUE(noted);
}

// The fit puts them on the device beside the weights: 804.78 MiB + 330.86 MiB.
TEST(VisionTower, theFitCountsProjectorAndImageBuffer) {
  ModelArch m;
  m.id = "toy";
  m.params_b = 8.03;
  m.active_params_b = 8.03;
  m.layers = 32;
  m.hidden = 4096;
  m.heads = 32;
  m.kv_heads = 8;
  m.head_dim = 128;
  FitRequest r;
  r.model = m;
  r.quant = Quant{"Q4_K_M", 4.89, "mix"};
  const MemoryBreakdown text_only = estimate_memory(r, 1);
  EXPECT_EQ(text_only.projector_gib, 0);
  r.model.vision = VisionTower{843874304.0, 1024, 4096, 12100};
  const MemoryBreakdown with = estimate_memory(r, 1);
  EXPECT_NEAR(with.projector_gib, 843874304.0 / kBytesPerGiB, 1e-12);
  EXPECT_NEAR(with.image_buffer_gib, 346931200.0 / kBytesPerGiB, 1e-12);
  EXPECT_NEAR(with.total_gib - text_only.total_gib, (843874304.0 + 346931200.0) / kBytesPerGiB,
              1e-9);
}

// An mmproj GGUF: its tensors' bytes, its clip.vision widths; patches of the larger of its image
// size and the 1,472 x 1,472 warmup image: Qwen's 768 / 16 -> 1,472 / 16 = 92, 8,464 patches.
TEST(VisionTower, fromAnMmprojGguf) {
  const std::string path = test::scratch_folder("mmproj") + "/mmproj-BF16.gguf";
  test::GgufWriter()
      .str("general.architecture", "clip")
      .u32("clip.vision.embedding_length", 1152)
      .u32("clip.vision.feed_forward_length", 4304)
      .u32("clip.vision.image_size", 768)
      .u32("clip.vision.patch_size", 16)
      .tensor("v.blk.0.ffn_up.weight", {1152, 4304}, test::GgmlTypeId::bf16, 1152ull * 4304 * 2)
      .tensor("mm.0.weight", {4608, 4608}, test::GgmlTypeId::bf16, 4608ull * 4608 * 2)
      .write(path);
  const VisionTower v = read_mmproj_file(path);
  EXPECT_DOUBLE_EQ(v.weights_bytes, 1152.0 * 4304 * 2 + 4608.0 * 4608 * 2);
  EXPECT_EQ(v.hidden, 1152);
  EXPECT_EQ(v.intermediate, 4304);
  EXPECT_EQ(v.image_patches, 92 * 92);
  // 4 x 8,464 x (4,304 + 3 x 1,152) = 262,722,560 bytes = 250.6 MiB; llama.cpp logs
  // "CUDA0 compute buffer size = 248.10 MiB" for Qwen3.6-27B's mmproj at 1,472 x 1,472.
  ModelArch m;
  m.vision = v;
  EXPECT_DOUBLE_EQ(image_buffer_bytes(m), 262722560.0);
}

TEST(VisionTower, aLanguageModelIsNoMmproj) {
  const std::string path = test::scratch_folder("mmproj-wrong") + "/model.gguf";
  test::GgufWriter()
      .str("general.architecture", "llama")
      .tensor("token_embd.weight", {4096, 32}, test::GgmlTypeId::f32, 4096ull * 32 * 4)
      .write(path);
  try {
    read_mmproj_file(path);
    FAIL() << "a llama GGUF was read as an mmproj";
  } catch (const ModelFileError& e) {
    EXPECT_NE(std::string(e.what()).find("expected clip"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gputco
