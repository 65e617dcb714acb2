#include "source/event_data.hpp"

#include "ganglion/dsl/go/go_json.hpp"

namespace ganglion::file {

std::string file_event_data(std::string_view name, std::uint32_t op,
                            const metadata_map& metadata) {
  std::string out = R"({"name":)";
  dsl::append_go_json_string(out, name);
  out += R"(,"op":)";
  out += std::to_string(op);
  out += R"(,"metadata":)";
  if (metadata)
    dsl::append_go_json_object(out, *metadata);
  else
    out += "null";
  out += '}';
  return out;
}

} // namespace ganglion::file
