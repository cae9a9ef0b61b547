#include "tests/unit/reports_xlsx_fixture.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "engine/finance/finance.hpp"
#include "engine/money/books.hpp"
#include "engine/money/metrics.hpp"
#include "pricing/catalog.hpp"
#include "scenarios/resolve.hpp"
#include "scenarios/scenario.hpp"
#include "tests/support/paths.hpp"

namespace gputco::test {
namespace {

constexpr double kMonthsPerYearHere = 12.0;  // the test's own, not the engine's

std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

/// Runs a shell command and returns its stdout; throws if it exits non-zero.
std::string capture(const std::string& command) {
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) throw std::runtime_error("cannot run: " + command);
  std::string out;
  char buffer[65536];
  size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, n);
  const int status = ::pclose(pipe);
  if (status != 0)
    throw std::runtime_error("command failed (" + std::to_string(status) + "): " + command);
  return out;
}

InputRow number_row(const std::string& section, const std::string& key, const std::string& label,
                    double value, const std::string& unit, const std::string& provenance) {
  InputRow row;
  row.section = section;
  row.key = key;
  row.label = label;
  row.value = value;
  row.unit = unit;
  row.provenance = provenance;
  return row;
}

InputRow text_row(const std::string& section, const std::string& key, const std::string& label,
                  const std::string& text, const std::string& provenance) {
  InputRow row;
  row.section = section;
  row.key = key;
  row.label = label;
  row.text = text;
  row.provenance = provenance;
  return row;
}

Device device(const std::string& id, const std::string& name, double memory_gb,
              double bandwidth_gbps, double board_power_w) {
  Device d;
  d.id = id;
  d.name = name;
  d.memory_nameplate_gb = memory_gb;
  d.bandwidth_gbps = bandwidth_gbps;
  d.board_power_w = board_power_w;
  return d;
}

std::string kind_id(OptionKind kind) {
  switch (kind) {
    case OptionKind::buy:
      return "buy";
    case OptionKind::rent_hourly:
      return "rent_hourly";
    case OptionKind::rent_monthly:
      return "rent_monthly";
    case OptionKind::api:
      return "api";
  }
  return "";
}

std::vector<InputRow> input_rows(const ResolvedScenario& s) {
  const PlanInputs& in = s.plan_inputs;
  const std::string line = "scenario file line ";
  std::vector<InputRow> rows = {
      number_row("scenario", "horizon_months", "Horizon", in.finance.horizon_months, "months",
                 line + "5"),
      number_row("scenario", "discount_rate", "Discount rate per year",
                 in.finance.discount_rate_per_year, "fraction", line + "6"),
      text_row("scenario", "currency", "Currency", in.finance.currency, line + "7"),
      text_row("scenario", "as_of", "Prices as of", s.as_of, line + "8"),
      text_row("scenario", "start", "First month", s.start, line + "9"),
      text_row("workload", "model", "Model", in.model.id, line + "12"),
      text_row("workload", "quant", "Weight format", in.quant.id, line + "13"),
      number_row("workload", "context_tokens", "Context", in.workload.context_tokens, "tokens",
                 line + "14"),
      number_row("workload", "concurrent_streams", "Concurrent streams",
                 in.workload.concurrent_streams, "streams", "default"),
      number_row("workload", "hours_per_day", "Hours of use per day", in.workload.hours_per_day,
                 "h/day", line + "15"),
      number_row("workload", "days_per_month", "Days of use per month", in.workload.days_per_month,
                 "days/month", "default (730 h a month)"),
      text_row("workload", "kv_cache", "KV cache type", "f16", "default"),
      number_row("site", "tariff_per_kwh", "Electricity tariff", in.site.tariff_per_kwh, "EUR/kWh",
                 "catalog: Eurostat nrg_pc_205 DE band IC, observed 2026-07-01"),
      number_row("site", "pue", "PUE", in.site.pue, "ratio", line + "19"),
  };
  for (const OptionInputs& o : in.options) {
    rows.push_back(text_row(o.id, "kind", "Kind", kind_id(o.kind), line + "22"));
    rows.push_back(text_row(o.id, "gpu", "Device", o.device.id, line + "23"));
    rows.push_back(number_row(o.id, "count", "Devices", o.count, "devices", line + "24"));
    switch (o.kind) {
      case OptionKind::buy:
        rows.push_back(text_row(o.id, "condition", "Condition",
                                o.condition == Condition::used ? "used" : "new", line + "25"));
        rows.push_back(number_row(o.id, "price_per_gpu", "Purchase price per GPU", o.price_per_gpu,
                                  "EUR", "catalog: eBay sold listings, observed 2026-10-02"));
        rows.push_back(
            number_row(o.id, "host_cost", "Host system", o.host_cost, "EUR", line + "27"));
        rows.push_back(number_row(o.id, "board_power_w", "Board power", o.device.board_power_w, "W",
                                  "catalog: NVIDIA spec sheet"));
        rows.push_back(
            number_row(o.id, "host_power_w", "Host power", o.host_power_w, "W", "default"));
        rows.push_back(number_row(o.id, "residual_fraction", "Resale at horizon",
                                  o.residual_fraction, "fraction", line + "28"));
        rows.push_back(number_row(o.id, "maintenance_per_year", "Maintenance per year",
                                  o.maintenance_per_year, "fraction", "default"));
        break;
      case OptionKind::rent_hourly:
        rows.push_back(number_row(o.id, "rate_per_gpu_hour", "Rate per GPU-hour",
                                  o.rate_per_gpu_hour, "EUR/h",
                                  "catalog: runpod.io pricing, observed 2026-11-01"));
        break;
      case OptionKind::rent_monthly:
        rows.push_back(number_row(o.id, "price_per_month", "Price per month", o.price_per_month,
                                  "EUR/month", "catalog: hetzner.com, observed 2026-06-20"));
        rows.push_back(number_row(o.id, "setup_fee", "Setup fee", o.setup_fee, "EUR",
                                  "catalog: hetzner.com, observed 2026-06-20"));
        break;
      case OptionKind::api:  // the sample has no api option (issue #8)
        break;
    }
  }
  return rows;
}

}  // namespace

