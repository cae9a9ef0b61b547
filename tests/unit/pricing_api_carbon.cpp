// API prices and grid carbon intensities (issue #8): catalog build checks and as-of lookups
// over the fixture overlay tests/data/catalog/api_carbon.
#include <gtest/gtest.h>

#include "pricing/catalog.hpp"
#include "pricing/catalog_schema.hpp"
#include "tests/unit/pricing_fixtures.hpp"

namespace gputco {
namespace {

Catalog api_carbon_catalog(const std::string& name) {
  const auto data = test::fixture_data(name, "api_carbon");
  const std::string db = (data.parent_path() / "catalog.sqlite").string();
  build_catalog(data.string(), db);
  return Catalog::open_file(db);
}

TEST(ApiPrices, latestObservationOnOrBeforeTheDate) {
  const Catalog c = api_carbon_catalog("api_latest");
  EXPECT_FALSE(c.api_price("host-8b", "2026-01-09"));
  const auto early = c.api_price("host-8b", "2026-02-28");
  ASSERT_TRUE(early);
  EXPECT_DOUBLE_EQ(early->input_per_million, 0.05);
  EXPECT_DOUBLE_EQ(early->output_per_million, 0.08);
  EXPECT_FALSE(early->cached_input_per_million);
  EXPECT_DOUBLE_EQ(early->requests_per_minute.value_or(0), 30);
  EXPECT_DOUBLE_EQ(early->tokens_per_minute.value_or(0), 6000);
  EXPECT_EQ(early->provenance.source, "fixture source A");
  EXPECT_EQ(early->provenance.observed_on, "2026-01-10");
  const auto later = c.api_price("host-8b", "2026-12-31");
  ASSERT_TRUE(later);
  EXPECT_DOUBLE_EQ(later->output_per_million, 0.06);
  EXPECT_DOUBLE_EQ(later->cached_input_per_million.value_or(-1), 0.02);
  EXPECT_FALSE(later->requests_per_minute);  // not published: empty, never 0
  EXPECT_EQ(later->comparable_model_id, "llama-3.1-8b");
  EXPECT_FALSE(c.api_price("nope", "2026-12-31"));
  EXPECT_THROW(c.api_price("host-8b", "31.12.2026"), CatalogError);
}

TEST(ApiPrices, listIsLatestPerIdOrderedById) {
  const Catalog c = api_carbon_catalog("api_list");
  const auto all = c.api_prices("2026-12-31");
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].id, "closed");
  EXPECT_EQ(all[0].comparable_model_id, "");
  EXPECT_EQ(all[0].currency, "EUR");
  EXPECT_EQ(all[1].id, "host-8b");
  EXPECT_EQ(all[1].provenance.observed_on, "2026-03-01");
  EXPECT_EQ(c.api_prices("2026-01-31").size(), 1u);
}

TEST(GridCarbon, latestIntensityOfARegion) {
  const Catalog c = api_carbon_catalog("grid_latest");
  const auto nl_2024 = c.grid_carbon("nl", "2024-12-31");
  ASSERT_TRUE(nl_2024);
  EXPECT_DOUBLE_EQ(nl_2024->g_co2e_per_kwh, 267.62);
  EXPECT_EQ(nl_2024->data_year, 2023);
  const auto nl = c.grid_carbon("nl", "2026-11-01");
  ASSERT_TRUE(nl);
  EXPECT_DOUBLE_EQ(nl->g_co2e_per_kwh, 251);
  EXPECT_EQ(nl->basis, "location-based consumption incl. imports, lifecycle");
  EXPECT_EQ(nl->provenance.source, "fixture source E");
  EXPECT_TRUE(c.grid_carbon("us-east-1", "2026-11-01"));
  EXPECT_EQ(c.grid_carbon("NL", "2026-11-01")->id, "nl");  // ids ignore case
  EXPECT_FALSE(c.grid_carbon("nl", "2024-01-01"));
  EXPECT_EQ(c.grid_carbons("2026-11-01").size(), 2u);
}

TEST(GridCarbon, buildReportsEveryBadRowWithItsLine) {
  EXPECT_EQ(test::problems_in(test::fixture_data("api_carbon_bad", "bad/api_carbon")),
            (std::vector<std::string>{
                "api_prices.csv:2: requests_per_minute: must be greater than 0, got 0",
                "api_prices.csv:2: comparable_model_id: unknown model 'llama-9b' (not an id of "
                "models.csv; leave it empty for none)",
                "api_prices.csv:3: input_per_million: must be 0 or more, got -1",
                "api_prices.csv:3: id+observed_on: duplicate key (host-8b, 2026-01-10), first on "
                "line 2",
                "grid_carbon.csv:2: g_co2e_per_kwh: must be at most 5000 g CO2e/kWh, got 6000",
                "grid_carbon.csv:2: data_year: must be a year between 1990 and 2100, got 1850",
            }));
}

TEST(GridCarbon, theBuiltInCatalogHasTheIssuesRegions) {
  const Catalog c = Catalog::open_builtin();
  EXPECT_EQ(c.schema_version(), kCatalogSchemaVersion);
  for (const char* id : {"nl", "de", "fr", "eu", "us-va", "us-east-1", "eu-north1"}) {
    const auto g = c.grid_carbon(id, "2026-11-27");
    ASSERT_TRUE(g) << id;
    EXPECT_GT(g->g_co2e_per_kwh, 0) << id;
    EXPECT_FALSE(g->provenance.source.empty()) << id;
  }
  EXPECT_GE(c.api_prices("2026-11-27").size(), 5u);
}

}  // namespace
}  // namespace gputco
