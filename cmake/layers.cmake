# One static library per layer of cmake/layers.txt (see docs/architecture.md).
#
# Each layer compiles against an include tree of its own in the build directory that holds
# only what it may see: include/floe/<layer>/ of itself and of every layer it uses (directly or
# through them), and src/<layer>/ of itself for its private *_internal.h headers. An include of
# a higher layer's header, of a sibling's, or of another layer's private header then fails with
# "No such file". Layers link PUBLIC to the layers they use, in the layer order.

file(STRINGS ${CMAKE_SOURCE_DIR}/cmake/layers.txt FLOE_LAYER_LINES REGEX "^[a-z]")
set(FLOE_LAYERS "")
foreach(line ${FLOE_LAYER_LINES})
  # "name | uses | test dirs": three columns, each a blank-separated list.
  string(REPLACE "|" ";" columns "${line}")
  list(GET columns 0 layer)
  list(GET columns 1 uses)
  list(GET columns 2 tests)
  string(STRIP "${layer}" layer)
  separate_arguments(uses UNIX_COMMAND "${uses}")
  separate_arguments(tests UNIX_COMMAND "${tests}")
  foreach(u ${uses})
    if(NOT u IN_LIST FLOE_LAYERS)
      message(FATAL_ERROR "cmake/layers.txt: ${layer} uses ${u}, which is not a layer below it")
    endif()
  endforeach()
  list(APPEND FLOE_LAYERS ${layer})
  set(FLOE_LAYER_USES_${layer} ${uses})
  set(FLOE_LAYER_TESTS_${layer} ${tests})
  # Everything below that the layer may see: its uses and what they may see.
  set(visible ${uses})
  foreach(u ${uses})
    list(APPEND visible ${FLOE_LAYER_VISIBLE_${u}})
  endforeach()
  list(REMOVE_DUPLICATES visible)
  set(FLOE_LAYER_VISIBLE_${layer} ${visible})
endforeach()

# floe_layer_include_tree(target layer): gives target the include tree of layer.
function(floe_layer_include_tree target layer)
  string(REPLACE "/" "_" id ${layer})
  target_include_directories(${target} PRIVATE ${CMAKE_BINARY_DIR}/layers/${id}/include
                                               ${CMAKE_BINARY_DIR}/layers/${id}/src)
endfunction()

# floe_layer_private_tree(target layer): only the private headers of layer (for its tests,
# which see every public header through include/).
function(floe_layer_private_tree target layer)
  string(REPLACE "/" "_" id ${layer})
  target_include_directories(${target} PRIVATE ${CMAKE_BINARY_DIR}/layers/${id}/src)
endfunction()

set(FLOE_THIRD_PARTY simdjson::simdjson ZLIB::ZLIB PkgConfig::ZSTD PkgConfig::DEFLATE
    PkgConfig::LZ4 PkgConfig::SQLITE3 PkgConfig::PQ ${SNAPPY_LIB})

set(FLOE_LAYER_LIBRARIES "")
foreach(layer ${FLOE_LAYERS})
  string(REPLACE "/" "_" id ${layer})
  # The include tree: symbolic links into the source tree, made at configure time.
  set(tree ${CMAKE_BINARY_DIR}/layers/${id})
  file(REMOVE_RECURSE ${tree})
  foreach(v ${layer} ${FLOE_LAYER_VISIBLE_${layer}})
    if(EXISTS ${CMAKE_SOURCE_DIR}/include/floe/${v})
      get_filename_component(parent ${tree}/include/floe/${v} DIRECTORY)
      file(MAKE_DIRECTORY ${parent})
      file(CREATE_LINK ${CMAKE_SOURCE_DIR}/include/floe/${v} ${tree}/include/floe/${v} SYMBOLIC)
    endif()
  endforeach()
  get_filename_component(parent ${tree}/src/${layer} DIRECTORY)
  file(MAKE_DIRECTORY ${parent})
  file(CREATE_LINK ${CMAKE_SOURCE_DIR}/src/${layer} ${tree}/src/${layer} SYMBOLIC)

  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/${layer}/*.cc)
  set(FLOE_LAYER_SOURCES_${layer} ${sources})
  if(layer STREQUAL "cli")
    continue()  # the command-line tool, built as the floe executable
  endif()
  add_library(floe_${id} STATIC ${sources})
  floe_layer_include_tree(floe_${id} ${layer})
  foreach(u ${FLOE_LAYER_USES_${layer}})
    string(REPLACE "/" "_" uid ${u})
    target_link_libraries(floe_${id} PUBLIC floe_${uid})
  endforeach()
  target_link_libraries(floe_${id} PRIVATE ${FLOE_THIRD_PARTY})
  list(APPEND FLOE_LAYER_LIBRARIES floe_${id})
endforeach()
target_link_libraries(floe_util PUBLIC fmt::fmt nlohmann_json::nlohmann_json Threads::Threads)

add_library(floe INTERFACE)
target_include_directories(floe INTERFACE ${CMAKE_SOURCE_DIR}/include)
target_link_libraries(floe INTERFACE ${FLOE_LAYER_LIBRARIES})
