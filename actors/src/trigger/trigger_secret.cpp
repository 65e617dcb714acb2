#include <fmt/format.h>

#include "ganglion/core/trigger.hpp"

namespace ganglion::core {

std::string read_trigger_secret(const trigger_context& ctx, const dsl::secret_key_selector& ref,
                                const char* field) {
  if (!ctx.secrets)
    throw trigger_error(fmt::format(
      "{}: secret {}/{} is needed but no secret store is configured", field, ref.name, ref.key));
  std::string error;
  auto value = ctx.secrets->read(ref.name, ref.key, &error);
  if (!value)
    throw trigger_error(fmt::format("{}: {}", field, error));
  return *value;
}

} // namespace ganglion::core
