# ganglion_add_component(<name> SOURCES ... [PRIVATE_HEADERS ...] [NO_INSTALL])
#
# Builds the static library ganglion_<name> with the alias ganglion::<name>: include/ public
# (installed under <prefix>/include), src/ private. Unless NO_INSTALL, the library gets an export
# set of its own, ganglion_<name>Targets (a component of the package: cmake/install.cmake), and
# its public headers are installed, except
#   - every `internal/` folder (headers other components or tests include, never installed),
#   - PRIVATE_HEADERS: paths under include/ (a file, or a folder ending in /) of headers that
#     expose a third-party type other than CAF's (simdjson, nlohmann::json …).
# tests/install/headers_test.sh checks the rule on the installed tree.
include_guard(GLOBAL)
include(GNUInstallDirs)

function(ganglion_add_component name)
  cmake_parse_arguments(arg "NO_INSTALL" "" "SOURCES;PRIVATE_HEADERS" ${ARGN})
  set(target ganglion_${name})
  add_library(${target} STATIC ${arg_SOURCES})
  add_library(ganglion::${name} ALIAS ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
  set(public_dir ${CMAKE_CURRENT_SOURCE_DIR}/include)
  target_include_directories(${target}
    PUBLIC $<BUILD_INTERFACE:${public_dir}> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>
    PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src)
  if(ganglion_sanitizer_flags)
    # A program linking a sanitized library (an embedder of a sanitized install) needs the
    # sanitizers' runtimes too.
    target_link_options(${target} INTERFACE ${ganglion_sanitizer_flags})
  endif()
  if(arg_NO_INSTALL)
    return()
  endif()
  install(TARGETS ${target} EXPORT ganglion_${name}Targets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  set_property(GLOBAL APPEND PROPERTY GANGLION_COMPONENTS ${name})
  if(NOT EXISTS ${public_dir})
    return()
  endif()
  set(excludes REGEX "/internal(/|$)" EXCLUDE)
  foreach(path IN LISTS arg_PRIVATE_HEADERS)
    string(REGEX REPLACE "/$" "" path "${path}")
    string(REPLACE "." "[.]" path "${path}")
    list(APPEND excludes REGEX "/include/${path}(/|$)" EXCLUDE)
  endforeach()
  install(DIRECTORY ${public_dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
    FILES_MATCHING PATTERN "*.hpp" ${excludes})
endfunction()
