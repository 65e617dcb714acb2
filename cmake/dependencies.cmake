# Every third-party library comes from a Debian 12 package (the list: Makefile PACKAGES).
# A disabled transport's library is not looked for (GANGLION_ENABLE_*); the benchmarks are
# built only with every transport.
find_package(Threads REQUIRED)
find_package(PkgConfig REQUIRED)

# CAF 0.17, cctz, libjq and moodycamel ship neither CMake nor pkg-config metadata.
include(${CMAKE_CURRENT_LIST_DIR}/ganglion_imported_targets.cmake)
find_library(CAF_IO_LIBRARY caf_io REQUIRED)

find_package(simdjson 3 CONFIG REQUIRED)
find_package(yaml-cpp CONFIG REQUIRED)
find_package(fmt 9 CONFIG REQUIRED)
find_package(spdlog CONFIG REQUIRED)
find_package(CLI11 CONFIG REQUIRED)
find_package(nlohmann_json 3.11 CONFIG REQUIRED)
find_package(OpenSSL REQUIRED)
if(GANGLION_ENABLE_HTTP OR GANGLION_BUILD_TESTS)
  # The test support's HTTP client and sink use them too.
  find_package(CURL REQUIRED)
  find_package(Boost 1.81 EXACT REQUIRED)
endif()
# Every translation unit must see Asio with the same settings (the define changes type layouts).
add_compile_definitions(BOOST_ASIO_NO_DEPRECATED)
pkg_check_modules(RE2 REQUIRED IMPORTED_TARGET re2)

pkg_check_modules(LUA REQUIRED IMPORTED_TARGET lua5.4)
pkg_check_modules(XXHASH REQUIRED IMPORTED_TARGET libxxhash)
if(GANGLION_ENABLE_KAFKA)
  # librdkafka ships pkg-config files only (Debian builds it with mklove).
  pkg_check_modules(RDKAFKA REQUIRED IMPORTED_TARGET rdkafka)
endif()
if(GANGLION_ENABLE_KUBERNETES)
  # libgit2 (the git source of the k8s and argoWorkflow triggers) ships a pkg-config file only.
  pkg_check_modules(LIBGIT2 REQUIRED IMPORTED_TARGET libgit2)
endif()
if(GANGLION_ENABLE_NATS)
  # Debian's cnats CMake package is broken: its pkg-config file. GLOBAL, so that the tests (a
  # raw cnats client) and the benchmarks can link PkgConfig::NATS too.
  pkg_check_modules(NATS REQUIRED IMPORTED_TARGET GLOBAL libnats)
endif()
if(GANGLION_ENABLE_FILE)
  # libssh (the sftp source) ships a pkg-config file; its CMake package names no target.
  pkg_check_modules(LIBSSH REQUIRED IMPORTED_TARGET libssh)
endif()
if(GANGLION_ENABLE_REDIS)
  # hiredis ships a quirky CMake package without a target: its pkg-config file. GLOBAL, so that
  # the tests (a raw hiredis client) can link PkgConfig::HIREDIS too.
  pkg_check_modules(HIREDIS REQUIRED IMPORTED_TARGET GLOBAL hiredis)
endif()
if(GANGLION_ENABLE_MQTT)
  # libmosquitto (the mqtt source) ships a pkg-config file. GLOBAL: the tests publish with it.
  pkg_check_modules(MOSQUITTO REQUIRED IMPORTED_TARGET GLOBAL libmosquitto)
endif()
if(GANGLION_ENABLE_AMQP)
  # rabbitmq-c: its pkg-config file, as the other C clients. GLOBAL, so that the tests (a raw
  # librabbitmq publisher) can link PkgConfig::RABBITMQ too.
  pkg_check_modules(RABBITMQ REQUIRED IMPORTED_TARGET GLOBAL librabbitmq)
endif()
if(GANGLION_ENABLE_AZURE)
  # expat reads Azure Queue Storage's XML answers (the azureQueueStorage source).
  find_package(EXPAT REQUIRED)
endif()
if(GANGLION_ENABLE_GRPC)
  # gRPC's CMake package finds protobuf, OpenSSL, c-ares, absl and re2 itself; protoc and the
  # C++ plugin generate the code of transports/grpc/proto.
  find_package(Protobuf REQUIRED)
  find_package(gRPC CONFIG REQUIRED)
  find_program(GANGLION_GRPC_CPP_PLUGIN grpc_cpp_plugin REQUIRED)
endif()

if(GANGLION_BUILD_TESTS)
  find_package(GTest 1.12 CONFIG REQUIRED)
  include(GoogleTest)
endif()
if(GANGLION_BUILD_BENCH)
  find_package(benchmark 1.7 CONFIG REQUIRED)
endif()
