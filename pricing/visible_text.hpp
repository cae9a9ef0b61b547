// Text from files and catalogs on a terminal or in a message: control characters (an escape
// sequence, a carriage return, a NUL) and invisible ones (zero-width, bidirectional
// overrides) shown as escapes, never acted upon by the terminal or hidden from the reader.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace gputco {

/// Offset of the first control character of `text`: C0 (U+0000-U+001F, TAB included), DEL
/// (U+007F) or C1 (U+0080-U+009F, as UTF-8), other than those listed in `allowed` ("\n\t"
/// for a note); npos when none. For ids and names, which refuse them.
std::size_t first_control_character(std::string_view text, std::string_view allowed = {});

/// "U+001B" for the character at `at` of `text` (a control character found above).
std::string code_point_name(std::string_view text, std::size_t at);

/// `text` with every control character and every invisible format character shown as an
/// escape: \t, \r, \n, \\x1B-style for the other C0 controls and DEL, \\u009B-style for C1
/// controls, no-break and zero-width spaces (U+00A0, U+200B-U+200F), line and paragraph
/// separators (U+2028, U+2029), bidirectional embeddings, overrides and isolates (U+202A-U+202E,
/// U+2066-U+2069), word joiners (U+2060-U+2064) and the byte order mark (U+FEFF). With
/// `keep_newlines`, a line feed (and the carriage return of a CR LF pair) is kept as it is: a
/// report of several lines stays one. Everything else, backslashes included, is unchanged.
/// Bytes that are not UTF-8 are shown as \\xHH. Throws nothing but std::bad_alloc.
std::string visible_text(std::string_view text, bool keep_newlines = false);

}  // namespace gputco
