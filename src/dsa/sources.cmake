# DSA switch-tag codecs: one file per vendor family, plus shared geometry
# and the registry.
list(APPEND OFL_SOURCES
  src/dsa/registry.c
  src/dsa/common.c
  src/dsa/none.c
  src/dsa/brcm.c
  src/dsa/mv88e6xxx.c
  src/dsa/ksz.c
  src/dsa/lan9303.c
  src/dsa/mtk.c
  src/dsa/qca.c
  src/dsa/rtl.c
  src/dsa/mxl.c
  src/dsa/tag_8021q.c
  src/dsa/ocelot.c
  src/dsa/tail1.c
  src/dsa/a5psw.c
  src/dsa/yt921x.c
  src/dsa/netc.c
)
