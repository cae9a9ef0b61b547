#include "reports/diff_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <nlohmann/json.hpp>
#include <vector>

#include "pricing/visible_text.hpp"
#include "reports/text_report.hpp"

namespace gputco {
namespace {

std::string change_word(Change change) {
  switch (change) {
    case Change::unchanged:
      return "unchanged";
    case Change::changed:
      return "changed";
    case Change::added:
      return "added";
    case Change::removed:
      return "removed";
  }
  return "";
}

char change_mark(Change change) {
  switch (change) {
    case Change::unchanged:
      return '=';
    case Change::changed:
      return '~';
    case Change::added:
      return '+';
    case Change::removed:
      return '-';
  }
  return ' ';
}

/// A whole amount with thousands separators: "6,069", "-1,020"; "-" when absent.
std::string money(const std::optional<double>& amount) {
  return amount ? grouped_money_text(*amount) : "-";
}

/// "+1,051 (+17.3 %)", "-240 (-1.2 %)", "0"; "" when either side is absent.
std::string change_text(const FigureChange& figure) {
  const auto delta = figure.delta();
  if (!delta) return "";
  if (!std::isfinite(*delta)) return "n/a";
  if (std::round(*delta) == 0) return "0";
  std::string text = (*delta > 0 ? "+" : "") + money(delta);
  if (const auto relative = figure.relative()) {
    text += fmt::format(" ({:+.1f} %)", *relative * 100);
  }
  return text;
}

/// "6,069 -> 7,120" or "6,069" when unchanged.
std::string before_after(const FigureChange& figure, Change change) {
  if (change == Change::unchanged) return money(figure.after);
  return money(figure.before) + " -> " + money(figure.after);
}

/// An input's value as written: the number (shortest form) or the text; "-" when absent.
std::string input_value(const std::optional<SnapshotInput>& input) {
  if (!input) return "-";
  if (input->value) return fmt::format("{}", *input->value);
  return input->text.empty() ? "\"\"" : input->text;
}

std::string section_name(const std::string& section) {
  if (section == "scenario" || section == "workload" || section == "site" || section == "seller") {
    return "[" + section + "]";
  }
  return "[option:" + section + "]";
}

/// "Used rig -> H100 by the hour (changed)"; `shown` writes each label (as it is, or
/// escaped for Markdown).
std::string recommendation_text(const PlanDiff& diff, const char* arrow,
                                std::string (*shown)(const std::string&)) {
  const auto name = [&](const std::optional<std::string>& id) {
    return id ? shown(diff.label_of(*id)) : std::string("none");
  };
  if (!diff.recommendation_changed()) return name(diff.recommendation_after) + " (unchanged)";
  return name(diff.recommendation_before) + " " + arrow + " " + name(diff.recommendation_after) +
         " (changed)";
}

std::string as_is(const std::string& text) {
  return text;
}

std::string plan_line(const PlanSnapshot& plan) {
  return fmt::format("{}  \"{}\" ({}, {} months, prices as of {})", plan.source, plan.name,
                     plan.currency, plan.horizon_months, plan.as_of);
}

}  // namespace

std::vector<std::string> comparability_warnings(const PlanDiff& diff) {
  const PlanSnapshot& a = diff.before_plan;
  const PlanSnapshot& b = diff.after_plan;
  std::vector<std::string> warnings;
  if (a.horizon_months != b.horizon_months) {
    warnings.push_back(fmt::format(
        "the horizons differ ({} -> {} months): totals cover different periods, so a change "
        "of the total is partly the months added or removed; compare the cost per year",
        a.horizon_months, b.horizon_months));
  }
  if (!a.start.empty() && !b.start.empty() && a.start != b.start) {
    warnings.push_back("the first months differ (" + a.start + " -> " + b.start +
                       "): price trends and discounting start at different dates");
  }
  return warnings;
}

std::string diff_text(const PlanDiff& diff) {
  std::string out = "gputco diff\n";
  out += "  old: " + plan_line(diff.before_plan) + "\n";
  out += "  new: " + plan_line(diff.after_plan) + "\n";
  for (const std::string& warning : comparability_warnings(diff)) {
    out += "warning: " + warning + "\n";
  }
  out += "\n";
  out += "Recommendation: " + recommendation_text(diff, "->", as_is) + "\n\n";

  size_t name_width = 6;
  for (const OptionChange& option : diff.options) {
    name_width = std::max(name_width, option.label.size());
  }
  std::vector<std::array<std::string, 4>> rows;
  size_t widths[4] = {0, 0, 0, 0};
  for (const OptionChange& option : diff.options) {
    rows.push_back({before_after(option.total_cost, option.change), change_text(option.total_cost),
                    before_after(option.npv, option.change), change_text(option.npv)});
    for (size_t c = 0; c < 4; ++c) widths[c] = std::max(widths[c], rows.back()[c].size());
  }
  const std::string total_header = "total cost, " + diff.after_plan.currency;
  const std::string npv_header = "NPV of cost, " + diff.after_plan.currency;
  widths[0] = std::max(widths[0], total_header.size());
  widths[2] = std::max(widths[2], npv_header.size());
  std::string header = fmt::format("  {:<{}}  {:>{}}  {:<{}}  {:>{}}", "option", name_width + 2,
                                   total_header, widths[0], "", widths[1], npv_header, widths[2]);
  while (!header.empty() && header.back() == ' ') header.pop_back();
  out += header + "\n";
  for (size_t i = 0; i < diff.options.size(); ++i) {
    const OptionChange& option = diff.options[i];
    const auto& row = rows[i];
    std::string line = fmt::format(
        "  {} {:<{}}  {:>{}}  {:<{}}  {:>{}}  {:<{}}", change_mark(option.change), option.label,
        name_width, row[0], widths[0], row[1], widths[1], row[2], widths[2], row[3], widths[3]);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  out += "  (~ changed, + added, - removed, = unchanged; amounts over the horizon)\n\n";

  size_t changed = 0, added = 0, removed = 0;
  for (const InputChange& input : diff.inputs) {
    changed += input.change == Change::changed ? 1 : 0;
    added += input.change == Change::added ? 1 : 0;
    removed += input.change == Change::removed ? 1 : 0;
  }
  out += fmt::format("Inputs: {} changed, {} added, {} removed\n", changed, added, removed);
  for (const InputChange& input : diff.inputs) {
    out +=
        fmt::format("  {} {} {} ({}): {} -> {}{}\n", change_mark(input.change),
                    section_name(input.section), input.key, input.label, input_value(input.before),
                    input_value(input.after), input.unit.empty() ? "" : " " + input.unit);
  }
  return out;
}

std::string diff_json(const PlanDiff& diff) {
  using ordered = nlohmann::ordered_json;
  const auto number = [](const std::optional<double>& x) {
    return x && std::isfinite(*x) ? ordered(*x) : ordered(nullptr);
  };
  const auto plan = [&](const PlanSnapshot& p) {
    return ordered{
        {"source", p.source},
        {"scenario", p.name},
        {"currency", p.currency},
        {"horizon_months", p.horizon_months},
        {"as_of", p.as_of},
        {"start", p.start.empty() ? ordered(nullptr) : ordered(p.start)},
        {"recommendation", p.recommendation ? ordered(*p.recommendation) : ordered(nullptr)}};
  };
  const auto figure = [&](const FigureChange& f) {
    return ordered{{"old", number(f.before)},
                   {"new", number(f.after)},
                   {"delta", number(f.delta())},
                   {"relative", number(f.relative())}};
  };
  const auto value = [&](const std::optional<SnapshotInput>& input) {
    if (!input) return ordered(nullptr);
    return input->value ? number(input->value) : ordered(input->text);
  };
  ordered j;
  j["old"] = plan(diff.before_plan);
  j["new"] = plan(diff.after_plan);
  j["warnings"] = comparability_warnings(diff);
  j["recommendation"] = {
      {"old", diff.recommendation_before ? ordered(*diff.recommendation_before) : ordered(nullptr)},
      {"new", diff.recommendation_after ? ordered(*diff.recommendation_after) : ordered(nullptr)},
      {"changed", diff.recommendation_changed()}};
  ordered options = ordered::array();
  for (const OptionChange& option : diff.options) {
    options.push_back({{"change", change_word(option.change)},
                       {"id", option.id},
                       {"label", option.label},
                       {"total_cost", figure(option.total_cost)},
                       {"npv", figure(option.npv)},
                       {"cost_per_million_tokens", figure(option.cost_per_million_tokens)}});
  }
  j["options"] = std::move(options);
  ordered inputs = ordered::array();
  for (const InputChange& input : diff.inputs) {
    inputs.push_back({{"change", change_word(input.change)},
                      {"section", input.section},
                      {"key", input.key},
                      {"label", input.label},
                      {"unit", input.unit},
                      {"old", value(input.before)},
                      {"new", value(input.after)}});
  }
  j["inputs"] = std::move(inputs);
  return j.dump(2) + "\n";
}

namespace {

/// Text from a scenario or a plan (a name, a label, a value) as Markdown that renders as that
/// text and nothing else (CommonMark 0.30 section 2.4, backslash escapes; GitHub's tables):
/// '<', '>' and '&' as character references, so that no HTML (<script>, <img onerror>) and
/// no autolink reaches the page; the punctuation that opens links and images ('[', ']'),
/// emphasis ('*', '_'), code ('`'), strikethrough ('~'), a backslash and the table's '|'
/// escaped with a backslash, so that [x](javascript:...) is no link; control characters shown as
/// escapes (visible_text), line breaks as spaces (a table row is one line).
std::string cell(const std::string& text) {
  std::string out;
  for (const char c : visible_text(text)) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '\\':
      case '`':
      case '*':
      case '_':
      case '[':
      case ']':
      case '|':
      case '~':
        out += '\\';
        out += c;
        break;
      default:
        out += c;
    }
  }
  return out;
}

/// `text` as an inline code span: delimited by one backtick more than its longest run of
/// backticks, padded with a space where it starts or ends with one (CommonMark 6.1), so no
/// text can close it early; a code span shows '<' and '&' as they are. Control characters
/// as escapes.
std::string code_span(const std::string& text) {
  const std::string shown = visible_text(text);
  std::size_t longest = 0;
  for (std::size_t i = 0; i < shown.size();) {
    std::size_t run = 0;
    while (i + run < shown.size() && shown[i + run] == '`') ++run;
    longest = std::max(longest, run);
    i += run > 0 ? run : 1;
  }
  const std::string fence(longest + 1, '`');
  const bool pad = !shown.empty() && (shown.front() == '`' || shown.back() == '`');
  std::string body;
  for (const char c : shown) body += c == '|' ? std::string("\\|") : std::string(1, c);
  return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

}  // namespace

std::string diff_markdown(const PlanDiff& diff) {
  const std::string& currency = diff.after_plan.currency;
  std::string out = "### gputco diff: " + cell(diff.before_plan.name) +
                    (diff.before_plan.name == diff.after_plan.name
                         ? std::string()
                         : " \xE2\x86\x92 " + cell(diff.after_plan.name)) +
                    "\n\n";
  out += code_span(diff.before_plan.source) + " \xE2\x86\x92 " + code_span(diff.after_plan.source) +
         " (" + cell(currency) + ", " + std::to_string(diff.after_plan.horizon_months) +
         " months, prices as of " + cell(diff.after_plan.as_of) + ")\n\n";
  for (const std::string& warning : comparability_warnings(diff)) {
    out += "> **Warning:** " + cell(warning) + "\n\n";
  }
  out += "**Recommendation:** " + recommendation_text(diff, "\xE2\x86\x92", cell) + "\n\n";
  out += "| | Option | Total cost, " + cell(currency) + " | Change | NPV of cost, " +
         cell(currency) + " | Change |\n|---|---|---:|---:|---:|---:|\n";
  const auto arrows = [](std::string text) {
    for (size_t at = text.find(" -> "); at != std::string::npos; at = text.find(" -> ", at)) {
      text.replace(at, 4, " \xE2\x86\x92 ");
    }
    return text;
  };
  for (const OptionChange& option : diff.options) {
    out += fmt::format("| {} | {} | {} | {} | {} | {} |\n", change_word(option.change),
                       cell(option.label), arrows(before_after(option.total_cost, option.change)),
                       change_text(option.total_cost),
                       arrows(before_after(option.npv, option.change)), change_text(option.npv));
  }
  out += "\n";
  if (diff.inputs.empty()) {
    out += "No input changed.\n";
    return out;
  }
  out += fmt::format("<details><summary>Inputs that changed: {}</summary>\n\n", diff.inputs.size());
  out += "| | Input | Old | New | Unit |\n|---|---|---:|---:|---|\n";
  for (const InputChange& input : diff.inputs) {
    out += fmt::format("| {} | {} {} | {} | {} | {} |\n", change_word(input.change),
                       code_span(section_name(input.section) + " " + input.key), cell(input.label),
                       cell(input_value(input.before)), cell(input_value(input.after)),
                       cell(input.unit));
  }
  out += "\n</details>\n";
  return out;
}

}  // namespace gputco
