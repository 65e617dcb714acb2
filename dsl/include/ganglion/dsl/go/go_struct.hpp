#pragma once

// Not installed: a JSON document through a Go struct (json.Unmarshal into the struct, then
// json.Marshal of it), for sources whose Argo counterpart re-encodes what it received: fields
// in struct order, zero values for missing fields, unknown fields dropped, keys matched as
// encoding/json matches them, strings HTML-escaped.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ganglion::dsl {

struct go_field;

/// A Go type as encoding/json sees it: string, int, bool, a struct or a slice.
struct go_type {
  enum class kind { string, integer, boolean, structure, slice };
  kind k = kind::string;
  /// A named type's `package.Name` (errors name it); empty for an anonymous struct.
  std::string name;
  /// A struct's fields, in declaration order.
  std::vector<go_field> fields;
  /// A slice's element type.
  std::shared_ptr<const go_type> element;

  /// reflect's Type.String(): `string`, `int`, `[]T`, a named type's name, or an anonymous
  /// struct spelled out (`struct { Href string "json:\"href\"" }`).
  std::string go_string() const;
};

/// A struct field: its Go name, its `json:"…"` name, its type.
struct go_field {
  std::string go_name;
  std::string json_name;
  go_type type;
};

/// A decoded value of a go_type: the field that its kind uses is set.
struct go_data {
  std::string text;
  std::int64_t number = 0;
  bool flag = false;
  /// A struct's field values, in the type's field order.
  std::vector<go_data> fields;
  /// A slice's elements; nullopt for a nil slice (marshalled `null`).
  std::optional<std::vector<go_data>> items;
};

/// encoding/json's folded field name, by which a key matches a field when no name matches
/// exactly: ASCII upper-cased, `ſ` → S, `ı` → I, other bytes kept.
std::string go_folded_name(std::string_view name);

/// The zero value of `t`.
go_data go_zero(const go_type& t);

/// json.Unmarshal of `document` into a zero `t`: nullopt with `error` set to Go's message when
/// it fails (the first type mismatch, `json: cannot unmarshal number into Go struct field
/// S.a.b of type string`, or a syntax error).
/// *ganglion*: a syntax error's text is not Go's (except `unexpected end of JSON input`),
/// invalid UTF-8 in strings is refused (Go reads it as U+FFFD), and a number that is not an
/// integer is named as the parser prints it (`number 1.5`, `number 1000.0` for `1e3`).
std::optional<go_data> go_unmarshal(std::string_view document, const go_type& t,
                                    std::string& error);

/// Appends json.Marshal of `value` of type `t` (no omitempty fields).
void append_go_marshal(std::string& out, const go_data& value, const go_type& t);

/// The value of field `json_name` of struct `value` of type `t`; nullptr when `t` has none.
const go_data* go_field_of(const go_data& value, const go_type& t, std::string_view json_name);

} // namespace ganglion::dsl
