# Sanitizer builds (docs/fuzzing.md). Included before the layers so every library, test and
# fuzz target is compiled with the same instrumentation.
#
#   FLOE_SANITIZE=ON  AddressSanitizer + UndefinedBehaviorSanitizer (LeakSanitizer comes with
#                     ASan) for the whole build and test suite: `make sanitize`, dir build-asan.
#   FLOE_FUZZ=ON      clang only: the layers instrumented for libFuzzer (plus ASan and UBSan)
#                     and the fuzz targets of fuzz/, nothing else: `make fuzz`, dir build-fuzz.
option(FLOE_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
option(FLOE_FUZZ "Build the libFuzzer targets of fuzz/ (clang) instead of the tests" OFF)

set(FLOE_SANITIZER_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=undefined
    -fno-omit-frame-pointer)

if(FLOE_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "FLOE_FUZZ needs clang (libFuzzer): -DCMAKE_CXX_COMPILER=clang++-16")
  endif()
  # Only the layers and the fuzz targets: no tests, benchmarks or command-line tool.
  set(FLOE_BUILD_TESTS OFF CACHE BOOL "" FORCE)
  set(FLOE_BUILD_BENCH OFF CACHE BOOL "" FORCE)
  # Coverage instrumentation everywhere; the libFuzzer main() only in the fuzz targets.
  add_compile_options(-fsanitize=fuzzer-no-link ${FLOE_SANITIZER_FLAGS})
  add_link_options(${FLOE_SANITIZER_FLAGS})
elseif(FLOE_SANITIZE)
  # GCC's middle end reports instrumented code it cannot see through as maybe uninitialized or
  # out of bounds (false positives); the normal build keeps those warnings.
  add_compile_options(${FLOE_SANITIZER_FLAGS} -Wno-maybe-uninitialized -Wno-array-bounds
                      -Wno-stringop-overflow)
  add_link_options(${FLOE_SANITIZER_FLAGS})
endif()
