#include "scenarios/resolve.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>
#include <sstream>

#include "engine/units.hpp"
#include "scenarios/dates.hpp"
#include "scenarios/model_file_error.hpp"
#include "scenarios/model_files.hpp"

namespace gputco {

namespace {

/// The rest of a desktop system draws about 150 W at load (DOMAIN E5).
constexpr double kDefaultHostPowerW = 150.0;
/// New goods: the EU's legal guarantee is two years (Directive (EU) 2019/771, art. 10).
constexpr int kDefaultWarrantyNewMonths = 24;
/// Colocation: the industry's average PUE, Uptime Institute Global Data Center Survey 2023.
constexpr double kDefaultColocationPue = 1.58;
/// Colocation: power contracted in 0.5 kW steps (assumption; contracts vary).
constexpr double kDefaultKwStep = 0.5;
/// Colocation: a 4U GPU server chassis (assumption).
constexpr double kDefaultRackUnits = 4;
/// Spot: a tenth of the billed hours lost to interruptions and restarts (assumption).
constexpr double kDefaultSpotGoodput = 0.9;
/// A green-power contract's intensity when not stated: 0 g CO2e/kWh, market-based (GHG
/// Protocol Scope 2 Guidance: contractual instruments such as guarantees of origin carry
/// their generation's emission rate, 0 for wind and solar).
constexpr double kDefaultGreenPowerGCo2ePerKwh = 0;

/// A number with `digits` decimals; fmt formats without the locale.
std::string fixed(double value, int digits) {
  return fmt::format("{:.{}f}", value, digits);
}

bool is_owned_kind(const std::string& kind) {
  return kind == "buy" || kind == "colocation" || kind == "blend";
}

/// A resale curve is usable when it says something about an age after purchase: at least one
/// point past 0 months (the point at 0 is 1 by definition). A curve of only its 0-month point
/// would otherwise be read flat (1 for ever): it counts as no curve.
bool usable_curve(const std::vector<ResalePoint>& curve) {
  return std::any_of(curve.begin(), curve.end(),
                     [](const ResalePoint& p) { return p.age_months > 0; });
}

/// The resale fraction of a usable curve at `age_months`. The curve's points, with (0 months,
/// 1) added by definition when it has no point at 0: linear between two points; past the last
/// point, the last segment's slope continued (never flat: resale keeps falling at the rate of
/// the last segment), floored at 0; capped at 1. `used` lists the indexes into `curve` of the
/// catalog points the value rests on (not the implicit 0-month point).
double resale_at(const std::vector<ResalePoint>& curve, double age_months, std::string& how,
                 std::vector<size_t>& used) {
  const auto describe = [](const ResalePoint& p) {
    return std::to_string(p.age_months) + " months: " + fixed(p.fraction, 3);
  };
  std::vector<ResalePoint> points;
  std::vector<std::optional<size_t>> index;  // into `curve`, none for the implicit point
  if (curve.front().age_months > 0) {
    points.push_back({0, 1.0, {}});
    index.push_back(std::nullopt);
  }
  for (size_t i = 0; i < curve.size(); ++i) {
    points.push_back(curve[i]);
    index.push_back(i);
  }
  used.clear();
  for (size_t i = 1; i < points.size(); ++i) {
    if (age_months == points[i].age_months) {  // on a point: that point alone
      how = "point at " + describe(points[i]);
      if (index[i]) used.push_back(*index[i]);
      return std::clamp(points[i].fraction, 0.0, 1.0);
    }
    if (age_months < points[i].age_months || i + 1 == points.size()) {
      const ResalePoint& a = points[i - 1];
      const ResalePoint& b = points[i];
      const double t = (age_months - a.age_months) / (b.age_months - a.age_months);
      how = (age_months < b.age_months ? "interpolated between points at "
                                       : "extrapolated (last slope continued, floored at 0) "
                                         "from points at ") +
            describe(a) + " and " + describe(b);
      for (const auto& k : {index[i - 1], index[i]}) {
        if (k) used.push_back(*k);
      }
      return std::clamp(a.fraction + t * (b.fraction - a.fraction), 0.0, 1.0);
    }
  }
  return 1.0;  // unreachable for a usable curve (two points at least)
}

template <typename T, typename IdOf>
std::vector<std::string> ids_of(const std::vector<T>& items, IdOf id_of) {
  std::vector<std::string> ids;
  for (const auto& item : items) ids.push_back(id_of(item));
  return ids;
}

class Resolver {
 public:
  Resolver(const Scenario& s, const Catalog& catalog) : s_(s), catalog_(catalog) {}

  ResolvedScenario run() {
    r_.file = s_.file;
    r_.name = s_.name;
    r_.customer = s_.customer;
    r_.quote_id = s_.quote_id;
    r_.paper = s_.paper;
    r_.valid_days = s_.valid_days;
    r_.start = s_.start;
    r_.as_of = s_.as_of;
    r_.max_price_age_days = s_.max_price_age_days;
    resolve_scenario();
    resolve_workload();
    resolve_site();
    for (const auto& o : s_.options) resolve_option(o);
    resolve_baseline();
    resolve_overflow_links();
    require_api_volume();
    // Capacities and overflow rates, so that callers of option_cash_flow get complete inputs.
    prepare_plan_inputs(r_.plan_inputs);
    return std::move(r_);
  }

 private:
  /// A key the file does not give (a price the catalog lacks) has no line: name its
  /// section's, so the message still points into the file.
  [[noreturn]] void fail(const std::string& section, const std::string& key,
                         const std::string& problem) const {
    int line = s_.line_of(section, key);
    if (line == 0) line = s_.line_of(section, "");
    throw ScenarioError(s_.file, line, "[" + section + "] " + key, problem);
  }

  [[noreturn]] void unknown(const std::string& section, const std::string& key,
                            const std::string& what, const std::string& id,
                            const std::vector<std::string>& known, const std::string& list) const {
    const std::string hint = nearest(id, known);
    fail(section, key,
         "unknown " + what + " '" + id + "'" +
             (hint.empty() ? "" : "; did you mean '" + hint + "'?") + " (" + list + ")");
  }

  /// The file section of an Inputs-sheet section: option rows are listed under the option id.
  static std::string file_section(const std::string& section) {
    if (section == "scenario" || section == "workload" || section == "site") return section;
    return "option:" + section;
  }

  void number(const std::string& section, const std::string& key, const std::string& label,
              double value, const std::string& unit, std::string provenance = "") {
    if (provenance.empty()) provenance = s_.provenance(file_section(section), key);
    r_.inputs.push_back({section, key, label, value, "", unit, provenance});
  }

  void text(const std::string& section, const std::string& key, const std::string& label,
            const std::string& value, std::string provenance = "") {
    if (provenance.empty()) provenance = s_.provenance(file_section(section), key);
    r_.inputs.push_back({section, key, label, std::nullopt, value, "", provenance});
  }

  /// Adds a catalog price to the Sources sheet and returns its provenance text.
  std::string source(const std::string& what, double amount, const std::string& currency,
                     const std::string& unit, const Provenance& p) {
    const int age = days_between(p.observed_on, s_.as_of);
    const bool stale = age > s_.max_price_age_days;
    r_.sources.push_back({what, amount, currency, unit, p.observed_on, p.source, age, stale});
    const bool from_book = !p.book.empty() && p.book != kBuiltinBook;
    return "catalog: " + p.source + ", observed " + p.observed_on +
           (from_book ? ", price book '" + p.book + "'" : "") + (stale ? " (stale)" : "");
  }

