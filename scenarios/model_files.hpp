// A model from its files, never from the network: file in, the engine's ModelArch out; and
// the one place that turns a model argument (catalog id, Hugging Face repo id or file path)
// into a model, for every command.
#pragma once

#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/hardware/hardware.hpp"
#include "pricing/catalog.hpp"
#include "scenarios/model_shape.hpp"

namespace gputco {

/// A model read from a file.
struct ModelFile {
  ModelArch model;
  /// The weight format the file holds: a GGUF's file type with its exact bits per weight
  /// (bytes x 8 / parameters), or a config.json's checkpoint format ("BF16", "FP8", ...) with
  /// the bits its recipe gives this model.
  Quant native_quant;
  std::string kind;                ///< "GGUF" or "config.json"
  std::vector<std::string> files;  ///< what was read (every part of a split GGUF)
  std::vector<std::string> notes;  ///< what was assumed, one sentence each
};

/// True when `path` is to be read as a model file rather than looked up as an id: an existing
/// file or folder, or a name ending in .gguf or .json. Never throws.
bool is_model_path(const std::string& path);

/// Reads the model file at `path`: a GGUF (by its magic, whatever its name), a config.json, or
/// a folder holding a config.json. The id is the GGUF's file name without .gguf, or the
/// config's folder name. Throws ModelFileError naming the file and the field or byte offset.
ModelFile read_model_file(const std::string& path);

/// A model described by config.json's fields in JSON text (a scenario's [model] section),
/// `where` naming it in errors; `keys_read` as read_hf_config_text. Throws ModelFileError
/// naming `where` and the field.
ModelFile model_from_config_text(const std::string& json_text, const std::string& where,
                                 std::set<std::string>* keys_read);

/// Completes a model described by its shape (a config.json, a [model] section) and gives the
/// quant of `format` for it: the recipe's bits over the shape's tensor groups. Throws
/// EngineError on an inconsistent shape.
ModelFile model_from_shape(const ModelShape& shape, const std::string& format);

/// Where a model argument led.
struct ResolvedModel {
  ModelArch model;
  /// The weight format of a model file (nullopt for a catalog model): the default quant.
  std::optional<Quant> native_quant;
  /// "catalog", or "GGUF FILE" / "config.json FILE" for a file.
  std::string source;
  std::vector<std::string> notes;
};

/// A model argument that names nothing: what() is the whole message ("unknown model 'x'; did
/// you mean 'y'? (gputco catalog list models, or the path of a config.json or GGUF file)"),
/// and its parts are kept for callers that word it their own way.
class UnknownModelError : public std::runtime_error {
 public:
  UnknownModelError(std::string argument, std::string hint, const std::string& message)
      : std::runtime_error(message), argument_(std::move(argument)), hint_(std::move(hint)) {}
  const std::string& argument() const { return argument_; }
  const std::string& hint() const { return hint_; }  ///< the nearest catalog id, or ""

 private:
  std::string argument_;
  std::string hint_;
};

/// The model an argument names, for every command (`plan`'s `model =`, `fit --model`,
/// `throughput --model`): a path (is_model_path; relative to `base_dir` when not absolute,
/// a scenario file's folder) is read with read_model_file; otherwise a catalog id, any case,
/// or a catalog model's Hugging Face repository id, also with the -Instruct, -it, -chat or
/// -chat-hf suffix of its tuned release (Catalog::model_by_repo). Nothing is fetched: a
/// Hugging Face repo id the catalog lacks is refused with the advice to save its config.json.
/// Throws UnknownModelError (nothing found; the nearest catalog id suggested), ModelFileError
/// (a file that cannot be read), CatalogError.
ResolvedModel resolve_model_argument(const std::string& argument, const Catalog& catalog,
                                     const std::string& base_dir = "");

}  // namespace gputco
