/* convert.h: every dtype pair against a plain reference (exact arithmetic in long double, which holds
 * every value of every dtype here exactly), on every ISA the CPU has and several part counts. */
#include "harness.h"

#define NTYPES 14
static const dnnlk_dtype all_types[NTYPES] = {dnnlk_boolean, dnnlk_s8,    dnnlk_u8,      dnnlk_f16,    dnnlk_bf16,
                                              dnnlk_s32,     dnnlk_f32,   dnnlk_s64,     dnnlk_f64,    dnnlk_u64,
                                              dnnlk_s16,     dnnlk_u16,   dnnlk_f8_e4m3, dnnlk_f8_e5m2};

/* ---- the reference ---- */

typedef struct ref_val {
    int nan, neg;      /* neg: the sign bit (of a zero too) */
    long double v;     /* the value (inf for infinities); unused for NaN */
    uint64_t payload;  /* NaN: the fraction bits, left-aligned in 64 */
} ref_val;

static int is_float(dnnlk_dtype t) {
    return t == dnnlk_f16 || t == dnnlk_bf16 || t == dnnlk_f32 || t == dnnlk_f64 || t == dnnlk_f8_e4m3 ||
           t == dnnlk_f8_e5m2;
}

/* IEEE formats: exponent bits, fraction bits (e4m3 reads as below, with its own rule for the top
 * exponent: no inf, S.1111.111 the only NaN). */
static void float_format(dnnlk_dtype t, int *ebits, int *mbits) {
    switch (t) {
    case dnnlk_f8_e4m3: *ebits = 4, *mbits = 3; break;
    case dnnlk_f8_e5m2: *ebits = 5, *mbits = 2; break;
    case dnnlk_f16: *ebits = 5, *mbits = 10; break;
    case dnnlk_bf16: *ebits = 8, *mbits = 7; break;
    case dnnlk_f32: *ebits = 8, *mbits = 23; break;
    default: *ebits = 11, *mbits = 52; break;
    }
}

static uint64_t load_bits(const void *p, size_t es) {
    uint64_t u = 0;
    memcpy(&u, p, es); /* little-endian: the low bytes */
    return u;
}

static ref_val ref_read(const void *p, dnnlk_dtype t) {
    ref_val r;
    memset(&r, 0, sizeof r);
    if (is_float(t)) {
        int eb, mb;
        uint64_t u, e, m;
        int bias;
        float_format(t, &eb, &mb);
        u = load_bits(p, dnnlk_dtype_size(t));
        bias = (1 << (eb - 1)) - 1;
        r.neg = (int)((u >> (eb + mb)) & 1);
        e = (u >> mb) & ((1u << eb) - 1);
        m = u & ((1ull << mb) - 1);
        if (t == dnnlk_f8_e4m3 && e == 15 && m != 7) { /* E4M3FN: the top exponent holds normals */
            r.v = ldexpl((long double)(m | 8u), 15 - bias - 3);
        } else if (e == (1u << eb) - 1) {
            if (m) r.nan = 1, r.payload = m << (64 - mb);
            else r.v = INFINITY;
        } else if (e == 0) {
            r.v = ldexpl((long double)m, 1 - bias - mb);
        } else {
            r.v = ldexpl((long double)(m | (1ull << mb)), (int)e - bias - mb);
        }
        if (r.neg) r.v = -r.v;
        return r;
    }
    switch (t) {
    case dnnlk_boolean: r.v = *(const unsigned char *)p != 0; break;
    case dnnlk_s8: r.v = *(const signed char *)p; break;
    case dnnlk_u8: r.v = *(const unsigned char *)p; break;
    case dnnlk_s32: { int32_t x; memcpy(&x, p, 4); r.v = x; } break;
    case dnnlk_s16: { int16_t x; memcpy(&x, p, 2); r.v = x; } break;
    case dnnlk_u16: { uint16_t x; memcpy(&x, p, 2); r.v = x; } break;
    case dnnlk_u64: { uint64_t x; memcpy(&x, p, 8); r.v = (long double)x; } break;
    default: { int64_t x; memcpy(&x, p, 8); r.v = (long double)x; } break;
    }
    r.neg = r.v < 0;
    return r;
}

/* The value rounded to nearest even into fp8 t, as its code, by a search over every finite code:
 * the nearest, a tie to the even code. One step past the largest finite (480 for e4m3, whose
 * code 0x7f is NaN; 65536 for e5m2, inf at 0x7c) takes part as that code, so a value rounding
 * past the largest is NaN or inf, and a tie with it goes to the even one (448's 0x7e; e5m2's inf).
 * NaN: the format's quiet NaN with x's sign (e4m3 0x7f, e5m2 0x7e). */
static uint64_t ref_encode_fp8(ref_val x, dnnlk_dtype t) {
    const int e4m3 = t == dnnlk_f8_e4m3;
    const uint64_t sign = (uint64_t)x.neg << 7, top = e4m3 ? 0x7f : 0x7c;
    uint64_t c, best = 0;
    long double a = fabsl(x.v), bd = INFINITY;
    if (x.nan) return sign | (e4m3 ? 0x7f : 0x7e);
    if (a >= (e4m3 ? 480.0L : 65536.0L)) return sign | top; /* inf too; no search, where the distances would round */
    for (c = 0; c <= top; c++) {
        unsigned char code = (unsigned char)c;
        long double v = c == top ? (e4m3 ? 480.0L : 65536.0L) : ref_read(&code, t).v, dist = fabsl(a - v);
        if (dist < bd || (dist == bd && (c & 1) == 0)) bd = dist, best = c;
    }
    return sign | best;
}

/* The value rounded to nearest even into format t, as its bits. */
static uint64_t ref_encode_float(ref_val x, dnnlk_dtype t) {
    int eb, mb, bias, emin, e;
    uint64_t sign, inf;
    long double a, q, m;
    float_format(t, &eb, &mb);
    bias = (1 << (eb - 1)) - 1;
    emin = 1 - bias;
    sign = (uint64_t)x.neg << (eb + mb);
    inf = (((1ull << eb) - 1) << mb);
    if (x.nan) return sign | inf | (1ull << (mb - 1)) | (x.payload >> (64 - mb)); /* quieted, top payload */
    a = fabsl(x.v);
    if (isinf(a)) return sign | inf;
    if (a == 0) return sign;
    e = ilogbl(a);
    if (e < emin) e = emin;
    q = ldexpl(1.0L, e - mb); /* the ulp at a's binade */
    m = rintl(a / q);         /* exact quotient; rintl rounds half to even */
    a = m * q;
    if (a >= ldexpl(1.0L, bias + 1)) return sign | inf;
    if (a < ldexpl(1.0L, emin)) return sign | (uint64_t)(a / ldexpl(1.0L, emin - mb));
    e = ilogbl(a);
    return sign | ((uint64_t)(e + bias) << mb) | ((uint64_t)(a / ldexpl(1.0L, e - mb)) - (1ull << mb));
}

