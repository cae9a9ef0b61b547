// A model's architecture and exact weight bytes from a GGUF header (see gguf_file.hpp).
#pragma once

#include <string>
#include <vector>

#include "engine/hardware/hardware.hpp"

namespace gputco {

/// What a GGUF header says about its model.
struct GgufModel {
  ModelArch arch;                  ///< with file_weights: the tensors' bytes by group, exact
  std::vector<std::string> files;  ///< the file, or every part of a split model, in order
  std::vector<std::string> notes;  ///< assumptions, one sentence each
};

/// Reads the GGUF file at `path` (for a split model, "NAME-00001-of-00009.gguf", every part
/// named as llama.cpp's gguf-split names them, from the same folder) and maps its metadata,
/// `{arch}` being general.architecture, onto the engine's architecture:
/// layers `{arch}.block_count`; hidden `{arch}.embedding_length`; heads
/// `{arch}.attention.head_count` and `.head_count_kv` (either may be an array with one value
/// per layer: a layer with 0 KV heads has no KV cache); head widths `.key_length` and
/// `.value_length`; MLA `.kv_lora_rank` with `{arch}.rope.dimension_count`; experts
/// `{arch}.expert_count`, `.expert_used_count`; the sliding window `.sliding_window` on the
/// layers llama.cpp slides for that architecture (gemma2 every 2nd but last, gemma3 5 of 6,
/// cohere2 3 of 4, gpt-oss every other, llama4 chunked 3 of 4, or
/// `.sliding_window_pattern`); the maximum context `{arch}.context_length`, RoPE scaling
/// `{arch}.rope.scaling.factor` x `.original_context_length`; the recurrent state
/// `{arch}.ssm.conv_kernel`, `.inner_size`, `.state_size`, `.group_count` (Mamba, Jamba,
/// Falcon-H1, Qwen3-Next: which layers follow `.full_attention_interval`, the per-layer KV
/// heads, or the architecture), `{arch}.wkv.head_size` with `.token_shift_count` (RWKV) and
/// `{arch}.shortconv.l_cache` (LFM2) as llama.cpp sizes them; the vocabulary from
/// `{arch}.vocab_size`, the embedding's rows or the tokenizer; tied when there is no
/// output.weight. Weight bytes by group from the tensor table (token_embd, output, *_exps,
/// the rest); parameters are the tensors' elements; the weight format is general.file_type's
/// name, or the commonest type of the 2-D weights when absent.
/// Throws ModelFileError naming the file and the key or byte offset of a problem.
GgufModel read_gguf_model(const std::string& path);

}  // namespace gputco
