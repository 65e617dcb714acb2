#pragma once

#include <map>
#include <string>

#include <yaml-cpp/yaml.h>

namespace ganglion::dsl::detail {

/// The fingerprints of a document of `kind` (see document::fingerprints) from its root node;
/// empty for kinds ganglion does not run.
std::map<std::string, std::string> fingerprint_document(const YAML::Node& root,
                                                        const std::string& kind);

} // namespace ganglion::dsl::detail
