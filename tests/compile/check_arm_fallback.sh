#!/bin/sh
# The header on the ARM targets with no SIMD level: big-endian aarch64 and 32-bit ARM. Each TU
# (tests/compile/tu.c, as C99 and as C++17) must compile warning-free with clang and select the scalar
# code only (DNNLK__NEON 0). This is a compile check only (-c, nothing linked or run): Debian has no
# big-endian aarch64 libc and we install no 32-bit ARM one, so the aarch64 sysroot's glibc headers
# stand in; the library needs only the standard C declarations, which are the same on these
# targets. One header differs: for big-endian aarch64, glibc includes gnu/stubs-lp64_be.h, which
# lists as macros the functions glibc leaves out on that ABI. The arm64 sysroot has no such file,
# and the library reads none of those macros, so the empty file written below takes its place.
#   sh tests/compile/check_arm_fallback.sh OUTDIR
set -e
out=${1:?usage: check_arm_fallback.sh OUTDIR}
mkdir -p "$out/stubs/gnu"
: > "$out/stubs/gnu/stubs-lp64_be.h"
flags="-Wall -Wextra -Wpedantic -Werror -O2 -I. -isystem $out/stubs --sysroot=/usr/aarch64-linux-gnu -isystem /usr/aarch64-linux-gnu/include"
for t in aarch64_be-linux-gnu armv7a-linux-gnueabihf; do
    clang --target=$t -std=c99 $flags -DTU_NAME=tu_c99 -c tests/compile/tu.c -o "$out/$t.o"
    clang --target=$t -x c++ -std=c++17 $flags -DTU_NAME=tu_cxx17 -c tests/compile/tu.c -o "$out/$t.cxx.o"
    printf '#include "dnnl_kernels.h"\n#if DNNLK__NEON\n#error NEON on a target without it\n#endif\n' |
        clang --target=$t -x c -std=c99 $flags -fsyntax-only -
done
echo "aarch64_be and armv7 (clang): the header compiles warning-free and picks the scalar level"
