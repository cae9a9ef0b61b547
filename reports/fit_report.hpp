// The fit command's reports: the memory breakdown and the finder table, the comparison of
// two devices, and the fine-tuning estimate, as text and JSON. They format what the engine
// computed, never compute.
#pragma once

#include <string>
#include <vector>

#include "engine/hardware/finder.hpp"
#include "engine/hardware/finetune.hpp"
#include "reports/json_stamp.hpp"

namespace gputco {

/// What the user asked besides the request itself, for headers and provenance.
struct FitReportContext {
  std::string as_of;           ///< prices as of this date ("" = every observation)
  bool backend_given = false;  ///< --backend was given (else: each device's default)
  JsonStamp stamp;             ///< the catalog read, for the JSON's "gputco" stamp
};

/// The finder table (also used for one --gpu): a header with the request and the memory on
/// one device, then one row per system (a card, N cards of a device, or a catalog system
/// labelled "id (Nx device)"): devices, combined nameplate GB, usable GiB, headroom
/// GiB, verdict, decode tokens/s, time to first token (when prompt tokens were asked), speed
/// index (marked * when from bandwidth), new and used price of the whole system with its
/// currency, GB/s per unit of money, the tier and the largest model it serves. Footnotes say
/// how the index and the tier were derived.
std::string fit_text(const FinderRequest& finder, const MemoryBreakdown& memory,
                     const std::vector<FinderRow>& rows, const FitReportContext& context);

/// The fit command's JSON: { gputco (stamp_json(context.stamp)), mode: "inference", model, quant,
/// context_tokens, concurrent_streams, kv_cache, split, backend ("default" or the forced one),
/// prompt_tokens, prices_as_of, speed_reference, tier_probe: {quant, context_tokens}, memory:
/// {weights_gib, kv_cache_gib, recurrent_state_gib, overhead_gib, projector_gib,
/// image_buffer_gib, total_gib (device memory, for one device), host_embedding_gib (host RAM)},
/// results: [{ gpu, count, system (catalog system id, or null for a card or N cards of a
/// device), system_name, usable_gib, required_gib, headroom_gib, verdict, decode_tokens_per_s,
/// aggregate_tokens_per_s, backend, power_limit_w (W per card, null when none), split_used,
/// combined_memory_gb, prefill_tokens_per_s, time_to_first_token_s, price_new: {amount, currency} |
/// null, price_used, gbps_per_money, gbps_per_money_currency, gbps_per_money_condition,
/// speed_index, speed_index_basis, tier, tier_model, note }] }. Absent values are null.
std::string fit_json(const FinderRequest& finder, const MemoryBreakdown& memory,
                     const std::vector<FinderRow>& rows, const FitReportContext& context);

/// The one-line verdict of a comparison, naming the margins, e.g. "rtx-5090 decodes 51 %
/// faster; both fit; rtx-3090 costs 62 % less used".
std::string compare_verdict(const DeviceComparison& comparison);

/// Two systems side by side (one column each: memory, verdict, speed, index, prices, tier),
/// then the verdict line.
std::string compare_text(const FinderRequest& finder, const MemoryBreakdown& memory,
                         const DeviceComparison& comparison, const FitReportContext& context);

/// The comparison as JSON: fit_json's keys with results = [a, b], plus compare: {a, b,
/// faster_id, faster_by, cheaper_id, cheaper_by, price_condition_a, price_condition_b,
/// verdict}.
std::string compare_json(const FinderRequest& finder, const MemoryBreakdown& memory,
                         const DeviceComparison& comparison, const FitReportContext& context);

/// What a fine-tuning estimate is compared with.
struct FinetuneReportInputs {
  FinetuneRequest request;
  FinetuneMemory memory;
  FitRequest inference_request;      ///< the serving request the ratio is against
  MemoryBreakdown inference_memory;  ///< its memory on one device
  double ratio_to_inference = 0;     ///< training_to_inference_ratio
  JsonStamp stamp;                   ///< the catalog read, for the JSON's "gputco" stamp
};

/// The fine-tuning estimate: the breakdown (weights, gradients, master weights, optimizer
/// state, adapters, activations, total), the ratio against inference memory, then one row
/// per device (count, per-device need, usable, headroom, verdict), best first.
std::string finetune_text(const FinetuneReportInputs& inputs, const std::vector<FinetuneFit>& rows);

/// The fine-tuning estimate as JSON: { gputco (stamp_json(inputs.stamp)), mode:
/// "finetune-full"|..., model, sequence_tokens, micro_batch, gradient_checkpointing,
/// flash_attention, lora_rank, double_quant, finetune: {trainable_params_b, weights_gib,
/// gradients_gib, master_weights_gib, optimizer_state_gib, adapters_gib, activations_gib,
/// states_gib, total_gib}, inference: {quant, context_tokens, total_gib}, ratio_to_inference,
/// memory: {weights_gib, kv_cache_gib, recurrent_state_gib, overhead_gib, total_gib} (the
/// training figures mapped onto fit's keys: weights = states, kv_cache = 0, overhead =
/// activations), results: [{ gpu, count, per_device_gib, usable_gib, headroom_gib, verdict }] }.
std::string finetune_json(const FinetuneReportInputs& inputs, const std::vector<FinetuneFit>& rows);

}  // namespace gputco
