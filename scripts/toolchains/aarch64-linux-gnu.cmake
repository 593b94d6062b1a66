# Cross-compiling for 64-bit ARM Linux with Debian's cross compiler (g++-aarch64-linux-gnu):
#   cmake -S . -B build-arm64 -G Ninja --toolchain scripts/toolchains/aarch64-linux-gnu.cmake
# MAHARAJAH_ARCH then defaults to armv8 (NEON); the binaries run on arm64 machines or
# here under qemu-aarch64 (scripts/arm64/test). Android and iOS use their own SDKs'
# toolchains with the same options (docs/platforms.md).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
# Libraries and headers of the target only from the cross sysroot (Debian's multiarch
# directories for aarch64); programs from the build machine.
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# Tests run through qemu-user (CTest and catch_discover_tests prefix the command with it).
find_program(MAHARAJAH_QEMU_AARCH64 qemu-aarch64)
if(MAHARAJAH_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${MAHARAJAH_QEMU_AARCH64} -L /usr/aarch64-linux-gnu)
endif()
