// gputco catalog show|import|export|check (catalog list: cli/catalog_list_command.cpp):
// the catalog and the user's price books.
#include <fmt/format.h>

#include <boost/program_options.hpp>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "cli/catalog_actions.hpp"
#include "cli/catalog_open.hpp"
#include "cli/commands.hpp"
#include "pricing/suggest.hpp"
#include "scenarios/dates.hpp"

namespace po = boost::program_options;

namespace gputco::cli {

namespace {

using ordered = nlohmann::ordered_json;

constexpr const char* kCatalogUsage =
    "usage: gputco catalog ACTION [options]   (gputco catalog ACTION --help)\n"
    "\n"
    "actions:\n"
    "  list gpus|devices|models|quants|systems|prices|rentals|tariffs|apis|carbon\n"
    "                 the catalog as of a date, with each price's age and a stale flag;\n"
    "                 filters (--vendor, --min-memory, --max-price, --provider, --region,\n"
    "                 --term) and --format text|json|csv|ids\n"
    "  show ID        price history of a device: every purchase price and rental offer, dated,\n"
    "                 with its source and book\n"
    "  import FILE    import a price file into a price book of the user catalog\n"
    "  export [prices|rentals]\n"
    "                 write a price book as CSV (importable again)\n"
    "  check          integrity report of the built-in and user catalogs (exit 1 on problems)\n"
    "\n"
    "The user catalog (price books) is $XDG_DATA_HOME/gputco/catalog.sqlite, else\n"
    "~/.local/share/gputco/catalog.sqlite, or --catalog DB; it is layered over the built-in\n"
    "catalog: a book's price wins over the built-in one for the same item and date.\n";

}  // namespace

void require_date_option(const std::string& option, const std::string& date) {
  if (!parse_date(date)) {
    throw UsageError("catalog: " + option + " expects YYYY-MM-DD, got '" + date + "'");
  }
}

int catalog_show(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  po::options_description visible(
      "usage: gputco catalog show DEVICE_ID [options]\n\n"
      "Price history of a device: every purchase price and rental offer ever observed, from\n"
      "the built-in catalog and every price book, in date order, with source and book.\n\n"
      "options");
  std::string id, catalog_path;
  bool json = false;
  visible.add_options()("help,h", "this text")("json", po::bool_switch(&json), "print JSON")(
      "catalog", po::value(&catalog_path)->value_name("DB"), kCatalogOptionHelp);
  auto vm = parse_arguments(args, visible, {{"id", &id}});
  if (vm.count("help")) {
    out << visible << "\n";
    return 0;
  }
  if (id.empty()) {
    err << visible << "\n";
    return 2;
  }
  const Catalog catalog = open_catalog(catalog_path);
  const auto device = catalog.device(id);
  if (!device) {
    std::vector<std::string> ids;
    for (const auto& d : catalog.devices()) ids.push_back(d.id);
    throw UsageError("catalog show: unknown device '" + id + "'" + did_you_mean(id, ids) +
                     " (gputco catalog list gpus)");
  }
  const auto prices = catalog.price_history(id);
  const auto rentals = catalog.rental_history(id);
  if (json) {
    ordered doc = {
        {"gputco", stamp_json(json_stamp(catalog))}, {"id", device->id}, {"name", device->name}};
    doc["purchase_prices"] = ordered::array();
    for (const auto& p : prices) {
      doc["purchase_prices"].push_back({{"observed_on", p.provenance.observed_on},
                                        {"condition", p.condition},
                                        {"amount", p.amount},
                                        {"currency", p.currency},
                                        {"region", p.region},
                                        {"seller", p.seller},
                                        {"book", p.provenance.book},
                                        {"source", p.provenance.source}});
    }
    doc["rental_offers"] = ordered::array();
    for (const auto& r : rentals) {
      doc["rental_offers"].push_back({{"observed_on", r.provenance.observed_on},
                                      {"provider", r.provider},
                                      {"sku", r.sku},
                                      {"devices_per_instance", r.devices_per_instance},
                                      {"billing", r.billing},
                                      {"term", r.term},
                                      {"amount", r.amount},
                                      {"amount_per_device", r.amount_per_device()},
                                      {"currency", r.currency},
                                      {"region", r.region},
                                      {"book", r.provenance.book},
                                      {"source", r.provenance.source}});
    }
    out << doc.dump(2) << "\n";
    return 0;
  }
  out << device->id << ": " << device->name << "\n\npurchase prices (" << prices.size() << ")\n";
  out << fmt::format("  {:<11} {:<11} {:>10} {:<4} {:<8} {:<24} {:<10} {}\n", "observed",
                     "condition", "amount", "cur", "region", "seller", "book", "source");
  for (const auto& p : prices) {
    out << fmt::format("  {:<11} {:<11} {:>10.2f} {:<4} {:<8} {:<24} {:<10} {}\n",
                       p.provenance.observed_on, p.condition, p.amount, p.currency, p.region,
                       p.seller, p.provenance.book, p.provenance.source);
  }
  out << "\nrental offers (" << rentals.size() << ")\n";
  out << fmt::format("  {:<11} {:<12} {:<30} {:<8} {:<12} {:>10} {:<4} {:<10} {}\n", "observed",
                     "provider", "sku", "billing", "term", "per device", "cur", "book", "source");
  for (const auto& r : rentals) {
    out << fmt::format("  {:<11} {:<12} {:<30} {:<8} {:<12} {:>10.3f} {:<4} {:<10} {}\n",
                       r.provenance.observed_on, r.provider, r.sku, r.billing, r.term,
                       r.amount_per_device(), r.currency, r.provenance.book, r.provenance.source);
  }
  return 0;
}

int catalog_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty()) {
    err << kCatalogUsage;
    return 2;
  }
  const std::string& action = args.front();
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (action == "--help" || action == "-h" || action == "help") {
    out << kCatalogUsage;
    return 0;
  }
  if (action == "list") return catalog_list(rest, out, err);
  if (action == "show") return catalog_show(rest, out, err);
  if (action == "import") return catalog_import(rest, out, err);
  if (action == "export") return catalog_export(rest, out, err);
  if (action == "check") return catalog_check(rest, out, err);
  throw UsageError("catalog: unknown action '" + action + "'" +
                   did_you_mean(action, {"list", "show", "import", "export", "check"}) +
                   " (expected list, show, import, export or check)");
}

}  // namespace gputco::cli