  /// Converts a catalog amount into the plan currency; appends the conversion to `provenance`.
  double convert(double amount, const std::string& from, std::string& provenance,
                 const std::string& section, const std::string& key) {
    const std::string& to = s_.currency;
    if (from == to) return amount;
    const auto fx = catalog_.fx_rate(from, to, s_.as_of);
    if (!fx) {
      fail(section, key,
           "the catalog has no " + from + "/" + to + " exchange rate as of " + s_.as_of +
               "; give this value in " + to);
    }
    const std::string what = "FX " + from + "/" + to;
    bool listed = false;
    for (const auto& row : r_.sources) listed = listed || row.what == what;
    if (!listed) source(what, fx->rate, to, "per " + from, fx->provenance);
    provenance += "; converted from " + fixed(amount, 4) + " " + from + " at " +
                  fixed(fx->rate, 4) + " " + to + "/" + from;
    return amount * fx->rate;
  }

  void resolve_scenario() {
    auto& f = r_.plan_inputs.finance;
    f.horizon_months = s_.horizon_months;
    f.discount_rate_per_year = s_.discount_rate;
    f.currency = s_.currency;
    text("scenario", "name", "Scenario", s_.name);
    text("scenario", "currency", "Currency", s_.currency);
    text("scenario", "as_of", "Prices as of", s_.as_of);
    text("scenario", "start", "First month", s_.start);
    number("scenario", "horizon_months", "Horizon", s_.horizon_months, "months");
    number("scenario", "discount_rate", "Discount rate", s_.discount_rate, "per year");
    number("scenario", "max_price_age_days", "Stale after", s_.max_price_age_days, "days");
    const auto start = parse_month(s_.start);
    f.start_year = static_cast<int>(start->year());
    f.start_month = static_cast<int>(static_cast<unsigned>(start->month()));
    f.rent_trend_per_year = s_.rent_trend_per_year;
    number("scenario", "rent_trend_per_year", "Hourly rental rates change per year",
           f.rent_trend_per_year, "fraction per year",
           given("scenario", "rent_trend_per_year") ? "" : "default: 0 (rates stay as quoted)");
    f.api_price_trend_per_year = s_.api_price_trend_per_year;
    bool any_api = false;
    for (const auto& o : s_.options) any_api = any_api || o.kind == "api";
    if (any_api || given("scenario", "api_price_trend_per_year")) {
      number("scenario", "api_price_trend_per_year", "Per-token API prices change per year",
             f.api_price_trend_per_year, "fraction per year",
             given("scenario", "api_price_trend_per_year")
                 ? ""
                 : "default: 0 (API prices stay as quoted)");
    }
    f.vat_rate = s_.vat_rate;
    f.vat_reclaimable = s_.vat_reclaimable;
    number("scenario", "vat_rate", "VAT rate", f.vat_rate, "fraction",
           given("scenario", "vat_rate") ? "" : "default: 0 (amounts without VAT)");
    number("scenario", "vat_reclaimable", "VAT reclaimable (1 = yes)",
           f.vat_reclaimable ? 1.0 : 0.0, "flag",
           given("scenario", "vat_reclaimable")
               ? ""
               : "default: true (a business reclaims input VAT: costs exclude it)");
    f.useful_life_months = s_.useful_life_months;
    number("scenario", "useful_life_months", "Useful life (straight-line depreciation)",
           f.useful_life_months, "months",
           given("scenario", "useful_life_months")
               ? ""
               : "default: 36 months: the two-to-three-year horizon a finance team plans "
                 "hardware for (DOMAIN 'Who uses it', E6), the common straight-line life of "
                 "servers");
  }

  bool given(const std::string& section, const std::string& key) const {
    return s_.given.count(section + "." + key) > 0;
  }

  /// [workload] model: a catalog id, a Hugging Face repo id or a model file beside the
  /// scenario (resolve_model_argument); its problems are the key's.
  ResolvedModel resolve_model() const {
    const std::string base_dir = std::filesystem::path(s_.file).parent_path().string();
    try {
      return resolve_model_argument(s_.model, catalog_, base_dir);
    } catch (const UnknownModelError& e) {
      fail("workload", "model", e.what());
    } catch (const ModelFileError& e) {
      fail("workload", "model", e.what());
    }
  }

  /// [workload] quant: the model file's own format when not given or named alike, else a
  /// catalog quant.
  Quant resolve_quant(const ResolvedModel& model) const {
    if (model.native_quant && (s_.quant.empty() || same_id(s_.quant, model.native_quant->id))) {
      return *model.native_quant;
    }
    if (s_.quant.empty()) {
      fail("workload", "quant", "missing: set quant, e.g. Q4_K_M (gputco catalog list quants)");
    }
    const auto quant = catalog_.quant(s_.quant);
    if (!quant) {
      unknown("workload", "quant", "quant", s_.quant,
              ids_of(catalog_.quants(), [](const Quant& q) { return q.id; }),
              "gputco catalog list quants");
    }
    return *quant;
  }

