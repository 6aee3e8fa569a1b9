# Software GSO/TSO (include/ofl/gso.h).
list(APPEND OFL_SOURCES
  src/gso/pool.c
  src/gso/cursor.c
  src/gso/start.c
  src/gso/plain.c
  src/gso/why.c
  src/gso/iter.c
  src/gso/fast.c
  src/gso/ip.c
  src/gso/frag.c
  src/gso/tunnel.c
  src/gso/vnet.c
  src/gso/dsa.c
)
