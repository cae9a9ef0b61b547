// JSON values the reports write: a figure that is not finite is null, never NaN or infinity.
#pragma once

#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>

namespace gputco::json_values {

using ordered = nlohmann::ordered_json;

/// A number, or null when it is not finite.
inline ordered number(double x) {
  return std::isfinite(x) ? ordered(x) : ordered(nullptr);
}

/// An optional number: null when absent or not finite.
template <typename T>
ordered optional_number(const std::optional<T>& x) {
  return x ? number(static_cast<double>(*x)) : ordered(nullptr);
}

}  // namespace gputco::json_values