/* Writes the reference result of converting the element at s (st) into d (dt). */
static void ref_convert(void *d, dnnlk_dtype dt, const void *s, dnnlk_dtype st) {
    ref_val x;
    uint64_t bits;
    if (st == dt && dt != dnnlk_boolean) {
        memcpy(d, s, dnnlk_dtype_size(dt));
        return;
    }
    x = ref_read(s, st);
    if (dt == dnnlk_boolean) {
        bits = x.nan || x.v != 0;
    } else if (dt == dnnlk_f8_e4m3 || dt == dnnlk_f8_e5m2) {
        bits = ref_encode_fp8(x, dt);
    } else if (is_float(dt)) {
        bits = ref_encode_float(x, dt);
    } else {
        long double lo, hi, v;
        switch (dt) {
        case dnnlk_s8: lo = -128, hi = 127; break;
        case dnnlk_u8: lo = 0, hi = 255; break;
        case dnnlk_s16: lo = -32768, hi = 32767; break;
        case dnnlk_u16: lo = 0, hi = 65535; break;
        case dnnlk_s32: lo = -2147483648.0L, hi = 2147483647.0L; break;
        case dnnlk_u64: lo = 0, hi = 18446744073709551615.0L; break;
        default: lo = -9223372036854775808.0L, hi = 9223372036854775807.0L; break;
        }
        v = x.nan ? 0 : truncl(x.v);
        v = v < lo ? lo : v > hi ? hi : v;
        bits = dt == dnnlk_u64 ? (uint64_t)v : (uint64_t)(int64_t)v;
    }
    memcpy(d, &bits, dnnlk_dtype_size(dt));
}

/* ---- source values ---- */

static int64_t source_count(dnnlk_dtype t) {
    switch (dnnlk_dtype_size(t)) {
    case 1: return 256;
    case 2: return 65536;
    default: return 6000;
    }
}

/* 8- and 16-bit types: every bit pattern. Wider: the special values and the edges of every
 * destination's range first, then random bits and random values of every magnitude. */
static void fill_table(void *p, dnnlk_dtype t, int64_t n) {
    int64_t i, k = 0;
    size_t es = dnnlk_dtype_size(t);
    if (es <= 2) {
        for (i = 0; i < n; i++) {
            uint16_t u = (uint16_t)i;
            memcpy((char *)p + i * (int64_t)es, &u, es);
        }
        return;
    }
    if (is_float(t)) {
        static const double specials[] = {
            0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999, 127.0, 127.5, 127.99, 128.0, -128.0,
            -128.5, -129.0, 255.0, 255.5, 256.0, -0.99, 2147483647.0, 2147483648.0, -2147483648.0, -2147483649.0,
            2147483520.0, 4294967296.0, 9223372036854775807.0, -9223372036854775808.0, 1e19, -1e19, 1e30, 1e300,
            -1e300, 65504.0, 65519.99, 65520.0, 65536.0, 6.1035156e-05, 5.9604645e-08, 2.9802322e-08, 2.98e-08,
            3.0e-08, 1e-30, 1e-40, 1e-45, 1.4e-45, 1e-310, 3.3895313892515355e38, 3.3961775292304194e38,
            3.4028234663852886e38, 3.4028235677973366e38, 3.5e38, 1.0000000596046448, 1.00390625,
            1.001953125, 1.0019531250000002, 1.0009765625, 1.0004882812500002};
        double inf = INFINITY, nan = NAN;
        for (i = 0; i < (int64_t)(sizeof specials / sizeof specials[0]) && k < n; i++) {
            double v[2] = {specials[i], -specials[i]};
            int j;
            for (j = 0; j < 2 && k < n; j++, k++) {
                if (t == dnnlk_f32) { float f = (float)v[j]; memcpy((char *)p + k * 4, &f, 4); }
                else memcpy((char *)p + k * 8, &v[j], 8);
            }
        }
        {
            double more[2] = {inf, -inf};
            for (i = 0; i < 2; i++, k++) {
                if (t == dnnlk_f32) { float f = (float)more[i]; memcpy((char *)p + k * 4, &f, 4); }
                else memcpy((char *)p + k * 8, &more[i], 8);
            }
        }
        if (t == dnnlk_f32) { /* NaNs: quiet, signalling, with payloads, negative */
            static const uint32_t nb[] = {0x7fc00000u, 0xffc00000u, 0x7f800001u, 0x7fa00000u, 0xff812345u, 0x7fffffffu,
                                          0x00000001u, 0x80000001u, 0x007fffffu, 0x00800000u, 0x7f7fffffu, 0x3f808000u,
                                          0x3f818000u, 0x3f808001u, 0x477fefffu, 0x477ff000u, 0x33000000u, 0x33000001u};
            for (i = 0; i < (int64_t)(sizeof nb / sizeof nb[0]); i++, k++) memcpy((char *)p + k * 4, &nb[i], 4);
        } else {
            static const uint64_t nb[] = {0x7ff8000000000000ull, 0xfff8000000000000ull, 0x7ff0000000000001ull,
                                          0x7ff4000000000000ull, 0xfff0123456789abcull, 0x7fffffffffffffffull,
                                          0x0000000000000001ull, 0x000fffffffffffffull, 0x3ff0100000000000ull,
                                          0x3ff0100000000001ull, 0x3ff0000010000000ull, 0x3ff0000010000001ull,
                                          0x47efffffe0000000ull, 0x47efffffdfffffffull, 0x36a0000000000000ull,
                                          0x36a0000000000001ull, 0x380fffffffffffffull};
            (void)nan;
            for (i = 0; i < (int64_t)(sizeof nb / sizeof nb[0]); i++, k++) memcpy((char *)p + k * 8, &nb[i], 8);
        }
        for (; k < n; k++) {
            if (k % 2) { /* random bits: every exponent, NaNs included */
                uint64_t u = th_rand64();
                memcpy((char *)p + k * (int64_t)es, &u, es);
            } else { /* random values around the integer ranges */
                double v = ldexp((double)(th_rand64() >> 11), (int)th_randint(-80, 20)) * (th_rand32() & 1 ? -1 : 1);
                if (t == dnnlk_f32) { float f = (float)v; memcpy((char *)p + k * 4, &f, 4); }
                else memcpy((char *)p + k * 8, &v, 8);
            }
        }
        return;
    }
    {
        static const int64_t specials[] = {0, 1, -1, 2, 127, 128, -128, -129, 255, 256, 65504, 65519, 65520, 65535,
                                           2147483647, -2147483647 - 1, 16777217, 16777219, -16777217, 33554435,
                                           INT64_MAX, INT64_MIN, INT64_MAX - 1, INT64_MIN + 1, 4294967296,
                                           (1ll << 53) + 1, (1ll << 62) + (1ll << 54) + 1, (1ll << 62) + (1ll << 54),
                                           (1ll << 40) + (1ll << 32), (1ll << 40) + (1ll << 32) + 1,
                                           (1ll << 40) + (3ll << 32), 0x7fffff8000000000ll, 0x7fffff7fffffffffll};
        for (i = 0; i < (int64_t)(sizeof specials / sizeof specials[0]) && k + 1 < n; i++) {
            int64_t v[2] = {specials[i], specials[i] == INT64_MIN ? INT64_MAX : -specials[i]};
            int j;
            for (j = 0; j < 2; j++, k++) {
                if (t == dnnlk_s32) {
                    int32_t x = v[j] > INT32_MAX ? INT32_MAX : v[j] < INT32_MIN ? INT32_MIN : (int32_t)v[j];
                    memcpy((char *)p + k * 4, &x, 4);
                } else {
                    memcpy((char *)p + k * 8, &v[j], 8);
                }
            }
        }
        if (t == dnnlk_u64) { /* 2^63 and up (negative as an s64), the f64/f32/bf16 ties there, 2^64-1 */
            static const uint64_t big[] = {0x8000000000000000ull, 0x8000000000000001ull, 0x8000000000000400ull,
                                           0x8000000000000401ull, 0x8000000000000c00ull, 0x8000000000000bffull,
                                           0x8000008000000000ull, 0x8000018000000000ull, 0x8000008000000001ull,
                                           0x8080000000000000ull, 0x8180000000000000ull, 0x8080000000000001ull,
                                           0xfffffffffffffbffull, 0xfffffffffffffc00ull, 0xffffff7fffffffffull,
                                           0xffffff8000000000ull, 0xffffffffffffffffull, 0xfffffffffffffffeull};
            for (i = 0; i < (int64_t)(sizeof big / sizeof big[0]) && k < n; i++, k++) memcpy((char *)p + k * 8, &big[i], 8);
        }
        for (; k < n; k++) {
            uint64_t u = th_rand64() >> th_randint(0, 63);
            if (th_rand32() & 1) u = 0 - u;
            memcpy((char *)p + k * (int64_t)es, &u, es);
        }
    }
}

