#include "artifact/artifact.hpp"

namespace ganglion::kubernetes::detail {

artifact_kind artifact_location::kind() const noexcept {
  if (s3)
    return artifact_kind::s3;
  if (inline_text)
    return artifact_kind::inline_text;
  if (file)
    return artifact_kind::file;
  if (url)
    return artifact_kind::url;
  if (git)
    return artifact_kind::git;
  if (configmap)
    return artifact_kind::configmap;
  if (resource)
    return artifact_kind::resource;
  return artifact_kind::none;
}

std::string_view artifact_location::key() const noexcept {
  switch (kind()) {
  case artifact_kind::s3: return "s3";
  case artifact_kind::inline_text: return "inline";
  case artifact_kind::file: return "file";
  case artifact_kind::url: return "url";
  case artifact_kind::git: return "git";
  case artifact_kind::configmap: return "configmap";
  case artifact_kind::resource: return "resource";
  case artifact_kind::none: break;
  }
  return {};
}

} // namespace ganglion::kubernetes::detail
