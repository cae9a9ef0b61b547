// The quote's keys of a scenario: who offers it ([seller]), the option proposed, display names
// of the options, and the paper it prints on.
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "scenarios/resolved.hpp"
#include "scenarios/scenario.hpp"

namespace gputco {

/// Fills the quote's fields of `resolved` from `scenario`:
/// - seller: company, contact and terms as given; the logo ([seller] logo, a path relative to
///   the scenario file's folder) checked to be a PNG or JPEG file of at most 10 MiB, its
///   width and height read from the file's header (PNG IHDR, JPEG SOFn);
/// - proposed_option_id ([scenario] proposed): an option id of the scenario;
/// - option_labels ([option:ID] label): each display name used once, and never another
///   option's id;
/// - paper: the scenario's `paper` when given, else Letter for USD and A4 otherwise (ISO 216
///   outside North America), with paper_reason saying which.
/// Throws ScenarioError naming the file, line and key: a logo that cannot be read or is not
/// a PNG or JPEG image, a proposed option the scenario does not have, a label given twice.
void resolve_quote(const Scenario& scenario, ResolvedScenario& resolved);

/// Width and height in pixels of a PNG or JPEG image held in `bytes`; nullopt when the bytes
/// are neither (or the header is cut short).
std::optional<std::pair<int, int>> image_size(const std::string& bytes);

}  // namespace gputco
