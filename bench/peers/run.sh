#!/bin/sh
# Runs every installed peer benchmark and prints their "KEY<TAB>PEER<TAB>ns_per_elem" lines.
# Optional by design: a peer that is not installed is skipped with a note on stderr.
#   bench/peers/run.sh BUILD_DIR [WORD...]   (words filter case groups, as for the bench program)
b=$1; shift
dir=$(dirname "$0")
py=${PYTHON:-/usr/bin/python3}
# Huge pages for every side's large buffers, as bench_alloc gives ours (bench/harness.h): numpy
# madvises its arrays of 4 MiB or more by itself; glibc's malloc does it for torch's and oneDNN's
# allocators with this tunable (glibc >= 2.35; older ones ignore it). DNNLK_BENCH_HUGEPAGES=0: none.
if [ "${DNNLK_BENCH_HUGEPAGES:-1}" = 0 ]; then
    export NUMPY_MADVISE_HUGEPAGE=0
else
    export GLIBC_TUNABLES="${GLIBC_TUNABLES:+$GLIBC_TUNABLES:}glibc.malloc.hugetlb=1"
fi
[ -x "$py" ] || py=python3
# Our bench pins part ith's thread to a core of its own (bench/harness.h); OpenMP's threads of
# oneDNN and PyTorch are bound the same way unless DNNLK_BENCH_PIN=0 or the caller chose a binding.
if [ "${DNNLK_BENCH_PIN:-1}" != 0 ]; then
    export OMP_PROC_BIND="${OMP_PROC_BIND:-close}" OMP_PLACES="${OMP_PLACES:-cores}"
fi
# The Python peers set their own thread counts; their thread pools are sized for the largest.
maxthr=$(echo "${DNNLK_BENCH_THREADS:-1,2}" | tr ',' '\n' | sort -n | tail -n 1)
for f in "$dir"/*.py; do
    [ -f "$f" ] || continue
    # Each script imports what it needs and exits 0 quietly with a note if a module is missing.
    OMP_NUM_THREADS=${maxthr:-2} "$py" "$f" "$@" || echo "peer $(basename "$f") failed" >&2
done
if [ -f /usr/include/dnnl.h ] || [ -f /usr/local/include/dnnl.h ]; then
    for f in "$dir"/*_onednn.c; do
        [ -f "$f" ] || continue
        exe="$b/peers/$(basename "$f" .c)"
        mkdir -p "$b/peers"
        if ${CC:-cc} -O2 -std=gnu11 -D_GNU_SOURCE "$f" -o "$exe" -ldnnl -lpthread -lm 2>"$exe.log"; then
            "$exe" "$@" || echo "peer $(basename "$f") failed" >&2
        else
            echo "peer $(basename "$f"): build failed, skipped (see $exe.log)" >&2
        fi
    done
else
    echo "peers: oneDNN (libdnnl-dev) not installed, skipped" >&2
fi
# C++ peers against the standard library (libstdc++ or libc++): built with the C++ compiler.
for f in "$dir"/*_stdcpp.cpp; do
    [ -f "$f" ] || continue
    exe="$b/peers/$(basename "$f" .cpp)"
    mkdir -p "$b/peers"
    if ${CXX:-c++} -O2 -std=c++17 "$f" -o "$exe" 2>"$exe.log"; then
        "$exe" "$@" || true
    else
        echo "peer $(basename "$f"): build failed, skipped (see $exe.log)" >&2
    fi
done
exit 0
