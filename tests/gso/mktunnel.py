#!/usr/bin/env python3
# mktunnel.py NAME DIR [PAYLOAD] - write DIR/IN.pcap (one UDP-tunnelled TCP super-packet
# of our own, headers and checksums as a Linux sender hands it to TUN with
# NEEDS_CSUM: the inner TCP and, with the _CSUM variant, the outer UDP
# checksum fields hold their pseudo-header sums) and DIR/vnet.hex (its
# 24-byte virtio_net_hdr_v1_hash_tunnel).  NAME: {vxlan,geneve}_o{4,6}_i{4,6}
# with _csum for an outer UDP checksum.  Used by make-tunnel-fixtures.sh.
# Also GRE and IP in IP, which have no virtio form (IN.pcap only; used for
# tests/fixtures/gso_gre_ipip): gre_o{4,6}_i{4,6} with _csum (C bit, a
# valid GRE checksum), _key (K bit) and _ip (the GRE payload is the inner IP
# packet, protocol 0x0800/0x86dd, not an Ethernet frame, 0x6558), in that
# order; ipip_o{4,6}_i{4,6} (outer protocol 4 or 41).  PAYLOAD: inner TCP
# payload bytes (default 5000).
import struct, sys

def fold(s):
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return s

def words(b):
    if len(b) % 2:
        b += b'\0'
    return sum(struct.unpack('!%dH' % (len(b) // 2), b))

def pseudo(src, dst, proto, length):
    return words(src) + words(dst) + proto + (length >> 16) + (length & 0xffff)

def ip4(proto, plen, ident, src, dst):
    h = bytearray(struct.pack('!BBHHHBBH4s4s', 0x45, 0, 20 + plen, ident, 0x4000, 64, proto, 0, src, dst))
    struct.pack_into('!H', h, 10, 0xffff - fold(words(bytes(h))))
    return bytes(h)

def ip6(proto, plen, src, dst):
    return struct.pack('!IHBB16s16s', 0x60000000, plen, proto, 64, src, dst)

name, out = sys.argv[1], sys.argv[2]
tun, o, i = name.split('_')[:3]
flags = name.split('_')[3:]
csum = 'csum' in flags
o6, i6 = o == 'o6', i == 'i6'
payload = bytes((k * 7 + 3) & 0xff for k in range(int(sys.argv[3]) if len(sys.argv) > 3 else 5000))
mss = 1400
# inner TCP: ACK|PSH, timestamps
isrc, idst = (b'\xfd' + b'\0' * 14 + b'\x01', b'\xfd' + b'\0' * 14 + b'\x02') if i6 else (b'\x0a\0\0\x01', b'\x0a\0\0\x02')
tcp = bytearray(struct.pack('!HHIIBBHHH', 40000, 5201, 0xfffff000, 12345, 8 << 4, 0x18, 500, 0, 0))
tcp += b'\x01\x01\x08\x0a' + struct.pack('!II', 7, 9)
tlen = len(tcp) + len(payload)
struct.pack_into('!H', tcp, 16, fold(pseudo(isrc, idst, 6, tlen)))  # CHECKSUM_PARTIAL
inner_ip = ip6(6, tlen, isrc, idst) if i6 else ip4(6, tlen, 0x4000, isrc, idst)
inner = b'\x02\0\0\0\0\x12\x02\0\0\0\0\x11' + (b'\x86\xdd' if i6 else b'\x08\x00') + inner_ip + bytes(tcp)
osrc, odst = (b'\x20\x01\x0d\xb8' + b'\0' * 11 + b'\x01', b'\x20\x01\x0d\xb8' + b'\0' * 11 + b'\x02') if o6 else (b'\xc0\0\x02\x01', b'\xc0\0\x02\x02')
eth = b'\x02\0\0\0\0\x02\x02\0\0\0\0\x01' + (b'\x86\xdd' if o6 else b'\x08\x00')

def write_pcap(frame):
    with open(out + '/IN.pcap', 'wb') as f:
        f.write(struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 262144, 1))
        f.write(struct.pack('<IIII', 0, 0, len(frame), len(frame)) + frame)

if tun in ('gre', 'ipip'):
    if tun == 'ipip' or 'ip' in flags:  # no inner Ethernet
        inner = inner[14:]
    if tun == 'gre':
        ptype = (0x86dd if i6 else 0x0800) if 'ip' in flags else 0x6558
        gre = bytearray(struct.pack('!HH', (0x8000 if csum else 0) | (0x2000 if 'key' in flags else 0), ptype))
        gre += b'\0\0\0\0' if csum else b''
        gre += b'\xde\xad\xbe\xef' if 'key' in flags else b''
        if csum:
            struct.pack_into('!H', gre, 4, 0xffff - fold(words(bytes(gre) + inner + payload)))
        th, proto = bytes(gre), 47
    else:
        th, proto = b'', 41 if i6 else 4
    plen = len(th) + len(inner) + len(payload)
    outer_ip = ip6(proto, plen, osrc, odst) if o6 else ip4(proto, plen, 0x1111, osrc, odst)
    write_pcap(eth + outer_ip + th + inner + payload)
    sys.exit(0)
if tun == 'vxlan':
    th, dport = b'\x08\0\0\0\0\x12\x34\0', 4789
else:  # Geneve with one 8-byte option
    th, dport = b'\x02\0\x65\x58\0\x12\x34\0' + b'\x01\x02\x80\x01\xa1\xa2\xa3\xa4', 6081
ulen = 8 + len(th) + len(inner) + len(payload)
ucheck = fold(pseudo(osrc, odst, 17, ulen)) if csum else 0
udp = struct.pack('!HHHH', 49152, dport, ulen, ucheck)
outer_ip = ip6(17, ulen, osrc, odst) if o6 else ip4(17, ulen, 0x1111, osrc, odst)
frame = eth + outer_ip + udp + th + inner + payload
outer_th = 14 + len(outer_ip)
inner_nh = outer_th + 8 + len(th) + 14
inner_th = inner_nh + len(inner_ip)
hdr_len = inner_th + len(tcp)
gso_type = (4 if i6 else 1) | (0x40 if o6 else 0x20)
vnet = struct.pack('<BBHHHHHIHHHH', 1 | (8 if csum else 0), gso_type, hdr_len, mss, inner_th, 16, 0, 0, 0, 0,
                   outer_th, inner_nh)
write_pcap(frame)
with open(out + '/vnet.hex', 'w') as f:
    f.write(vnet.hex() + '\n')