CashFlow hand_cash_flow(const OptionInputs& o, const WorkloadInputs& w, const SiteInputs& site,
                        const FinanceInputs& f) {
  const auto n = static_cast<size_t>(f.horizon_months) + 1;
  CashFlow cf;
  for (auto* row :
       {&cf.capex, &cf.energy, &cf.maintenance, &cf.rent, &cf.resale, &cf.total, &cf.cumulative,
        &cf.discount_factor, &cf.discounted, &cf.hosting, &cf.failures, &cf.financing, &cf.vat,
        &cf.depreciation, &cf.book_value, &cf.load, &cf.units, &cf.overflow_load}) {
    row->assign(n, 0.0);
  }
  const double capex = o.count * o.price_per_gpu + o.host_cost;
  const auto life = static_cast<size_t>(f.useful_life_months);
  for (size_t m = 0; m < n; ++m) {
    const bool start = m == 0;
    const bool running = m >= 1;
    const bool end = m == n - 1;
    // No growth, no tokens per day: one unit of load; owned hardware and monthly servers
    // are one unit in service, hourly rentals have none.
    cf.load[m] = 1;
    cf.units[m] = o.kind == OptionKind::rent_hourly ? 0 : 1;
    if (o.kind == OptionKind::buy) {
      // Straight line: the month-0 purchase over the useful life, months 1..life.
      if (running && m <= life) cf.depreciation[m] = capex / static_cast<double>(life);
      cf.book_value[m] = (m == 0 ? capex : cf.book_value[m - 1]) - cf.depreciation[m];
    }
    switch (o.kind) {
      case OptionKind::buy:
        if (start) cf.capex[m] = capex;
        if (running) {
          cf.energy[m] = (o.count * o.device.board_power_w + o.host_power_w) / 1000.0 *
                         w.hours_per_day * w.days_per_month * site.tariff_per_kwh * site.pue;
          cf.maintenance[m] = capex * o.maintenance_per_year / kMonthsPerYearHere;
        }
        if (end) cf.resale[m] = -o.residual_fraction * capex;
        break;
      case OptionKind::rent_hourly:
        if (running)
          cf.rent[m] = o.rate_per_gpu_hour * o.count * w.hours_per_day * w.days_per_month;
        break;
      case OptionKind::rent_monthly:
        cf.rent[m] = start ? o.setup_fee : o.price_per_month;
        break;
      case OptionKind::api:  // the sample has no api option (issue #8)
        break;
    }
    cf.total[m] = cf.capex[m] + cf.energy[m] + cf.maintenance[m] + cf.rent[m] + cf.resale[m];
    cf.cumulative[m] = (m == 0 ? 0.0 : cf.cumulative[m - 1]) + cf.total[m];
    cf.discount_factor[m] =
        std::pow(1.0 + f.discount_rate_per_year, -static_cast<double>(m) / kMonthsPerYearHere);
    cf.discounted[m] = cf.total[m] * cf.discount_factor[m];
  }
  return cf;
}

