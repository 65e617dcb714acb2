# Imported targets for the Debian packages that ship no CMake or pkg-config metadata. Used by
# the build (dependencies.cmake) and installed next to ganglionConfig.cmake, which includes it
# so that the exported static libraries find the same targets.

if(NOT TARGET CAF::core)
  find_path(CAF_INCLUDE_DIR caf/all.hpp REQUIRED)
  find_library(CAF_CORE_LIBRARY caf_core REQUIRED)
  add_library(CAF::core SHARED IMPORTED)
  set_target_properties(CAF::core PROPERTIES IMPORTED_LOCATION "${CAF_CORE_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${CAF_INCLUDE_DIR}" INTERFACE_LINK_LIBRARIES Threads::Threads)
endif()

# cctz (time zones; libstdc++ 12 has no tzdb) and libjq.
if(NOT TARGET cctz::cctz)
  find_path(CCTZ_INCLUDE_DIR cctz/time_zone.h REQUIRED)
  find_library(CCTZ_LIBRARY cctz REQUIRED)
  add_library(cctz::cctz UNKNOWN IMPORTED)
  set_target_properties(cctz::cctz PROPERTIES IMPORTED_LOCATION "${CCTZ_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${CCTZ_INCLUDE_DIR}")
endif()
if(NOT TARGET jq::jq)
  find_path(JQ_INCLUDE_DIR jq.h REQUIRED)
  find_library(JQ_LIBRARY jq REQUIRED)
  add_library(jq::jq UNKNOWN IMPORTED)
  set_target_properties(jq::jq PROPERTIES IMPORTED_LOCATION "${JQ_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${JQ_INCLUDE_DIR}")
endif()

if(NOT TARGET moodycamel::concurrentqueue)
  find_path(CONCURRENTQUEUE_INCLUDE_DIR concurrentqueue/concurrentqueue.h REQUIRED)
  add_library(moodycamel::concurrentqueue INTERFACE IMPORTED)
  set_target_properties(moodycamel::concurrentqueue PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${CONCURRENTQUEUE_INCLUDE_DIR}")
endif()
