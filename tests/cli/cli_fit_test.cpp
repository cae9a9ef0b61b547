// gputco fit through the binary: the new options, their exit codes, the finder table, the
// comparison, the fine-tuning mode, and the JSON keys scripts rely on.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/paths.hpp"
#include "tests/support/process.hpp"

namespace gputco {
namespace {

using nlohmann::json;

test::RunResult fit(std::vector<std::string> args) {
  args.insert(args.begin(), "fit");
  return test::run(test::gputco_exe(), args);
}

json fit_json(std::vector<std::string> args) {
  args.push_back("--json");
  const auto r = fit(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return json::parse(r.out);
}

const std::vector<std::string> kLlama8b = {"--model", "llama-3.1-8b", "--quant", "Q4_K_M"};
const std::vector<std::string> kLlama70b = {"--model", "llama-3.3-70b", "--quant", "Q4_K_M"};

std::vector<std::string> with(std::vector<std::string> base, const std::vector<std::string>& more) {
  base.insert(base.end(), more.begin(), more.end());
  return base;
}

TEST(CliFit, badOptionValuesExitWith2AndNameTheOption) {
  struct Case {
    std::vector<std::string> extra;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"--split", "pipeline"}, "--split must be layer or tensor, got 'pipeline'"},
      {{"--backend", "opencl"}, "--backend must be cuda, metal, rocm, vulkan or sycl"},
      {{"--mode", "training"}, "--mode must be inference, finetune-full"},
      {{"--prompt-tokens", "-1"}, "--prompt-tokens must be between 0 and 10000000"},
      {{"--as-of", "2026-13-01"}, "--as-of expects YYYY-MM-DD"},
      {{"--compare", "rtx-3090"}, "--compare takes exactly two device ids, got 1"},
      {{"--compare", "rtx-3090", "rtx-4090", "--gpu", "t4"}, "exclude each other"},
      {{"--compare", "rtx-3090", "rtx-4909"}, "did you mean 'rtx-4090'?"},
      {{"--lora-rank", "0"}, "--lora-rank must be between 1"},
      // Llama 3.1 8B was trained for 131,072 tokens; a prompt must fit in the context.
      {{"--context", "262144"},
       "--context 262144 is beyond llama-3.1-8b's maximum context of 131072 tokens"},
      {{"--prompt-tokens", "100000"},
       "--prompt-tokens 100000 does not fit in the context of 8192 tokens"},
      // A backend runs on its vendor's devices only.
      {{"--gpu", "m3-ultra-80c", "--backend", "cuda"},
       "--backend cuda: cuda runs on NVIDIA devices only; m3-ultra-80c is apple (its default "
       "backend is metal)"},
      {{"--compare", "rtx-3090", "rx-7900-xtx", "--backend", "rocm"},
       "rocm runs on AMD devices only; rtx-3090 is nvidia"},
  };
  for (const auto& c : cases) {
    const auto r = fit(with(kLlama8b, c.extra));
    EXPECT_EQ(r.exit_code, 2) << c.message << "\n" << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos)
        << "expected: " << c.message << "\ngot: " << r.err;
    EXPECT_EQ(r.out, "");
  }
}

TEST(CliFit, jsonKeepsTheOldKeysAndAddsTheFinderColumns) {
  const json j = fit_json(with(kLlama8b, {"--gpu", "rtx-4090", "--prompt-tokens", "2048"}));
  for (const char* key : {"weights_gib", "kv_cache_gib", "overhead_gib", "total_gib"}) {
    EXPECT_TRUE(j["memory"].contains(key)) << key;
  }
  // DOMAIN M3: Llama 3.1 8B Q4_K_M at 8K: ~1 GiB of f16 cache (exactly 128 KiB x 8192).
  EXPECT_NEAR(j["memory"]["kv_cache_gib"].get<double>(), 1.0, 1e-9);
  ASSERT_EQ(j["results"].size(), 1u);
  const json& row = j["results"][0];
  for (const char* key :
       {"gpu", "count", "usable_gib", "verdict", "decode_tokens_per_s", "aggregate_tokens_per_s",
        "backend", "split_used", "combined_memory_gb", "time_to_first_token_s", "price_new",
        "price_used", "gbps_per_money", "speed_index", "speed_index_basis", "tier", "tier_model"}) {
    EXPECT_TRUE(row.contains(key)) << key;
  }
  EXPECT_EQ(row["gpu"], "rtx-4090");
  EXPECT_EQ(row["verdict"], "fits");
  EXPECT_EQ(row["backend"], "cuda");  // from the vendor
  EXPECT_GT(row["time_to_first_token_s"].get<double>(), 0);
  EXPECT_EQ(row["speed_index_basis"], "decode");
  EXPECT_EQ(j["prompt_tokens"], 2048);
  EXPECT_EQ(j["mode"], "inference");
}

