// sprig's now / date (Go reference-time layouts, UTC) and RE2 regex functions.

#include <chrono>
#include <ctime>
#include <stdexcept>

#include <fmt/format.h>

#include "tmpl/go_template_ast.hpp"

namespace ganglion::dsl::tmpl {

namespace {

using args_t = std::vector<value>;

constexpr const char* months[] = {"January", "February", "March",     "April",
                                  "May",     "June",     "July",      "August",
                                  "September", "October", "November", "December"};
constexpr const char* days[] = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                "Thursday", "Friday", "Saturday"};

bool starts(std::string_view s, std::size_t i, std::string_view what) {
  return s.substr(i, what.size()) == what;
}

// time.Time.Format in UTC for the reference layout `Mon Jan 2 15:04:05 MST 2006`.
std::string format_layout(std::string_view layout, std::int64_t nanos) {
  std::int64_t secs = nanos / 1000000000;
  std::int64_t frac = nanos % 1000000000;
  if (frac < 0) {
    frac += 1000000000;
    --secs;
  }
  std::time_t t = static_cast<std::time_t>(secs);
  std::tm tm{};
  gmtime_r(&t, &tm);
  int hour12 = tm.tm_hour % 12 == 0 ? 12 : tm.tm_hour % 12;
  std::string out;
  for (std::size_t i = 0; i < layout.size();) {
    auto emit = [&](std::size_t n, std::string s) {
      out += s;
      i += n;
    };
    char c = layout[i];
    if (starts(layout, i, "January")) emit(7, months[tm.tm_mon]);
    else if (starts(layout, i, "Jan")) emit(3, std::string(months[tm.tm_mon], 3));
    else if (starts(layout, i, "Monday")) emit(6, days[tm.tm_wday]);
    else if (starts(layout, i, "Mon")) emit(3, std::string(days[tm.tm_wday], 3));
    else if (starts(layout, i, "MST")) emit(3, "UTC");
    else if (starts(layout, i, "2006")) emit(4, fmt::format("{:04}", tm.tm_year + 1900));
    else if (starts(layout, i, "002")) emit(3, fmt::format("{:03}", tm.tm_yday + 1));
    else if (c == '0' && i + 1 < layout.size() && layout[i + 1] >= '1' && layout[i + 1] <= '6') {
      int values[] = {tm.tm_mon + 1, tm.tm_mday, hour12, tm.tm_min, tm.tm_sec, tm.tm_year % 100};
      emit(2, fmt::format("{:02}", values[layout[i + 1] - '1']));
    } else if (starts(layout, i, "15")) emit(2, fmt::format("{:02}", tm.tm_hour));
    else if (c == '1') emit(1, std::to_string(tm.tm_mon + 1));
    else if (c == '2') emit(1, std::to_string(tm.tm_mday));
    else if (starts(layout, i, "__2")) emit(3, fmt::format("{:>3}", tm.tm_yday + 1));
    else if (starts(layout, i, "_2") && !starts(layout, i + 1, "2006"))
      emit(2, fmt::format("{:>2}", tm.tm_mday));
    else if (c == '3') emit(1, std::to_string(hour12));
    else if (c == '4') emit(1, std::to_string(tm.tm_min));
    else if (c == '5') emit(1, std::to_string(tm.tm_sec));
    else if (starts(layout, i, "PM")) emit(2, tm.tm_hour >= 12 ? "PM" : "AM");
    else if (starts(layout, i, "pm")) emit(2, tm.tm_hour >= 12 ? "pm" : "am");
    else if (starts(layout, i, "-07:00:00")) emit(9, "+00:00:00");
    else if (starts(layout, i, "-070000")) emit(7, "+000000");
    else if (starts(layout, i, "-07:00")) emit(6, "+00:00");
    else if (starts(layout, i, "-0700")) emit(5, "+0000");
    else if (starts(layout, i, "-07")) emit(3, "+00");
    else if (starts(layout, i, "Z07:00:00")) emit(9, "Z");
    else if (starts(layout, i, "Z070000")) emit(7, "Z");
    else if (starts(layout, i, "Z07:00")) emit(6, "Z");
    else if (starts(layout, i, "Z0700")) emit(5, "Z");
    else if (starts(layout, i, "Z07")) emit(3, "Z");
    else if ((c == '.' || c == ',') && i + 1 < layout.size() &&
             (layout[i + 1] == '0' || layout[i + 1] == '9')) {
      char digit = layout[i + 1];
      std::size_t j = i + 1;
      while (j < layout.size() && layout[j] == digit)
        ++j;
      std::size_t n = std::min<std::size_t>(j - i - 1, 9);
      if (j < layout.size() && layout[j] >= '0' && layout[j] <= '9') {
        emit(1, std::string(1, c));
        continue;
      }
      std::string digits = fmt::format("{:09}", frac).substr(0, n);
      if (digit == '9') {
        while (!digits.empty() && digits.back() == '0')
          digits.pop_back();
        emit(j - i, digits.empty() ? "" : std::string(1, c) + digits);
      } else {
        emit(j - i, std::string(1, c) + digits);
      }
    } else {
      emit(1, std::string(1, c));
    }
  }
  return out;
}

std::int64_t now_nanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
           std::chrono::system_clock::now().time_since_epoch())
    .count();
}

