# GANGLION_SANITIZE builds everything (libraries, binary, tests) with sanitizers, in its own
# build folder (`make test-asan`, `make test-tsan`):
#   address  AddressSanitizer + UndefinedBehaviorSanitizer; every finding stops the test
#   thread   ThreadSanitizer
# -O1 -g1: line tables are all a report needs, and the build is faster than RelWithDebInfo's.
set(GANGLION_SANITIZE "" CACHE STRING "Build with sanitizers: address (ASan + UBSan) or thread")
set_property(CACHE GANGLION_SANITIZE PROPERTY STRINGS "" address thread)

if(GANGLION_SANITIZE STREQUAL "address")
  # Every UBSan check stops the program except `null`, which only reports: CAF 0.17's headers
  # bind references through null pointers that are never read. UBSAN_OPTIONS (Makefile) makes
  # reports fatal too, past tests/sanitizers/ubsan.supp, which names CAF's.
  set(ganglion_sanitizer_flags -fsanitize=address,undefined -fno-sanitize-recover=all
      -fsanitize-recover=null -fno-omit-frame-pointer)
elseif(GANGLION_SANITIZE STREQUAL "thread")
  set(ganglion_sanitizer_flags -fsanitize=thread -fno-omit-frame-pointer)
elseif(NOT GANGLION_SANITIZE STREQUAL "")
  message(FATAL_ERROR "GANGLION_SANITIZE must be address or thread, not ${GANGLION_SANITIZE}")
endif()

if(ganglion_sanitizer_flags)
  add_compile_options(${ganglion_sanitizer_flags} -O1 -g1)
  add_link_options(${ganglion_sanitizer_flags})
  message(STATUS "sanitizers: ${GANGLION_SANITIZE} (${ganglion_sanitizer_flags})")
endif()
