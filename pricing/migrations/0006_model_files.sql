-- gputco catalog schema: migration 5 -> 6.
--
-- Applied after 0005 to every new catalog, and to an older catalog file when it is written to
-- (a user price book) or read (in memory; the file stays untouched). The runner
-- (pricing/catalog_schema.cpp) wraps it in one transaction and sets PRAGMA user_version = 6.
--
-- Models read from their files (issue #14) need what a config.json or GGUF says beyond the
-- version 1 columns, and a catalog model answers to its Hugging Face repository id:
--   hf_repo                   the model's Hugging Face repository ("meta-llama/Llama-3.1-8B"),
--                             an alias of its id ('' when none); unique ignoring case
--   head_dim_v                width of a V head when it differs from K's (NULL: head_dim)
--   max_context_scaled        the longest context its RoPE scaling supports (NULL: none)
--   layers_without_kv         layers with no KV cache (a hybrid's recurrent layers; NULL: 0)
--   recurrent_layers          layers keeping a recurrent state per sequence (NULL: 0)
--   recurrent_state_elements  f32 elements of one such layer's state per sequence (NULL: 0)
-- Columns are added at the end, in this order, in every layer alike (the layered views read
-- SELECT * of each).

ALTER TABLE models ADD COLUMN hf_repo TEXT NOT NULL DEFAULT '';
ALTER TABLE models ADD COLUMN head_dim_v INTEGER CHECK (head_dim_v IS NULL OR head_dim_v > 0);
ALTER TABLE models ADD COLUMN max_context_scaled INTEGER
  CHECK (max_context_scaled IS NULL OR max_context_scaled > 0);
ALTER TABLE models ADD COLUMN layers_without_kv INTEGER
  CHECK (layers_without_kv IS NULL OR layers_without_kv >= 0);
ALTER TABLE models ADD COLUMN recurrent_layers INTEGER
  CHECK (recurrent_layers IS NULL OR recurrent_layers >= 0);
ALTER TABLE models ADD COLUMN recurrent_state_elements REAL
  CHECK (recurrent_state_elements IS NULL OR recurrent_state_elements > 0);
CREATE UNIQUE INDEX models_by_hf_repo ON models (lower(hf_repo)) WHERE hf_repo <> '';

UPDATE meta SET value = '5' WHERE key = 'schema_version';