/* n source elements: the whole table when n is its size, else elements picked from it at random. */
static void fill_sources(void *p, dnnlk_dtype t, int64_t n) {
    int64_t full = source_count(t), i;
    size_t es = dnnlk_dtype_size(t);
    char *table;
    if (n == full) {
        fill_table(p, t, n);
        return;
    }
    table = (char *)malloc((size_t)full * es);
    if (!table) exit(2);
    fill_table(table, t, full);
    for (i = 0; i < n; i++) memcpy((char *)p + i * (int64_t)es, table + th_randint(0, full - 1) * (int64_t)es, es);
    free(table);
}

static dnnlk_tensor vec1(void *p, dnnlk_dtype t, int64_t n) { return th_tensor(p, t, 1, &n); }

/* Every pair: the whole source table (exhaustive for 8- and 16-bit sources) converted densely,
 * starting one byte off alignment, as 1, 2, 3 and 7 parts; each element against the reference. */
TEST(every_pair_against_reference) {
    int a, b, nth, ith;
    for (a = 0; a < NTYPES; a++) {
        dnnlk_dtype st = all_types[a];
        int64_t n = source_count(st), i;
        size_t ses = dnnlk_dtype_size(st);
        th_buf sb = th_alloc((size_t)n * ses, 1);
        fill_sources(sb.p, st, n);
        for (b = 0; b < NTYPES; b++) {
            dnnlk_dtype dt = all_types[b];
            size_t des = dnnlk_dtype_size(dt);
            th_buf db = th_alloc((size_t)n * des, 3), rb = th_alloc((size_t)n * des, 0);
            dnnlk_tensor s = vec1(sb.p, st, n);
            int bad = 0;
            for (i = 0; i < n; i++) ref_convert((char *)rb.p + i * (int64_t)des, dt, (char *)sb.p + i * (int64_t)ses, st);
            for (nth = 1; nth <= 7; nth += (nth == 3 ? 4 : 1)) {
                dnnlk_tensor d = vec1(db.p, dt, n);
                memset(db.p, 0xEE, (size_t)n * des);
                for (ith = 0; ith < nth; ith++) CHECK_EQ(dnnlk_convert(&s, &d, ith, nth), dnnlk_success);
                CHECK(th_guards_ok(&db));
                for (i = 0; i < n && bad < 5; i++) {
                    const char *got = (const char *)db.p + i * (int64_t)des, *want = (const char *)rb.p + i * (int64_t)des;
                    if (memcmp(got, want, des) != 0) {
                        bad++;
                        CHECK_MSG(0, "%s -> %s, nth %d, element %lld (src bits %016llx): got %016llx, want %016llx",
                                  dnnlk_dtype_name(st), dnnlk_dtype_name(dt), nth, (long long)i,
                                  (unsigned long long)load_bits((char *)sb.p + i * (int64_t)ses, ses),
                                  (unsigned long long)load_bits(got, des), (unsigned long long)load_bits(want, des));
                    }
                }
                CHECK(bad == 0);
            }
            th_free(&db), th_free(&rb);
        }
        th_free(&sb);
    }
}

/* The streaming rows (a part writing at least the threshold cell's bytes): every vector pair, dst
 * aligned and 1..3 bytes off (a 2- or 4-byte dst an odd byte off cannot be aligned to a vector and
 * stays on plain stores), long enough for several staged chunks and a head and tail, 1 and 3
 * parts; each element against the reference. */