void recompute_money(SamplePlan& sample) {
  const PlanInputs& in = sample.scenario.plan_inputs;
  Plan& plan = sample.plan;
  plan.horizon_months = in.finance.horizon_months;
  plan.currency = in.finance.currency;
  const double hours_per_month = in.workload.hours_per_day * in.workload.days_per_month;
  // The timeline of the 730-hour convention without growth or trends.
  const auto n = static_cast<size_t>(in.finance.horizon_months) + 1;
  plan.timeline = Timeline{};
  plan.timeline.hours_in_month.assign(n, 730.0);
  plan.timeline.days_of_use.assign(n, in.workload.days_per_month);
  plan.timeline.hours_of_use.assign(n, hours_per_month);
  plan.timeline.hours_in_month[0] = plan.timeline.days_of_use[0] = 0;
  plan.timeline.hours_of_use[0] = 0;
  plan.timeline.growth_factor.assign(n, 1.0);
  plan.timeline.rent_factor.assign(n, 1.0);
  plan.timeline.tariff_factor.assign(n, 1.0);
  for (size_t i = 0; i < plan.options.size(); ++i) {
    const OptionInputs& o = in.options[i];
    OptionResult& r = plan.options[i];
    r.cash_flow = hand_cash_flow(o, in.workload, in.site, in.finance);
    r.total_cost = 0;
    r.npv = 0;
    r.annual_costs.clear();
    for (size_t m = 0; m < r.cash_flow.total.size(); ++m) {
      r.total_cost += r.cash_flow.total[m];
      r.npv += r.cash_flow.discounted[m];
      const size_t year = m == 0 ? 0 : (m - 1) / 12;
      if (r.annual_costs.size() <= year) r.annual_costs.resize(year + 1, 0.0);
      r.annual_costs[year] += r.cash_flow.total[m];
    }
    r.profit_and_loss = profit_and_loss(o, r.cash_flow, in.finance);
    r.hours_per_month = hours_per_month;
    // No demand in tokens: each option serves its own decode rate during the hours of use; of
    // its total, the energy (owned, switched off when idle) or the hourly rent scales with the
    // hours of use, a monthly server's rent does not.
    r.tokens_served.assign(r.cash_flow.total.size(), 0.0);
    r.hours_scaled_cost.assign(r.cash_flow.total.size(), 0.0);
    for (size_t m = 1; m < r.cash_flow.total.size(); ++m) {
      r.tokens_served[m] = r.speed.aggregate_tokens_per_s * 3600.0 * in.workload.hours_per_day *
                           in.workload.days_per_month;
      r.hours_scaled_cost[m] = o.kind == OptionKind::buy           ? r.cash_flow.energy[m]
                               : o.kind == OptionKind::rent_hourly ? r.cash_flow.rent[m]
                                                                   : 0.0;
    }
    r.cost_per_year = r.total_cost / (in.finance.horizon_months / 12.0);
    r.power_at_load_w = o.count * o.device.board_power_w + o.host_power_w;
    r.energy_kwh_per_month = r.power_at_load_w / 1000.0 * hours_per_month * in.site.pue;
    r.tokens_per_month = r.speed.aggregate_tokens_per_s * 3600.0 * hours_per_month;
    r.cost_per_million_tokens =
        r.total_cost / (r.tokens_per_month * in.finance.horizon_months) * 1e6;
  }
  // Break-even of the owned option (0) against the hourly baseline (1), by the stated
  // formulas; the report only shows them.
  const OptionInputs& own = in.options[0];
  const OptionInputs& rent = in.options[1];
  const double capex = own.count * own.price_per_gpu + own.host_cost;
  const double fixed = capex * (1 - own.residual_fraction) +
                       capex * own.maintenance_per_year / 12 * in.finance.horizon_months;
  const double saving = rent.rate_per_gpu_hour * rent.count - plan.options[0].power_at_load_w /
                                                                  1000 * in.site.tariff_per_kwh *
                                                                  in.site.pue;
  plan.options[0].break_even_hours = fixed / saving;
  // The same hours spread over the days of use of the horizon.
  plan.options[0].break_even_hours_per_day =
      fixed / saving / (in.workload.days_per_month * in.finance.horizon_months);
  // Payback and IRR of the saving (rented - owned, month by month), by the engine's stated
  // rules (engine/money/metrics.hpp payback_months, engine/finance/finance.hpp
  // internal_rate_of_return).
  std::vector<double> monthly_saving(plan.options[0].cash_flow.total.size());
  for (size_t m = 0; m < monthly_saving.size(); ++m) {
    monthly_saving[m] = plan.options[1].cash_flow.total[m] - plan.options[0].cash_flow.total[m];
  }
  plan.options[0].payback_months = payback_months(monthly_saving);
  plan.options[0].irr.reset();
  plan.options[0].saving_sign_changes =
      saving_sign_changes(monthly_saving, plan.options[1].cash_flow.total);
  plan.options[0].cumulative_saving_sign_changes =
      cumulative_saving_sign_changes(monthly_saving, plan.options[1].cash_flow.cumulative);
  // No unique rate: make_plan's rule (Descartes, then Norstrom: the root above 0).
  const bool unique = irr_is_unique(plan.options[0].saving_sign_changes,
                                    plan.options[0].cumulative_saving_sign_changes);
  if (const auto monthly = internal_rate_of_return(
          monthly_saving, plan.options[0].saving_sign_changes > 1 ? 0.0 : kLowestIrrSearched);
      monthly && unique) {
    plan.options[0].irr = annual_from_monthly(*monthly);
  }
  plan.options[0].break_even_month.reset();
  const auto& own_cum = plan.options[0].cash_flow.cumulative;
  const auto& rent_cum = plan.options[1].cash_flow.cumulative;
  for (size_t m = 0; m < own_cum.size(); ++m) {
    if (own_cum[m] <= rent_cum[m]) {
      plan.options[0].break_even_month = static_cast<int>(m);
      break;
    }
  }
  size_t best = 0;
  for (size_t i = 1; i < plan.options.size(); ++i) {
    if (plan.options[i].npv < plan.options[best].npv) best = i;
  }
  plan.recommendation = plan.options[best].id;
  plan.recommendation_reason = "lowest NPV of cost among the options that hold the model";
}

