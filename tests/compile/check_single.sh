#!/bin/sh
# The single-file build (tools/amalgamate.py, `make single`) against the multi-file header:
#   - the same tokens: `-E -P` of a file that includes one or the other, compared line by line with
#     blank lines and spacing ignored, in C with the default flags, -DDNNLK_NO_SIMD,
#     -DDNNLK_MAX_ISA=1 and -march=native, and in C++ (default, -DDNNLK_NO_SIMD);
#   - the multi-TU header check (tests/compile/tu.c as C99, C11 and C++17, the header included
#     twice in each, linked into one program; no external symbols) against it, copied alone into
#     a folder as a vendor would: each of those TUs, preprocessed with that check's own flags,
#     gives the very same lines (blank lines aside) with the single header as with dnnl_kernels.h,
#     so the compiler reads the same program and the objects are the ones `make test` builds,
#     links, runs and checks for symbols (tests/compile/check_symbols.sh) already; compiling them
#     again took ~50 s per compiler;
#   - the examples against it (tests/compile/check_examples.sh).
#   tests/compile/check_single.sh CC CXX BUILD_DIR SINGLE
cc=$1; cxx=$2; out=$3/single; single=$4
warn="-Wall -Wextra -Wpedantic -Werror"
fail() { echo "check_single: $*"; exit 1; }
rm -rf "$out" && mkdir -p "$out" || exit 1
cp "$single" "$out/dnnl_kernels_single.h" || exit 1
printf '#include "dnnl_kernels.h"\n' > "$out/multi.c"
printf '#include "dnnl_kernels_single.h"\n' > "$out/single.c"
tokens() { # compiler flags... : the preprocessed lines, spacing normalized, blank lines dropped
    "$@" | awk 'NF { $1 = $1; print }'
}
n=0
for cfg in "$cc|" "$cc|-DDNNLK_NO_SIMD" "$cc|-DDNNLK_MAX_ISA=1" "$cc|-march=native" "$cxx -x c++|" "$cxx -x c++|-DDNNLK_NO_SIMD"; do
    comp=${cfg%%|*}; flags=${cfg#*|}
    tokens $comp $flags -E -P -I. "$out/multi.c" > "$out/multi.i" || fail "$comp $flags -E of dnnl_kernels.h failed"
    tokens $comp $flags -E -P "$out/single.c" > "$out/single.i" || fail "$comp $flags -E of the single header failed"
    if ! cmp -s "$out/multi.i" "$out/single.i"; then
        diff "$out/multi.i" "$out/single.i" | head -20
        fail "$comp $flags: the single header preprocesses to other tokens than dnnl_kernels.h"
    fi
    n=$((n + 1))
done
echo "single header: $(wc -c < "$single" | awk '{printf "%.1f MB", $1 / 1e6}'), the same tokens as dnnl_kernels.h in $n configurations"
sed 's|#include "../../dnnl_kernels.h"|#include "dnnl_kernels_single.h"|' tests/compile/tu.c > "$out/tu.c"
[ "$(grep -c 'dnnl_kernels_single.h' "$out/tu.c")" = 2 ] || fail "tests/compile/tu.c: its two includes not found"
for cfg in "$cc -std=c99 -O0|tu_c99" "$cc -std=c11 -O0|tu_c11" "$cxx -x c++ -std=c++17 -O2|tu_cxx17"; do
    comp=${cfg%%|*}; tu=${cfg#*|}
    $comp $warn -DTU_NAME=$tu -E -P tests/compile/tu.c > "$out/$tu.multi.raw" &&
        $comp $warn -DTU_NAME=$tu -E -P "$out/tu.c" > "$out/$tu.single.raw" ||
        fail "$comp -E of the multi-TU check's $tu failed"
    awk NF "$out/$tu.multi.raw" > "$out/$tu.multi.i" && awk NF "$out/$tu.single.raw" > "$out/$tu.single.i" || exit 1
    if ! cmp -s "$out/$tu.multi.i" "$out/$tu.single.i"; then
        diff "$out/$tu.multi.i" "$out/$tu.single.i" | head -20
        fail "$comp: the multi-TU check's $tu reads other lines with the single header"
    fi
done
echo "single header: the multi-TU check's C99, C11 and C++17 TUs (included twice) preprocess to the same lines as with dnnl_kernels.h"
sh tests/compile/check_examples.sh "$cc" "$out/examples" "$single"
