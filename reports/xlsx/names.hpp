// Workbook defined names ("tariff_per_kwh", "opt_rtx_3090_price_per_gpu"): the names the
// Cash flow formulas use to reach the Inputs sheet.
#pragma once

#include <set>
#include <string>
#include <string_view>

namespace gputco {

/// True if `name` is a defined name that both Excel and LibreOffice accept: 1 to 255
/// characters; a letter or underscore first, then ASCII letters, digits, underscores or
/// periods; not readable as a cell reference ("A1", "xfd1048576", "R1C1", "R", "C") nor as
/// a boolean ("TRUE", "FALSE").
bool is_valid_defined_name(std::string_view name);

/// A valid defined name made from arbitrary text (an option id, an input key): every byte
/// that cannot appear in a name becomes '_', a leading digit or period gets a '_' in front,
/// and a result that still reads as a cell reference or boolean gets one too. Empty text
/// gives "_". The result always satisfies is_valid_defined_name (long text is cut to 255).
std::string to_defined_name(std::string_view text);

/// The names of one workbook, unique ignoring case (Excel compares names that way).
class DefinedNames {
 public:
  /// Claims a name as close to `wanted` as possible: to_defined_name(wanted), with "_2",
  /// "_3"... appended if that is taken. Returns the name claimed.
  std::string claim(std::string_view wanted);
  /// True if `name` (compared ignoring case) has been claimed.
  bool contains(std::string_view name) const;

 private:
  std::set<std::string> folded_;  // lower-case forms of the claimed names
};

}  // namespace gputco
