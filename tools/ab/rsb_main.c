/* tools/ab_inprocess.sh's rsb case, the program: 128 planes (the bench's shape, DRAM-sized), then
 * one plane (in cache), old and new alternated 15 times, each side's best; the two results must
 * have the same bits. Argument: the ISA cap (0 scalar .. 3 AVX-512; default none). */
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
