#include "ganglion/kafka/kafka_trigger.hpp"

#include <map>
#include <mutex>

#include <fmt/format.h>
#include <simdjson.h>

#include "client_config.hpp"
#include "ganglion/core/internal/event_view.hpp"
#include "ganglion/dsl/internal/parameters.hpp"
#include "ganglion/kafka/internal/producer_properties.hpp"
#include "message_spec.hpp"
#include "trigger_producer.hpp"

namespace ganglion::kafka {

namespace {

using detail::message;

bool is_json_content(std::string_view type) {
  return type.empty() || type.find("json") != std::string_view::npos;
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

std::string read_secret(const core::trigger_context& ctx, const dsl::secret_key_selector& ref,
                        const char* field) {
  if (!ctx.secrets)
    throw core::trigger_error(fmt::format(
      "{}: secret {}/{} is needed but no secret store is configured", field, ref.name, ref.key));
  std::string error;
  auto value = ctx.secrets->read(ref.name, ref.key, &error);
  if (!value)
    throw core::trigger_error(fmt::format("{}: {}", field, error));
  return *value;
}

/// Runs one kafka trigger: resolves parameters and the payload on the calling thread, hands the
/// message to the producer, reports the broker's acknowledgement.
class kafka_executor final : public core::trigger_executor {
public:
  kafka_executor(const core::trigger_context& ctx, const trigger_options& options) {
    const auto& manifest = *ctx.manifest;
    const auto& spec = *manifest.template_.kafka;
    if (spec.payload.empty())
      throw core::trigger_error("kafka.payload: payload parameters are not specified");
    payload_ = compile(spec.payload, "kafka.payload");
    template_parameters_ = compile(manifest.parameters, "parameters");
    resource_parameters_ = compile(spec.parameters, "kafka.parameters");
    for (const auto& header : spec.secure_headers) {
      if (header.config_map)
        throw core::trigger_error(
          fmt::format("secureHeaders {}: configMapKeyRef is not supported yet", header.name));
      if (!header.secret)
        throw core::trigger_error(
          fmt::format("secureHeaders {}: valueFrom.secretKeyRef is missing", header.name));
      secure_headers_.emplace_back(header.name,
                                   read_secret(ctx, *header.secret, "secureHeaders"));
    }
    fields_ = detail::fields_of(spec);
    try {
      if (!template_parameters_.empty())
        template_json_ = detail::template_json(manifest.template_);
      else if (!resource_parameters_.empty())
        kafka_json_ = detail::kafka_object(detail::template_json(manifest.template_));
      else
        detail::make_message(fields_, secure_headers_, {}); // checks topic and partition
    } catch (const std::exception& e) {
      throw core::trigger_error(e.what());
    }

    detail::client_settings settings;
    settings.name = fmt::format("trigger {}/{}", ctx.sensor_name, manifest.template_.name);
    settings.url = spec.url;
    settings.tls = spec.tls;
    settings.sasl = spec.sasl;
    settings.version = spec.version;
    settings.properties = detail::producer_properties(spec, options, settings.name);
    try {
      producer_ = std::make_unique<detail::trigger_producer>(
        detail::make_client_config(settings, ctx.secrets.get()));
    } catch (const detail::config_error& e) {
      throw core::trigger_error(fmt::format("kafka trigger {}: {}", settings.name, e.what()));
    }
  }

  void execute(const core::trigger_invocation& invocation, core::trigger_done done) override {
    message m;
    try {
      m = build(invocation);
    } catch (const std::exception& e) {
      done(core::trigger_outcome{false, fmt::format("cannot build the message: {}", e.what()), {}});
      return;
    }
    producer_->send(m, std::move(done));
  }

  std::string preview(const core::trigger_invocation& invocation) override {
    return detail::describe(build(invocation), secure_headers_.size());
  }

private:
  /// The message of one execution; throws std::runtime_error when it cannot be resolved.
  message build(const core::trigger_invocation& invocation) {
    std::lock_guard guard{mutex_};
    std::map<std::string, dsl::event_view, std::less<>> views;
    for (const auto& [dependency, e] : invocation.events)
      if (e)
        views.emplace(dependency, view_of(dependency, *e));
    dsl::event_lookup lookup = [&views](std::string_view dependency) -> const dsl::event_view* {
      auto i = views.find(dependency);
      return i == views.end() ? nullptr : &i->second;
    };
    auto payload = dsl::build_payload(payload_, lookup);
    return detail::make_message(resolve_fields(lookup), secure_headers_, std::move(payload));
  }

  /// ApplyTemplateParameters, then ApplyResourceParameters on the `kafka` object.
  detail::message_fields resolve_fields(const dsl::event_lookup& lookup) {
    if (template_parameters_.empty() && resource_parameters_.empty())
      return fields_;
    std::string kafka = kafka_json_;
    if (!template_parameters_.empty()) {
      auto doc = template_json_;
      dsl::apply_parameters(doc, template_parameters_, lookup);
      kafka = detail::kafka_object(doc);
    }
    if (!resource_parameters_.empty())
      dsl::apply_parameters(kafka, resource_parameters_, lookup);
    return detail::read_message_fields(kafka);
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

  detail::message_fields fields_;
  std::vector<std::pair<std::string, std::string>> secure_headers_;
  std::vector<dsl::compiled_parameter> payload_;
  std::vector<dsl::compiled_parameter> template_parameters_;
  std::vector<dsl::compiled_parameter> resource_parameters_;
  /// The whole template, when template parameters apply.
  std::string template_json_;
  /// Its `kafka` object, when only resource parameters apply.
  std::string kafka_json_;
  std::mutex mutex_;
  std::map<std::string, simdjson::dom::parser, std::less<>> parsers_;
  /// Last member: destroyed first, so pending deliveries finish while the rest is alive.
  std::unique_ptr<detail::trigger_producer> producer_;
};

} // namespace

core::trigger_factory make_kafka_trigger_factory(trigger_options options) {
  return [options](const core::trigger_context& ctx) -> std::unique_ptr<core::trigger_executor> {
    if (ctx.manifest == nullptr || !ctx.manifest->template_.kafka)
      throw core::trigger_error("kafka trigger started without template.kafka");
    return std::make_unique<kafka_executor>(ctx, options);
  };
}

} // namespace ganglion::kafka
