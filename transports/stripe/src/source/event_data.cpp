#include "source/event_data.hpp"

#include <cctype>
#include <cstdint>
#include <optional>
#include <utility>

#include <simdjson.h>

#include "ganglion/dsl/go/go_json.hpp"
#include "ganglion/dsl/go/go_value.hpp"

namespace ganglion::stripe::detail {

namespace {

namespace od = simdjson::ondemand;

/// Go's key matching for these all-lower-case fields: exact or case-insensitive.
bool same_key(std::string_view key, std::string_view field) {
  if (key.size() != field.size())
    return false;
  for (std::size_t i = 0; i < key.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(key[i])) != field[i])
      return false;
  return true;
}

const char* go_name(od::json_type t) {
  switch (t) {
    case od::json_type::array: return "array";
    case od::json_type::object: return "object";
    case od::json_type::number: return "number";
    case od::json_type::string: return "string";
    case od::json_type::boolean: return "bool";
    default: return "null";
  }
}

/// Reads the JSON value `v` for Go field `field` of Go type `go_type`; false with `error` set.
class field_reader {
public:
  explicit field_reader(std::string& error) : error_(error) {}

  /// The value's JSON type, or false when simdjson cannot tell.
  bool type(od::value& v, od::json_type& t) {
    if (!v.type().get(t))
      return true;
    error_ = "invalid JSON";
    return false;
  }

  bool mismatch(od::json_type t, std::string_view field, std::string_view go_type) {
    error_ = "json: cannot unmarshal ";
    error_ += go_name(t);
    error_ += " into Go struct field ";
    error_ += field;
    error_ += " of type ";
    error_ += go_type;
    return false;
  }

  /// A scalar field of JSON type `want`, read as `T` (simdjson's get) into `out`; null leaves
  /// `out` empty (Go leaves the field as it was), another type is Go's error naming `go_type`.
  template <class T>
  bool scalar(od::value v, std::optional<T>& out, od::json_type want, std::string_view field,
              std::string_view go_type) {
    od::json_type t;
    if (!type(v, t))
      return false;
    if (t == od::json_type::null)
      return true;
    T value;
    if (t != want || v.get(value))
      return mismatch(t, field, go_type);
    out = value;
    return true;
  }

  bool text(od::value v, std::string& out, std::string_view field) {
    std::optional<std::string_view> s;
    if (!scalar(v, s, od::json_type::string, field, "string"))
      return false;
    if (s)
      out.assign(*s);
    return true;
  }

  bool integer(od::value v, std::int64_t& out, std::string_view field) {
    std::optional<std::int64_t> n;
    if (!scalar(v, n, od::json_type::number, field, "int64"))
      return false;
    out = n.value_or(out);
    return true;
  }

  bool boolean(od::value v, bool& out, std::string_view field) {
    std::optional<bool> b;
    if (!scalar(v, b, od::json_type::boolean, field, "bool"))
      return false;
    out = b.value_or(out);
    return true;
  }

  /// The value's JSON text as it came (objects and arrays whole).
  bool raw(od::value v, std::string_view& out) {
    od::json_type t;
    if (!type(v, t))
      return false;
    bool failed = false;
    if (t == od::json_type::object) {
      od::object o;
      failed = v.get_object().get(o) || o.raw_json().get(out);
    } else if (t == od::json_type::array) {
      od::array a;
      failed = v.get_array().get(a) || a.raw_json().get(out);
    } else {
      out = v.raw_json_token();
    }
    if (failed)
      error_ = "invalid JSON";
    return !failed;
  }

  /// stripe.EventData's UnmarshalJSON: `previous_attributes` (a map) and the raw `object`, which
  /// must then unmarshal into a map. nullopt in `out` for null.
  bool event_data(od::value v, std::optional<std::string>& out) {
    od::json_type t;
    if (!type(v, t))
      return false;
    if (t == od::json_type::null) {
      out.reset();
      return true;
    }
    od::object o;
    if (t != od::json_type::object || v.get_object().get(o)) {
      error_ = std::string{"json: cannot unmarshal "} + go_name(t)
               + " into Go value of type stripe.eventdata";
      return false;
    }
    std::string previous = "null";
    std::optional<std::string_view> object;
    for (auto member : o) {
      od::field f;
      std::string_view key;
      if (std::move(member).get(f) || f.unescaped_key().get(key))
        return invalid();
      if (same_key(key, "previous_attributes")) {
        std::string_view text;
        if (!raw(f.value(), text))
          return false;
        if (text.substr(0, 4) == "null") {
          previous = "null";
        } else if (auto map = dsl::remarshal_go_map(text, {}, error_)) {
          previous = std::move(*map);
        } else {
          return false;
        }
      } else if (same_key(key, "object")) {
        std::string_view text;
        if (!raw(f.value(), text))
          return false;
        object = text;
      }
    }
    if (!object) {
      error_ = "unexpected end of JSON input";
      return false;
    }
    auto first = object->find_first_not_of(" \t\r\n");
    char c = first == std::string_view::npos ? ' ' : (*object)[first];
    if (c != '{' && c != 'n') {
      error_ = std::string{"json: cannot unmarshal "}
               + (c == '[' ? "array" : c == '"' ? "string" : c == 't' || c == 'f' ? "bool" : "number")
               + " into Go value of type map[string]interface {}";
      return false;
    }
    std::string data = R"({"previous_attributes":)" + previous + R"(,"object":)";
    if (!dsl::append_go_json_raw(data, *object, error_))
      return false;
    data += '}';
    out = std::move(data);
    return true;
  }

