#include "ganglion/dsl/kind/read.hpp"
#include "ganglion/dsl/kind/yaml_node.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::minio::detail {

using namespace dsl::detail;

event_spec read_event(const dsl::spec_read_input& in) {
  const auto& node = in.node;
  event_spec out;
  out.endpoint = read_string(node, "endpoint");
  if (auto bucket = child(node, "bucket"); !is_absent(bucket) && bucket.IsMap())
    out.bucket = bucket_spec{read_string(bucket, "name"), read_string(bucket, "key")};
  out.region = read_string(node, "region");
  out.insecure = read_bool(node, "insecure");
  out.access_key = read_key_selector(node, "accessKey");
  out.secret_key = read_key_selector(node, "secretKey");
  out.ca_certificate = read_key_selector(node, "caCertificate");
  out.events = read_string_list(node, "events");
  if (auto filter = child(node, "filter"); !is_absent(filter) && filter.IsMap()) {
    out.prefix = read_string(filter, "prefix");
    out.suffix = read_string(filter, "suffix");
  }
  out.metadata = read_string_map(node, "metadata");
  return out;
}

} // namespace ganglion::minio::detail
