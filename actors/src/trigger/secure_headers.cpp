#include "ganglion/core/secure_headers.hpp"

#include <optional>

#include <fmt/format.h>

namespace ganglion::core {

namespace {

/// Why `header`'s value cannot be read, if it cannot.
std::optional<std::string> problem_of(const dsl::secure_header& header) {
  if (header.config_map)
    return fmt::format("secureHeaders {}: configMapKeyRef is not supported yet", header.name);
  if (!header.secret)
    return fmt::format("secureHeaders {}: valueFrom.secretKeyRef is missing", header.name);
  return std::nullopt;
}

} // namespace

std::vector<std::string> secure_header_problems(const std::vector<dsl::secure_header>& headers) {
  std::vector<std::string> problems;
  for (const auto& header : headers)
    if (auto problem = problem_of(header))
      problems.push_back(std::move(*problem));
  return problems;
}

std::vector<std::pair<std::string, std::string>>
read_secure_headers(const trigger_context& ctx, const std::vector<dsl::secure_header>& headers) {
  std::vector<std::pair<std::string, std::string>> out;
  out.reserve(headers.size());
  for (const auto& header : headers) {
    if (auto problem = problem_of(header))
      throw trigger_error(*problem);
    out.emplace_back(header.name, read_trigger_secret(ctx, *header.secret, "secureHeaders"));
  }
  return out;
}

} // namespace ganglion::core
