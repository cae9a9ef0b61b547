// A latency target no layout meets (engine/serving/serving.hpp): the box reports the best figure
// over every layout it searched, naming the layout reaching it, not the figure of the layout with
// the most throughput; a layout fixed by the caller says what the layouts not searched reach;
// the serving finder keeps the box nearest the target and lists the rows missing it nearest
// first; a plan names the nearest layout.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <string>
#include <utility>
#include <vector>

#include "engine/base/error.hpp"
#include "engine/plan/plan.hpp"
#include "engine/serving/serving.hpp"
#include "engine/serving/serving_finder.hpp"
#include "tests/support/reference_data.hpp"

namespace gputco {
namespace {

/// Llama 3.3 70B in FP8 with vLLM, 1000 prompt and 100 output tokens per request (the user
/// report: `gputco throughput ... --count 4 --user-tokens-per-s 60`).
ServingRequest llama70b_request() {
  ServingRequest r;
  r.model = test::reference_model("llama-3.3-70b");
  r.quant = test::reference_quant("FP8");
  r.engine = ServingEngine::vllm;
  r.input_tokens = 1000;
  r.output_tokens = 100;
  return r;
}

Device h100() {
  return test::reference_device("h100-sxm");
}

ServingGoal user_speed(double tokens_per_s) {
  ServingGoal g;
  g.mode = ServingGoal::Mode::latency;
  g.user_tokens_per_s = tokens_per_s;
  return g;
}

ServingGoal one_sequence() {
  ServingGoal g;
  g.mode = ServingGoal::Mode::batch;
  g.batch = 1;
  return g;
}

/// The layouts TP x PP of 4 GPUs that hold the 70B model, with their figures at batch 1
/// computed for each fixed layout.
std::vector<ServingCapacity> batch_one_by_layout(int count) {
  std::vector<ServingCapacity> out;
  for (int tp = 1; tp <= count; tp *= 2) {
    for (int pp = 1; tp * pp <= count; pp *= 2) {
      if (count % (tp * pp) != 0) continue;
      try {
        out.push_back(
            serving_capacity(llama70b_request(), h100(), count, {tp, pp}, one_sequence()));
      } catch (const EngineError&) {
        // The layout does not hold the model.
      }
    }
  }
  return out;
}

/// The note saying no batch meets the target ("" when none does); a chosen layout's note
/// comes before it.
std::string missed_note(const ServingCapacity& c) {
  for (const auto& note : c.notes) {
    if (note.rfind("no batch meets the target", 0) == 0) return note;
  }
  return "";
}

const ServingCapacity& lowest_tpot(const std::vector<ServingCapacity>& layouts) {
  const ServingCapacity* best = &layouts.front();
  for (const auto& c : layouts) {
    if (c.tpot_p99_ms < best->tpot_p99_ms) best = &c;
  }
  return *best;
}

TEST(ServingTarget, noLayoutMeetingTheTargetReportsTheBestOfEveryLayout) {
  // At batch 1 each layout's TPOT is its step alone; on 4 H100s TP4 has the shortest step
  // (a quarter of the weights per GPU), 18.7 ms, against 36.8 ms for TP1 (four replicas, the
  // most throughput, the layout the report named before). TP4's step, as `throughput --batch 1
  // --tp 4` breaks it down: 17.66 GB of weights per GPU read at 0.656 x 0.794^2 (the fitted
  // bandwidth efficiency and TP factor per doubling, engine/serving/serving_profile.cpp) of 3,350
  // GB/s = 12.74 ms, attention 0.06 ms, two all-reduces per layer 1.44 ms, the fixed 4.50 ms.
  const std::vector<ServingCapacity> layouts = batch_one_by_layout(4);
  // TP1, TP2, TP4 x PP1, TP1 x PP2, TP1 x PP4 and TP2 x PP2 all hold the model.
  ASSERT_EQ(layouts.size(), 6u);
  const ServingCapacity& fastest = lowest_tpot(layouts);
  EXPECT_EQ(fastest.tp, 4);
  EXPECT_EQ(fastest.pp, 1);
  EXPECT_NEAR(fastest.tpot_p99_ms, 18.7, 0.05);

  const ServingCapacity c = serving_capacity(llama70b_request(), h100(), 4, {}, user_speed(60));
  ASSERT_FALSE(c.target_met);
  EXPECT_EQ(c.missed, LatencyMiss::tpot);
  EXPECT_EQ(c.tp, 4);
  EXPECT_EQ(c.pp, 1);
  EXPECT_EQ(c.batch_per_replica, 1);
  EXPECT_DOUBLE_EQ(c.tpot_p99_ms, fastest.tpot_p99_ms);
  EXPECT_DOUBLE_EQ(c.per_user_tokens_per_s, fastest.per_user_tokens_per_s);
  EXPECT_EQ(missed_note(c),
            "no batch meets the target: at batch 1 the p99 TPOT is 18.7 ms (53.4 tokens/s per "
            "user) with TP4 x PP1, the best any layout reaches on 4 x h100-sxm (6 layouts hold "
            "the model)");
  // The layout was chosen for its latency, not its throughput.
  EXPECT_EQ(c.notes.front(),
            "layout chosen for the lowest latency (no layout meets the target): TP4 x PP1, 1 "
            "replica(s) of 4 GPU(s) (6 of 6 layouts hold the model)");
  // The same figures, formatted from the fixed layout's own run.
  EXPECT_NE(missed_note(c).find(fmt::format("the p99 TPOT is {:.1f} ms ({:.1f} tokens/s",
                                            fastest.tpot_p99_ms, fastest.per_user_tokens_per_s)),
            std::string::npos);
}

TEST(ServingTarget, aFixedLayoutSaysWhatTheLayoutsNotSearchedReach) {
  const std::vector<ServingCapacity> layouts = batch_one_by_layout(4);
  const ServingCapacity& tp1 = layouts.front();
  ASSERT_EQ(tp1.tp, 1);
  const ServingCapacity& fastest = lowest_tpot(layouts);
  // TP1 x PP1 fixed: its own best, and TP4's beside it.
  const ServingCapacity c = serving_capacity(llama70b_request(), h100(), 4, {1, 1}, user_speed(60));
  ASSERT_FALSE(c.target_met);
  EXPECT_DOUBLE_EQ(c.tpot_p99_ms, tp1.tpot_p99_ms);
  EXPECT_EQ(missed_note(c),
            fmt::format("no batch meets the target: at batch 1 the p99 TPOT is {:.1f} ms ({:.1f} "
                        "tokens/s per user) with TP1 x PP1, the best this layout reaches on 4 x "
                        "h100-sxm; the other layouts were not searched: TP4 x PP1 reaches a p99 "
                        "TPOT of {:.1f} ms ({:.1f} tokens/s per user) at batch 1",
                        tp1.tpot_p99_ms, tp1.per_user_tokens_per_s, fastest.tpot_p99_ms,
                        fastest.per_user_tokens_per_s));
  EXPECT_NE(missed_note(c).find("36.8 ms (27.2 tokens/s per user) with TP1 x PP1"),
            std::string::npos)
      << missed_note(c);

  // 20 ms: TP4 meets it, TP1 not.
  ServingGoal twenty;
  twenty.mode = ServingGoal::Mode::latency;
  twenty.tpot_p99_ms = 20;
  ASSERT_TRUE(serving_capacity(llama70b_request(), h100(), 4, {}, twenty).target_met);
  const ServingCapacity fixed = serving_capacity(llama70b_request(), h100(), 4, {1, 1}, twenty);
  ASSERT_FALSE(fixed.target_met);
  EXPECT_EQ(missed_note(fixed),
            "no batch meets the target: at batch 1 the p99 TPOT is 36.8 ms (27.2 tokens/s per "
            "user) with TP1 x PP1, the best this layout reaches on 4 x h100-sxm; the other "
            "layouts were not searched: TP4 x PP1 meets the target");

  // TP4 fixed, the best there is: nothing else does better.
  const ServingCapacity best =
      serving_capacity(llama70b_request(), h100(), 4, {4, 1}, user_speed(60));
  EXPECT_EQ(missed_note(best),
            "no batch meets the target: at batch 1 the p99 TPOT is 18.7 ms (53.4 tokens/s per "
            "user) with TP4 x PP1, the best this layout reaches on 4 x h100-sxm; the other "
            "layouts were not searched: none does better");
}

TEST(ServingTarget, aFixedTpSearchesItsPipelineSplitsOnly) {
  // TP2 fixed on 4 GPUs: TP2 x PP1 (two replicas) and TP2 x PP2 (one) are searched.
  const ServingCapacity tp2x1 =
      serving_capacity(llama70b_request(), h100(), 4, {2, 1}, one_sequence());
  const ServingCapacity tp2x2 =
      serving_capacity(llama70b_request(), h100(), 4, {2, 2}, one_sequence());
  const ServingCapacity& nearer = tp2x1.tpot_p99_ms <= tp2x2.tpot_p99_ms ? tp2x1 : tp2x2;
  const ServingCapacity c = serving_capacity(llama70b_request(), h100(), 4, {2, 0}, user_speed(60));
  ASSERT_FALSE(c.target_met);
  EXPECT_EQ(c.tp, nearer.tp);
  EXPECT_EQ(c.pp, nearer.pp);
  const ServingCapacity tp4 =
      serving_capacity(llama70b_request(), h100(), 4, {4, 1}, one_sequence());
  EXPECT_EQ(missed_note(c),
            fmt::format("no batch meets the target: at batch 1 the p99 TPOT is {:.1f} ms ({:.1f} "
                        "tokens/s per user) with TP{} x PP{}, the best any layout with TP2 reaches "
                        "on 4 x h100-sxm (2 of them hold the model); layouts with another TP were "
                        "not searched: TP4 x PP1 reaches a p99 TPOT of {:.1f} ms ({:.1f} tokens/s "
                        "per user) at batch 1",
                        nearer.tpot_p99_ms, nearer.per_user_tokens_per_s, nearer.tp, nearer.pp,
                        tp4.tpot_p99_ms, tp4.per_user_tokens_per_s));
}

TEST(ServingTarget, anUnreachableTtftReportsTheLeastTtftOfEveryLayout) {
  // 1 ms to the first token of a 1000-token prompt: no layout prefills that fast. Each fixed
  // layout's least TTFT (batch 1, no queue); the box names the least of them.
  ServingGoal g;
  g.mode = ServingGoal::Mode::latency;
  g.tpot_p99_ms = 1000;
  g.ttft_p99_ms = 1;
  std::vector<ServingCapacity> layouts;
  for (const auto& [tp, pp] :
       std::vector<std::pair<int, int>>{{1, 1}, {2, 1}, {4, 1}, {1, 2}, {1, 4}, {2, 2}}) {
    try {
      layouts.push_back(serving_capacity(llama70b_request(), h100(), 4, {tp, pp}, g));
    } catch (const EngineError&) {
      // The layout does not hold the model.
    }
  }
  ASSERT_GE(layouts.size(), 2u);
  const ServingCapacity* least = &layouts.front();
  for (const auto& c : layouts) {
    ASSERT_FALSE(c.target_met);
    EXPECT_EQ(c.missed, LatencyMiss::ttft);
    if (c.ttft_p99_ms < least->ttft_p99_ms) least = &c;
  }
  const ServingCapacity c = serving_capacity(llama70b_request(), h100(), 4, {}, g);
  ASSERT_FALSE(c.target_met);
  EXPECT_EQ(c.tp, least->tp);
  EXPECT_EQ(c.pp, least->pp);
  EXPECT_DOUBLE_EQ(c.ttft_p99_ms, least->ttft_p99_ms);
  EXPECT_EQ(missed_note(c),
            fmt::format("no batch meets the target: the p99 TTFT is at least {:.0f} ms (batch 1, "
                        "no queue) with TP{} x PP{}, the best any layout reaches on 4 x h100-sxm "
                        "({} layouts hold the model)",
                        least->ttft_p99_ms, least->tp, least->pp, layouts.size()));
}

TEST(ServingTarget, nearerMeansOnlyTheTtftMissedThenTheLowerFigure) {
  ServingCapacity tpot_17, tpot_34, ttft_900, ttft_500;
  tpot_17.target_met = tpot_34.target_met = ttft_900.target_met = ttft_500.target_met = false;
  tpot_17.missed = tpot_34.missed = LatencyMiss::tpot;
  ttft_900.missed = ttft_500.missed = LatencyMiss::ttft;
  tpot_17.tpot_p99_ms = 17.1;
  tpot_34.tpot_p99_ms = 34.3;
  ttft_900.ttft_p99_ms = 900;
  ttft_500.ttft_p99_ms = 500;
  EXPECT_TRUE(nearer_latency_target(tpot_17, tpot_34));
  EXPECT_FALSE(nearer_latency_target(tpot_34, tpot_17));
  EXPECT_FALSE(nearer_latency_target(tpot_17, tpot_17));  // a tie keeps the first
  EXPECT_TRUE(nearer_latency_target(ttft_500, ttft_900));
  // Meeting the per-token target, whatever the TTFT, is nearer than missing it.
  EXPECT_TRUE(nearer_latency_target(ttft_900, tpot_17));
  EXPECT_FALSE(nearer_latency_target(tpot_17, ttft_900));
}

TEST(ServingTarget, theFinderKeepsTheBoxNearestTheTargetAndListsMissesNearestFirst) {
  // 120 tokens/s per user: no box of H100s or A100s serves the 70B that fast. Each row is its
  // device's nearest box, the lowest TPOT of every box and layout tried.
  const ServingGoal goal = user_speed(120);
  std::vector<ServingOffer> offers;
  for (const char* id : {"a100-80gb-sxm", "h100-sxm"}) {
    ServingOffer o;
    o.device = test::reference_device(id);
    offers.push_back(o);
  }
  const auto rows = rank_serving(llama70b_request(), offers, goal);
  ASSERT_EQ(rows.size(), 2u);
  for (const auto& row : rows) {
    ASSERT_TRUE(row.refusal.empty()) << row.refusal;
    ASSERT_FALSE(row.capacity.target_met) << row.device.id;
    for (int count : serving_finder_counts()) {
      try {
        const ServingCapacity c = serving_capacity(llama70b_request(), row.device, count, {}, goal);
        EXPECT_FALSE(nearer_latency_target(c, row.capacity))
            << row.device.id << " x " << count << ": " << c.tpot_p99_ms << " ms against "
            << row.capacity.tpot_p99_ms;
      } catch (const EngineError&) {
        // No layout of this box holds the model.
      }
    }
  }
  // The most GPUs split the weights the most: eight, tensor parallel.
  EXPECT_EQ(rows[0].count, 8);
  EXPECT_EQ(rows[0].capacity.tp, 8);
  // Nearest first: the H100 (more bandwidth) before the A100.
  EXPECT_EQ(rows[0].device.id, "h100-sxm");
  EXPECT_LT(rows[0].capacity.tpot_p99_ms, rows[1].capacity.tpot_p99_ms);
}

TEST(ServingTarget, aPlanNamesTheNearestLayoutAndItsFigure) {
  PlanInputs in;
  in.model = test::reference_model("llama-3.3-70b");
  in.quant = test::reference_quant("FP8");
  in.workload.context_tokens = 8192;
  in.workload.hours_per_day = 8;
  in.workload.prompt_tokens_per_request = 1000;
  in.workload.output_tokens_per_request = 100;
  in.workload.user_tokens_per_s = 60;
  in.finance.horizon_months = 12;
  in.finance.currency = "EUR";
  OptionInputs o;
  o.id = "h100x4";
  o.kind = OptionKind::buy;
  o.device = h100();
  o.count = 4;
  o.price_per_gpu = 25000;
  o.engine = ServingEngine::vllm;
  in.options.push_back(o);
  const ServingCapacity tp4 =
      serving_capacity(llama70b_request(), h100(), 4, {4, 1}, one_sequence());
  // Not an error (issue #43): the option cannot serve the demand, and says why.
  prepare_plan_inputs(in);
  EXPECT_EQ(in.options[0].unservable_reason,
            fmt::format("cannot meet the targets: [workload] user_tokens_per_s = 60 (per-user "
                        "speed) is met by no batch and no layout: the best achievable is {:.2f} "
                        "tokens/s (batch 1, TP4 x PP1 of 4 x h100-sxm); relax the target, or use "
                        "more or faster GPUs",
                        tp4.per_user_tokens_per_s));
}

}  // namespace
}  // namespace gputco
