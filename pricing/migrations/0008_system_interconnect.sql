-- gputco catalog schema: migration 7 -> 8.
--
-- Applied after 0007 to every new catalog, and to an older catalog file when it is written to
-- (a user price book) or read (in memory; the file stays untouched). The runner
-- (pricing/catalog_schema.cpp) wraps it in one transaction and sets PRAGMA user_version = 8.
--
-- A system's interconnect (issue #21 item 2: a buy option's `system = ID` takes its
-- interconnect from the catalog, as it takes price, devices and power):
--   nvlink_domain_gpus  how many of the system's devices one NVLink/NVSwitch domain joins: 8 on
--                       an 8-GPU NVSwitch board (DGX/HGX H100), 2 where 2-way bridges pair the
--                       cards, 1 where every device talks over PCIe only. A tensor-parallel group
--                       (and a pipeline replica) larger than it goes over PCIe. NULL: not
--                       stated (the device's own nvlink_gbps joins all of the system's devices,
--                       as before this column).
--   interconnect        the links in words, as published ("NVSwitch, NVLink 900 GB/s per GPU");
--                       '' when not stated.
-- ALTER TABLE appends the columns, so a user catalog of version 7 reads them as NULL and ''
-- and the layered views (SELECT * over both layers) keep the same column order in every
-- catalog.

ALTER TABLE systems ADD COLUMN nvlink_domain_gpus INTEGER
  CHECK (nvlink_domain_gpus IS NULL OR (nvlink_domain_gpus > 0 AND nvlink_domain_gpus <= device_count));
ALTER TABLE systems ADD COLUMN interconnect TEXT NOT NULL DEFAULT '';
