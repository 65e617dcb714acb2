#include "ganglion/dsl/params/trigger_parameters.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace ganglion::dsl {

namespace {

bool is_json_content(std::string_view type) {
  return type.empty() || type.find("json") != std::string_view::npos;
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

resource_parameters::resource_parameters(const std::vector<trigger_parameter>& template_parameters,
                                         const std::vector<trigger_parameter>& own_parameters,
                                         std::string_view key,
                                         const std::function<std::string()>& template_text)
  : key_(key),
    template_(compile_parameters(template_parameters, "parameters")),
    own_(compile_parameters(own_parameters, fmt::format("{}.parameters", key))) {
  if (!template_.empty())
    template_json_ = template_text();
  else if (!own_.empty())
    object_json_ = template_object(template_text(), key_);
}

std::string resource_parameters::resolve(const event_lookup& lookup) const {
  std::string object = object_json_;
  if (!template_.empty()) {
    auto doc = template_json_;
    apply_parameters(doc, template_, lookup);
    object = template_object(doc, key_);
  }
  if (!own_.empty())
    apply_parameters(object, own_, lookup);
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
