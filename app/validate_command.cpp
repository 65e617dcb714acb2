#include <cstdio>

#include "commands.hpp"
#include "ganglion/dsl/load.hpp"

namespace ganglion::app {

int validate_command(const validate_options& options) {
  auto result = dsl::load_manifests(options.files, {options.strict});
  std::size_t errors = 0;
  std::size_t warnings = 0;
  for (const auto& d : result.diagnostics) {
    std::fprintf(stderr, "%s\n", d.to_string().c_str());
    (d.level == dsl::severity::error ? errors : warnings)++;
  }
  std::size_t argo = 0;
  for (const auto& doc : result.documents)
    if (doc.body.index() != 0)
      ++argo;
  std::printf("%zu document(s), %zu Argo object(s): %zu error(s), %zu warning(s)\n",
              result.documents.size(), argo, errors, warnings);
  return errors > 0 ? 1 : 0;
}

} // namespace ganglion::app
