#include "ganglion/core/runnability.hpp"

#include <filesystem>
#include <map>

#include <fmt/format.h>


namespace ganglion::core {

namespace {

constexpr const char* not_run_yet = "not run by ganglion yet — see docs/compatibility.md";

/// Why a source type that no kind runs will not run: for the systems whose server and client
/// Debian 12 does not package (so nothing here could test a kind), what to use instead.
std::string source_not_run(const std::string& type) {
  static const std::map<std::string, std::string> unpackaged{
    {"nsq", "NSQ"}, {"pulsar", "Apache Pulsar"}, {"hdfs", "HDFS"}, {"emitter", "Emitter"}};
  auto i = unpackaged.find(type);
  if (i == unpackaged.end())
    return not_run_yet;
  return fmt::format("not run by ganglion: no {} client library or server is packaged for "
                     "Debian 12, so ganglion has no tested {} source; bridge it through a "
                     "generic event source (your own gRPC service, docs/signals.md) — see "
                     "docs/compatibility.md",
                     i->second, type);
}

/// Collects refusals, one per object: the first reason found for an object is the one shown.
struct refusals_builder {
  std::vector<refusal> out;

  bool refused(const std::string& kind, const std::string& name) const {
    for (const auto& r : out)
      if (r.kind == kind && r.name == name)
        return true;
    return false;
  }

  void add(const dsl::document& doc, std::string kind, std::string name, const std::string& path,
           std::string message) {
    if (refused(kind, name))
      return;
    dsl::diagnostic d;
    d.level = dsl::severity::warning;
    d.where = doc.locate(path);
    if (d.where.file.empty())
      d.where.file = doc.where.file;
    d.path = path;
    d.message = std::move(message);
    out.push_back(refusal{std::move(kind), std::move(name), std::move(d)});
  }
};

/// True when `path` is `prefix` or lies below it.
bool below(const std::string& path, const std::string& prefix) {
  return path.compare(0, prefix.size(), prefix) == 0
         && (path.size() == prefix.size() || path[prefix.size()] == '.'
             || path[prefix.size()] == '[');
}

/// The namespace of the object of `doc`; empty when it names none.
std::string namespace_of(const dsl::document& doc) {
  if (const auto* es = std::get_if<dsl::event_source>(&doc.body))
    return es->metadata.namespace_;
  if (const auto* sensor = std::get_if<dsl::sensor>(&doc.body))
    return sensor->metadata.namespace_;
  if (const auto* bus = std::get_if<dsl::event_bus>(&doc.body))
    return bus->metadata.namespace_;
  return {};
}

/// Why secret reference `ref` of `doc` cannot be read at run time; empty when it can.
std::string secret_problem(const dsl::document& doc, const dsl::secret_key_selector& ref,
                           const runnability_context& cx) {
  if (cx.secrets && cx.secrets->has_backend()) {
    std::string error;
    return cx.secrets->for_namespace(namespace_of(doc))->read(ref.name, ref.key, &error)
             ? std::string{}
             : error;
  }
  const auto& dir = cx.secrets_dir;
  if (dir.empty())
    return fmt::format("secret {}/{} is referenced, but no --secrets-dir is given to read it "
                       "from (<dir>/{}/{})",
                       ref.name, ref.key, ref.name, ref.key);
  auto file = std::filesystem::path{dir} / ref.name / ref.key;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec))
    return fmt::format("secret {}/{}: {} does not exist", ref.name, ref.key, file.string());
  return {};
}

/// The secrets referenced at or below `prefix` that cannot be read: refuses (kind, name).
void check_secrets(refusals_builder& b, const dsl::document& doc, const std::string& kind,
                   const std::string& name, const std::string& prefix,
                   const runnability_context& cx) {
  for (const auto& [path, ref] : doc.secret_refs) {
    if (!below(path, prefix))
      continue;
    if (auto why = secret_problem(doc, ref, cx); !why.empty())
      b.add(doc, kind, name, path, why);
  }
}

/// The first owner of what a source event holds alone (dsl::spec_claim), for clash messages.
struct claim_owner {
  std::string object; ///< `<eventsource>/<event>`
  std::string where;  ///< `file:line`
};

