#include "faults.hpp"

namespace ganglion::test::kube {

void faults::fail_next(int count, int status, int retry_after_seconds, std::string path_prefix) {
  std::lock_guard guard{mutex_};
  if (count > 0)
    pending_.push_back({count, {status, retry_after_seconds}, std::move(path_prefix)});
}

std::optional<injected_failure> faults::take(const std::string& target) {
  std::lock_guard guard{mutex_};
  for (auto it = pending_.begin(); it != pending_.end(); ++it) {
    if (target.rfind(it->path_prefix, 0) != 0)
      continue;
    auto failure = it->failure;
    if (--it->count == 0)
      pending_.erase(it);
    return failure;
  }
  return std::nullopt;
}

void faults::forbid(std::string verb, std::string resource) {
  std::lock_guard guard{mutex_};
  forbidden_.emplace(std::move(verb), std::move(resource));
}

void faults::allow_all() {
  std::lock_guard guard{mutex_};
  forbidden_.clear();
}

bool faults::forbidden(const std::string& verb, const std::string& resource) const {
  std::lock_guard guard{mutex_};
  for (const auto& v : {verb, std::string("*")})
    for (const auto& r : {resource, std::string("*")})
      if (forbidden_.count({v, r}))
        return true;
  return false;
}

} // namespace ganglion::test::kube