TEST(CliFit, theDefaultContextIsCappedAtTheModelsAndABackendListsItsOwnDevices) {
  // Llama 2 7B was trained for 4,096 tokens: the default 8,192 is capped, not refused.
  const json llama2 = fit_json({"--model", "llama-2-7b", "--quant", "Q4_0", "--gpu", "rtx-4090"});
  EXPECT_EQ(llama2["context_tokens"], 4096) << llama2.dump(2).substr(0, 400);
  // With --backend metal and no --gpu, only Apple devices are listed.
  const json metal = fit_json(with(kLlama8b, {"--backend", "metal"}));
  ASSERT_FALSE(metal["results"].empty());
  for (const auto& row : metal["results"]) {
    EXPECT_EQ(row["backend"], "metal") << row.dump();
    EXPECT_EQ(row["gpu"].get<std::string>().rfind("m", 0), 0u) << row.dump();
  }
}

TEST(CliFit, backendAndSplitReachTheEstimate) {
  const auto speed = [](const std::vector<std::string>& extra) {
    const json j = fit_json(with(kLlama8b, with({"--gpu", "rtx-4090"}, extra)));
    return j["results"][0];
  };
  const json cuda = speed({});
  const json vulkan = speed({"--backend", "vulkan"});
  EXPECT_EQ(vulkan["backend"], "vulkan");
  EXPECT_NE(cuda["decode_tokens_per_s"], vulkan["decode_tokens_per_s"]);
  // DOMAIN S3: two cards in a layer split are slower for one stream than one card; a tensor
  // split (32 heads divisible by 2) streams from both.
  const json layer = speed({"--count", "2", "--split", "layer"});
  const json tensor = speed({"--count", "2", "--split", "tensor"});
  EXPECT_LT(layer["decode_tokens_per_s"].get<double>(), cuda["decode_tokens_per_s"].get<double>());
  EXPECT_EQ(tensor["split_used"], "tensor");
  EXPECT_GT(tensor["decode_tokens_per_s"].get<double>(),
            layer["decode_tokens_per_s"].get<double>());
}

TEST(CliFit, finderListsEveryDeviceFitsFirstThenBySpeed) {
  const json j = fit_json(kLlama70b);
  const json& rows = j["results"];
  ASSERT_GT(rows.size(), 50u);
  const auto rank = [](const std::string& v) { return v == "fits" ? 0 : v == "tight" ? 1 : 2; };
  for (size_t i = 1; i < rows.size(); ++i) {
    const int a = rank(rows[i - 1]["verdict"]), b = rank(rows[i]["verdict"]);
    ASSERT_LE(a, b) << rows[i - 1]["gpu"] << " before " << rows[i]["gpu"];
    if (a == b && a < 2) {
      EXPECT_GE(rows[i - 1]["decode_tokens_per_s"].get<double>(),
                rows[i]["decode_tokens_per_s"].get<double>());
    }
  }
  // DOMAIN S6/M7: a 70B at Q4 (46.4 at 8K) does not fit one RTX 3090; the smallest system of
  // 3090s that holds it is listed beside it, with combined memory and the price of two.
  bool single_3090 = false, pair_3090 = false;
  for (const auto& r : rows) {
    if (r["gpu"] != "rtx-3090") continue;
    if (r["count"] == 1) {
      single_3090 = true;
      EXPECT_EQ(r["verdict"], "does_not_fit");
      EXPECT_EQ(r["speed_index_basis"], "bandwidth");
      EXPECT_DOUBLE_EQ(r["speed_index"].get<double>(), 100.0);
    }
    if (r["count"] == 2) {
      pair_3090 = true;
      EXPECT_NE(r["verdict"], "does_not_fit");
      EXPECT_DOUBLE_EQ(r["combined_memory_gb"].get<double>(), 48);
      EXPECT_DOUBLE_EQ(r["price_used"]["amount"].get<double>(), 2 * 750.0);  // catalog, May 2026
    }
  }
  EXPECT_TRUE(single_3090 && pair_3090);
}

