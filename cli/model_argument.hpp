// The --model and --quant arguments of the commands that take a model (fit, throughput): a
// catalog id, a Hugging Face repository id or a model file, and the weight format to run it in.
#pragma once

#include <string>

#include "pricing/catalog.hpp"
#include "scenarios/model_files.hpp"

namespace gputco::cli {

/// The model `argument` names for `command` (resolve_model_argument: a config.json or GGUF
/// path, a catalog id in any case, or a catalog model's Hugging Face repository id, with or
/// without an -Instruct/-it/-chat suffix). Throws UsageError (exit 2) "COMMAND: --model:
/// unknown model ..." when nothing matches, ModelFileError (exit 2) for a file that cannot be
/// read, CatalogError.
ResolvedModel model_argument(const Catalog& catalog, const std::string& command,
                             const std::string& argument);

/// The catalog quant `id` names for `command`. Throws UsageError (exit 2) when `id` is empty
/// ("--quant is required") or unknown (the nearest id suggested).
Quant quant_argument(const Catalog& catalog, const std::string& command, const std::string& id);

/// The weight format of `model` for `command`: the model file's own format when `id` is empty
/// or names it, else the catalog quant `id` (the overload above: a catalog model with no
/// --quant is refused). Throws UsageError (exit 2).
Quant quant_argument(const Catalog& catalog, const std::string& command, const ResolvedModel& model,
                     const std::string& id);

}  // namespace gputco::cli
