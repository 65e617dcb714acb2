#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ganglion/dsl/go/go_struct.hpp"

namespace ganglion::bitbucket::detail {

/// One change of a `repo:refs_changed` delivery, as Argo's filter reads it.
struct refs_change {
  std::string ref_type; ///< `ref.type` (BRANCH, TAG)
  std::string type;     ///< ADD, UPDATE, DELETE
  std::string to_hash;
};

/// A `repo:refs_changed` delivery decoded as Argo's refsChangedWebhookEvent.
class refs_changed {
public:
  /// json.Unmarshal of `body`; nullopt with Go's `error` when it fails.
  static std::optional<refs_changed> decode(std::string_view body, std::string& error);

  /// `repository.project.key`.
  const std::string& project_key() const;
  /// `repository.slug`.
  const std::string& repository_slug() const;
  /// The changes, in order.
  std::vector<refs_change> changes() const;
  /// json.Marshal of the event with `changes` set to its change `index` alone (Argo's
  /// oneEventPerChange body).
  std::string marshal_with_change(std::size_t index) const;

private:
  explicit refs_changed(dsl::go_data data) : data_(std::move(data)) {}

  dsl::go_data data_;
};

} // namespace ganglion::bitbucket::detail