value fn_now(const call_context&, args_t&) {
  return make_time(now_nanos());
}

value fn_date(const call_context&, args_t& a) {
  std::string layout = arg_string(a[0], "date");
  const value& d = a[1];
  std::int64_t nanos = now_nanos();
  if (is_time(d))
    nanos = time_nanos(d);
  else if (d.is_number_integer())
    nanos = d.get<std::int64_t>() * 1000000000;
  return format_layout(layout, nanos);
}

// The compiled pattern: the one cached at parse time, else compiled now into `holder`.
const RE2* pattern(const call_context& ctx, const std::string& source,
                   std::unique_ptr<RE2>& holder) {
  if (ctx.regex && ctx.regex->pattern() == source)
    return ctx.regex;
  RE2::Options options;
  options.set_log_errors(false);
  holder = std::make_unique<RE2>(source, options);
  return holder->ok() ? holder.get() : nullptr;
}

const RE2& must_compile(const call_context& ctx, const std::string& source,
                        std::unique_ptr<RE2>& holder) {
  const RE2* re = pattern(ctx, source, holder);
  if (!re)
    throw std::runtime_error(
      fmt::format("regexp: Compile(`{}`): error parsing regexp: {}", source, holder->error()));
  return *re;
}

value fn_regex_match(const call_context& ctx, args_t& a) {
  std::unique_ptr<RE2> holder;
  const RE2* re = pattern(ctx, arg_string(a[0], "regexMatch"), holder);
  return re != nullptr && RE2::PartialMatch(arg_string(a[1], "regexMatch"), *re);
}

value fn_regex_find(const call_context& ctx, args_t& a) {
  std::unique_ptr<RE2> holder;
  const RE2& re = must_compile(ctx, arg_string(a[0], "regexFind"), holder);
  std::string s = arg_string(a[1], "regexFind");
  re2::StringPiece match;
  if (!re.Match(s, 0, s.size(), RE2::UNANCHORED, &match, 1))
    return "";
  return std::string(match.data(), match.size());
}

// regexp.Expand of a `$1` / `${name}` template for one match.
void expand(std::string& out, std::string_view repl, const RE2& re,
            const std::vector<re2::StringPiece>& groups) {
  for (std::size_t i = 0; i < repl.size(); ++i) {
    if (repl[i] != '$' || i + 1 >= repl.size()) {
      out += repl[i];
      continue;
    }
    if (repl[i + 1] == '$') {
      out += '$';
      ++i;
      continue;
    }
    bool brace = repl[i + 1] == '{';
    std::size_t start = i + (brace ? 2 : 1);
    std::size_t end = start;
    while (end < repl.size() && (std::isalnum(static_cast<unsigned char>(repl[end])) ||
                                 repl[end] == '_'))
      ++end;
    if (end == start || (brace && (end >= repl.size() || repl[end] != '}'))) {
      out += '$';
      continue;
    }
    std::string name(repl.substr(start, end - start));
    int index = -1;
    if (name.find_first_not_of("0123456789") == std::string::npos) {
      index = name.size() < 9 ? std::stoi(name) : -1;
    } else {
      auto named = re.NamedCapturingGroups();
      auto it = named.find(name);
      if (it != named.end())
        index = it->second;
    }
    if (index >= 0 && static_cast<std::size_t>(index) < groups.size() && groups[index].data())
      out.append(groups[index].data(), groups[index].size());
    i = brace ? end : end - 1;
  }
}

value fn_regex_replace_all(const call_context& ctx, args_t& a) {
  std::unique_ptr<RE2> holder;
  const RE2& re = must_compile(ctx, arg_string(a[0], "regexReplaceAll"), holder);
  std::string s = arg_string(a[1], "regexReplaceAll");
  std::string repl = arg_string(a[2], "regexReplaceAll");
  std::vector<re2::StringPiece> groups(static_cast<std::size_t>(re.NumberOfCapturingGroups()) + 1);
  std::string out;
  std::size_t search = 0, last_end = 0;
  while (search <= s.size()) {
    if (!re.Match(s, search, s.size(), RE2::UNANCHORED, groups.data(),
                  static_cast<int>(groups.size())))
      break;
    auto begin = static_cast<std::size_t>(groups[0].data() - s.data());
    auto end = begin + groups[0].size();
    out.append(s, last_end, begin - last_end);
    if (end > last_end || begin == 0)
      expand(out, repl, re, groups);
    last_end = end;
    std::size_t width = 1;
    if (search < s.size()) {
      auto c = static_cast<unsigned char>(s[search]);
      width = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    }
    search = search + width > end ? search + width : end;
  }
  if (last_end < s.size())
    out.append(s, last_end);
  return out;
}

} // namespace

bool takes_pattern(std::string_view name) {
  return name == "regexMatch" || name == "regexFind" || name == "regexReplaceAll";
}

void add_time_regex_functions(std::vector<function>& out) {
  out.insert(out.end(), {
                          {"now", fn_now, 0, 0},
                          {"date", fn_date, 2, 2},
                          {"regexMatch", fn_regex_match, 2, 2},
                          {"regexFind", fn_regex_find, 2, 2},
                          {"regexReplaceAll", fn_regex_replace_all, 3, 3},
                        });
}

} // namespace ganglion::dsl::tmpl
