#include "ganglion/dsl/params/trigger_parameters.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace ganglion::dsl {

namespace {

bool is_json_content(std::string_view type) {
  return type.empty() || type.find("json") != std::string_view::npos;
}

/// `object[key]` as a string: absent or null leave `out` as it is; another type throws.
void read_string(simdjson::dom::object object, std::string_view key, const std::string& where,
                 std::string& out) {
  simdjson::dom::element value;
  if (object.at_key(key).get(value) || value.is_null())
    return;
  std::string_view text;
  if (value.get(text))
    throw std::runtime_error(fmt::format("{}.{}: not a string", where, key));
  out = text;
}

trigger_parameter read_parameter(simdjson::dom::element item, const std::string& where) {
  simdjson::dom::object object;
  if (item.get(object))
    throw std::runtime_error(where + ": not an object");
  trigger_parameter p;
  read_string(object, "dest", where, p.dest);
  read_string(object, "operation", where, p.operation);
  simdjson::dom::element src_element;
  if (object.at_key("src").get(src_element) || src_element.is_null())
    return p;
  simdjson::dom::object src;
  const auto src_where = where + ".src";
  if (src_element.get(src))
    throw std::runtime_error(src_where + ": not an object");
  read_string(src, "dependencyName", src_where, p.src.dependency_name);
  read_string(src, "contextKey", src_where, p.src.context_key);
  read_string(src, "contextTemplate", src_where, p.src.context_template);
  read_string(src, "dataKey", src_where, p.src.data_key);
  read_string(src, "dataTemplate", src_where, p.src.data_template);
  simdjson::dom::element value;
  if (!src.at_key("value").get(value) && !value.is_null()) {
    std::string text;
    read_string(src, "value", src_where, text);
    p.src.value = std::move(text);
  }
  simdjson::dom::element raw;
  if (!src.at_key("useRawData").get(raw) && !raw.is_null()
      && raw.get(p.src.use_raw_data))
    throw std::runtime_error(src_where + ".useRawData: not a boolean");
  return p;
}

/// The `list` array of `object_json` as minified JSON text; empty when absent or null.
std::string list_text(std::string_view object_json, std::string_view list,
                      std::string_view field) {
  thread_local simdjson::dom::parser parser;
  simdjson::dom::object object;
  if (parser.parse(object_json.data(), object_json.size()).get(object))
    throw std::runtime_error(fmt::format("{}: the trigger template is not a JSON object", field));
  simdjson::dom::element value;
  if (object.at_key(list).get(value) || value.is_null())
    return {};
  if (!value.is_array())
    throw std::runtime_error(fmt::format("{}: not a list", field));
  return simdjson::minify(value);
}

std::vector<trigger_parameter> read_list(const std::string& text, std::string_view field) {
  std::vector<trigger_parameter> out;
  if (text.empty())
    return out;
  simdjson::dom::parser parser;
  simdjson::dom::array array;
  if (parser.parse(text).get(array))
    throw std::runtime_error(fmt::format("{}: not a list", field));
  std::size_t index = 0;
  for (auto item : array)
    out.push_back(read_parameter(item, fmt::format("{}[{}]", field, index++)));
  return out;
}

} // namespace

std::vector<compiled_parameter> compile_parameters(const std::vector<trigger_parameter>& specs,
                                                   std::string_view field) {
  std::vector<compiled_parameter> out;
  out.reserve(specs.size());
  for (std::size_t i = 0; i < specs.size(); ++i) {
    try {
      out.emplace_back(specs[i]);
    } catch (const std::exception& e) {
      throw std::invalid_argument(fmt::format("{}[{}]: {}", field, i, e.what()));
    }
  }
  return out;
}

std::string template_object(const std::string& template_text, std::string_view key) {
  // simdjson, not nlohmann: with template-level parameters this runs on every firing.
  thread_local simdjson::dom::parser parser;
  simdjson::dom::object doc;
  if (parser.parse(template_text).get(doc))
    throw std::runtime_error("the trigger template is not a JSON object");
  simdjson::dom::object object;
  if (doc.at_key(key).get(object))
    throw std::runtime_error(fmt::format("the trigger template has no {} object", key));
  return simdjson::minify(object);
}

std::shared_ptr<const std::vector<compiled_parameter>>
rewritten_parameters::of(std::string_view object_json) {
  auto text = list_text(object_json, list_, field_);
  std::lock_guard guard{mutex_};
  if (last_ && text == last_text_)
    return last_;
  auto compiled = std::make_shared<const std::vector<compiled_parameter>>(
    compile_parameters(read_list(text, field_), field_));
  last_text_ = std::move(text);
  last_ = compiled;
  return compiled;
}

resource_parameters::resource_parameters(const std::vector<trigger_parameter>& template_parameters,
                                         const std::vector<trigger_parameter>& own_parameters,
                                         std::string_view key,
                                         const std::function<std::string()>& template_text,
                                         bool apply_own)
  : key_(key), template_(compile_parameters(template_parameters, "parameters")) {
  const auto own_field = fmt::format("{}.parameters", key);
  if (apply_own)
    own_ = compile_parameters(own_parameters, own_field);
  if (!template_.empty()) {
    template_json_ = template_text();
    if (apply_own)
      rewritten_own_ = std::make_unique<rewritten_parameters>("parameters", own_field);
  } else if (!own_.empty()) {
    object_json_ = template_object(template_text(), key_);
  }
}

std::string resource_parameters::resolve(const event_lookup& lookup, std::string* rewritten) {
  std::string object;
  if (template_.empty()) {
    object = object_json_;
    if (!own_.empty())
      apply_parameters(object, own_, lookup);
    return object;
  }
  auto doc = template_json_;
  apply_parameters(doc, template_, lookup);
  object = template_object(doc, key_);
  if (rewritten)
    *rewritten = object;
  if (rewritten_own_) {
    auto own = rewritten_own_->of(object);
    if (!own->empty())
      apply_parameters(object, *own, lookup);
  }
  return object;
}

void event_views::add(const std::string& dependency, event_view view) {
  if (!view.data_raw.empty() && is_json_content(view.datacontenttype)) {
    auto parsed = parsers_[dependency].parse(view.data_raw.data(), view.data_raw.size());
    if (!parsed.error()) {
      view.data = parsed.value_unsafe();
      view.data_is_json = true;
    }
  }
  views_.insert_or_assign(dependency, view);
}

event_lookup event_views::lookup() const {
  return [this](std::string_view dependency) -> const event_view* {
    auto i = views_.find(dependency);
    return i == views_.end() ? nullptr : &i->second;
  };
}

} // namespace ganglion::dsl
