#!/usr/bin/env bash
# The Debian packages (cmake/packaging.cmake): build them with cpack in BUILD
# (a Release build configured with CMAKE_INSTALL_PREFIX=/usr, already built),
# install them into an empty root with dpkg --root (no chroot: no maintainer
# script of theirs needs one; dependencies outside the root are not checked
# there but against this system's dpkg), check the Depends and what `dpkg -L`
# lists, run the installed offload-replay, and build and run
# tests/install/consumer against the root (find_package and pkg-config).
#   .ci/packages.sh BUILD WORKDIR
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
(cd "$build" && cpack -G DEB -B "$work/debs" >"$work/cpack.log" 2>&1) || { cat "$work/cpack.log"; exit 1; }
debs=("$work"/debs/*.deb)
fail() { echo "packages: $*" >&2; exit 1; }
[ ${#debs[@]} = 3 ] || fail "expected 3 packages, got: ${debs[*]}"

# Depends: libofl-dev on its libofl0; the others on what dpkg-shlibdeps found
version=$(dpkg-deb -f "$work"/debs/libofl0_*.deb Version)
depends() { dpkg-deb -f "$work"/debs/"$1"_*.deb Depends; }
depends libofl-dev | grep -qx "libofl0 (= $version)" || fail "libofl-dev Depends: $(depends libofl-dev)"
depends libofl0 | grep -q "libc6" || fail "libofl0 Depends: $(depends libofl0)"
depends offload-replay | grep -q "libpcap0.8" || fail "offload-replay Depends: $(depends offload-replay)"
# every dependency outside our three is installed here: dpkg checks them
for p in $(for d in "${debs[@]}"; do dpkg-deb -f "$d" Depends; done | tr ',' '\n' |
           sed 's/(.*//; s/ //g' | sort -u); do
  case $p in libofl0) ;; *) dpkg-query -W -f='${Status}' "$p" | grep -q "ok installed" ||
                                fail "dependency $p not installed on this system";; esac
done

# install into an empty root
root=$work/root
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
touch "$root/var/lib/dpkg/status" "$root/var/lib/dpkg/available"
dpkg --root="$root" --log=/dev/null --force-depends --force-script-chrootless -i "${debs[@]}" \
  >"$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log"; exit 1; }
listed() { dpkg --root="$root" -L "$1" | grep -q -- "$2" || fail "dpkg -L $1 lacks $2"; }
listed libofl0 '/libofl\.so\.0$'
listed libofl-dev '/usr/include/ofl/gro\.h$'
listed libofl-dev '/pkgconfig/ofl\.pc$'
listed libofl-dev '/cmake/ofl/ofl-config\.cmake$'
listed libofl-dev '/libofl\.a$'
listed offload-replay '/usr/bin/offload-replay$'
listed offload-replay '/usr/share/man/man1/offload-replay\.1\.gz$'
for p in libofl0 libofl-dev offload-replay; do listed $p "/usr/share/doc/$p/copyright\$"; done
zcat "$root/usr/share/man/man1/offload-replay.1.gz" | grep -q '^\.TH OFFLOAD-REPLAY' ||
  fail "the man page is not a man page"
"$root/usr/bin/offload-replay" --version | grep -q "offload-replay $version" ||
  fail "installed offload-replay --version"

# the install consumer against the root
cmake -DPREFIX="$root/usr" -DWORK_DIR="$work/consumer" -DCONSUMER_DIR="$top/tests/install/consumer" \
  -DPUBLIC_HEADER_DIR="$top/include/ofl" -DCC="${CC:-gcc}" -DGENERATOR="Unix Makefiles" \
  -DPKG_CONFIG="$(command -v pkg-config)" -DREADELF="$(command -v readelf)" -DVERSION="$version" \
  -P "$top/tests/install/run.cmake" >"$work/consumer.log" 2>&1 || { cat "$work/consumer.log"; exit 1; }
grep -q "install test: OK" "$work/consumer.log" || { cat "$work/consumer.log"; exit 1; }
echo "packages: $(cd "$work/debs" && echo *.deb) install into an empty root and link"
