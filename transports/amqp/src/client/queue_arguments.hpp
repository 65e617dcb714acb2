#pragma once

// Private: `queueDeclare.arguments`, a YAML mapping in a string, as the AMQP field table Argo's
// client sends (go-yaml into amqp091-go's Table).

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <amqp.h>

namespace ganglion::amqp {

/// One value of the table: null, bool, integer, float, string or a list of values.
struct argument_value {
  std::variant<std::monostate, bool, std::int64_t, double, std::string,
               std::vector<argument_value>>
    value;
};

/// The table's entries in the order the YAML gives them.
using argument_table = std::vector<std::pair<std::string, argument_value>>;

/// Parses `yaml` as go-yaml decodes it into map[string]interface{}: plain scalars resolve to
/// null, bool, int or float (YAML 1.2 core schema), quoted ones stay strings, sequences become
/// lists. Empty text: no table. nullopt with `error` set when it is not a mapping or holds a
/// mapping as a value (amqp091-go refuses that type).
std::optional<argument_table> parse_queue_arguments(std::string_view yaml, std::string& error);

/// An amqp_table_t over an argument_table, valid while both live. Integers that fit 32 bits go
/// as `I` (Go's int), larger ones as `l`; floats as `d`, strings as `S`, lists as `A`.
class amqp_arguments {
public:
  explicit amqp_arguments(const argument_table& table);
  amqp_arguments(const amqp_arguments&) = delete;
  amqp_arguments& operator=(const amqp_arguments&) = delete;

  /// The table (empty when the argument table is).
  amqp_table_t table() const noexcept { return table_; }

private:
  amqp_field_value_t field(const argument_value& v);

  std::deque<std::vector<amqp_table_entry_t>> entries_;
  std::deque<std::vector<amqp_field_value_t>> arrays_;
  amqp_table_t table_{0, nullptr};
};

} // namespace ganglion::amqp
