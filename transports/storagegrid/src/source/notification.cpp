#include "source/notification.hpp"

#include <cmath>
#include <functional>

#include "ganglion/dsl/go/go_json.hpp"
#include "ganglion/dsl/go/go_struct.hpp"
#include "source/qson.hpp"

namespace ganglion::storagegrid::detail {

namespace {

using json = nlohmann::json;

/// Go's field lookup: the exact name, else the folded one.
bool same_key(std::string_view key, std::string_view field) {
  return key == field || dsl::go_folded_name(key) == dsl::go_folded_name(field);
}

const char* go_kind(const json& v) {
  switch (v.type()) {
    case json::value_t::object: return "object";
    case json::value_t::array: return "array";
    case json::value_t::string: return "string";
    case json::value_t::boolean: return "bool";
    case json::value_t::null: return "null";
    default: return "number";
  }
}

/// json.Unmarshal of the tree into the struct: the first error stops it (Argo drops the
/// notification on any).
class decoder {
public:
  explicit decoder(std::string& error) : error_(error) {}

  bool mismatch(const json& v, const std::string& field, std::string_view go_type) {
    error_ = std::string{"json: cannot unmarshal "} + go_kind(v)
             + " into Go struct field StorageGridNotification." + field + " of type "
             + std::string{go_type};
    return false;
  }

  bool text(const json& v, std::string& out, const std::string& field) {
    if (v.is_null())
      return true;
    if (!v.is_string())
      return mismatch(v, field, "string");
    out = v.get<std::string>();
    return true;
  }

  /// An `int` from a float64: Go marshals it and parses the digits, so only whole numbers
  /// within int64 (and below 1e21, past which Go writes an exponent) pass.
  bool integer(const json& v, std::int64_t& out, const std::string& field) {
    if (v.is_null())
      return true;
    if (!v.is_number())
      return mismatch(v, field, "int");
    double d = v.get<double>();
    if (std::trunc(d) != d || d < -9223372036854775808.0 || d >= 9223372036854775808.0)
      return mismatch(v, field, "int");
    out = static_cast<std::int64_t>(d);
    return true;
  }

  bool time(const json& v, event_time& out, const std::string& field) {
    if (v.is_null())
      return true;
    if (!v.is_string()) {
      error_ = "Time.UnmarshalJSON: input is not a JSON string (" + field + ")";
      return false;
    }
    auto t = parse_event_time(v.get_ref<const std::string&>());
    if (!t) {
      error_ = "parsing time \"" + v.get<std::string>() + "\" as RFC 3339 (" + field + ")";
      return false;
    }
    out = *t;
    return true;
  }

  /// A struct field: null leaves it, an object sets the fields `each` knows.
  bool object(const json& v, const std::string& field,
              const std::function<bool(const std::string&, const json&)>& each) {
    if (v.is_null())
      return true;
    if (!v.is_object())
      return mismatch(v, field, "struct");
    for (auto it = v.begin(); it != v.end(); ++it)
      if (!each(it.key(), it.value()))
        return false;
    return true;
  }

  /// `{"principalId":…}` (userIdentity, ownerIdentity) and the other one-field structs.
  bool one_field(const json& v, const std::string& field, std::string_view name, std::string& out) {
    return object(v, field, [&](const std::string& k, const json& e) {
      return !same_key(k, name) || text(e, out, field + "." + std::string{name});
    });
  }

  bool bucket(const json& v, record& r, const std::string& at) {
    return object(v, at, [&](const std::string& k, const json& e) {
      if (same_key(k, "name"))
        return text(e, r.bucket_name, at + ".name");
      if (same_key(k, "ownerIdentity"))
        return one_field(e, at + ".ownerIdentity", "principalId", r.bucket_owner_principal_id);
      if (same_key(k, "arn"))
        return text(e, r.bucket_arn, at + ".arn");
      return true;
    });
  }

  bool object_of(const json& v, record& r, const std::string& at) {
    return object(v, at, [&](const std::string& k, const json& e) {
      if (same_key(k, "key"))
        return text(e, r.object_key, at + ".key");
      if (same_key(k, "size"))
        return integer(e, r.object_size, at + ".size");
      if (same_key(k, "eTag"))
        return text(e, r.object_etag, at + ".eTag");
      if (same_key(k, "sequencer"))
        return text(e, r.object_sequencer, at + ".sequencer");
      return true;
    });
  }

  bool s3(const json& v, record& r, const std::string& at) {
    return object(v, at, [&](const std::string& k, const json& e) {
      if (same_key(k, "s3SchemaVersion"))
        return text(e, r.s3_schema_version, at + ".s3SchemaVersion");
      if (same_key(k, "configurationId"))
        return text(e, r.configuration_id, at + ".configurationId");
      if (same_key(k, "bucket"))
        return bucket(e, r, at + ".bucket");
      if (same_key(k, "object"))
        return object_of(e, r, at + ".object");
      return true;
    });
  }

