// The Lua script filter and transform (Argo's filterScript and applyScriptTransform).

#include <stdexcept>

#include <lua.hpp>

#include <fmt/format.h>

#include "ganglion/dsl/script/lua_script.hpp"
#include "script/lua_sandbox.hpp"

namespace ganglion::dsl {

namespace {

bool has_data(const event_view& event) {
  return event.data_is_json || !event.data_raw.empty();
}

// The sandbox's limits with a time budget of `budget`.
lua::limits limits_with(std::chrono::milliseconds budget) {
  lua::limits max;
  max.time = budget;
  return max;
}

} // namespace

std::string lua_syntax_error(const std::string& source) {
  lua_State* state = luaL_newstate();
  if (!state)
    return "cannot create a Lua state";
  std::string error;
  const int status = luaL_loadbufferx(state, source.data(), source.size(), "=script", "t");
  if (status != LUA_OK)
    error = status == LUA_ERRSYNTAX ? lua_tostring(state, -1) : "script too large to compile";
  lua_close(state);
  return error;
}

struct compiled_script_filter::impl {
  impl(const std::string& source, std::chrono::milliseconds budget)
    : sandbox(source, limits_with(budget)) {}
  lua::sandbox sandbox;
  simdjson::dom::parser parser;
};

compiled_script_filter::compiled_script_filter(const std::string& lua_source,
                                               std::chrono::milliseconds budget)
  : impl_(std::make_unique<impl>(lua_source, budget)) {}

compiled_script_filter::~compiled_script_filter() = default;
compiled_script_filter::compiled_script_filter(compiled_script_filter&&) noexcept = default;
compiled_script_filter&
compiled_script_filter::operator=(compiled_script_filter&&) noexcept = default;

filter_outcome compiled_script_filter::evaluate(const event_view& event) const {
  if (!has_data(event))
    return {true, {}};
  filter_outcome outcome;
  try {
    impl_->sandbox.run(lua::data_object(event, impl_->parser), [&](lua_State* state) {
      outcome.pass = lua_type(state, -1) == LUA_TBOOLEAN && lua_toboolean(state, -1);
    });
  } catch (const budget_exceeded& e) {
    outcome = {false, e.what()};
    outcome.cut_off = true;
  } catch (const std::runtime_error& e) {
    outcome = {false, e.what()};
  }
  return outcome;
}

struct lua_transform::impl {
  impl(const std::string& source, std::chrono::milliseconds budget)
    : sandbox(source, limits_with(budget)) {}
  lua::sandbox sandbox;
  simdjson::dom::parser parser;
};

lua_transform::lua_transform(const std::string& source, std::chrono::milliseconds budget)
  : impl_(std::make_unique<impl>(source, budget)) {}

lua_transform::~lua_transform() = default;
lua_transform::lua_transform(lua_transform&&) noexcept = default;
lua_transform& lua_transform::operator=(lua_transform&&) noexcept = default;

std::string lua_transform::apply(const event_view& event) const {
  if (!has_data(event))
    return {};
  std::string result;
  impl_->sandbox.run(lua::data_object(event, impl_->parser), [&](lua_State* state) {
    if (lua_type(state, -1) != LUA_TTABLE)
      throw std::runtime_error(fmt::format(
          "transformation script must return a table, not a {}", luaL_typename(state, -1)));
    result = lua::to_json(state, -1);
  });
  return result;
}

} // namespace ganglion::dsl
