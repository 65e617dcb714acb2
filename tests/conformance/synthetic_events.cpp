#include "synthetic_events.hpp"

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <regex>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace ganglion::test::corpus {

namespace {

using json = nlohmann::json;

constexpr std::size_t max_candidates = 600;

bool is_index(const std::string& segment) {
  return !segment.empty() && segment.find_first_not_of("0123456789") == std::string::npos;
}

/// Sets the gjson-like `path` (`a.b.0.c`; a number indexes an array) of `data` to `value`,
/// making the objects and arrays on the way.
void set_path(json& data, const std::string& path, const json& value) {
  json* at = &data;
  std::size_t begin = 0;
  while (true) {
    auto end = path.find('.', begin);
    auto segment = path.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
    json* next = nullptr;
    if (is_index(segment)) {
      if (!at->is_array())
        *at = json::array();
      auto i = std::strtoul(segment.c_str(), nullptr, 10);
      while (at->size() <= i)
        at->push_back(json::object());
      next = &(*at)[i];
    } else {
      if (!at->is_object())
        *at = json::object();
      next = &(*at)[segment];
    }
    if (end == std::string::npos) {
      *next = value;
      return;
    }
    at = next;
    begin = end + 1;
  }
}

/// The paths of `dep`'s data that the triggers of `sensor` read (dataKey, `.Input.x` of a
/// dataTemplate), without a default value to fall back on.
std::set<std::string> read_paths(const dsl::sensor& sensor, const std::string& dep) {
  static const std::regex input{R"(\.Input\.([A-Za-z0-9_.\-]+))"};
  std::set<std::string> out;
  auto add = [&](const std::vector<dsl::trigger_parameter>& parameters) {
    for (const auto& p : parameters) {
      if (p.src.dependency_name != dep)
        continue;
      if (!p.src.data_key.empty())
        out.insert(p.src.data_key);
      const auto& text = p.src.data_template;
      for (auto it = std::sregex_iterator(text.begin(), text.end(), input);
           it != std::sregex_iterator(); ++it)
        out.insert((*it)[1].str());
    }
  };
  for (const auto& t : sensor.spec.triggers) {
    add(t.parameters);
    for (const auto& a : t.template_.actions) {
      add(a.parameters);
      add(a.payload);
    }
  }
  return out;
}

/// A value that passes data filter `f`.
json passing_value(const dsl::data_filter& f) {
  const auto& first = f.value.empty() ? std::string{} : f.value.front();
  if (f.type == "bool")
    return first == "true";
  if (f.type == "number") {
    double v = std::strtod(first.c_str(), nullptr);
    if (f.comparator == ">" || f.comparator == "!=")
      return v + 1;
    if (f.comparator == "<")
      return v - 1;
    return v;
  }
  return first;
}

/// The literals of an expr: its strings, numbers (and each plus one), true and false.
std::vector<json> literals_of(const std::string& expr) {
  static const std::regex text{R"("([^"]*)\")"};
  static const std::regex number{R"((^|[^A-Za-z_\-])(-?[0-9]+(\.[0-9]+)?))"};
  std::vector<json> out;
  for (auto it = std::sregex_iterator(expr.begin(), expr.end(), text); it != std::sregex_iterator();
       ++it)
    out.emplace_back((*it)[1].str());
  for (auto it = std::sregex_iterator(expr.begin(), expr.end(), number);
       it != std::sregex_iterator(); ++it) {
    double v = std::strtod((*it)[2].str().c_str(), nullptr);
    out.emplace_back(v);
    out.emplace_back(v + 1);
  }
  out.emplace_back(false);
  out.emplace_back(true);
  return out;
}

/// `today HH:45:00Z` for every hour.
std::vector<std::string> hourly_times() {
  auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm day{};
  gmtime_r(&now, &day);
  std::vector<std::string> out;
  for (int h = 0; h < 24; ++h)
    out.push_back(fmt::format("{:04}-{:02}-{:02}T{:02}:45:00Z", day.tm_year + 1900, day.tm_mon + 1,
                              day.tm_mday, h));
  return out;
}

} // namespace

std::vector<core::event> candidate_events(const dsl::sensor& sensor,
                                          const dsl::event_dependency& dep,
                                          const std::map<std::string, std::string>& fixed) {
  json base = json::object();
  for (const auto& path : read_paths(sensor, dep.name))
    set_path(base, path, "conformance");
  for (const auto& [path, value] : fixed)
    set_path(base, path, value);
  if (const auto& t = dep.transform) {
    // The paths a transform reads or writes hold a string (a jq `*=` repeats it), inside
    // objects.
    static const std::regex script_path{R"(event\.([A-Za-z0-9_.\-]+))"};
    static const std::regex jq_path{R"((^|[\s(|=])\.([A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*))"};
    for (auto it = std::sregex_iterator(t->script.begin(), t->script.end(), script_path);
         it != std::sregex_iterator(); ++it)
      set_path(base, (*it)[1].str(), "conformance");
    for (auto it = std::sregex_iterator(t->jq.begin(), t->jq.end(), jq_path);
         it != std::sregex_iterator(); ++it)
      set_path(base, (*it)[2].str(), "conformance");
  }
  core::event proto;
  proto.source = dep.event_source_name;
  proto.subject = dep.event_name;
  proto.type = "webhook";
  proto.datacontenttype = "application/json";
  proto.specversion = "1.0";
  proto.time = core::now_rfc3339();
  std::vector<std::vector<std::pair<std::string, json>>> choices; // per expr field path
  std::vector<std::string> times{proto.time};
  if (const auto& f = dep.filters) {
    for (const auto& d : f->data)
      set_path(base, d.path, passing_value(d));
    static const std::regex compare{R"(event\.([A-Za-z0-9_.\-]+)\s*==\s*"([^"]*)\")"};
    for (auto it = std::sregex_iterator(f->script.begin(), f->script.end(), compare);
         it != std::sregex_iterator(); ++it)
      set_path(base, (*it)[1].str(), (*it)[2].str());
    if (f->context) {
      if (!f->context->type.empty())
        proto.type = f->context->type;
      if (!f->context->datacontenttype.empty())
        proto.datacontenttype = f->context->datacontenttype;
    }
    if (f->time)
      times = hourly_times();
    std::set<std::string> seen;
    for (const auto& e : f->exprs) {
      auto literals = literals_of(e.expr);
      for (const auto& field : e.fields) {
        if (!seen.insert(field.path).second)
          continue;
        std::vector<std::pair<std::string, json>> options;
        for (const auto& l : literals)
          options.emplace_back(field.path, l);
        choices.push_back(std::move(options));
      }
    }
  }
  std::vector<json> datas{base};
  for (const auto& options : choices) {
    std::vector<json> next;
    for (const auto& d : datas)
      for (const auto& [path, value] : options) {
        if (next.size() >= max_candidates)
          break;
        auto copy = d;
        set_path(copy, path, value);
        next.push_back(std::move(copy));
      }
    datas = std::move(next);
  }
  std::vector<core::event> out;
  for (const auto& time : times)
    for (const auto& d : datas) {
      if (out.size() >= max_candidates)
        return out;
      auto e = proto;
      e.id = core::new_event_id();
      e.time = time;
      e.data = d.dump();
      out.push_back(std::move(e));
    }
  return out;
}

} // namespace ganglion::test::corpus