SamplePlan sample_plan() {
  SamplePlan sample;
  ResolvedScenario& s = sample.scenario;
  s.file = "scenarios/examples/office-vs-cloud.ini";
  s.name = "Office RTX 3090 rig or cloud";
  s.customer = "Müller & Söhne GmbH";
  s.quote_id = "Q-2026-0042";
  s.start = "2027-01";
  s.as_of = "2026-11-15";
  s.max_price_age_days = 90;

  PlanInputs& in = s.plan_inputs;
  in.model.id = "llama-3.1-8b";
  in.model.name = "Llama 3.1 8B";
  in.quant.id = "Q4_K_M";
  in.quant.bits_per_weight = 4.89;
  in.workload.context_tokens = 8192;
  in.workload.concurrent_streams = 1;
  in.workload.hours_per_day = 10;
  in.workload.days_per_month = 730.0 / 24.0;
  in.site.tariff_per_kwh = 0.30;
  in.site.pue = 1.1;
  in.finance.horizon_months = 24;
  in.finance.discount_rate_per_year = 0.08;
  in.finance.currency = "EUR";

  OptionInputs own;
  own.id = "office-3090";
  own.kind = OptionKind::buy;
  own.device = device("rtx-3090", "GeForce RTX 3090", 24, 936, 350);
  own.count = 2;
  own.condition = Condition::used;
  own.price_per_gpu = 700;
  own.host_cost = 1200;
  own.host_power_w = 150;
  own.residual_fraction = 0.30;
  own.maintenance_per_year = 0.05;

  OptionInputs hourly;
  hourly.id = "runpod-h100";
  hourly.kind = OptionKind::rent_hourly;
  hourly.device = device("h100-sxm", "H100 SXM 80GB", 80, 3350, 700);
  hourly.count = 1;
  hourly.rate_per_gpu_hour = 2.39;

  OptionInputs monthly;
  monthly.id = "hetzner-gex44";
  monthly.kind = OptionKind::rent_monthly;
  monthly.device = device("rtx-4000-sff-ada", "RTX 4000 SFF Ada", 20, 280, 70);
  monthly.count = 1;
  monthly.price_per_month = 184;
  monthly.setup_fee = 79;
  in.options = {own, hourly, monthly};

  Plan& plan = sample.plan;
  plan.baseline_option_id = "runpod-h100";
  const double decode[] = {98.5, 182.0, 33.7};
  const double usable[] = {45.8, 78.9, 19.2};
  for (size_t i = 0; i < in.options.size(); ++i) {
    OptionResult r;
    r.id = in.options[i].id;
    r.kind = in.options[i].kind;
    r.fit.memory = {4.58, 1.0, 0.95, 6.53};
    r.fit.usable_gib = usable[i];
    r.fit.headroom_gib = usable[i] - 6.53;
    r.fit.verdict = Verdict::fits;
    r.devices_needed = 1;
    r.feasible = true;
    r.speed.decode_tokens_per_s = decode[i];
    r.speed.aggregate_tokens_per_s = decode[i];
    plan.options.push_back(r);
  }
  plan.options[0].note = "break-even against runpod-h100";
  recompute_money(sample);

  s.inputs = input_rows(s);
  SourceRow price;
  price.what = "rtx-3090 purchase (used)";
  price.amount = 700;
  price.currency = "EUR";
  price.unit = "per device";
  price.observed_on = "2026-10-02";
  price.source = "eBay sold listings, 30-day median";
  price.age_days = 44;
  SourceRow rate = price;
  rate.what = "RunPod 1x_H100 on_demand";
  rate.amount = 2.39;
  rate.unit = "per device-hour";
  rate.observed_on = "2026-11-01";
  rate.source = "https://www.runpod.io/pricing";
  rate.age_days = 14;
  SourceRow server = price;
  server.what = "Hetzner GEX44 monthly";
  server.amount = 184;
  server.unit = "per month";
  server.observed_on = "2026-06-20";
  server.source = "https://www.hetzner.com/dedicated-rootserver/gex44";
  server.age_days = 148;
  server.stale = true;
  s.sources = {price, rate, server};
  return sample;
}

