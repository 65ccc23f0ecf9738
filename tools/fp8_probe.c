/* Probe for the one-thread f32 -> fp8 e4m3 quantize row of bench/bench_quantresize.h ([4096,4096],
 * per-tensor scale 0.25, saturate, the bench's data): the library call beside hand-written AVX-512
 * loops moving the same bytes, and the bench's copy limit (the better of memcpy and a non-temporal
 * copy of 2.5 bytes an element), all timed as thread CPU time in one process, each round starting
 * one row later, best of REPS each. eff = copy / time, the bench's own terms.
 *   cc -O2 -I. tools/fp8_probe.c -o /tmp/fp8p -lm -lpthread && /tmp/fp8p [REPS [c]]
 * With a second argument: the loops alone on a 256 KiB slice of x (in cache), 256 times a sample
 * (lib1row there: the library on that slice, its output then too small to be streamed).
 * Rows: lib (the library; lib1row the same data as one row), min512 / min256 (loads, vpmovdb, one
 * 64-B NT store per 64 elements: no arithmetic; 512- or 256-bit loads), cur512 / cur256 (the
 * library's steps before this probe: one combined test per 64 elements, then per vector),
 * nofix (cur512 without the division of flagged vectors: wrong bytes), defer1k (flagged vectors
 * listed without a branch and divided after each 1024 elements, codes through an L1 buffer),
 * blkredo (a flagged block divides all four vectors), p2tie (a power-of-two scale: round to even
 * by a masked decrement of even ties, no near test), range / rgnoout / rgnofix (vrangeps for
 * min(|y|, 448); timing only: wrong for NaN), noout (a test per vector, none per block), nooutnm
 * (noout without the pack's byte min, e4m3 saturate), nooutnm2 (two blocks an iteration), pf2k / pf4k / pfnta (nooutnm with a
 * software prefetch 2 or 4 KiB ahead, T0 or NTA), read (the bench's read-alone loop over x),
 * ntcopy / memcpy (the copy limit's two forms). A row marked * is not checked against the
 * division's bytes. */
#include "bench/harness.h"
#include "tools/cputime.h"
#include <immintrin.h>

#define N_EL ((int64_t)4096 * 4096)
#define T512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq")))

static float *gx;
static uint8_t *gy, *gref;
static char *c0, *c1;
static volatile uint64_t sink;
static int64_t nel = N_EL; /* elements a loop covers (the in-cache mode: a slice) */

T512 static void k_min512(void) {
    int64_t i;
    for (i = 0; i < nel; i += 64) {
        __m128i a = _mm512_cvtepi32_epi8(_mm512_castps_si512(_mm512_load_ps(gx + i)));
        __m128i b = _mm512_cvtepi32_epi8(_mm512_castps_si512(_mm512_load_ps(gx + i + 16)));
        __m128i c = _mm512_cvtepi32_epi8(_mm512_castps_si512(_mm512_load_ps(gx + i + 32)));
        __m128i d = _mm512_cvtepi32_epi8(_mm512_castps_si512(_mm512_load_ps(gx + i + 48)));
        __m512i v = _mm512_inserti32x4(_mm512_inserti32x4(_mm512_inserti32x4(_mm512_castsi128_si512(a), b, 1), c, 2), d, 3);
        _mm512_stream_si512((void *)(gy + i), v);
    }
    _mm_sfence();
}
T512 static void k_min256(void) {
    int64_t i;
    for (i = 0; i < nel; i += 64) {
        __m128i v8[8];
        int k;
        for (k = 0; k < 8; k++) v8[k] = _mm256_cvtepi32_epi8(_mm256_castps_si256(_mm256_load_ps(gx + i + 8 * k)));
        __m512i v = _mm512_castsi128_si512(_mm_unpacklo_epi64(v8[0], v8[1]));
        v = _mm512_inserti32x4(v, _mm_unpacklo_epi64(v8[2], v8[3]), 1);
        v = _mm512_inserti32x4(v, _mm_unpacklo_epi64(v8[4], v8[5]), 2);
        v = _mm512_inserti32x4(v, _mm_unpacklo_epi64(v8[6], v8[7]), 3);
        _mm512_stream_si512((void *)(gy + i), v);
    }
    _mm_sfence();
}

