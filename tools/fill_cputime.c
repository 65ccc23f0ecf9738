/* Write bandwidth of a 64 MiB buffer (huge pages) by each way of filling it, with zero bytes and with
 * 0x5a bytes: glibc's memset, non-temporal 512-bit and 256-bit stores, regular 512-bit stores and
 * `rep stosb`. Thread CPU time, best of REPS, the ways alternated. On the AVX-512 EPYC VM every way
 * writes 0x5a lines at about the same speed (24-28 GB/s), and every streaming way (memset, rep
 * stosb and the non-temporal stores) writes lines of zeros about twice as fast (57-60 GB/s; regular
 * stores, which read each line first, 27): the bytes decide, not the store kind, and memset's
 * 50-64 GB/s in an earlier note were zeros. Needs an AVX-512 CPU (x86-64 only).
 *   cc -O2 -I. tools/fill_cputime.c -o fill_cputime && ./fill_cputime [REPS [MiB]] */
#include <immintrin.h>
#include <stdint.h>
#include "tools/cputime.h"
__attribute__((target("avx512f"))) static void fill_nt512(char *p, size_t n, int v) {
    const __m512i x = _mm512_set1_epi8((char)v);
    size_t i;
    for (i = 0; i < n; i += 64) _mm512_stream_si512((void *)(p + i), x);
    _mm_sfence();
}
__attribute__((target("avx2"))) static void fill_nt256(char *p, size_t n, int v) {
    const __m256i x = _mm256_set1_epi8((char)v);
    size_t i;
    for (i = 0; i < n; i += 32) _mm256_stream_si256((void *)(p + i), x);
    _mm_sfence();
}
__attribute__((target("avx512f"))) static void fill_st512(char *p, size_t n, int v) {
    const __m512i x = _mm512_set1_epi8((char)v);
    size_t i;
    for (i = 0; i < n; i += 64) _mm512_store_si512((void *)(p + i), x);
}
static void fill_stosb(char *p, size_t n, int v) { __asm__ volatile("rep stosb" : "+D"(p), "+c"(n) : "a"(v) : "memory"); }
static void fill_memset(char *p, size_t n, int v) {
    memset(p, v, n);
    __asm__ volatile("" : : "r"(p) : "memory");
}
int main(int argc, char **argv) {
    static const struct { const char *name; void (*f)(char *, size_t, int); } ways[5] = {
        {"memset", fill_memset}, {"nt512", fill_nt512}, {"nt256", fill_nt256}, {"store512", fill_st512}, {"rep stosb", fill_stosb}};
    int reps = argc > 1 ? atoi(argv[1]) : 10, r, k, v;
    size_t n = (size_t)(argc > 2 ? atoi(argv[2]) : 64) << 20;
    char *p = (char *)al(n);
    double best[5][2];
    for (k = 0; k < 5; k++) best[k][0] = best[k][1] = 1e9;
    for (r = 0; r < reps; r++)
        for (k = 0; k < 5; k++)
            for (v = 0; v < 2; v++) {
                double t = cpu();
                ways[k].f(p, n, v ? 0x5a : 0);
                t = cpu() - t;
                if (t < best[k][v]) best[k][v] = t;
            }
    for (k = 0; k < 5; k++)
        printf("%-10s zeros %5.1f GB/s   0x5a %5.1f GB/s\n", ways[k].name, n / best[k][0] * 1e-9, n / best[k][1] * 1e-9);
    return p[n / 2] != 0x5a;
}
