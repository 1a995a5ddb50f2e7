# Fails when lang/grammar/generated/ differs from the parser antlr4 generates now.
set(stale "")
foreach(f ${FILES})
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${FRESH}/${f} ${CHECKED_IN}/${f}
                  RESULT_VARIABLE differs)
  if(differs)
    list(APPEND stale ${f})
  endif()
endforeach()
if(stale)
  message(FATAL_ERROR "lang/grammar/generated/ is stale (${stale}): run `cmake --build build --target grammar-update` and commit")
endif()
message(STATUS "lang/grammar/generated/ matches Mkq.g4")
