// The Lua sandbox: allocator and instruction limits, safe libraries, a fresh environment per run.

#include "script/lua_sandbox.hpp"

#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include <lua.hpp>

#include <fmt/format.h>

#include "ganglion/dsl/compile_error.hpp"

namespace ganglion::dsl::lua {

namespace {

// The hook fires every `hook_step` instructions, and on every instruction once the budget is
// spent, so that a script catching the error with pcall cannot keep running.
constexpr int hook_step = 1000;

budget& budget_of(lua_State* state) {
  void* ud = nullptr;
  lua_getallocf(state, &ud);
  return *static_cast<budget*>(ud);
}

void* allocate(void* ud, void* block, std::size_t old_size, std::size_t new_size) {
  auto& b = *static_cast<budget*>(ud);
  const std::size_t old_live = block ? old_size : 0;
  if (new_size == 0) {
    b.live -= old_live;
    std::free(block);
    return nullptr;
  }
  if (b.enforced && new_size > old_live) {
    const std::size_t growth = new_size - old_live;
    if (b.live + growth > b.max.memory_bytes ||
        b.allocated + growth > b.max.allocated_bytes_per_run) {
      b.memory_exceeded = true;
      return nullptr;
    }
    b.allocated += growth;
  }
  void* moved = std::realloc(block, new_size);
  if (moved)
    b.live = b.live - old_live + new_size;
  return moved;
}

void count_instructions(lua_State* state, lua_Debug*) {
  auto& b = budget_of(state);
  const bool spent = b.instructions_exceeded || b.time_exceeded;
  b.instructions += spent ? 1 : hook_step;
  if (!spent) {
    if (b.instructions <= b.max.instructions && std::chrono::steady_clock::now() < b.deadline)
      return;
    (b.instructions > b.max.instructions ? b.instructions_exceeded : b.time_exceeded) = true;
    lua_sethook(state, count_instructions, LUA_MASKCOUNT, 1);
  }
  lua_pushliteral(state, "script exceeded its budget");
  lua_error(state);
}

// collectgarbage("count") only: the other options let a script stall or reconfigure the GC.
int collect_garbage_count(lua_State* state) {
  const char* option = luaL_optstring(state, 1, "count");
  if (std::strcmp(option, "count") != 0)
    return luaL_error(state, "collectgarbage: only \"count\" is allowed in a sandboxed script");
  lua_pushnumber(state, static_cast<lua_Number>(lua_gc(state, LUA_GCCOUNT, 0)) +
                          static_cast<lua_Number>(lua_gc(state, LUA_GCCOUNTB, 0)) / 1024.0);
  return 1;
}

int open_safe_libraries(lua_State* state) {
  const lua_CFunction openers[] = {luaopen_base, luaopen_string, luaopen_table, luaopen_math,
                                   luaopen_utf8};
  const char* names[] = {LUA_GNAME, LUA_STRLIBNAME, LUA_TABLIBNAME, LUA_MATHLIBNAME,
                         LUA_UTF8LIBNAME};
  for (std::size_t i = 0; i < std::size(openers); ++i) {
    luaL_requiref(state, names[i], openers[i], 1);
    lua_pop(state, 1);
  }
  lua_pushglobaltable(state);
  for (const char* name : {"dofile", "loadfile", "load", "print", "warn", "require"}) {
    lua_pushnil(state);
    lua_setfield(state, -2, name);
  }
  lua_pushcfunction(state, collect_garbage_count);
  lua_setfield(state, -2, "collectgarbage");
  lua_getfield(state, -1, LUA_STRLIBNAME);
  lua_pushnil(state);
  lua_setfield(state, -2, "dump");
  lua_pop(state, 2);
  // Strings share one metatable whose __index is the real string library; hide it.
  lua_pushliteral(state, "");
  lua_getmetatable(state, -1);
  lua_pushboolean(state, 0);
  lua_setfield(state, -2, "__metatable");
  lua_pop(state, 2);
  return 0;
}

// Pushes a shallow copy of the table at `source`.
void push_copy(lua_State* state, int source) {
  source = lua_absindex(state, source);
  lua_newtable(state);
  const int copy = lua_gettop(state);
  lua_pushnil(state);
  while (lua_next(state, source)) {
    lua_pushvalue(state, -2);
    lua_insert(state, -2);
    lua_rawset(state, copy);
  }
}

// Pushes a new global table: the safe globals, with each library table copied so a script
// cannot change what the next run sees.
void push_environment(lua_State* state) {
  lua_newtable(state);
  const int env = lua_gettop(state);
  lua_pushglobaltable(state);
  const int globals = lua_gettop(state);
  lua_pushnil(state);
  while (lua_next(state, globals)) {
    if (!lua_rawequal(state, -1, globals)) {
      lua_pushvalue(state, -2);
      if (lua_type(state, -2) == LUA_TTABLE)
        push_copy(state, -2);
      else
        lua_pushvalue(state, -2);
      lua_rawset(state, env);
    }
    lua_pop(state, 1);
  }
  lua_pop(state, 1);
  lua_pushvalue(state, env);
  lua_setfield(state, env, LUA_GNAME);
}

struct invocation {
  simdjson::dom::object data;
};

// Protected body of one run: arguments are the chunk and the invocation; returns the chunk's
// results.
int invoke(lua_State* state) {
  auto* call = static_cast<invocation*>(lua_touserdata(state, 2));
  lua_settop(state, 1);
  push_environment(state);
  push_object(state, call->data);
  lua_setfield(state, 2, "event");
  lua_setupvalue(state, 1, 1);
  lua_call(state, 0, LUA_MULTRET);
  return lua_gettop(state);
}

std::string error_text(lua_State* state, int status, const budget& b) {
  if (status == LUA_ERRMEM || b.memory_exceeded)
    return fmt::format("script exceeded its memory limit ({} MiB)", b.max.memory_bytes >> 20);
  if (b.instructions_exceeded)
    return fmt::format("script exceeded its instruction budget ({} instructions)",
                       b.max.instructions);
  if (b.time_exceeded)
    return fmt::format("script cut off after its time budget of {} ms", b.max.time.count());
  if (lua_type(state, -1) == LUA_TSTRING)
    return lua_tostring(state, -1);
  return fmt::format("script raised a {} as its error", luaL_typename(state, -1));
}

} // namespace

sandbox::sandbox(const std::string& source, limits max) {
  budget_.max = max;
  state_ = lua_newstate(allocate, &budget_);
  if (!state_)
    throw compile_error("cannot create a Lua state", 0);
  lua_pushcfunction(state_, open_safe_libraries);
  if (lua_pcall(state_, 0, 0, 0) != LUA_OK) {
    lua_close(state_);
    throw compile_error("cannot open the Lua libraries within the memory limit", 0);
  }
  const int status =
      luaL_loadbufferx(state_, source.data(), source.size(), "=script", "t");
  if (status != LUA_OK) {
    std::string message = status == LUA_ERRSYNTAX ? lua_tostring(state_, -1)
                                                  : "script too large to compile";
    lua_close(state_);
    throw compile_error(message, 0);
  }
  lua_sethook(state_, count_instructions, LUA_MASKCOUNT, hook_step);
}

sandbox::~sandbox() {
  lua_close(state_);
}

void sandbox::run(simdjson::dom::object data, const std::function<void(lua_State*)>& read) {
  struct reset {
    lua_State* state;
    budget& b;
    ~reset() {
      lua_settop(state, 1);
      b.enforced = true;
    }
  } guard{state_, budget_};
  budget_.allocated = 0;
  budget_.instructions = 0;
  budget_.memory_exceeded = false;
  budget_.deadline = std::chrono::steady_clock::now() + budget_.max.time;
  if (budget_.instructions_exceeded || budget_.time_exceeded) {
    budget_.instructions_exceeded = false;
    budget_.time_exceeded = false;
    lua_sethook(state_, count_instructions, LUA_MASKCOUNT, hook_step);
  }
  invocation call{data};
  lua_pushcfunction(state_, invoke);
  lua_pushvalue(state_, 1);
  lua_pushlightuserdata(state_, &call);
  const int status = lua_pcall(state_, 2, LUA_MULTRET, 0);
  if (status != LUA_OK) {
    auto text = error_text(state_, status, budget_);
    if (status == LUA_ERRMEM || budget_.memory_exceeded || budget_.instructions_exceeded ||
        budget_.time_exceeded)
      throw budget_exceeded(text);
    throw std::runtime_error(text);
  }
  budget_.enforced = false;
  if (lua_gettop(state_) == 1)
    lua_pushnil(state_);
  read(state_);
}

simdjson::dom::object data_object(const event_view& event, simdjson::dom::parser& parser) {
  simdjson::dom::element data = event.data;
  if (!event.data_is_json &&
      parser.parse(event.data_raw.data(), event.data_raw.size(), true).get(data))
    throw std::runtime_error("event data is not valid JSON");
  simdjson::dom::object object;
  if (data.get_object().get(object))
    throw std::runtime_error("event data is not a JSON object");
  return object;
}

} // namespace ganglion::dsl::lua
