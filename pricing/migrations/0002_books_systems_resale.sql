-- gputco catalog schema: migration 1 -> 2.
--
-- Applied after schema.sql (version 1) to every new catalog, and to an older catalog file when
-- it is written to (a user price book) or read (in memory; the file stays untouched).
-- The runner (pricing/catalog_schema.cpp) wraps it in one transaction and sets
-- PRAGMA user_version = 2 after it; a failed migration leaves the file at version 1.
--
-- 1. Price books: every purchase price and rental offer belongs to a book. The built-in
--    catalog's rows belong to the book 'built-in'; a user database holds the books imported with
--    `gputco catalog import --book NAME`. The key of an observation now includes its book, so
--    that two books may price the same item on the same date (precedence is the reader's job).
-- 2. Systems: servers and workstations (devices x count + host) and their dated prices.
-- 3. Resale curves: fraction of the purchase price a device class fetches by age in months.

CREATE TABLE books (
  name TEXT PRIMARY KEY NOT NULL CHECK (length(name) > 0 AND name = trim(name)),
  note TEXT NOT NULL DEFAULT ''
) WITHOUT ROWID;

INSERT INTO books (name, note) VALUES
  ('built-in', 'the catalog compiled into gputco from pricing/data');

-- SQLite cannot change a UNIQUE constraint in place: new table, copy, drop, rename.
CREATE TABLE price_observations_v2 (
  id INTEGER PRIMARY KEY,
  book TEXT NOT NULL DEFAULT 'built-in' REFERENCES books (name),
  item_id TEXT NOT NULL REFERENCES devices (id),
  condition TEXT NOT NULL CHECK (condition IN ('new', 'used', 'refurbished')),
  amount REAL NOT NULL CHECK (amount > 0),
  currency TEXT NOT NULL REFERENCES currencies (code),
  region TEXT NOT NULL CHECK (length(region) > 0),
  seller TEXT NOT NULL CHECK (length(seller) > 0),
  observed_on TEXT NOT NULL CHECK (date(observed_on) = observed_on),
  source TEXT NOT NULL CHECK (length(source) > 0),
  note TEXT NOT NULL DEFAULT '',
  UNIQUE (book, item_id, condition, seller, region, observed_on)
);
INSERT INTO price_observations_v2 (id, item_id, condition, amount, currency, region, seller,
                                   observed_on, source, note)
  SELECT id, item_id, condition, amount, currency, region, seller, observed_on, source, note
  FROM price_observations;
DROP TABLE price_observations;
ALTER TABLE price_observations_v2 RENAME TO price_observations;
CREATE INDEX price_observations_by_item ON price_observations (item_id, condition, observed_on);

CREATE TABLE rental_offers_v2 (
  id INTEGER PRIMARY KEY,
  book TEXT NOT NULL DEFAULT 'built-in' REFERENCES books (name),
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
  UNIQUE (book, provider, sku, billing, term, region, observed_on)
);
INSERT INTO rental_offers_v2 (id, provider, sku, device_id, devices_per_instance, billing, term,
                              amount, setup_fee, currency, region, observed_on, source, note)
  SELECT id, provider, sku, device_id, devices_per_instance, billing, term, amount, setup_fee,
         currency, region, observed_on, source, note
  FROM rental_offers;
DROP TABLE rental_offers;
ALTER TABLE rental_offers_v2 RENAME TO rental_offers;
CREATE INDEX rental_offers_by_device ON rental_offers (device_id, observed_on);

-- A server or workstation: device_count devices of one kind in a host. host_power_w is what
-- the host draws besides its devices (CPUs, memory, fans, PSU losses) at full load.
CREATE TABLE systems (
  id TEXT PRIMARY KEY NOT NULL CHECK (length(id) > 0),
  name TEXT NOT NULL CHECK (length(name) > 0),
  kind TEXT NOT NULL CHECK (kind IN ('server', 'workstation')),
  device_id TEXT NOT NULL REFERENCES devices (id),
  device_count INTEGER NOT NULL CHECK (device_count > 0),
  host TEXT NOT NULL CHECK (length(host) > 0),  -- CPUs, memory, chassis, as published
  host_power_w REAL NOT NULL CHECK (host_power_w >= 0),
  note TEXT NOT NULL DEFAULT '',
  source TEXT NOT NULL CHECK (length(source) > 0),
  observed_on TEXT NOT NULL CHECK (date(observed_on) = observed_on)
) WITHOUT ROWID;

-- A dated price of a system. includes_devices = 1: the amount buys the whole system with its
-- devices (a DGX list price); 0: the chassis/host only, the devices priced apart.
CREATE TABLE system_prices (
  id INTEGER PRIMARY KEY,
  book TEXT NOT NULL DEFAULT 'built-in' REFERENCES books (name),
  system_id TEXT NOT NULL REFERENCES systems (id),
  condition TEXT NOT NULL CHECK (condition IN ('new', 'used', 'refurbished')),
  includes_devices INTEGER NOT NULL CHECK (includes_devices IN (0, 1)),
  amount REAL NOT NULL CHECK (amount > 0),
  currency TEXT NOT NULL REFERENCES currencies (code),
  region TEXT NOT NULL CHECK (length(region) > 0),
  seller TEXT NOT NULL CHECK (length(seller) > 0),
  observed_on TEXT NOT NULL CHECK (date(observed_on) = observed_on),
  source TEXT NOT NULL CHECK (length(source) > 0),
  note TEXT NOT NULL DEFAULT '',
  UNIQUE (book, system_id, condition, includes_devices, seller, region, observed_on)
);
CREATE INDEX system_prices_by_system ON system_prices (system_id, condition, observed_on);

-- Resale value: a device of `device_class` (devices.kind) bought in `condition` fetches
-- `fraction` of its purchase price after `age_months`. A curve is the set of points of one
-- (device_class, condition) observed on one date; readers take, per point, the latest
-- observation on or before their date. Fractions above 1 are allowed: in shortages used cards
-- have sold above their launch price.
CREATE TABLE resale_curves (
  device_class TEXT NOT NULL CHECK (device_class IN ('consumer', 'workstation', 'datacenter',
                                                     'unified')),
  condition TEXT NOT NULL CHECK (condition IN ('new', 'used', 'refurbished')),
  age_months INTEGER NOT NULL CHECK (age_months >= 0 AND age_months <= 240),
  fraction REAL NOT NULL CHECK (fraction >= 0 AND fraction <= 2),
  observed_on TEXT NOT NULL CHECK (date(observed_on) = observed_on),
  source TEXT NOT NULL CHECK (length(source) > 0),
  note TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (device_class, condition, age_months, observed_on)
) WITHOUT ROWID;

UPDATE meta SET value = '2' WHERE key = 'schema_version';
