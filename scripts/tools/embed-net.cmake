# Writes a C++ source that holds a file's bytes: the net built into the engine.
# cmake -DINPUT=<net file> -DOUTPUT=<source> -P embed-net.cmake
file(READ "${INPUT}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
file(WRITE "${OUTPUT}.tmp"
  "// Generated from ${INPUT} by scripts/tools/embed-net.cmake; do not edit.\n"
  "#include <cstddef>\n"
  "extern const unsigned char maharajah_builtin_net[] = {${bytes}};\n"
  "extern const std::size_t maharajah_builtin_net_size = sizeof(maharajah_builtin_net);\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
