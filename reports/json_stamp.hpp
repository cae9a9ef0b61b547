// The stamp every JSON document of gputco starts with: which program wrote it, in which
// layout, from which catalog. A consumer checks it before reading anything else.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace gputco {

/// The layout of gputco's JSON documents: raised when a key is removed, renamed or changes
/// meaning (adding a key does not raise it). 1: every document is an object whose first key
/// is "gputco" (this stamp); catalog lists put their rows under "rows".
inline constexpr int kJsonSchemaVersion = 1;

/// The catalog a document's figures came from.
struct JsonStamp {
  int catalog_schema_version = 0;  ///< PRAGMA user_version of the catalog read
  std::string catalog_date;        ///< its newest observation, YYYY-MM-DD ("" when none)
};

/// {"program": "gputco", "version": "0.1.0", "json_schema": kJsonSchemaVersion,
///  "catalog_schema": 3, "catalog_date": "2026-07-01"}: the value of the "gputco" key that
/// opens every JSON document (plan, sweep, risk, fit, catalog list, show and check).
nlohmann::ordered_json stamp_json(const JsonStamp& stamp);

}  // namespace gputco