/* The library's algorithm (quant_simd.h, dnnlk__qg_fp8_row with e4m3, saturate, f32) written out,
 * with the load of 16 floats as LD(p) so that variants differ in it only. */
#define FP8_K 0x45880008
#define FP8_C ((int)0x82080007u)
T512 static inline __m512i fp8_code(__m512 y, __m512i *u, __mmask16 *ok) {
    __m512i a = _mm512_and_si512(_mm512_castps_si512(y), _mm512_set1_epi32(0x7fffffff)), t;
    *u = _mm512_castps_si512(y);
    a = _mm512_castps_si512(_mm512_min_ps(_mm512_set1_ps(448.0f), _mm512_castsi512_ps(a)));
    t = _mm512_add_epi32(a, _mm512_set1_epi32(FP8_K));
    *ok = _mm512_mask_test_epi32_mask(*ok, t, _mm512_set1_epi32(0xfffe0));
    *ok = _mm512_mask_cmpgt_epi32_mask(*ok, t, _mm512_set1_epi32(FP8_C));
    return _mm512_srli_epi32(t, 20);
}
T512 static inline __m512i fp8_exact(const float *p, __m512 s, __m512i *u) {
    __m512 v = _mm512_div_ps(_mm512_loadu_ps(p), s);
    __m512i a = _mm512_and_si512(_mm512_castps_si512(v), _mm512_set1_epi32(0x7fffffff)), t;
    __mmask16 w;
    *u = _mm512_castps_si512(v);
    a = _mm512_castps_si512(_mm512_min_ps(_mm512_set1_ps(448.0f), _mm512_castsi512_ps(a)));
    t = _mm512_add_epi32(a, _mm512_set1_epi32(FP8_K - 9));
    t = _mm512_add_epi32(t, _mm512_and_si512(_mm512_srli_epi32(a, 20), _mm512_set1_epi32(1)));
    w = _mm512_cmpgt_epi32_mask(t, _mm512_set1_epi32(FP8_C));
    t = _mm512_srli_epi32(t, 20);
    if (w != 0xffff) { /* subnormal window: scalar */
        int32_t tt[16], uu[16];
        int l;
        _mm512_storeu_si512(tt, t), _mm512_storeu_si512(uu, *u);
        for (l = 0; l < 16; l++) {
            uint32_t c = dnnlk__fp8_encode(p[l] / 0.25f, 1, 1);
            tt[l] = (int32_t)(c & 0x7f) + 0x818, uu[l] = (int32_t)(c << 24);
        }
        t = _mm512_loadu_si512(tt), *u = _mm512_loadu_si512(uu);
    }
    return t;
}
/* Four code vectors (each code + 0x818, or + 0x819 for zoff 1) and their signs (bits 31 of ua..ud)
 * to 64 bytes: codes clamped to the NaN code 0x7f (domin) or not, the sign put on top. */
T512 static inline __m512i fp8_pack_z(__m512i a, __m512i b, __m512i c, __m512i d, __m512i ua, __m512i ub, __m512i uc,
                                      __m512i ud, int zoff, int domin) {
    const __m512i zz = _mm512_set1_epi16((short)(-0x818 - zoff));
    __m512i ab = _mm512_adds_epi16(_mm512_packs_epi32(a, b), zz), cd = _mm512_adds_epi16(_mm512_packs_epi32(c, d), zz);
    __m512i code = _mm512_packus_epi16(ab, cd);
    __m512i sign = _mm512_packs_epi16(_mm512_packs_epi32(ua, ub), _mm512_packs_epi32(uc, ud));
    __m512i v;
    if (domin) code = _mm512_min_epu8(code, _mm512_set1_epi8(0x7f));
    v = _mm512_ternarylogic_epi32(_mm512_set1_epi8((char)0x80), sign, code, 0xCA);
    return _mm512_permutexvar_epi32(_mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15), v);
}
#define fp8_pack(a, b, c, d, ua, ub, uc, ud) fp8_pack_z(a, b, c, d, ua, ub, uc, ud, 0, 1)
#define LD512(p) _mm512_load_ps(p)
#define LD256(p) _mm512_castsi512_ps(_mm512_inserti64x4(_mm512_castsi256_si512(_mm256_load_si256((const __m256i *)(const void *)(p))), _mm256_load_si256((const __m256i *)(const void *)((p) + 8)), 1))

