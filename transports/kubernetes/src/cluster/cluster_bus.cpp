#include "ganglion/kubernetes/cluster_bus.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace ganglion::kubernetes {

namespace {

/// Member `key` of `object` when `object` is an object that has it; else null.
const nlohmann::json* member(const nlohmann::json* object, const char* key) {
  if (!object || !object->is_object())
    return nullptr;
  auto it = object->find(key);
  return it == object->end() ? nullptr : &*it;
}

/// String member `key` of `object`; empty when absent or not a string.
std::string text(const nlohmann::json* object, const char* key) {
  const auto* value = member(object, key);
  return value && value->is_string() ? value->get<std::string>() : std::string{};
}

} // namespace

dsl::jetstream_bus argo_managed_jetstream(const dsl::event_bus& bus, const std::string& status) {
  const auto& name = bus.metadata.name;
  auto out = *bus.spec.jetstream;
  out.url = fmt::format("nats://eventbus-{}-js-svc.{}.svc:4222", name, bus.metadata.namespace_);
  out.access_secret =
    dsl::secret_key_selector{fmt::format("eventbus-{}-js-client-auth", name), "client-auth"};
  dsl::tls_config tls;
  tls.enabled = true;
  tls.ca_cert_secret =
    dsl::secret_key_selector{fmt::format("eventbus-{}-js-server", name), "ca-cert"};
  out.tls = tls;
  auto parsed = nlohmann::json::parse(status, nullptr, false);
  const auto* config = member(member(&parsed, "config"), "jetstream");
  if (auto url = text(config, "url"); !url.empty())
    out.url = url;
  const auto* secret = member(config, "accessSecret");
  if (!text(secret, "name").empty() && !text(secret, "key").empty())
    out.access_secret = dsl::secret_key_selector{text(secret, "name"), text(secret, "key")};
  return out;
}

} // namespace ganglion::kubernetes
