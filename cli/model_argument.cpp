#include "cli/model_argument.hpp"

#include "cli/arguments.hpp"

namespace gputco::cli {

ResolvedModel model_argument(const Catalog& catalog, const std::string& command,
                             const std::string& argument) {
  try {
    return resolve_model_argument(argument, catalog);
  } catch (const UnknownModelError& e) {
    throw UsageError(command + ": --model: " + std::string(e.what()));
  }
}

Quant quant_argument(const Catalog& catalog, const std::string& command, const std::string& id) {
  if (id.empty()) {
    throw UsageError(command + ": --quant is required (gputco catalog list quants)");
  }
  const auto quant = catalog.quant(id);
  if (!quant) {
    unknown_id(
        command, "quant", id, catalog.quants(), [](const Quant& q) { return q.id; },
        "gputco catalog list quants");
  }
  return *quant;
}

Quant quant_argument(const Catalog& catalog, const std::string& command, const ResolvedModel& model,
                     const std::string& id) {
  if (model.native_quant && (id.empty() || same_id(id, model.native_quant->id))) {
    return *model.native_quant;
  }
  return quant_argument(catalog, command, id);
}

}  // namespace gputco::cli
