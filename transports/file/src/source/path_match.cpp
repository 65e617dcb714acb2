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

std::vector<std::string> watch_problems(const std::string& name, const std::string& event_type,
                                        const watch_path_config& config) {
  std::vector<std::string> problems;
  if (event_type.empty())
    problems.push_back(name + ": type must be specified");
  if (config.directory.empty() || config.directory.front() != '/')
    problems.push_back(name + ": directory must be an absolute file path");
  if (config.path.empty() == config.path_regexp.empty())
    problems.push_back(name + ": watchPathConfig needs one of path and pathRegexp");
  try {
    path_matcher{config};
  } catch (const std::invalid_argument& e) {
    problems.push_back(name + ": " + e.what());
  }
  return problems;
}

} // namespace ganglion::file
