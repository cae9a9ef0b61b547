// The error of a model or device file that cannot be read as what it claims to be.
#pragma once

#include <string>

#include "scenarios/scenario.hpp"

namespace gputco {

/// A model file (config.json, GGUF) that is missing, unreadable, truncated, malformed or
/// lacks a field the estimate needs. what() is "FILE: problem", the problem naming the field
/// ("num_hidden_layers: missing") or the byte offset ("byte 4,096: truncated: ..."). A
/// ScenarioError without a line, so that every command reports it as bad input (exit 2).
class ModelFileError : public ScenarioError {
 public:
  ModelFileError(const std::string& file, const std::string& problem)
      : ScenarioError(file, 0, "", problem), problem_(problem) {}
  /// The problem without the file name.
  const std::string& problem() const { return problem_; }

 private:
  std::string problem_;
};

}  // namespace gputco