  void resolve_workload() {
    auto& p = r_.plan_inputs;
    const ResolvedModel resolved_model = resolve_model();
    const ModelArch* model = &resolved_model.model;
    const Quant quant_value = resolve_quant(resolved_model);
    const Quant* quant = &quant_value;
    for (const std::string& note : resolved_model.notes) {
      r_.warnings.push_back(resolved_model.source + ": " + note);
    }
    p.model = *model;
    p.quant = *quant;
    // The default context is capped at the model's own; a context given is checked.
    const int context_tokens = given("workload", "context_tokens")
                                   ? s_.context_tokens
                                   : default_context_tokens(*model, s_.context_tokens);
    if (const std::string why = context_beyond_model_reason(*model, context_tokens); !why.empty()) {
      fail("workload", "context_tokens",
           "context_tokens = " + why + "; lower it or choose a model with a longer context");
    }
    if (const std::string warning = context_scaling_warning(*model, context_tokens);
        !warning.empty()) {
      r_.warnings.push_back(warning);
    }
    if (s_.prompt_tokens_per_request && s_.output_tokens_per_request &&
        *s_.prompt_tokens_per_request + *s_.output_tokens_per_request > context_tokens) {
      fail("workload", "prompt_tokens_per_request",
           fmt::format("a request of {} prompt + {} output tokens does not fit in "
                       "context_tokens = {} (each stream holds one request's tokens)",
                       *s_.prompt_tokens_per_request, *s_.output_tokens_per_request,
                       context_tokens));
    }
    p.workload.context_tokens = context_tokens;
    p.workload.concurrent_streams = s_.concurrent_streams;
    p.workload.hours_per_day = s_.hours_per_day;
    p.workload.days_per_month = s_.days_per_month;
    p.workload.hours_per_month_convention =
        s_.hours_per_month_convention == "720"        ? HoursConvention::h720
        : s_.hours_per_month_convention == "calendar" ? HoursConvention::calendar
                                                      : HoursConvention::h730;
    const bool days_given = given("workload", "days_per_month");
    if (!days_given) {
      p.workload.days_per_month =
          average_hours_per_month(p.workload.hours_per_month_convention) / 24.0;
      p.workload.days_follow_convention =
          p.workload.hours_per_month_convention == HoursConvention::calendar;
    }
    p.workload.growth_per_month = s_.growth_per_month;
    p.workload.tokens_per_day = s_.tokens_per_day;
    p.workload.users = s_.users;
    p.workload.kv_cache =
        KvCacheTypes{*parse_kv_cache_type(s_.cache_type_k), *parse_kv_cache_type(s_.cache_type_v)};
    const std::string from_file =
        resolved_model.native_quant ? "; " + resolved_model.source : std::string();
    text("workload", "model", "Model", model->id, s_.provenance("workload", "model") + from_file);
    text("workload", "quant", "Weight format", quant->id,
         s_.quant.empty() ? "the model file's own format" + from_file : "");
    number("workload", "context_tokens", "Context per stream", context_tokens, "tokens");
    number("workload", "concurrent_streams", "Concurrent streams", s_.concurrent_streams,
           "streams");
    number("workload", "hours_per_day", "Hours of use per day", s_.hours_per_day, "h/day");
    text("scenario", "hours_per_month_convention", "Hours per month convention",
         s_.hours_per_month_convention,
         given("scenario", "hours_per_month_convention")
             ? ""
             : "default: 730 h (365 x 24 / 12, the cloud providers' month)");
    number("workload", "days_per_month", "Days of use per month", p.workload.days_per_month,
           "days/month",
           days_given ? ""
           : p.workload.days_follow_convention
               ? "default: the days of each calendar month (average shown: 365.25 / 12)"
           : p.workload.hours_per_month_convention == HoursConvention::h720
               ? "default: 720 h per month at 24 h/day (30 days)"
               : "default: 730 h per month at 24 h/day (365 x 24 / 12)");
    number("workload", "growth_per_month", "Demand growth per month", s_.growth_per_month,
           "fraction per month", given("workload", "growth_per_month") ? "" : "default: 0");
    resolve_token_mix();
    if (s_.users) number("workload", "users", "Users", *s_.users, "users");
    text("workload", "kv_cache", "KV cache type (K/V)", to_string(p.workload.kv_cache),
         given("workload", "cache_type_k") || given("workload", "cache_type_v")
             ? "scenario file (cache_type_k, cache_type_v)"
             : "");
  }

  /// The demand in tokens: tokens_per_day (output), or requests_per_day x output tokens per
  /// request; the mix (prompt tokens per output token) from the tokens per request or given.
  void resolve_token_mix() {
    auto& w = r_.plan_inputs.workload;
    if (s_.requests_per_day) {
      w.requests_per_day = *s_.requests_per_day;
      w.tokens_per_day = *s_.requests_per_day * *s_.output_tokens_per_request;
      number("workload", "requests_per_day", "Requests per day in month 1", *s_.requests_per_day,
             "requests/day");
    }
    if (s_.prompt_tokens_per_request && s_.output_tokens_per_request) {
      number("workload", "prompt_tokens_per_request", "Prompt (input) tokens per request",
             *s_.prompt_tokens_per_request, "tokens");
      number("workload", "output_tokens_per_request", "Generated (output) tokens per request",
             *s_.output_tokens_per_request, "tokens");
      w.input_tokens_per_output_token =
          *s_.prompt_tokens_per_request / *s_.output_tokens_per_request;
      number("workload", "input_tokens_per_output_token", "Input tokens per output token",
             *w.input_tokens_per_output_token, "ratio",
             "derived: prompt_tokens_per_request / output_tokens_per_request");
    } else if (s_.input_tokens_per_output_token) {
      w.input_tokens_per_output_token = *s_.input_tokens_per_output_token;
      number("workload", "input_tokens_per_output_token", "Input tokens per output token",
             *w.input_tokens_per_output_token, "ratio");
    }
    if (w.tokens_per_day) {
      number("workload", "tokens_per_day", "Tokens per day in month 1 (generated, output)",
             *w.tokens_per_day, "tokens/day",
             s_.requests_per_day ? "derived: requests_per_day x output_tokens_per_request" : "");
    }
  }

  /// An api option is billed per token: the workload must state the volume and the mix.
  /// Errors name the [workload] section's line (the key is missing: it has none).
  void require_api_volume() {
    const auto fail = [&](const std::string&, const std::string& key, const std::string& problem) {
      const int line = s_.line_of("workload", key);
      throw ScenarioError(s_.file, line > 0 ? line : s_.line_of("workload", ""),
                          "[workload] " + key, problem);
    };
    for (const auto& o : s_.options) {
      if (o.kind != "api") continue;
      const auto& w = r_.plan_inputs.workload;
      if (!w.tokens_per_day) {
        fail("workload", "tokens_per_day",
             "missing: option '" + o.id +
                 "' is a pay-per-token API: state the volume, requests_per_day with "
                 "prompt_tokens_per_request and output_tokens_per_request, or tokens_per_day "
                 "with input_tokens_per_output_token");
      }
      if (!w.input_tokens_per_output_token) {
        fail("workload", "input_tokens_per_output_token",
             "missing: option '" + o.id +
                 "' is a pay-per-token API and input tokens are billed: set "
                 "input_tokens_per_output_token (or prompt_tokens_per_request and "
                 "output_tokens_per_request)");
      }
      return;
    }
  }

  /// Adds a grid intensity to the Sources sheet and returns its provenance text.
  std::string carbon_source(const GridCarbon& g) {
    const std::string what = "grid carbon " + g.id + " (" + std::to_string(g.data_year) + ")";
    for (const auto& row : r_.sources) {
      if (row.what == what) {
        return "catalog: " + g.provenance.source + ", observed " + g.provenance.observed_on;
      }
    }
    return source(what, g.g_co2e_per_kwh, "", "g CO2e per kWh, " + g.basis, g.provenance);
  }

  /// The site's carbon intensity: a green-power contract's, the one given, the catalog's for
  /// grid_region, else the catalog's for the tariff's region; unknown otherwise.
  void resolve_site_carbon(const std::string& tariff_region) {
    auto& site = r_.plan_inputs.site;
    if (s_.green_power) {
      site.grid_g_co2e_per_kwh =
          s_.green_power_g_co2e_per_kwh.value_or(kDefaultGreenPowerGCo2ePerKwh);
      number("site", "green_power_g_co2e_per_kwh", "Green-power contract intensity",
             *site.grid_g_co2e_per_kwh, "g CO2e/kWh",
             s_.green_power_g_co2e_per_kwh
                 ? ""
                 : "default: 0 g CO2e/kWh, market-based (GHG Protocol Scope 2: a green-power "
                   "contract carries its generation's rate); green_power = true " +
                       s_.provenance("site", "green_power"));
      return;
    }
    if (s_.grid_g_co2e_per_kwh) {
      site.grid_g_co2e_per_kwh = *s_.grid_g_co2e_per_kwh;
      number("site", "grid_g_co2e_per_kwh", "Grid carbon intensity", *site.grid_g_co2e_per_kwh,
             "g CO2e/kWh");
      return;
    }
    const std::string region = !s_.grid_region.empty() ? s_.grid_region : tariff_region;
    if (region.empty()) return;
    const auto g = catalog_.grid_carbon(region, s_.as_of);
    if (!g) {
      if (s_.grid_region.empty()) return;  // the tariff's region has none: unknown
      unknown("site", "grid_region", "grid region (as of " + s_.as_of + ")", region,
              ids_of(catalog_.grid_carbons(s_.as_of), [](const GridCarbon& x) { return x.id; }),
              "gputco catalog list carbon");
    }
    site.grid_g_co2e_per_kwh = g->g_co2e_per_kwh;
    std::string provenance = carbon_source(*g);
    if (s_.grid_region.empty())
      provenance = "default: the tariff's region '" + region + "'; " + provenance;
    number("site", "grid_g_co2e_per_kwh", "Grid carbon intensity (" + g->name + ")",
           g->g_co2e_per_kwh, "g CO2e/kWh", provenance);
  }

