# Included from tests/CMakeLists.txt: the `fuzz_smoke` ctest test (label `fuzz`) builds the
# libFuzzer targets with clang into ${CMAKE_BINARY_DIR}/fuzz and runs each for 5 seconds,
# failing on any crash. Skipped when clang++ is not installed.
find_program(GANGLION_FUZZ_CXX NAMES clang++ clang++-14)
if(GANGLION_FUZZ_CXX)
  add_test(NAME fuzz_smoke
    COMMAND "${CMAKE_CURRENT_LIST_DIR}/run_smoke.sh" "${CMAKE_BINARY_DIR}/fuzz" "${GANGLION_FUZZ_CXX}")
  # The first run compiles the instrumented sources (122 files, about 4 min on 2 cores); later
  # runs only fuzz, 12 targets (about 75 s).
  set_tests_properties(fuzz_smoke PROPERTIES LABELS fuzz TIMEOUT 900 RUN_SERIAL TRUE)
else()
  message(STATUS "clang++ not found: the fuzz_smoke test is not registered")
endif()
