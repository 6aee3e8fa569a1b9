# Debian packages from the install components (top-level CMakeLists.txt):
#
#   cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr
#   cmake --build build && (cd build && cpack -G DEB)
#
#   libofl0         component lib: libofl.so.0 and its versioned file; shlibs
#                   file; Depends from dpkg-shlibdeps (libc6)
#   libofl-dev      component dev: headers, libofl.a, the libofl.so link,
#                   ofl.pc, the CMake package; Depends: libofl0 (= version)
#   offload-replay  component tools: the tool (linked with the static
#                   library, so it needs no libofl0) and its man page;
#                   Depends from dpkg-shlibdeps (libpcap0.8, libc6)
#
# The install prefix of the packages is /usr (CPACK_PACKAGING_INSTALL_PREFIX);
# configure with CMAKE_INSTALL_PREFIX=/usr so that GNUInstallDirs picks
# Debian's multiarch library directory.  scripts/test.sh builds the packages,
# unpacks them into an empty root and builds tests/install/consumer there.
set(CPACK_PACKAGE_NAME libofl)
set(CPACK_PACKAGE_VENDOR "libofl")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "libofl maintainers <libofl@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)

set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL lib dev)
if(OFL_BUILD_TOOLS)
  list(APPEND CPACK_COMPONENTS_ALL tools)
endif()
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://example.invalid/libofl")

set(CPACK_DEBIAN_LIB_PACKAGE_NAME libofl${PROJECT_VERSION_MAJOR}) # libofl0: the soname's number
set(CPACK_DEBIAN_LIB_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
set(CPACK_DEBIAN_LIB_DESCRIPTION "GRO, GSO and DSA tag offloads in userspace (shared library)\nlibofl gives a NIC driver or a userspace network stack the generic receive\noffload (GRO), generic segmentation offload (GSO) and DSA switch tag codecs\nof the Linux kernel.")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libofl-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_COMPONENT_DEV_DEPENDS lib)
set(CPACK_DEBIAN_DEV_DESCRIPTION "GRO, GSO and DSA tag offloads in userspace (development files)\nHeaders, static library, pkg-config file (ofl) and CMake package\n(find_package(ofl): ofl::ofl, ofl::ofl_static) of libofl.")

set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME offload-replay)
set(CPACK_DEBIAN_TOOLS_PACKAGE_SECTION net)
set(CPACK_DEBIAN_TOOLS_DESCRIPTION "replay packet captures through libofl's offloads\noffload-replay reads a capture (any file libpcap reads), runs it through\nGRO, GSO or a DSA tag codec and writes the result as pcap, with counters.")

include(CPack)