  void resolve_site() {
    auto& site = r_.plan_inputs.site;
    site.pue = s_.pue;
    site.tariff_trend_per_year = s_.tariff_trend_per_year;
    number("site", "tariff_trend_per_year", "Electricity price change per year",
           site.tariff_trend_per_year, "fraction per year",
           given("site", "tariff_trend_per_year") ? "" : "default: 0 (the tariff stays)");
    if (s_.tariff_per_kwh) {
      site.tariff_per_kwh = *s_.tariff_per_kwh;
      number("site", "tariff_per_kwh", "Electricity tariff", site.tariff_per_kwh,
             s_.currency + "/kWh");
    } else if (!s_.tariff.empty()) {
      const auto t = catalog_.tariff(s_.tariff, s_.as_of);
      if (!t) {
        unknown("site", "tariff", "tariff (as of " + s_.as_of + ")", s_.tariff,
                ids_of(catalog_.tariffs(s_.as_of), [](const Tariff& x) { return x.id; }),
                "gputco catalog list tariffs");
      }
      std::string provenance =
          source("tariff " + t->id, t->amount_per_kwh, t->currency, "per kWh", t->provenance);
      site.tariff_per_kwh = convert(t->amount_per_kwh, t->currency, provenance, "site", "tariff");
      number("site", "tariff_per_kwh", "Electricity tariff (" + t->id + ")", site.tariff_per_kwh,
             s_.currency + "/kWh", provenance);
      tariff_region_ = t->region;
    } else {
      bool owned = false;
      for (const auto& o : s_.options) owned = owned || is_owned_kind(o.kind);
      if (owned) {
        fail("site", "tariff_per_kwh",
             "missing: owned hardware needs an electricity price; set tariff_per_kwh or tariff "
             "(a catalog id: gputco catalog list tariffs)");
      }
      site.tariff_per_kwh = 0;
    }
    number("site", "pue", "PUE", site.pue, "ratio",
           s_.given.count("site.pue") ? "" : "default: 1.0 (no cooling overhead counted)");
    resolve_site_carbon(tariff_region_);
  }

  Device device_of(const ScenarioOption& o, const std::string& section) {
    const auto device = catalog_.device(o.gpu);
    if (!device) {
      unknown(section, "gpu", "device", o.gpu,
              ids_of(catalog_.devices(), [](const Device& d) { return d.id; }),
              "gputco catalog list gpus");
    }
    return *device;
  }

  void resolve_option(const ScenarioOption& o) {
    const std::string section = "option:" + o.id;
    OptionInputs oi;
    oi.id = o.id;
    if (o.kind == "api") {
      oi.kind = OptionKind::api;
      text(o.id, "kind", "Kind", o.kind);
      resolve_api(o, oi, section);
      resolve_cost_lines(o, oi);
      r_.plan_inputs.options.push_back(std::move(oi));
      return;
    }
    oi.device = device_of(o, section);
    oi.kind = is_owned_kind(o.kind)                              ? OptionKind::buy
              : o.kind == "rent_hourly" || o.kind == "rent_spot" ? OptionKind::rent_hourly
                                                                 : OptionKind::rent_monthly;
    offer_region_.clear();
    oi.condition = o.condition == "used" ? Condition::used : Condition::new_unit;
    oi.split = o.split.empty() ? SplitMode::layer : *parse_split_mode(o.split);
    oi.backend = o.backend.empty() ? default_backend(oi.device) : *parse_backend(o.backend);
    if (const std::string why = backend_unsupported_reason(oi.backend, oi.device); !why.empty()) {
      fail(section, "backend", why);
    }
    text(o.id, "kind", "Kind", o.kind);
    text(o.id, "gpu", "Device", oi.device.id + " (" + oi.device.name + ")");

    const auto& p = r_.plan_inputs;
    FitRequest request{p.model, p.quant, p.workload.context_tokens, p.workload.concurrent_streams,
                       p.workload.kv_cache};
    const int needed = devices_needed(request, oi.device, 64, p.memory_policy);

    switch (oi.kind) {
      case OptionKind::buy:
        resolve_count(o, oi, needed);
        resolve_buy(o, oi, section);
        break;
      case OptionKind::rent_hourly:
        resolve_count(o, oi, needed);
        resolve_hourly(o, oi, section);
        break;
      case OptionKind::rent_monthly:
        resolve_monthly(o, oi, section, needed);
        break;
      case OptionKind::api:
        break;
    }
    resolve_option_energy(o, oi, section);
    resolve_cost_lines(o, oi);
    r_.plan_inputs.options.push_back(std::move(oi));
  }

  /// The cost lines (engine/cost_lines.hpp) that apply to the option's kind, each entered one
  /// as an input, each other one as "not entered" (counted as 0; an empty input cell).
  void resolve_cost_lines(const ScenarioOption& o, OptionInputs& oi) {
    const bool devices = oi.kind != OptionKind::api;
    const bool owned = oi.kind == OptionKind::buy;
    const bool colocated = owned && oi.hosting == Hosting::colocation;
    const std::string money = s_.currency;
    const auto line = [&](const char* key, const std::optional<double>& value,
                          std::optional<double>& out, const std::string& label,
                          const std::string& unit) {
      out = value;
      if (value) {
        number(o.id, key, label, *value, unit);
        return;
      }
      r_.inputs.push_back({o.id, key, label, std::nullopt, "", unit,
                           "not entered: counted as 0 (enter a value to include it)", true});
    };
    CostLines& l = oi.cost_lines;
    line("staff_hours_per_month", o.staff_hours_per_month, l.staff_hours_per_month,
         "Staff and operations: hours a month", "h/month");
    line("staff_rate_per_hour", o.staff_rate_per_hour, l.staff_rate_per_hour,
         "Staff and operations: rate per hour", money + "/h");
    line("staff_fte", o.staff_fte, l.staff_fte,
         "Staff and operations: share of full-time employees", "FTE");
    line("staff_salary_per_year", o.staff_salary_per_year, l.staff_salary_per_year,
         "Staff and operations: cost per full-time employee a year (fully loaded)",
         money + "/FTE/year");
    line("licence_per_month", o.licence_per_month, l.licence_per_month,
         "Software licences per month", money + "/month");
    line("licence_per_year", o.licence_per_year, l.licence_per_year, "Software licences per year",
         money + "/year");
    if (devices) {
      line("licence_per_gpu_per_year", o.licence_per_gpu_per_year, l.licence_per_gpu_per_year,
           "Software licences per device a year", money + "/device/year");
    }
    line("support_per_month", o.support_per_month, l.support_per_month,
         "Support contracts per month", money + "/month");
    line("support_per_year", o.support_per_year, l.support_per_year, "Support contracts per year",
         money + "/year");
    if (devices) {
      line("support_per_gpu_per_year", o.support_per_gpu_per_year, l.support_per_gpu_per_year,
           "Support contracts per device a year", money + "/device/year");
    }
    if (owned) {
      line("insurance_per_year", o.insurance_per_year, l.insurance_per_year,
           "Insurance per year (of the hardware's purchase value)", "fraction per year");
    }
    if (colocated) {
      line("colo_extras_per_month", o.colo_extras_per_month, l.colo_extras_per_month,
           "Colocation extras per unit a month (remote hands, cross-connects, bandwidth)",
           money + "/unit/month");
    }
  }