SamplePlan engine_sample_plan() {
  SamplePlan sample = sample_plan();
  PlanInputs& in = sample.scenario.plan_inputs;
  // Llama 3.1 8B as pricing/data/models.csv gives it.
  in.model.params_b = 8.03;
  in.model.active_params_b = 8.03;
  in.model.layers = 32;
  in.model.hidden = 4096;
  in.model.heads = 32;
  in.model.kv_heads = 8;
  in.model.head_dim = 128;
  in.model.max_context = 131072;
  in.model.vocab_size = 128256;
  in.quant.kind = "mix";
  in.options[0].device.memory_type = "GDDR6X";
  in.options[1].device.kind = DeviceKind::datacenter;
  in.options[1].device.memory_type = "HBM3";
  in.options[2].device.kind = DeviceKind::workstation;
  in.options[2].device.memory_type = "GDDR6";
  sample.plan = make_plan(in);
  sample.scenario.inputs = input_rows(sample.scenario);
  return sample;
}

std::string fresh_dir(const std::string& name) {
  const std::filesystem::path dir = binary_path("test-scratch/reports/" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::vector<std::string> zip_members(const std::string& zip) {
  std::istringstream lines(capture("unzip -Z1 " + shell_quote(zip)));
  std::vector<std::string> members;
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty()) members.push_back(line);
  }
  return members;
}

std::string zip_member(const std::string& zip, const std::string& member) {
  // unzip reads member names as wildcards: "[Content_Types].xml" needs its brackets escaped.
  std::string literal;
  for (char c : member) {
    if (c == '[' || c == ']' || c == '*' || c == '?' || c == '\\') literal += '\\';
    literal += c;
  }
  return capture("unzip -p " + shell_quote(zip) + " " + shell_quote(literal));
}

