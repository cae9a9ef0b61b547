// The user's measured serving runs in the user catalog (pricing/serving_runs.hpp, migration
// 0009): stored with their file as source, importing again idempotent, listed, removed.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pricing/catalog.hpp"
#include "pricing/serving_runs.hpp"
#include "tests/unit/pricing_fixtures.hpp"

namespace gputco {
namespace {

MeasuredServingRun run_at(int index, double concurrency, double tokens_per_s) {
  MeasuredServingRun r;
  r.model_id = "deepseek-r1";
  r.quant = "FP8";
  r.device_id = "h200-sxm";
  r.gpu_count = 8;
  r.tp = 8;
  r.engine = ServingEngine::sglang;
  r.engine_version = "0.4.3.post2";
  r.input_tokens = 3200;
  r.output_tokens = 800;
  r.concurrency = concurrency;
  r.output_tokens_per_s = tokens_per_s;
  r.mean_tpot_ms = 43.8;
  r.duration_s = 2436.874265;
  r.requests = 500;
  r.measured_on = "2025-03-18";
  r.file_name = "sglang.jsonl";
  r.file_sha256 = std::string(64, 'a');
  r.format = "sglang-bench-serving";
  r.index_in_file = index;
  return r;
}

std::string user_db(const char* test) {
  return (test::work_dir(std::string("serving_runs.") + test) / "catalog.sqlite").string();
}

TEST(ServingRuns, storedRunsAreListedWithIdsAndImportingAgainStoresNothing) {
  const std::string db = user_db("store");
  const std::vector<MeasuredServingRun> runs{run_at(0, 7.9, 164.14), run_at(1, 31.3, 405.54)};
  const ServingRunsStored first = store_serving_runs(db, runs, "2026-12-04");
  EXPECT_EQ(first.inserted, 2);
  EXPECT_EQ(first.unchanged, 0);
  EXPECT_EQ(first.runs[1].id, "run-2");
  const ServingRunsStored again = store_serving_runs(db, runs, "2026-12-05");
  EXPECT_EQ(again.inserted, 0);
  EXPECT_EQ(again.unchanged, 2);
  const auto listed = Catalog::open_layered(db).serving_runs("DeepSeek-R1");  // any case
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[0].id, "run-1");
  EXPECT_DOUBLE_EQ(listed[1].output_tokens_per_s, 405.54);
  EXPECT_EQ(listed[1].engine, ServingEngine::sglang);
  EXPECT_EQ(listed[1].engine_version, "0.4.3.post2");
  EXPECT_TRUE(Catalog::open_layered(db).serving_runs("llama-3.1-8b").empty());
  EXPECT_TRUE(Catalog::open_builtin().serving_runs().empty());
}

TEST(ServingRuns, theSameFileWithOtherFlagsIsRefusedAndNothingChanges) {
  const std::string db = user_db("conflict");
  store_serving_runs(db, {run_at(0, 7.9, 164.14)}, "2026-12-04");
  MeasuredServingRun other = run_at(0, 7.9, 164.14);
  other.device_id = "mi300x";
  MeasuredServingRun fresh = run_at(1, 31.3, 405.54);
  try {
    store_serving_runs(db, {fresh, other}, "2026-12-04");
    FAIL() << "expected ImportError";
  } catch (const ImportError& e) {
    ASSERT_EQ(e.problems().size(), 1u);
    EXPECT_EQ(e.problems()[0],
              "sglang.jsonl (run 1): stored as run-1 with other values: gpu: stored 'h200-sxm', "
              "now 'mi300x'; remove it first (gputco calibrate --remove run-1)");
  }
  EXPECT_EQ(Catalog::open_layered(db).serving_runs().size(), 1u);  // run 2 not stored either
}

TEST(ServingRuns, removedByIdByFileNameOrBySha256) {
  const std::string db = user_db("remove");
  std::vector<MeasuredServingRun> runs{run_at(0, 7.9, 164.14), run_at(1, 31.3, 405.54),
                                       run_at(2, 125.1, 802.54)};
  runs[2].file_name = "other.jsonl";
  runs[2].file_sha256 = std::string(64, 'b');
  store_serving_runs(db, runs, "2026-12-04");
  EXPECT_EQ(remove_serving_runs(db, {"run-2"}).at(0).index_in_file, 1);
  EXPECT_EQ(remove_serving_runs(db, {"bbbbbbbb"}).at(0).file_name, "other.jsonl");
  try {
    remove_serving_runs(db, {"sglang.jsonl", "run-9"});
    FAIL() << "expected ImportError";
  } catch (const ImportError& e) {
    ASSERT_EQ(e.problems().size(), 1u);
    EXPECT_EQ(e.problems()[0],
              "run-9: no stored run has this id, file name or SHA-256 (gputco calibrate --list)");
  }
  EXPECT_EQ(Catalog::open_layered(db).serving_runs().size(), 1u);  // nothing removed then
  EXPECT_EQ(remove_serving_runs(db, {"sglang.jsonl"}).size(), 1u);
  EXPECT_TRUE(Catalog::open_layered(db).serving_runs().empty());
}

}  // namespace
}  // namespace gputco
