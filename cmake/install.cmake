# `cmake --install`: the component libraries, their public headers (ganglion_add_component),
# and the package files that make `find_package(ganglion)` work from the prefix.
include(CMakePackageConfigHelpers)
include(GNUInstallDirs)

set(GANGLION_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/ganglion)
install(EXPORT ganglionTargets NAMESPACE ganglion:: DESTINATION ${GANGLION_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/ganglionConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/ganglionConfig.cmake INSTALL_DESTINATION ${GANGLION_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/ganglionConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/ganglionConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/ganglionConfigVersion.cmake
  ${CMAKE_CURRENT_LIST_DIR}/ganglion_imported_targets.cmake
  DESTINATION ${GANGLION_CMAKE_DIR})