/* Deferred fixes: codes go to an L1 buffer of CH bytes; each vector whose lanes fail the test
 * appends its index to a list (no branch); the listed vectors divide after the chunk, then the
 * buffer is streamed out. */
#define DEFER_LOOP(NAME, CH)                                                                                \
    T512 static void NAME(void) {                                                                           \
        const __m512 r = _mm512_set1_ps(4.0f), s = _mm512_set1_ps(0.25f);                                  \
        _Alignas(64) uint8_t buf[CH];                                                                       \
        _Alignas(64) int32_t list[CH / 16 + 1];                                                             \
        int64_t i0;                                                                                         \
        for (i0 = 0; i0 < nel; i0 += CH) {                                                                 \
            const float *x = gx + i0;                                                                       \
            int64_t i, nl = 0, k;                                                                           \
            for (i = 0; i < CH; i += 64) {                                                                  \
                __mmask16 oa = 0xffff, ob = oa, oc = oa, od = oa;                                           \
                __m512i a, b, c, d, ua, ub, uc, ud;                                                         \
                a = fp8_code(_mm512_mul_ps(_mm512_load_ps(x + i), r), &ua, &oa);                            \
                b = fp8_code(_mm512_mul_ps(_mm512_load_ps(x + i + 16), r), &ub, &ob);                       \
                c = fp8_code(_mm512_mul_ps(_mm512_load_ps(x + i + 32), r), &uc, &oc);                       \
                d = fp8_code(_mm512_mul_ps(_mm512_load_ps(x + i + 48), r), &ud, &od);                       \
                list[nl] = (int32_t)i, nl += oa != 0xffff;                                                  \
                list[nl] = (int32_t)i + 16, nl += ob != 0xffff;                                             \
                list[nl] = (int32_t)i + 32, nl += oc != 0xffff;                                             \
                list[nl] = (int32_t)i + 48, nl += od != 0xffff;                                             \
                _mm512_store_si512((void *)(buf + i), fp8_pack(a, b, c, d, ua, ub, uc, ud));                \
            }                                                                                               \
            for (k = 0; k < nl; k++) {                                                                      \
                const int64_t e = list[k];                                                                  \
                __m512i u, t = fp8_exact(x + e, s, &u);                                                     \
                __m512i v = fp8_pack(t, t, t, t, u, u, u, u);                                               \
                _mm_store_si128((__m128i *)(void *)(buf + e), _mm512_castsi512_si128(v));                   \
            }                                                                                               \
            for (i = 0; i < CH; i += 64) _mm512_stream_si512((void *)(gy + i0 + i), _mm512_load_si512((const void *)(buf + i))); \
        }                                                                                                   \
        _mm_sfence();                                                                                       \
    }
DEFER_LOOP(k_defer1k, 1024)

/* min(|y|, 448) in one vrangeps (absolute min, sign cleared) instead of an and and a min: timing
 * only, vrangeps returns 448 for a quiet NaN (and a signed NaN for a signalling one) */
T512 static inline __m512i fp8_code_rg(__m512 y, __m512i *u, __mmask16 *ok) {
    __m512i a, t;
    *u = _mm512_castps_si512(y);
    a = _mm512_castps_si512(_mm512_range_ps(y, _mm512_set1_ps(448.0f), 0x0a));
    t = _mm512_add_epi32(a, _mm512_set1_epi32(FP8_K));
    *ok = _mm512_mask_test_epi32_mask(*ok, t, _mm512_set1_epi32(0xfffe0));
    *ok = _mm512_mask_cmpgt_epi32_mask(*ok, t, _mm512_set1_epi32(FP8_C));
    return _mm512_srli_epi32(t, 20);
}
/* s a power of two (y = x * r is x / s exactly): round to nearest even by a masked decrement of the
 * even ties (t = a + K2, K2 = H mod 2^20 and 3H mod 2^21: an even tie has t = 0 mod 2^21); only the
 * subnormal window is flagged. */