std::map<std::string, std::string> sheet_parts(const std::string& xlsx) {
  const std::string workbook = zip_member(xlsx, "xl/workbook.xml");
  const std::string rels = zip_member(xlsx, "xl/_rels/workbook.xml.rels");
  std::map<std::string, std::string> targets;
  const std::regex rel(R"re(<Relationship Id="([^"]+)" Type="[^"]+" Target="([^"]+)"/>)re");
  for (std::sregex_iterator it(rels.begin(), rels.end(), rel), end; it != end; ++it) {
    targets[(*it)[1]] = "xl/" + (*it)[2].str();
  }
  std::map<std::string, std::string> parts;
  const std::regex sheet(R"re(<sheet name="([^"]+)" sheetId="\d+" r:id="([^"]+)"/>)re");
  for (std::sregex_iterator it(workbook.begin(), workbook.end(), sheet), end; it != end; ++it) {
    parts[(*it)[1]] = targets[(*it)[2]];
  }
  return parts;
}

std::pair<int, int> parse_ref(const std::string& ref) {
  int col = 0;
  int row = 0;
  for (char c : ref) {
    if (c == '$') continue;
    if (c >= 'A' && c <= 'Z') {
      col = col * 26 + (c - 'A' + 1);
    } else if (c >= '0' && c <= '9') {
      row = row * 10 + (c - '0');
    }
  }
  return {row - 1, col - 1};
}

namespace {
std::string xml_unescape(std::string text) {
  const std::pair<const char*, const char*> entities[] = {
      {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&apos;", "'"}, {"&amp;", "&"}};
  for (const auto& [from, to] : entities) {
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + 1)) {
      text.replace(at, std::strlen(from), to);
    }
  }
  return text;
}
}  // namespace

std::map<std::string, std::string> text_cells(const std::string& xlsx, const std::string& sheet) {
  std::vector<std::string> strings;
  const std::string shared = zip_member(xlsx, "xl/sharedStrings.xml");
  const std::regex si(R"re(<si>(.*?)</si>)re");
  const std::regex t(R"re(<t[^>]*>([^<]*)</t>)re");
  for (std::sregex_iterator it(shared.begin(), shared.end(), si), end; it != end; ++it) {
    const std::string item = (*it)[1];
    std::string text;
    for (std::sregex_iterator jt(item.begin(), item.end(), t); jt != end; ++jt) text += (*jt)[1];
    strings.push_back(xml_unescape(text));
  }
  std::map<std::string, std::string> out;
  const std::string xml = zip_member(xlsx, sheet_parts(xlsx).at(sheet));
  const std::regex cell(R"re(<c r="([A-Z]+[0-9]+)"[^>]*t="s"[^>]*><v>([0-9]+)</v></c>)re");
  for (std::sregex_iterator it(xml.begin(), xml.end(), cell), end; it != end; ++it) {
    out[(*it)[1]] = strings.at(std::stoul((*it)[2]));
  }
  return out;
}

std::map<std::string, double> plain_numbers(const std::string& xlsx, const std::string& sheet) {
  std::map<std::string, double> out;
  const std::string xml = zip_member(xlsx, sheet_parts(xlsx).at(sheet));
  const std::regex cell(R"re(<c r="([A-Z]+[0-9]+)"( s="[0-9]+")?><v>([^<]*)</v></c>)re");
  for (std::sregex_iterator it(xml.begin(), xml.end(), cell), end; it != end; ++it) {
    out[(*it)[1]] = std::stod((*it)[3]);
  }
  return out;
}

std::vector<FormulaCell> formula_cells(const std::string& xlsx) {
  std::vector<FormulaCell> cells;
  const std::regex cell(R"re(<c r="([A-Z]+[0-9]+)"([^>]*)><f>([^<]*)</f><v>([^<]*)</v></c>)re");
  for (const auto& [sheet, part] : sheet_parts(xlsx)) {
    const std::string xml = zip_member(xlsx, part);
    for (std::sregex_iterator it(xml.begin(), xml.end(), cell), end; it != end; ++it) {
      FormulaCell f;
      f.sheet = sheet;
      f.ref = (*it)[1];
      std::tie(f.row, f.col) = parse_ref(f.ref);
      f.formula = xml_unescape((*it)[3]);
      if ((*it)[2].str().find("t=\"str\"") != std::string::npos) {
        f.text_result = true;
        f.cached_text = xml_unescape((*it)[4]);
      } else {
        f.cached = std::stod((*it)[4]);
      }
      cells.push_back(f);
    }
  }
  return cells;
}

bool zip_available() {
  return std::system("command -v zip >/dev/null 2>&1 && command -v unzip >/dev/null 2>&1") == 0;
}

void copy_with_input(const std::string& xlsx, const std::string& name, double value,
                     const std::string& copy) {
  namespace fs = std::filesystem;
  const std::string workbook = zip_member(xlsx, "xl/workbook.xml");
  const std::regex defined("<definedName name=\"" + name +
                           "\">'?([^'!<]+)'?!\\$([A-Z]+)\\$([0-9]+)</definedName>");
  std::smatch match;
  if (!std::regex_search(workbook, match, defined)) {
    throw std::runtime_error("no defined name " + name + " in " + xlsx);
  }
  const std::string part = sheet_parts(xlsx).at(match[1]);
  const std::string ref = match[2].str() + match[3].str();
  std::string xml = zip_member(xlsx, part);
  const std::regex cell("(<c r=\"" + ref + "\"[^>]*><v>)([^<]*)(</v></c>)");
  if (!std::regex_search(xml, match, cell)) {
    throw std::runtime_error("no number in " + part + " " + ref);
  }
  char text[64];
  std::snprintf(text, sizeof text, "%.17g", value);
  xml = match.prefix().str() + match[1].str() + text + match[3].str() + match.suffix().str();

  // Rezip a copy: the edited member replaces the original (same name, same place).
  const fs::path dir = fs::path(copy).parent_path() / (fs::path(copy).stem().string() + "-parts");
  fs::remove_all(dir);
  fs::create_directories(dir / fs::path(part).parent_path());
  {
    std::ofstream out(dir / part, std::ios::binary);
    out << xml;
  }
  fs::copy_file(xlsx, copy, fs::copy_options::overwrite_existing);
  capture("cd " + shell_quote(dir.string()) + " && zip -q -X " +
          shell_quote(fs::absolute(copy).string()) + " " + shell_quote(part));
  fs::remove_all(dir);
}

Sensitivity sample_sensitivity(const SamplePlan& sample) {
  const Plan& plan = sample.plan;
  Sensitivity s;
  s.owned_option_id = plan.options.at(0).id;
  s.rented_option_id = plan.options.at(1).id;
  s.swing_fraction = 0.2;
  s.base_difference = plan.options[0].npv - plan.options[1].npv;
  const double base = s.base_difference;
  s.tornado = {
      {"hours per day", "hours_per_day", 8, 12, base + 2400.5, base - 2400.5},
      {"purchase price", "price_per_gpu", 560, 840, base - 280, base + 280},
      {"resale", "residual_fraction", 0.24, 0.36, base + 201.25, base - 201.25},
      {"tariff", "tariff_per_kwh", 0.24, 0.36, base - 150.75, base + 150.75},
      {"host cost", "host_cost", 960, 1440, base - 240, base + 240},
  };
  RiskResult risk;
  risk.draws = 10000;
  risk.seed = 20260101;
  risk.probability_buy_beats_rent = 0.8731;
  for (const auto& option : plan.options) {
    risk.options.push_back(
        {option.id, option.total_cost * 0.9, option.total_cost, option.total_cost * 1.125});
  }
  s.risk = risk;
  for (int h = 0; h <= 24; h += 2) {
    SweepPoint point;
    point.hours_per_day = h;
    for (const auto& option : plan.options) {
      // Fixed part plus a part proportional to the hours (hand-made, not a model).
      const double at_plan = option.total_cost;
      point.total_cost.push_back(
          option.kind == OptionKind::rent_monthly ? at_plan : at_plan * (0.35 + 0.65 * h / 10.0));
    }
    s.utilization_sweep.push_back(point);
  }
  return s;
}

SamplePlan api_carbon_sample_plan() {
  SamplePlan sample = engine_sample_plan();
  ResolvedScenario& s = sample.scenario;
  PlanInputs& in = s.plan_inputs;
  in.workload.tokens_per_day = 200000;
  in.workload.input_tokens_per_output_token = 3;
  in.workload.requests_per_day = 500;
  in.finance.api_price_trend_per_year = -0.2;
  in.site.grid_g_co2e_per_kwh = 350;
  in.options[0].powered_off_when_idle = false;
  in.options[0].idle_power_w = 100;
  in.options[1].pue = kDefaultDataCentrePue;
  in.options[1].carbon_unknown_reason =
      "unknown: the catalog has no grid carbon intensity for the provider's region 'xx'";
  in.options[2].grid_g_co2e_per_kwh = 380;
  in.options[2].idle_power_w = 7;
  OptionInputs api;
  api.id = "api-llama";
  api.kind = OptionKind::api;
  api.api_model = "llama-3.1-8b-instant";
  api.input_price_per_million = 0.5;
  api.output_price_per_million = 0.8;
  api.tokens_per_minute_limit = 100000;
  api.requests_per_minute_limit = 30;
  in.options.push_back(api);
  // Prepared as the resolver leaves them: the workbook's Inputs show each option's capacity.
  for (auto& o : in.options) o.capacity_tokens_per_hour = 0;
  prepare_plan_inputs(in);
  sample.plan = make_plan(in);
  s.inputs = input_rows(s);
  s.inputs.push_back(number_row("site", "grid_g_co2e_per_kwh", "Grid carbon intensity (nl)", 350,
                                "g CO2e/kWh",
                                "catalog: Ember yearly electricity data, observed 2026-06-30"));
  SourceRow carbon;
  carbon.what = "grid carbon nl (2025)";
  carbon.amount = 350;
  carbon.unit = "g CO2e per kWh, location-based";
  carbon.observed_on = "2026-06-30";
  carbon.source = "Ember yearly electricity data";
  carbon.age_days = 138;
  carbon.stale = true;
  s.sources.push_back(carbon);
  return sample;
}

std::vector<std::pair<std::string, SamplePlan>> example_plans() {
  std::vector<std::pair<std::string, SamplePlan>> plans;
  const Catalog catalog = Catalog::open_builtin();
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(source_path("scenarios/examples"))) {
    files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    SamplePlan sample;
    sample.scenario = resolve(load_scenario(file.string()), catalog);
    sample.plan = make_plan(sample.scenario.plan_inputs);
    plans.emplace_back(file.filename().string(), std::move(sample));
  }
  return plans;
}

CsvTable parse_csv(const std::string& text) {
  CsvTable table;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false;
  bool any = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
      continue;
    }
    if (c == '"') {
      quoted = true;
      any = true;
    } else if (c == ',') {
      row.push_back(field);
      field.clear();
      any = true;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      row.push_back(field);
      table.push_back(row);
      row.clear();
      field.clear();
      any = false;
    } else {
      field += c;
      any = true;
    }
  }
  if (any) {
    row.push_back(field);
    table.push_back(row);
  }
  return table;
}

