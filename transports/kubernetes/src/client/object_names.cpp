#include "client/object_names.hpp"

#include <algorithm>

namespace ganglion::kubernetes::detail {

namespace {

bool lower_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/// A label of any length: the rules of dns_label but its length.
bool label_chars(std::string_view s) {
  return !s.empty() && lower_alnum(s.front()) && lower_alnum(s.back())
         && std::all_of(s.begin(), s.end(), [](char c) { return lower_alnum(c) || c == '-'; });
}

} // namespace

bool dns_label(std::string_view s) {
  return s.size() <= 63 && label_chars(s);
}

bool dns_subdomain(std::string_view s) {
  if (s.empty() || s.size() > 253)
    return false;
  for (std::size_t start = 0;;) {
    auto end = s.find('.', start);
    if (!label_chars(s.substr(start, end == std::string_view::npos ? s.npos : end - start)))
      return false;
    if (end == std::string_view::npos)
      return true;
    start = end + 1;
  }
}

} // namespace ganglion::kubernetes::detail
