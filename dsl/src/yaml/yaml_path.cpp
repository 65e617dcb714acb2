#include "ganglion/dsl/kind/yaml_path.hpp"

#include <algorithm>

namespace ganglion::dsl::detail {

namespace {

bool plain_key(std::string_view key) {
  return !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'
           || c == '-';
  });
}

} // namespace

std::string child_path(const std::string& parent, std::string_view key) {
  std::string out = parent;
  if (plain_key(key)) {
    if (!out.empty())
      out += '.';
    out += key;
    return out;
  }
  out += "[\"";
  for (char c : key) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  out += "\"]";
  return out;
}

std::string item_path(const std::string& parent, std::size_t index) {
  return parent + "[" + std::to_string(index) + "]";
}

std::string parent_path(const std::string& path) {
  // Scan left to right so that dots and brackets inside quoted keys are skipped.
  std::size_t last = 0;
  bool in_quotes = false;
  for (std::size_t i = 0; i < path.size(); ++i) {
    char c = path[i];
    if (in_quotes) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_quotes = false;
      continue;
    }
    if (c == '"')
      in_quotes = true;
    else if (c == '.' || c == '[')
      last = i;
  }
  return path.substr(0, last);
}

} // namespace ganglion::dsl::detail