  /// Idle power, PUE of rented capacity, and the carbon intensity where the option runs.
  void resolve_option_energy(const ScenarioOption& o, OptionInputs& oi,
                             const std::string& section) {
    const double devices_idle_w =
        kDefaultIdleFractionOfBoardPower * oi.count * oi.device.board_power_w;
    if (oi.kind == OptionKind::buy) {
      oi.powered_off_when_idle = o.powered_off_when_idle.value_or(true);
      number(o.id, "powered_off_when_idle", "Switched off when not serving (1 = yes)",
             oi.powered_off_when_idle ? 1.0 : 0.0, "flag",
             o.powered_off_when_idle
                 ? ""
                 : "default: true (only the hours at load draw power; set false for a machine "
                   "that stays on)");
      oi.idle_power_w = o.idle_power_w.value_or(devices_idle_w +
                                                kDefaultIdleFractionOfHostPower * oi.host_power_w);
      number(o.id, "idle_power_w", "Idle power of the unit (devices + host)", oi.idle_power_w, "W",
             o.idle_power_w ? ""
                            : "default: 10 % of board power per device (an RTX 3090 idles at "
                              "15-30 W of 350 W) + 50 % of host power (assumption)");
    } else {
      oi.idle_power_w = devices_idle_w;
      const bool all_month = oi.kind == OptionKind::rent_monthly || term_months(oi.term) > 0;
      if (all_month) {
        number(o.id, "idle_power_w", "Idle power of the rented devices (energy estimate)",
               oi.idle_power_w, "W", "default: 10 % of board power per device (assumption)");
      }
      if (o.pue) {
        oi.pue = *o.pue;
        number(o.id, "pue", "Data centre PUE (energy estimate)", *oi.pue, "ratio");
      } else {
        oi.pue = kDefaultDataCentrePue;
        number(o.id, "pue", "Data centre PUE (energy estimate)", *oi.pue, "ratio",
               "default: 1.58, the average PUE of the Uptime Institute Global Data Center "
               "Survey 2023");
      }
    }
    // Carbon: the option's own intensity or region, else (rentals) the offer's region.
    if (o.grid_g_co2e_per_kwh) {
      oi.grid_g_co2e_per_kwh = *o.grid_g_co2e_per_kwh;
      number(o.id, "grid_g_co2e_per_kwh", "Grid carbon intensity where it runs",
             *oi.grid_g_co2e_per_kwh, "g CO2e/kWh");
      return;
    }
    const bool own_region = !o.grid_region.empty();
    const std::string region = own_region ? o.grid_region : offer_region_;
    if (region.empty()) {
      if (oi.kind != OptionKind::buy) {
        oi.carbon_unknown_reason =
            "unknown: the rate was given without a provider region (set grid_region or "
            "grid_g_co2e_per_kwh on the option)";
      }
      return;
    }
    const auto g = catalog_.grid_carbon(region, s_.as_of);
    if (!g) {
      if (own_region) {
        unknown(section, "grid_region", "grid region (as of " + s_.as_of + ")", region,
                ids_of(catalog_.grid_carbons(s_.as_of), [](const GridCarbon& x) { return x.id; }),
                "gputco catalog list carbon");
      }
      oi.carbon_unknown_reason =
          "unknown: the catalog has no grid carbon intensity for the "
          "provider's region '" +
          region + "'";
      text(o.id, "grid_region", "Provider region (no grid intensity known)", region,
           "catalog offer region");
      return;
    }
    oi.grid_g_co2e_per_kwh = g->g_co2e_per_kwh;
    std::string provenance = carbon_source(*g);
    if (!own_region) provenance = "the offer's region '" + region + "'; " + provenance;
    number(o.id, "grid_g_co2e_per_kwh", "Grid carbon intensity where it runs (" + g->name + ")",
           g->g_co2e_per_kwh, "g CO2e/kWh", provenance);
  }

  /// A pay-per-token API: prices from the catalog (converted) or the scenario, limits.
  void resolve_api(const ScenarioOption& o, OptionInputs& oi, const std::string& section) {
    std::optional<ApiPrice> price;
    if (!o.api.empty()) {
      price = catalog_.api_price(o.api, s_.as_of);
      if (!price) {
        unknown(section, "api", "API price (as of " + s_.as_of + ")", o.api,
                ids_of(catalog_.api_prices(s_.as_of), [](const ApiPrice& a) { return a.id; }),
                "gputco catalog list apis");
      }
      oi.api_model = price->api_model;
      text(o.id, "api", "API (" + price->provider + ")", price->api_model,
           "catalog API price " + price->id);
      const std::string& model = r_.plan_inputs.model.id;
      if (!price->comparable_model_id.empty() || !model.empty()) {
        text(o.id, "comparable_model_id", "Open model it serves",
             price->comparable_model_id.empty() ? "none published (proprietary)"
                                                : price->comparable_model_id,
             price->comparable_model_id == model
                 ? "catalog: the workload's model"
                 : "catalog: not the workload's model (" + model + "); compare with care");
      }
    } else {
      oi.api_model = o.id;
    }
    const auto price_of = [&](const char* key, const std::optional<double>& given_value,
                              double catalog_amount, const char* label, const char* unit_text) {
      if (given_value) {
        number(o.id, key, label, *given_value, s_.currency + "/M tokens");
        return *given_value;
      }
      std::string provenance =
          source("API " + price->id + " " + unit_text, catalog_amount, price->currency,
                 "per million " + std::string(unit_text), price->provenance);
      const double amount = convert(catalog_amount, price->currency, provenance, section, "api");
      number(o.id, key, label, amount, s_.currency + "/M tokens", provenance);
      return amount;
    };
    oi.input_price_per_million = price_of("input_price_per_million", o.input_price_per_million,
                                          price ? price->input_per_million : 0,
                                          "Price per million input tokens", "input tokens");
    oi.output_price_per_million = price_of("output_price_per_million", o.output_price_per_million,
                                           price ? price->output_per_million : 0,
                                           "Price per million output tokens", "output tokens");
    const auto limit = [&](const char* key, const std::optional<double>& given_value,
                           const std::optional<double>& catalog_value, const char* label,
                           const char* unit) -> std::optional<double> {
      if (given_value) {
        number(o.id, key, label, *given_value, unit);
        return given_value;
      }
      if (price && catalog_value) {
        number(o.id, key, label, *catalog_value, unit,
               "catalog: " + price->provenance.source + ", observed " +
                   price->provenance.observed_on +
                   (price->note.empty() ? "" : " (" + price->note + ")"));
        return catalog_value;
      }
      return std::nullopt;
    };
    oi.requests_per_minute_limit =
        limit("requests_per_minute_limit", o.requests_per_minute_limit,
              price ? price->requests_per_minute : std::nullopt, "Rate limit", "requests/min");
    oi.tokens_per_minute_limit =
        limit("tokens_per_minute_limit", o.tokens_per_minute_limit,
              price ? price->tokens_per_minute : std::nullopt, "Rate limit", "tokens/min");
  }

