// The built-in catalog's devices cover what people run (issue #14 item 3): at least 90, every
// one with a compute figure and a power figure, and a sample per family against the vendor's
// own sheet (the figures below are copied from the document named beside each, not from
// devices.csv), then fit verdicts of the DOMAIN cases on the new cards.
#include <gtest/gtest.h>

#include <string>

#include "engine/hardware/fit.hpp"
#include "pricing/catalog.hpp"
#include "tests/support/reference_data.hpp"

namespace gputco {
namespace {

const Catalog& builtin() {
  static const Catalog catalog = Catalog::open_builtin();
  return catalog;
}

Device device(const std::string& id) {
  const auto d = builtin().device(id);
  if (!d) throw std::runtime_error("no device " + id + " in the built-in catalog");
  return *d;
}

TEST(CatalogDevices, atLeastNinetyDevices) {
  EXPECT_GE(builtin().devices().size(), 90u);
}

// Issue #14: the 31 devices that had no compute figure and the Apple machines without a
// power figure get theirs. The Jetson AGX Thor is the one device NVIDIA gives only an FP4
// figure for (its FP4 peak is there).
TEST(CatalogDevices, everyDeviceHasComputeAndPower) {
  for (const Device& d : builtin().devices()) {
    EXPECT_GT(d.board_power_w, 0) << d.id;
    if (d.id == "jetson-agx-thor") {
      EXPECT_GT(d.fp4_tflops, 0) << d.id;
      continue;
    }
    EXPECT_GT(d.fp16_tflops, 0) << d.id;
  }
}

struct Sheet {
  const char* id;
  double memory_gb, bandwidth_gbps, board_power_w, fp16_tflops, fp8_tflops, fp4_tflops;
  const char* source;
};

// Dense tensor peaks: a sheet that quotes "with sparsity" is halved; GeForce FP16/FP8 is the
// FP32-accumulate rate (half the FP16-accumulate one), as the column is documented.
const Sheet kSheets[] = {
    // NVIDIA Tesla V100 datasheet (SXM2: 32 GB HBM2, 900 GB/s, 300 W, 125 tensor TFLOPS).
    {"v100-sxm2-32gb", 32, 900, 300, 125, 0, 0, "Tesla V100 datasheet"},
    // NVIDIA A10 datasheet: 24 GB, 600 GB/s, 150 W, FP16 tensor 125 (250 with sparsity).
    {"a10", 24, 600, 150, 125, 0, 0, "A10 datasheet"},
    // NVIDIA A40 datasheet: 48 GB, 696 GB/s, 300 W, FP16 tensor 149.7 (299.4 with sparsity).
    {"a40", 48, 696, 300, 149.7, 0, 0, "A40 datasheet"},
    // NVIDIA L40 datasheet: 48 GB, 864 GB/s, 300 W, FP16 181.05 / FP8 362 dense.
    {"l40", 48, 864, 300, 181.05, 362, 0, "L40 datasheet"},
    // NVIDIA H200 datasheet, NVL column: 141 GB, 4.8 TB/s, 600 W, FP16 1,671 and FP8 3,341
    // with sparsity.
    {"h200-nvl", 141, 4800, 600, 835.5, 1670.5, 0, "H200 datasheet"},
    // Turing whitepaper: RTX 2080 Ti 11 GB, 616 GB/s, 250 W, FP16 tensor (FP32 acc.) 53.8.
    {"rtx-2080-ti", 11, 616, 250, 53.8, 0, 0, "Turing whitepaper"},
    // RTX 4070 Super: 12 GB, 504 GB/s, 220 W, 568 AI TOPS (FP8 sparse, FP16 acc.): 568 / 8
    // = 71 FP16 and 568 / 4 = 142 FP8 with FP32 accumulate.
    {"rtx-4070-super", 12, 504, 220, 71, 142, 0, "GeForce RTX 40 specifications"},
    // RTX 5090: 3,352 AI TOPS (FP4 sparse): FP4 1,676, FP8 419, FP16 209.5 (RTX Blackwell
    // whitepaper).
    {"rtx-5090", 32, 1792, 575, 209.5, 419, 1676, "RTX Blackwell whitepaper"},
    // RTX PRO 4000 Blackwell datasheet: 24 GB, 672 GB/s, 140 W, 1,247 AI TOPS (FP4 sparse).
    {"rtx-pro-4000-blackwell", 24, 672, 140, 155.9, 311.8, 623.5, "RTX PRO 4000 datasheet"},
    // AMD RX 7900 XT: 20 GB, 800 GB/s, 315 W, FP16 103 TFLOPS.
    {"rx-7900-xt", 20, 800, 315, 103, 0, 0, "AMD RX 7900 XT specifications"},
    // AMD RX 9070 XT: 1,557 AI TOPS (INT4 sparse): FP16 matrix 1,557 / 8 = 194.6.
    {"rx-9070-xt", 16, 640, 304, 194.6, 389.3, 0, "AMD RX 9070 XT specifications"},
    // AMD Instinct MI355X data sheet: 288 GB, 8 TB/s, 1,400 W, FP16 2.5 / FP8 5.0 / MXFP4
    // 10.1 PFLOPS dense.
    {"mi355x", 288, 8000, 1400, 2516.6, 5033.2, 10066.3, "MI355X data sheet"},
    // Intel Gaudi 3 white paper: 128 GB HBM2e, 3.7 TB/s, 900 W, BF16 and FP8 1,835 TFLOPS.
    {"gaudi-3", 128, 3700, 900, 1835, 1835, 0, "Gaudi 3 white paper"},
    // Apple Support 102027: Mac Studio (2022) M1 Ultra 48-core GPU, maximum 215 W;
    // metal-benchmarks: 48 cores x 256 FLOP/clock x 1.296 GHz = 15.9 TFLOPS.
    {"m1-ultra-48c", 128, 800, 215, 15.9, 0, 0, "Apple Support 102027"},
};

TEST(CatalogDevices, sampleOfEachFamilyMatchesItsSheet) {
  for (const Sheet& s : kSheets) {
    const Device d = device(s.id);
    EXPECT_EQ(d.memory_nameplate_gb, s.memory_gb) << s.id << " (" << s.source << ")";
    EXPECT_EQ(d.bandwidth_gbps, s.bandwidth_gbps) << s.id << " (" << s.source << ")";
    EXPECT_EQ(d.board_power_w, s.board_power_w) << s.id << " (" << s.source << ")";
    EXPECT_DOUBLE_EQ(d.fp16_tflops, s.fp16_tflops) << s.id << " (" << s.source << ")";
    EXPECT_DOUBLE_EQ(d.fp8_tflops, s.fp8_tflops) << s.id << " (" << s.source << ")";
    EXPECT_DOUBLE_EQ(d.fp4_tflops, s.fp4_tflops) << s.id << " (" << s.source << ")";
  }
}

FitRequest request(const std::string& model, const std::string& quant, int context) {
  FitRequest r;
  r.model = test::reference_model(model);
  r.quant = test::reference_quant(quant);
  r.context_tokens = context;
  return r;
}

// DOMAIN M6: Qwen3 14B Q4_K_M at 8K is 11.0 GiB: it fits a 12 GB card by a hair (tight), and
// so the new 12 GB cards (RTX 4070 Super, RTX 5070) say tight; the new 16 GB cards (RTX 4070
// Ti Super, RX 7800 XT) say fits; an 8 GB RTX 4060 says does not fit.
TEST(CatalogDevices, domainM6OnTheNewCards) {
  const FitRequest qwen14 = request("qwen3-14b", "Q4_K_M", 8192);
  EXPECT_EQ(fit(qwen14, device("rtx-3060-12gb"), 1).verdict, Verdict::tight);  // the M6 card
  for (const char* id : {"rtx-4070-super", "rtx-5070"}) {
    EXPECT_EQ(fit(qwen14, device(id), 1).verdict, Verdict::tight) << id;
  }
  for (const char* id : {"rtx-4070-ti-super", "rx-7800-xt", "rtx-a4000"}) {
    EXPECT_EQ(fit(qwen14, device(id), 1).verdict, Verdict::fits) << id;
  }
  EXPECT_EQ(fit(qwen14, device("rtx-4060"), 1).verdict, Verdict::does_not_fit);
}

// DOMAIN M7: Llama 3.3 70B at Q4 needs 46.4 at 8K: a 48 GB card holds it only tightly or not
// at all (A40, L40, RTX A6000 alike), a 96 GB RTX PRO 6000 or a 141 GB H200 NVL with room.
// DOMAIN M11: DeepSeek R1 at Q4 needs ~410: one MI355X (288 GB) does not hold it, two do.
TEST(CatalogDevices, domainM7AndM11OnTheNewCards) {
  const FitRequest llama70 = request("llama-3.3-70b", "Q4_K_M", 8192);
  const Verdict a6000 = fit(llama70, device("rtx-a6000"), 1).verdict;
  EXPECT_NE(a6000, Verdict::fits);
  for (const char* id : {"a40", "l40"}) EXPECT_EQ(fit(llama70, device(id), 1).verdict, a6000) << id;
  EXPECT_EQ(fit(llama70, device("h200-nvl"), 1).verdict, Verdict::fits);
  const FitRequest r1 = request("deepseek-r1", "Q4_K_M", 8192);
  EXPECT_EQ(fit(r1, device("mi355x"), 1).verdict, Verdict::does_not_fit);
  EXPECT_EQ(fit(r1, device("mi355x"), 2).verdict, Verdict::fits);
}

}  // namespace
}  // namespace gputco