void check_event_source(refusals_builder& b, const dsl::document& doc,
                        const dsl::event_source& es, const runnability_context& cx,
                        std::map<std::string, claim_owner>& claims) {
  for (const auto& e : es.spec.events) {
    auto name = es.metadata.name + "/" + e.name;
    auto path = dsl::yaml_child_path(dsl::yaml_child_path("spec", e.type), e.name);
    if (!cx.sources || !cx.sources->count(e.type)) {
      b.add(doc, "source", name, path, source_not_run(e.type));
      continue;
    }
    check_secrets(b, doc, "source", name, path, cx);
    source_context ctx;
    ctx.event_source_name = es.metadata.argo_name();
    ctx.event_name = e.name;
    ctx.type = e.type;
    ctx.manifest = &es;
    ctx.event = &e;
    for (const auto& problem : cx.sources->at(e.type).check(ctx))
      b.add(doc, "source", name, path, problem);
  }
  for (const auto& e : es.spec.events) {
    auto name = es.metadata.name + "/" + e.name;
    if (b.refused("source", name) || !cx.sources)
      continue;
    auto factory = cx.sources->find(e.type);
    if (factory == cx.sources->end() || !factory->second.spec().claim)
      continue;
    auto claim = factory->second.spec().claim(e.spec);
    if (!claim)
      continue;
    auto path = dsl::yaml_child_path(dsl::yaml_child_path("spec", e.type), e.name);
    auto at = doc.locate(path);
    auto [it, fresh] = claims.try_emplace(
      claim->what, claim_owner{name, at.object ? at.file : fmt::format("{}:{}", at.file, at.line)});
    if (!fresh)
      b.add(doc, "source", name, dsl::yaml_child_path(path, claim->field),
            fmt::format("{} is already served by {} ({}); one endpoint, one event", claim->what,
                        it->second.object, it->second.where));
  }
}

/// The action of trigger `t` at `path`: not run yet, or what its kind's check step reports.
void check_action(refusals_builder& b, const dsl::document& doc, const std::string& name,
                  const dsl::sensor& sensor, const dsl::trigger& t, const std::string& path,
                  const runnability_context& cx) {
  const auto* action = action_of(t);
  if (!action)
    return;
  auto at = dsl::yaml_child_path(dsl::yaml_child_path(path, "template"), action->type);
  if (!cx.triggers || !cx.triggers->count(action->type)) {
    b.add(doc, "trigger", name, at, not_run_yet);
    return;
  }
  trigger_context ctx;
  ctx.sensor_name = sensor.metadata.argo_name();
  ctx.sensor_namespace = sensor.metadata.namespace_;
  ctx.sensor_service_account = sensor.spec.service_account_name;
  ctx.manifest = &t;
  for (const auto& problem : cx.triggers->at(action->type).check(ctx))
    b.add(doc, "trigger", name, at, problem);
}

void check_trigger(refusals_builder& b, const dsl::document& doc, const dsl::sensor& sensor,
                   const dsl::trigger& t, const std::string& path, const runnability_context& cx) {
  auto name = sensor.metadata.name + "/" + t.template_.name;
  check_action(b, doc, name, sensor, t, path, cx);
  if (t.dlq_trigger)
    check_action(b, doc, name, sensor, *t.dlq_trigger, dsl::yaml_child_path(path, "dlqTrigger"),
                 cx);
  check_secrets(b, doc, "trigger", name, path, cx);
}

} // namespace

std::vector<refusal> check_runnability(const std::vector<dsl::document>& documents,
                                       const runnability_context& context) {
  refusals_builder b;
  std::map<std::string, claim_owner> claims;
  for (const auto& doc : documents) {
    if (const auto* es = std::get_if<dsl::event_source>(&doc.body)) {
      check_event_source(b, doc, *es, context, claims);
    } else if (const auto* s = std::get_if<dsl::sensor>(&doc.body)) {
      const auto& triggers = s->spec.triggers;
      for (std::size_t i = 0; i < triggers.size(); ++i)
        check_trigger(b, doc, *s, triggers[i], dsl::yaml_item_path("spec.triggers", i), context);
    }
  }
  return std::move(b.out);
}

std::string refusal::text() const {
  return why.without_level();
}

std::string runnability_summary(const std::vector<refusal>& refusals) {
  std::size_t sources = 0;
  std::size_t triggers = 0;
  for (const auto& r : refusals)
    (r.kind == "source" ? sources : triggers)++;
  if (refusals.empty())
    return {};
  return fmt::format("{} trigger{} and {} source{} will not run", triggers,
                     triggers == 1 ? "" : "s", sources, sources == 1 ? "" : "s");
}

} // namespace ganglion::core