  void resolve_count(const ScenarioOption& o, OptionInputs& oi, int needed) {
    if (o.count) {
      oi.count = *o.count;
      number(o.id, "count", "Devices", oi.count, "devices");
    } else {
      oi.count = needed > 0 ? needed : 1;
      number(o.id, "count", "Devices", oi.count, "devices",
             needed > 0 ? "derived: the fewest devices that hold the model"
                        : "default: 1 (no count up to 64 holds the model)");
    }
  }

  void resolve_buy(const ScenarioOption& o, OptionInputs& oi, const std::string& section) {
    text(o.id, "condition", "Condition", o.condition);
    if (o.price_per_gpu) {
      oi.price_per_gpu = *o.price_per_gpu;
      number(o.id, "price_per_gpu", "Purchase price per device", oi.price_per_gpu, s_.currency);
    } else {
      const auto price = catalog_.latest_price(oi.device.id, o.condition, s_.as_of);
      if (!price) {
        fail(section, "price_per_gpu",
             "the catalog has no " + o.condition + " price for " + oi.device.id + " as of " +
                 s_.as_of + "; set price_per_gpu");
      }
      std::string provenance =
          source(oi.device.id + " purchase (" + o.condition + ")", price->amount, price->currency,
                 "per device", price->provenance);
      // Several rows of that book on that date (sellers, regions): say which one and why.
      int same_date = 0;
      for (const auto& row : catalog_.price_history(oi.device.id)) {
        same_date += row.condition == o.condition &&
                     row.provenance.observed_on == price->provenance.observed_on &&
                     row.provenance.book == price->provenance.book;
      }
      if (same_date > 1) {
        provenance += "; the lowest of " + std::to_string(same_date) + " " + o.condition +
                      " prices observed on " + price->provenance.observed_on + " in book " +
                      price->provenance.book + " (catalog list prices)";
      }
      oi.price_per_gpu = convert(price->amount, price->currency, provenance, section, "gpu");
      number(o.id, "price_per_gpu", "Purchase price per device", oi.price_per_gpu, s_.currency,
             provenance);
    }
    oi.host_cost = o.host_cost.value_or(0);
    number(o.id, "host_cost", "Host system (chassis, CPU, PSU)", oi.host_cost, s_.currency,
           o.host_cost ? "" : "default: 0 (no host price given)");
    number(o.id, "board_power_w", "Board power per device", oi.device.board_power_w, "W",
           "catalog device " + oi.device.id);
    const bool system_power = oi.device.kind == DeviceKind::unified;
    oi.host_power_w = o.host_power_w.value_or(system_power ? 0 : kDefaultHostPowerW);
    number(o.id, "host_power_w", "Host power at load", oi.host_power_w, "W",
           o.host_power_w ? ""
           : system_power ? "default: 0 (the device's power is the whole system's)"
                          : "default: 150 W for the rest of a desktop (DOMAIN E5)");
    resolve_residual(o, oi);
    oi.maintenance_per_year = o.maintenance_per_year.value_or(0);
    number(o.id, "maintenance_per_year", "Maintenance per year", oi.maintenance_per_year,
           "fraction of capex", o.maintenance_per_year ? "" : "default: 0");
    const bool used = oi.condition == Condition::used;
    oi.warranty_months = o.warranty_months.value_or(used ? 0 : kDefaultWarrantyNewMonths);
    number(o.id, "warranty_months", "Warranty", oi.warranty_months, "months",
           o.warranty_months ? ""
           : used            ? "default: 0 (used hardware, sold without warranty)"
                             : "default: 24 months, the EU legal guarantee on new goods "
                               "(Directive (EU) 2019/771)");
    oi.annual_failure_rate = o.annual_failure_rate.value_or(0);
    number(o.id, "annual_failure_rate", "Failures per year after the warranty",
           oi.annual_failure_rate, "fraction of devices",
           o.annual_failure_rate ? "" : "default: 0 (no failures counted; set it for used cards)");
    resolve_hosting(o, oi);
    resolve_financing(o, oi, section);
  }

  /// Resale at the horizon: given, else the catalog's curve for the device class and
  /// condition at the horizon's age.
  void resolve_residual(const ScenarioOption& o, OptionInputs& oi) {
    if (o.residual_fraction) {
      oi.residual_fraction = *o.residual_fraction;
      number(o.id, "residual_fraction", "Resale value at the horizon", oi.residual_fraction,
             "fraction of capex");
      return;
    }
    const std::string device_class = to_string(oi.device.kind);
    std::string curve_class = device_class;
    auto curve = catalog_.resale_curve(device_class, o.condition, s_.as_of);
    std::string how;
    std::vector<size_t> used;
    if (usable_curve(curve)) {
      oi.residual_fraction = resale_at(curve, s_.horizon_months, how, used);
    } else {
      // No curve of its own: the lowest of the other classes' curves in the same condition at
      // the horizon (conservative: the class could resell no worse than the worst of them).
      std::optional<double> lowest;
      for (const char* other : {"consumer", "workstation", "datacenter", "unified"}) {
        if (other == device_class) continue;
        auto other_curve = catalog_.resale_curve(other, o.condition, s_.as_of);
        if (!usable_curve(other_curve)) continue;
        std::string other_how;
        std::vector<size_t> other_used;
        const double value = resale_at(other_curve, s_.horizon_months, other_how, other_used);
        if (!lowest || value < *lowest) {
          lowest = value;
          curve = std::move(other_curve);
          curve_class = other;
          how = other_how;
          used = other_used;
        }
      }
      if (!lowest) {
        oi.residual_fraction = 0;
        number(o.id, "residual_fraction", "Resale value at the horizon", 0, "fraction of capex",
               "default: 0 (the catalog has no resale curve for " + o.condition + " devices)");
        return;
      }
      oi.residual_fraction = *lowest;
    }
    for (const size_t index : used) {
      const ResalePoint& point = curve[index];
      const std::string what = "resale curve " + curve_class + " (" + o.condition + ") at " +
                               std::to_string(point.age_months) + " months";
      bool listed = false;
      for (const auto& row : r_.sources) listed = listed || row.what == what;
      if (!listed) {
        const int age = days_between(point.provenance.observed_on, s_.as_of);
        r_.sources.push_back({what, point.fraction, "", "fraction of the purchase price",
                              point.provenance.observed_on, point.provenance.source, age,
                              age > s_.max_price_age_days});
      }
    }
    const std::string horizon = std::to_string(s_.horizon_months) + " months: " + how +
                                " (Sources sheet; units added later are valued at the same "
                                "fraction)";
    number(o.id, "residual_fraction", "Resale value at the horizon", oi.residual_fraction,
           "fraction of capex",
           curve_class == device_class
               ? "catalog resale curve " + device_class + " (" + o.condition + ") at " + horizon
               : "default: the catalog has no resale curve for " + device_class + " (" +
                     o.condition + ") devices; the lowest of the other classes' curves, " +
                     curve_class + " (" + o.condition + ") at " + horizon);
  }

