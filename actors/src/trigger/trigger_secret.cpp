#include "ganglion/core/read_secret.hpp"
#include "ganglion/core/trigger.hpp"

namespace ganglion::core {

std::string read_trigger_secret(const trigger_context& ctx, const dsl::secret_key_selector& ref,
                                const char* field) {
  return read_secret_or_throw<trigger_error>(ctx.secrets.get(), ref, field);
}

} // namespace ganglion::core
