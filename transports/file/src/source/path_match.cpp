#include "source/path_match.hpp"

#include <stdexcept>

#include <re2/re2.h>

namespace ganglion::file {

path_matcher::path_matcher(const watch_path_config& config)
  : directory_(config.directory), path_(config.path) {
  if (config.path_regexp.empty())
    return;
  regexp_ = std::make_unique<re2::RE2>(config.path_regexp, re2::RE2::Quiet);
  if (!regexp_->ok())
    throw std::invalid_argument("invalid pathRegexp: " + regexp_->error());
}

path_matcher::~path_matcher() = default;
path_matcher::path_matcher(path_matcher&&) noexcept = default;

bool path_matcher::matches(std::string_view name) const {
  auto relative = name;
  if (relative.substr(0, directory_.size()) == directory_)
    relative.remove_prefix(directory_.size());
  if (!path_.empty() && path_ == relative)
    return true;
  return regexp_ && re2::RE2::PartialMatch(relative, *regexp_);
}

} // namespace ganglion::file
