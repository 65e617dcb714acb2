#include "load/load_duplicates.hpp"

#include <map>
#include <utility>

#include <fmt/format.h>

namespace ganglion::dsl::detail {

namespace {

bool is_argo_kind(const std::string& kind) {
  return kind == "EventSource" || kind == "Sensor" || kind == "EventBus";
}

std::string namespace_of(const document& doc) {
  return std::visit(
    [](const auto& body) -> std::string {
      if constexpr (requires { body.metadata.namespace_; })
        return body.metadata.namespace_;
      else
        return {};
    },
    doc.body);
}

std::string at(const source_location& where) {
  return fmt::format("{}:{}:{}", where.file, where.line, where.column);
}

} // namespace

void report_duplicates(load_result& result) {
  std::map<std::pair<std::string, std::string>, const document*> first;
  for (const auto& doc : result.documents) {
    if (!is_argo_kind(doc.kind) || doc.name.empty())
      continue;
    auto [it, added] = first.try_emplace(std::pair{doc.kind, doc.name}, &doc);
    if (added)
      continue;
    const auto& earlier = *it->second;
    auto message = fmt::format("{} \"{}\" is defined twice: here and at {}", doc.kind, doc.name,
                               at(earlier.locate("metadata.name")));
    if (namespace_of(doc) != namespace_of(earlier))
      message += " (in another namespace: ganglion runs every namespace's objects together)";
    diagnostic d;
    d.where = doc.locate("metadata.name");
    d.path = "metadata.name";
    d.message = std::move(message);
    result.diagnostics.push_back(std::move(d));
  }
}

} // namespace ganglion::dsl::detail
