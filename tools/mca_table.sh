#!/bin/sh
# The expected cost of each op family's inner loop on aarch64 (NEON) next to x86 (AVX2), from the
# generated code rather than a run: tools/mca_probe_simd.h holds each family's per-vector core in a
# one-step loop; clang compiles it for x86-64 and for aarch64 (no -march/-mcpu: the code users get),
# this script cuts each level's innermost loop out of the assembly (clang marks loop headers) and
# llvm-mca reads it with -mcpu=haswell (AVX2) and -mcpu=neoverse-v1 (NEON). Prints a Markdown
# table: instructions per element, and llvm-mca's block reciprocal throughput per element (cycles
# per element if nothing but the core's own scheduling limits it: no memory, no frequency).
#   tools/mca_table.sh [CLANG] [LLVM_MCA]
set -eu
cd "$(dirname "$0")/.."
clang=${1:-clang}
mca=${2:-llvm-mca}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
$clang -std=gnu11 -O2 -S tools/mca_probe.c -o "$d/x86.s"
$clang --target=aarch64-linux-gnu -std=gnu11 -O2 -S tools/mca_probe.c -o "$d/a64.s"

# The instructions of the largest innermost loop of function $2 in assembly file $1.
loop_of() {
    awk -v fn="$2" '
        $0 ~ "^" fn ":" { infn = 1; next }
        infn && /^\.Lfunc_end/ { infn = 0 }
        !infn { next }
        /^[.A-Za-z_0-9]+:/ {
            if ($0 ~ /=>This Inner Loop Header/) { n++; cur = n; hdr = $1; sub(/^\.L/, "", hdr); sub(/:$/, "", hdr) }
            else if (cur && index($0, "in Loop: Header=" hdr " ")) { }
            else cur = 0
            next
        }
        cur && $1 !~ /^[.#\/]/ && NF { body[cur] = body[cur] $0 "\n"; cnt[cur]++ }
        END { best = 0; for (k = 1; k <= n; k++) if (cnt[k] > cnt[best]) best = k; printf "%s", body[best] }
    ' "$1"
}
# "instructions-per-iteration block-rthroughput" of a loop file
mca_of() {
    $mca -mtriple="$1" -mcpu="$2" -iterations=100 "$3" 2>/dev/null |
        awk '/^Instructions:/ { i = $2 / 100 } /^Block RThroughput:/ { t = $3 } END { print i, t }'
}

echo "| op family (per-vector core) | AVX2: instr/elem | AVX2: cycles/elem (haswell) | NEON: instr/elem | NEON: cycles/elem (neoverse-v1) |"
echo "|---|---|---|---|---|"
for f in exp erf tanh gelu_erf gelu_tanh softmax_exp norm_stats quantize dropout select to_bf16 resize_lerp; do
    case $f in quantize) sx=32 sa=16 ;; *) sx=8 sa=4 ;; esac # elements per iteration: AVX2, NEON
    loop_of "$d/x86.s" "mca_${f}_avx2" > "$d/x.loop"
    loop_of "$d/a64.s" "mca_${f}_neon" > "$d/a.loop"
    [ -s "$d/x.loop" ] && [ -s "$d/a.loop" ] || { echo "no inner loop found for $f" >&2; exit 1; }
    set -- $(mca_of x86_64 haswell "$d/x.loop") $(mca_of aarch64 neoverse-v1 "$d/a.loop")
    awk -v f="$f" -v xi="$1" -v xt="$2" -v ai="$3" -v at="$4" -v sx=$sx -v sa=$sa \
        'BEGIN { printf "| %s | %.2f | %.2f | %.2f | %.2f |\n", f, xi / sx, xt / sx, ai / sa, at / sa }'
done
