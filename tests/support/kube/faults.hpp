#pragma once

// Failures a test asks for: the next requests fail, or a verb on a resource is forbidden.

#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ganglion::test::kube {

/// A failure to answer instead of serving a request.
struct injected_failure {
  int status = 500;
  int retry_after_seconds = 0;
};

/// The failures and prohibitions a test set. Thread-safe.
class faults {
public:
  /// The next `count` requests whose target starts with `path_prefix` fail with `status`.
  void fail_next(int count, int status, int retry_after_seconds, std::string path_prefix);
  /// The failure `target` gets, counting it; nullopt when it is served.
  std::optional<injected_failure> take(const std::string& target);
  void forbid(std::string verb, std::string resource);
  void allow_all();
  /// Whether `verb` on `resource` (`pods`, `pods/status`) is forbidden.
  bool forbidden(const std::string& verb, const std::string& resource) const;

private:
  struct pending {
    int count;
    injected_failure failure;
    std::string path_prefix;
  };
  mutable std::mutex mutex_;
  std::vector<pending> pending_;
  std::set<std::pair<std::string, std::string>> forbidden_;
};

} // namespace ganglion::test::kube