  void resolve_hosting(const ScenarioOption& o, OptionInputs& oi) {
    const std::string section = "option:" + o.id;
    oi.hosting = o.kind == "colocation" || o.hosting == "colocation" ? Hosting::colocation
                                                                     : Hosting::on_site;
    text(o.id, "hosting", "Hosting", to_string(oi.hosting),
         o.kind == "colocation" ? "kind = colocation" : "");
    if (oi.hosting != Hosting::colocation) {
      if (o.pue) oi.pue = *o.pue;
      if (o.tariff_per_kwh) oi.tariff_per_kwh = *o.tariff_per_kwh;
    } else {
      if (!o.colo_per_kw_month) {
        fail(section, "colo_per_kw_month",
             "missing: colocated hardware needs the data centre's price per kW per month");
      }
      oi.colo_per_kw_month = *o.colo_per_kw_month;
      number(o.id, "colo_per_kw_month", "Colocation price per kW per month", oi.colo_per_kw_month,
             s_.currency + "/kW/month");
      oi.colo_per_rack_unit_month = o.colo_per_rack_unit_month.value_or(0);
      number(o.id, "colo_per_rack_unit_month", "Colocation price per rack unit per month",
             oi.colo_per_rack_unit_month, s_.currency + "/U/month",
             o.colo_per_rack_unit_month ? "" : "default: 0 (no per-rack-unit fee)");
      oi.rack_units = o.rack_units.value_or(kDefaultRackUnits);
      number(o.id, "rack_units", "Rack units per unit", oi.rack_units, "U",
             o.rack_units ? "" : "default: 4 U, a GPU server chassis (assumption)");
      const double power_kw =
          (oi.count * oi.device.board_power_w + oi.host_power_w) / kWattsPerKilowatt;
      if (o.contracted_kw) {
        oi.contracted_kw = *o.contracted_kw;
        number(o.id, "contracted_kw", "Contracted power per unit", oi.contracted_kw, "kW");
      } else {
        const double step = o.kw_step.value_or(kDefaultKwStep);
        oi.contracted_kw = std::ceil(power_kw / step - 1e-9) * step;
        number(o.id, "kw_step", "Contracted power step", step, "kW",
               o.kw_step ? "" : "default: 0.5 kW steps (assumption; contracts vary)");
        number(o.id, "contracted_kw", "Contracted power per unit", oi.contracted_kw, "kW",
               "derived: power at load " + fixed(power_kw, 3) + " kW rounded up to the step");
      }
      oi.power_metered = o.power_metered.value_or(true);
      number(
          o.id, "power_metered", "Energy metered apart (1 = yes)", oi.power_metered ? 1 : 0, "flag",
          o.power_metered ? "" : "default: true (energy billed on the meter, beside the kW fee)");
      oi.pue = o.pue.value_or(kDefaultColocationPue);
      number(o.id, "pue", "Data centre PUE", *oi.pue, "ratio",
             o.pue ? ""
                   : "default: 1.58, the average PUE of the Uptime Institute Global Data "
                     "Center Survey 2023");
      oi.tariff_per_kwh = o.tariff_per_kwh.value_or(r_.plan_inputs.site.tariff_per_kwh);
      number(o.id, "tariff_per_kwh", "Data centre energy price", *oi.tariff_per_kwh,
             s_.currency + "/kWh", o.tariff_per_kwh ? "" : "default: the site's tariff");
      return;
    }
    if (oi.pue) number(o.id, "pue", "PUE where this option runs", *oi.pue, "ratio");
    if (oi.tariff_per_kwh) {
      number(o.id, "tariff_per_kwh", "Energy price where this option runs", *oi.tariff_per_kwh,
             s_.currency + "/kWh");
    }
  }

  void resolve_financing(const ScenarioOption& o, OptionInputs& oi, const std::string& section) {
    oi.financing = o.financing == "loan"    ? Financing::loan
                   : o.financing == "lease" ? Financing::lease
                                            : Financing::cash;
    text(o.id, "financing", "Financing", to_string(oi.financing),
         o.financing.empty() ? "default: cash" : "");
    if (oi.financing == Financing::loan) {
      if (!o.loan_rate) fail(section, "loan_rate", "missing: a loan needs its rate per year");
      oi.loan_rate_per_year = *o.loan_rate;
      number(o.id, "loan_rate", "Loan rate per year (nominal, monthly instalments)",
             oi.loan_rate_per_year, "fraction per year");
      oi.loan_term_months = o.loan_term_months.value_or(36);
      number(o.id, "loan_term_months", "Loan term", oi.loan_term_months, "months",
             o.loan_term_months ? "" : "default: 36 months");
      oi.down_payment_fraction = o.down_payment.value_or(0);
      number(o.id, "down_payment", "Down payment", oi.down_payment_fraction,
             "fraction of the purchase", o.down_payment ? "" : "default: 0");
    } else if (oi.financing == Financing::lease) {
      oi.lease_rate_per_month = o.lease_rate_per_month.value_or(0);
      number(o.id, "lease_rate_per_month", "Lease fee per month", oi.lease_rate_per_month,
             "fraction of the hardware price");
      oi.lease_term_months = o.lease_term_months.value_or(36);
      number(o.id, "lease_term_months", "Lease term", oi.lease_term_months, "months",
             o.lease_term_months ? "" : "default: 36 months");
    }
  }

  /// Overflow: the option's own switch, else the workload's; a blend always rents it.
  void resolve_overflow_links() {
    auto& options = r_.plan_inputs.options;
    for (size_t i = 0; i < options.size(); ++i) {
      const ScenarioOption& o = s_.options[i];
      OptionInputs& oi = options[i];
      if (oi.kind != OptionKind::buy) continue;
      const std::string section = "option:" + o.id;
      const std::string overflow = o.kind == "blend"     ? "rent"
                                   : !o.overflow.empty() ? o.overflow
                                                         : s_.overflow;
      oi.blend = o.kind == "blend";
      oi.overflow = overflow == "rent" ? Overflow::rent : Overflow::add_units;
      text(o.id, "overflow", "When the demand outgrows it", overflow == "rent" ? "rent" : "buy",
           o.kind == "blend"     ? "kind = blend: own the base load, rent the peaks"
           : !o.overflow.empty() ? ""
                                 : s_.provenance("workload", "overflow"));
      if (oi.overflow != Overflow::rent) continue;
      const bool own_link = !o.overflow_option.empty();
      oi.overflow_option_id = own_link ? o.overflow_option : s_.overflow_option;
      const std::string where = own_link ? section : "workload";
      if (oi.overflow_option_id.empty()) {
        fail(section, "overflow_option",
             "missing: name the rent_hourly option that carries the overflow");
      }
      const OptionInputs* rental = nullptr;
      std::vector<std::string> ids;
      for (const auto& other : options) {
        ids.push_back(other.id);
        if (other.id == oi.overflow_option_id) rental = &other;
      }
      if (rental == nullptr) {
        unknown(where, "overflow_option", "option", oi.overflow_option_id, ids,
                "an [option:ID] of this file");
      }
      if (rental->kind != OptionKind::rent_hourly || term_months(rental->term) > 0) {
        fail(where, "overflow_option",
             "the overflow goes to an hourly rental billed by use (rent_hourly on_demand or "
             "spot); '" +
                 rental->id + "' is not one");
      }
      text(o.id, "overflow_option", "Overflow rented from", oi.overflow_option_id,
           own_link ? "" : s_.provenance("workload", "overflow_option"));
    }
  }

