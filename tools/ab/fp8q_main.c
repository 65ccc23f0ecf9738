/* tools/ab_inprocess.sh's fp8q case, the program: f32 -> fp8 e4m3 (saturate) of [4096,4096] (DRAM-
 * sized, the bench's row and data) and of [16,4096] (in cache), with the bench's scale 0.25 (a power
 * of two) and with 0.3, old and new alternated 9 times, each side's best in ns per element; the two
 * results must have the same bytes. Argument: the ISA cap (0 scalar .. 3 AVX-512; default none). */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include "dnnl_kernels.h"
#include "tools/cputime.h"
double ab_old(const float *, unsigned char *, int64_t, float, int);
double ab_new(const float *, unsigned char *, int64_t, float, int);
void ab_cap_old(int), ab_cap_new(int);
int main(int argc, char **argv) {
    static const float scales[2] = {0.25f, 0.3f};
    const int64_t rows = 4096, n = rows * 4096;
    int isa = argc > 1 ? atoi(argv[1]) : -1, r, pass, si;
    float *x = al((size_t)n * 4);
    unsigned char *a = al((size_t)n), *b = al((size_t)n);
    int64_t i;
    ab_cap_old(isa), ab_cap_new(isa);
    for (i = 0; i < n; i++) x[i] = (float)((i * 2654435761u) % 10007u) * 0.01f - 50.0f; /* bench_quantresize.h's */
    for (pass = 0; pass < 2; pass++)
        for (si = 0; si < 2; si++) {
            int64_t m = pass ? 16 : rows;
            double bo = 1e9, bn = 1e9;
            for (r = 0; r < 9; r++) {
                double t0 = ab_old(x, a, m, scales[si], pass ? 200 : 3), t1 = ab_new(x, b, m, scales[si], pass ? 200 : 3);
                if (t0 < 0 || t1 < 0) return 1;
                if (t0 < bo) bo = t0;
                if (t1 < bn) bn = t1;
            }
            if (memcmp(a, b, (size_t)(m * 4096))) { printf("BYTES DIFFER (scale %g)\n", (double)scales[si]); return 1; }
            printf("fp8q s=%-4g %s: old %.4f  new %.4f ns/elem  new/old %.3f\n", (double)scales[si], pass ? "[16,4096]  " : "[4096,4096]",
                   1e9 * bo / (double)(m * 4096), 1e9 * bn / (double)(m * 4096), bn / bo);
        }
    return 0;
}