TEST(streamed_rows) {
    static const dnnlk_dtype srcs[] = {dnnlk_f32, dnnlk_bf16, dnnlk_f16, dnnlk_u8, dnnlk_s8};
    static const dnnlk_dtype dsts[] = {dnnlk_f32, dnnlk_bf16, dnnlk_f16, dnnlk_boolean};
    int64_t *cell = dnnlk__convert_nt_cell(), saved = *cell, n = 3 * 2048 + 77, i;
    size_t a, b, mis;
    int nth, ith;
    *cell = 0;
    for (a = 0; a < sizeof srcs / sizeof srcs[0]; a++) {
        dnnlk_dtype st = srcs[a];
        size_t ses = dnnlk_dtype_size(st);
        th_buf sb = th_alloc((size_t)n * ses, 0);
        dnnlk_tensor s = vec1(sb.p, st, n);
        fill_sources(sb.p, st, n);
        for (b = 0; b < sizeof dsts / sizeof dsts[0]; b++) {
            dnnlk_dtype dt = dsts[b];
            size_t des = dnnlk_dtype_size(dt);
            th_buf rb = th_alloc((size_t)n * des, 0);
            for (i = 0; i < n; i++) ref_convert((char *)rb.p + i * (int64_t)des, dt, (char *)sb.p + i * (int64_t)ses, st);
            for (mis = 0; mis < 4; mis++) {
                th_buf db = th_alloc((size_t)n * des, mis);
                for (nth = 1; nth <= 3; nth += 2) {
                    dnnlk_tensor d = vec1(db.p, dt, n);
                    memset(db.p, 0xEE, (size_t)n * des);
                    for (ith = 0; ith < nth; ith++) CHECK_EQ(dnnlk_convert(&s, &d, ith, nth), dnnlk_success);
                    CHECK(th_guards_ok(&db));
                    CHECK_MSG(memcmp(db.p, rb.p, (size_t)n * des) == 0, "%s -> %s, %d bytes off, nth %d",
                              dnnlk_dtype_name(st), dnnlk_dtype_name(dt), (int)mis, nth);
                }
                th_free(&db);
            }
            th_free(&rb);
        }
        th_free(&sb);
    }
    *cell = saved;
}

/* ---- layouts ---- */

typedef struct view {
    th_buf buf;
    dnnlk_tensor t;
    int64_t span;
} view;

static view make_view(dnnlk_dtype t, int nd, const int64_t *dims, int input, size_t misalign) {
    view v;
    int64_t st[DNNLK_MAX_NDIMS], off = 0;
    v.span = th_random_layout(nd, dims, st, input, &off);
    v.buf = th_alloc((size_t)v.span * dnnlk_dtype_size(t), misalign);
    v.t = th_strided(v.buf.p, off, t, nd, dims, st);
    return v;
}

/* Checks dst against the reference element by element, through both views' strides. */
static int check_views(const dnnlk_tensor *d, const dnnlk_tensor *s, const char *what) {
    int64_t n = th_numel(d->ndims, d->dims), f;
    size_t des = dnnlk_dtype_size(d->dtype), ses = dnnlk_dtype_size(s->dtype);
    int bad = 0;
    for (f = 0; f < n && bad < 3; f++) {
        unsigned char want[8];
        const char *sp = (const char *)s->data + th_offset(s->ndims, s->dims, s->strides, f) * (int64_t)ses;
        const char *dp = (const char *)d->data + th_offset(d->ndims, d->dims, d->strides, f) * (int64_t)des;
        ref_convert(want, d->dtype, sp, s->dtype);
        if (memcmp(dp, want, des) != 0) {
            bad++;
            CHECK_MSG(0, "%s: %s -> %s element %lld", what, dnnlk_dtype_name(s->dtype), dnnlk_dtype_name(d->dtype),
                      (long long)f);
        }
    }
    return bad == 0;
}

/* Random shapes, random layouts on both sides (permuted, padded, flipped; 0-stride sources),
 * random pairs, misaligned, against the reference, with several part counts. */
TEST(random_layouts) {
    static const int nths[4] = {1, 2, 3, 7};
    int iter, iters = (int)th_scaled(300);
    for (iter = 0; iter < iters; iter++) {
        int64_t dims[DNNLK_MAX_NDIMS];
        int nd = (int)th_randint(0, 5), i, nth = nths[iter % 4], ith;
        dnnlk_dtype st = all_types[th_randint(0, NTYPES - 1)], dt = iter % 3 == 0 ? st : all_types[th_randint(0, NTYPES - 1)];
        view s, d;
        char what[64];
        for (i = 0; i < nd; i++) dims[i] = th_randint(1, 6);
        if (nd > 0 && iter % 3 == 0) dims[th_randint(0, nd - 1)] = th_randint(7, 70); /* one long dim */
        if (iter % 17 == 0 && nd > 0) dims[th_randint(0, nd - 1)] = 0;
        s = make_view(st, nd, dims, 1, (size_t)th_randint(0, 7));
        d = make_view(dt, nd, dims, 0, (size_t)th_randint(0, 7));
        fill_sources(s.buf.p, st, s.span);
        for (ith = 0; ith < nth; ith++) CHECK_EQ(dnnlk_convert(&s.t, &d.t, ith, nth), dnnlk_success);
        snprintf(what, sizeof what, "iteration %d, %d dims, nth %d", iter, nd, nth);
        CHECK(check_views(&d.t, &s.t, what));
        CHECK(th_guards_ok(&d.buf));
        th_free(&s.buf), th_free(&d.buf);
    }
}

/* s4 / u4 (packed two to a byte, low nibble first, dense) to and from every dtype: every nibble
 * value at even and odd positions, an odd count (the last byte's high nibble is not ours and must
 * stay), the other side strided (every second element), 1..3 parts; against the reference through
 * s64 (a nibble is its integer; to a nibble, the s64 result saturated to its range). Then the
 * packed side's rules: not dense, or overlapping the other side, is refused, nothing written. */
