#include "ganglion/core/secrets.hpp"

#include <fstream>
#include <sstream>

namespace ganglion::core {

secret_store::secret_store(std::string dir) : dir_(std::move(dir)) {}

secret_store::secret_store(lookup backend) : backend_(std::move(backend)) {}

std::optional<std::string> secret_store::read(const std::string& name, const std::string& key,
                                              std::string* error) const {
  auto fail = [&](const std::string& why) -> std::optional<std::string> {
    if (error)
      *error = why;
    return std::nullopt;
  };
  if (dir_.empty() && !backend_)
    return fail("secret " + name + "/" + key + " is needed but no --secrets-dir was given");
  if (name.empty() || key.empty() || name.find('/') != std::string::npos
      || key.find('/') != std::string::npos || name == ".." || key == "..")
    return fail("invalid secret reference '" + name + "/" + key + "'");
  if (backend_)
    return backend_(name, key, error);
  auto path = dir_ + "/" + name + "/" + key;
  std::ifstream in{path, std::ios::binary};
  if (!in)
    return fail("cannot read secret file " + path);
  std::ostringstream content;
  content << in.rdbuf();
  auto value = content.str();
  if (!value.empty() && value.back() == '\n')
    value.pop_back();
  if (!value.empty() && value.back() == '\r')
    value.pop_back();
  return value;
}

bool constant_time_equal(const std::string& a, const std::string& b) noexcept {
  // Every byte of the longer input is visited whatever the inputs hold.
  const auto n = std::max(a.size(), b.size());
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  for (std::size_t i = 0; i < n; ++i) {
    unsigned char x = i < a.size() ? static_cast<unsigned char>(a[i]) : 0;
    unsigned char y = i < b.size() ? static_cast<unsigned char>(b[i]) : 0;
    diff |= static_cast<unsigned char>(x ^ y);
  }
  return diff == 0;
}

} // namespace ganglion::core
