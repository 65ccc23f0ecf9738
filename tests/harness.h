/* The project's tiny test harness. One test program per header; each ends with the line
 * "N passed, N failed". A case fails when any CHECK in it fails; CHECK never aborts the program.
 *
 *   TEST(name) { CHECK(x == 1); CHECK_EQ(a, b); }
 *   int main(void) { RUN(name); RUN_EACH_ISA(name_isa); return th_summary(); }
 *
 * RUN_EACH_ISA runs a case once per ISA level the CPU has (scalar first), with the dispatch capped
 * to that level; inside, th_isa is the level and th_isa_name names it. DNNLK_TEST_MIN_ISA (env, a
 * level name) starts there instead: a second compiler's cross build under emulation runs only the
 * levels whose code differs from what the first one's build already ran (make test-aarch64).
 * SKIP("why") ends a case that cannot run here (a missing optional oracle, an ISA level without the
 * feature under test); it counts as skipped, never as passed, and the summary line then ends with
 * ", N skipped". A case that makes no check and does not skip fails.
 * DNNLK_TEST_SCALE (env, default 1.0) scales the random-case counts of tests that use th_scaled();
 * the sanitizer build runs with a smaller one. DNNLK_TEST_TIMES=1 prints each case's processor
 * seconds on stderr. */
#ifndef DNNLK_TEST_HARNESS_H
#define DNNLK_TEST_HARNESS_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../dnnl_kernels.h"

static int th_passed, th_failed, th_skipped, th_case_failed, th_case_skipped, th_checks_in_case;
static const char *th_case = "";
static dnnlk_isa th_isa = dnnlk_isa_scalar;
static const char *th_isa_name = "";

static inline void th_report(const char *file, int line, const char *what) {
    if (th_case_failed < 10)
        fprintf(stderr, "FAIL %s%s%s: %s:%d: %s\n", th_case, *th_isa_name ? "@" : "", th_isa_name, file, line, what);
    th_case_failed++;
}

