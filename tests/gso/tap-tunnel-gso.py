#!/usr/bin/env python3
# tap-tunnel-gso.py IN.pcap OUT.pcap VNETHEX - the running kernel as the
# oracle of UDP-tunnel GSO (Linux 6.17+; the kernel-oracle kernel-gso tool
# sends through AF_PACKET, whose 10-byte virtio_net_hdr has no tunnel
# offsets): each frame of IN.pcap is written to a TAP device (IFF_VNET_HDR,
# TUNSETVNETHDRSZ 24, TUNSETOFFLOAD with TUN_F_UDP_TUNNEL_GSO and _CSUM)
# behind its 24-byte virtio_net_hdr_v1_hash_tunnel (VNETHEX, comma-separated
# per frame); a bridge forwards it to a veth with every offload off, so the
# kernel segments it in software (skb_udp_tunnel_segment) and computes full
# checksums; the segments captured on the veth peer go to OUT.pcap.  Run as
# root inside a fresh network namespace (make-tunnel-fixtures.sh does).
import fcntl, os, socket, struct, subprocess, sys, time
TUNSETIFF = 0x400454ca; TUNSETOFFLOAD = 0x400454d0; TUNSETVNETHDRSZ = 0x400454d8
IFF_TAP = 2; IFF_NO_PI = 0x1000; IFF_VNET_HDR = 0x4000
def sh(c): subprocess.run(c, shell=True, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
def rd(path):
    d = open(path, 'rb').read()
    le = d[:4] == b'\xd4\xc3\xb2\xa1'
    e = '<' if le else '>'
    off = 24; frames = []
    while off + 16 <= len(d):
        _, _, cl, _ = struct.unpack(e + 'IIII', d[off:off+16]); off += 16
        frames.append(d[off:off+cl]); off += cl
    return frames
def wr(path, frames):
    with open(path, 'wb') as f:
        f.write(struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 262144, 1))
        for fr in frames:
            f.write(struct.pack('<IIII', 0, 0, len(fr), len(fr))); f.write(fr)
inp, outp, vnet_hex = sys.argv[1], sys.argv[2], sys.argv[3]
frames = rd(inp)
vnets = [bytes.fromhex(h) for h in vnet_hex.split(',')]
sh('sysctl -w net.ipv6.conf.all.disable_ipv6=1'); sh('sysctl -w net.ipv6.conf.default.disable_ipv6=1')
fd = os.open('/dev/net/tun', os.O_RDWR)
fcntl.ioctl(fd, TUNSETIFF, struct.pack('16sH', b'tap0', IFF_TAP | IFF_NO_PI | IFF_VNET_HDR))
fcntl.ioctl(fd, TUNSETVNETHDRSZ, struct.pack('i', 24))
fcntl.ioctl(fd, TUNSETOFFLOAD, 0x1 | 0x2 | 0x4 | 0x80 | 0x100)
sh('ip link add veth0 type veth peer name veth1')
sh('ip link add br0 type bridge')
sh('ip link set tap0 master br0'); sh('ip link set veth0 master br0')
for i in ('tap0', 'veth0', 'veth1', 'br0'): sh(f'ip link set {i} up')
sh('ip link set veth0 mtu 9000'); sh('ip link set veth1 mtu 9000')
for feat in ('tx', 'sg', 'tso', 'gso', 'tx-udp_tnl-segmentation', 'tx-udp_tnl-csum-segmentation'):
    subprocess.run(f'ethtool -K veth0 {feat} off', shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
subprocess.run('ethtool -K veth1 gro off', shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
s.bind(('veth1', 0)); s.settimeout(0.5)
time.sleep(0.3)
while True:
    try: s.recv(65535)
    except socket.timeout: break
out = []
for fr, v in zip(frames, vnets):
    n = os.write(fd, v + fr)
    got = []
    while True:
        try: p = s.recv(65535)
        except socket.timeout: break
        if len(p) > 42 and p[12:14] in (b'\x08\x00', b'\x86\xdd'): got.append(p)
    print(f'wrote {n} bytes, got {len(got)} frames: {[len(g) for g in got]}')
    out += got
wr(outp, out)
