#include <algorithm>
#include <array>
#include <string_view>
#include <map>

#include "validate/validate.hpp"
#include "ganglion/dsl/kind/rules.hpp"
#include "validate/validate_compile.hpp"
#include "validate/validate_sources.hpp"
#include "ganglion/dsl/kind/spec_input.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"

namespace ganglion::dsl::detail {

namespace {

// Argo's RecreateStrategyEventSources: types that run active-passive.
constexpr std::array<std::string_view, 19> recreate_types{
  "amqp",  "calendar", "kafka", "pubSub", "azureEventsHub", "azureServiceBus", "nats",
  "mqtt",  "minio",    "emitter", "nsq",  "pulsar",         "redis",           "redisStream",
  "resource", "hdfs",  "file",  "sftp", "generic"};

void validate_event_names(const event_source& source, const load_context& cx) {
  std::map<std::string, std::string> seen;
  auto check = [&](const std::string& type, const std::string& name) {
    auto at = child_path(child_path("spec", type), name);
    if (auto [it, fresh] = seen.emplace(name, at); !fresh)
      cx.error(at, "event name \"" + name + "\" is also used by " + it->second
                     + " (names must be unique in an EventSource)");
  };
  for (const auto& e : source.spec.events)
    check(e.type, e.name);
}

void validate_strategies(const event_source& source, const load_context& cx) {
  std::vector<std::string> types;
  for (const auto& e : source.spec.events)
    if (std::find(types.begin(), types.end(), e.type) == types.end())
      types.push_back(e.type);
  std::string recreate;
  std::string rolling;
  for (const auto& t : types) {
    bool is_recreate
      = std::find(recreate_types.begin(), recreate_types.end(), t) != recreate_types.end();
    (is_recreate ? recreate : rolling) = t;
  }
  if (types.empty())
    cx.warning("spec", "the EventSource defines no event");
  else if (!recreate.empty() && !rolling.empty())
    cx.error("spec", "an EventSource cannot mix " + recreate + " (active-passive) with " + rolling
                       + " (active-active) events; split it in two");
}

/// Compiles `filter.expression` of each event with the expression compiler the source uses.
void validate_source_filters(const event_source& source, const load_context& cx) {
  for (const auto& e : source.spec.events)
    if (e.filter && !e.filter->expression.empty())
      check_expression(
        e.filter->expression,
        child_path(child_path(child_path(child_path("spec", e.type), e.name), "filter"),
                   "expression"),
        cx);
}

/// Each event through its kind's rules, or Argo's rules for the type kept in dsl.
void validate_events(const event_source& source, const load_context& cx) {
  const auto& steps = cx.options.kinds.sources;
  for (const auto& e : source.spec.events) {
    auto at = child_path(child_path("spec", e.type), e.name);
    if (auto step = steps.find(e.type); step != steps.end())
      step->second.check(e.spec, spec_check_input{at, cx, nullptr});
    else
      validate_unmodelled_source(e, at, cx);
  }
}

/// What two events of the source must not share (a webhook's port and endpoint).
void validate_claims(const event_source& source, const load_context& cx) {
  std::map<std::string, std::string> owners;
  for (const auto& e : source.spec.events) {
    auto step = cx.options.kinds.sources.find(e.type);
    if (step == cx.options.kinds.sources.end() || !step->second.claim)
      continue;
    auto claim = step->second.claim(e.spec);
    if (!claim)
      continue;
    if (auto [it, fresh] = owners.emplace(claim->what, e.name); !fresh)
      cx.error(child_path(child_path(child_path("spec", e.type), e.name), claim->field),
               claim->what + " is also used by event \"" + it->second + "\"");
  }
}

} // namespace

void validate_event_source(const event_source& source, const load_context& cx) {
  validate_events(source, cx);
  validate_claims(source, cx);
  validate_source_filters(source, cx);
  validate_event_names(source, cx);
  validate_strategies(source, cx);
}

} // namespace ganglion::dsl::detail
