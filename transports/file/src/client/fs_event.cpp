#include "client/fs_event.hpp"

#include <array>
#include <utility>
#include <vector>

namespace ganglion::file {

namespace {

constexpr std::array<std::pair<std::uint32_t, std::string_view>, 5> names{{
  {op_create, "CREATE"},
  {op_remove, "REMOVE"},
  {op_write, "WRITE"},
  {op_rename, "RENAME"},
  {op_chmod, "CHMOD"},
}};

} // namespace

std::string op_string(std::uint32_t op) {
  std::string out;
  for (const auto& [bit, name] : names)
    if (op & bit) {
      if (!out.empty())
        out += '|';
      out += name;
    }
  return out;
}

std::uint32_t op_bits(std::string_view text) {
  std::uint32_t op = 0;
  while (true) {
    auto bar = text.find('|');
    auto part = text.substr(0, bar);
    for (const auto& [bit, name] : names)
      if (part == name)
        op |= bit;
    if (bar == std::string_view::npos)
      return op;
    text.remove_prefix(bar + 1);
  }
}

std::string go_clean(std::string_view path) {
  if (path.empty())
    return ".";
  bool rooted = path.front() == '/';
  std::vector<std::string_view> parts;
  std::size_t i = 0;
  while (i < path.size()) {
    auto slash = path.find('/', i);
    auto part = path.substr(i, slash == std::string_view::npos ? std::string_view::npos : slash - i);
    i = slash == std::string_view::npos ? path.size() : slash + 1;
    if (part.empty() || part == ".")
      continue;
    if (part == "..") {
      if (!parts.empty() && parts.back() != "..")
        parts.pop_back();
      else if (!rooted)
        parts.push_back(part);
      continue;
    }
    parts.push_back(part);
  }
  std::string out = rooted ? "/" : "";
  for (std::size_t k = 0; k < parts.size(); ++k) {
    if (k > 0)
      out += '/';
    out += parts[k];
  }
  return out.empty() ? "." : out;
}

} // namespace ganglion::file