TEST(CliFit, pricesAsOfADate) {
  // DOMAIN E1: a used RTX 3090 at ~$700 (catalog, January 2026) gives 1.34 GB/s per $.
  const json j = fit_json(with(kLlama8b, {"--gpu", "rtx-3090", "--as-of", "2026-01-15"}));
  const json& row = j["results"][0];
  EXPECT_DOUBLE_EQ(row["price_used"]["amount"].get<double>(), 700);
  EXPECT_EQ(row["price_used"]["currency"], "USD");
  EXPECT_NEAR(row["gbps_per_money"].get<double>(), 936.0 / 700, 1e-9);
  EXPECT_EQ(j["prices_as_of"], "2026-01-15");
  // Before any observation: no price.
  const json early = fit_json(with(kLlama8b, {"--gpu", "rtx-3090", "--as-of", "2020-01-01"}));
  EXPECT_TRUE(early["results"][0]["price_used"].is_null());
}

TEST(CliFit, textFinderShowsTheBuyersGuideColumns) {
  const auto r = fit(kLlama70b);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* text : {"index", "price new", "price used", "GB/s/USD", "tier", "2x rtx-3090",
                           "1,500 USD", "flagship", "* from memory bandwidth"}) {
    EXPECT_NE(r.out.find(text), std::string::npos) << text;
  }
  // Fits come before the first "no fit" line.
  EXPECT_LT(r.out.find(" fits "), r.out.find(" no fit "));
}

TEST(CliFit, compareNamesBothDevicesAndTheMargins) {
  const auto r =
      fit({"--model", "qwen3-32b", "--quant", "Q4_K_M", "--compare", "rtx-5090", "rtx-3090"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("rtx-5090"), std::string::npos);
  EXPECT_NE(r.out.find("rtx-3090"), std::string::npos);
  // Catalog: new RTX 5090 1,999 USD, used RTX 3090 750 USD: 1 - 750 / 1999 = 62 % less.
  EXPECT_NE(r.out.find("rtx-5090 decodes"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rtx-3090 costs 62 % less (rtx-5090 new vs rtx-3090 used)"),
            std::string::npos)
      << r.out;
  const json j =
      fit_json({"--model", "qwen3-32b", "--quant", "Q4_K_M", "--compare", "rtx-5090", "rtx-3090"});
  EXPECT_EQ(j["compare"]["faster_id"], "rtx-5090");
  EXPECT_NEAR(j["compare"]["cheaper_by"].get<double>(), 1 - 750.0 / 1999, 1e-9);
  ASSERT_EQ(j["results"].size(), 2u);
  EXPECT_EQ(j["results"][0]["gpu"], "rtx-5090");
}

TEST(CliFit, finetuneFullPrintsTheBreakdownAndTheRatio) {
  const json j = fit_json({"--model", "llama-3.1-8b", "--mode", "finetune-full", "--gpu",
                           "h100-sxm", "--context", "2048"});
  EXPECT_EQ(j["mode"], "finetune-full");
  // Mixed-precision Adam, 16 bytes per parameter: 8.03e9 x 16 B = 119.66 GiB of states.
  EXPECT_NEAR(j["finetune"]["states_gib"].get<double>(), 8.03e9 * 16 / (1u << 30), 0.01);
  // DOMAIN M1 says 2-4x; a full fine-tune against 16-bit inference is ~8x: show it.
  EXPECT_GT(j["ratio_to_inference"].get<double>(), 4.0);
  EXPECT_EQ(j["results"][0]["verdict"], "does_not_fit");  // 121 GiB on one 80 GB card
  const auto text = fit({"--model", "llama-3.1-8b", "--mode", "finetune-qlora"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("the memory of inference"), std::string::npos);
  EXPECT_NE(text.out.find("weights (NF4 base)"), std::string::npos);
}

}  // namespace
}  // namespace gputco
