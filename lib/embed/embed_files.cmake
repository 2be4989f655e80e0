# Turns data files into a C++ source, so the binary needs no files beside it.
# Run as: cmake -DOUTPUT=x.cpp -DFUNCTION=name -DBASE=dir -DFILES="a|b" -P embed_files.cmake
string(REPLACE "|" ";" FILES "${FILES}")
file(WRITE "${OUTPUT}.tmp" "// Generated from ${FUNCTION} sources; do not edit.\n#include \"embed/embedded.h\"\n\nnamespace trainjob {\nnamespace {\n")
set(index 0)
set(table "")
foreach(path IN LISTS FILES)
  if(path MATCHES "\\.json$")
    # A line break and the indentation after it are never inside a JSON string (strings
    # cannot hold a raw line break), so dropping them keeps the value and spares every
    # process the parsing of 60% of the schemas' bytes.
    file(READ "${path}" text)
    string(REGEX REPLACE "\n *" "" text "${text}")
    file(WRITE "${OUTPUT}.json" "${text}")
    set(path_read "${OUTPUT}.json")
  else()
    set(path_read "${path}")
  endif()
  file(READ "${path_read}" hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
  file(RELATIVE_PATH relative "${BASE}" "${path}")
  file(SIZE "${path_read}" size)
  file(APPEND "${OUTPUT}.tmp" "const char kFile${index}[] = {\n${bytes}0};\n")
  string(APPEND table "    {\"${relative}\", {kFile${index}, ${size}}},\n")
  math(EXPR index "${index} + 1")
endforeach()
file(APPEND "${OUTPUT}.tmp" "}  // namespace\n\nconst std::vector<EmbeddedFile>& ${FUNCTION}() {\n  static const std::vector<EmbeddedFile> files = {\n${table}  };\n  return files;\n}\n\n}  // namespace trainjob\n")
# Only touch the output when it changed, so unrelated edits do not recompile it.
execute_process(COMMAND "${CMAKE_COMMAND}" -E copy_if_different "${OUTPUT}.tmp" "${OUTPUT}")
file(REMOVE "${OUTPUT}.tmp" "${OUTPUT}.json")