TEST(packed4_pairs) {
    static const dnnlk_dtype packed[2] = {dnnlk_s4, dnnlk_u4};
    const int64_t n = 203, two = 2 * n;
    int pi, ti, nth, ith, dir;
    for (pi = 0; pi < 2; pi++)
        for (ti = 0; ti < NTYPES + 2; ti++)
            for (dir = 0; dir < 2; dir++) { /* 0: packed -> t, 1: t -> packed */
                const dnnlk_dtype p = packed[pi], t = ti < NTYPES ? all_types[ti] : packed[ti - NTYPES];
                const int tp = t == dnnlk_s4 || t == dnnlk_u4;
                const size_t tes = tp ? 1 : dnnlk_dtype_size(t);
                const int64_t lo = p == dnnlk_s4 ? -8 : 0, hi = p == dnnlk_s4 ? 7 : 15;
                th_buf pb = th_alloc((size_t)(n + 1) / 2, 0), ob = th_alloc(tp ? (size_t)(n + 1) / 2 : (size_t)two * tes, 1);
                th_buf rb = th_alloc(tp ? (size_t)n : (size_t)n * tes, 0);
                dnnlk_tensor pt = th_tensor(pb.p, p, 1, &n), ot = th_tensor(ob.p, t, 1, &n);
                unsigned char *pk = (unsigned char *)pb.p;
                int64_t i;
                if (!tp) ot.strides[0] = 2;
                if (dir == 1 && tp) { th_free(&pb), th_free(&ob), th_free(&rb); continue; } /* packed -> packed: dir 0 */
                if (dir == 0) {
                    for (i = 0; i < n; i++) { /* every value at both nibble positions */
                        unsigned v = (unsigned)((i * 7 + i / 32) & 15);
                        pk[i >> 1] = (unsigned char)((pk[i >> 1] & ~(15u << ((i & 1) * 4))) | (v << ((i & 1) * 4)));
                    }
                    for (i = 0; i < n; i++) { /* the reference: the nibble's integer, converted as an s64 */
                        int64_t v = (pk[i >> 1] >> ((i & 1) * 4)) & 15;
                        if (p == dnnlk_s4 && v >= 8) v -= 16;
                        if (tp) {
                            int64_t tl = t == dnnlk_s4 ? -8 : 0, th = t == dnnlk_s4 ? 7 : 15;
                            ((unsigned char *)rb.p)[i] = (unsigned char)((v < tl ? tl : v > th ? th : v) & 15);
                        } else {
                            ref_convert((char *)rb.p + i * (int64_t)tes, t, &v, dnnlk_s64);
                        }
                    }
                } else {
                    th_buf sb = th_alloc((size_t)two * tes, 0);
                    fill_sources(sb.p, t, two);
                    memcpy(ob.p, sb.p, (size_t)two * tes);
                    th_free(&sb);
                    for (i = 0; i < n; i++) {
                        int64_t v;
                        ref_convert(&v, dnnlk_s64, (char *)ob.p + 2 * i * (int64_t)tes, t);
                        ((unsigned char *)rb.p)[i] = (unsigned char)((v < lo ? lo : v > hi ? hi : v) & 15);
                    }
                }
                for (nth = 1; nth <= 3; nth++) {
                    if (dir == 0) {
                        memset(ob.p, 0xEE, tp ? (size_t)(n + 1) / 2 : (size_t)two * tes);
                        for (ith = 0; ith < nth; ith++) CHECK_EQ(dnnlk_convert(&pt, &ot, ith, nth), dnnlk_success);
                        for (i = 0; i < n; i++) {
                            const unsigned char *o = (const unsigned char *)ob.p;
                            if (tp) CHECK_MSG(((o[i >> 1] >> ((i & 1) * 4)) & 15) == ((unsigned char *)rb.p)[i],
                                              "%s -> %s element %lld", dnnlk_dtype_name(p), dnnlk_dtype_name(t), (long long)i);
                            else CHECK_MSG(memcmp(o + 2 * i * (int64_t)tes, (char *)rb.p + i * (int64_t)tes, tes) == 0,
                                           "%s -> %s element %lld, nth %d", dnnlk_dtype_name(p), dnnlk_dtype_name(t), (long long)i, nth);
                            if (!tp) CHECK(o[(2 * i + 1) * (int64_t)tes] == 0xEE); /* the gaps */
                        }
                        if (tp) CHECK((((const unsigned char *)ob.p)[n >> 1] >> 4) == 0xE); /* not ours */
                        CHECK(th_guards_ok(&ob));
                    } else {
                        memset(pb.p, 0xEE, (size_t)(n + 1) / 2);
                        for (ith = 0; ith < nth; ith++) CHECK_EQ(dnnlk_convert(&ot, &pt, ith, nth), dnnlk_success);
                        for (i = 0; i < n; i++)
                            CHECK_MSG(((pk[i >> 1] >> ((i & 1) * 4)) & 15) == ((unsigned char *)rb.p)[i],
                                      "%s -> %s element %lld, nth %d", dnnlk_dtype_name(t), dnnlk_dtype_name(p), (long long)i, nth);
                        CHECK((pk[n >> 1] >> 4) == 0xE); /* not ours */
                        CHECK(th_guards_ok(&pb));
                    }
                }
                th_free(&pb), th_free(&ob), th_free(&rb);
            }
    {   /* the packed side's rules */
        unsigned char buf[64];
        float f[16];
        int64_t d2[2] = {4, 4}, d1 = 16;
        dnnlk_tensor pt = th_tensor(buf, dnnlk_u4, 2, d2), ft = th_tensor(f, dnnlk_f32, 2, d2), kept;
        memset(f, 0, sizeof f), memset(buf, 0x5A, sizeof buf);
        pt.strides[0] = 8; /* rows apart: not dense */
        kept = pt;
        CHECK_EQ(dnnlk_convert(&ft, &pt, 0, 1), dnnlk_invalid_shape);
        CHECK_EQ(dnnlk_convert(&pt, &ft, 0, 1), dnnlk_invalid_shape);
        CHECK(memcmp(&pt, &kept, sizeof pt) == 0);
        pt = th_tensor(buf, dnnlk_u4, 1, &d1), ft = th_tensor(buf + 4, dnnlk_u8, 1, &d1); /* bytes 4..19 against 0..7 */
        CHECK_EQ(dnnlk_convert(&ft, &pt, 0, 1), dnnlk_invalid_arguments);
        for (ti = 0; ti < 64; ti++) CHECK(buf[ti] == 0x5A);
        ft = pt, ft.dtype = dnnlk_s4; /* packed onto the same bytes: in place */
        CHECK_EQ(dnnlk_convert(&pt, &ft, 0, 1), dnnlk_success);
        CHECK(buf[0] == 0x57 && buf[7] == 0x57 && buf[8] == 0x5A); /* u4 10, 5 -> s4 7, 5; 16 elements */
        (void)kept;
    }
}

/* NCHW <-> NHWC and a 2-D transpose, odd sizes, every element size, every part count up to 5:
 * the tiled path with partial tiles and parts that start mid-row. */
