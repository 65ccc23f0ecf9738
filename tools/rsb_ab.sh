#!/bin/sh
# resize_bwd linear x2 half_pixel, the bench's shape (diff_dst f32 [4,32,128,128] -> diff_src
# [4,32,64,64], one part), through the headers of commit OLD (one translation unit) and of the
# working tree (another), in ONE process: the two alternate REPS times, each timed as thread CPU
# time (CLOCK_THREAD_CPUTIME_ID), best kept; the two results must have the same bits.
#   tools/rsb_ab.sh OLD [RUNS [ISA]]   prints, per process, old and new ns per diff_dst element
#                                      (ISA caps the level: 0 scalar .. 3 AVX-512)
set -e
old=${1:?usage: tools/rsb_ab.sh OLD [RUNS [ISA]]}
runs=${2:-3}
isa=${3:--1}
cc=${CC:-cc}
b=build/$(basename "$cc")/rsb_ab
rm -rf "$b" && mkdir -p "$b/old"
git archive "$old" | tar -x -C "$b/old"
cat > "$b/tu.c" <<'C'
#include "dnnl_kernels.h"
#include <string.h>
#include <time.h>
static double ab_cpu(void) { struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
void AB_CAP(int isa) { if (isa >= 0) dnnlk_set_max_isa((dnnlk_isa)isa); }
/* the best of reps calls of part (ith, nth) on the caller's buffers; the plane count np */
double AB_NAME(float *g, float *dx, int64_t np, int reps, int ith, int nth) {
    static const int axes[2] = {2, 3};
    static const float scales[2] = {2, 2};
    int64_t sd[4] = {1, np, 64, 64}, dd[4] = {1, np, 128, 128};
    dnnlk_tensor tg, tx;
    dnnlk_resize_desc d;
    double best = 1e9;
    int k;
    memset(&tg, 0, sizeof tg), memset(&tx, 0, sizeof tx), memset(&d, 0, sizeof d);
    d.mode = dnnlk_resize_linear, d.coord = dnnlk_resize_half_pixel, d.naxes = 2, d.axes = axes, d.scales = scales;
    tg.data = g, tg.dtype = dnnlk_f32, tg.ndims = 4, tx.data = dx, tx.dtype = dnnlk_f32, tx.ndims = 4;
    memcpy(tg.dims, dd, sizeof dd), memcpy(tx.dims, sd, sizeof sd);
    tg.strides[3] = 1, tg.strides[2] = 128, tg.strides[1] = 128 * 128, tg.strides[0] = np * 128 * 128;
    tx.strides[3] = 1, tx.strides[2] = 64, tx.strides[1] = 64 * 64, tx.strides[0] = np * 64 * 64;
    for (k = 0; k < reps; k++) {
        double t = ab_cpu();
        if (dnnlk_resize_bwd(&tg, &d, &tx, ith, nth) != dnnlk_success) return -1;
        t = ab_cpu() - t;
        if (t < best) best = t;
    }
    return best;
}
C
cat > "$b/main.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include "tools/cputime.h"
double ab_old(float *, float *, int64_t, int, int, int);
double ab_new(float *, float *, int64_t, int, int, int);
void ab_cap_old(int), ab_cap_new(int);
int main(int argc, char **argv) {
    const int64_t np = 128, nout = np * 128 * 128, nin = np * 64 * 64; /* 4 x 32 planes */
    int isa = argc > 1 ? atoi(argv[1]) : -1, r, pass;
    float *g = al((size_t)nout * 4), *a = al((size_t)nin * 4), *b = al((size_t)nin * 4);
    uint32_t s = 99;
    int64_t i;
    ab_cap_old(isa), ab_cap_new(isa);
    for (i = 0; i < nout; i++) s = s * 1664525u + 1013904223u, g[i] = (float)(s >> 8) * (1.0f / 16777216.0f) - 0.5f;
    for (pass = 0; pass < 2; pass++) { /* DRAM-sized (the bench's 4x32 planes), then one plane (in cache) */
        int64_t p = pass ? 1 : np;
        double o = 1e9, w = 1e9;
        for (r = 0; r < 15; r++) {
            double x = ab_old(g, a, p, pass ? 50 : 3, 0, 1), y = ab_new(g, b, p, pass ? 50 : 3, 0, 1);
            if (x < 0 || y < 0) return 1;
            if (x < o) o = x;
            if (y < w) w = y;
        }
        if (memcmp(a, b, (size_t)(p * 64 * 64) * 4)) { printf("BITS DIFFER\n"); return 1; }
        printf("rsb %s: old %.3f  new %.3f ns/diff_dst elem  new/old %.3f\n", pass ? "1 plane " : "128 planes", 1e9 * o / (double)(p * 128 * 128),
               1e9 * w / (double)(p * 128 * 128), w / o);
    }
    (void)nin;
    return 0;
}
C
$cc -std=gnu11 -O2 -DAB_NAME=ab_old -DAB_CAP=ab_cap_old -I"$b/old" -c "$b/tu.c" -o "$b/old.o"
$cc -std=gnu11 -O2 -DAB_NAME=ab_new -DAB_CAP=ab_cap_new -I. -c "$b/tu.c" -o "$b/new.o"
$cc -std=gnu11 -O2 -I. "$b/main.c" "$b/old.o" "$b/new.o" -o "$b/ab" -lm -lpthread
i=1
while [ $i -le "$runs" ]; do echo "process $i"; "$b/ab" "$isa"; i=$((i + 1)); done
