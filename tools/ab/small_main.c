/* tools/ab_inprocess.sh's small case, the program: each call of small_tu.c's list, old and new
 * alternated 15 times (2000 calls a timing, best of 5), each side's best in ns per call; the two
 * outputs must have the same bytes. Argument: the ISA cap (0 scalar .. 3 AVX-512; default none). */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include "dnnl_kernels.h"
#include "tools/cputime.h"
double ab_old(int, const void *, const void *, void *, int, int);
double ab_new(int, const void *, const void *, void *, int, int);
void ab_cap_old(int), ab_cap_new(int);
int main(int argc, char **argv) {
    static const char *names[7] = {"compare s64 [8,1,1,512] == 0", "compare s64 [1,1,1,8] == 0",
                                   "select f32 [8,1,1,64], 0-d src1", "convert f32->bf16 [1,768]",
                                   "layer_norm f32 [1,768]", "softmax f32 [1,1000]", "gelu erf f32 [1,768]"};
    static const size_t outb[7] = {4096, 8, 2048, 1536, 3072, 4000, 3072};
    int isa = argc > 1 ? atoi(argv[1]) : -1, c, r;
    int64_t *m = al(4096 * 8);
    unsigned char *cond = al(512), *x = al(65536), *y = al(65536);
    float *f = al(4096 * 4);
    uint32_t s = 7;
    int i;
    ab_cap_old(isa), ab_cap_new(isa);
    for (i = 0; i < 4096; i++) {
        s = s * 1664525u + 1013904223u;
        m[i] = (int64_t)(s >> 31);
        f[i] = (float)((int32_t)(s >> 8) - (1 << 23)) * 1e-6f;
    }
    for (i = 0; i < 512; i++) cond[i] = (unsigned char)((i * 2654435761u >> 9) & 1);
    for (c = 0; c < 7; c++) {
        const void *in = c <= 1 ? (const void *)m : (const void *)f;
        double bo = 1e9, bn = 1e9;
        for (r = 0; r < 15; r++) {
            double t0 = ab_old(c, in, cond, x, 2000, 5), t1 = ab_new(c, in, cond, y, 2000, 5);
            if (t0 < 0 || t1 < 0) { printf("%s: call failed\n", names[c]); return 1; }
            if (t0 < bo) bo = t0;
            if (t1 < bn) bn = t1;
        }
        if (memcmp(x, y, outb[c])) { printf("BYTES DIFFER (%s)\n", names[c]); return 1; }
        printf("%-34s old %7.1f  new %7.1f ns/call  new/old %.3f\n", names[c], bo, bn, bn / bo);
    }
    return 0;
}
