# CMake toolchain file for linux/arm64 with Debian's cross compiler (g++-aarch64-linux-gnu)
# and multiarch arm64 -dev packages (libyaml-dev:arm64, ...), as in the build root of
# dist/debian_root.sh. dist/release.sh uses it for BUILD_DIR=linux/arm64.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
# Multiarch: the arm64 libraries are in /usr/lib/aarch64-linux-gnu, found through
# CMAKE_LIBRARY_ARCHITECTURE; pkg-config must read their .pc files, not the host's.
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig")
# Built programs run under qemu (e.g. a test); the build itself never runs them.
find_program(TRAINJOB_QEMU_AARCH64 qemu-aarch64-static)
if(TRAINJOB_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR "${TRAINJOB_QEMU_AARCH64}")
endif()
