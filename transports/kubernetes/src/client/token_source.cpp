#include "client/token_source.hpp"

#include <spdlog/spdlog.h>

#include "ganglion/kubernetes/config.hpp"
#include "client/text_file.hpp"

namespace ganglion::kubernetes::detail {

token_source::token_source(std::string inline_token, std::string file,
                           std::chrono::milliseconds refresh)
  : file_(std::move(file)), refresh_(refresh), token_(std::move(inline_token)) {
  if (file_.empty())
    return;
  std::string why;
  token_ = read(why);
  if (token_.empty())
    throw config_error("token file: " + why);
  read_at_ = std::chrono::steady_clock::now();
}

std::string token_source::read(std::string& why) const {
  auto content = read_text_file(file_, why);
  if (!content)
    return {};
  auto token = trimmed(std::move(*content));
  if (token.empty())
    why = file_ + ": empty";
  return token;
}

std::string token_source::current() {
  std::lock_guard guard{mutex_};
  if (file_.empty() || std::chrono::steady_clock::now() - read_at_ < refresh_)
    return token_;
  std::string why;
  auto token = read(why);
  read_at_ = std::chrono::steady_clock::now();
  if (token.empty())
    spdlog::warn("kubernetes: keeping the last bearer token: {}", why);
  else
    token_ = std::move(token);
  return token_;
}

bool token_source::reload() {
  if (file_.empty())
    return false;
  std::string why;
  auto token = read(why);
  std::lock_guard guard{mutex_};
  read_at_ = std::chrono::steady_clock::now();
  if (token.empty()) {
    spdlog::warn("kubernetes: keeping the last bearer token: {}", why);
    return false;
  }
  bool changed = token != token_;
  token_ = std::move(token);
  return changed;
}

} // namespace ganglion::kubernetes::detail