#define FP8_K2 0x45980000
#define FP8_C2 ((int)0x8217ffffu)
T512 static inline __m512i fp8_p2tie(__m512 y, __m512i *u, __mmask16 *ok) {
    __m512i a, t;
    __mmask16 tie;
    *u = _mm512_castps_si512(y);
    a = _mm512_castps_si512(_mm512_range_ps(y, _mm512_set1_ps(448.0f), 0x0a));
    t = _mm512_add_epi32(a, _mm512_set1_epi32(FP8_K2));
    tie = _mm512_testn_epi32_mask(t, _mm512_set1_epi32(0x1fffff));
    *ok = _mm512_mask_cmpgt_epi32_mask(*ok, t, _mm512_set1_epi32(FP8_C2));
    t = _mm512_mask_sub_epi32(t, tie, t, _mm512_set1_epi32(1));
    return _mm512_srli_epi32(t, 20);
}
/* timing only: range, both tests, no fix at all (the masks feed a counter) */
static volatile int sinkm;
T512 static void k_rgnofix(void) {
    const __m512 r = _mm512_set1_ps(4.0f);
    int64_t i;
    unsigned acc = 0;
    for (i = 0; i < nel; i += 64) {
        __mmask16 oa = 0xffff, ob = oa, oc = oa, od = oa;
        __m512i a, b, c, d, ua, ub, uc, ud;
        a = fp8_code_rg(_mm512_mul_ps(_mm512_load_ps(gx + i), r), &ua, &oa);
        b = fp8_code_rg(_mm512_mul_ps(_mm512_load_ps(gx + i + 16), r), &ub, &ob);
        c = fp8_code_rg(_mm512_mul_ps(_mm512_load_ps(gx + i + 32), r), &uc, &oc);
        d = fp8_code_rg(_mm512_mul_ps(_mm512_load_ps(gx + i + 48), r), &ud, &od);
        acc += (unsigned)(oa & ob & oc & od);
        _mm512_stream_si512((void *)(gy + i), fp8_pack(a, b, c, d, ua, ub, uc, ud));
    }
    sinkm = (int)acc;
    _mm_sfence();
}

/* One block of 64 elements at p, every variant above in one body: four products (256- or 512-bit
 * loads, ld256), their codes (code 0: fp8_code; 1: fp8_code_rg, vrangeps; 2: fp8_p2tie, power-of-two
 * ties), the flagged vectors fixed by division (fix 0: none, wrong bytes; 1: one combined test for
 * the four, then one per vector; 2: one test per vector only; 3: a flagged block redoes all four),
 * packed (pack 0: fp8_pack; 1: without the byte min, enough for e4m3 with saturate, whose codes
 * are 0..0x7e or, NaN, 0xff: the sign select keeps bits 0..6; 2: p2tie's, its codes one higher).
 * Every argument but p is a constant at each call: the loops below specialize this one body. */
T512 static inline __attribute__((always_inline)) __m512i fp8_block(const float *p, int ld256, int code, int fix, int pack) {
    const __m512 r = _mm512_set1_ps(4.0f), s = _mm512_set1_ps(0.25f);
    const __m512i adj = _mm512_set1_epi32(code == 2); /* p2tie's codes are one higher */
    __mmask16 ok[4] = {0xffff, 0xffff, 0xffff, 0xffff};
    __m512i v[4], u[4];
    int q;
#pragma GCC unroll 4
    for (q = 0; q < 4; q++) {
        __m512 y = _mm512_mul_ps(ld256 ? LD256(p + 16 * q) : LD512(p + 16 * q), r);
        v[q] = code == 2 ? fp8_p2tie(y, &u[q], &ok[q]) : code == 1 ? fp8_code_rg(y, &u[q], &ok[q]) : fp8_code(y, &u[q], &ok[q]);
    }
    if (fix == 3 && (ok[0] & ok[1] & ok[2] & ok[3]) != 0xffff)
#pragma GCC unroll 4
        for (q = 0; q < 4; q++) v[q] = _mm512_add_epi32(fp8_exact(p + 16 * q, s, &u[q]), adj);
    if (fix == 2 || (fix == 1 && (ok[0] & ok[1] & ok[2] & ok[3]) != 0xffff))
#pragma GCC unroll 4
        for (q = 0; q < 4; q++)
            if (fix == 2 ? __builtin_expect(ok[q] != 0xffff, 0) : ok[q] != 0xffff)
                v[q] = _mm512_add_epi32(fp8_exact(p + 16 * q, s, &u[q]), adj);
    return fp8_pack_z(v[0], v[1], v[2], v[3], u[0], u[1], u[2], u[3], pack == 2, pack != 1);
}
/* The whole of x in blocks of 64, each streamed out; PF > 0: four lines PF bytes ahead requested
 * with HINT first. */
