// Conversions between JSON and Lua values with the rules of Argo's mapToTable and toGoValue
// (pkg/sensors/dependencies/transform.go).

#include <cmath>
#include <cstdint>
#include <stdexcept>

#include <lua.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "script/lua_sandbox.hpp"

namespace ganglion::dsl::lua {

namespace {

// Deeper results are most likely a table that contains itself.
constexpr int max_result_depth = 200;

// Pushes a JSON value; returns false (pushing nothing) for the values Argo drops: nulls, and
// arrays inside arrays.
bool push_element(lua_State* state, simdjson::dom::element value, bool in_array);

void push_array(lua_State* state, simdjson::dom::array values) {
  lua_createtable(state, static_cast<int>(values.size()), 0);
  lua_Integer next = 1;
  for (simdjson::dom::element value : values)
    if (push_element(state, value, true))
      lua_rawseti(state, -2, next++);
}

bool push_element(lua_State* state, simdjson::dom::element value, bool in_array) {
  luaL_checkstack(state, 3, "event data nests too deeply");
  switch (value.type()) {
    case simdjson::dom::element_type::OBJECT:
      push_object(state, value.get_object().value_unsafe());
      return true;
    case simdjson::dom::element_type::ARRAY:
      if (in_array)
        return false;
      push_array(state, value.get_array().value_unsafe());
      return true;
    case simdjson::dom::element_type::INT64:
      lua_pushinteger(state, value.get_int64().value_unsafe());
      return true;
    case simdjson::dom::element_type::UINT64:
      lua_pushnumber(state, static_cast<lua_Number>(value.get_uint64().value_unsafe()));
      return true;
    case simdjson::dom::element_type::DOUBLE:
      lua_pushnumber(state, value.get_double().value_unsafe());
      return true;
    case simdjson::dom::element_type::STRING: {
      std::string_view text = value.get_string().value_unsafe();
      lua_pushlstring(state, text.data(), text.size());
      return true;
    }
    case simdjson::dom::element_type::BOOL:
      lua_pushboolean(state, value.get_bool().value_unsafe() ? 1 : 0);
      return true;
    case simdjson::dom::element_type::NULL_VALUE:
      return false;
  }
  return false;
}

nlohmann::json number_value(lua_State* state, int index) {
  if (lua_isinteger(state, index))
    return static_cast<std::int64_t>(lua_tointeger(state, index));
  const double number = lua_tonumber(state, index);
  if (!std::isfinite(number))
    throw std::runtime_error(fmt::format("script result holds the number {}, which JSON cannot "
                                         "represent", number));
  // Argo's Lua numbers are float64 and json.Marshal prints integral ones without a fraction.
  if (std::trunc(number) == number && std::fabs(number) < 9223372036854775808.0)
    return static_cast<std::int64_t>(number);
  return number;
}

// The object key Argo derives from a Lua key with LValue.String().
std::string key_text(lua_State* state, int index) {
  switch (lua_type(state, index)) {
    case LUA_TSTRING: {
      std::size_t size = 0;
      const char* text = lua_tolstring(state, index, &size);
      return {text, size};
    }
    case LUA_TNUMBER:
      return number_value(state, index).dump();
    case LUA_TBOOLEAN:
      return lua_toboolean(state, index) ? "true" : "false";
    default:
      throw std::runtime_error(fmt::format("script result has a table key of type {}, which "
                                           "cannot be a JSON object key",
                                           luaL_typename(state, index)));
  }
}

nlohmann::json value_of(lua_State* state, int index, int depth);

nlohmann::json table_value(lua_State* state, int index, int depth) {
  if (depth > max_result_depth || !lua_checkstack(state, 4))
    throw std::runtime_error(
        fmt::format("script result nests deeper than {} tables", max_result_depth));
  const auto length = static_cast<lua_Integer>(lua_rawlen(state, index));
  bool forced_array = false;
  if (lua_getmetatable(state, index)) {
    lua_pushliteral(state, "__is_array");
    lua_rawget(state, -2);
    forced_array = lua_type(state, -1) == LUA_TBOOLEAN && lua_toboolean(state, -1);
    lua_pop(state, 2);
  }
  if (forced_array || length > 0) {
    auto array = nlohmann::json::array();
    for (lua_Integer i = 1; i <= length; ++i) {
      lua_rawgeti(state, index, i);
      array.push_back(value_of(state, lua_gettop(state), depth + 1));
      lua_pop(state, 1);
    }
    return array;
  }
  auto object = nlohmann::json::object();
  lua_pushnil(state);
  while (lua_next(state, index)) {
    const int value = lua_gettop(state);
    object[key_text(state, value - 1)] = value_of(state, value, depth + 1);
    lua_pop(state, 1);
  }
  return object;
}

nlohmann::json value_of(lua_State* state, int index, int depth) {
  switch (lua_type(state, index)) {
    case LUA_TNIL: return nullptr;
    case LUA_TBOOLEAN: return lua_toboolean(state, index) != 0;
    case LUA_TNUMBER: return number_value(state, index);
    case LUA_TSTRING: return key_text(state, index);
    case LUA_TTABLE: return table_value(state, index, depth);
    default:
      throw std::runtime_error(fmt::format("script result holds a {} value, which has no JSON "
                                           "form",
                                           luaL_typename(state, index)));
  }
}

} // namespace

void push_object(lua_State* state, simdjson::dom::object data) {
  luaL_checkstack(state, 3, "event data nests too deeply");
  lua_createtable(state, 0, static_cast<int>(data.size()));
  for (simdjson::dom::key_value_pair field : data) {
    lua_pushlstring(state, field.key.data(), field.key.size());
    if (push_element(state, field.value, false))
      lua_rawset(state, -3);
    else
      lua_pop(state, 1);
  }
}

std::string to_json(lua_State* state, int index) {
  // Go's json.Marshal replaces invalid UTF-8 with U+FFFD.
  return value_of(state, lua_absindex(state, index), 0)
      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace ganglion::dsl::lua
