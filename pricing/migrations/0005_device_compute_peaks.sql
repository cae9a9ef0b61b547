-- gputco catalog schema: migration 4 -> 5.
--
-- Applied after 0004 to every new catalog, and to an older catalog file when it is written to
-- (a user price book) or read (in memory; the file stays untouched). The runner
-- (pricing/catalog_schema.cpp) wraps it in one transaction and sets PRAGMA user_version = 5.
--
-- Device compute peaks at 8 and 4 bits, for the serving model (issue #13): dense tensor
-- TFLOPS (no sparsity) in FP8 and in FP4 (NVFP4/MXFP4 on Blackwell), NULL where the device
-- has no such tensor cores or the figure is unknown (an A100 has no FP8: there FP8 weights
-- save bytes, not FLOPs). fp16_tflops (version 1) is the dense FP16/BF16 tensor peak.
-- ALTER TABLE appends the columns, so a user catalog of version 4 reads them as NULL and the
-- layered views (SELECT * over both layers) keep the same column order in every catalog.

ALTER TABLE devices ADD COLUMN fp8_tflops REAL CHECK (fp8_tflops IS NULL OR fp8_tflops > 0);
ALTER TABLE devices ADD COLUMN fp4_tflops REAL CHECK (fp4_tflops IS NULL OR fp4_tflops > 0);
