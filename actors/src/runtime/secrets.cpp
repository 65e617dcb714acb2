#include "ganglion/core/secrets.hpp"

#include <fstream>

#include <fmt/format.h>

#include "ganglion/core/read_secret.hpp"
#include "ganglion/core/secret_files.hpp"

namespace ganglion::core {

secret_store::secret_store(std::string dir) : dir_(std::move(dir)) {}

secret_store::secret_store(lookup backend, std::shared_ptr<secret_files> files)
  : backend_(std::move(backend)),
    files_(files ? std::move(files) : std::make_shared<secret_files>()) {}

std::shared_ptr<const secret_store> secret_store::for_namespace(std::string namespace_name) const {
  auto view = std::make_shared<secret_store>(*this);
  view->namespace_ = std::move(namespace_name);
  return view;
}

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
    return backend_(namespace_, name, key, error);
  auto path = dir_ + "/" + name + "/" + key;
  std::ifstream in{path, std::ios::binary};
  if (!in)
    return fail("cannot read secret file " + path);
  // Kubernetes caps a Secret at 1 MiB; a larger file is not a secret (a device, a log).
  constexpr std::size_t max_secret_bytes = std::size_t{1} << 20;
  std::string value;
  char chunk[4096];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    value.append(chunk, static_cast<std::size_t>(in.gcount()));
    if (value.size() > max_secret_bytes)
      return fail("secret file " + path + " is larger than 1 MiB");
  }
  if (!value.empty() && value.back() == '\n')
    value.pop_back();
  if (!value.empty() && value.back() == '\r')
    value.pop_back();
  return value;
}

std::optional<std::string> secret_store::file(const std::string& name, const std::string& key,
                                              std::string* error) const {
  auto value = read(name, key, error);
  if (!value)
    return std::nullopt;
  if (!backend_)
    return dir_ + "/" + name + "/" + key;
  try {
    return files_->write(namespace_, name, key, *value);
  } catch (const std::exception& ex) {
    if (error)
      *error = "secret " + name + "/" + key + ": " + ex.what();
    return std::nullopt;
  }
}

std::optional<std::string> try_read_secret(const secret_store* secrets,
                                           const dsl::secret_key_selector& ref,
                                           std::string_view field, std::string* error,
                                           secret_form form) {
  std::string why;
  std::optional<std::string> value;
  if (secrets == nullptr)
    why =
      fmt::format("secret {}/{} is needed but no secret store is configured", ref.name, ref.key);
  else if (form == secret_form::file)
    value = secrets->file(ref.name, ref.key, &why);
  else
    value = secrets->read(ref.name, ref.key, &why);
  if (!value && error)
    *error = fmt::format("{}: {}", field, why);
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
