#include "reports/json_stamp.hpp"

#include "gputco_version.hpp"

namespace gputco {

nlohmann::ordered_json stamp_json(const JsonStamp& stamp) {
  return {{"program", "gputco"},
          {"version", kGputcoVersion},
          {"json_schema", kJsonSchemaVersion},
          {"catalog_schema", stamp.catalog_schema_version},
          {"catalog_date", stamp.catalog_date}};
}

}  // namespace gputco