#define CHECK(cond) \
    do { th_checks_in_case++; if (!(cond)) th_report(__FILE__, __LINE__, #cond); } while (0)

#define CHECK_EQ(a, b)                                                                          \
    do {                                                                                        \
        long long th_a_ = (long long)(a), th_b_ = (long long)(b);                               \
        th_checks_in_case++;                                                                    \
        if (th_a_ != th_b_) {                                                                   \
            char th_msg_[512];                                                                  \
            snprintf(th_msg_, sizeof th_msg_, "%s == %s (%lld vs %lld)", #a, #b, th_a_, th_b_); \
            th_report(__FILE__, __LINE__, th_msg_);                                             \
        }                                                                                       \
    } while (0)

/* Like CHECK, with a printf-style message that says which input failed. */
#define CHECK_MSG(cond, ...)                                             \
    do {                                                                 \
        th_checks_in_case++;                                             \
        if (!(cond)) {                                                   \
            char th_msg_[512];                                           \
            snprintf(th_msg_, sizeof th_msg_, __VA_ARGS__);              \
            th_report(__FILE__, __LINE__, th_msg_);                      \
        }                                                                \
    } while (0)

#define TEST(name) static void name(void)

static inline void th_skip(const char *why) {
    if (!th_case_skipped) printf("skip %s%s%s: %s\n", th_case, *th_isa_name ? "@" : "", th_isa_name, why);
    th_case_skipped = 1;
}
#define SKIP(why) do { th_skip(why); return; } while (0)

static inline void th_run(const char *name, void (*fn)(void)) {
    /* DNNLK_TEST_TIMES=1: each case's processor seconds on stderr, to find what a run spends */
    static int times = -1;
    clock_t t0 = clock();
    if (times < 0) {
        const char *e = getenv("DNNLK_TEST_TIMES");
        times = e && e[0] == '1';
    }
    th_case = name;
    th_case_failed = 0;
    th_case_skipped = 0;
    th_checks_in_case = 0;
    fn();
    if (times) fprintf(stderr, "time %s%s%s: %.3f s\n", name, *th_isa_name ? "@" : "", th_isa_name,
                       (double)(clock() - t0) / CLOCKS_PER_SEC);
    if (th_checks_in_case == 0 && !th_case_skipped) th_report(__FILE__, __LINE__, "case made no checks");
    if (th_case_failed) th_failed++;
    else if (th_case_skipped && th_checks_in_case == 0) th_skipped++;
    else th_passed++;
    th_case = "";
}
#define RUN(name) th_run(#name, name)

static inline void th_run_each_isa(const char *name, void (*fn)(void)) {
    int top = (int)dnnlk_cpu_isa(), l = dnnlk__isa_from_name(getenv("DNNLK_TEST_MIN_ISA"));
    for (l = l > 0 ? l : 0; l <= top; l++) {
        dnnlk_set_max_isa((dnnlk_isa)l);
        th_isa = dnnlk_max_isa();
        th_isa_name = dnnlk_isa_name(th_isa);
        th_run(name, fn);
    }
    dnnlk_set_max_isa(dnnlk_isa_avx512);
    th_isa = dnnlk_max_isa();
    th_isa_name = "";
}
#define RUN_EACH_ISA(name) th_run_each_isa(#name, name)

static inline int th_summary(void) {
    if (th_skipped) printf("%d passed, %d failed, %d skipped\n", th_passed, th_failed, th_skipped);
    else printf("%d passed, %d failed\n", th_passed, th_failed);
    return th_failed ? 1 : 0;
}

/* ---- deterministic random data (splitmix64; fixed seed per program) ---- */

static uint64_t th_rng_state = 0x243f6a8885a308d3ull;
static inline void th_seed(uint64_t s) { th_rng_state = s; }
static inline uint64_t th_rand64(void) {
    uint64_t z = (th_rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static inline uint32_t th_rand32(void) { return (uint32_t)(th_rand64() >> 32); }
/* Uniform integer in [lo, hi]. */
static inline int64_t th_randint(int64_t lo, int64_t hi) {
    return lo + (int64_t)(th_rand64() % (uint64_t)(hi - lo + 1));
}
/* Uniform float in [lo, hi). */
static inline float th_randf(float lo, float hi) { return lo + (hi - lo) * (float)(th_rand32() >> 8) * (1.0f / 16777216.0f); }

static inline double th_scale(void) {
    static double s = -1;
    if (s < 0) {
        const char *e = getenv("DNNLK_TEST_SCALE");
        s = e ? atof(e) : 1.0;
        if (!(s > 0)) s = 1.0;
    }
    return s;
}
/* n scaled by DNNLK_TEST_SCALE, at least 1. */
static inline long th_scaled(long n) {
    long r = (long)(n * th_scale());
    return r < 1 ? 1 : r;
}

/* ---- guarded buffers: catch writes outside an output and misalign on purpose ---- */

#define TH_GUARD 64
#define TH_GUARD_BYTE 0xA5

typedef struct th_buf {
    unsigned char *raw;
    size_t bytes;
    size_t misalign;
    void *p; /* the usable bytes, at raw + TH_GUARD + misalign */
} th_buf;

/* bytes usable bytes starting misalign bytes past a 64-byte boundary, guards on both sides. */
static inline th_buf th_alloc(size_t bytes, size_t misalign) {
    th_buf b;
    size_t total = TH_GUARD + misalign + bytes + TH_GUARD;
    void *raw = NULL;
    if (posix_memalign(&raw, 128, total ? total : 64)) raw = NULL; /* p is 64 + misalign past a 128-byte boundary */
    if (!raw) { fprintf(stderr, "out of memory\n"); exit(2); }
    b.raw = (unsigned char *)raw;
    b.bytes = bytes;
    b.misalign = misalign;
    memset(b.raw, TH_GUARD_BYTE, total);
    b.p = b.raw + TH_GUARD + misalign;
    return b;
}
/* 1 if the guards (and the misalign gap) still hold the guard byte. */
static inline int th_guards_ok(const th_buf *b) {
    size_t i, head = TH_GUARD + b->misalign;
    for (i = 0; i < head; i++)
        if (b->raw[i] != TH_GUARD_BYTE) return 0;
    for (i = 0; i < TH_GUARD; i++)
        if (b->raw[head + b->bytes + i] != TH_GUARD_BYTE) return 0;
    return 1;
}
static inline void th_free(th_buf *b) { free(b->raw); b->raw = NULL; b->p = NULL; }

/* A tensor descriptor with given dims and dense row-major strides. */
static inline dnnlk_tensor th_tensor(void *data, dnnlk_dtype dt, int ndims, const int64_t *dims) {
    dnnlk_tensor t;
    memset(&t, 0, sizeof t);
    t.data = data;
    t.dtype = dt;
    t.ndims = ndims;
    if (ndims > 0) memcpy(t.dims, dims, (size_t)ndims * sizeof(int64_t));
    dnnlk_dense_strides(ndims, t.dims, t.strides);
    return t;
}

/* Elements of a shape (the caller keeps it small: no overflow check). */
static inline int64_t th_numel(int nd, const int64_t *dims) {
    int64_t n = 1;
    int i;
    for (i = 0; i < nd; i++) n *= dims[i];
    return n;
}

/* Element offset of the flat row-major index f in a strided shape. */
static inline int64_t th_offset(int nd, const int64_t *dims, const int64_t *strides, int64_t f) {
    int64_t o = 0;
    int i;
    for (i = nd - 1; i >= 0; i--) {
        o += (f % dims[i]) * strides[i];
        f /= dims[i];
    }
    return o;
}

/* Random non-overlapping element strides for dims (permuted, padded, negative strides but never -1,
 * which means "unknown"); broadcast zeros when allowed. Returns the span; *off is index 0's offset. */
static inline int64_t th_random_layout(int nd, const int64_t *dims, int64_t *strides, int allow_zero, int64_t *off) {
    int order[DNNLK_MAX_NDIMS], i;
    int64_t s = 1 + (th_rand32() % 4 == 0), lo = 0, hi = 0;
    for (i = 0; i < nd; i++) order[i] = nd - 1 - i;
    if (th_rand32() % 2)
        for (i = nd - 1; i > 0; i--) {
            int j = (int)(th_rand32() % (unsigned)(i + 1)), t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
    for (i = 0; i < nd; i++) {
        strides[order[i]] = s;
        s *= dims[order[i]] > 0 ? dims[order[i]] : 1;
        if (th_rand32() % 4 == 0) s += th_randint(1, 3);
    }
    for (i = 0; i < nd; i++) {
        if (allow_zero && th_rand32() % 8 == 0) strides[i] = 0;
        else if (th_rand32() % 6 == 0 && strides[i] > 1) strides[i] = -strides[i];
        if (dims[i] > 0) {
            if (strides[i] < 0) lo += (dims[i] - 1) * strides[i];
            else hi += (dims[i] - 1) * strides[i];
        }
    }
    *off = -lo;
    return hi - lo + 1;
}

/* A strided view: element 0 sits `off` elements past buf. */
static inline dnnlk_tensor th_strided(void *buf, int64_t off, dnnlk_dtype dt, int ndims, const int64_t *dims,
                                      const int64_t *strides) {
    dnnlk_tensor v;
    memset(&v, 0, sizeof v);
    v.data = (char *)buf + off * (int64_t)dnnlk_dtype_size(dt);
    v.dtype = dt;
    v.ndims = ndims;
    if (ndims > 0) {
        memcpy(v.dims, dims, (size_t)ndims * sizeof(int64_t));
        memcpy(v.strides, strides, (size_t)ndims * sizeof(int64_t));
    }
    return v;
}

/* Steps a row-major multi-index; 0 once it has passed the last element. */
static inline int th_next_index(int ndims, const int64_t *dims, int64_t *idx) {
    int i;
    for (i = ndims - 1; i >= 0; i--) {
        if (++idx[i] < dims[i]) return 1;
        idx[i] = 0;
    }
    return 0;
}

/* Distance in units in the last place between two floats (0 for equal or both NaN). */
static inline int64_t th_ulp_diff(float a, float b) {
    int32_t ia, ib;
    if (a != a || b != b) return (a != a && b != b) ? 0 : INT64_MAX;
    memcpy(&ia, &a, 4);
    memcpy(&ib, &b, 4);
    if (ia < 0) ia = (int32_t)(0x80000000u - (uint32_t)ia);
    if (ib < 0) ib = (int32_t)(0x80000000u - (uint32_t)ib);
    return ia > ib ? (int64_t)ia - ib : (int64_t)ib - ia;
}

/* FNV-1a over bytes, for tests that compare a kernel's output bits with hashes recorded from an
 * earlier commit (tests/test_level_bits.c and the families' own "recorded bits" cases). The f32 /
 * half variants hash every NaN as one canonical NaN: a NaN result's sign and payload are
 * unspecified (README), and do differ between code paths. */
static inline uint64_t th_fnv1a_from(uint64_t h, const void *p, size_t n) {
    const unsigned char *b = (const unsigned char *)p;
    size_t i;
    for (i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}
static inline uint64_t th_fnv1a(const void *p, size_t n) { return th_fnv1a_from(0xcbf29ce484222325ull, p, n); }
static inline uint64_t th_fnv1a_f32(const float *y, size_t n) {
    uint64_t h = 0xcbf29ce484222325ull;
    size_t i;
    for (i = 0; i < n; i++) {
        uint32_t u = y[i] != y[i] ? 0x7fc00000u : dnnlk__f32_bits(y[i]);
        h = th_fnv1a_from(h, &u, 4);
    }
    return h;
}
static inline uint64_t th_fnv1a_half(const uint16_t *y, size_t n, int f16) {
    uint64_t h = 0xcbf29ce484222325ull;
    size_t i;
    for (i = 0; i < n; i++) {
        int nan = f16 ? (y[i] & 0x7c00) == 0x7c00 && (y[i] & 0x3ff) : (y[i] & 0x7f80) == 0x7f80 && (y[i] & 0x7f);
        uint16_t u = nan ? (uint16_t)(f16 ? 0x7e00 : 0x7fc0) : y[i];
        h = th_fnv1a_from(h, &u, 2);
    }
    return h;
}

/* For the "recorded bits" tests: the hash of case c run as one part, run(c, 1), with a check that
 * each part count in nths (0 ends it) gives the same bits; name and level say which in a failure. */
static inline uint64_t th_bits_parts_agree(uint64_t (*run)(int c, int nth), int c, const int *nths, const char *name,
                                           int level) {
    uint64_t one = run(c, 1);
    for (; *nths; nths++)
        CHECK_MSG(run(c, *nths) == one, "%s on %s: %d parts differ from one", name, dnnlk_isa_name((dnnlk_isa)level), *nths);
    return one;
}

/* For the "recorded bits" tests' class "every level gives the same bytes": each level that ran
 * (got and ran are one case's row of th_recorded_bits') against scalar, where scalar ran. */
static inline void th_bits_match_scalar(const char *name, const uint64_t *got, const int *ran) {
    int l;
    for (l = 1; l < 4; l++)
        if (ran[0] && ran[l]) CHECK_MSG(got[l] == got[0], "%s: %s differs from scalar", name, dnnlk_isa_name((dnnlk_isa)l));
}

/* The driver of the "recorded bits" tests. Runs hash(c, cap, &level) for every case c with the
 * dispatch capped to each ISA level the CPU has in turn, into got[c][level], and sets
 * ran[c][level]; level comes in as the level that runs under cap (the includer's flags may fix it,
 * so several caps may run one level) and a case that calls the cap's own entry directly sets it to
 * cap. Levels that never ran stay 0 in got. With DNNLK_TEST_RECORD=1 it prints the table as C rows
 * for a [ncases][4] declaration, or [ncases / group][group][4] with a brace pair per group (a row:
 * the case's name in a comment, padded to name_width, then {scalar, sse41, avx2, avx512}) and
 * returns 1: the caller SKIPs. Otherwise it checks every level that ran, except the bits set in unchecked (level
 * l is bit l), against recorded[c][level] and returns 0; got and ran are the caller's, for its
 * own class checks (every level equals scalar, and so on). */
static inline int th_recorded_bits(int ncases, uint64_t (*hash)(int c, int cap, int *level), const char *(*name)(int c),
                                   int name_width, int group, const uint64_t (*recorded)[4], unsigned unchecked,
                                   uint64_t (*got)[4], int (*ran)[4]) {
    const char *rec = getenv("DNNLK_TEST_RECORD");
    int top = (int)dnnlk_cpu_isa(), c, l;
    memset(got, 0, (size_t)ncases * sizeof *got);
    memset(ran, 0, (size_t)ncases * sizeof *ran);
    for (l = 0; l <= top; l++) {
        dnnlk_set_max_isa((dnnlk_isa)l);
        for (c = 0; c < ncases; c++) {
            int level = (int)dnnlk_max_isa();
            uint64_t h = hash(c, l, &level);
            got[c][level] = h;
            ran[c][level] = 1;
        }
    }
    dnnlk_set_max_isa(dnnlk_isa_avx512);
    if (rec && atoi(rec)) {
        for (c = 0; c < ncases; c++) {
            if (group > 0 && c % group == 0) printf("    {\n");
            printf("%s/* %-*s */ {", group > 0 ? "        " : "    ", name_width, name(c));
            for (l = 0; l < 4; l++) printf("0x%016llxull%s", (unsigned long long)got[c][l], l < 3 ? ", " : "},\n");
            if (group > 0 && c % group == group - 1) printf("    },\n");
        }
        return 1;
    }
    for (c = 0; c < ncases; c++)
        for (l = 0; l < 4; l++)
            if (ran[c][l] && !(unchecked >> l & 1u))
                CHECK_MSG(got[c][l] == recorded[c][l], "%s on %s: %016llx, recorded %016llx (table row %d)", name(c),
                          dnnlk_isa_name((dnnlk_isa)l), (unsigned long long)got[c][l],
                          (unsigned long long)recorded[c][l], c);
    return 0;
}


#endif
