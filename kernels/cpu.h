/* dnnl_kernels — cpu.h: which instruction set the kernels run, and the target regions that let
 * one header hold code for several of them.
 *
 * Levels are bundles, each checked in full against CPUID and the OS-enabled state (XGETBV):
 *   sse41  : SSE4.1
 *   avx2   : AVX, AVX2, FMA, F16C, BMI1, BMI2, LZCNT, POPCNT; YMM state enabled
 *   avx512 : avx2 + AVX-512 F, BW, VL, DQ, CD; opmask and ZMM state enabled
 * On little-endian aarch64 the levels are scalar and neon (Advanced SIMD, baseline there: nothing
 * to detect, and no optional feature is used, so no getauxval/sysctlbyname). neon takes SSE4.1's
 * number, 1: it is the 128-bit level and gives SSE4.1's bits (vec_neon.h), so everything indexed
 * by level (caps, the tests' recorded-bits columns) keeps one meaning; on aarch64 a cap of 1..3
 * (sse41, avx2, avx512 or neon) leaves neon on. Other targets (32-bit ARM, big-endian aarch64, and
 * any build with DNNLK_NO_SIMD) have the scalar level only.
 * The level used is the lowest of: what the CPU has, the DNNLK_MAX_ISA macro, the DNNLK_MAX_ISA
 * environment variable (scalar|sse41|avx2|avx512|neon, read once), and dnnlk_set_max_isa().
 *
 * The choice is cached in an atomic that belongs to each translation unit: every function here is
 * static inline, so each TU has its own copy. dnnlk_set_max_isa() therefore affects the calling
 * TU only. If the includer's own flags already cover the compile-time cap (e.g. -march=native on
 * an AVX-512 machine with no cap), the level is a compile-time constant and no detection runs. */
#ifndef DNNLK_CPU_H
#define DNNLK_CPU_H

#include <stdlib.h>
#include "base.h"

typedef enum dnnlk_isa {
    dnnlk_isa_scalar = 0,
    dnnlk_isa_sse41 = 1,
    dnnlk_isa_avx2 = 2,
    dnnlk_isa_avx512 = 3,
    dnnlk_isa_neon = 1 /* aarch64's 128-bit level: SSE4.1's number (and bits), see above */
} dnnlk_isa;

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__)) && \
    !defined(DNNLK_NO_SIMD)
#define DNNLK__X86 1
/* GCC 12's AVX-512 headers return "undefined" vectors as `__m512i __Y = __Y;` (in
 * _mm512_max_epi32, _mm512_min_ps ...), which C++ at -O2 -Wall reports as -Wmaybe-uninitialized
 * wherever a kernel using them is called: 96 warnings for one dnnlk_top_k call (GCC bug 105593,
 * silenced inside the headers from GCC 13 on). A diagnostic belongs to the line it points at, so
 * ignoring it while the header is read silences those lines only; an includer who included
 * <immintrin.h> first keeps its own setting. */
#if defined(__cplusplus) && defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#else
#include <immintrin.h>
#endif
#else
#define DNNLK__X86 0
#endif
#if defined(__aarch64__) && defined(__ARM_NEON) && !defined(__AARCH64EB__) && \
    (defined(__GNUC__) || defined(__clang__)) && !defined(DNNLK_NO_SIMD)
#define DNNLK__NEON 1
#include <arm_neon.h>
#else
#define DNNLK__NEON 0
#endif

#if DNNLK__X86
/* The NaN watch of the x86 levels (vec.h): maxps / minps raise the invalid flag for a NaN operand
 * even where they return the other one, so a scan that only takes maxima can still tell whether
 * it met a NaN. The flag lives in MXCSR, which belongs to the caller: the watch clears it, reads
 * it, and puts the caller's MXCSR back exactly. Where the caller unmasked the invalid exception
 * (bit 7 clear) the max would trap, so the watch is refused. The asm's memory clobber keeps the
 * scan's loads, and so its maxima, between begin and the reads. */
