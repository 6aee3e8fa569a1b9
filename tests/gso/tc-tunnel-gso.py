#!/usr/bin/env python3
# tc-tunnel-gso.py NAME DIR BPF.o - the running kernel as the oracle of GRE
# and IP-in-IP GSO.  DIR/IN.pcap is the fixture tests/gso/mktunnel.py wrote
# for NAME (gre_o{4,6}_i{4,6}[_key_ip], ipip_o{4,6}_i{4,6}): a TCP
# super-packet in GRE or IP in IP.  Its inner IP packet, behind the outer
# Ethernet header, is sent through an AF_PACKET socket with a virtio_net_hdr
# asking for TSO (NEEDS_CSUM, TCPV4/TCPV6, gso_size 1400) on a veth whose
# egress runs BPF.o (tc-tunnel-gso.bpf.c built for NAME), which puts the
# outer headers of IN.pcap back in front of it and marks the packet
# SKB_GSO_GRE or SKB_GSO_IPXIP4/6; the veth has every segmentation and
# checksum offload off, so the kernel segments it in software and computes
# full checksums.  The segments captured on the peer (GRO off) go to
# DIR/OUT.pcap.  Run as root inside a fresh network namespace
# (make-gre-ipip-fixtures.sh --kernel does).
import socket, struct, subprocess, sys, time
def sh(c): subprocess.run(c, shell=True, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
name, d, obj = sys.argv[1], sys.argv[2], sys.argv[3]
raw = open(d + '/IN.pcap', 'rb').read()
assert raw[:4] == b'\xd4\xc3\xb2\xa1'
cl = struct.unpack('<I', raw[24 + 8:24 + 12])[0]
frame = raw[40:40 + cl]
tun, o = name.split('_')[:2]
olen = 40 if o == 'o6' else 20
glen = (8 if '_key' in name else 4) if tun == 'gre' else 0
l2 = 14 if tun == 'gre' and not name.endswith('_ip') else 0
inner = frame[14 + olen + glen + l2:]                      # the inner IP packet
i6 = inner[0] >> 4 == 6
ihl = 40 if i6 else (inner[0] & 15) * 4
thl = (inner[ihl + 12] >> 4) * 4
tx = frame[:12] + (b'\x86\xdd' if i6 else b'\x08\x00') + inner
# NEEDS_CSUM, TCPV4/TCPV6, hdr_len, gso_size, csum_start, csum_offset
vnet = struct.pack('=BBHHHH', 1, 4 if i6 else 1, 14 + ihl + thl, 1400, 14 + ihl, 16)
sh('sysctl -w net.ipv6.conf.all.disable_ipv6=1'); sh('sysctl -w net.ipv6.conf.default.disable_ipv6=1')
sh('ip link add veth0 type veth peer name veth1')
for i in ('veth0', 'veth1'): sh(f'ip link set {i} mtu 9000')  # a segment may exceed 1500 bytes
for i in ('veth0', 'veth1', 'lo'): sh(f'ip link set {i} up')
for feat in ('tx', 'sg', 'tso', 'gso', 'tx-gre-segmentation', 'tx-gre-csum-segmentation',
             'tx-ipxip4-segmentation', 'tx-ipxip6-segmentation'):
    subprocess.run(f'ethtool -K veth0 {feat} off', shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
subprocess.run('ethtool -K veth1 gro off', shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
sh('tc qdisc add dev veth0 clsact')
sh(f'tc filter add dev veth0 egress bpf direct-action obj {obj} sec tc')
rx = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
rx.bind(('veth1', 0)); rx.settimeout(0.5)
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)
s.setsockopt(263, 15, 1)                                   # SOL_PACKET, PACKET_VNET_HDR
s.bind(('veth0', 0))
time.sleep(0.3)
while True:
    try: rx.recv(65535)
    except socket.timeout: break
n = s.send(vnet + tx)
got = []
while True:
    try: p = rx.recv(65535)
    except socket.timeout: break
    if len(p) > 42 and p[12:14] in (b'\x08\x00', b'\x86\xdd'): got.append(p)
with open(d + '/OUT.pcap', 'wb') as f:
    f.write(raw[:24])
    for g in got:
        f.write(struct.pack('<IIII', 0, 0, len(g), len(g))); f.write(g)
print(f'sent {n} bytes, got {len(got)} frames: {[len(g) for g in got]}')