std::string table_cell(const CsvTable& sheet, const std::string& header,
                       const std::string& row_key) {
  for (size_t r = 0; r < sheet.size(); ++r) {
    if (sheet[r].empty() || sheet[r][0] != "Option") continue;
    for (size_t c = 0; c < sheet[r].size(); ++c) {
      if (sheet[r][c] != header) continue;
      for (size_t k = r + 1; k < sheet.size() && !sheet[k].empty() && !sheet[k][0].empty(); ++k) {
        if (sheet[k][0] == row_key) return c < sheet[k].size() ? sheet[k][c] : "";
      }
      return "";
    }
  }
  return "";
}

std::string key_value(const CsvTable& sheet, const std::string& key) {
  for (const auto& row : sheet) {
    if (row.size() > 1 && row[0] == key) return row[1];
  }
  return "";
}

double csv_number(const std::string& field) {
  if (!field.empty() && field.back() == '%') {
    return csv_number(field.substr(0, field.size() - 1)) / 100;
  }
  try {
    size_t used = 0;
    const double value = std::stod(field, &used);
    return used == field.size() ? value : std::nan("");
  } catch (const std::exception&) {
    return std::nan("");
  }
}

bool soffice_available() {
  return std::system("command -v soffice >/dev/null 2>&1") == 0;
}

