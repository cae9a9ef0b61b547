# The engine's rooms run one way up: a file in engine/<folder>/ includes only engine headers of
# its own folder and of the folders below it in this order (docs/architecture.md). Run by ctest
# as EngineLayers.IncludesRunOneWayUp:
#   cmake -DENGINE_DIR=<source>/engine -P tests/engine_layers.cmake
# Fails, naming the file, its line and the include, on an include that runs back up, on a source
# file directly in engine/ and on a folder missing from the order.
set(order base finance hardware serving plan_model fleet money plan risk)
list(JOIN order " < " order_text)
if(NOT IS_DIRECTORY "${ENGINE_DIR}")
  message(FATAL_ERROR "ENGINE_DIR: expected the engine's source folder, got '${ENGINE_DIR}'")
endif()
set(faults "")
file(GLOB flat RELATIVE "${ENGINE_DIR}" "${ENGINE_DIR}/*.cpp" "${ENGINE_DIR}/*.hpp")
foreach(f IN LISTS flat)
  string(APPEND faults "engine/${f}: in no folder; put it in one of: ${order_text}\n")
endforeach()
file(GLOB folders RELATIVE "${ENGINE_DIR}" "${ENGINE_DIR}/*")
foreach(folder IN LISTS folders)
  if(IS_DIRECTORY "${ENGINE_DIR}/${folder}")
    list(FIND order "${folder}" rank)
    if(rank EQUAL -1)
      string(APPEND faults "engine/${folder}/: a folder missing from the order in engine_layers.cmake\n")
      continue()
    endif()
    file(GLOB sources RELATIVE "${ENGINE_DIR}" "${ENGINE_DIR}/${folder}/*.cpp"
         "${ENGINE_DIR}/${folder}/*.hpp")
    foreach(source IN LISTS sources)
      file(STRINGS "${ENGINE_DIR}/${source}" lines)
      set(line_number 0)
      foreach(line IN LISTS lines)
        math(EXPR line_number "${line_number} + 1")
        if(line MATCHES "^#include \"engine/([a-z_0-9]+)/")
          list(FIND order "${CMAKE_MATCH_1}" included_rank)
          if(included_rank GREATER rank)
            string(APPEND faults
                   "engine/${source}:${line_number}: ${line}: engine/${CMAKE_MATCH_1}/ lies above "
                   "engine/${folder}/\n")
          endif()
        endif()
      endforeach()
    endforeach()
  endif()
endforeach()
if(NOT faults STREQUAL "")
  message(FATAL_ERROR "engine includes that break the layers (${order_text}):\n${faults}")
endif()
message(STATUS "engine layers: every include runs one way up (${order_text})")
