// What `validate` accepts, `run` compiles: every Sensor of the Argo Events example corpus that
// loads without an error builds its matching core (filters, transforms, conditions) at once.

#include <algorithm>
#include <cstdint>

#include <gtest/gtest.h>

#include "files.hpp"
#include "ganglion/dsl/load.hpp"
#include "sensor/sensor_core.hpp"

using namespace ganglion;

namespace {

std::vector<std::string> corpus_files() { return test::yaml_files_under(GANGLION_CORPUS_DIR); }

/// True when an error diagnostic lies within document `i` of `result`.
bool has_error(const dsl::load_result& result, std::size_t i) {
  const auto& docs = result.documents;
  int first = docs[i].where.line;
  int last = i + 1 < docs.size() ? docs[i + 1].where.line : INT32_MAX;
  return std::any_of(result.diagnostics.begin(), result.diagnostics.end(), [&](const auto& d) {
    return d.level == dsl::severity::error && d.where.file == docs[i].where.file
           && d.where.line >= first && d.where.line < last;
  });
}

} // namespace

TEST(core_corpus_sensors, every_sensor_validate_accepts_compiles_its_matching_core) {
  std::size_t compiled = 0;
  for (const auto& file : corpus_files()) {
    auto result = dsl::load_manifests({file});
    for (std::size_t i = 0; i < result.documents.size(); ++i) {
      const auto* sensor = std::get_if<dsl::sensor>(&result.documents[i].body);
      if (!sensor || has_error(result, i))
        continue;
      try {
        core::sensor_core core{*sensor};
        ++compiled;
      } catch (const std::exception& e) {
        ADD_FAILURE() << file << ": sensor " << sensor->metadata.name
                      << " passed validation but does not compile: " << e.what();
      }
    }
  }
  // The corpus has dozens of valid sensors; none found means the corpus was not read.
  EXPECT_GT(compiled, 30u);
}
