#include "engine/plan_model/plan_inputs.hpp"

#include <cmath>
#include <utility>

#include "engine/base/error.hpp"

namespace gputco {

std::string to_string(OptionKind k) {
  switch (k) {
    case OptionKind::buy:
      return "buy";
    case OptionKind::rent_hourly:
      return "rent_hourly";
    case OptionKind::rent_monthly:
      return "rent_monthly";
    case OptionKind::api:
      return "api";
  }
  return "unknown";
}

std::string to_string(Condition c) {
  return c == Condition::used ? "used" : "new";
}

std::string to_string(Billing b) {
  return b == Billing::autoscaled ? "autoscaled" : "always_on";
}

std::string to_string(BillingGranularity g) {
  switch (g) {
    case BillingGranularity::second:
      return "second";
    case BillingGranularity::minute:
      return "minute";
    case BillingGranularity::hour:
      return "hour";
  }
  return "unknown";
}

std::string to_string(Availability a) {
  return a == Availability::around_the_clock ? "24x7" : "hours_of_use";
}

std::string to_string(RentTerm t) {
  switch (t) {
    case RentTerm::on_demand:
      return "on_demand";
    case RentTerm::spot:
      return "spot";
    case RentTerm::reserved_1y:
      return "reserved_1y";
    case RentTerm::reserved_3y:
      return "reserved_3y";
  }
  return "unknown";
}

std::string to_string(Hosting h) {
  return h == Hosting::colocation ? "colocation" : "on_site";
}

std::string to_string(Overflow o) {
  return o == Overflow::rent ? "rent" : "buy";
}

std::string to_string(Financing f) {
  switch (f) {
    case Financing::cash:
      return "cash";
    case Financing::loan:
      return "loan";
    case Financing::lease:
      return "lease";
  }
  return "unknown";
}

std::string to_string(HoursConvention c) {
  switch (c) {
    case HoursConvention::h730:
      return "730";
    case HoursConvention::h720:
      return "720";
    case HoursConvention::calendar:
      return "calendar";
  }
  return "unknown";
}

int term_months(RentTerm t) {
  switch (t) {
    case RentTerm::reserved_1y:
      return 12;
    case RentTerm::reserved_3y:
      return 36;
    case RentTerm::on_demand:
    case RentTerm::spot:
      return 0;
  }
  return 0;
}

namespace {

bool finite_non_negative(double x) {
  return std::isfinite(x) && x >= 0;
}

/// Throws EngineError naming the first of the finance inputs out of its range (horizon, rates,
/// useful life, tax rules, start month).
void validate_finance(const FinanceInputs& f) {
  GPUTCO_REQUIRE(f.horizon_months >= 1 && f.horizon_months <= 600,
                 "horizon_months must be between 1 and 600, got " << f.horizon_months);
  GPUTCO_REQUIRE(std::isfinite(f.discount_rate_per_year) && f.discount_rate_per_year > -1 &&
                     f.discount_rate_per_year <= 10,
                 "discount_rate must be above -100% and at most 1000% per year, got "
                     << f.discount_rate_per_year);
  GPUTCO_REQUIRE(
      std::isfinite(f.rent_trend_per_year) && f.rent_trend_per_year > -1 &&
          f.rent_trend_per_year <= 10,
      "rent_trend_per_year must be above -100% and at most 1000%, got " << f.rent_trend_per_year);
  GPUTCO_REQUIRE(std::isfinite(f.vat_rate) && f.vat_rate >= 0 && f.vat_rate <= 1,
                 "vat_rate must be between 0 and 1, got " << f.vat_rate);
  GPUTCO_REQUIRE(!f.tax_rate || (std::isfinite(*f.tax_rate) && *f.tax_rate >= 0 && *f.tax_rate < 1),
                 "tax rate must be at least 0 and below 1, got " << f.tax_rate.value_or(0));
  GPUTCO_REQUIRE(f.useful_life_months >= 1 && f.useful_life_months <= 600,
                 "useful_life_months must be between 1 and 600, got " << f.useful_life_months);
  validate_tax_rules(f.tax_devices, "tax depreciation of devices");
  validate_tax_rules(f.tax_host, "tax depreciation of the host");
  GPUTCO_REQUIRE(
      f.start_month >= 1 && f.start_month <= 12 && f.start_year >= 1900 && f.start_year <= 9999,
      "the start month must be a month of the years 1900-9999, got " << f.start_year << "-"
                                                                     << f.start_month);
  GPUTCO_REQUIRE(std::isfinite(f.api_price_trend_per_year) && f.api_price_trend_per_year > -1 &&
                     f.api_price_trend_per_year <= 10,
                 "api_price_trend_per_year must be above -100% and at most 1000%, got "
                     << f.api_price_trend_per_year);
}

/// Throws EngineError naming the first of the workload's inputs out of its range; `f` for the
/// horizon growth compounds over.
void validate_workload(const WorkloadInputs& w, const FinanceInputs& f) {
  GPUTCO_REQUIRE(std::isfinite(w.hours_per_day) && w.hours_per_day >= 0 && w.hours_per_day <= 24,
                 "hours_per_day must be between 0 and 24, got " << w.hours_per_day);
  GPUTCO_REQUIRE(std::isfinite(w.days_per_month) && w.days_per_month >= 0 && w.days_per_month <= 31,
                 "days_per_month must be between 0 and 31, got " << w.days_per_month);
  GPUTCO_REQUIRE(
      std::isfinite(w.growth_per_month) && w.growth_per_month > -1 && w.growth_per_month <= 1,
      "growth_per_month must be above -100% and at most 100%, got " << w.growth_per_month);
  // Growth compounds: the last month's load must stay a finite number of units.
  GPUTCO_REQUIRE(std::isfinite(std::pow(1.0 + w.growth_per_month, f.horizon_months)) &&
                     std::pow(1.0 + w.growth_per_month, f.horizon_months) <= 1e6,
                 "growth_per_month " << w.growth_per_month << " over " << f.horizon_months
                                     << " months multiplies the demand by more than a million");
  GPUTCO_REQUIRE(!w.tokens_per_day || finite_non_negative(*w.tokens_per_day),
                 "tokens_per_day must be a non-negative number");
  // At 0 hours a day a demand would be served at no cost (hourly rentals bill hours x load).
  GPUTCO_REQUIRE(!w.tokens_per_day || *w.tokens_per_day <= 0 || w.hours_per_day > 0 ||
                     (!w.days_follow_convention && w.days_per_month <= 0),
                 "hours_per_day is 0 but the demand is "
                     << *w.tokens_per_day << " tokens a day: no hours to serve it in");
  GPUTCO_REQUIRE(std::isfinite(w.peak_factor) && w.peak_factor >= 1 && w.peak_factor <= 24,
                 "peak_factor must be between 1 and 24 (the peak hour over the mean hour), got "
                     << w.peak_factor);
  for (const auto& [name, value] :
       {std::pair<const char*, std::optional<double>>{"tpot_p99_ms", w.tpot_p99_ms},
        {"ttft_p99_ms", w.ttft_p99_ms},
        {"user_tokens_per_s", w.user_tokens_per_s},
        {"output_tokens_per_request", w.output_tokens_per_request}}) {
    GPUTCO_REQUIRE(!value || (std::isfinite(*value) && *value > 0),
                   name << " must be a positive number, got " << *value);
  }
  GPUTCO_REQUIRE(
      !w.prompt_tokens_per_request ||
          (std::isfinite(*w.prompt_tokens_per_request) && *w.prompt_tokens_per_request >= 0),
      "prompt_tokens_per_request must be 0 or more, got " << *w.prompt_tokens_per_request);
  if (!w.hourly_profile.empty()) {
    double sum = 0;
    for (double share : w.hourly_profile) {
      GPUTCO_REQUIRE(finite_non_negative(share),
                     "hourly_profile's shares must be non-negative numbers, got " << share);
      sum += share;
    }
    GPUTCO_REQUIRE(w.hourly_profile.size() == 24 && std::abs(sum - 1.0) <= kProfileSumTolerance,
                   "hourly_profile must hold 24 shares summing to 1, got "
                       << w.hourly_profile.size() << " summing to " << sum);
  }
  GPUTCO_REQUIRE(!w.users || (std::isfinite(*w.users) && *w.users > 0),
                 "users must be a positive number");
  GPUTCO_REQUIRE(
      !w.input_tokens_per_output_token || (finite_non_negative(*w.input_tokens_per_output_token) &&
                                           *w.input_tokens_per_output_token <= 1e6),
      "input_tokens_per_output_token must be a number between 0 and 1e6");
  GPUTCO_REQUIRE(!w.requests_per_day || finite_non_negative(*w.requests_per_day),
                 "requests_per_day must be a non-negative number");
}

/// Throws EngineError naming the first of the site's inputs out of its range.
void validate_site(const SiteInputs& site) {
  GPUTCO_REQUIRE(!site.grid_g_co2e_per_kwh || (finite_non_negative(*site.grid_g_co2e_per_kwh) &&
                                               *site.grid_g_co2e_per_kwh <= 5000),
                 "grid_g_co2e_per_kwh must be between 0 and 5000 g/kWh");
  GPUTCO_REQUIRE(finite_non_negative(site.tariff_per_kwh),
                 "tariff_per_kwh must be a non-negative number, got " << site.tariff_per_kwh);
  GPUTCO_REQUIRE(std::isfinite(site.pue) && site.pue >= 1 && site.pue <= 5,
                 "pue must be between 1 and 5, got " << site.pue);
  GPUTCO_REQUIRE(std::isfinite(site.tariff_trend_per_year) && site.tariff_trend_per_year > -1 &&
                     site.tariff_trend_per_year <= 10,
                 "tariff_trend_per_year must be above -100% and at most 1000%, got "
                     << site.tariff_trend_per_year);
}

/// Throws EngineError naming option `o` and its first input out of its range, or an api option
/// without a demand in tokens in `in`.
void validate_option(const OptionInputs& o, const PlanInputs& in) {
  GPUTCO_REQUIRE(o.count >= 1 && o.count <= 4096,
                 "option " << o.id << ": count must be between 1 and 4096, got " << o.count);
  GPUTCO_REQUIRE(
      finite_non_negative(o.price_per_gpu) && finite_non_negative(o.host_cost) &&
          finite_non_negative(o.host_power_w) && finite_non_negative(o.rate_per_gpu_hour) &&
          finite_non_negative(o.price_per_month) && finite_non_negative(o.setup_fee) &&
          finite_non_negative(o.maintenance_per_year) && finite_non_negative(o.colo_per_kw_month) &&
          finite_non_negative(o.contracted_kw) && finite_non_negative(o.colo_per_rack_unit_month) &&
          finite_non_negative(o.rack_units) && finite_non_negative(o.lease_rate_per_month) &&
          finite_non_negative(o.capacity_tokens_per_hour) &&
          finite_non_negative(o.overflow_rate_per_hour) &&
          finite_non_negative(o.overflow_capacity_tokens_per_hour) &&
          finite_non_negative(o.overflow_power_w) && finite_non_negative(o.overflow_idle_power_w) &&
          finite_non_negative(o.overflow_pue) && o.overflow_goodput > 0 &&
          o.overflow_goodput <= 1 && finite_non_negative(o.input_price_per_million) &&
          finite_non_negative(o.output_price_per_million) && finite_non_negative(o.idle_power_w),
      "option " << o.id << ": prices, power and rates must be non-negative numbers");
  GPUTCO_REQUIRE(
      std::isfinite(o.residual_fraction) && o.residual_fraction >= 0 && o.residual_fraction <= 1,
      "option " << o.id << ": residual_fraction must be between 0 and 1, got "
                << o.residual_fraction);
  GPUTCO_REQUIRE(std::isfinite(o.annual_failure_rate) && o.annual_failure_rate >= 0 &&
                     o.annual_failure_rate <= 1,
                 "option " << o.id << ": annual_failure_rate must be between 0 and 1, got "
                           << o.annual_failure_rate);
  GPUTCO_REQUIRE(o.warranty_months >= 0 && o.warranty_months <= 600,
                 "option " << o.id << ": warranty_months must be between 0 and 600, got "
                           << o.warranty_months);
  GPUTCO_REQUIRE(std::isfinite(o.goodput) && o.goodput > 0 && o.goodput <= 1,
                 "option " << o.id << ": goodput must be above 0 and at most 1, got " << o.goodput);
  GPUTCO_REQUIRE(
      o.notice_months >= 0 && o.notice_months <= 120,
      "option " << o.id << ": notice_months must be between 0 and 120, got " << o.notice_months);
  GPUTCO_REQUIRE(!o.pue || (std::isfinite(*o.pue) && *o.pue >= 1 && *o.pue <= 5),
                 "option " << o.id << ": pue must be between 1 and 5");
  GPUTCO_REQUIRE(!o.tariff_per_kwh || finite_non_negative(*o.tariff_per_kwh),
                 "option " << o.id << ": tariff_per_kwh must be a non-negative number");
  GPUTCO_REQUIRE(std::isfinite(o.down_payment_fraction) && o.down_payment_fraction >= 0 &&
                     o.down_payment_fraction <= 1,
                 "option " << o.id << ": down_payment must be between 0 and 1, got "
                           << o.down_payment_fraction);
  GPUTCO_REQUIRE(
      std::isfinite(o.loan_rate_per_year) && o.loan_rate_per_year >= 0 && o.loan_rate_per_year <= 1,
      "option " << o.id << ": loan_rate must be between 0 and 1 per year, got "
                << o.loan_rate_per_year);
  GPUTCO_REQUIRE(o.loan_term_months >= 1 && o.loan_term_months <= 600 && o.lease_term_months >= 1 &&
                     o.lease_term_months <= 600,
                 "option " << o.id << ": loan and lease terms must be 1-600 months");
  GPUTCO_REQUIRE(o.overflow != Overflow::rent || o.kind == OptionKind::buy,
                 "option " << o.id << ": only owned options rent their overflow");
  GPUTCO_REQUIRE(!o.grid_g_co2e_per_kwh || (finite_non_negative(*o.grid_g_co2e_per_kwh) &&
                                            *o.grid_g_co2e_per_kwh <= 5000),
                 "option " << o.id << ": grid_g_co2e_per_kwh must be between 0 and 5000 g/kWh");
  GPUTCO_REQUIRE(!o.requests_per_minute_limit || (std::isfinite(*o.requests_per_minute_limit) &&
                                                  *o.requests_per_minute_limit > 0),
                 "option " << o.id << ": requests_per_minute_limit must be a positive number");
  GPUTCO_REQUIRE(!o.tokens_per_minute_limit ||
                     (std::isfinite(*o.tokens_per_minute_limit) && *o.tokens_per_minute_limit > 0),
                 "option " << o.id << ": tokens_per_minute_limit must be a positive number");
  GPUTCO_REQUIRE(o.hourly_billing.min_instances >= 0 && o.hourly_billing.min_instances <= 4096,
                 "option " << o.id << ": min_instances must be between 0 and 4096, got "
                           << o.hourly_billing.min_instances);
  validate_cost_lines(o.cost_lines, o.id);
  if (o.kind == OptionKind::api) {
    GPUTCO_REQUIRE(in.workload.tokens_per_day && in.workload.input_tokens_per_output_token,
                   "option " << o.id
                             << ": an api option is billed per token: the workload needs "
                                "tokens_per_day and input_tokens_per_output_token (or "
                                "requests_per_day with prompt and output tokens per request)");
  }
}

}  // namespace

void validate_plan_inputs(const PlanInputs& in) {
  validate_finance(in.finance);
  validate_workload(in.workload, in.finance);
  validate_site(in.site);
  GPUTCO_REQUIRE(!in.options.empty(), "a plan needs at least one option");
  for (const auto& o : in.options) validate_option(o, in);
}

}  // namespace gputco