  bool record_of(const json& v, record& r) {
    const std::string at = "Message.Records";
    return object(v, at, [&](const std::string& k, const json& e) {
      if (same_key(k, "eventVersion"))
        return text(e, r.event_version, at + ".eventVersion");
      if (same_key(k, "storageGridEventSource"))
        return text(e, r.event_source, at + ".storageGridEventSource");
      if (same_key(k, "eventTime"))
        return time(e, r.time, at + ".eventTime");
      if (same_key(k, "eventName"))
        return text(e, r.event_name, at + ".eventName");
      if (same_key(k, "userIdentity"))
        return one_field(e, at + ".userIdentity", "principalId", r.user_principal_id);
      if (same_key(k, "requestParameters"))
        return one_field(e, at + ".requestParameters", "sourceIPAddress", r.source_ip_address);
      if (same_key(k, "responseElements"))
        return one_field(e, at + ".responseElements", "x-amz-request-id", r.request_id);
      if (same_key(k, "s3"))
        return s3(e, r, at + ".s3");
      return true;
    });
  }

  /// A slice as Go decodes one: null makes it nil; an array reuses the elements it holds
  /// (decoding into them), grows, and is cut to the array's length.
  bool records(const json& v, notification& n) {
    if (v.is_null()) {
      n.records_nil = true;
      n.size = 0;
      n.records.clear();
      return true;
    }
    if (!v.is_array())
      return mismatch(v, "Message.Records", "[]struct");
    std::size_t i = 0;
    for (const auto& e : v) {
      if (i == n.records.size())
        n.records.emplace_back();
      if (!record_of(e, n.records[i]))
        return false;
      ++i;
    }
    if (i == 0)
      n.records.clear();
    n.records_nil = false;
    n.size = i;
    return true;
  }

  bool top(const json& tree, notification& n) {
    for (auto it = tree.begin(); it != tree.end(); ++it) {
      const auto& k = it.key();
      const auto& e = it.value();
      bool ok = true;
      if (same_key(k, "Action"))
        ok = text(e, n.action, "Action");
      else if (same_key(k, "Message"))
        ok = object(e, "Message", [&](const std::string& mk, const json& me) {
          return !same_key(mk, "Records") || records(me, n);
        });
      else if (same_key(k, "TopicArn"))
        ok = text(e, n.topic_arn, "TopicArn");
      else if (same_key(k, "Version"))
        ok = text(e, n.version, "Version");
      if (!ok)
        return false;
    }
    return true;
  }

private:
  std::string& error_;
};

void field(std::string& out, std::string_view name, std::string_view value) {
  out += '"';
  out += name;
  out += "\":";
  dsl::append_go_json_string(out, value);
}

void append_record(std::string& out, const record& r) {
  out += '{';
  field(out, "eventVersion", r.event_version);
  out += ',';
  field(out, "storageGridEventSource", r.event_source);
  out += ',';
  field(out, "eventTime", format_event_time(r.time));
  out += ',';
  field(out, "eventName", r.event_name);
  out += R"(,"userIdentity":{)";
  field(out, "principalId", r.user_principal_id);
  out += R"(},"requestParameters":{)";
  field(out, "sourceIPAddress", r.source_ip_address);
  out += R"(},"responseElements":{)";
  field(out, "x-amz-request-id", r.request_id);
  out += R"(},"s3":{)";
  field(out, "s3SchemaVersion", r.s3_schema_version);
  out += ',';
  field(out, "configurationId", r.configuration_id);
  out += R"(,"bucket":{)";
  field(out, "name", r.bucket_name);
  out += R"(,"ownerIdentity":{)";
  field(out, "principalId", r.bucket_owner_principal_id);
  out += "},";
  field(out, "arn", r.bucket_arn);
  out += R"(},"object":{)";
  field(out, "key", r.object_key);
  out += R"(,"size":)" + std::to_string(r.object_size) + ',';
  field(out, "eTag", r.object_etag);
  out += ',';
  field(out, "sequencer", r.object_sequencer);
  out += "}}}";
}

} // namespace

std::optional<notification> read_notification(std::string_view body, std::string& error,
                                              bool& panic) {
  qson_error failed;
  auto tree = notification_tree(body, failed);
  if (!tree) {
    error = std::move(failed.message);
    panic = failed.panic;
    return std::nullopt;
  }
  panic = false;
  notification n;
  decoder d{error};
  if (!d.top(*tree, n))
    return std::nullopt;
  return n;
}

std::optional<bool> passes(const notification& n, const std::optional<key_filter>& filter) {
  if (!filter || (filter->prefix.empty() && filter->suffix.empty()))
    return true;
  if (n.size == 0)
    return std::nullopt;
  std::string_view key = n.records[0].object_key;
  bool prefix = key.substr(0, filter->prefix.size()) == filter->prefix;
  bool suffix = key.size() >= filter->suffix.size()
                && key.substr(key.size() - filter->suffix.size()) == filter->suffix;
  return prefix && suffix;
}

std::string event_data(const notification& n, const std::map<std::string, std::string>& metadata) {
  std::string out = R"({"notification":{)";
  field(out, "Action", n.action);
  out += R"(,"Message":{"Records":)";
  if (n.records_nil) {
    out += "null";
  } else {
    out += '[';
    for (std::size_t i = 0; i < n.size; ++i) {
      if (i > 0)
        out += ',';
      append_record(out, n.records[i]);
    }
    out += ']';
  }
  out += "},";
  field(out, "TopicArn", n.topic_arn);
  out += ',';
  field(out, "Version", n.version);
  out += '}';
  dsl::append_go_json_omitempty(out, "metadata", metadata);
  out += '}';
  return out;
}

} // namespace ganglion::storagegrid::detail
