-- gputco catalog schema, version 1 (PRAGMA user_version).
--
-- One fact per row. Every observation carries where it was published (`source`, never empty)
-- and when (`observed_on`, an ISO date YYYY-MM-DD, checked with date(x) = x). Lookups are
-- "as of" a date: the latest observation on or before it.
--
-- Keys are the stable text ids of pricing/data/*.csv, never row numbers, so that a later
-- schema can layer user price books over the built-in catalog (a separate database of the
-- same observation tables, ATTACHed, queried as a union with a precedence column) and add
-- systems and resale curves with migrations (pricing/migrations/NNNN_*.sql, each raising
-- user_version by one). Observation tables name what they price `item_id` for that reason:
-- today it references devices; a migration may widen it to an items table (devices + systems).
--
-- Enumerations below are mirrored in pricing/catalog_build.cpp (which reports bad CSV rows as
-- FILE:LINE before SQLite sees them); keep the two in step.

PRAGMA foreign_keys = ON;
PRAGMA application_id = 1196446787;  -- 0x47505443, "GPTC": marks a gputco catalog file
PRAGMA user_version = 1;

CREATE TABLE meta (
  key TEXT PRIMARY KEY NOT NULL CHECK (length(key) > 0),
  value TEXT NOT NULL
) WITHOUT ROWID;

INSERT INTO meta (key, value) VALUES ('format', 'gputco-catalog'), ('schema_version', '1');

-- ISO 4217 codes an amount may carry. A code absent here is a data error, not a new currency.
CREATE TABLE currencies (
  code TEXT PRIMARY KEY NOT NULL CHECK (length(code) = 3 AND code = upper(code)),
  name TEXT NOT NULL CHECK (length(name) > 0)
) WITHOUT ROWID;

INSERT INTO currencies (code, name) VALUES
  ('AUD', 'Australian dollar'),
  ('CAD', 'Canadian dollar'),
  ('CHF', 'Swiss franc'),
  ('CNY', 'Chinese yuan'),
  ('CZK', 'Czech koruna'),
  ('DKK', 'Danish krone'),
  ('EUR', 'Euro'),
  ('GBP', 'Pound sterling'),
  ('HKD', 'Hong Kong dollar'),
  ('INR', 'Indian rupee'),
  ('JPY', 'Japanese yen'),
  ('KRW', 'South Korean won'),
  ('NOK', 'Norwegian krone'),
  ('NZD', 'New Zealand dollar'),
  ('PLN', 'Polish zloty'),
  ('SEK', 'Swedish krona'),
  ('SGD', 'Singapore dollar'),
  ('TWD', 'New Taiwan dollar'),
  ('USD', 'United States dollar');

CREATE TABLE devices (
  id TEXT PRIMARY KEY NOT NULL CHECK (length(id) > 0),
  name TEXT NOT NULL CHECK (length(name) > 0),
  vendor TEXT NOT NULL CHECK (vendor IN ('nvidia', 'amd', 'intel', 'apple')),
  kind TEXT NOT NULL CHECK (kind IN ('consumer', 'workstation', 'datacenter', 'unified')),
  memory_gb REAL NOT NULL CHECK (memory_gb > 0),            -- nameplate figure ("24 GB")
  memory_type TEXT NOT NULL CHECK (length(memory_type) > 0),
  bandwidth_gbps REAL NOT NULL CHECK (bandwidth_gbps > 0),  -- GB/s, 10^9 bytes/s
  board_power_w REAL CHECK (board_power_w IS NULL OR board_power_w > 0),  -- NULL: none given
  fp16_tflops REAL CHECK (fp16_tflops IS NULL OR fp16_tflops > 0),        -- dense; NULL: unknown
  nvlink_gbps REAL CHECK (nvlink_gbps IS NULL OR nvlink_gbps > 0),        -- NULL: PCIe only
  note TEXT NOT NULL DEFAULT '',
  source TEXT NOT NULL CHECK (length(source) > 0),
  observed_on TEXT NOT NULL CHECK (date(observed_on) = observed_on)
) WITHOUT ROWID;

CREATE TABLE models (
  id TEXT PRIMARY KEY NOT NULL CHECK (length(id) > 0),
  name TEXT NOT NULL CHECK (length(name) > 0),
  params_b REAL NOT NULL CHECK (params_b > 0),
  active_params_b REAL NOT NULL CHECK (active_params_b > 0 AND active_params_b <= params_b),
  layers INTEGER NOT NULL CHECK (layers > 0),
  hidden INTEGER NOT NULL CHECK (hidden > 0),
  heads INTEGER NOT NULL CHECK (heads > 0),
  kv_heads INTEGER CHECK (kv_heads IS NULL OR kv_heads > 0),      -- NULL for MLA models
  head_dim INTEGER CHECK (head_dim IS NULL OR head_dim > 0),
  experts INTEGER CHECK (experts IS NULL OR experts > 0),         -- NULL: dense
  experts_active INTEGER CHECK (experts_active IS NULL OR
                                (experts_active > 0 AND experts_active <= experts)),
  swa_window INTEGER CHECK (swa_window IS NULL OR swa_window > 0),
  swa_layers INTEGER CHECK (swa_layers IS NULL OR (swa_layers > 0 AND swa_layers <= layers)),
  mla_kv_lora_rank INTEGER CHECK (mla_kv_lora_rank IS NULL OR mla_kv_lora_rank > 0),
  mla_rope_dim INTEGER CHECK (mla_rope_dim IS NULL OR mla_rope_dim > 0),
  max_context INTEGER NOT NULL CHECK (max_context > 0),
  vocab_size INTEGER CHECK (vocab_size IS NULL OR vocab_size > 0),   -- NULL: unknown
  tied_embeddings INTEGER CHECK (tied_embeddings IS NULL OR tied_embeddings IN (0, 1)),
  note TEXT NOT NULL DEFAULT '',
  source TEXT NOT NULL CHECK (length(source) > 0),
  observed_on TEXT NOT NULL CHECK (date(observed_on) = observed_on),
  CHECK (kv_heads IS NOT NULL OR mla_kv_lora_rank IS NOT NULL)
) WITHOUT ROWID;

CREATE TABLE quants (
  quant TEXT PRIMARY KEY NOT NULL CHECK (length(quant) > 0),
  bits_per_weight REAL NOT NULL CHECK (bits_per_weight > 0 AND bits_per_weight <= 32),
  kind TEXT NOT NULL CHECK (kind IN ('float', 'block', 'mix', 'group')),
  note TEXT NOT NULL DEFAULT '',
  source TEXT NOT NULL CHECK (length(source) > 0),
  observed_on TEXT NOT NULL CHECK (date(observed_on) = observed_on)
) WITHOUT ROWID;

-- A purchase price per device, as observed at one seller in one region on one date.
CREATE TABLE price_observations (
  id INTEGER PRIMARY KEY,
  item_id TEXT NOT NULL REFERENCES devices (id),
  condition TEXT NOT NULL CHECK (condition IN ('new', 'used', 'refurbished')),
  amount REAL NOT NULL CHECK (amount > 0),
  currency TEXT NOT NULL REFERENCES currencies (code),
  region TEXT NOT NULL CHECK (length(region) > 0),
  seller TEXT NOT NULL CHECK (length(seller) > 0),
  observed_on TEXT NOT NULL CHECK (date(observed_on) = observed_on),
  source TEXT NOT NULL CHECK (length(source) > 0),
  note TEXT NOT NULL DEFAULT '',
  UNIQUE (item_id, condition, seller, region, observed_on)
);
CREATE INDEX price_observations_by_item ON price_observations (item_id, condition, observed_on);

-- A rental offer as published, per instance; per-device price = amount / devices_per_instance.
-- One sku may be offered both hourly and monthly (e.g. OVHcloud): billing is part of the key.
CREATE TABLE rental_offers (
  id INTEGER PRIMARY KEY,
  provider TEXT NOT NULL CHECK (length(provider) > 0),
  sku TEXT NOT NULL CHECK (length(sku) > 0),
  device_id TEXT NOT NULL REFERENCES devices (id),
  devices_per_instance INTEGER NOT NULL CHECK (devices_per_instance > 0),
  billing TEXT NOT NULL CHECK (billing IN ('hourly', 'monthly')),
  term TEXT NOT NULL CHECK (term IN ('on_demand', 'spot', 'reserved_1y', 'reserved_3y')),
  amount REAL NOT NULL CHECK (amount > 0),     -- per instance per hour, or per month
  setup_fee REAL NOT NULL DEFAULT 0 CHECK (setup_fee >= 0),  -- once per instance
  currency TEXT NOT NULL REFERENCES currencies (code),
  region TEXT NOT NULL CHECK (length(region) > 0),
  observed_on TEXT NOT NULL CHECK (date(observed_on) = observed_on),
  source TEXT NOT NULL CHECK (length(source) > 0),
  note TEXT NOT NULL DEFAULT '',
  CHECK (term <> 'spot' OR billing = 'hourly'),
  UNIQUE (provider, sku, billing, term, region, observed_on)
);
CREATE INDEX rental_offers_by_device ON rental_offers (device_id, observed_on);

CREATE TABLE tariffs (
  id TEXT NOT NULL CHECK (length(id) > 0),
  region TEXT NOT NULL CHECK (length(region) > 0),
  amount_per_kwh REAL NOT NULL CHECK (amount_per_kwh > 0),
  currency TEXT NOT NULL REFERENCES currencies (code),
  observed_on TEXT NOT NULL CHECK (date(observed_on) = observed_on),
  source TEXT NOT NULL CHECK (length(source) > 0),
  note TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (id, observed_on)
) WITHOUT ROWID;

-- 1 base = rate quote.
CREATE TABLE fx_rates (
  base TEXT NOT NULL REFERENCES currencies (code),
  quote TEXT NOT NULL REFERENCES currencies (code),
  rate REAL NOT NULL CHECK (rate > 0),
  observed_on TEXT NOT NULL CHECK (date(observed_on) = observed_on),
  source TEXT NOT NULL CHECK (length(source) > 0),
  CHECK (base <> quote),
  PRIMARY KEY (base, quote, observed_on)
) WITHOUT ROWID;
