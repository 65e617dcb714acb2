#pragma once

// What a kind's spec step works on (ganglion/dsl/kind_spec.hpp). The headers in this folder
// are dsl's API for writing a kind: readers from YAML (read.hpp), located problems
// (load_context.hpp), Argo's shared rules (rules.hpp, client_rules.hpp, json_rules.hpp). They
// expose yaml-cpp and nlohmann::json and are not installed: kinds are built in this tree.

#include <any>
#include <string>

#include <yaml-cpp/yaml.h>

#include "ganglion/dsl/kind/load_context.hpp"
#include "ganglion/dsl/kind/rules.hpp"
#include "ganglion/dsl/kind_spec.hpp"
#include "ganglion/dsl/model/common.hpp"
#include "ganglion/dsl/model/trigger.hpp"

namespace ganglion::dsl {

/// The input of kind_spec::read.
struct spec_read_input {
  const YAML::Node& node;           ///< `spec.<type>.<event>`, `template.<type>`, `spec.<type>`
  const std::string& path;          ///< its YAML path, for diagnostics
  const detail::load_context& cx;   ///< where problems go (located by path)
  /// The manifest's metadata for an EventBus (its defaults name it); nullptr otherwise.
  const object_meta* metadata = nullptr;
};

/// The input of kind_spec::check.
struct spec_check_input {
  const std::string& path;        ///< the YAML path of the kind's part
  const detail::load_context& cx; ///< where problems go
  /// A trigger's dependencies and template-level parameter dests (nullptr for a source).
  const detail::parameter_scope* scope = nullptr;
  /// A trigger's action: its `parameters[]` and `payload[]` (nullptr for a source).
  const trigger_action* action = nullptr;
};

/// A kind_spec from a typed reader and typed rules (and, for a source, what an event holds
/// alone).
template <class Model>
kind_spec make_kind_spec(Model (*read)(const spec_read_input&),
                         void (*check)(const Model&, const spec_check_input&),
                         std::optional<spec_claim> (*claim)(const Model&) = nullptr) {
  kind_spec out;
  out.read = [read](const spec_read_input& in) { return std::any{read(in)}; };
  out.check = [check](const std::any& model, const spec_check_input& in) {
    if (const auto* m = std::any_cast<Model>(&model))
      check(*m, in);
  };
  if (claim)
    out.claim = [claim](const std::any& model) -> std::optional<spec_claim> {
      const auto* m = std::any_cast<Model>(&model);
      return m ? claim(*m) : std::nullopt;
    };
  return out;
}

} // namespace ganglion::dsl
