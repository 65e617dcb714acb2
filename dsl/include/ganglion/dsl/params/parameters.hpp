#pragma once

// Not installed: exposes simdjson through event_view.

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ganglion/dsl/filter/event_view.hpp"
#include "ganglion/dsl/tmpl/go_template.hpp"
#include "ganglion/dsl/path/json_path.hpp"
#include "ganglion/dsl/model.hpp"

namespace ganglion::dsl {

/// A trigger parameter compiled at load time.
struct compiled_parameter {
  trigger_parameter spec;
  std::optional<json_path> data_key;
  std::optional<json_path> context_key;
  dest_path dest;
  /// `dest` read as a gjson path, for append / prepend.
  std::optional<json_path> dest_lookup;
  /// The template in effect (dataTemplate when the data side is selected, else
  /// contextTemplate), parsed once.
  std::optional<go_template> tmpl;
  /// Why that template did not parse, when a key or `value` remains to fall back on: Argo
  /// parses at run time and falls back, so the parameter still resolves. Empty otherwise.
  std::string template_error;

  /// Compiles paths, the template and checks the operation; throws compile_error, also for a
  /// template that does not parse and has no key or value to fall back on.
  explicit compiled_parameter(const trigger_parameter& spec);
};

/// A resolved parameter value: JSON text ready to insert, or a plain string to insert quoted.
struct resolved_value {
  std::string text;
  /// True: `text` is raw JSON (objects, arrays, or scalars with useRawData); false: a string.
  bool is_json = false;
  /// The value as JSON text (quoting plain strings).
  std::string as_json() const;
};

/// Looks up the event of a dependency by name; returns nullptr when the dependency holds no
/// event (an absent `||` branch).
using event_lookup = std::function<const event_view*(std::string_view dependency)>;

/// Argo's ResolveParamValue: the data side over the context side; on that side the template
/// first (`.Input` = the data or context as JSON; an empty or `<no value>` output or an
/// execution error falls through), then the key, then `value`; the whole event as
/// `{"context":…,"data":"<base64>"}` when no key is given.
/// nullopt when the dependency holds no event and there is no default (the parameter is skipped).
/// Throws std::runtime_error with a message when the value cannot be resolved.
std::optional<resolved_value> resolve_parameter(const compiled_parameter& parameter,
                                                const event_view* event);

/// Argo's ConstructPayload for message-style triggers: applies `payload[]` parameters in order
/// to an initially empty document (the first `dest` creates `{}`, or `[]` for an index), so the
/// result is empty when no parameter applies. The first parameter with an empty `dest` and a
/// value returns that value, as is, as the whole body. Parameters whose dependency holds no
/// event and that have no default are left out (Argo dereferences nil there). Throws
/// std::runtime_error on a resolution or dest error.
std::string build_payload(const std::vector<compiled_parameter>& parameters,
                          const event_lookup& lookup);

/// Argo's ApplyParams: applies parameters to a JSON document (overwrite / append / prepend;
/// append and prepend make the result a string when the dest already exists). Parameters
/// without a value are skipped. Throws std::runtime_error on a resolution or dest error.
void apply_parameters(std::string& document, const std::vector<compiled_parameter>& parameters,
                      const event_lookup& lookup);

} // namespace ganglion::dsl
