#pragma once

// Not installed: what every trigger that sends a message or request does with its parameters —
// compile them once, apply them to its resource, and look up the events of a firing.

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include <simdjson.h>

#include "ganglion/dsl/params/parameters.hpp"

namespace ganglion::dsl {

/// Compiles each of `specs`; throws std::invalid_argument `<field>[<index>]: <why>`.
std::vector<compiled_parameter> compile_parameters(const std::vector<trigger_parameter>& specs,
                                                   std::string_view field);

/// The `key` object (`http`, `kafka`, …) of a trigger template given as JSON text; throws
/// std::runtime_error when the text is not an object or has no such object.
std::string template_object(const std::string& template_text, std::string_view key);

/// A `<kind>` object's `list` (`parameters`, `payload`) as the trigger's `parameters[]` rewrote
/// it on one firing, read as the loader reads the manifest's and compiled; the last list
/// compiled is kept and reused while the rewritten list is the same. A list or field of the
/// wrong type is an error naming `<field>[<index>]` (Argo's json.Unmarshal of the rewritten
/// template fails there too). Thread-safe.
class rewritten_parameters {
public:
  /// Reads `list` of each object given to of(); `field` names it in errors (`http.payload`).
  rewritten_parameters(std::string list, std::string field)
    : list_(std::move(list)), field_(std::move(field)) {}

  /// The compiled `list` of `object_json`; throws std::runtime_error (reading) or
  /// std::invalid_argument (compiling), naming the field.
  std::shared_ptr<const std::vector<compiled_parameter>> of(std::string_view object_json);

private:
  std::string list_;
  std::string field_;
  std::mutex mutex_;
  std::string last_text_;
  std::shared_ptr<const std::vector<compiled_parameter>> last_;
};

/// A trigger's `parameters[]` and its resource's `<key>.parameters[]`, applied as Argo does:
/// ApplyTemplateParameters on the whole template, then ApplyResourceParameters on its `<key>`
/// object with the `<key>.parameters[]` of the template as the first step left it (a template
/// parameter may rewrite them: Argo's tutorial 02, sensor-05).
class resource_parameters {
public:
  /// Compiles both lists (std::invalid_argument naming the field) and, when any parameter is
  /// given, takes the template from `template_text` (std::runtime_error when it has no `key`
  /// object). `apply_own`: false when the executor applies `<key>.parameters[]` itself, so
  /// they are neither compiled nor applied here.
  resource_parameters(const std::vector<trigger_parameter>& template_parameters,
                      const std::vector<trigger_parameter>& own_parameters, std::string_view key,
                      const std::function<std::string()>& template_text,
                      bool apply_own = true);

  /// True when no parameter is given: the resource is the manifest's as it is.
  bool empty() const { return template_.empty() && own_.empty(); }

  /// True when the trigger's `parameters[]` rewrite the template on every firing.
  bool rewrites_template() const { return !template_.empty(); }

  /// The `<key>` object with the parameters applied, as JSON text; throws std::runtime_error.
  /// `rewritten`, when given and template parameters apply, receives the `<key>` object as they
  /// left it (before `<key>.parameters[]`).
  std::string resolve(const event_lookup& lookup, std::string* rewritten = nullptr);

private:
  std::string key_;
  std::vector<compiled_parameter> template_;
  std::vector<compiled_parameter> own_;
  /// `<key>.parameters[]` of the rewritten template, when template parameters apply.
  std::unique_ptr<rewritten_parameters> rewritten_own_;
  /// The whole template, when template parameters apply.
  std::string template_json_;
  /// Its `<key>` object, when only the resource's own parameters apply.
  std::string object_json_;
};

/// The events of one firing as parameters see them: each event's data parsed as JSON when its
/// content type is JSON or not given, with a parser kept per dependency across firings.
/// Not thread-safe; the views refer to the events added until the next clear().
class event_views {
public:
  /// Forgets the events of the previous firing.
  void clear() { views_.clear(); }

  /// Adds the event of `dependency`, given by its context and raw data.
  void add(const std::string& dependency, event_view view);

  /// Finds the events added since clear(); valid while this object is not changed.
  event_lookup lookup() const;

  /// Replaces the events with those of a firing (dependency → event pointer, null when the
  /// dependency holds none), each viewed through `view_of`; returns their lookup.
  template <class Events, class ViewOf>
  event_lookup reset(const Events& events, ViewOf&& view_of) {
    clear();
    for (const auto& [dependency, e] : events)
      if (e)
        add(dependency, view_of(*e));
    return lookup();
  }

private:
  std::map<std::string, event_view, std::less<>> views_;
  std::map<std::string, simdjson::dom::parser, std::less<>> parsers_;
};

} // namespace ganglion::dsl