TEST(transposes) {
    static const dnnlk_dtype types[4] = {dnnlk_u8, dnnlk_bf16, dnnlk_f32, dnnlk_f64};
    /* C = 27: a 16-column block, then tiles of 4 or 8 and single columns; C = 48 with an aligned
     * dst: whole 64-byte dst rows, streamed when the threshold cell is 0; H*W = 561, 703: rows
     * short of a tile after the whole ones; C = 64: whole 64-byte dst lines of every element
     * size (the 8/16/64-bit paths streamed), 145 rows: blocks of rows, then rows short of a
     * block; C = 96: with dst on a 128-byte boundary (mode 3), the 32-bit walk's pairs of
     * blocks and then a single block. mode 0: plain stores into a dst 2 bytes off; 1: the
     * threshold cell at 0 (stream what may be), dst on a 64-byte line that is not on a 128-byte
     * boundary; 2: the cell at 0 but dst 16 bytes off a 64-byte line, where nothing may be
     * streamed (a streaming store wants a whole aligned vector); 3: the cell at 0, dst on a
     * 128-byte boundary (th_alloc: 64 + misalign past one) */
    static const int64_t shapes[7][4] = {{2, 5, 7, 9},    {3, 67, 5, 13}, {1, 16, 33, 17}, {2, 27, 37, 19},
                                         {2, 48, 37, 19}, {1, 64, 5, 29}, {1, 96, 7, 11}};
    int64_t *cell = dnnlk__convert_nt_cell(), saved = *cell;
    static const char *const modes[4] = {"plain stores", "streamed", "streamed, dst 16 bytes off",
                                         "streamed, dst on 128 bytes"};
    static const size_t misalign[4] = {2, 0, 16, 64};
    int ti, si, dir, nth, ith, mode;
    for (ti = 0; ti < 4; ti++)
        for (si = 0; si < 7; si++)
            for (dir = 0; dir < 2; dir++)
                for (mode = 0; mode < 4; mode++) {
                    const int64_t *dm = shapes[si];
                    int64_t n = th_numel(4, dm), nhwc[4];
                    dnnlk_dtype t = types[ti];
                    size_t es = dnnlk_dtype_size(t);
                    th_buf sb = th_alloc((size_t)n * es, 0), db = th_alloc((size_t)n * es, misalign[mode]);
                    dnnlk_tensor s = th_tensor(sb.p, t, 4, dm), d = th_tensor(db.p, t, 4, dm);
                    nhwc[0] = dm[1] * dm[2] * dm[3], nhwc[1] = 1, nhwc[2] = dm[3] * dm[1], nhwc[3] = dm[1];
                    memcpy(dir ? s.strides : d.strides, nhwc, sizeof nhwc);
                    fill_sources(sb.p, t, n);
                    *cell = mode ? 0 : saved;
                    for (nth = 1; nth <= 5; nth += mode >= 2 ? 2 : 1) { /* modes 2, 3: 1, 3, 5 parts (ASan time) */
                        memset(db.p, 0, (size_t)n * es);
                        for (ith = 0; ith < nth; ith++) CHECK_EQ(dnnlk_convert(&s, &d, ith, nth), dnnlk_success);
                        CHECK_MSG(check_views(&d, &s, dir ? "NHWC -> NCHW" : "NCHW -> NHWC"), "%s, shape %d, %s, nth %d",
                                  dnnlk_dtype_name(t), si, modes[mode], nth);
                        CHECK(th_guards_ok(&db));
                    }
                    th_free(&sb), th_free(&db);
                }
    *cell = saved;
}

/* Dense rows of every length 0..200 for the vector pairs (and one generic pair), so each vector
 * width's body and tail is taken, at every misalignment 0..3 of dst. */
TEST(tails_every_length) {
    static const dnnlk_dtype pairs[][2] = {{dnnlk_f32, dnnlk_bf16}, {dnnlk_f32, dnnlk_f16}, {dnnlk_bf16, dnnlk_f16},
                                           {dnnlk_u8, dnnlk_f32},   {dnnlk_s8, dnnlk_boolean}, {dnnlk_f16, dnnlk_boolean},
                                           {dnnlk_f32, dnnlk_boolean}, {dnnlk_s32, dnnlk_f32}};
    size_t p;
    int64_t n;
    for (p = 0; p < sizeof pairs / sizeof pairs[0]; p++) {
        dnnlk_dtype st = pairs[p][0], dt = pairs[p][1];
        th_buf sb = th_alloc(200 * dnnlk_dtype_size(st), 0);
        fill_sources(sb.p, st, 200);
        if (st == dnnlk_f32) { /* zeros, NaN and tiny values among them */
            float z[6] = {0.0f, -0.0f, NAN, 1e-45f, -INFINITY, 3.0f};
            memcpy((char *)sb.p + 40, z, sizeof z);
        }
        for (n = 0; n <= 200; n++) {
            th_buf db = th_alloc((size_t)n * dnnlk_dtype_size(dt), (size_t)(n % 4));
            dnnlk_tensor s = vec1(sb.p, st, n), d = vec1(db.p, dt, n);
            CHECK_EQ(dnnlk_convert(&s, &d, 0, 1), dnnlk_success);
            CHECK(check_views(&d, &s, "tail"));
            CHECK(th_guards_ok(&db));
            th_free(&db);
        }
        th_free(&sb);
    }
}

/* Short 32-bit rows copied out of a padded source into a dense dst ([N,3] of rows of 4; convert's
 * packed path, DNNLK__VF_N rows per group): every row length 1..9 against every source pitch up
 * to 2 vectors, row counts around a group (a group needs a row after it), streamed from an
 * aligned and a 4-byte-off dst and plain stores into one 2 bytes off, 1 and 3 parts, and blocks of
 * rows that end early ([2,70,n] with a gap between the two blocks). The source is a malloc of its
 * exact span: the sanitizer build catches a group that reads past the last row. */
TEST(short_rows_packed) {
    static const int64_t row_counts[] = {1, 16, 17, 70, 130};
    int64_t *cell = dnnlk__convert_nt_cell(), saved = *cell;
    int64_t n, m, ri, R, i, gap;
    int mis, nth, ith, blocks;
    for (n = 1; n <= 9; n++)
        for (m = n + 1; m <= 33; m += (m < n + 4 ? 1 : 5))
            for (ri = 0; ri < (int64_t)(sizeof row_counts / sizeof row_counts[0]); ri++)
                for (blocks = 1; blocks <= (row_counts[ri] == 70 ? 2 : 1); blocks++) {
                    int64_t dims[3] = {blocks, row_counts[ri], n}, sst[3], span;
                    dnnlk_dtype t = (n + m) % 2 ? dnnlk_f32 : dnnlk_s32;
                    char *src;
                    dnnlk_tensor s;
                    R = row_counts[ri];
                    gap = blocks == 2 ? 5 : 0;
                    sst[0] = R * m + gap, sst[1] = m, sst[2] = 1;
                    span = (blocks - 1) * sst[0] + (R - 1) * m + n;
                    src = (char *)malloc((size_t)span * 4);
                    for (i = 0; i < span; i++) {
                        int32_t v = (int32_t)(i * 2654435761u);
                        memcpy(src + i * 4, &v, 4);
                    }
                    s = th_strided(src, 0, t, 3, dims, sst);
                    for (mis = 0; mis < 3; mis++) {
                        size_t off = mis == 0 ? 0 : mis == 1 ? 4 : 2;
                        th_buf db = th_alloc((size_t)(blocks * R * n) * 4, off);
                        dnnlk_tensor d = th_tensor(db.p, t, 3, dims);
                        *cell = mis < 2 ? 0 : saved; /* 0: every part streams */
                        for (nth = 1; nth <= 3; nth += 2) {
                            memset(db.p, 0xEE, (size_t)(blocks * R * n) * 4);
                            for (ith = 0; ith < nth; ith++) CHECK_EQ(dnnlk_convert(&s, &d, ith, nth), dnnlk_success);
                            CHECK_MSG(check_views(&d, &s, "short rows"), "[%d,%d,%d] of pitch %d, dst %d bytes off, nth %d",
                                      blocks, (int)R, (int)n, (int)m, (int)off, nth);
                            CHECK(th_guards_ok(&db));
                        }
                        th_free(&db);
                    }
                    free(src);
                }
    *cell = saved;
}

