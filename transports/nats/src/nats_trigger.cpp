// The `nats` trigger: publishes one message per firing.

#include <map>
#include <mutex>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <simdjson.h>

#include "connection.hpp"
#include "ganglion/core/internal/event_view.hpp"
#include "ganglion/dsl/internal/parameters.hpp"
#include "ganglion/nats/transport.hpp"
#include "publisher.hpp"

namespace ganglion::nats {

namespace {

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

/// The template as JSON text: the loaded manifest's, or one made of the modelled nats fields for
/// a trigger built in code.
std::string template_json(const dsl::trigger_template& t) {
  if (!t.json.empty())
    return t.json;
  nlohmann::json nats{{"url", t.nats->url}, {"subject", t.nats->subject}};
  return nlohmann::json{{"name", t.name}, {"conditions", t.conditions}, {"nats", nats}}.dump();
}

/// The `nats` object of a template given as JSON text.
std::string nats_object(const std::string& template_text) {
  auto doc = nlohmann::json::parse(template_text, nullptr, false);
  if (!doc.is_object())
    throw std::runtime_error("the trigger template is not a JSON object");
  auto i = doc.find("nats");
  if (i == doc.end() || !i->is_object())
    throw std::runtime_error("the trigger template has no nats object");
  return i->dump();
}

/// The `subject` of a NATSTrigger given as JSON text.
std::string subject_of(const std::string& nats_json) {
  auto nats = nlohmann::json::parse(nats_json, nullptr, false);
  auto i = nats.find("subject");
  if (i == nats.end() || i->is_null())
    return {};
  if (!i->is_string())
    throw std::runtime_error(fmt::format("nats.subject must be a string, not {}", i->dump()));
  return i->get<std::string>();
}

/// One resolved message.
struct message {
  std::string subject;
  std::string payload;
};

/// Runs one nats trigger: resolves the subject and payload on the calling thread, publishes on
/// the publisher's.
class nats_executor final : public core::trigger_executor {
public:
  nats_executor(const options& opts, const core::trigger_context& ctx) {
    const auto& manifest = *ctx.manifest;
    const auto& spec = *manifest.template_.nats;
    const auto name = fmt::format("nats trigger {}/{}", ctx.sensor_name, manifest.template_.name);
    if (spec.url.empty())
      throw core::trigger_error(fmt::format("{}: nats.url can't be empty", name));
    if (spec.subject.empty())
      throw core::trigger_error(fmt::format("{}: nats.subject can't be empty", name));
    if (spec.payload.empty())
      throw core::trigger_error(fmt::format(
        "{}: nats.payload can't be empty (Argo publishes only payload parameters)", name));
    subject_ = spec.subject;
    payload_ = compile(spec.payload, "nats.payload");
    template_parameters_ = compile(manifest.parameters, "parameters");
    resource_parameters_ = compile(spec.parameters, "nats.parameters");
    try {
      if (!template_parameters_.empty())
        template_json_ = template_json(manifest.template_);
      else if (!resource_parameters_.empty())
        nats_json_ = nats_object(template_json(manifest.template_));
    } catch (const std::exception& e) {
      throw core::trigger_error(fmt::format("{}: {}", name, e.what()));
    }

    connection_settings settings;
    settings.url = spec.url;
    settings.name = name;
    settings.connect_timeout = opts.connect_timeout;
    settings.min_reconnect_delay = opts.min_reconnect_delay;
    settings.max_reconnect_delay = opts.max_reconnect_delay;
    try {
      if (spec.auth)
        settings.auth = resolve_credentials(*spec.auth, ctx.secrets.get(), "nats.auth");
      if (spec.tls)
        settings.tls = resolve_tls(*spec.tls, ctx.secrets.get(), "nats.tls");
    } catch (const connection_error& e) {
      throw core::trigger_error(fmt::format("{}: {}", name, e.what()));
    }
    publisher_ = std::make_unique<publisher>(std::move(settings), opts.flush_timeout,
                                             opts.max_queued_publishes);
  }

  void execute(const core::trigger_invocation& invocation, core::trigger_done done) override {
    message m;
    try {
      m = build(invocation);
    } catch (const std::exception& e) {
      done(core::trigger_outcome{false, fmt::format("cannot build the message: {}", e.what()),
                                 {}});
      return;
    }
    publisher_->publish(std::move(m.subject), std::move(m.payload), std::move(done));
  }

  std::string preview(const core::trigger_invocation& invocation) override {
    auto m = build(invocation);
    return fmt::format("PUB {} (NATS {})\n\n{}", m.subject, publisher_->shown_url(), m.payload);
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
    message m;
    m.payload = dsl::build_payload(payload_, lookup);
    m.subject = subject_;
    if (!template_parameters_.empty() || !resource_parameters_.empty())
      m.subject = resolve_subject(lookup);
    if (m.subject.empty())
      throw std::runtime_error("the subject is empty after applying the parameters");
    return m;
  }

  /// ApplyTemplateParameters, then ApplyResourceParameters on the `nats` object. Unlike Argo
  /// (which publishes to the subject of the manifest), a subject changed by `nats.parameters`
  /// is used.
  std::string resolve_subject(const dsl::event_lookup& lookup) {
    std::string nats = nats_json_;
    if (!template_parameters_.empty()) {
      auto doc = template_json_;
      dsl::apply_parameters(doc, template_parameters_, lookup);
      nats = nats_object(doc);
    }
    if (!resource_parameters_.empty())
      dsl::apply_parameters(nats, resource_parameters_, lookup);
    return subject_of(nats);
  }

  dsl::event_view view_of(const std::string& dependency, const core::event& e) {
    auto view = core::context_view(e);
    const auto& type = e.datacontenttype;
    if (!e.data.empty() && (type.empty() || type.find("json") != std::string::npos)) {
      auto parsed = parsers_[dependency].parse(e.data);
      if (!parsed.error()) {
        view.data = parsed.value_unsafe();
        view.data_is_json = true;
      }
    }
    return view;
  }

  std::string subject_;
  std::vector<dsl::compiled_parameter> payload_;
  std::vector<dsl::compiled_parameter> template_parameters_;
  std::vector<dsl::compiled_parameter> resource_parameters_;
  /// The whole template, when template parameters apply.
  std::string template_json_;
  /// Its `nats` object, when only resource parameters apply.
  std::string nats_json_;
  std::mutex mutex_;
  std::map<std::string, simdjson::dom::parser, std::less<>> parsers_;
  std::unique_ptr<publisher> publisher_;
};

} // namespace

core::trigger_factory make_trigger_factory(options opts) {
  return [opts](const core::trigger_context& ctx) -> std::unique_ptr<core::trigger_executor> {
    if (ctx.manifest == nullptr || !ctx.manifest->template_.nats)
      throw core::trigger_error("nats trigger started without template.nats");
    return std::make_unique<nats_executor>(opts, ctx);
  };
}

} // namespace ganglion::nats
