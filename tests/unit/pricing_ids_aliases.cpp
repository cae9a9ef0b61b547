// Ids ignore case everywhere, a model answers to its Hugging Face repository id, older user
// catalogs still open (migration 0005), and the data files are checked for both.
#include <gtest/gtest.h>

#include <SQLiteCpp/SQLiteCpp.h>

#include <algorithm>
#include <fstream>

#include "pricing/catalog.hpp"
#include "pricing/catalog_schema.hpp"
#include "tests/unit/pricing_fixtures.hpp"

namespace gputco {
namespace {

TEST(CatalogIds, idsIgnoreCase) {
  const Catalog c = Catalog::open_builtin();
  ASSERT_TRUE(c.device("RTX-3090").has_value());
  EXPECT_EQ(c.device("RTX-3090")->id, "rtx-3090");
  EXPECT_EQ(c.device("H100-SXM")->id, "h100-sxm");
  ASSERT_TRUE(c.quant("q4_k_m").has_value());
  EXPECT_EQ(c.quant("q4_k_m")->id, "Q4_K_M");
  EXPECT_EQ(c.model("Llama-3.3-70B")->id, "llama-3.3-70b");
  EXPECT_EQ(c.tariff("NL-BUSINESS", "2026-11-01")->id, "nl-business");
  EXPECT_FALSE(c.device("rtx-3090 ").has_value());  // a space is not a case
}

// The 14 built-in models' repositories (pricing/data/models.csv hf_repo, the repositories
// their rows' sources name).
TEST(CatalogIds, huggingFaceRepoIsAnAlias) {
  const Catalog c = Catalog::open_builtin();
  const auto m = c.model("meta-llama/Llama-3.3-70B-Instruct");
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->id, "llama-3.3-70b");
  EXPECT_EQ(m->hf_repo, "meta-llama/Llama-3.3-70B-Instruct");
  EXPECT_EQ(c.model("META-LLAMA/llama-3.3-70b-instruct")->id, "llama-3.3-70b");
  EXPECT_EQ(c.model("Qwen/Qwen3-30B-A3B")->id, "qwen3-30b-a3b");
  EXPECT_EQ(c.model("deepseek-ai/DeepSeek-R1")->id, "deepseek-r1");
  for (const ModelArch& model : c.models()) {
    EXPECT_NE(model.hf_repo, "") << model.id;
    EXPECT_EQ(c.model(model.hf_repo)->id, model.id);
  }
  EXPECT_EQ(c.model("Qwen/Qwen3-8B")->id, "qwen3-8b");
  EXPECT_EQ(c.model("Qwen/Qwen3-Next-80B-A3B-Instruct")->id, "qwen3-next-80b-a3b");
  // A repository no row names is no alias (the Thinking variant has no row of its own).
  EXPECT_FALSE(c.model("Qwen/Qwen3-Next-80B-A3B-Thinking").has_value());
}

// A user catalog written by the previous version (schema 4) opens: migration 0005 adds the
// model columns in the in-memory copy; the file is untouched.
TEST(CatalogIds, olderUserCatalogStillOpens) {
  const std::string path = (test::work_dir("schema4") / "user.sqlite").string();
  {
    SQLite::Database db(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    db.exec("PRAGMA foreign_keys = ON");
    db.exec(std::string(catalog_schema_sql()));
    for (int version = 2; version <= 4; ++version) {
      db.exec(std::string(catalog_migration_sql(version)));
      db.exec("PRAGMA user_version = " + std::to_string(version));
    }
    db.exec(
        "INSERT INTO models (id, name, params_b, active_params_b, layers, hidden, heads, "
        "kv_heads, max_context, source, observed_on) VALUES ('my-model', 'Mine', 7, 7, 32, "
        "4096, 32, 8, 8192, 'own config.json', '2026-01-01')");
  }
  const Catalog c = Catalog::open_layered(path);
  const auto mine = c.model("MY-MODEL");
  ASSERT_TRUE(mine.has_value());
  EXPECT_EQ(mine->id, "my-model");
  EXPECT_EQ(mine->hf_repo, "");
  EXPECT_EQ(c.model("llama-3.1-8b")->hf_repo, "meta-llama/Llama-3.1-8B");
  SQLite::Database file(path, SQLite::OPEN_READONLY);
  EXPECT_EQ(file.execAndGet("PRAGMA user_version").getInt(), 4);
}

// The build refuses ids that differ only by case, aliases that repeat or are not owner/name,
// and figures nobody's part has.
TEST(CatalogIds, dataChecks) {
  const auto dir = test::fixture_data("ids_aliases", "");
  {
    std::ofstream models(dir / "models.csv", std::ios::app);
    models << "LLAMA-3.1-8B,Shout,8,8,32,4096,32,8,128,,,,,,,131072,128256,0,,x,2026-01-01\n";
  }
  {
    std::ofstream devices(dir / "devices.csv", std::ios::app);
    devices
        << "big-card,Big Card,nvidia,consumer,24000,GDDR6X,936,350,,,,,,typed in MB,2026-01-01\n";
  }
  const auto problems = test::problems_in(dir);
  const auto has = [&](const std::string& text) {
    return std::any_of(problems.begin(), problems.end(),
                       [&](const std::string& p) { return p.find(text) != std::string::npos; });
  };
  EXPECT_TRUE(
      has("models.csv:4: id: duplicate key (LLAMA-3.1-8B), first on line 2 (ids ignore "
          "case)"));
  EXPECT_TRUE(
      has(": memory_gb: must be at most 16384 GB (beyond any device: a unit slip?), got "
          "24000"));
}

TEST(CatalogIds, aliasChecks) {
  const auto dir = test::fixture_data("alias_checks", "");
  {
    std::ofstream models(dir / "models.csv", std::ios::trunc);
    models << "id,name,hf_repo,params_b,active_params_b,layers,hidden,heads,kv_heads,head_dim,"
              "experts,experts_active,swa_window,swa_layers,mla_kv_lora_rank,mla_rope_dim,"
              "max_context,vocab_size,tied_embeddings,note,source,observed_on\n"
              "a,A,org/A,8,8,32,4096,32,8,128,,,,,,,8192,,,,x,2026-01-01\n"
              "b,B,ORG/a,8,8,32,4096,32,8,128,,,,,,,8192,,,,x,2026-01-01\n"
              "c,C,not a repo,8,8,32,4096,32,8,128,,,,,,,8192,,,,x,2026-01-01\n";
  }
  const auto problems = test::problems_in(dir);
  ASSERT_EQ(problems.size(), 2u) << problems.front();
  EXPECT_EQ(problems[0],
            "models.csv:3: hf_repo: 'ORG/a' is the alias of line 2 already (aliases ignore case)");
  EXPECT_EQ(problems[1],
            "models.csv:4: hf_repo: 'not a repo' is not a Hugging Face repository id (owner/name)");
}

}  // namespace
}  // namespace gputco