/* ---- infer, bad input ---- */

TEST(infer_completes_dst) {
    int64_t dims[3] = {2, 3, 4};
    float x[24];
    dnnlk_tensor s = th_tensor(x, dnnlk_f32, 3, dims), d;
    memset(&d, 0, sizeof d);
    d.ndims = DNNLK_UNKNOWN;
    d.dtype = dnnlk_bf16;
    CHECK_EQ(dnnlk_convert_infer(&s, &d), dnnlk_success);
    CHECK_EQ(d.ndims, 3);
    CHECK_EQ(d.dtype, dnnlk_bf16);
    CHECK(d.dims[0] == 2 && d.dims[1] == 3 && d.dims[2] == 4);
    CHECK(d.strides[0] == 12 && d.strides[1] == 4 && d.strides[2] == 1);
    /* undef dtype: a copy of src's; one stride 1 and the rest unknown: that dim innermost */
    memset(&d, 0, sizeof d);
    d.ndims = 3;
    d.dims[0] = d.dims[1] = d.dims[2] = DNNLK_UNKNOWN;
    d.strides[0] = d.strides[2] = DNNLK_UNKNOWN, d.strides[1] = 1;
    CHECK_EQ(dnnlk_convert_infer(&s, &d), dnnlk_success);
    CHECK_EQ(d.dtype, dnnlk_f32);
    CHECK(d.strides[1] == 1 && d.strides[2] == 3 && d.strides[0] == 12);
    /* known dims that differ */
    d = th_tensor(NULL, dnnlk_f32, 3, dims);
    d.dims[2] = 5;
    CHECK_EQ(dnnlk_convert_infer(&s, &d), dnnlk_invalid_shape);
    d = th_tensor(NULL, dnnlk_f32, 2, dims);
    CHECK_EQ(dnnlk_convert_infer(&s, &d), dnnlk_invalid_shape);
}

TEST(bad_arguments_write_nothing) {
    int64_t dims[2] = {4, 8}, n = 32;
    float x[32], y[32];
    unsigned char before[sizeof(dnnlk_tensor)];
    dnnlk_tensor s = th_tensor(x, dnnlk_f32, 2, dims), d = th_tensor(y, dnnlk_s8, 2, dims), t;
    int i;
    for (i = 0; i < 32; i++) x[i] = (float)i;
    memset(y, 0x5A, sizeof y);
#define EXPECT_UNTOUCHED(call, status)                                                  \
    do {                                                                                \
        memcpy(before, &d, sizeof d);                                                   \
        CHECK_EQ((call), (status));                                                     \
        CHECK(memcmp(before, &d, sizeof d) == 0);                                       \
        for (i = 0; i < 32; i++) CHECK_MSG(((unsigned char *)y)[i] == 0x5A, "byte %d written", i); \
    } while (0)
    EXPECT_UNTOUCHED(dnnlk_convert(NULL, &d, 0, 1), dnnlk_invalid_arguments);
    EXPECT_UNTOUCHED(dnnlk_convert(&s, NULL, 0, 1), dnnlk_invalid_arguments);
    EXPECT_UNTOUCHED(dnnlk_convert(&s, &d, 1, 1), dnnlk_invalid_arguments);
    EXPECT_UNTOUCHED(dnnlk_convert(&s, &d, 0, 0), dnnlk_invalid_arguments);
    EXPECT_UNTOUCHED(dnnlk_convert(&s, &d, -1, 2), dnnlk_invalid_arguments);
    t = s, t.dtype = (dnnlk_dtype)99;
    EXPECT_UNTOUCHED(dnnlk_convert(&t, &d, 0, 1), dnnlk_invalid_data_type);
    d.dtype = (dnnlk_dtype)42;
    EXPECT_UNTOUCHED(dnnlk_convert(&s, &d, 0, 1), dnnlk_invalid_data_type);
    d.dtype = dnnlk_s4, d.strides[0] *= 2; /* a packed side must be dense, either side */
    EXPECT_UNTOUCHED(dnnlk_convert(&s, &d, 0, 1), dnnlk_invalid_shape);
    d.dtype = dnnlk_s8, d.strides[0] /= 2;
    t = s, t.dtype = dnnlk_u4, t.strides[1] = 2, t.strides[0] *= 2;
    EXPECT_UNTOUCHED(dnnlk_convert(&t, &d, 0, 1), dnnlk_invalid_shape);
    t = s, t.data = NULL;
    EXPECT_UNTOUCHED(dnnlk_convert(&t, &d, 0, 1), dnnlk_invalid_arguments);
    t = s, t.dims[1] = 7;
    EXPECT_UNTOUCHED(dnnlk_convert(&t, &d, 0, 1), dnnlk_invalid_shape);
    t = s, t.ndims = 1, t.dims[0] = n, t.strides[0] = 1;
    EXPECT_UNTOUCHED(dnnlk_convert(&t, &d, 0, 1), dnnlk_invalid_shape);
    t = s, t.dims[0] = -3;
    EXPECT_UNTOUCHED(dnnlk_convert(&t, &d, 0, 1), dnnlk_invalid_shape);
    /* dst overlapping src: a shifted view of the same buffer, and same address other size */
    {
        dnnlk_tensor ov = th_tensor((char *)x + 4, dnnlk_f32, 2, dims), src2 = th_tensor(x, dnnlk_s8, 2, dims);
        float keep[32];
        memcpy(keep, x, sizeof x);
        CHECK_EQ(dnnlk_convert(&s, &ov, 0, 1), dnnlk_invalid_arguments);
        ov = th_tensor(x, dnnlk_s32, 2, dims);
        CHECK_EQ(dnnlk_convert(&src2, &ov, 0, 1), dnnlk_invalid_arguments);
        ov = th_tensor(x, dnnlk_f32, 2, dims), ov.strides[0] = 1, ov.strides[1] = 4; /* transposed in place */
        CHECK_EQ(dnnlk_convert(&s, &ov, 0, 1), dnnlk_invalid_arguments);
        CHECK(memcmp(keep, x, sizeof x) == 0);
    }
    /* dst overlapping itself */
    d.strides[0] = 4;
    CHECK_EQ(dnnlk_convert(&s, &d, 0, 1), dnnlk_invalid_arguments);
#undef EXPECT_UNTOUCHED
}

