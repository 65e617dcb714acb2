#include "bus/managed_jetstream.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace ganglion::nats::detail {

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

bus_spec argo_managed_jetstream(const dsl::object_meta& meta, bus_spec spec,
                                const std::string& status) {
  const auto& name = meta.name;
  auto out = std::move(spec);
  out.url = fmt::format("nats://eventbus-{}-js-svc.{}.svc:4222", name, meta.namespace_);
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

} // namespace ganglion::nats::detail
