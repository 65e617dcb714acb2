#pragma once

// Small encodings the server needs: base64, timestamps, random names and uids.

#include <string>

namespace ganglion::test::kube {

/// Standard base64 with padding.
std::string base64_encode(const std::string& data);
/// The bytes of standard base64 `text`; `ok` is false (and the result empty) when invalid.
std::string base64_decode(const std::string& text, bool& ok);
/// Now, as RFC 3339 in UTC with seconds: `2026-01-02T03:04:05Z`.
std::string rfc3339_now();
/// `count` random characters of the alphabet Kubernetes uses for generateName suffixes.
std::string random_suffix(std::size_t count = 5);
/// A random RFC 4122 version-4 UUID.
std::string random_uid();

} // namespace ganglion::test::kube