/* In place: the same view, same element size (f32 -> s32 would reinterpret; f32 -> f32 and
 * s32 -> f32 are allowed). */
TEST(in_place) {
    int64_t n = 100;
    int32_t a[100];
    float f[100];
    dnnlk_tensor s, d;
    int i;
    for (i = 0; i < 100; i++) a[i] = i * 1000003 - 50000000;
    memcpy(f, a, sizeof a);
    s = th_tensor(a, dnnlk_s32, 1, &n), d = th_tensor(a, dnnlk_f32, 1, &n);
    CHECK_EQ(dnnlk_convert(&s, &d, 0, 1), dnnlk_success);
    for (i = 0; i < 100; i++) {
        float want;
        int32_t orig;
        memcpy(&orig, &f[i], 4);
        ref_convert(&want, dnnlk_f32, &orig, dnnlk_s32);
        CHECK(memcmp(&want, &a[i], 4) == 0);
    }
}

TEST(empty_and_scalar) {
    int64_t dims[3] = {3, 0, 5};
    float x = -2.75f;
    signed char y = 0;
    dnnlk_tensor s = th_tensor(NULL, dnnlk_f32, 3, dims), d = th_tensor(NULL, dnnlk_s8, 3, dims);
    CHECK_EQ(dnnlk_convert(&s, &d, 0, 1), dnnlk_success);
    s = th_tensor(&x, dnnlk_f32, 0, NULL), d = th_tensor(&y, dnnlk_s8, 0, NULL);
    CHECK_EQ(dnnlk_convert(&s, &d, 0, 3), dnnlk_success);
    CHECK_EQ(dnnlk_convert(&s, &d, 1, 3), dnnlk_success);
    CHECK_EQ(y, 0); /* part 1 of 3 of one element: nothing */
    CHECK_EQ(dnnlk_convert(&s, &d, 0, 1), dnnlk_success);
    CHECK_EQ(y, -2);
}

/* ---- numpy's answers where numpy defines them (tools/numpy_convert_cases.py) ---- */
#include "convert_numpy_cases.h" /* numpy_convert_cases, numpy_compare_cases */

TEST(numpy_defined_cases) {
    size_t i;
    for (i = 0; i < sizeof numpy_convert_cases / sizeof numpy_convert_cases[0]; i++) {
        const numpy_convert_case *c = &numpy_convert_cases[i];
        unsigned char out[8] = {0};
        int64_t one = 1;
        uint64_t src = c->src_bits, got = 0;
        dnnlk_tensor s = th_tensor(&src, c->src, 1, &one), d = th_tensor(out, c->dst, 1, &one);
        CHECK_EQ(dnnlk_convert(&s, &d, 0, 1), dnnlk_success);
        memcpy(&got, out, dnnlk_dtype_size(c->dst));
        CHECK_MSG(got == c->dst_bits, "numpy case %d: %s %016llx -> %s: got %016llx, numpy %016llx", (int)i,
                  dnnlk_dtype_name(c->src), (unsigned long long)c->src_bits, dnnlk_dtype_name(c->dst),
                  (unsigned long long)got, (unsigned long long)c->dst_bits);
    }
}

/* ---- the same bits at every level and part count ---- */

static uint64_t bits_run(int c, int nth) {
    static const dnnlk_dtype pairs[][2] = {{dnnlk_f32, dnnlk_bf16}, {dnnlk_f32, dnnlk_f16}, {dnnlk_f64, dnnlk_bf16},
                                           {dnnlk_s64, dnnlk_f16}, {dnnlk_f32, dnnlk_s8}, {dnnlk_f16, dnnlk_boolean}};
    dnnlk_dtype st = pairs[c][0], dt = pairs[c][1];
    int64_t n = 5000;
    th_buf sb = th_alloc((size_t)n * dnnlk_dtype_size(st), 0), db = th_alloc((size_t)n * dnnlk_dtype_size(dt), 0);
    dnnlk_tensor s = vec1(sb.p, st, n), d = vec1(db.p, dt, n);
    uint64_t h;
    int ith;
    th_seed(77 + (uint64_t)c);
    fill_sources(sb.p, st, n);
    for (ith = 0; ith < nth; ith++) CHECK_EQ(dnnlk_convert(&s, &d, ith, nth), dnnlk_success);
    h = th_fnv1a(db.p, db.bytes);
    th_free(&sb), th_free(&db);
    return h;
}

TEST(same_bits_every_level_and_part_count) {
    static const int nths[] = {2, 3, 7, 0};
    uint64_t got[6][4];
    int ran[6][4], c, l, top = (int)dnnlk_cpu_isa();
    static const char *names[6] = {"f32->bf16", "f32->f16", "f64->bf16", "s64->f16", "f32->s8", "f16->boolean"};
    memset(got, 0, sizeof got), memset(ran, 0, sizeof ran);
    for (l = 0; l <= top; l++) {
        dnnlk_set_max_isa((dnnlk_isa)l);
        for (c = 0; c < 6; c++) {
            int level = (int)dnnlk_max_isa();
            got[c][level] = th_bits_parts_agree(bits_run, c, nths, names[c], level);
            ran[c][level] = 1;
        }
    }
    dnnlk_set_max_isa(dnnlk_isa_avx512);
    for (c = 0; c < 6; c++) th_bits_match_scalar(names[c], got[c], ran[c]);
}

int main(void) {
    RUN(infer_completes_dst);
    RUN(bad_arguments_write_nothing);
    RUN(in_place);
    RUN(empty_and_scalar);
    RUN(numpy_defined_cases);
    RUN_EACH_ISA(every_pair_against_reference);
    RUN_EACH_ISA(streamed_rows);
    RUN_EACH_ISA(random_layouts);
    RUN_EACH_ISA(transposes);
    RUN(packed4_pairs);
    RUN_EACH_ISA(tails_every_length);
    RUN_EACH_ISA(short_rows_packed);
    RUN(same_bits_every_level_and_part_count);
    return th_summary();
}
