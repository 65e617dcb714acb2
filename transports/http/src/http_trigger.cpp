#include "ganglion/http/http_trigger.hpp"

#include <algorithm>
#include <map>
#include <mutex>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>
#include <simdjson.h>

#include "ganglion/core/internal/event_view.hpp"
#include "ganglion/dsl/internal/parameters.hpp"
#include "http_request_spec.hpp"

namespace ganglion::http {

namespace {

using detail::request_template;

bool is_json_content(std::string_view type) {
  return type.empty() || type.find("json") != std::string_view::npos;
}

core::trigger_outcome judge(const client_response& r, const std::vector<std::int32_t>& allow) {
  core::trigger_outcome outcome;
  if (r.status == 0) {
    outcome.error = r.error.empty() ? "no HTTP response" : r.error;
    return outcome;
  }
  outcome.detail = fmt::format("HTTP {}", r.status);
  if (!allow.empty() && std::find(allow.begin(), allow.end(), r.status) == allow.end()) {
    outcome.error = fmt::format("HTTP {} is not in policy.status.allow [{}]", r.status,
                                fmt::join(allow, ", "));
    return outcome;
  }
  outcome.ok = true;
  return outcome;
}

std::vector<dsl::compiled_parameter> compile(const std::vector<dsl::trigger_parameter>& specs,
                                             const char* field) {
  std::vector<dsl::compiled_parameter> out;
  out.reserve(specs.size());
  for (std::size_t i = 0; i < specs.size(); ++i) {
    try {
      out.emplace_back(specs[i]);
    } catch (const std::exception& e) {
      throw core::trigger_error(fmt::format("{}[{}]: {}", field, i, e.what()));
    }
  }
  return out;
}

/// The template as JSON text: the loaded manifest's, or one made of the modelled http fields
/// for a trigger built in code.
std::string template_json(const dsl::trigger_template& t) {
  if (!t.json.empty())
    return t.json;
  const auto& h = *t.http;
  nlohmann::json http{{"url", h.url},         {"method", h.method},
                      {"headers", h.headers}, {"timeout", h.timeout_seconds}};
  if (!h.host.empty())
    http["host"] = h.host;
  return nlohmann::json{{"name", t.name}, {"conditions", t.conditions}, {"http", http}}.dump();
}

/// The `http` object of a template given as JSON text.
std::string http_object(const std::string& template_text) {
  auto doc = nlohmann::json::parse(template_text, nullptr, false);
  if (!doc.is_object())
    throw std::runtime_error("the trigger template is not a JSON object");
  auto i = doc.find("http");
  if (i == doc.end() || !i->is_object())
    throw std::runtime_error("the trigger template has no http object");
  return i->dump();
}

/// Runs one http trigger: resolves parameters and the payload on the calling thread, sends the
/// request on the client's.
class http_executor final : public core::trigger_executor {
public:
  http_executor(std::shared_ptr<client> requests, const core::trigger_context& ctx)
    : client_(std::move(requests)),
      template_(std::make_shared<const request_template>(detail::make_request_template(ctx))) {
    const auto& manifest = *ctx.manifest;
    const auto& spec = *manifest.template_.http;
    payload_ = compile(spec.payload, "http.payload");
    template_parameters_ = compile(manifest.parameters, "parameters");
    resource_parameters_ = compile(spec.parameters, "http.parameters");
    try {
      if (!template_parameters_.empty())
        template_json_ = template_json(manifest.template_);
      else if (!resource_parameters_.empty())
        http_json_ = http_object(template_json(manifest.template_));
      else
        fixed_ = detail::make_request(template_->fields, *template_, {});
    } catch (const std::exception& e) {
      throw core::trigger_error(e.what());
    }
  }

  void execute(const core::trigger_invocation& invocation, core::trigger_done done) override {
    client_request r;
    try {
      r = build_request(invocation);
    } catch (const std::exception& e) {
      done(
        core::trigger_outcome{false, fmt::format("cannot build the request: {}", e.what()), {}});
      return;
    }
    auto completion = [t = template_, done](client_response response) {
      done(judge(response, t->allow));
    };
    if (!client_->submit(std::move(r), std::move(completion)))
      done(core::trigger_outcome{false, "the HTTP client is saturated or shut down", {}});
  }

  std::string preview(const core::trigger_invocation& invocation) override {
    return detail::describe_request(build_request(invocation), *template_);
  }

private:
  bool parameterized() const {
    return !template_parameters_.empty() || !resource_parameters_.empty();
  }

  /// The request of one execution; throws std::runtime_error when it cannot be resolved.
  client_request build_request(const core::trigger_invocation& invocation) {
    if (payload_.empty() && !parameterized())
      return fixed_;
    std::lock_guard guard{mutex_};
    std::map<std::string, dsl::event_view, std::less<>> views;
    for (const auto& [dependency, e] : invocation.events)
      if (e)
        views.emplace(dependency, view_of(dependency, *e));
    dsl::event_lookup lookup = [&views](std::string_view dependency) -> const dsl::event_view* {
      auto i = views.find(dependency);
      return i == views.end() ? nullptr : &i->second;
    };
    auto body = payload_.empty() ? std::string{} : dsl::build_payload(payload_, lookup);
    if (!parameterized()) {
      auto r = fixed_;
      r.body = std::move(body);
      return r;
    }
    return detail::make_request(resolve_fields(lookup), *template_, std::move(body));
  }

  /// ApplyTemplateParameters, then ApplyResourceParameters on the `http` object.
  detail::request_fields resolve_fields(const dsl::event_lookup& lookup) {
    std::string http = http_json_;
    if (!template_parameters_.empty()) {
      auto doc = template_json_;
      dsl::apply_parameters(doc, template_parameters_, lookup);
      http = http_object(doc);
    }
    if (!resource_parameters_.empty())
      dsl::apply_parameters(http, resource_parameters_, lookup);
    return detail::read_request_fields(http);
  }

  dsl::event_view view_of(const std::string& dependency, const core::event& e) {
    auto view = core::context_view(e);
    if (!e.data.empty() && is_json_content(e.datacontenttype)) {
      auto parsed = parsers_[dependency].parse(e.data);
      if (!parsed.error()) {
        view.data = parsed.value_unsafe();
        view.data_is_json = true;
      }
    }
    return view;
  }

  std::shared_ptr<client> client_;
  std::shared_ptr<const request_template> template_;
  /// The request without payload, when no parameter applies.
  client_request fixed_;
  std::vector<dsl::compiled_parameter> payload_;
  std::vector<dsl::compiled_parameter> template_parameters_;
  std::vector<dsl::compiled_parameter> resource_parameters_;
  /// The whole template, when template parameters apply.
  std::string template_json_;
  /// Its `http` object, when only resource parameters apply.
  std::string http_json_;
  std::mutex mutex_;
  std::map<std::string, simdjson::dom::parser, std::less<>> parsers_;
};

std::unique_ptr<core::trigger_executor> create(const std::shared_ptr<client>& requests,
                                               const core::trigger_context& ctx) {
  if (ctx.manifest == nullptr || !ctx.manifest->template_.http)
    throw core::trigger_error("http trigger started without template.http");
  if (!ctx.manifest->template_.http->dynamic_headers.empty())
    throw core::trigger_error("http.dynamicHeaders are not supported yet");
  return std::make_unique<http_executor>(requests, ctx);
}

} // namespace

core::trigger_factory make_http_trigger_factory(std::shared_ptr<client> requests) {
  return [requests = std::move(requests)](const core::trigger_context& ctx) {
    return create(requests, ctx);
  };
}

} // namespace ganglion::http