  /// stripe.EventRequest: `id` and `idempotency_key`; nullopt in `out` for null.
  bool request(od::value v, std::optional<std::pair<std::string, std::string>>& out) {
    od::json_type t;
    if (!type(v, t))
      return false;
    if (t == od::json_type::null) {
      out.reset();
      return true;
    }
    od::object o;
    if (t != od::json_type::object || v.get_object().get(o))
      return mismatch(t, "Event.request", "stripe.EventRequest");
    std::pair<std::string, std::string> r;
    for (auto member : o) {
      od::field f;
      std::string_view key;
      if (std::move(member).get(f) || f.unescaped_key().get(key))
        return invalid();
      if (same_key(key, "id")) {
        if (!text(f.value(), r.first, "Event.request.id"))
          return false;
      } else if (same_key(key, "idempotency_key")) {
        if (!text(f.value(), r.second, "Event.request.idempotency_key"))
          return false;
      }
    }
    out = std::move(r);
    return true;
  }

  bool invalid() {
    error_ = "invalid JSON";
    return false;
  }

private:
  std::string& error_;
};

/// stripe.Event's fields.
struct event_fields {
  std::string account;
  std::int64_t created = 0;
  std::optional<std::string> data;
  std::string id;
  bool livemode = false;
  std::int64_t pending_webhooks = 0;
  std::optional<std::pair<std::string, std::string>> request;
  std::string type;
};

bool read_field(field_reader& r, std::string_view key, od::value v, event_fields& e) {
  if (same_key(key, "account"))
    return r.text(v, e.account, "Event.account");
  if (same_key(key, "created"))
    return r.integer(v, e.created, "Event.created");
  if (same_key(key, "data"))
    return r.event_data(v, e.data);
  if (same_key(key, "id"))
    return r.text(v, e.id, "Event.id");
  if (same_key(key, "livemode"))
    return r.boolean(v, e.livemode, "Event.livemode");
  if (same_key(key, "pending_webhooks"))
    return r.integer(v, e.pending_webhooks, "Event.pending_webhooks");
  if (same_key(key, "request"))
    return r.request(v, e.request);
  if (same_key(key, "type"))
    return r.text(v, e.type, "Event.type");
  return true; // another key: dropped, as Go drops it
}

std::string marshal(const event_fields& e) {
  std::string out = R"({"account":)";
  dsl::append_go_json_string(out, e.account);
  out += R"(,"created":)" + std::to_string(e.created);
  out += R"(,"data":)" + (e.data ? *e.data : std::string{"null"});
  out += R"(,"id":)";
  dsl::append_go_json_string(out, e.id);
  out += R"(,"livemode":)";
  out += e.livemode ? "true" : "false";
  out += R"(,"pending_webhooks":)" + std::to_string(e.pending_webhooks);
  out += R"(,"request":)";
  if (e.request) {
    out += R"({"id":)";
    dsl::append_go_json_string(out, e.request->first);
    out += R"(,"idempotency_key":)";
    dsl::append_go_json_string(out, e.request->second);
    out += '}';
  } else {
    out += "null";
  }
  out += R"(,"type":)";
  dsl::append_go_json_string(out, e.type);
  out += '}';
  return out;
}

std::string wrap(const std::string& event, const std::map<std::string, std::string>& metadata) {
  std::string out = R"({"event":)" + event;
  dsl::append_go_json_omitempty(out, "metadata", metadata);
  out += '}';
  return out;
}

} // namespace

std::optional<stripe_event> read_stripe_event(std::string_view body,
                                              const std::map<std::string, std::string>& metadata,
                                              std::string& error) {
  // Go checks the whole text first; On-Demand reads only what it visits.
  simdjson::padded_string padded(body);
  thread_local simdjson::dom::parser whole;
  if (auto e = whole.parse(padded).error()) {
    error = body.find_first_not_of(" \t\r\n") == std::string_view::npos
              ? "unexpected end of JSON input"
              : std::string{"invalid JSON: "} + simdjson::error_message(e);
    return std::nullopt;
  }
  thread_local od::parser parser;
  od::document doc;
  od::json_type t;
  field_reader reader{error};
  if (parser.iterate(padded).get(doc) || doc.type().get(t)) {
    error = "invalid JSON";
    return std::nullopt;
  }
  if (t == od::json_type::null)
    return stripe_event{{}, wrap("null", metadata), false};
  od::object o;
  if (t != od::json_type::object || doc.get_object().get(o)) {
    error = std::string{"json: cannot unmarshal "} + go_name(t)
            + " into Go value of type stripe.Event";
    return std::nullopt;
  }
  event_fields fields;
  for (auto member : o) {
    od::field f;
    std::string_view key;
    if (std::move(member).get(f) || f.unescaped_key().get(key)) {
      error = "invalid JSON";
      return std::nullopt;
    }
    if (!read_field(reader, key, f.value(), fields))
      return std::nullopt;
  }
  return stripe_event{fields.type, wrap(marshal(fields), metadata), true};
}

} // namespace ganglion::stripe::detail
