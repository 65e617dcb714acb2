// Trigger parameters with the semantics of Argo's ResolveParamValue, ConstructPayload and
// ApplyParams (pkg/sensors/triggers/params.go).

#include "ganglion/dsl/params/parameters.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "ganglion/dsl/compile_error.hpp"
#include "ganglion/dsl/path/json_eval.hpp"
#include "go/strconv.hpp"
#include "params/parameters_event.hpp"

namespace ganglion::dsl {

namespace {

constexpr std::string_view json_media_type = "application/json";

bool appends(const std::string& op) {
  return op == "append" || op == "prepend";
}

std::optional<json_path> compile_key(const std::string& key, std::string_view what) {
  if (key.empty())
    return std::nullopt;
  try {
    return json_path::compile(key);
  } catch (const compile_error& e) {
    throw compile_error(fmt::format("{}: {}", what, e.what()), e.offset());
  }
}

resolved_value plain(std::string text) {
  return {std::move(text), false};
}

// The parsed data of the event, or an error text (Argo's renderEventDataAsJSON).
std::string parse_data(const event_view& event, simdjson::dom::element& out) {
  if (event.datacontenttype != json_media_type)
    return fmt::format("unsupported event content type: {}", event.datacontenttype);
  if (event.data_is_json) {
    out = event.data;
    return {};
  }
  thread_local simdjson::dom::parser parser;
  if (parser.parse(event.data_raw.data(), event.data_raw.size(), true).get(out))
    return "event data is not valid JSON";
  return {};
}

std::runtime_error unresolved(const trigger_parameter_source& src, std::string_view why) {
  return std::runtime_error(
    fmt::format("unable to resolve '{}' parameter value: {}", src.dependency_name, why));
}

// set_json, with document errors reported like resolution errors.
void set_value(std::string& document, const compiled_parameter& p, const resolved_value& v) {
  try {
    set_json(document, p.dest, v.as_json());
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(fmt::format("parameter dest '{}': {}", p.spec.dest, e.what()));
  }
}

} // namespace

compiled_parameter::compiled_parameter(const trigger_parameter& parameter) : spec(parameter) {
  const auto& src = spec.src;
  const auto& op = spec.operation;
  if (!op.empty() && op != "overwrite" && !appends(op))
    throw compile_error(fmt::format("unsupported trigger parameter operation: {}", op), 0);
  bool data = !src.data_key.empty() || !src.data_template.empty();
  const auto& key = data ? src.data_key : src.context_key;
  const auto& tmpl = data ? src.data_template : src.context_template;
  if (!tmpl.empty()) {
    try {
      this->tmpl = go_template::parse(tmpl);
    } catch (const compile_error& e) {
      std::string what = fmt::format("parameter from '{}': {}: {}", src.dependency_name,
                                     data ? "dataTemplate" : "contextTemplate", e.what());
      if (key.empty() && !src.value)
        throw compile_error(what, e.offset());
      template_error = std::move(what);
    }
  }
  data_key = compile_key(src.data_key, "dataKey");
  context_key = compile_key(src.context_key, "contextKey");
  dest = dest_path::compile(spec.dest);
  if (appends(op) && !spec.dest.empty())
    dest_lookup = compile_key(spec.dest, "dest");
}

std::string resolved_value::as_json() const {
  if (is_json)
    return text;
  std::string out;
  go::append_sjson_string(out, text);
  return out;
}

std::optional<resolved_value> resolve_parameter(const compiled_parameter& parameter,
                                                const event_view* event) {
  const auto& src = parameter.spec.src;
  if (!event) {
    if (src.value)
      return plain(*src.value);
    return std::nullopt;
  }
  bool data = parameter.data_key || !src.data_template.empty();
  const auto& key = data ? parameter.data_key : parameter.context_key;
  if (!key && src.context_template.empty() && src.data_template.empty())
    return plain(src.value ? *src.value : whole_event_json(*event));

  simdjson::dom::element root;
  std::string context_json;
  thread_local simdjson::dom::parser context_parser;
  std::string error;
  if (data) {
    error = parse_data(*event, root);
  } else {
    context_json = event_context_json(*event);
    if (context_parser.parse(context_json).get(root))
      error = "the event context is not valid JSON";
  }
  if (!error.empty()) {
    if (src.value)
      return plain(*src.value);
    throw unresolved(src, error);
  }

  std::string why = parameter.template_error;
  if (parameter.tmpl) {
    try {
      auto out = parameter.tmpl->execute_input(root);
      if (!out.empty() && out != "<no value>")
        return plain(std::move(out));
      why = fmt::format("template evaluated to empty string or no value: {}",
                        parameter.tmpl->text());
    } catch (const std::runtime_error& e) {
      why = e.what();
    }
  }
  path_result found;
  if (key) {
    found = evaluate(*key, root);
    if (!found.exists())
      why = fmt::format("key '{}' does not exist in the event {}", key->text(),
                        data ? "data" : "context");
  }
  if (!found.exists()) {
    if (src.value)
      return plain(*src.value);
    throw unresolved(src, why);
  }
  auto kind = found.kind();
  resolved_value out;
  out.text = kind == json_kind::array || kind == json_kind::object || kind == json_kind::null
               ? found.raw()
               : found.string_value();
  out.is_json = src.use_raw_data && kind != json_kind::string;
  return out;
}

std::string build_payload(const std::vector<compiled_parameter>& parameters,
                          const event_lookup& lookup) {
  std::string payload;
  for (const auto& p : parameters) {
    auto value = resolve_parameter(p, lookup(p.spec.src.dependency_name));
    if (p.dest.empty()) {
      if (value)
        return value->text;
      continue;
    }
    if (value)
      set_value(payload, p, *value);
  }
  return payload;
}

void apply_parameters(std::string& document, const std::vector<compiled_parameter>& parameters,
                      const event_lookup& lookup) {
  for (const auto& p : parameters) {
    auto value = resolve_parameter(p, lookup(p.spec.src.dependency_name));
    if (!value)
      continue;
    if (p.dest.empty())
      throw std::runtime_error(
        fmt::format("parameter from '{}': dest is empty", p.spec.src.dependency_name));
    if (p.dest_lookup) {
      thread_local simdjson::dom::parser parser;
      simdjson::dom::element root;
      if (!parser.parse(document).get(root)) {
        auto current = evaluate(*p.dest_lookup, root);
        if (current.exists()) {
          value->is_json = false;
          value->text = p.spec.operation == "append" ? current.string_value() + value->text
                                                     : value->text + current.string_value();
        }
      }
    }
    set_value(document, p, *value);
  }
}

} // namespace ganglion::dsl
