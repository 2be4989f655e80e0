# Writes the completion script the plugin prints for one shell:
#   cmake -DPROGRAM=kubectl-trainjob -DSHELL_NAME=bash -DOUTPUT=file -P write_completion.cmake
execute_process(COMMAND "${PROGRAM}" completion "${SHELL_NAME}" OUTPUT_FILE "${OUTPUT}.tmp"
                RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  file(REMOVE "${OUTPUT}.tmp")
  message(FATAL_ERROR "${PROGRAM} completion ${SHELL_NAME} failed: ${result}")
endif()
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
