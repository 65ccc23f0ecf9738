#!/bin/sh
# Old code against new, built and run in the same session: the bench program of commit OLD (from
# `git archive`, built with its own Makefile and the same compiler) and of the working tree run in
# alternation, ROUNDS times each, every row reporting its best time over the rounds (the bench's
# DNNLK_BENCH_HISTORY mechanism). Prints each row's ns/element, old and new, and new/old: below 1
# is faster. How a refactor shows that it lost no speed. Both programs time with the working tree's
# bench/harness.h (the runner and the copy bound are not what is being compared); if OLD's cases do
# not build with it, OLD keeps its own and a line on stderr says so.
#   tools/bench_compare.sh OLD [ROUNDS [GROUP...]]     e.g. tools/bench_compare.sh 8535a61 3 select norm
# CC picks the compiler (default cc); GROUPs are the bench's case-group words.
set -e
old=${1:?usage: tools/bench_compare.sh OLD [ROUNDS [GROUP...]]}
rounds=${2:-3}
[ $# -ge 2 ] && shift 2 || shift $#
cc=${CC:-cc}
b=build/$(basename "$cc")/compare
rm -rf "$b" && mkdir -p "$b/old"
git archive "$old" | tar -x -C "$b/old"
cp "$b/old/bench/harness.h" "$b/old_harness.h"
cp bench/harness.h "$b/old/bench/harness.h"
if ! make -s -C "$b/old" CC="$cc" "build/$(basename "$cc")/bench" >/dev/null 2>&1; then
    echo "bench_compare: $old does not build with this harness; it keeps its own" >&2
    cp "$b/old_harness.h" "$b/old/bench/harness.h"
    make -s -C "$b/old" CC="$cc" "build/$(basename "$cc")/bench" >/dev/null
fi
make -s CC="$cc" "build/$(basename "$cc")/bench" >/dev/null
oldbin=$b/old/build/$(basename "$cc")/bench
newbin=build/$(basename "$cc")/bench
r=1
while [ $r -le "$rounds" ]; do
    echo "bench_compare: round $r of $rounds" >&2
    DNNLK_BENCH_HISTORY=$b/old.hist "$oldbin" "$@" > "$b/old.txt"
    DNNLK_BENCH_HISTORY=$b/new.hist "$newbin" "$@" > "$b/new.txt"
    r=$((r + 1))
done
# rows: case and shape (either may hold spaces), dtype, isa, thr, ns/elem ...: matched by the
# text up to ns/elem and its occurrence
awk -v oldrev="$old" '
    FNR == 1 { file++ }
    match($0, / (scalar|sse41|avx2|avx512|neon) +[0-9]+ +[0-9.]+ /) {
        head = substr($0, 1, RSTART - 1); split(substr($0, RSTART, RLENGTH), f, " ")
        key = head " " f[1] " " f[2]; n = ++seen[file, key]
        if (file == 1) { old[key, n] = f[3] } else { rows[++nr] = key; occ[nr] = n; new_[nr] = f[3]; label[nr] = sprintf("%-60s %-7s %3s", head, f[1], f[2]) }
    }
    END {
        printf "%-60s %-7s %3s %10s %10s %8s\n", "case, shape, dtype", "isa", "thr", "old " oldrev, "new", "new/old"
        for (i = 1; i <= nr; i++) {
            o = old[rows[i], occ[i]]
            if (o == "") { printf "%s %10s %10.3f %8s\n", label[i], "-", new_[i], "new row"; continue }
            printf "%s %10.3f %10.3f %8.3f\n", label[i], o, new_[i], (o > 0 ? new_[i] / o : 0)
        }
    }' "$b/old.txt" "$b/new.txt"