#define FP8_LOOP(NAME, LD256_, CODE, FIX, PACK, PF, HINT)                                                 \
    T512 static void NAME(void) {                                                                         \
        int64_t i, k;                                                                                     \
        for (i = 0; i < nel; i += 64) {                                                                   \
            for (k = 0; (PF) > 0 && k < 256; k += 64) _mm_prefetch((const char *)(gx + i) + (PF) + k, HINT); \
            _mm512_stream_si512((void *)(gy + i), fp8_block(gx + i, LD256_, CODE, FIX, PACK));             \
        }                                                                                                 \
        _mm_sfence();                                                                                     \
    }
FP8_LOOP(k_cur512, 0, 0, 1, 0, 0, _MM_HINT_T0)     /* the library's steps before this probe */
FP8_LOOP(k_nofix, 0, 0, 0, 0, 0, _MM_HINT_T0)
FP8_LOOP(k_cur256, 1, 0, 1, 0, 0, _MM_HINT_T0)
FP8_LOOP(k_blockredo, 0, 0, 3, 0, 0, _MM_HINT_T0)
FP8_LOOP(k_range, 0, 1, 1, 0, 0, _MM_HINT_T0)
FP8_LOOP(k_rgnoouter, 0, 1, 2, 0, 0, _MM_HINT_T0)
FP8_LOOP(k_p2tie, 0, 2, 1, 2, 0, _MM_HINT_T0)
FP8_LOOP(k_noout, 0, 0, 2, 0, 0, _MM_HINT_T0)
FP8_LOOP(k_nooutnm, 0, 0, 2, 1, 0, _MM_HINT_T0)
FP8_LOOP(k_nooutpf2k, 0, 0, 2, 1, 2048, _MM_HINT_T0)
FP8_LOOP(k_nooutpf4k, 0, 0, 2, 1, 4096, _MM_HINT_T0)
FP8_LOOP(k_nooutpfnta, 0, 0, 2, 1, 2048, _MM_HINT_NTA)

/* nooutnm two blocks an iteration (128 elements, two NT stores) */
T512 static void k_nooutnm2(void) {
    int64_t i;
    for (i = 0; i < nel; i += 128) {
        __m512i v0 = fp8_block(gx + i, 0, 0, 2, 1), v1 = fp8_block(gx + i + 64, 0, 0, 2, 1);
        _mm512_stream_si512((void *)(gy + i), v0);
        _mm512_stream_si512((void *)(gy + i + 64), v1);
    }
    _mm_sfence();
}

/* The bench's own loops (bench/harness.h): its read bound over x, its non-temporal copy */
static void k_read(void) { sink = bench_read_or_avx2((const char *)gx, (size_t)N_EL * 4); }
static void k_ntcopy(void) { bench_copy_nt(c0, c1, (size_t)N_EL * 5 / 2, 0); }
static void k_memcpy(void) { memcpy(c0, c1, (size_t)N_EL * 5 / 2); }
static int lib_rows = 4096;
static void k_lib(void) {
    dnnlk_tensor tx = {gx, dnnlk_f32, 2, {lib_rows, nel / lib_rows}, {nel / lib_rows, 1}},
                 ty = {gy, dnnlk_f8_e4m3, 2, {lib_rows, nel / lib_rows}, {nel / lib_rows, 1}};
    static float s = 0.25f;
    dnnlk_tensor ts = {&s, dnnlk_f32, 0, {0}, {0}};
    if (dnnlk_quantize_linear(&tx, &ts, NULL, 1, 0, 1, &ty, 0, 1) != dnnlk_success) exit(3);
}

