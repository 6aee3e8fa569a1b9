# DSA switch-tag codecs: every .c file here (one per vendor family, the
# shared geometry, the registry), so adding a format is its file and its
# row in dsa_formats.def, nothing else.  CONFIGURE_DEPENDS re-runs the
# glob when a file is added or removed.
file(GLOB _ofl_dsa_sources CONFIGURE_DEPENDS
     RELATIVE ${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_CURRENT_LIST_DIR}/*.c)
list(SORT _ofl_dsa_sources)
list(APPEND OFL_SOURCES ${_ofl_dsa_sources})
