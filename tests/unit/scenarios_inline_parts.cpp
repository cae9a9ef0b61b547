// A device and a model described in the scenario file itself (issue #14 items 1 and 2):
// [device:ID] sections used by the options whose gpu is ID, the [model] section read as a
// config.json, and their bad input named by section and key.
#include <gtest/gtest.h>

#include <sstream>

#include "pricing/catalog.hpp"
#include "scenarios/resolve.hpp"
#include "scenarios/scenario.hpp"
#include "tests/unit/scenarios_fixtures.hpp"

namespace gputco {
namespace {

using test::parse;

const std::string kHead =
    "[scenario]\n"
    "as_of = 2026-11-27\n"
    "[site]\n"
    "tariff_per_kwh = 0.25\n";

const std::string kWorkload =
    "[workload]\n"
    "model = llama-3.1-8b\n"
    "quant = Q4_K_M\n";

// An RTX 3090 as NVIDIA's sheet gives it (24 GB GDDR6X, 936 GB/s, 350 W), under another name.
const std::string kDevice =
    "[device:my-3090]\n"
    "name = My RTX 3090\n"
    "vendor = nvidia\n"
    "memory_gb = 24\n"
    "memory_type = GDDR6X\n"
    "bandwidth_gbps = 936\n"
    "board_power_w = 350\n"
    "fp16_tflops = 71\n";

const std::string kBuy =
    "[option:rig]\n"
    "kind = buy\n"
    "gpu = MY-3090\n"
    "price_per_gpu = 700\n";

// Llama 3.1 8B's config.json fields (https://huggingface.co/meta-llama/Llama-3.1-8B), those
// the estimate reads.
const std::string kModel =
    "[model]\n"
    "name = my-llama\n"
    "model_type = llama\n"
    "num_hidden_layers = 32\n"
    "hidden_size = 4096\n"
    "intermediate_size = 14336\n"
    "num_attention_heads = 32\n"
    "num_key_value_heads = 8\n"
    "vocab_size = 128256\n"
    "max_position_embeddings = 131072\n"
    "torch_dtype = bfloat16\n";

std::string error_of(const std::string& text) {
  try {
    resolve(parse(text), Catalog::open_builtin());
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "";
}

TEST(InlineDevice, optionsUseTheDescribedDevice) {
  const ResolvedScenario r =
      resolve(parse(kHead + kWorkload + kDevice + kBuy), Catalog::open_builtin());
  const Device& d = test::option(r, "rig").device;
  EXPECT_EQ(d.id, "my-3090");
  EXPECT_EQ(d.name, "My RTX 3090");
  EXPECT_EQ(d.vendor, Vendor::nvidia);
  EXPECT_EQ(d.kind, DeviceKind::consumer);  // the default for a discrete card
  EXPECT_EQ(d.memory_nameplate_gb, 24);
  EXPECT_EQ(d.bandwidth_gbps, 936);
  EXPECT_EQ(d.board_power_w, 350);
  EXPECT_EQ(d.fp16_tflops, 71);
  EXPECT_EQ(d.nvlink_gbps, 0);  // not given: PCIe only
  EXPECT_EQ(d.fp8_tflops, 0);   // not given: no FP8 tensor cores (Ampere has none)
  EXPECT_EQ(test::option(r, "rig").backend, Backend::cuda);
  // The same figures as the catalog's rtx-3090: the same count (Llama 3.1 8B at Q4_K_M fits
  // one card of 24 GB).
  EXPECT_EQ(test::option(r, "rig").count, 1);
}

// A datacenter card with its low-precision peaks, as NVIDIA's H100 SXM sheet gives them (dense:
// BF16 989, FP8 1,979 TFLOPS; 80 GB HBM3, 3,350 GB/s, 700 W, NVLink 900 GB/s).
TEST(InlineDevice, lowPrecisionPeaksAreRead) {
  const ResolvedScenario r =
      resolve(parse(kHead + kWorkload +
                    "[device:h100-like]\nvendor = nvidia\nkind = datacenter\nmemory_gb = 80\n"
                    "bandwidth_gbps = 3350\nboard_power_w = 700\nfp16_tflops = 989\n"
                    "fp8_tflops = 1979\nnvlink_gbps = 900\n"
                    "[option:dc]\nkind = buy\ngpu = h100-like\nprice_per_gpu = 25000\n"),
              Catalog::open_builtin());
  const Device& d = test::option(r, "dc").device;
  EXPECT_EQ(d.fp16_tflops, 989);
  EXPECT_EQ(d.fp8_tflops, 1979);
  EXPECT_EQ(d.fp4_tflops, 0);
  EXPECT_EQ(d.nvlink_gbps, 900);
  EXPECT_EQ(error_of(kHead + kWorkload +
                     "[device:x]\nvendor = nvidia\nmemory_gb = 80\nbandwidth_gbps = 3350\n"
                     "fp8_tflops = 0\n[option:dc]\nkind = buy\ngpu = x\nprice_per_gpu = 1\n"),
            "test.ini:12: [device:x] fp8_tflops: must be greater than 0, got 0");
}

TEST(InlineDevice, backendAndKindDefaults) {
  const ResolvedScenario r =
      resolve(parse(kHead + kWorkload +
                    "[device:studio]\nvendor = apple\nmemory_gb = 192\nbandwidth_gbps = 800\n"
                    "[device:arc]\nvendor = intel\nmemory_gb = 16\nbandwidth_gbps = 560\n"
                    "backend = vulkan\n"
                    "[option:mac]\nkind = buy\ngpu = studio\nprice_per_gpu = 5000\n"
                    "[option:arc]\nkind = buy\ngpu = arc\nprice_per_gpu = 300\n"),
              Catalog::open_builtin());
  EXPECT_EQ(test::option(r, "mac").device.kind, DeviceKind::unified);  // apple's default
  EXPECT_EQ(test::option(r, "mac").backend, Backend::metal);
  EXPECT_EQ(test::option(r, "mac").device.board_power_w, 0);   // unknown, not invented
  EXPECT_EQ(test::option(r, "arc").backend, Backend::vulkan);  // the device's backend
}

TEST(InlineDevice, zeroAbsurdOrMissingFiguresAreRefusedByName) {
  const auto device = [](const std::string& figures) {
    return kHead + kWorkload + "[device:card]\nvendor = nvidia\n" + figures + kBuy;
  };
  // Lines: kHead 1-4, kWorkload 5-7, [device:card] 8, vendor 9, then the figures from 10; a
  // missing key is placed at its section's header. With kDevice (8 lines, 8-15) the option's
  // header is line 16 and its gpu line 18.
  EXPECT_EQ(error_of(device("memory_gb = 24000\nbandwidth_gbps = 936\n")),
            "test.ini:10: [device:card] memory_gb: must be at most 16384 GB (beyond any device: "
            "a unit slip?), got 24000");
  EXPECT_EQ(error_of(device("memory_gb = 24\nbandwidth_gbps = 0\n")),
            "test.ini:11: [device:card] bandwidth_gbps: must be greater than 0, got 0");
  EXPECT_EQ(error_of(device("memory_gb = 24\n")),
            "test.ini:8: [device:card] bandwidth_gbps: missing: the peak memory bandwidth in GB/s "
            "(936)");
  EXPECT_EQ(error_of(kHead + kWorkload + "[device:card]\nmemory_gb = 24\nbandwidth_gbps = 936\n"),
            "test.ini:8: [device:card] vendor: missing: nvidia, amd, intel or apple (it sets the "
            "default backend)");
  EXPECT_EQ(error_of(device("memory_gb = 24\nbandwidth_gbps = 936\nmemory_gbs = 24\n")),
            "test.ini:12: [device:card] memory_gbs: unknown key; did you mean 'memory_gb'?");
  // An option's unknown device now points to the section too.
  EXPECT_EQ(error_of(kHead + kWorkload + kDevice + "[option:rig]\nkind = buy\ngpu = my-3900\n"),
            "test.ini:18: [option:rig] gpu: unknown device 'my-3900'; did you mean 'my-3090'? "
            "(gputco catalog list gpus, or describe it in a [device:ID] section)");
}

// The [model] section reads as Llama 3.1 8B's config.json does: Meta's 8,030,261,248
// parameters (by hand in scenarios/model_shape.hpp: 32 x 218,112,000 + 2 x 525,336,576 +
// 4,096), its own format BF16 by default.
TEST(InlineModel, readAsItsConfigJson) {
  const ResolvedScenario r =
      resolve(parse(kHead + kModel + "[workload]\n" + kDevice + kBuy), Catalog::open_builtin());
  const ModelArch& m = r.plan_inputs.model;
  EXPECT_EQ(m.id, "my-llama");
  EXPECT_DOUBLE_EQ(m.params_b * 1e9, 8030261248.0);
  EXPECT_EQ(m.layers, 32);
  EXPECT_EQ(m.kv_heads, 8);
  EXPECT_EQ(m.max_context, 131072);
  EXPECT_EQ(r.plan_inputs.quant.id, "BF16");
  // BF16 weights, 16.06 GB, do not fit one 24 GB card with its KV cache and overhead? They
  // do: 2 bytes x 8.03e9 = 16.06 GB < 24 GiB; one card.
  EXPECT_EQ(test::option(r, "rig").count, 1);
}

TEST(InlineModel, badFieldsNamedByKey) {
  const std::string rest = "[workload]\nquant = Q4_K_M\n" + kDevice + kBuy;
  // A typo is refused with the field it resembles, before the field it hides is missed.
  std::string typo = kModel;
  typo.replace(typo.find("num_hidden_layers"), 17, "num_hiden_layers");
  EXPECT_EQ(error_of(kHead + typo + rest),
            "test.ini:8: [model] num_hiden_layers: not a config.json field gputco reads; did you "
            "mean 'num_hidden_layers'?");
  std::string missing = kModel;
  missing.erase(missing.find("intermediate_size"),
                std::string("intermediate_size = 14336\n").size());
  EXPECT_EQ(error_of(kHead + missing + rest),
            "test.ini:5: [model] intermediate_size: missing (needed to count the parameters and "
            "size the cache)");
  EXPECT_EQ(error_of(kHead + kModel + "rope_scaling = {\"factor\": 4\n" + rest),
            "test.ini:16: [model] rope_scaling: expected a JSON value (as config.json holds it), "
            "got '{\"factor\": 4'");
  // A field inside a key's JSON value: at the key's line (16), not the section's (5).
  EXPECT_EQ(error_of(kHead + kModel + "rope_scaling = {\"rope_type\": \"yarn\", \"factor\": -8}\n" +
                     rest),
            "test.ini:16: [model] rope_scaling.factor: expected a RoPE scaling factor above 0 and "
            "at most 1024 (the multiple of the trained context), got -8");
  EXPECT_EQ(error_of(kHead + kModel + "[workload]\nmodel = llama-3.1-8b\n" + kDevice + kBuy),
            "test.ini:17: [workload] model: give the model once: here or in the [model] section");
  // Was a crash (stack overflow, exit 139) at 300,000 levels; refused from level 65 on.
  const std::string deep = std::string(100000, '[') + "1" + std::string(100000, ']');
  EXPECT_EQ(error_of(kHead + kModel + "rope_scaling = " + deep + "\n" + rest),
            "test.ini:16: [model] rope_scaling: nested deeper than 64 levels of { and [");
}

}  // namespace
}  // namespace gputco
