/* tools/ab_inprocess.sh's dropout case, the program: old and new alternated 20 times per
 * configuration in one process, each side's best, for f32 and bf16, MT19937 and MCG31, parts 0/1
 * and 1/2 (the part that skips). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
double ab_old(int, int, char *, char *, unsigned char *, int, int, int);
double ab_new(int, int, char *, char *, unsigned char *, int, int, int);
int main(int argc, char **argv) {
    (void)argc, (void)argv;
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