  void resolve_hourly(const ScenarioOption& o, OptionInputs& oi, const std::string& section) {
    const std::string term = o.kind == "rent_spot" ? "spot" : o.term.empty() ? "on_demand" : o.term;
    oi.term = term == "spot"          ? RentTerm::spot
              : term == "reserved_1y" ? RentTerm::reserved_1y
              : term == "reserved_3y" ? RentTerm::reserved_3y
                                      : RentTerm::on_demand;
    text(o.id, "term", "Billing term", term,
         o.kind == "rent_spot" ? "kind = rent_spot"
         : o.term.empty()      ? "default: on_demand"
                               : "");
    if (oi.term == RentTerm::spot) {
      oi.goodput = o.goodput.value_or(kDefaultSpotGoodput);
      number(o.id, "goodput", "Spot goodput (useful share of billed hours)", oi.goodput, "fraction",
             o.goodput ? ""
                       : "default: 0.9 (assumption: a tenth of spot hours lost to "
                         "interruptions and restarts)");
    }
    if (term_months(oi.term) > 0) {
      number(o.id, "term_months", "Reserved term", term_months(oi.term), "months",
             "term = " + term);
    }
    resolve_hourly_rate(o, oi, section, term);
  }

  void resolve_hourly_rate(const ScenarioOption& o, OptionInputs& oi, const std::string& section,
                           const std::string& term) {
    if (o.rate_per_gpu_hour) {
      oi.rate_per_gpu_hour = *o.rate_per_gpu_hour;
      number(o.id, "rate_per_gpu_hour", "Rate per device-hour", oi.rate_per_gpu_hour,
             s_.currency + "/h");
      return;
    }
    const RentalOffer* best = nullptr;
    const auto offers = catalog_.rental_offers(s_.as_of, oi.device.id, "hourly", term);
    for (const auto& offer : offers) {
      if (!o.provider.empty() && offer.provider != o.provider) continue;
      best = &offer;
      break;  // ordered by amount per device, ascending
    }
    if (!best) {
      fail(section, "rate_per_gpu_hour",
           "the catalog has no " + term + " hourly offer for " + oi.device.id +
               (o.provider.empty() ? "" : " from " + o.provider) + " as of " + s_.as_of +
               "; set rate_per_gpu_hour");
    }
    std::string provenance = source(
        best->provider + " " + best->sku + " (" + best->term + ")", best->amount, best->currency,
        "per instance-hour, " + std::to_string(best->devices_per_instance) + " device(s)",
        best->provenance);
    offer_region_ = best->region;
    oi.rate_per_gpu_hour =
        convert(best->amount_per_device(), best->currency, provenance, section, "gpu");
    number(o.id, "rate_per_gpu_hour", "Rate per device-hour (" + best->provider + ")",
           oi.rate_per_gpu_hour, s_.currency + "/h", provenance);
  }

  void resolve_monthly(const ScenarioOption& o, OptionInputs& oi, const std::string& section,
                       int needed) {
    oi.notice_months = o.notice_months.value_or(0);
    number(o.id, "notice_months", "Notice period (paid after the horizon)", oi.notice_months,
           "months", o.notice_months ? "" : "default: 0 (no notice period)");
    if (o.price_per_month) {
      oi.count = o.count.value_or(needed > 0 ? needed : 1);
      number(o.id, "count", "Devices in the server", oi.count, "devices");
      oi.price_per_month = *o.price_per_month;
      number(o.id, "price_per_month", "Server rent per month", oi.price_per_month, s_.currency);
      oi.setup_fee = o.setup_fee.value_or(0);
      number(o.id, "setup_fee", "Setup fee", oi.setup_fee, s_.currency,
             o.setup_fee ? "" : "default: 0");
      return;
    }
    // The cheapest monthly server with this device: of the stated count, or of enough
    // devices to hold the model.
    const RentalOffer* best = nullptr;
    const auto offers = catalog_.rental_offers(s_.as_of, oi.device.id, "monthly", "");
    for (const auto& offer : offers) {
      if (!o.provider.empty() && offer.provider != o.provider) continue;
      if (o.count ? offer.devices_per_instance != *o.count
                  : offer.devices_per_instance < std::max(needed, 1)) {
        continue;
      }
      if (!best || offer.amount < best->amount) best = &offer;
    }
    if (!best) {
      fail(section, "price_per_month",
           "the catalog has no monthly server with " +
               (o.count ? std::to_string(*o.count) : "enough") + " x " + oi.device.id +
               (o.provider.empty() ? "" : " from " + o.provider) + " as of " + s_.as_of +
               "; set price_per_month");
    }
    oi.count = best->devices_per_instance;
    offer_region_ = best->region;
    number(o.id, "count", "Devices in the server", oi.count, "devices",
           "catalog offer " + best->provider + " " + best->sku);
    std::string provenance = source(best->provider + " " + best->sku + " (monthly)", best->amount,
                                    best->currency, "per month", best->provenance);
    oi.price_per_month = convert(best->amount, best->currency, provenance, section, "gpu");
    number(o.id, "price_per_month", "Server rent per month (" + best->provider + ")",
           oi.price_per_month, s_.currency, provenance);
    if (o.setup_fee) {
      oi.setup_fee = *o.setup_fee;
      number(o.id, "setup_fee", "Setup fee", oi.setup_fee, s_.currency);
    } else {
      std::string fee_provenance = "catalog offer " + best->provider + " " + best->sku;
      oi.setup_fee = convert(best->setup_fee, best->currency, fee_provenance, section, "gpu");
      number(o.id, "setup_fee", "Setup fee", oi.setup_fee, s_.currency, fee_provenance);
    }
  }

  void resolve_baseline() {
    if (s_.baseline.empty()) return;
    for (const auto& o : s_.options) {
      if (o.id != s_.baseline) continue;
      if (o.kind != "rent_hourly" && o.kind != "rent_spot") {
        fail("scenario", "baseline",
             "the baseline must be a rent_hourly option; '" + o.id + "' is " + o.kind);
      }
      r_.plan_inputs.baseline_option_id = o.id;
      text("scenario", "baseline", "Rental baseline", o.id);
      return;
    }
    std::vector<std::string> ids;
    for (const auto& o : s_.options) ids.push_back(o.id);
    unknown("scenario", "baseline", "option", s_.baseline, ids, "an [option:ID] of this file");
  }

  const Scenario& s_;
  const Catalog& catalog_;
  ResolvedScenario r_;
  std::string tariff_region_;  ///< the catalog tariff's region, for the default grid region
  std::string offer_region_;   ///< the current option's catalog offer region ("" if none)
};

}  // namespace

ResolvedScenario resolve(const Scenario& scenario, const Catalog& catalog) {
  return Resolver(scenario, catalog).run();
}

}  // namespace gputco
