# Every third-party library comes from a Debian 12 package (the list: Makefile PACKAGES).
find_package(Threads REQUIRED)
find_package(PkgConfig REQUIRED)

# CAF 0.17 ships neither CMake nor pkg-config metadata.
find_path(CAF_INCLUDE_DIR caf/all.hpp REQUIRED)
find_library(CAF_CORE_LIBRARY caf_core REQUIRED)
find_library(CAF_IO_LIBRARY caf_io REQUIRED)
add_library(CAF::core SHARED IMPORTED)
set_target_properties(CAF::core PROPERTIES IMPORTED_LOCATION "${CAF_CORE_LIBRARY}"
  INTERFACE_INCLUDE_DIRECTORIES "${CAF_INCLUDE_DIR}" INTERFACE_LINK_LIBRARIES Threads::Threads)

find_package(simdjson 3 CONFIG REQUIRED)
find_package(yaml-cpp CONFIG REQUIRED)
find_package(fmt 9 CONFIG REQUIRED)
find_package(spdlog CONFIG REQUIRED)
find_package(CLI11 CONFIG REQUIRED)
find_package(nlohmann_json 3.11 CONFIG REQUIRED)
find_package(CURL REQUIRED)
find_package(OpenSSL REQUIRED)
find_package(Boost 1.81 EXACT REQUIRED)
# Every translation unit must see Asio with the same settings (the define changes type layouts).
add_compile_definitions(BOOST_ASIO_NO_DEPRECATED)
pkg_check_modules(RE2 REQUIRED IMPORTED_TARGET re2)

pkg_check_modules(LUA REQUIRED IMPORTED_TARGET lua5.4)
pkg_check_modules(XXHASH REQUIRED IMPORTED_TARGET libxxhash)
# librdkafka ships pkg-config files only (Debian builds it with mklove).
pkg_check_modules(RDKAFKA REQUIRED IMPORTED_TARGET rdkafka)

# cctz (time zones; libstdc++ 12 has no tzdb) and libjq ship no CMake or pkg-config metadata.
find_path(CCTZ_INCLUDE_DIR cctz/time_zone.h REQUIRED)
find_library(CCTZ_LIBRARY cctz REQUIRED)
add_library(cctz::cctz UNKNOWN IMPORTED)
set_target_properties(cctz::cctz PROPERTIES IMPORTED_LOCATION "${CCTZ_LIBRARY}"
  INTERFACE_INCLUDE_DIRECTORIES "${CCTZ_INCLUDE_DIR}")
find_path(JQ_INCLUDE_DIR jq.h REQUIRED)
find_library(JQ_LIBRARY jq REQUIRED)
add_library(jq::jq UNKNOWN IMPORTED)
set_target_properties(jq::jq PROPERTIES IMPORTED_LOCATION "${JQ_LIBRARY}"
  INTERFACE_INCLUDE_DIRECTORIES "${JQ_INCLUDE_DIR}")

find_path(CONCURRENTQUEUE_INCLUDE_DIR concurrentqueue/concurrentqueue.h REQUIRED)
add_library(moodycamel::concurrentqueue INTERFACE IMPORTED)
set_target_properties(moodycamel::concurrentqueue PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES "${CONCURRENTQUEUE_INCLUDE_DIR}")

if(GANGLION_BUILD_TESTS)
  find_package(GTest 1.12 CONFIG REQUIRED)
  include(GoogleTest)
endif()
if(GANGLION_BUILD_BENCH)
  find_package(benchmark 1.7 CONFIG REQUIRED)
endif()
