# ganglion_add_kind(<name> INCLUDE <header> REGISTER <call> [BUSES <call>] [OPTIONS <expr>]
#                   [TEST_LIBS <lib>...])
#
# Makes the component ganglion_<name> (transports/<name>, built with ganglion_add_component)
# a kind of the binary. It is the one call a transport's CMakeLists.txt makes for this; nothing
# outside its folder names the kind:
#   - app/ generates the registration (registered_kinds.cpp): it includes <header> and runs
#     REGISTER with `sources` and `triggers` (the registries to fill, core::source_registry and
#     core::trigger_registry), `http` (the binary's http::runtime) and `settings` (the
#     core::option_values of the command line: the kinds' own OPTIONS and the binary's
#     `--kubeconfig` and `--object-identity`) in scope; BUSES with `buses`
#     (core::bus_registry, the EventBus kinds) and `settings`; links ganglion_<name> and defines
#     GANGLION_WITH_<NAME>;
#   - OPTIONS is an expression of type core::command_options: the command-line options the
#     kind declares (ganglion/core/command_options.hpp); app/main.cpp adds each to the commands
#     it names, and their values reach REGISTER and the bus kinds as `settings`;
#   - tests/ builds the tests of transports/<name>/tests: unit/spec_*_test.cpp into unit_model
#     (which loads with every kind of the binary), the other unit/*_test.cpp into unit_<name>,
#     and each integration/<file>_test.cpp into integration_<name>_<file>; each links
#     ganglion_<name>, ganglion_core and TEST_LIBS, and sees the kind's src/.
include_guard(GLOBAL)

function(ganglion_add_kind name)
  cmake_parse_arguments(arg "" "INCLUDE;REGISTER;BUSES;OPTIONS" "TEST_LIBS" ${ARGN})
  if(NOT arg_INCLUDE OR NOT arg_REGISTER)
    message(FATAL_ERROR "ganglion_add_kind(${name}): INCLUDE and REGISTER are required")
  endif()
  set_property(GLOBAL APPEND PROPERTY GANGLION_KINDS ${name})
  set_property(GLOBAL PROPERTY GANGLION_KIND_${name}_INCLUDE "${arg_INCLUDE}")
  set_property(GLOBAL PROPERTY GANGLION_KIND_${name}_REGISTER "${arg_REGISTER}")
  set_property(GLOBAL PROPERTY GANGLION_KIND_${name}_BUSES "${arg_BUSES}")
  set_property(GLOBAL PROPERTY GANGLION_KIND_${name}_OPTIONS "${arg_OPTIONS}")
  set_property(GLOBAL PROPERTY GANGLION_KIND_${name}_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  set_property(GLOBAL PROPERTY GANGLION_KIND_${name}_TEST_LIBS "${arg_TEST_LIBS}")
endfunction()