static void k_lib1(void) { lib_rows = 1, k_lib(), lib_rows = 4096; }
typedef struct { const char *name; void (*fn)(void); int check; double best; } row;

int main(int argc, char **argv) {
    int reps = argc > 1 ? atoi(argv[1]) : 20, r, k, kk;
    row rows[] = {{"lib", k_lib, 1, 1e9},          {"lib1row", k_lib1, 1, 1e9},   {"min512", k_min512, 0, 1e9},
                  {"min256", k_min256, 0, 1e9},    {"cur512", k_cur512, 1, 1e9},  {"cur256", k_cur256, 1, 1e9},
                  {"nofix*", k_nofix, 0, 1e9},     {"defer1k", k_defer1k, 1, 1e9}, {"blkredo", k_blockredo, 1, 1e9},
                  {"p2tie", k_p2tie, 1, 1e9},      {"range*", k_range, 1, 1e9},   {"rgnoout*", k_rgnoouter, 1, 1e9},
                  {"rgnofix*", k_rgnofix, 0, 1e9}, {"noout", k_noout, 1, 1e9},    {"nooutnm", k_nooutnm, 1, 1e9}, {"nooutnm2", k_nooutnm2, 1, 1e9},
                  {"pf2k", k_nooutpf2k, 1, 1e9},   {"pf4k", k_nooutpf4k, 1, 1e9}, {"pfnta", k_nooutpfnta, 1, 1e9},
                  {"read", k_read, 0, 1e9},        {"ntcopy", k_ntcopy, 0, 1e9},  {"memcpy", k_memcpy, 0, 1e9}};
    const int nr = (int)(sizeof rows / sizeof rows[0]);
    int64_t i;
    double copy;
    gx = (float *)al((size_t)N_EL * 4), gy = (uint8_t *)al((size_t)N_EL), gref = (uint8_t *)al((size_t)N_EL);
    c0 = (char *)al((size_t)N_EL * 5 / 2), c1 = (char *)al((size_t)N_EL * 5 / 2);
    for (i = 0; i < N_EL; i++) gx[i] = (float)((i * 2654435761u) % 10007u) * 0.01f - 50.0f;
    for (i = 0; i < N_EL * 5 / 2; i++) c1[i] = (char)((i * 2654435761u) >> 13);
    for (i = 0; i < N_EL; i++) gref[i] = (uint8_t)dnnlk__fp8_encode(gx[i] / 0.25f, 1, 1);
    if (argc > 2) { /* in-cache mode: a 256 KiB slice of x, 256 times per sample */
        int q;
        nel = 65536;
        for (r = 0; r < reps; r++)
            for (k = 0; k < nr; k++) {
                double t = cpu();
                if (rows[k].fn == k_lib || rows[k].fn == k_read || rows[k].fn == k_ntcopy || rows[k].fn == k_memcpy) continue;
                for (q = 0; q < 256; q++) rows[k].fn();
                t = (cpu() - t) / 256 * (N_EL / nel);
                if (t < rows[k].best) rows[k].best = t;
            }
        for (k = 0; k < nr; k++) if (rows[k].best < 1e9) printf("%-8s %.4f ns/el in cache\n", rows[k].name, 1e9 * rows[k].best / N_EL);
        return 0;
    }
    for (r = 0; r < reps; r++)
        for (kk = 0; kk < nr; kk++) { /* each round starts one row later: no row always follows the same one */
            double t;
            k = (kk + r) % nr;
            t = cpu();
            rows[k].fn();
            t = cpu() - t;
            if (t < rows[k].best) rows[k].best = t;
            if (rows[k].check && r == 0 && memcmp(gy, gref, (size_t)N_EL)) { printf("%s: wrong bytes\n", rows[k].name); return 1; }
        }
    copy = rows[nr - 2].best < rows[nr - 1].best ? rows[nr - 2].best : rows[nr - 1].best;
    for (k = 0; k < nr; k++)
        printf("%-8s %.4f ns/el  eff %.3f\n", rows[k].name, 1e9 * rows[k].best / N_EL, copy / rows[k].best);
    return 0;
}
