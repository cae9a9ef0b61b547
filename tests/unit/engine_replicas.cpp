// Replicas in a box (issue #21, item 2, engine/serving/replicas.hpp): a box of N GPUs that holds
// the model on k of them serves N / k instances, the layout chosen by the serving model, and the
// plan's capacity is the instances' sum.
#include <gtest/gtest.h>

#include "engine/plan/plan.hpp"
#include "engine/serving/replicas.hpp"
#include "tests/support/reference_data.hpp"

namespace gputco {
namespace {

PlanInputs rig_inputs(const std::string& model_id) {
  PlanInputs in;
  in.model = test::reference_model(model_id);
  in.quant = test::reference_quant("Q4_K_M");
  in.workload.context_tokens = 8192;
  in.workload.concurrent_streams = 4;
  in.finance.horizon_months = 12;
  in.finance.currency = "EUR";
  for (int count : {1, 4}) {
    OptionInputs o;
    o.id = "rig-" + std::to_string(count);
    o.kind = OptionKind::buy;
    o.device = test::reference_device("rtx-3090");
    o.count = count;
    o.price_per_gpu = 700;
    in.options.push_back(o);
  }
  return in;
}

TEST(Replicas, fourRtx3090sServingAModelThatFitsOneCardRunFourInstances) {
  // Issue #21's goal: Qwen3 30B-A3B in Q4_K_M (about 17 GiB of weights) fits one 24 GB card
  // with 4 streams of 8,192 tokens, so the box of four runs four llama.cpp servers, one per
  // card, and serves at least 3.5 x one card (exactly 4 x: the same instance four times).
  PlanInputs in = rig_inputs("qwen3-30b-a3b");
  prepare_plan_inputs(in);
  const OptionInputs& one = in.options[0];
  const OptionInputs& four = in.options[1];
  EXPECT_EQ(one.replicas, 1);
  EXPECT_EQ(one.gpus_per_replica, 1);
  EXPECT_EQ(four.replicas, 4);
  EXPECT_EQ(four.gpus_per_replica, 1);
  ASSERT_GT(one.capacity_tokens_per_hour, 0);
  const double ratio = four.capacity_tokens_per_hour / one.capacity_tokens_per_hour;
  std::printf("4 x rtx-3090 / 1 x rtx-3090, qwen3-30b-a3b Q4_K_M: %.3f x\n", ratio);
  EXPECT_GE(ratio, 3.5);
  EXPECT_NEAR(ratio, 4.0, 1e-9);
  EXPECT_NE(four.layout_note.find("4 instances of 1 GPU(s)"), std::string::npos)
      << four.layout_note;
  // The plan shows the layout and the box's speed: four times one card's aggregate decode, one
  // card's per-stream decode.
  const Plan plan = make_plan(in);
  EXPECT_EQ(plan.options[1].replicas, 4);
  EXPECT_EQ(plan.options[1].gpus_per_replica, 1);
  EXPECT_NEAR(plan.options[1].speed.aggregate_tokens_per_s,
              4 * plan.options[0].speed.aggregate_tokens_per_s, 1e-9);
  EXPECT_NEAR(plan.options[1].speed.decode_tokens_per_s, plan.options[0].speed.decode_tokens_per_s,
              1e-9);
}

TEST(Replicas, theSpareInstancesOfABoxServeNoTokensToAStreamsDemand) {
  // newcomer6: the box of four 3090s runs four instances, but the workload's demand is 4
  // streams (no tokens_per_day): those 4 streams at one instance's per-stream speed are what is
  // served, as on the one-card box, so both boxes serve the same tokens and the cost per
  // million tokens is each box's total cost over them (before, the box of four counted 16
  // streams' tokens and looked four times cheaper per token than it is).
  PlanInputs in = rig_inputs("qwen3-30b-a3b");
  in.workload.hours_per_day = 8;
  in.workload.days_per_month = 20;
  prepare_plan_inputs(in);
  const Plan plan = make_plan(in);
  const OptionResult& one = plan.options[0];
  const OptionResult& four = plan.options[1];
  ASSERT_EQ(four.replicas, 4);
  const double per_stream = one.speed.decode_tokens_per_s;
  ASSERT_GT(per_stream, 0);
  EXPECT_NEAR(one.served_tokens_per_s, 4 * per_stream, 1e-9 * per_stream);
  EXPECT_NEAR(four.served_tokens_per_s, 4 * per_stream, 1e-9 * per_stream);
  // 4 streams x per-stream tokens/s x 3600 s x 8 h x 20 days x 12 months.
  const double tokens = 4 * per_stream * 3600 * 8 * 20 * 12;
  double served = 0;
  for (double month : four.tokens_served) served += month;
  EXPECT_NEAR(served, tokens, 1e-9 * tokens);
  ASSERT_TRUE(four.cost_per_million_tokens);
  EXPECT_NEAR(*four.cost_per_million_tokens, four.total_cost / tokens * 1e6,
              1e-9 * *four.cost_per_million_tokens);
}

TEST(Replicas, aModelThatNeedsTwoCardsRunsTwoInstancesOnFour) {
  // Qwen3 32B in Q4_K_M (about 19 GiB of weights) with 4 streams of 8,192 tokens (64 layers x
  // 8 KV heads x 128 x 2 x 2 bytes = 256 KiB a token, 8 GiB for the 32,768 tokens) needs two
  // 24 GB cards: four cards are two instances of two, twice the pair's throughput.
  PlanInputs in = rig_inputs("qwen3-32b");
  in.options[0].count = 2;
  prepare_plan_inputs(in);
  EXPECT_EQ(in.options[0].replicas, 1);
  EXPECT_EQ(in.options[0].gpus_per_replica, 2);
  EXPECT_EQ(in.options[1].replicas, 2) << in.options[1].layout_note;
  EXPECT_EQ(in.options[1].gpus_per_replica, 2);
  EXPECT_NEAR(in.options[1].capacity_tokens_per_hour, 2 * in.options[0].capacity_tokens_per_hour,
              1e-9 * in.options[1].capacity_tokens_per_hour);
}

TEST(Replicas, oneGpuAndAnApiAreOneInstanceAndAModelThatFitsNowhereIsLeftAlone) {
  FitRequest request;
  request.model = test::reference_model("qwen3-30b-a3b");
  request.quant = test::reference_quant("Q4_K_M");
  const BoxLayout one = choose_box_layout(request, test::reference_device("rtx-3090"), 1,
                                          Backend::cuda, MemoryPolicy{});
  EXPECT_EQ(one.replicas, 1);
  EXPECT_EQ(one.gpus_per_replica, 1);
  // 70B in Q4_K_M does not fit one 24 GB card: prepare_plan_inputs derives no layout.
  PlanInputs in = rig_inputs("llama-3.3-70b");
  prepare_plan_inputs(in);
  EXPECT_EQ(in.options[0].replicas, 0);
  EXPECT_EQ(in.options[0].capacity_tokens_per_hour, 0);
}

TEST(Replicas, aWeightFormatLlamaCppRefusesIsLaidOutByVllm) {
  // FP8 weights: llama.cpp has no GGUF type for them, vLLM's serving model lays the box out.
  FitRequest request;
  request.model = test::reference_model("qwen3-14b");
  request.quant = test::reference_quant("FP8");
  const BoxLayout layout = choose_box_layout(request, test::reference_device("h100-sxm"), 8,
                                             Backend::cuda, MemoryPolicy{});
  EXPECT_EQ(layout.chosen_by, "vLLM") << layout.note;
  EXPECT_EQ(layout.gpus_per_replica * layout.replicas, 8);
  EXPECT_GT(layout.replicas, 1) << layout.note;
  // The note says whose model chose it and why (newcomer7: "by vLLM's serving model" beside a
  // llama.cpp option read as a contradiction).
  EXPECT_EQ(layout.note,
            std::to_string(layout.replicas) + " instances of " +
                std::to_string(layout.gpus_per_replica) +
                " GPU(s) each, 1 concurrent stream(s) per instance (layout chosen by the serving "
                "model of vLLM (standing in: llama.cpp does not run FP8) for the highest "
                "throughput of the box)");
}

}  // namespace
}  // namespace gputco
