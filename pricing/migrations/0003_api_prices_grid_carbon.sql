-- gputco catalog schema: migration 2 -> 3.
--
-- Applied after 0002 to every new catalog, and to an older catalog file when it is written to
-- (a user price book) or read (in memory; the file stays untouched). The runner
-- (pricing/catalog_schema.cpp) wraps it in one transaction and sets PRAGMA user_version = 3.
--
-- 1. API prices: hosted models behind a pay-per-token API (issue #8), one row per id and date;
--    lookups as of a date take the latest row on or before it (like tariffs).
-- 2. Grid carbon: the carbon intensity of electricity per region (countries, the EU average,
--    US states, and cloud regions spelled as in rental_offers.region), one row per id and date.
-- Neither belongs to a price book: like tariffs and FX rates, every row counts as the built-in
-- book's, and a user database's rows layer over it by date.

-- Prices per 1,000,000 tokens in `currency`. Empty (NULL) optional columns: not published.
CREATE TABLE api_prices (
  id TEXT NOT NULL CHECK (length(id) > 0),
  provider TEXT NOT NULL CHECK (length(provider) > 0),
  api_model TEXT NOT NULL CHECK (length(api_model) > 0),
  comparable_model_id TEXT NOT NULL DEFAULT '',  -- a models id, '' when none (proprietary)
  input_per_million REAL NOT NULL CHECK (input_per_million >= 0),
  output_per_million REAL NOT NULL CHECK (output_per_million >= 0),
  cached_input_per_million REAL CHECK (cached_input_per_million IS NULL OR
                                       cached_input_per_million >= 0),
  currency TEXT NOT NULL REFERENCES currencies (code),
  requests_per_minute REAL CHECK (requests_per_minute IS NULL OR requests_per_minute > 0),
  tokens_per_minute REAL CHECK (tokens_per_minute IS NULL OR tokens_per_minute > 0),
  observed_on TEXT NOT NULL CHECK (date(observed_on) = observed_on),
  source TEXT NOT NULL CHECK (length(source) > 0),
  note TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (id, observed_on)
) WITHOUT ROWID;

-- Grams CO2-equivalent per kWh of electricity in region `id`, averaged over `data_year`;
-- `basis` says what is counted (location-based generation or consumption, lifecycle or direct).
CREATE TABLE grid_carbon (
  id TEXT NOT NULL CHECK (length(id) > 0),
  name TEXT NOT NULL CHECK (length(name) > 0),
  g_co2e_per_kwh REAL NOT NULL CHECK (g_co2e_per_kwh >= 0 AND g_co2e_per_kwh <= 5000),
  data_year INTEGER NOT NULL CHECK (data_year >= 1990 AND data_year <= 2100),
  basis TEXT NOT NULL CHECK (length(basis) > 0),
  observed_on TEXT NOT NULL CHECK (date(observed_on) = observed_on),
  source TEXT NOT NULL CHECK (length(source) > 0),
  note TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (id, observed_on)
) WITHOUT ROWID;

UPDATE meta SET value = '3' WHERE key = 'schema_version';