std::string convert_with_libreoffice(const std::vector<std::string>& workbooks,
                                     const std::string& work_dir) {
  namespace fs = std::filesystem;
  const fs::path profile = fs::path(work_dir) / "lo-profile";
  fs::create_directories(profile / "user");
  {
    // Always recalculate on load (0): the cached results must not be trusted.
    std::ofstream xcu(profile / "user" / "registrymodifications.xcu");
    xcu << R"(<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="ODFRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>
)";
  }
  const fs::path out = fs::path(work_dir) / "csv";
  fs::create_directories(out);
  // Tokens: comma, double quote, UTF-8, from line 1, no column formats, default language,
  // quoted as text: no, detect numbers: yes, save as shown: NO (raw values), formulas: no,
  // trim: no, sheet -1: every sheet to its own file "<name>-<Sheet>.csv".
  const std::string filter =
      "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1";
  // Whether a book has a sheet among the CSV files (named "<stem>-<sheet>.csv").
  const auto converted_books = [&] {
    std::set<std::string> names;
    for (const auto& entry : fs::directory_iterator(out)) {
      if (entry.path().extension() == ".csv") names.insert(entry.path().filename().string());
    }
    return names;
  };
  const auto converted = [](const std::set<std::string>& names, const std::string& book) {
    const std::string stem = fs::path(book).stem().string() + "-";
    const auto it = names.lower_bound(stem);
    return it != names.end() && it->rfind(stem, 0) == 0;
  };
  // A long batch may end early with status 0, the rest of its books not converted (seen
  // after 162 of 380): the books left are run again, while each run converts some.
  std::vector<std::string> left = workbooks;
  for (int run = 0; !left.empty(); ++run) {
    const std::string log = work_dir + "/soffice" + (run == 0 ? "" : std::to_string(run)) + ".log";
    std::string command = "cd " + shell_quote(work_dir) + " && HOME=" + shell_quote(work_dir) +
                          " timeout 1200 soffice -env:UserInstallation=file://" +
                          fs::absolute(profile).string() +
                          " --headless --norestore --nolockcheck --convert-to " +
                          shell_quote(filter) + " --outdir " + shell_quote(out.string());
    for (const auto& book : left) command += " " + shell_quote(book);
    command += " >" + shell_quote(log) + " 2>&1";
    if (std::system(command.c_str()) != 0) {
      throw std::runtime_error("soffice failed: " + read_bytes(log));
    }
    const std::set<std::string> names = converted_books();
    std::vector<std::string> still;
    for (const auto& book : left) {
      if (!converted(names, book)) still.push_back(book);
    }
    if (still.size() == left.size()) break;  // no progress: the callers report what is missing
    left = std::move(still);
  }
  return out.string();
}

std::map<std::string, CsvTable> read_recalculated(const std::string& csv_dir,
                                                  const std::string& workbook) {
  namespace fs = std::filesystem;
  std::map<std::string, CsvTable> sheets;
  const std::string stem = fs::path(workbook).stem().string() + "-";
  for (const auto& entry : fs::directory_iterator(csv_dir)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(stem, 0) != 0 || entry.path().extension() != ".csv") continue;
    const std::string sheet = name.substr(stem.size(), name.size() - stem.size() - 4);
    sheets[sheet] = parse_csv(read_bytes(entry.path().string()));
  }
  return sheets;
}

std::map<std::string, std::map<std::string, CsvTable>> recalculate_with_libreoffice(
    const std::vector<std::string>& workbooks, const std::string& work_dir) {
  const std::string out = convert_with_libreoffice(workbooks, work_dir);
  std::map<std::string, std::map<std::string, CsvTable>> result;
  for (const auto& book : workbooks) result[book] = read_recalculated(out, book);
  return result;
}

}  // namespace gputco::test
