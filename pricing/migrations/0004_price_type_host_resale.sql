-- gputco catalog schema: migration 3 -> 4.
--
-- Applied after 0003 to every new catalog, and to an older catalog file when it is written to
-- (a user price book) or read (in memory; the file stays untouched). The runner
-- (pricing/catalog_schema.cpp) wraps it in one transaction and sets PRAGMA user_version = 4.
--
-- Purchase prices say what kind of price they are (issue #17): 'list' (the maker's list price,
-- MSRP) or 'street' (what a buyer was observed to pay: retail, the used market, a quote). A plan
-- chooses by the scenario's price_basis (scenarios/price_choice.cpp). Rows written before this
-- column existed are observations, so they read as 'street'.

ALTER TABLE price_observations ADD COLUMN price_type TEXT NOT NULL DEFAULT 'street'
  CHECK (price_type IN ('list', 'street'));

-- Resale curves gain the class 'host' (issue #17): the rest of an owned system (servers,
-- CPUs, memory, chassis, power supplies), which loses value faster than its GPUs. SQLite cannot
-- change a CHECK constraint in place: new table, copy, drop, rename.
CREATE TABLE resale_curves_v4 (
  device_class TEXT NOT NULL CHECK (device_class IN ('consumer', 'workstation', 'datacenter',
                                                     'unified', 'host')),
  condition TEXT NOT NULL CHECK (condition IN ('new', 'used', 'refurbished')),
  age_months INTEGER NOT NULL CHECK (age_months >= 0 AND age_months <= 240),
  fraction REAL NOT NULL CHECK (fraction >= 0 AND fraction <= 2),
  observed_on TEXT NOT NULL CHECK (date(observed_on) = observed_on),
  source TEXT NOT NULL CHECK (length(source) > 0),
  note TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (device_class, condition, age_months, observed_on)
) WITHOUT ROWID;
INSERT INTO resale_curves_v4 SELECT device_class, condition, age_months, fraction, observed_on,
                                    source, note FROM resale_curves;
DROP TABLE resale_curves;
ALTER TABLE resale_curves_v4 RENAME TO resale_curves;

UPDATE meta SET value = '4' WHERE key = 'schema_version';
