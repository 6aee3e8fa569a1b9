# CMake toolchain file: cross build for 64-bit ARM Linux with Debian's cross
# compiler, tests run under qemu-user (ctest prefixes every test program
# with the emulator).  Debian packages: gcc-aarch64-linux-gnu, qemu-user,
# and the target's libraries: check:arm64, libpcap-dev:arm64 (dpkg
# --add-architecture arm64).  scripts/cross-arm64.sh uses it:
#   cmake -S . -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
# the target's loader and libc live under /usr/aarch64-linux-gnu; the
# multiarch libraries (libpcap, libcheck) under /usr/lib/aarch64-linux-gnu,
# which the target's loader searches by default
set(CMAKE_CROSSCOMPILING_EMULATOR "qemu-aarch64;-L;/usr/aarch64-linux-gnu")
# programs of the build machine (help2man, gzip, ...), libraries and
# headers of the target only
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# pkg-config: the target's .pc files, never the build machine's
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")
