#include "admin_token.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>

#include <strings.h>
#include <sys/stat.h>

#include <spdlog/spdlog.h>

#include "ganglion/core/secrets.hpp"

namespace ganglion::app {

namespace {

/// The file's contents without trailing whitespace; nullopt with `error` set when unreadable.
std::optional<std::string> read_token(const std::string& path, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = std::strerror(errno);
    return std::nullopt;
  }
  std::ostringstream text;
  text << in.rdbuf();
  auto token = text.str();
  while (!token.empty() && (token.back() == '\n' || token.back() == '\r' || token.back() == ' '
                            || token.back() == '\t'))
    token.pop_back();
  return token;
}

} // namespace

admin_token::admin_token(std::string path) : path_(std::move(path)) {
  std::string error;
  auto token = read_token(path_, error);
  if (!token)
    throw std::runtime_error("cannot read --admin-token-file " + path_ + ": " + error);
  if (token->empty())
    throw std::runtime_error("--admin-token-file " + path_
                             + " is empty; write the token into it (e.g. openssl rand -hex 32)");
  token_ = std::move(*token);
  struct stat st{};
  if (::stat(path_.c_str(), &st) == 0)
    seen_ = {static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino),
             static_cast<std::uint64_t>(st.st_size),
             static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec};
}

std::string admin_token::current() {
  std::lock_guard guard{mutex_};
  struct stat st{};
  if (::stat(path_.c_str(), &st) != 0)
    return token_;
  version now{static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino),
              static_cast<std::uint64_t>(st.st_size),
              static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec};
  if (now == seen_)
    return token_;
  seen_ = now;
  std::string error;
  auto token = read_token(path_, error);
  if (!token || token->empty()) {
    spdlog::warn("--admin-token-file {} changed but {}; the previous token stays", path_,
                 token ? "is empty" : "cannot be read: " + error);
    return token_;
  }
  if (*token != token_)
    spdlog::info("--admin-token-file {} changed: the admin API takes the new token", path_);
  token_ = std::move(*token);
  return token_;
}

bool admin_token::accepts(std::string_view authorization) {
  constexpr std::string_view scheme = "Bearer ";
  if (authorization.size() < scheme.size()
      || ::strncasecmp(authorization.data(), scheme.data(), scheme.size()) != 0)
    return false;
  auto given = authorization.substr(scheme.size());
  while (!given.empty() && given.front() == ' ')
    given.remove_prefix(1);
  return core::constant_time_equal(std::string(given), current());
}

} // namespace ganglion::app
