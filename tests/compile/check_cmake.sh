#!/bin/sh
# The CMake package and the version, from `make test-install` (after `make install` into
# BUILD/stage):
#   - the version: dnnl_kernels.h's DNNLK_VERSION_MAJOR/MINOR/PATCH, its DNNLK_VERSION_STRING, the
#     Makefile's VERSION, each installed pkg-config file and CMake version file say the same, and the
#     README's changelog has an entry for it;
#   - `cmake --install` of CMakeLists.txt installs the same files as `make install` (the .pc file's
#     prefix aside) into BUILD/stage-cmake;
#   - a tiny consumer (tests/cmake) configures, builds and runs with find_package(dnnl_kernels
#     M.m CONFIG) against each installed tree, and with add_subdirectory of the repository;
#   - each version file answers find_package's version requests right (tests/cmake/version_file.cmake).
#   tests/compile/check_cmake.sh BUILD VERSION CC
set -e
b=$(cd "$1" && pwd); version=$2; cc=$3
root=$(pwd)
fail() { echo "check_cmake: $*"; exit 1; }
command -v cmake >/dev/null 2>&1 || { echo "check_cmake: cmake not found, CMake package not checked"; exit 0; }

# the header's own view of its version
mkdir -p "$b/cmake-check"
printf '#include <stdio.h>\n#include "dnnl_kernels.h"\nint main(void) { printf("%%d.%%d.%%d %%s\\n", DNNLK_VERSION_MAJOR, DNNLK_VERSION_MINOR, DNNLK_VERSION_PATCH, DNNLK_VERSION_STRING); return 0; }\n' \
    > "$b/cmake-check/version.c"
$cc -I"$root" "$b/cmake-check/version.c" -o "$b/cmake-check/version"
set -- $("$b/cmake-check/version")
[ "$1" = "$version" ] && [ "$2" = "$version" ] ||
    fail "DNNLK_VERSION_MAJOR/MINOR/PATCH give $1, DNNLK_VERSION_STRING $2, the Makefile's VERSION $version"
grep -q "^- $version — " README.md || fail "README.md's changelog has no entry \"- $version — ...\""

log=$b/cmake-check/log
run() { "$@" > "$log" 2>&1 || { tail -30 "$log"; fail "failed: $*"; }; }

# the second install route
rm -rf "$b/cmake-self" "$b/stage-cmake"
run cmake -S "$root" -B "$b/cmake-self" -DCMAKE_INSTALL_PREFIX="$b/stage-cmake"
run cmake --install "$b/cmake-self"
diff -r -x dnnl_kernels.pc "$b/stage" "$b/stage-cmake" -x t > "$log" 2>&1 ||
    { cat "$log"; fail "make install and cmake --install install different files"; }

for prefix in "$b/stage" "$b/stage-cmake"; do
    pcv=$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --modversion dnnl_kernels 2>/dev/null ||
          sed -n 's/^Version: //p' "$prefix/lib/pkgconfig/dnnl_kernels.pc")
    [ "$pcv" = "$version" ] || fail "$prefix's dnnl_kernels.pc says version $pcv, the header $version"
    run cmake -DFILE="$prefix/lib/cmake/dnnl_kernels/dnnl_kernelsConfigVersion.cmake" -DVERSION="$version" \
        -P "$root/tests/cmake/version_file.cmake"
    rm -rf "$b/cmake-consumer"
    run cmake -S "$root/tests/cmake" -B "$b/cmake-consumer" -DCMAKE_C_COMPILER="$cc" -DDNNLK_VIA=find_package \
        -DDNNLK_REQUEST="${version%.*}" -DCMAKE_PREFIX_PATH="$prefix"
    run cmake --build "$b/cmake-consumer"
    "$b/cmake-consumer/consumer" || fail "the find_package consumer of $prefix failed"
done
# an incompatible request must stop the configure
rm -rf "$b/cmake-consumer"
if cmake -S "$root/tests/cmake" -B "$b/cmake-consumer" -DCMAKE_C_COMPILER="$cc" -DDNNLK_VIA=find_package \
    -DDNNLK_REQUEST="$((${version%%.*} + 1))" -DCMAKE_PREFIX_PATH="$b/stage" > "$log" 2>&1; then
    fail "find_package(dnnl_kernels $((${version%%.*} + 1)) CONFIG REQUIRED) accepted version $version"
fi
rm -rf "$b/cmake-consumer"
run cmake -S "$root/tests/cmake" -B "$b/cmake-consumer" -DCMAKE_C_COMPILER="$cc" -DDNNLK_VIA=add_subdirectory \
    -DDNNLK_SOURCE_DIR="$root"
run cmake --build "$b/cmake-consumer"
"$b/cmake-consumer/consumer" || fail "the add_subdirectory consumer failed"
echo "CMake check: version $version everywhere; make install and cmake --install agree; find_package (both trees) and add_subdirectory consumers build and run"
