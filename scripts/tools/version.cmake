# Writes the engine's version (the project version, plus the git commit when the source
# is a git checkout) into a small C++ file. Run at every build by the maharajah_version
# target; configure_file rewrites the file only when the text changes, so nothing is
# rebuilt unless the commit moved.
#   cmake -DSOURCE_DIR=... -DOUTPUT=... -DVERSION=... -P scripts/tools/version.cmake
set(text "${VERSION}")
find_program(GIT git)
if(GIT AND EXISTS "${SOURCE_DIR}/.git")
  execute_process(COMMAND ${GIT} -C "${SOURCE_DIR}" rev-parse --short=8 HEAD
                  OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
  if(rc EQUAL 0 AND commit)
    execute_process(COMMAND ${GIT} -C "${SOURCE_DIR}" status --porcelain --untracked-files=no
                    OUTPUT_VARIABLE dirty OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    set(text "${VERSION}-${commit}")
    if(dirty)
      set(text "${text}-dirty")
    endif()
  endif()
endif()
set(MAHARAJAH_VERSION_STRING "${text}")
configure_file("${SOURCE_DIR}/src/protocol/version.cpp.in" "${OUTPUT}" @ONLY)
