#pragma once

// Not installed: what every trigger that sends a message or request does with its parameters —
// compile them once, apply them to its resource, and look up the events of a firing.

#include <functional>
#include <map>
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

/// A trigger's `parameters[]` and its resource's `<key>.parameters[]`, applied as Argo does:
/// ApplyTemplateParameters on the whole template, then ApplyResourceParameters on its `<key>`
/// object.
class resource_parameters {
public:
  /// Compiles both lists (std::invalid_argument naming the field) and, when any parameter is
  /// given, takes the template from `template_text` (std::runtime_error when it has no `key`
  /// object).
  resource_parameters(const std::vector<trigger_parameter>& template_parameters,
                      const std::vector<trigger_parameter>& own_parameters, std::string_view key,
                      const std::function<std::string()>& template_text);

  /// True when no parameter is given: the resource is the manifest's as it is.
  bool empty() const { return template_.empty() && own_.empty(); }

  /// The `<key>` object with the parameters applied, as JSON text; throws std::runtime_error.
  std::string resolve(const event_lookup& lookup) const;

private:
  std::string key_;
  std::vector<compiled_parameter> template_;
  std::vector<compiled_parameter> own_;
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
