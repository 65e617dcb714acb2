#pragma once

// Private: the names Kubernetes accepts for objects and namespaces (apimachinery's
// IsDNS1123Label and IsDNS1123Subdomain).

#include <string_view>

namespace ganglion::kubernetes::detail {

/// A DNS-1123 label: at most 63 lowercase letters, digits and `-`, starting and ending with a
/// letter or digit (a namespace's name).
bool dns_label(std::string_view s);

/// A DNS-1123 subdomain: at most 253 characters, DNS-1123 labels joined by `.` (most objects'
/// names: ConfigMaps, Secrets, service accounts).
bool dns_subdomain(std::string_view s);

} // namespace ganglion::kubernetes::detail
