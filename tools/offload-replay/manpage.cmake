# The man page of offload-replay, made from its --help and --version by
# help2man (Debian package help2man), gzipped as Debian wants it, installed
# with the tool (component tools).  Without help2man there is no page, and a note says so;
# nor in a cross build (help2man runs the tool, built for another machine).
find_program(HELP2MAN help2man)
if(HELP2MAN AND CMAKE_CROSSCOMPILING)
  message(STATUS "cross build: no man page for offload-replay (help2man would run the target's binary)")
elseif(HELP2MAN)
  set(_man ${CMAKE_CURRENT_BINARY_DIR}/offload-replay.1)
  add_custom_command(OUTPUT ${_man}.gz
    COMMAND ${HELP2MAN} --no-info --section=1
            "--name=replay packet captures through the offloads of libofl"
            --include=${CMAKE_CURRENT_SOURCE_DIR}/offload-replay.h2m
            --output=${_man} $<TARGET_FILE:offload-replay>
    COMMAND gzip -9nf ${_man}
    DEPENDS offload-replay ${CMAKE_CURRENT_SOURCE_DIR}/offload-replay.h2m
    COMMENT "help2man: offload-replay.1" VERBATIM)
  add_custom_target(offload-replay-man ALL DEPENDS ${_man}.gz)
  install(FILES ${_man}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT tools)
else()
  message(STATUS "help2man not found: no man page for offload-replay")
endif()