typedef struct dnnlk__mxcsr_watch {
    unsigned saved;
} dnnlk__mxcsr_watch;
static DNNLK__FORCEINLINE unsigned dnnlk__mxcsr_get(void) {
    unsigned c;
    __asm__ __volatile__("stmxcsr %0" : "=m"(c) : : "memory");
    return c;
}
static DNNLK__FORCEINLINE void dnnlk__mxcsr_set(unsigned c) { __asm__ __volatile__("ldmxcsr %0" : : "m"(c) : "memory"); }
static DNNLK__FORCEINLINE int dnnlk__mxcsr_watch_begin(dnnlk__mxcsr_watch *w) {
    const unsigned invalid_flag = 0x1u, invalid_mask = 0x80u;
    w->saved = dnnlk__mxcsr_get();
    if (!(w->saved & invalid_mask)) return 0;
    if (w->saved & invalid_flag) dnnlk__mxcsr_set(w->saved & ~invalid_flag);
    return 1;
}
static DNNLK__FORCEINLINE int dnnlk__mxcsr_watch_seen(dnnlk__mxcsr_watch *w) {
    unsigned c = dnnlk__mxcsr_get();
    (void)w;
    if (!(c & 0x1u)) return 0;
    dnnlk__mxcsr_set(c & ~0x1u);
    return 1;
}
static DNNLK__FORCEINLINE void dnnlk__mxcsr_watch_end(dnnlk__mxcsr_watch *w) {
    if (dnnlk__mxcsr_get() != w->saved) dnnlk__mxcsr_set(w->saved);
}
#endif

/* Compile-time cap: the includer may define DNNLK_MAX_ISA to 0..3 (a number: the preprocessor
 * compares it, and an enum name there would read as 0). */
#ifndef DNNLK_MAX_ISA
#define DNNLK_MAX_ISA 3
#endif
#define DNNLK__CAP_SCALAR 0
#define DNNLK__CAP_SSE41 1
#define DNNLK__CAP_AVX2 2
#define DNNLK__CAP_AVX512 3

/* What the includer's own compiler flags already guarantee. */
#if !DNNLK__X86
#define DNNLK__COMPILED_ISA 0
#elif defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__) && \
    defined(__AVX512DQ__) && defined(__AVX512CD__) && defined(__AVX2__) && defined(__FMA__) && \
    defined(__F16C__) && defined(__BMI2__)
#define DNNLK__COMPILED_ISA 3
#elif defined(__AVX2__) && defined(__FMA__) && defined(__F16C__) && defined(__BMI2__)
#define DNNLK__COMPILED_ISA 2
#elif defined(__SSE4_1__)
#define DNNLK__COMPILED_ISA 1
#else
#define DNNLK__COMPILED_ISA 0
#endif

/* On aarch64 NEON is always there, yet the level stays a run-time choice (one load and compare per
 * call) so that dnnlk_set_max_isa can still select the scalar level, as tests and users comparing
 * do; it is static only with DNNLK_MAX_ISA 0. */
#if DNNLK__NEON
#define DNNLK__STATIC_ISA (DNNLK_MAX_ISA == 0)
#elif !DNNLK__X86 || DNNLK__COMPILED_ISA >= DNNLK_MAX_ISA
#define DNNLK__STATIC_ISA 1 /* the level is known at compile time */
#else
#define DNNLK__STATIC_ISA 0
#endif

/* ---- target regions ---- */
/* Code between DNNLK__TARGET_PUSH_<ISA> and DNNLK__TARGET_POP is compiled for that ISA whatever
 * the includer's flags. Untargeted code may call, but never inline, a function defined inside.
 * _Pragma takes exactly one string literal (no concatenation), hence the long lines. */
#if DNNLK__X86 && defined(__clang__)
#define DNNLK__TARGET_PUSH_SSE41 \
    _Pragma("clang attribute push(__attribute__((target(\"sse4.1\"))), apply_to = function)")
#define DNNLK__TARGET_PUSH_AVX2                                                              \
    _Pragma("clang attribute push(__attribute__((target(\"sse4.1,avx,avx2,fma,f16c,bmi,bmi2,lzcnt,popcnt\"))), apply_to = function)")
#define DNNLK__TARGET_PUSH_AVX512                                                            \
    _Pragma("clang attribute push(__attribute__((target(\"sse4.1,avx,avx2,fma,f16c,bmi,bmi2,lzcnt,popcnt,avx512f,avx512bw,avx512vl,avx512dq,avx512cd\"))), apply_to = function)")
#define DNNLK__TARGET_POP _Pragma("clang attribute pop")
#elif DNNLK__X86
#define DNNLK__TARGET_PUSH_SSE41 _Pragma("GCC push_options") _Pragma("GCC target(\"sse4.1\")")
#define DNNLK__TARGET_PUSH_AVX2 \
    _Pragma("GCC push_options")   \
    _Pragma("GCC target(\"sse4.1,avx,avx2,fma,f16c,bmi,bmi2,lzcnt,popcnt\")")
