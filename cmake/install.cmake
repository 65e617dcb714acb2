# `cmake --install`: the component libraries, their public headers (ganglion_add_component),
# and the package files that make `find_package(ganglion)` work from the prefix.
include(CMakePackageConfigHelpers)
include(GNUInstallDirs)

set(GANGLION_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/ganglion)
# One export set per component, so that find_package(ganglion COMPONENTS core) reads (and looks
# for the dependencies of) only the components asked for and those they need.
get_property(GANGLION_COMPONENTS GLOBAL PROPERTY GANGLION_COMPONENTS)
foreach(component IN LISTS GANGLION_COMPONENTS)
  install(EXPORT ganglion_${component}Targets NAMESPACE ganglion::
    DESTINATION ${GANGLION_CMAKE_DIR})
endforeach()
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/ganglionConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/ganglionConfig.cmake INSTALL_DESTINATION ${GANGLION_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/ganglionConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/ganglionConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/ganglionConfigVersion.cmake
  ${CMAKE_CURRENT_LIST_DIR}/ganglion_imported_targets.cmake
  DESTINATION ${GANGLION_CMAKE_DIR})
