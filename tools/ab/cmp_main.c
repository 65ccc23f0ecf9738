/* tools/ab_inprocess.sh's cmp case, the program: f32 compares (lt, gt, ne, ge) of [4096,4096]
 * (DRAM-sized, the bench's row) and of [16,4096] (in cache), old and new alternated 9 times, each
 * side's best in ns per element; the two results must have the same bytes. Argument: the ISA cap
 * (0 scalar .. 3 AVX-512; default none). */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include "dnnl_kernels.h"
#include "tools/cputime.h"
double ab_old(const float *, const float *, unsigned char *, int64_t, int, int);
double ab_new(const float *, const float *, unsigned char *, int64_t, int, int);
void ab_cap_old(int), ab_cap_new(int);
int main(int argc, char **argv) {
    static const int ops[4] = {dnnlk_compare_lt, dnnlk_compare_gt, dnnlk_compare_ne, dnnlk_compare_ge};
    static const char *names[4] = {"lt", "gt", "ne", "ge"};
    const int64_t rows = 4096, n = rows * 4096;
    int isa = argc > 1 ? atoi(argv[1]) : -1, r, pass, o;
    float *a = al((size_t)n * 4), *b = al((size_t)n * 4);
    unsigned char *x = al((size_t)n), *y = al((size_t)n);
    uint32_t s = 7;
    int64_t i;
    ab_cap_old(isa), ab_cap_new(isa);
    for (i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u, a[i] = (float)(s >> 28);
        s = s * 1664525u + 1013904223u, b[i] = (float)(s >> 28);
    }
    for (pass = 0; pass < 2; pass++)
        for (o = 0; o < 4; o++) {
            int64_t m = pass ? 16 : rows;
            double bo = 1e9, bn = 1e9;
            for (r = 0; r < 9; r++) {
                double t0 = ab_old(a, b, x, m, ops[o], pass ? 200 : 3), t1 = ab_new(a, b, y, m, ops[o], pass ? 200 : 3);
                if (t0 < 0 || t1 < 0) return 1;
                if (t0 < bo) bo = t0;
                if (t1 < bn) bn = t1;
            }
            if (memcmp(x, y, (size_t)(m * 4096))) { printf("BYTES DIFFER (%s)\n", names[o]); return 1; }
            printf("cmp %s %s: old %.4f  new %.4f ns/elem  new/old %.3f\n", names[o], pass ? "[16,4096]  " : "[4096,4096]",
                   1e9 * bo / (double)(m * 4096), 1e9 * bn / (double)(m * 4096), bn / bo);
        }
    return 0;
}