#define DNNLK__TARGET_PUSH_AVX512                                                     \
    _Pragma("GCC push_options")                                                         \
    _Pragma("GCC target(\"sse4.1,avx,avx2,fma,f16c,bmi,bmi2,lzcnt,popcnt,avx512f,avx512bw,avx512vl,avx512dq,avx512cd\")")
#define DNNLK__TARGET_POP _Pragma("GCC pop_options")
#endif

/* ---- detection ---- */

#if DNNLK__X86
#include <cpuid.h>

static inline uint64_t dnnlk__xgetbv0(void) {
    uint32_t lo, hi;
    __asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

static inline dnnlk_isa dnnlk__detect_isa(void) {
    unsigned a, b, c, d, b7 = 0, c7 = 0, d7 = 0, ext_c = 0;
    uint64_t xcr0 = 0;
    int sse41, avx2, avx512;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return dnnlk_isa_scalar;
    sse41 = (c >> 19) & 1;
    if ((unsigned)__get_cpuid_max(0, NULL) >= 7u) __cpuid_count(7, 0, a, b7, c7, d7);
    if ((unsigned)__get_cpuid_max(0x80000000u, NULL) >= 0x80000001u) {
        unsigned ea, eb, ed;
        __cpuid(0x80000001u, ea, eb, ext_c, ed);
        (void)ea; (void)eb; (void)ed;
    }
    (void)c7; (void)d7;
    if ((c >> 27) & 1) xcr0 = dnnlk__xgetbv0(); /* OSXSAVE: XGETBV is usable */
    avx2 = ((c >> 28) & 1)              /* AVX */
        && ((c >> 12) & 1)              /* FMA */
        && ((c >> 29) & 1)              /* F16C */
        && ((c >> 23) & 1)              /* POPCNT */
        && ((b7 >> 5) & 1)              /* AVX2 */
        && ((b7 >> 3) & 1)              /* BMI1 */
        && ((b7 >> 8) & 1)              /* BMI2 */
        && ((ext_c >> 5) & 1)           /* LZCNT */
        && (xcr0 & 0x6) == 0x6;         /* XMM and YMM state */
    avx512 = avx2
        && ((b7 >> 16) & 1)             /* AVX512F */
        && ((b7 >> 17) & 1)             /* AVX512DQ */
        && ((b7 >> 28) & 1)             /* AVX512CD */
        && ((b7 >> 30) & 1)             /* AVX512BW */
        && ((b7 >> 31) & 1)             /* AVX512VL */
        && (xcr0 & 0xe6) == 0xe6;       /* + opmask, ZMM_Hi256, Hi16_ZMM state */
    if (avx512) return dnnlk_isa_avx512;
    if (avx2) return dnnlk_isa_avx2;
    if (sse41) return dnnlk_isa_sse41;
    return dnnlk_isa_scalar;
}
#elif DNNLK__NEON
static inline dnnlk_isa dnnlk__detect_isa(void) { return dnnlk_isa_neon; }
#else
static inline dnnlk_isa dnnlk__detect_isa(void) { return dnnlk_isa_scalar; }
#endif

static inline const char *dnnlk_isa_name(dnnlk_isa isa) {
    switch (isa) {
    case dnnlk_isa_scalar: return "scalar";
    case dnnlk_isa_sse41: return DNNLK__NEON ? "neon" : "sse41"; /* == dnnlk_isa_neon */
    case dnnlk_isa_avx2: return "avx2";
    case dnnlk_isa_avx512: return "avx512";
    }
    return "unknown";
}

/* Parses "scalar", "sse41", "avx2", "avx512", "neon" (case-insensitive) into their numbers (neon
 * is 1, as sse41, on every platform: a cap names a slot); -1 if none of them. */
static inline int dnnlk__isa_from_name(const char *s) {
    static const char *const names[5] = {"scalar", "sse41", "avx2", "avx512", "neon"};
    int i;
    if (!s) return -1;
    for (i = 0; i < 5; i++) {
        const char *a = s, *b = names[i];
        while (*a && *b && (*a | 0x20) == *b) a++, b++;
        if (!*a && !*b) return i == 4 ? (int)dnnlk_isa_neon : i;
    }
    return -1;
}

/* Per-TU cache: 0 = not resolved yet, else level + 1. A second cell holds a runtime cap. */
static inline int *dnnlk__isa_cells(void) {
    static int cells[2] = {0, 4};
    return cells;
}

#if defined(__GNUC__) || defined(__clang__)
#define DNNLK__ATOMIC_LOAD(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define DNNLK__ATOMIC_STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#else
#define DNNLK__ATOMIC_LOAD(p) (*(volatile int *)(p))
#define DNNLK__ATOMIC_STORE(p, v) (*(volatile int *)(p) = (v))
#endif

/* The instruction set the CPU and OS support, ignoring every cap. */
static inline dnnlk_isa dnnlk_cpu_isa(void) { return dnnlk__detect_isa(); }

DNNLK__NOINLINE_BEGIN
static DNNLK__NOINLINE dnnlk_isa dnnlk__resolve_isa(void) {
    int *cells = dnnlk__isa_cells();
    int level = (int)dnnlk__detect_isa();
    int env = dnnlk__isa_from_name(getenv("DNNLK_MAX_ISA"));
    int runtime_cap = DNNLK__ATOMIC_LOAD(&cells[1]) - 1;
    if (level > DNNLK_MAX_ISA) level = DNNLK_MAX_ISA;
    if (env >= 0 && level > env) level = env;
    if (runtime_cap >= 0 && runtime_cap < 3 && level > runtime_cap) level = runtime_cap;
    DNNLK__ATOMIC_STORE(&cells[0], level + 1);
    return (dnnlk_isa)level;
}
DNNLK__NOINLINE_END

/* The level the kernels of this translation unit run at. */
static DNNLK__FORCEINLINE dnnlk_isa dnnlk_max_isa(void) {
#if DNNLK__STATIC_ISA
    return (dnnlk_isa)(DNNLK__COMPILED_ISA < DNNLK_MAX_ISA ? DNNLK__COMPILED_ISA : DNNLK_MAX_ISA);
#else
    int v = DNNLK__ATOMIC_LOAD(&dnnlk__isa_cells()[0]);
    return v ? (dnnlk_isa)(v - 1) : dnnlk__resolve_isa();
#endif
}

/* Caps the level for this translation unit (tests use it to run every variant; users to compare).
 * Returns invalid_arguments for a value outside the enum. Levels above what the CPU has are
 * silently limited to the CPU. With a compile-time static level it has no effect. */
static inline dnnlk_status dnnlk_set_max_isa(dnnlk_isa isa) {
    int *cells;
    if ((int)isa < 0 || (int)isa > 3) return dnnlk_invalid_arguments;
    cells = dnnlk__isa_cells();
    DNNLK__ATOMIC_STORE(&cells[1], (int)isa + 1);
    (void)dnnlk__resolve_isa();
    return dnnlk_success;
}

/* Dispatch of a kernel whose body was instantiated per level (simd_instantiate.h), the one idiom:
 *   DNNLK__DISPATCH(name, args)   name_avx512, name_avx2, name_sse41 or name_scalar (aarch64:
 *                                 name_neon or name_scalar), the one of the level in use, called with args (parenthesized). An
 *                                 expression: it yields the call's value, and with empty args
 *                                 the function itself (a pointer a loop calls per row).
 * With a compile-time level (DNNLK__STATIC_ISA) the choice folds away. */
#if DNNLK__X86
#define DNNLK__DISPATCH(name, args)                                     \
    (dnnlk_max_isa() == dnnlk_isa_avx512  ? name##_avx512 args         \
     : dnnlk_max_isa() == dnnlk_isa_avx2  ? name##_avx2 args           \
     : dnnlk_max_isa() == dnnlk_isa_sse41 ? name##_sse41 args : name##_scalar args)
#elif DNNLK__NEON
#define DNNLK__DISPATCH(name, args) (dnnlk_max_isa() == dnnlk_isa_neon ? name##_neon args : name##_scalar args)
#else
#define DNNLK__DISPATCH(name, args) (name##_scalar args)
#endif

#if DNNLK__X86
/* Requests [p, p + bytes) into L2, one prefetch per 64-byte line: how streaming rows (dropout,
 * eltwise, quantize) read ahead. From DRAM, with non-temporal stores, one thread's hardware
 * prefetchers alone left those rows latency-bound; an L1 hint would hold one of the fill buffers
 * that the streaming stores need for the whole DRAM trip (measured: L2 ahead of L1 and L3 hints). */
static DNNLK__FORCEINLINE void dnnlk__prefetch_l2(const void *p, size_t bytes) {
    size_t k;
    for (k = 0; k < bytes; k += 64) _mm_prefetch((const char *)p + k, _MM_HINT_T1);
}
#endif

#endif /* DNNLK_CPU_H */
