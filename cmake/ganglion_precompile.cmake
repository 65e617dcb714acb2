# ganglion_precompile_headers(<target> [SPDLOG] [CAF] [BEAST] [YAML] [SIMDJSON] [JSON] [GRPC] [GTEST])
#
# Precompiles, once per target, the third-party headers its translation units parse again and
# again: the standard library and fmt always, and the named groups (spdlog, CAF's caf/all.hpp,
# Boost.Beast and Asio, yaml-cpp, simdjson, nlohmann::json, gRPC, GoogleTest) where the target links them
# (a group's header is compiled with the definitions its library gives its users).
# Parsing these is about half of a translation unit's compile time (g++ -ftime-report on
# engine.cpp: 43 % parsing); docs/benchmarks.md ("build") has the figures.
#
# Off with -DGANGLION_PRECOMPILE_HEADERS=OFF (e.g. to check that each file includes what it uses:
# a precompiled header makes its headers visible to every file of the target). With ccache,
# CCACHE_SLOPPINESS must allow precompiled headers (the Makefile sets it).
include_guard(GLOBAL)

option(GANGLION_PRECOMPILE_HEADERS "Precompile the heavy third-party headers per target" ON)

set(ganglion_pch_common
  <algorithm> <atomic> <chrono> <cstdint> <functional> <map> <memory> <mutex> <optional>
  <set> <stdexcept> <string> <string_view> <unordered_map> <utility> <variant> <vector>
  <fmt/format.h>)
set(ganglion_pch_SPDLOG <spdlog/spdlog.h>)
set(ganglion_pch_CAF <caf/all.hpp>)
set(ganglion_pch_BEAST <boost/asio.hpp> <boost/asio/ssl.hpp> <boost/beast/core.hpp>
  <boost/beast/http.hpp> <boost/beast/ssl.hpp>)
set(ganglion_pch_YAML <yaml-cpp/yaml.h>)
set(ganglion_pch_SIMDJSON <simdjson.h>)
set(ganglion_pch_JSON <nlohmann/json.hpp>)
set(ganglion_pch_GRPC <grpcpp/grpcpp.h>)
set(ganglion_pch_GTEST <gtest/gtest.h>)

function(ganglion_precompile_headers target)
  if(NOT GANGLION_PRECOMPILE_HEADERS)
    return()
  endif()
  set(groups SPDLOG CAF BEAST YAML SIMDJSON JSON GRPC GTEST)
  cmake_parse_arguments(arg "${groups}" "" "" ${ARGN})
  set(headers ${ganglion_pch_common})
  foreach(group IN LISTS groups)
    if(arg_${group})
      list(APPEND headers ${ganglion_pch_${group}})
    endif()
  endforeach()
  target_precompile_headers(${target} PRIVATE ${headers})
endfunction()
