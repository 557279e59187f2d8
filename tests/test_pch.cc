// Compiles GoogleTest's precompiled header (tests/CMakeLists.txt), which every test binary reuses.
