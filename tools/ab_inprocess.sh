#!/bin/sh
# Old code against new in ONE process, on the same buffers: dropout forward at [8,512,768] through
# the headers of commit OLD (one translation unit) and of the working tree (another), linked into
# one program that alternates them 20 times and keeps each side's best. Everything that differs
# between two processes (where the buffers and the stack land, which physical pages back them) is
# then the same for both sides; on this VM that alone moves a row by up to 50% from one process to
# the next, more than any code change bench_compare.sh was asked to judge.
#   tools/ab_inprocess.sh OLD [RUNS]     prints, per process, old and new ms and new/old for
#                                        f32 and bf16, MT19937 and MCG31, parts 0/1 and 1/2
set -e
old=${1:?usage: tools/ab_inprocess.sh OLD [RUNS]}
runs=${2:-3}
cc=${CC:-cc}
b=build/$(basename "$cc")/ab
rm -rf "$b" && mkdir -p "$b/old"
git archive "$old" | tar -x -C "$b/old"
cat > "$b/tu.c" <<'C'
#include "dnnl_kernels.h"
#include <string.h>
#include <time.h>
static double ab_now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
/* the best of reps calls of part (ith, nth) of dropout forward on the caller's buffers */
double AB_NAME(int bf16, int alg, char *s, char *d, unsigned char *m, int reps, int ith, int nth) {
    int64_t dims[3] = {8, 512, 768};
    dnnlk_tensor src, dst;
    dnnlk_rng r;
    double best = 1e9;
    int k;
    memset(&src, 0, sizeof src);
    src.data = s, src.dtype = bf16 ? dnnlk_bf16 : dnnlk_f32, src.ndims = 3;
    memcpy(src.dims, dims, sizeof dims);
    src.strides[2] = 1, src.strides[1] = 768, src.strides[0] = 512 * 768;
    dst = src, dst.data = d;
    dnnlk_rng_init(&r, (dnnlk_rng_alg)alg, 42, 0);
    for (k = 0; k < reps; k++) {
        double t = ab_now();
        if (dnnlk_dropout_fwd(&src, &dst, m, 0.1, 0, NULL, &r, NULL, ith, nth) != dnnlk_success) return -1;
        t = ab_now() - t;
        if (t < best) best = t;
    }
    return best;
}
C
cat > "$b/main.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
double ab_old(int, int, char *, char *, unsigned char *, int, int, int);
double ab_new(int, int, char *, char *, unsigned char *, int, int, int);
int main(void) {
    static const int algs[2] = {2, 0}; /* MT19937, MCG31 */
    static const char *names[3] = {"mcg31", "", "mt19937"};
    size_t n = 8 * 512 * 768;
    char *s = aligned_alloc(64, n * 4), *d = aligned_alloc(64, n * 4);
    unsigned char *m = aligned_alloc(64, n / 8 + 64);
    int bf, a, part, r;
    memset(s, 1, n * 4), memset(d, 0, n * 4);
    for (bf = 0; bf < 2; bf++)
        for (a = 0; a < 2; a++)
            for (part = 0; part < 2; part++) {
                double o = 1e9, w = 1e9;
                int ith = part, nth = part + 1; /* 0 of 1, then 1 of 2 (the part that skips) */
                for (r = 0; r < 20; r++) {
                    double x = ab_old(bf, algs[a], s, d, m, 5, ith, nth), y = ab_new(bf, algs[a], s, d, m, 5, ith, nth);
                    if (x < 0 || y < 0) return 1;
                    if (x < o) o = x;
                    if (y < w) w = y;
                }
                printf("dropout fwd %-8s %-4s part %d/%d: old %.3f ms  new %.3f ms  new/old %.3f\n", names[algs[a]],
                       bf ? "bf16" : "f32", ith, nth, o * 1e3, w * 1e3, w / o);
            }
    return 0;
}
C
$cc -std=gnu11 -O2 -DAB_NAME=ab_old -I"$b/old" -c "$b/tu.c" -o "$b/old.o"
$cc -std=gnu11 -O2 -DAB_NAME=ab_new -I. -c "$b/tu.c" -o "$b/new.o"
$cc -std=gnu11 -O2 "$b/main.c" "$b/old.o" "$b/new.o" -o "$b/ab" -lm -lpthread
i=1
while [ $i -le "$runs" ]; do echo "process $i"; "$b/ab"; i=$((i + 1)); done
