/* argreduce.h: arg_max, arg_min and top_k against plain references, on every ISA and part count,
 * over random shapes, layouts (permuted, padded, negative and zero strides), dtypes and data full
 * of ties, NaNs, infinities and signed zeros; hand-computed cases; every bad argument. */
#include "harness.h"
#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#define HAVE_MXCSR 1
#else
#define HAVE_MXCSR 0
#endif

/* When set, the op calls (and, for arg ops, the reference) run with FTZ and DAZ on. */
static int g_daz;
static unsigned daz_on(void) {
#if HAVE_MXCSR
    unsigned old = _mm_getcsr();
    if (g_daz) _mm_setcsr(old | 0x8040u);
    return old;
#else
    return 0;
#endif
}
static void daz_off(unsigned old) {
#if HAVE_MXCSR
    _mm_setcsr(old);
#else
    (void)old;
#endif
}

/* ---- element access for the references ----
 * As a long double, which holds every s64 exactly (x87's 64-bit significand; quad precision on
 * aarch64). Floats pass through an SSE double on the way (the volatile keeps the compiler from
 * loading them into x87 directly), so the denormals-are-zero mode flushes them as the library's
 * compares do. */

static long double ld(const void *p, dnnlk_dtype t) {
    static volatile double one = 1.0;
    volatile double d;
    switch (t) {
    case dnnlk_f32: { float v; memcpy(&v, p, 4); d = v; return d; }
    case dnnlk_f64: { double v; memcpy(&v, p, 8); d = v * one; return d; }
    case dnnlk_s64: { int64_t v; memcpy(&v, p, 8); return (long double)v; }
    case dnnlk_u64: { uint64_t v; memcpy(&v, p, 8); return (long double)v; }
    case dnnlk_bf16: { uint16_t h; memcpy(&h, p, 2); d = dnnlk_bf16_to_f32(h); return d; }
    case dnnlk_f16: { uint16_t h; memcpy(&h, p, 2); d = dnnlk_f16_to_f32(h); return d; }
    case dnnlk_s32: { int32_t v; memcpy(&v, p, 4); return v; }
    case dnnlk_s8: { int8_t v; memcpy(&v, p, 1); return v; }
    case dnnlk_u8: { uint8_t v; memcpy(&v, p, 1); return v; }
    default: return 0;
    }
}

static void st_from_double(void *p, dnnlk_dtype t, double v) {
    switch (t) {
    case dnnlk_f32: { float f = (float)v; memcpy(p, &f, 4); } break;
    case dnnlk_f64: memcpy(p, &v, 8); break;
    case dnnlk_s64: { int64_t x = (int64_t)v; memcpy(p, &x, 8); } break;
    case dnnlk_u64: { uint64_t x = (uint64_t)v; memcpy(p, &x, 8); } break;
    case dnnlk_bf16: { uint16_t h = dnnlk_f32_to_bf16((float)v); memcpy(p, &h, 2); } break;
    case dnnlk_f16: { uint16_t h = dnnlk_f32_to_f16((float)v); memcpy(p, &h, 2); } break;
    case dnnlk_s32: { int32_t x = (int32_t)v; memcpy(p, &x, 4); } break;
    case dnnlk_s8: { int8_t x = (int8_t)v; memcpy(p, &x, 1); } break;
    case dnnlk_u8: { uint8_t x = (uint8_t)v; memcpy(p, &x, 1); } break;
    default: break;
    }
}

static int is_float(dnnlk_dtype t) { return t == dnnlk_f32 || t == dnnlk_bf16 || t == dnnlk_f16 || t == dnnlk_f64; }

/* "a is strictly better than b" for arg_max / arg_min: NaN beats every number for both. */
static int better(long double a, long double b, int is_min) {
    int an = a != a, bn = b != b;
    if (an || bn) return an && !bn;
    return is_min ? a < b : a > b;
}

/* ---- layouts ---- */

typedef struct lay {
    int64_t off;   /* element offset of index 0 from the buffer start */
    int64_t span;  /* elements the buffer needs */
} lay;

static void fill_values(void *base, dnnlk_dtype t, int64_t n, int style) {
    size_t es = dnnlk_dtype_size(t);
    int64_t i;
    for (i = 0; i < n; i++) {
        double v;
        uint32_t r = th_rand32();
        if (t == dnnlk_s64) {
            /* Values a double cannot tell apart (2^62 and more, neighbours one apart) and the ends. */
            int64_t x = style == 2 ? i : style == 3 ? -i : th_randint(-3, 3);
            if (style == 1 || (style == 0 && r % 4 == 0)) {
                x = (r >> 2) % 3 == 0 ? INT64_MAX - th_randint(0, 3)
                  : (r >> 2) % 3 == 1 ? INT64_MIN + th_randint(0, 3)
                                      : (int64_t)(th_rand64() >> (r % 2)) ^ (r % 5 == 0 ? INT64_MIN : 0);
                if (style == 0) x = (int64_t)0x4000000000000000ll + th_randint(-3, 3);
            }
            memcpy((char *)base + (size_t)i * es, &x, 8);
            continue;
        }
        if (t == dnnlk_u64) {
            /* Small values among values from 2^63 up (which a signed compare puts below them), one
             * apart around 2^63 and 2^64-1 (a double or a compare through one cannot tell them). */
            uint64_t x = style == 2 ? (uint64_t)i : style == 3 ? 0 - (uint64_t)i : (uint64_t)th_randint(0, 6);
            if (style == 1 || (style == 0 && r % 4 == 0)) {
                x = (r >> 2) % 3 == 0 ? UINT64_MAX - (uint64_t)th_randint(0, 3)
                  : (r >> 2) % 3 == 1 ? 0x8000000000000000ull + (uint64_t)th_randint(-3, 3)
                                      : th_rand64() >> (r % 2);
                if (style == 0) x = 0x8000000000000000ull + (uint64_t)th_randint(-3, 3);
            }
            memcpy((char *)base + (size_t)i * es, &x, 8);
            continue;
        }
        switch (style) {
        case 0: v = (double)th_randint(-3, 3); break;                /* many ties */
        case 1: v = is_float(t) ? th_randf(-100, 100) : (double)th_randint(-128, 127); break;
        case 2: v = (double)i; break;                                  /* ascending */
        case 4:                                                        /* zeros and denormals */
            if (!is_float(t)) { v = (double)th_randint(-3, 3); break; }
            {
                static const double band[6] = {0.0, -0.0, 1e-40, -1e-40, 1.1754944e-38, -1.0};
                if (r % 2) r = (r / 6) * 6 + r % 4; /* mostly the band around 0 */
                v = band[r % 6];
                if (r % 6 >= 2 && r % 6 <= 3) v *= 1 + (r >> 8) % 5;
                if (t == dnnlk_f64 && r % 6 >= 2 && r % 6 <= 4) v *= 1e-270; /* f64 denormals */
                if (t != dnnlk_f32 && (r % 6 == 2 || r % 6 == 3)) {
                    /* bf16/f16 denormals */
                    uint16_t h = (uint16_t)((r % 6 == 3 ? 0x8000u : 0) | (1 + (r >> 8) % 5));
                    memcpy((char *)base + (size_t)i * es, &h, 2);
                    continue;
                }
            }
            break;
        default: v = -(double)i; break;                                /* descending */
        }
        if (t == dnnlk_u8) v = v < 0 ? -v : v;
        if (t == dnnlk_s8 || t == dnnlk_u8) v = fmod(v, 100.0);
        if (is_float(t) && style <= 1) {
            if (r % 41 == 0) v = NAN;
            else if (r % 43 == 0) v = -NAN;
            else if (r % 37 == 0) v = INFINITY;
            else if (r % 31 == 0) v = -INFINITY;
            else if (r % 19 == 0) v = (r & 1) ? -0.0 : 0.0;
        }
        st_from_double((char *)base + (size_t)i * es, t, v);
    }
    if (is_float(t) && style <= 1 && n > 0 && th_rand32() % 3 == 0) {
        /* A NaN whose payload sits in the low bits only (survives as NaN in f32 and f16). */
        int64_t at = (int64_t)(th_rand64() % (uint64_t)n);
        if (t == dnnlk_f32) { uint32_t u = 0x7f800001u; memcpy((char *)base + at * 4, &u, 4); }
        else if (t == dnnlk_f64) { uint64_t u = 0xfff0000000000001ull; memcpy((char *)base + at * 8, &u, 8); }
        else if (t == dnnlk_f16) { uint16_t h = 0xfc01u; memcpy((char *)base + at * 2, &h, 2); }
        else { uint16_t h = 0x7f81u; memcpy((char *)base + at * 2, &h, 2); }
    }
}

#define NDT 9
static const dnnlk_dtype dtypes[NDT] = {dnnlk_f32, dnnlk_bf16, dnnlk_f16, dnnlk_s32, dnnlk_s8, dnnlk_u8, dnnlk_f64, dnnlk_s64,
                                        dnnlk_u64};
static const int parts[4] = {1, 2, 3, 7};

/* ---- a random case, shared by arg ops and top_k ---- */

typedef struct rcase {
    int nd, axis;
    int64_t dims[DNNLK_MAX_NDIMS];
    dnnlk_dtype t;
    th_buf sbuf;
    dnnlk_tensor src;
} rcase;

static void make_src(rcase *c, int nd, const int64_t *dims, dnnlk_dtype t, int style) {
    lay L;
    size_t es = dnnlk_dtype_size(t);
    int64_t n;
    c->nd = nd;
    c->t = t;
    memcpy(c->dims, dims, (size_t)nd * sizeof(int64_t));
    memset(&c->src, 0, sizeof c->src);
    c->src.dtype = t;
    c->src.ndims = nd;
    memcpy(c->src.dims, dims, (size_t)nd * sizeof(int64_t));
    L.span = th_random_layout(nd, dims, c->src.strides, 1, &L.off);
    n = th_numel(nd, dims) > 0 ? L.span : 0;
    c->sbuf = th_alloc((size_t)n * es, es * (size_t)(th_rand32() % 8));
    fill_values(c->sbuf.p, t, n, style);
    c->src.data = (char *)c->sbuf.p + L.off * (int64_t)es;
}

/* An output of shape (nd, dims): unknown strides (dense) or a random padded/permuted layout. */
typedef struct rout {
    dnnlk_tensor t;
    th_buf buf;
    int64_t off, span;
    unsigned char *expect;
} rout;

static void make_out(rout *o, int nd, const int64_t *dims, dnnlk_dtype t) {
    size_t es = dnnlk_dtype_size(t);
    int i;
    memset(&o->t, 0, sizeof o->t);
    o->t.dtype = t;
    o->t.ndims = nd;
    memcpy(o->t.dims, dims, (size_t)nd * sizeof(int64_t));
    if (th_rand32() % 2) {
        lay L;
        L.span = th_random_layout(nd, dims, o->t.strides, 0, &L.off);
        o->off = L.off;
        o->span = L.span;
    } else {
        for (i = 0; i < nd; i++) o->t.strides[i] = DNNLK_UNKNOWN;
        if (th_rand32() % 2) o->t.ndims = DNNLK_UNKNOWN;
        o->off = 0;
        o->span = th_numel(nd, dims);
        if (o->span == 0) o->span = 1;
    }
    o->buf = th_alloc((size_t)o->span * es, es * (size_t)(th_rand32() % 4));
    o->expect = (unsigned char *)malloc((size_t)o->span * es + 1);
    memset(o->expect, TH_GUARD_BYTE, (size_t)o->span * es + 1);
    o->t.data = (char *)o->buf.p + o->off * (int64_t)es;
}

/* Strides the op must have chosen for an output (after completion): the ones given or dense. */
static void out_strides(const rout *o, int nd, const int64_t *dims, int64_t *s) {
    if (o->t.ndims != DNNLK_UNKNOWN && nd > 0 && o->t.strides[0] != DNNLK_UNKNOWN) memcpy(s, o->t.strides, (size_t)nd * 8);
    else dnnlk_dense_strides(nd, dims, s);
}

static void put_expect(rout *o, int nd, const int64_t *dims, int64_t flat, const void *bytes) {
    int64_t s[DNNLK_MAX_NDIMS];
    size_t es = dnnlk_dtype_size(o->t.dtype);
    out_strides(o, nd, dims, s);
    memcpy(o->expect + (size_t)(o->off + th_offset(nd, dims, s, flat)) * es, bytes, es);
}

static void free_out(rout *o) {
    th_free(&o->buf);
    free(o->expect);
}

/* ---- arg_max / arg_min ---- */

static int64_t ref_arg(const rcase *c, int64_t opos, int is_min, int last) {
    /* opos: flat index over src dims without the axis */
    int64_t odims[DNNLK_MAX_NDIMS], ostr[DNNLK_MAX_NDIMS], base, K, sa, k, best = 0;
    int i, n = 0;
    size_t es = dnnlk_dtype_size(c->t);
    if (c->nd == 0) return 0;
    for (i = 0; i < c->nd; i++)
        if (i != c->axis) odims[n] = c->dims[i], ostr[n] = c->src.strides[i], n++;
    base = th_offset(n, odims, ostr, opos);
    K = c->dims[c->axis];
    sa = c->src.strides[c->axis];
    for (k = 1; k < K; k++) {
        long double v = ld((const char *)c->src.data + (base + k * sa) * (int64_t)es, c->t);
        long double b = ld((const char *)c->src.data + (base + best * sa) * (int64_t)es, c->t);
        if (better(v, b, is_min) || (last && !better(b, v, is_min))) best = k;
    }
    return best;
}

static void run_arg_case(int nd, const int64_t *dims, int axis, dnnlk_dtype t, int style) {
    rcase c;
    int64_t odims[DNNLK_MAX_NDIMS], onum, f;
    int ond = 0, i, keep = (int)(th_rand32() % 2), want_vals = (int)(th_rand32() % 2), pi;
    dnnlk_dtype it = th_rand32() % 2 ? dnnlk_s32 : dnnlk_s64;
    make_src(&c, nd, dims, t, style);
    c.axis = nd ? (axis < 0 ? axis + nd : axis) : 0;
    for (i = 0; i < nd; i++) {
        if (i == c.axis) { if (keep) odims[ond++] = 1; }
        else odims[ond++] = dims[i];
    }
    onum = th_numel(ond, odims);
    for (pi = 0; pi < 8; pi++) {
        int is_min = pi & 1, last = (pi >> 1) & 1, nth = parts[(pi >> 2) * 2 + (int)(th_rand32() % 2)];
        rout io, vo;
        int ith, ok = 1;
        size_t ies = dnnlk_dtype_size(it), es = dnnlk_dtype_size(t);
        dnnlk_status st;
        unsigned csr;
        make_out(&io, ond, odims, it);
        if (want_vals) make_out(&vo, ond, odims, t);
        csr = daz_on(); /* arg ops compare as the FPU does: the reference too */
        for (f = 0; f < onum; f++) {
            int64_t k = ref_arg(&c, f, is_min, last);
            unsigned char b[8];
            if (it == dnnlk_s64) memcpy(b, &k, 8);
            else { int32_t k32 = (int32_t)k; memcpy(b, &k32, 4); }
            put_expect(&io, ond, odims, f, b);
            if (want_vals) {
                /* the element at the index, by bits */
                int64_t sdims[DNNLK_MAX_NDIMS], sstr[DNNLK_MAX_NDIMS], base;
                int n = 0;
                for (i = 0; i < nd; i++)
                    if (i != c.axis) sdims[n] = dims[i], sstr[n] = c.src.strides[i], n++;
                base = th_offset(n, sdims, sstr, f) + (nd ? k * c.src.strides[c.axis] : 0);
                put_expect(&vo, ond, odims, f, (const char *)c.src.data + base * (int64_t)es);
            }
        }
        for (ith = 0; ith < nth; ith++) {
            dnnlk_tensor ti = io.t, tv = want_vals ? vo.t : io.t;
            st = is_min ? dnnlk_arg_min(&c.src, axis, keep, last, want_vals ? &tv : NULL, &ti, ith, nth)
                        : dnnlk_arg_max(&c.src, axis, keep, last, want_vals ? &tv : NULL, &ti, ith, nth);
            if (st != dnnlk_success) ok = 0;
            CHECK_MSG(st == dnnlk_success, "status %s", dnnlk_status_str(st));
        }
        daz_off(csr);
        ok = ok && memcmp(io.buf.p, io.expect, (size_t)io.span * ies) == 0 && th_guards_ok(&io.buf);
        if (want_vals) ok = ok && memcmp(vo.buf.p, vo.expect, (size_t)vo.span * es) == 0 && th_guards_ok(&vo.buf);
        CHECK_MSG(ok, "arg_%s %s nd=%d axis=%d K=%lld keep=%d last=%d nth=%d style=%d idx=%s vals=%d", is_min ? "min" : "max",
                  dnnlk_dtype_name(t), nd, axis, (long long)(nd ? dims[c.axis] : 1), keep, last, nth, style,
                  dnnlk_dtype_name(it), want_vals);
        free_out(&io);
        if (want_vals) free_out(&vo);
    }
    th_free(&c.sbuf);
}

static const int64_t K_sizes[] = {1, 2, 3, 5, 7, 8, 15, 16, 17, 31, 32, 33, 47, 63, 64, 65, 100, 129, 257, 1000};

TEST(arg_random_each_isa) {
    long n = th_scaled(500), r;
    th_seed(0x1234);
    for (r = 0; r < n; r++) {
        int nd = (int)th_randint(0, 4), i, axis;
        int64_t dims[DNNLK_MAX_NDIMS];
        for (i = 0; i < nd; i++) dims[i] = th_rand32() % 3 ? th_randint(1, 6) : th_randint(0, 40);
        axis = nd ? (int)th_randint(-nd, nd - 1) : (int)th_randint(-1, 0);
        if (nd && th_rand32() % 2) dims[axis < 0 ? axis + nd : axis] = K_sizes[th_rand32() % 20];
        if (nd && dims[axis < 0 ? axis + nd : axis] == 0) dims[axis < 0 ? axis + nd : axis] = 1;
        run_arg_case(nd, dims, axis, dtypes[th_rand32() % NDT], (int)(th_rand32() % 4));
    }
}

/* The SIMD paths: long contiguous rows (horizontal) and many contiguous neighbours with a strided
 * axis (vertical), with the maximum in every position class. */
TEST(arg_long_rows_each_isa) {
    int di, s;
    th_seed(77);
    for (di = 0; di < NDT; di++)
        for (s = 0; s < 4; s++) {
            int64_t d1[2] = {3, 1000 + s * 37}, d2[3] = {2, 300, 40 + s};
            run_arg_case(2, d1, 1, dtypes[di], s);
            run_arg_case(3, d2, 1, dtypes[di], s);
            run_arg_case(3, d2, 0, dtypes[di], s);
        }
}

TEST(arg_hand_cases_each_isa) {
    /* ties, NaN (first NaN wins for max AND min; last NaN with select_last_index), signed zeros */
    float x[12] = {1, 5, -2, 5, NAN, 3, NAN, -7, -7, 0.0f, -0.0f, 5};
    int64_t d = 12, idx;
    dnnlk_tensor s = th_tensor(x, dnnlk_f32, 1, &d), o;
    float val;
    dnnlk_tensor v;
    int64_t od = 0;
    o = th_tensor(&idx, dnnlk_s64, 0, &od);
    v = th_tensor(&val, dnnlk_f32, 0, &od);
    CHECK_EQ(dnnlk_arg_max(&s, 0, 0, 0, NULL, &o, 0, 1), dnnlk_success); CHECK_EQ(idx, 4);
    CHECK_EQ(dnnlk_arg_max(&s, 0, 0, 1, NULL, &o, 0, 1), dnnlk_success); CHECK_EQ(idx, 6);
    CHECK_EQ(dnnlk_arg_min(&s, -1, 0, 0, &v, &o, 0, 1), dnnlk_success); CHECK_EQ(idx, 4); CHECK(val != val);
    CHECK_EQ(dnnlk_arg_min(&s, 0, 0, 1, NULL, &o, 0, 1), dnnlk_success); CHECK_EQ(idx, 6);
    s.dims[0] = 4; /* {1,5,-2,5}: ties */
    CHECK_EQ(dnnlk_arg_max(&s, 0, 0, 0, &v, &o, 0, 1), dnnlk_success); CHECK_EQ(idx, 1); CHECK(val == 5);
    CHECK_EQ(dnnlk_arg_max(&s, 0, 0, 1, NULL, &o, 0, 1), dnnlk_success); CHECK_EQ(idx, 3);
    CHECK_EQ(dnnlk_arg_min(&s, 0, 0, 0, NULL, &o, 0, 1), dnnlk_success); CHECK_EQ(idx, 2);
    s.data = x + 7; s.dims[0] = 4; /* {-7,-7,0,-0} */
    CHECK_EQ(dnnlk_arg_min(&s, 0, 0, 0, NULL, &o, 0, 1), dnnlk_success); CHECK_EQ(idx, 0);
    CHECK_EQ(dnnlk_arg_min(&s, 0, 0, 1, NULL, &o, 0, 1), dnnlk_success); CHECK_EQ(idx, 1);
    s.data = x + 9; s.dims[0] = 2; /* {+0, -0} are equal */
    CHECK_EQ(dnnlk_arg_max(&s, 0, 0, 0, &v, &o, 0, 1), dnnlk_success); CHECK_EQ(idx, 0); CHECK(!signbit(val));
    CHECK_EQ(dnnlk_arg_max(&s, 0, 0, 1, &v, &o, 0, 1), dnnlk_success); CHECK_EQ(idx, 1); CHECK(signbit(val));
    /* 2-D, both axes, s32 indices, keep_dims: [[3,9,9],[9,1,2]] */
    {
        int32_t m[6] = {3, 9, 9, 9, 1, 2}, ix[3];
        int64_t md[2] = {2, 3}, od1[2] = {1, 3};
        dnnlk_tensor ms = th_tensor(m, dnnlk_s32, 2, md), mo = th_tensor(ix, dnnlk_s32, 2, od1);
        CHECK_EQ(dnnlk_arg_max(&ms, 0, 1, 0, NULL, &mo, 0, 1), dnnlk_success);
        CHECK(ix[0] == 1 && ix[1] == 0 && ix[2] == 0);
        CHECK_EQ(dnnlk_arg_max(&ms, -2, 1, 1, NULL, &mo, 0, 1), dnnlk_success);
        CHECK(ix[0] == 1 && ix[1] == 0 && ix[2] == 0);
        mo.ndims = 1; mo.dims[0] = 2; mo.strides[0] = 1;
        CHECK_EQ(dnnlk_arg_max(&ms, 1, 0, 0, NULL, &mo, 0, 1), dnnlk_success);
        CHECK(ix[0] == 1 && ix[1] == 0);
        CHECK_EQ(dnnlk_arg_max(&ms, 1, 0, 1, NULL, &mo, 0, 1), dnnlk_success);
        CHECK(ix[0] == 2 && ix[1] == 0);
        CHECK_EQ(dnnlk_arg_min(&ms, 1, 0, 0, NULL, &mo, 0, 1), dnnlk_success);
        CHECK(ix[0] == 0 && ix[1] == 1);
    }
    /* 0-d source */
    {
        float one = 2.5f;
        dnnlk_tensor z = th_tensor(&one, dnnlk_f32, 0, &od);
        idx = 99;
        CHECK_EQ(dnnlk_arg_max(&z, 0, 0, 0, &v, &o, 0, 1), dnnlk_success); CHECK_EQ(idx, 0); CHECK(val == 2.5f);
        CHECK_EQ(dnnlk_arg_max(&z, -1, 1, 0, NULL, &o, 0, 1), dnnlk_success);
    }
}

/* u64 by hand: 2^63 and above are the largest values (a signed compare makes them the smallest),
 * neighbours one apart (a compare through double merges them). */
TEST(u64_hand_cases_each_isa) {
    static const uint64_t x[8] = {5, 0x8000000000000000ull, 0xfffffffffffffffeull, 0x7fffffffffffffffull,
                                  0xffffffffffffffffull, 0x8000000000000001ull, 0, 0xffffffffffffffffull};
    int64_t d = 8, od = 0, kd = 3, idx, ix[3];
    uint64_t val, v[3];
    dnnlk_tensor s = th_tensor((void *)x, dnnlk_u64, 1, &d), o = th_tensor(&idx, dnnlk_s64, 0, &od);
    dnnlk_tensor vo = th_tensor(&val, dnnlk_u64, 0, &od), tv = th_tensor(v, dnnlk_u64, 1, &kd), ti = th_tensor(ix, dnnlk_s64, 1, &kd);
    CHECK_EQ(dnnlk_arg_max(&s, 0, 0, 0, &vo, &o, 0, 1), dnnlk_success);
    CHECK_EQ(idx, 4); CHECK(val == 0xffffffffffffffffull);
    CHECK_EQ(dnnlk_arg_max(&s, 0, 0, 1, NULL, &o, 0, 1), dnnlk_success); CHECK_EQ(idx, 7);
    CHECK_EQ(dnnlk_arg_min(&s, 0, 0, 0, &vo, &o, 0, 1), dnnlk_success); CHECK_EQ(idx, 6); CHECK(val == 0);
    CHECK_EQ(dnnlk_top_k(&s, 3, 0, 1, 1, &tv, &ti, NULL, 0, 1), dnnlk_success);
    CHECK(ix[0] == 4 && ix[1] == 7 && ix[2] == 2);
    CHECK(v[0] == 0xffffffffffffffffull && v[2] == 0xfffffffffffffffeull);
    CHECK_EQ(dnnlk_top_k(&s, 3, 0, 0, 1, &tv, &ti, NULL, 0, 1), dnnlk_success); /* smallest */
    CHECK(ix[0] == 6 && ix[1] == 0 && ix[2] == 3);
    CHECK_EQ(dnnlk_top_k(&s, 3, 0, 1, 0, &tv, &ti, NULL, 0, 1), dnnlk_success); /* unsorted: index order */
    CHECK(ix[0] == 2 && ix[1] == 4 && ix[2] == 7);
    /* 2^63 against 2^63 + 1 and 2^63 - 1 */
    d = 3;
    s = th_tensor((void *)(x + 1), dnnlk_u64, 1, &d);
    CHECK_EQ(dnnlk_arg_max(&s, 0, 0, 0, NULL, &o, 0, 1), dnnlk_success); CHECK_EQ(idx, 1);
    s.data = (void *)(x + 3);
    CHECK_EQ(dnnlk_arg_min(&s, 0, 0, 0, NULL, &o, 0, 1), dnnlk_success); CHECK_EQ(idx, 0);
    CHECK_EQ(dnnlk_arg_max(&s, 0, 0, 0, NULL, &o, 0, 1), dnnlk_success); CHECK_EQ(idx, 1);
}

/* ---- top_k ---- */

static const long double *g_vals;
static int g_largest;

/* Stable order of the row: by value (NaN largest), then index. */
static int tk_cmp(const void *pa, const void *pb) {
    int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
    long double va = g_vals[a], vb = g_vals[b];
    int an = va != va, bn = vb != vb, c;
    if (an && bn) c = 0;
    else if (an) c = 1;  /* a is larger */
    else if (bn) c = -1;
    else c = va > vb ? 1 : (va < vb ? -1 : 0);
    if (g_largest) c = -c;
    if (c) return c;
    return a < b ? -1 : (a > b ? 1 : 0);
}
static int i64_cmp(const void *pa, const void *pb) {
    int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
    return a < b ? -1 : (a > b ? 1 : 0);
}

static void run_topk_case(int nd, const int64_t *dims, int axis, int64_t k, dnnlk_dtype t, int style) {
    rcase c;
    int64_t odims[DNNLK_MAX_NDIMS], rdims[DNNLK_MAX_NDIMS], rstr[DNNLK_MAX_NDIMS], K, nrows, row, inner, *order[2], *sel;
    long double *vals;
    int i, rn = 0, want_vals = (int)(th_rand32() % 2), pi, ax = axis < 0 ? axis + nd : axis;
    dnnlk_dtype it = th_rand32() % 2 ? dnnlk_s32 : dnnlk_s64;
    size_t es = dnnlk_dtype_size(t);
    void *ws = NULL;
    make_src(&c, nd, dims, t, style);
    c.axis = ax;
    for (i = 0; i < nd; i++) odims[i] = i == ax ? k : dims[i];
    for (i = 0; i < nd; i++)
        if (i != ax) rdims[rn] = dims[i], rstr[rn] = c.src.strides[i], rn++;
    K = dims[ax];
    nrows = th_numel(rn, rdims);
    inner = th_numel(nd - ax - 1, odims + ax + 1);
    /* The reference order of every row, for largest and smallest, computed once. */
    vals = (long double *)malloc((size_t)(K + 1) * sizeof(long double));
    order[0] = (int64_t *)malloc((size_t)(nrows * K + 1) * 8);
    order[1] = (int64_t *)malloc((size_t)(nrows * K + 1) * 8);
    sel = (int64_t *)malloc((size_t)(k + 1) * 8);
    for (row = 0; row < nrows; row++) {
        int64_t base = th_offset(rn, rdims, rstr, row), j, l;
        for (j = 0; j < K; j++) vals[j] = ld((const char *)c.src.data + (base + j * c.src.strides[ax]) * (int64_t)es, t);
        g_vals = vals;
        for (l = 0; l < 2; l++) {
            int64_t *o = order[l] + row * K;
            for (j = 0; j < K; j++) o[j] = j;
            g_largest = (int)l;
            qsort(o, (size_t)K, 8, tk_cmp);
        }
    }
    if (k > DNNLK_TOP_K_STACK_K) {
        size_t wb = 0;
        CHECK_EQ(dnnlk_top_k_workspace_bytes(k, 7, &wb), dnnlk_success);
        ws = malloc(wb);
    }
    for (pi = 0; pi < 8; pi++) {
        int largest = pi & 1, sorted = (pi >> 1) & 1, nth = parts[(pi >> 2) * 2 + (int)(th_rand32() % 2)];
        rout io, vo;
        int ith, ok = 1;
        size_t ies = dnnlk_dtype_size(it);
        dnnlk_status st;
        make_out(&io, nd, odims, it);
        if (want_vals) make_out(&vo, nd, odims, t);
        for (row = 0; row < nrows; row++) {
            /* flat output index of (row, axis index 0): outer * k * inner + inner index */
            int64_t outer = inner ? row / inner : 0, in = inner ? row % inner : 0, f0 = outer * k * inner + in, r;
            int64_t base = th_offset(rn, rdims, rstr, row);
            memcpy(sel, order[largest] + row * K, (size_t)k * 8);
            if (!sorted) qsort(sel, (size_t)k, 8, i64_cmp);
            for (r = 0; r < k; r++) {
                unsigned char b[8];
                if (it == dnnlk_s64) memcpy(b, &sel[r], 8);
                else { int32_t s32 = (int32_t)sel[r]; memcpy(b, &s32, 4); }
                put_expect(&io, nd, odims, f0 + r * inner, b);
                if (want_vals)
                    put_expect(&vo, nd, odims, f0 + r * inner,
                               (const char *)c.src.data + (base + sel[r] * c.src.strides[ax]) * (int64_t)es);
            }
        }
        {
            unsigned csr = daz_on(); /* top_k orders by bits: the reference stays exact */
            for (ith = 0; ith < nth; ith++) {
                dnnlk_tensor ti = io.t, tv = want_vals ? vo.t : io.t;
                st = dnnlk_top_k(&c.src, k, axis, largest, sorted, want_vals ? &tv : NULL, &ti, ws, ith, nth);
                if (st != dnnlk_success) ok = 0;
                CHECK_MSG(st == dnnlk_success, "status %s", dnnlk_status_str(st));
            }
            daz_off(csr);
        }
        ok = ok && memcmp(io.buf.p, io.expect, (size_t)io.span * ies) == 0 && th_guards_ok(&io.buf);
        if (want_vals) ok = ok && memcmp(vo.buf.p, vo.expect, (size_t)vo.span * es) == 0 && th_guards_ok(&vo.buf);
        CHECK_MSG(ok, "top_k %s nd=%d axis=%d K=%lld k=%lld largest=%d sorted=%d nth=%d style=%d", dnnlk_dtype_name(t), nd,
                  axis, (long long)K, (long long)k, largest, sorted, nth, style);
        free_out(&io);
        if (want_vals) free_out(&vo);
    }
    free(ws);
    free(vals);
    free(order[0]);
    free(order[1]);
    free(sel);
    th_free(&c.sbuf);
}

TEST(topk_random_each_isa) {
    long n = th_scaled(300), r;
    th_seed(0x5678);
    for (r = 0; r < n; r++) {
        int nd = (int)th_randint(1, 3), i, axis, ax;
        int64_t dims[DNNLK_MAX_NDIMS], k;
        for (i = 0; i < nd; i++) dims[i] = th_rand32() % 3 ? th_randint(1, 5) : th_randint(0, 20);
        axis = (int)th_randint(-nd, nd - 1);
        ax = axis < 0 ? axis + nd : axis;
        if (th_rand32() % 2) dims[ax] = th_rand32() % 3 ? K_sizes[th_rand32() % 20] : th_randint(200, 3000);
        k = th_rand32() % 2 ? th_randint(0, dims[ax] < 12 ? dims[ax] : 12) : th_randint(0, dims[ax]);
        run_topk_case(nd, dims, axis, k, dtypes[th_rand32() % NDT], (int)(th_rand32() % 4));
    }
}

TEST(topk_known_answer_each_isa) {
    /* VECTORS.md: top_k of {1,9,7,2,7,5,8,7,4}, k = 4 -> values {9,8,7,7}, indices {1,6,2,4} */
    float x[9] = {1, 9, 7, 2, 7, 5, 8, 7, 4}, v[4];
    int64_t d = 9, kd = 4, ix[4];
    int di;
    dnnlk_tensor s = th_tensor(x, dnnlk_f32, 1, &d), vo = th_tensor(v, dnnlk_f32, 1, &kd), io = th_tensor(ix, dnnlk_s64, 1, &kd);
    CHECK_EQ(dnnlk_top_k(&s, 4, 0, 1, 1, &vo, &io, NULL, 0, 1), dnnlk_success);
    CHECK(v[0] == 9 && v[1] == 8 && v[2] == 7 && v[3] == 7);
    CHECK(ix[0] == 1 && ix[1] == 6 && ix[2] == 2 && ix[3] == 4);
    /* not sorted: the same four in index order */
    CHECK_EQ(dnnlk_top_k(&s, 4, -1, 1, 0, &vo, &io, NULL, 0, 1), dnnlk_success);
    CHECK(ix[0] == 1 && ix[1] == 2 && ix[2] == 4 && ix[3] == 6);
    CHECK(v[0] == 9 && v[1] == 7 && v[2] == 7 && v[3] == 8);
    /* smallest */
    CHECK_EQ(dnnlk_top_k(&s, 4, 0, 0, 1, &vo, &io, NULL, 0, 1), dnnlk_success);
    CHECK(ix[0] == 0 && ix[1] == 3 && ix[2] == 8 && ix[3] == 5);
    /* every dtype, on a long row that takes the SIMD filter: the pattern repeated, 9 first */
    for (di = 0; di < NDT; di++) {
        dnnlk_dtype t = dtypes[di];
        size_t es = dnnlk_dtype_size(t);
        unsigned char buf[900 * 8], vb[4 * 8];
        int64_t n = 900, i;
        dnnlk_tensor ls, lv, li;
        for (i = 0; i < n; i++) st_from_double(buf + i * es, t, x[i % 9]);
        ls = th_tensor(buf, t, 1, &n);
        lv = th_tensor(vb, t, 1, &kd);
        li = th_tensor(ix, dnnlk_s64, 1, &kd);
        CHECK_EQ(dnnlk_top_k(&ls, 4, 0, 1, 1, &lv, &li, NULL, 0, 1), dnnlk_success);
        CHECK_MSG(ix[0] == 1 && ix[1] == 10 && ix[2] == 19 && ix[3] == 28, "%s: %lld %lld %lld %lld", dnnlk_dtype_name(t),
                  (long long)ix[0], (long long)ix[1], (long long)ix[2], (long long)ix[3]);
        CHECK(ld(vb, t) == 9 && ld(vb + 3 * es, t) == 9);
        CHECK_EQ(dnnlk_top_k(&ls, 4, 0, 0, 1, &lv, &li, NULL, 0, 1), dnnlk_success);
        CHECK(ix[0] == 0 && ix[1] == 9 && ix[2] == 18 && ix[3] == 27);
    }
}

TEST(topk_nan_and_zeros_each_isa) {
    float x[8] = {0.0f, NAN, -0.0f, 3, NAN, -INFINITY, INFINITY, 3}, v[8];
    int64_t d = 8, ix[8];
    int64_t k = 8;
    dnnlk_tensor s = th_tensor(x, dnnlk_f32, 1, &d), vo = th_tensor(v, dnnlk_f32, 1, &k), io = th_tensor(ix, dnnlk_s64, 1, &k);
    static const int64_t big[8] = {1, 4, 6, 3, 7, 0, 2, 5}, small[8] = {5, 0, 2, 3, 7, 6, 1, 4};
    int i;
    CHECK_EQ(dnnlk_top_k(&s, 8, 0, 1, 1, &vo, &io, NULL, 0, 1), dnnlk_success);
    for (i = 0; i < 8; i++) CHECK_EQ(ix[i], big[i]);
    CHECK_EQ(dnnlk_top_k(&s, 8, 0, 0, 1, &vo, &io, NULL, 0, 1), dnnlk_success);
    for (i = 0; i < 8; i++) CHECK_EQ(ix[i], small[i]);
    CHECK(signbit(v[2]) && !signbit(v[1]));
}

/* Denormals and zeros with FTZ/DAZ off and on: top_k keeps the exact order (a denormal above
 * +0), arg ops compare as the FPU does, and every ISA agrees. */
TEST(denormals_daz_each_isa) {
    int daz, r;
    th_seed(4242);
    for (daz = 0; daz < 2; daz++) {
        g_daz = daz;
        for (r = 0; r < (int)th_scaled(12); r++) {
            int64_t d2[2] = {3, th_randint(40, 700)}, d3[3] = {2, th_randint(2, 40), 33};
            dnnlk_dtype t = dtypes[r % 3];
            run_topk_case(2, d2, 1, th_randint(1, 20), t, 4);
            run_topk_case(3, d3, 1, th_randint(0, d3[1]), t, 4);
            run_arg_case(2, d2, 1, t, 4);
            run_arg_case(3, d3, 1, t, 4);
        }
    }
    g_daz = 0;
}

TEST(topk_large_k_workspace_each_isa) {
    int64_t dims[2] = {3, 1500};
    th_seed(99);
    run_topk_case(2, dims, 1, 700, dnnlk_f32, 1);
    run_topk_case(2, dims, 1, 1500, dnnlk_s8, 0);
    run_topk_case(2, dims, -1, 513, dnnlk_bf16, 2);
}

/* ---- the block edges of the one-pass scans ----
 * The contiguous arg scans work in blocks of four vectors (16, 32, 64 or 128 floats by level; the
 * max-only scan of rows from one block on: 32, 128 or 256) and end with a block overlapping the
 * one before it; top_k filters four vectors at a time against a
 * running threshold. Hand-made f32 rows put the extreme (a number, NaN, +-inf or a signed zero)
 * at two positions from a set that straddles every block and vector edge of every level, over
 * backgrounds of ties, -inf and ascending values, and check every mode against the definitions. */

/* arg_max/arg_min of x[0..K) by the definition (first or last of the best; NaN the best). */
static int64_t ref_arg_row(const float *x, int64_t K, int is_min, int last) {
    int64_t k, best = 0;
    for (k = 1; k < K; k++)
        if (better(x[k], x[best], is_min) || (last && !better(x[best], x[k], is_min))) best = k;
    return best;
}

static void check_edge_row(const float *x, int64_t K, int with_topk) {
    static const int64_t ks[5] = {1, 2, 50, -1, 0}; /* -1: K - 1, 0: K */
    long double *vals = (long double *)malloc((size_t)K * sizeof(long double));
    int64_t *order = (int64_t *)malloc((size_t)K * 8), *ix = (int64_t *)malloc((size_t)K * 8);
    int64_t *sel = (int64_t *)malloc((size_t)K * 8), j, od = 0, idx;
    float *v = (float *)malloc((size_t)K * 4);
    size_t wb = 0;
    void *ws = dnnlk_top_k_workspace_bytes(K, 1, &wb) == dnnlk_success && wb ? malloc(wb) : NULL;
    dnnlk_tensor s = th_tensor((void *)x, dnnlk_f32, 1, &K), o = th_tensor(&idx, dnnlk_s64, 0, &od);
    int mode, ki;
    for (mode = 0; mode < 4; mode++) {
        int is_min = mode & 1, last = mode >> 1;
        int64_t want = ref_arg_row(x, K, is_min, last);
        idx = -1;
        CHECK_EQ(is_min ? dnnlk_arg_min(&s, 0, 0, last, NULL, &o, 0, 1) : dnnlk_arg_max(&s, 0, 0, last, NULL, &o, 0, 1),
                 dnnlk_success);
        CHECK_MSG(idx == want, "arg_%s last=%d K=%lld: %lld, want %lld", is_min ? "min" : "max", last, (long long)K,
                  (long long)idx, (long long)want);
    }
    for (j = 0; j < K; j++) vals[j] = x[j];
    g_vals = vals;
    for (mode = 0; mode < 2 && with_topk; mode++) {
        g_largest = mode;
        for (j = 0; j < K; j++) order[j] = j;
        qsort(order, (size_t)K, 8, tk_cmp);
        for (ki = 0; ki < 5; ki++) {
            int64_t k = ks[ki] > 0 ? ks[ki] : K + ks[ki];
            dnnlk_tensor vo, io;
            int sorted, ok;
            if (k > K || k < 1) continue;
            vo = th_tensor(v, dnnlk_f32, 1, &k);
            io = th_tensor(ix, dnnlk_s64, 1, &k);
            for (sorted = 0; sorted < 2; sorted++) {
                CHECK_EQ(dnnlk_top_k(&s, k, 0, mode, sorted, &vo, &io, ws, 0, 1), dnnlk_success);
                memcpy(sel, order, (size_t)k * 8);
                if (!sorted) qsort(sel, (size_t)k, 8, i64_cmp); /* the same set in index order */
                for (ok = 1, j = 0; j < k && ok; j++) ok = ix[j] == sel[j];
                for (j = 0; j < k && ok; j++) ok = memcmp(&v[j], &x[ix[j]], 4) == 0;
                CHECK_MSG(ok, "top_k K=%lld k=%lld largest=%d sorted=%d", (long long)K, (long long)k, mode, sorted);
            }
        }
    }
    free(vals);
    free(order);
    free(ix);
    free(sel);
    free(v);
    free(ws);
}

TEST(block_edges_each_isa) {
    static const int64_t Ks[4] = {128, 129, 256 + 63, 1000};
    /* The extreme's value, and the background (0: ties in [-3, 3], 1: -inf, 2: ascending from -1e6,
     * 3: +inf, 4: ties then, from the last full block on, -inf). */
    const float ext[6] = {5.0f, NAN, INFINITY, -INFINITY, 0.0f, -0.0f};
    int ki, bg, ei;
    long rows = 0, keep = th_scaled(1000);
    th_seed(2727);
    for (ki = 0; ki < 4; ki++) {
        int64_t K = Ks[ki], pos[21], np = 0, a, b, j;
        float *x = (float *)malloc((size_t)K * 4);
        /* vector and block edges of every level (4 to 128 floats; the max-only scan's blocks of
         * 32 to 256), the start of the overlapping last block and the last elements */
        static const int64_t head[11] = {0, 1, 15, 16, 63, 64, 65, 127, 128, 255, 256};
        for (j = 0; j < 11; j++) pos[np++] = head[j];
        pos[np++] = K - 257;
        pos[np++] = K - 256;
        pos[np++] = K - 129;
        pos[np++] = K - 64;
        pos[np++] = K - 63;
        pos[np++] = K - 17;
        pos[np++] = K - 2;
        pos[np++] = K - 1;
        pos[np++] = th_randint(0, K - 1);
        for (bg = 0; bg < 5; bg++)
            for (ei = 0; ei < 6; ei++)
                for (a = 0; a < np; a++)
                    for (b = a; b < np; b++) {
                        int64_t pa = pos[a], pb = pos[b];
                        if (pa < 0 || pb < 0 || pa >= K || pb >= K) continue;
                        if (b > a + 2 && b != np - 1) continue; /* neighbours, and each with the random one */
                        if ((long)(th_rand32() % 1000) >= keep) continue; /* DNNLK_TEST_SCALE < 1: a sample */
                        if ((ei >= 2) != (bg == 1 || bg == 3) && (a + b) % 3) continue; /* fewer of the rarer mixes */
                        for (j = 0; j < K; j++)
                            x[j] = bg == 0 ? (float)th_randint(-3, 3)
                                 : bg == 1 ? -INFINITY
                                 : bg == 2 ? -1e6f + (float)j
                                 : bg == 3 ? INFINITY
                                 : (j < K / 64 * 64 - 64 ? (float)th_randint(-3, 3) : -INFINITY);
                        x[pa] = ext[ei];
                        x[pb] = ei >= 4 ? ext[9 - ei] : ext[ei]; /* +0 and -0 tie with each other */
                        check_edge_row(x, K, ++rows % 5 == 0); /* top_k's sort-based reference is slow */
                    }
        free(x);
    }
}

/* ---- the caller's floating-point state ----
 * On x86 the max-only scan watches for NaN through MXCSR's invalid flag (maxps raises it for a NaN
 * operand it may drop). A call must leave MXCSR exactly as it found it: an invalid flag the caller
 * had raised stays raised, one the scan raised does not show. Where the caller unmasked the invalid
 * exception the scan's max would trap on a NaN, so the row takes the compare path: no trap and the
 * same answer (AVX2 and AVX-512 built by gcc, whose compares are quiet; SSE4.1's compare forms,
 * the scalar level's C compares and clang's compares signal on NaN on either path, and the scalar
 * level, which needs no watch, leaves the flag its compares raise). f32, bf16 and f16 rows of one block and more,
 * with no NaN, a quiet, a negative and (flags only) a signalling NaN. */
#if defined(__clang__)
/* clang emits the signalling form of a quiet compare intrinsic (vcmpnleps for _CMP_NLE_UQ) unless
 * built for strict floating-point exceptions: with the invalid exception unmasked, a NaN traps in
 * any compare there */
#define QUIET_COMPARES_KEPT 0
#else
#define QUIET_COMPARES_KEPT 1
#endif
TEST(arg_fp_state_each_isa) {
#if HAVE_MXCSR
    static const int64_t Ks[3] = {256, 1000, 4099};
    static const uint32_t nans[3] = {0x7fc00000u, 0xffc00000u, 0x7f800001u}; /* quiet, negative, signalling */
    static const dnnlk_dtype ts[3] = {dnnlk_f32, dnnlk_bf16, dnnlk_f16};
    int ki, ti, v, st, mode;
    th_seed(515);
    for (ki = 0; ki < 3; ki++)
        for (ti = 0; ti < 3; ti++) {
            int64_t K = Ks[ki], j, want[4], od = 0, idx;
            dnnlk_dtype t = ts[ti];
            size_t es = dnnlk_dtype_size(t);
            float *x = (float *)malloc((size_t)K * 4);
            char *xt = (char *)malloc((size_t)K * es);
            dnnlk_tensor s = th_tensor(xt, t, 1, &K), o = th_tensor(&idx, dnnlk_s64, 0, &od);
            for (v = 0; v < 4; v++) { /* no NaN, then each NaN at a random place */
                for (j = 0; j < K; j++) {
                    st_from_double(xt + j * (int64_t)es, t, th_randf(-10, 10));
                    x[j] = (float)ld(xt + j * (int64_t)es, t);
                }
                if (v) {
                    int64_t at = th_randint(0, K - 1);
                    uint16_t h = (uint16_t)(t == dnnlk_bf16 ? (v == 1 ? 0x7fc0u : v == 2 ? 0xffc0u : 0x7f81u)
                                                            : (v == 1 ? 0x7e00u : v == 2 ? 0xfe00u : 0x7c01u));
                    if (t == dnnlk_f32) memcpy(xt + at * 4, &nans[v - 1], 4);
                    else memcpy(xt + at * 2, &h, 2);
                    x[at] = NAN;
                }
                for (mode = 0; mode < 4; mode++) want[mode] = ref_arg_row(x, K, mode & 1, mode >> 1);
                for (st = 0; st < 3; st++) { /* flags clear; the invalid flag set; invalid unmasked */
                    unsigned old = _mm_getcsr(), base = old & ~0x3fu, after;
                    unsigned before = st == 0 ? base : st == 1 ? base | 1u : base & ~0x80u;
                    if (st == 2 && (th_isa < dnnlk_isa_avx2 || v == 3 || QUIET_COMPARES_KEPT == 0)) continue;
                    for (mode = 0; mode < 4; mode++) {
                        dnnlk_status rs;
                        idx = -1;
                        _mm_setcsr(before);
                        rs = mode & 1 ? dnnlk_arg_min(&s, 0, 0, mode >> 1, NULL, &o, 0, 1)
                                      : dnnlk_arg_max(&s, 0, 0, mode >> 1, NULL, &o, 0, 1);
                        after = _mm_getcsr();
                        _mm_setcsr(old);
                        CHECK_EQ(rs, dnnlk_success);
                        /* the scalar level's C compares raise the flag as any C code's would */
                        if (th_isa > dnnlk_isa_scalar)
                            CHECK_MSG(after == before, "MXCSR %#x after the call, %#x before (dtype %d K=%lld nan %d)", after, before,
                                  (int)t, (long long)K, v);
                        CHECK_MSG(idx == want[mode], "arg_%s last=%d dtype %d K=%lld nan %d state %d: %lld, want %lld",
                                  mode & 1 ? "min" : "max", mode >> 1, (int)t, (long long)K, v, st,
                                  (long long)idx, (long long)want[mode]);
                    }
                }
            }
            free(x);
            free(xt);
        }
#else
    th_skip("x86's MXCSR only");
#endif
}

/* ---- top_k's two-pass rows ----
 * A contiguous row of at least about 4 x 16 x (2k + 64) elements at AVX-512 (fewer at narrower
 * levels) takes a threshold from the k-th best of per-block bests, then filters only the blocks
 * that reach it. Rows that break the threshold's argument go back to the one-pass filter: ties at
 * the threshold (every element tying it), a NaN anywhere (the block max does not keep it), a -inf
 * threshold, one in the band around 0; each must still give exactly the stable sort's first k. */
TEST(topk_two_pass_each_isa) {
    static const int64_t Ks[2] = {4096 + 64 * 3 + 5, 12345};
    long r, n = th_scaled(12);
    int ki, bg;
    th_seed(0x2b7a);
    for (ki = 0; ki < 2; ki++) {
        int64_t K = Ks[ki], j;
        float *x = (float *)malloc((size_t)K * 4);
        for (bg = 0; bg < 10; bg++) {
            for (j = 0; j < K; j++) {
                float u = th_randf(-10, 10);
                x[j] = bg == 1 ? 2.5f                                               /* all tie */
                     : bg == 3 ? -INFINITY
                     : bg == 4 ? (float)th_randint(-3, 3)                           /* heavy ties */
                     : bg == 6 ? (th_rand32() % 64 ? (float)th_randint(-1, 1) * 1e-40f : u) /* around 0 */
                     : bg == 7 ? -1e6f + (float)j                                  /* ascending */
                     : bg == 8 ? -1.0f - fabsf(u)                                  /* below 0 */
                     : bg == 9 ? 1.0f + fabsf(u)                                   /* above 0 */
                               : u;
            }
            if (bg >= 8) { /* the best blocks' bests are zeros of both signs, the first one alone in
                            * its sign: its block must count as much as the others (k = 1, 2) */
                x[3] = bg == 8 ? -0.0f : 0.0f;
                for (j = 5; j < 25; j += 4) x[64 * j + 7] = bg == 8 ? 0.0f : -0.0f;
            }
            if (bg == 2) /* NaN among the block bests: first, in the middle, last */
                for (j = 0; j < 3; j++) x[j == 0 ? 0 : j == 1 ? th_randint(1, K - 2) : K - 1] = NAN;
            if (bg == 3) /* a -inf row with fewer finite values than k = 50 */
                for (j = 0; j < 7; j++) x[th_randint(0, K - 1)] = th_randf(-1, 1);
            if (bg == 5) /* 60 copies of a value near the top: the threshold ties with many */
                for (j = 0; j < 60; j++) x[th_randint(0, K - 1)] = 9.99f;
            check_edge_row(x, K, 1);
        }
        free(x);
    }
    /* Every dtype, random layouts (contiguous or not), k up to the stack limit, with
     * denormals-are-zero off and on. */
    for (r = 0; r < n; r++) {
        int64_t d2[2] = {2, th_randint(4200, 9000)};
        int64_t k = r % 4 == 3 ? th_randint(1, DNNLK_TOP_K_STACK_K) : th_randint(1, 60);
        g_daz = (int)(r % 2);
        run_topk_case(2, d2, 1, k, dtypes[r % 6], (int)(th_rand32() % 5));
    }
    g_daz = 0;
    { /* A row of more than 2048 blocks of 64: blocks of 69 to 80 elements by level, filtered as a
       * word of 64 and a rest, more than 64 words at a time for k = 300 (the filter's words are
       * taken in batches of 64). Ties at the top across the words. The stable sorts are made
       * once, for every level. */
        enum { KL = 140000 };
        static float *xl;
        static int64_t *ord[2];
        static const int64_t kl[2] = {50, 300};
        static long double *lv;
        float vo[300];
        int64_t io[300], kk;
        int mode, sorted, ok;
        if (!xl) {
            xl = (float *)malloc(KL * 4);
            lv = (long double *)malloc(KL * sizeof(long double));
            th_seed(0x5e11);
            for (kk = 0; kk < KL; kk++) xl[kk] = th_randf(-10, 10);
            for (kk = 0; kk < 6; kk++) xl[th_randint(0, KL - 1)] = 10.5f; /* ties above the rest */
            for (kk = 0; kk < 6; kk++) xl[th_randint(0, KL - 1)] = -10.5f;
            for (kk = 0; kk < KL; kk++) lv[kk] = xl[kk];
            g_vals = lv;
            for (mode = 0; mode < 2; mode++) {
                ord[mode] = (int64_t *)malloc(KL * 8);
                for (kk = 0; kk < KL; kk++) ord[mode][kk] = kk;
                g_largest = mode;
                qsort(ord[mode], KL, 8, tk_cmp);
            }
        }
        for (mode = 0; mode < 2; mode++)
            for (ki = 0; ki < 2; ki++)
                for (sorted = 0; sorted < 2; sorted++) {
                    int64_t k = kl[ki], want[300], K = KL, j;
                    dnnlk_tensor s = th_tensor(xl, dnnlk_f32, 1, &K), tv = th_tensor(vo, dnnlk_f32, 1, &k);
                    dnnlk_tensor ti = th_tensor(io, dnnlk_s64, 1, &k);
                    CHECK_EQ(dnnlk_top_k(&s, k, 0, mode, sorted, &tv, &ti, NULL, 0, 1), dnnlk_success);
                    memcpy(want, ord[mode], (size_t)k * 8);
                    if (!sorted) qsort(want, (size_t)k, 8, i64_cmp);
                    for (ok = 1, j = 0; j < k && ok; j++) ok = io[j] == want[j] && memcmp(&vo[j], &xl[io[j]], 4) == 0;
                    CHECK_MSG(ok, "top_k K=%d k=%lld largest=%d sorted=%d", KL, (long long)k, mode, sorted);
                }
    }
}

/* ---- inference and bad arguments ---- */

TEST(infer_shapes) {
    int64_t sd[3] = {2, 5, 7};
    dnnlk_tensor s = th_tensor(NULL, dnnlk_f32, 3, sd), o, v;
    memset(&o, 0, sizeof o);
    o.dtype = dnnlk_s64;
    o.ndims = DNNLK_UNKNOWN;
    v = o;
    v.dtype = dnnlk_f32;
    CHECK_EQ(dnnlk_arg_max_infer(&s, 1, 0, &v, &o), dnnlk_success);
    CHECK(o.ndims == 2 && o.dims[0] == 2 && o.dims[1] == 7 && o.strides[0] == 7 && o.strides[1] == 1);
    CHECK(v.ndims == 2 && v.dims[1] == 7);
    o.ndims = DNNLK_UNKNOWN;
    CHECK_EQ(dnnlk_arg_min_infer(&s, -1, 1, NULL, &o), dnnlk_success);
    CHECK(o.ndims == 3 && o.dims[2] == 1 && o.dims[1] == 5 && o.strides[0] == 5);
    /* one stride 1, others unknown: that dim innermost */
    o.ndims = 3;
    o.dims[0] = o.dims[1] = o.dims[2] = DNNLK_UNKNOWN;
    o.strides[0] = 1; o.strides[1] = o.strides[2] = DNNLK_UNKNOWN;
    CHECK_EQ(dnnlk_top_k_infer(&s, 3, 1, NULL, &o), dnnlk_success);
    CHECK(o.dims[1] == 3 && o.strides[0] == 1 && o.strides[2] == 2 && o.strides[1] == 14);
    o.ndims = DNNLK_UNKNOWN;
    CHECK_EQ(dnnlk_top_k_infer(&s, 0, 2, NULL, &o), dnnlk_success);
    CHECK(o.dims[2] == 0);
}

typedef struct bad_env {
    float src[24];
    th_buf ib, vb;
    dnnlk_tensor s, o, v;
} bad_env;

static void bad_reset(bad_env *e) {
    int64_t sd[2] = {4, 6}, od[1] = {4};
    int i;
    for (i = 0; i < 24; i++) e->src[i] = (float)i;
    memset(e->ib.p, TH_GUARD_BYTE, e->ib.bytes);
    memset(e->vb.p, TH_GUARD_BYTE, e->vb.bytes);
    e->s = th_tensor(e->src, dnnlk_f32, 2, sd);
    e->o = th_tensor(e->ib.p, dnnlk_s64, 1, od);
    e->v = th_tensor(e->vb.p, dnnlk_f32, 1, od);
}

static int bad_untouched(bad_env *e, const dnnlk_tensor *o0, const dnnlk_tensor *v0) {
    size_t i;
    for (i = 0; i < e->ib.bytes; i++) if (((unsigned char *)e->ib.p)[i] != TH_GUARD_BYTE) return 0;
    for (i = 0; i < e->vb.bytes; i++) if (((unsigned char *)e->vb.p)[i] != TH_GUARD_BYTE) return 0;
    return th_guards_ok(&e->ib) && th_guards_ok(&e->vb) && memcmp(o0, &e->o, sizeof *o0) == 0 &&
           memcmp(v0, &e->v, sizeof *v0) == 0;
}

#define BAD(setup, call, want)                                                        \
    do {                                                                              \
        dnnlk_tensor o0_, v0_;                                                        \
        dnnlk_status st_;                                                             \
        bad_reset(&e);                                                                \
        setup;                                                                        \
        o0_ = e.o;                                                                    \
        v0_ = e.v;                                                                    \
        st_ = (call);                                                                 \
        CHECK_MSG(st_ == (want) && bad_untouched(&e, &o0_, &v0_), "%s / %s: got %s", #setup, #call, \
                  dnnlk_status_str(st_));                                             \
    } while (0)

TEST(bad_arguments) {
    bad_env e;
    e.ib = th_alloc(64, 0);
    e.vb = th_alloc(64, 0);
    /* arg ops */
    BAD((void)0, dnnlk_arg_max(NULL, 1, 0, 0, &e.v, &e.o, 0, 1), dnnlk_invalid_arguments);
    BAD((void)0, dnnlk_arg_max(&e.s, 1, 0, 0, &e.v, NULL, 0, 1), dnnlk_invalid_arguments);
    BAD((void)0, dnnlk_arg_max(&e.s, 2, 0, 0, &e.v, &e.o, 0, 1), dnnlk_invalid_arguments);
    BAD((void)0, dnnlk_arg_max(&e.s, -3, 0, 0, &e.v, &e.o, 0, 1), dnnlk_invalid_arguments);
    BAD((void)0, dnnlk_arg_max(&e.s, 1, 2, 0, &e.v, &e.o, 0, 1), dnnlk_invalid_arguments);
    BAD((void)0, dnnlk_arg_min(&e.s, 1, 0, 2, &e.v, &e.o, 0, 1), dnnlk_invalid_arguments);
    BAD((void)0, dnnlk_arg_min(&e.s, 1, 0, -1, &e.v, &e.o, 0, 1), dnnlk_invalid_arguments);
    BAD((void)0, dnnlk_arg_max(&e.s, 1, 0, 0, &e.v, &e.o, 1, 1), dnnlk_invalid_arguments);
    BAD((void)0, dnnlk_arg_max(&e.s, 1, 0, 0, &e.v, &e.o, -1, 2), dnnlk_invalid_arguments);
    BAD((void)0, dnnlk_arg_max(&e.s, 1, 0, 0, &e.v, &e.o, 0, 0), dnnlk_invalid_arguments);
    BAD(e.s.dtype = dnnlk_dtype_undef, dnnlk_arg_max(&e.s, 1, 0, 0, NULL, &e.o, 0, 1), dnnlk_invalid_data_type);
    BAD(e.s.dtype = dnnlk_boolean, dnnlk_arg_max(&e.s, 1, 0, 0, NULL, &e.o, 0, 1), dnnlk_invalid_data_type);
    BAD(e.o.dtype = dnnlk_f32, dnnlk_arg_max(&e.s, 1, 0, 0, NULL, &e.o, 0, 1), dnnlk_invalid_data_type);
    BAD(e.o.dtype = dnnlk_u8, dnnlk_arg_max(&e.s, 1, 0, 0, NULL, &e.o, 0, 1), dnnlk_invalid_data_type);
    BAD(e.v.dtype = dnnlk_bf16, dnnlk_arg_max(&e.s, 1, 0, 0, &e.v, &e.o, 0, 1), dnnlk_invalid_data_type);
    BAD(e.o.dims[0] = 6, dnnlk_arg_max(&e.s, 1, 0, 0, NULL, &e.o, 0, 1), dnnlk_invalid_shape);
    BAD(e.v.dims[0] = 3, dnnlk_arg_max(&e.s, 1, 0, 0, &e.v, &e.o, 0, 1), dnnlk_invalid_shape);
    BAD((void)0, dnnlk_arg_max(&e.s, 1, 1, 0, NULL, &e.o, 0, 1), dnnlk_invalid_shape); /* keep_dims wants 2 dims */
    BAD(e.s.dims[1] = 0, dnnlk_arg_max(&e.s, 1, 0, 0, NULL, &e.o, 0, 1), dnnlk_invalid_shape); /* empty axis */
    BAD(e.s.dims[0] = -2, dnnlk_arg_max(&e.s, 1, 0, 0, NULL, &e.o, 0, 1), dnnlk_invalid_shape);
    BAD(e.s.ndims = 13, dnnlk_arg_max(&e.s, 1, 0, 0, NULL, &e.o, 0, 1), dnnlk_invalid_shape);
    BAD(e.s.data = NULL, dnnlk_arg_max(&e.s, 1, 0, 0, NULL, &e.o, 0, 1), dnnlk_invalid_arguments);
    BAD(e.o.data = NULL, dnnlk_arg_max(&e.s, 1, 0, 0, NULL, &e.o, 0, 1), dnnlk_invalid_arguments);
    BAD(e.o.strides[0] = 0, dnnlk_arg_max(&e.s, 1, 0, 0, NULL, &e.o, 0, 1), dnnlk_invalid_arguments); /* self-overlap */
    BAD(e.v.data = e.ib.p, dnnlk_arg_max(&e.s, 1, 0, 0, &e.v, &e.o, 0, 1), dnnlk_invalid_arguments); /* outputs overlap */
    BAD(e.o.data = e.src + 2, dnnlk_arg_max(&e.s, 1, 0, 0, NULL, &e.o, 0, 1), dnnlk_invalid_arguments); /* over src */
    { /* values as src's own view (keep_dims: [4,1] over the first column): refused like any other
       * overlap, though an elementwise op would take it as in-place */
        int64_t vd[2] = {4, 1}, i, moved = 0;
        BAD(e.v = th_tensor(e.src, dnnlk_f32, 2, vd); e.v.strides[0] = 6; e.o.ndims = DNNLK_UNKNOWN,
            dnnlk_arg_max(&e.s, 1, 1, 0, &e.v, &e.o, 0, 1), dnnlk_invalid_arguments);
        for (i = 0; i < 24; i++) moved += e.src[i] != (float)i;
        CHECK(moved == 0);
    }
    BAD(e.s.strides[0] = DNNLK_UNKNOWN, dnnlk_arg_max(&e.s, 1, 0, 0, NULL, &e.o, 0, 1), dnnlk_invalid_shape);
    BAD((void)0, dnnlk_arg_max_infer(&e.s, 5, 0, &e.v, &e.o), dnnlk_invalid_arguments);
    BAD(e.o.dims[0] = 5, dnnlk_arg_min_infer(&e.s, 1, 0, &e.v, &e.o), dnnlk_invalid_shape);
    {
        float one = 1;
        int64_t od = 0;
        BAD(e.s = th_tensor(&one, dnnlk_f32, 0, &od), dnnlk_arg_max(&e.s, 1, 0, 0, NULL, &e.o, 0, 1), dnnlk_invalid_arguments);
    }
    /* top_k */
    {
        /* k = 0 is legal (the README's rule: size 0 means no work): outputs [2, 0], nothing written */
        float row[10] = {0};
        int64_t sd[2] = {2, 5}, zd[2] = {2, 0};
        int64_t guard[4] = {-5, -5, -5, -5};
        dnnlk_tensor rs = th_tensor(row, dnnlk_f32, 2, sd), ri = th_tensor(guard, dnnlk_s64, 2, zd);
        ri.ndims = DNNLK_UNKNOWN;
        CHECK_EQ(dnnlk_top_k_infer(&rs, 0, 1, NULL, &ri), dnnlk_success);
        CHECK(ri.ndims == 2 && ri.dims[0] == 2 && ri.dims[1] == 0);
        ri = th_tensor(guard, dnnlk_s64, 2, zd);
        CHECK_EQ(dnnlk_top_k(&rs, 0, 1, 1, 1, NULL, &ri, NULL, 0, 1), dnnlk_success);
        CHECK(guard[0] == -5 && guard[3] == -5);
    }
    BAD(e.o.dims[0] = 4, dnnlk_top_k(&e.s, 7, 1, 1, 1, NULL, &e.o, NULL, 0, 1), dnnlk_invalid_arguments); /* k > dim */
    BAD((void)0, dnnlk_top_k(&e.s, -1, 1, 1, 1, NULL, &e.o, NULL, 0, 1), dnnlk_invalid_arguments);
    BAD((void)0, dnnlk_top_k(&e.s, 4, 2, 1, 1, NULL, &e.o, NULL, 0, 1), dnnlk_invalid_arguments);
    BAD(e.o.ndims = DNNLK_UNKNOWN, dnnlk_top_k(&e.s, 4, 0, 2, 1, NULL, &e.o, NULL, 0, 1), dnnlk_invalid_arguments);
    BAD(e.o.ndims = DNNLK_UNKNOWN, dnnlk_top_k(&e.s, 4, 0, 1, -1, NULL, &e.o, NULL, 0, 1), dnnlk_invalid_arguments);
    BAD(e.o.ndims = DNNLK_UNKNOWN, dnnlk_top_k(&e.s, 4, 0, 1, 1, NULL, &e.o, NULL, 3, 3), dnnlk_invalid_arguments);
    BAD((void)0, dnnlk_top_k(&e.s, 4, 0, 1, 1, NULL, &e.o, NULL, 0, 1), dnnlk_invalid_shape); /* ndims 1 vs 2 */
    BAD(e.o.ndims = DNNLK_UNKNOWN; e.v.ndims = DNNLK_UNKNOWN; e.v.dtype = dnnlk_s32,
        dnnlk_top_k(&e.s, 2, 0, 1, 1, &e.v, &e.o, NULL, 0, 1), dnnlk_invalid_data_type);
    BAD(e.o.ndims = DNNLK_UNKNOWN, dnnlk_top_k_infer(&e.s, 9, 1, NULL, &e.o), dnnlk_invalid_arguments);
    {
        /* k above the stack limit without workspace: refused, nothing written */
        static float row[600];
        static int64_t outk[550];
        int64_t rd = 600, kd = 550, i;
        dnnlk_tensor rs = th_tensor(row, dnnlk_f32, 1, &rd), ro = th_tensor(outk, dnnlk_s64, 1, &kd), ro0 = ro;
        for (i = 0; i < 550; i++) outk[i] = -5;
        CHECK_EQ(dnnlk_top_k(&rs, 550, 0, 1, 1, NULL, &ro, NULL, 0, 1), dnnlk_invalid_arguments);
        for (i = 0; i < 550; i++) CHECK(outk[i] == -5);
        CHECK(memcmp(&ro, &ro0, sizeof ro) == 0);
        size_t wb = 99;
        CHECK_EQ(dnnlk_top_k_workspace_bytes(550, 2, &wb), dnnlk_success);
        CHECK(wb == (2 * 550 + 64) * 8 * 2);
        CHECK_EQ(dnnlk_top_k_workspace_bytes(DNNLK_TOP_K_STACK_K, 2, &wb), dnnlk_success);
        CHECK(wb == 0);
        /* sizes that do not fit a size_t are refused, not wrapped; bad arguments too; wb untouched */
        wb = 99;
        CHECK_EQ(dnnlk_top_k_workspace_bytes(INT64_MAX, 1, &wb), dnnlk_invalid_shape);
        CHECK_EQ(dnnlk_top_k_workspace_bytes((INT64_C(1) << 59), 2, &wb), dnnlk_invalid_shape);
        CHECK_EQ(dnnlk_top_k_workspace_bytes((INT64_C(1) << 40), INT32_MAX, &wb), dnnlk_invalid_shape);
        CHECK_EQ(dnnlk_top_k_workspace_bytes(-1, 1, &wb), dnnlk_invalid_arguments);
        CHECK_EQ(dnnlk_top_k_workspace_bytes(550, 0, &wb), dnnlk_invalid_arguments);
        CHECK_EQ(dnnlk_top_k_workspace_bytes(550, 1, NULL), dnnlk_invalid_arguments);
        CHECK(wb == 99);
        /* the largest k that fits: (2k + 64) * 8 = SIZE_MAX - 15; one more is 2^64 */
        CHECK_EQ(dnnlk_top_k_workspace_bytes((int64_t)((SIZE_MAX / 8 - 64) / 2), 1, &wb), dnnlk_success);
        CHECK(wb == SIZE_MAX - 15);
        CHECK_EQ(dnnlk_top_k_workspace_bytes((int64_t)((SIZE_MAX / 8 - 64) / 2) + 1, 1, &wb), dnnlk_invalid_shape);
        CHECK(wb == SIZE_MAX - 15);
    }
    th_free(&e.ib);
    th_free(&e.vb);
}

/* Found by tests/fuzz/fuzz_ops.c: the stride of a size-1 axis, or any stride of an empty tensor,
 * may be anything (the extent checks skip them), and the execute path multiplied the src axis
 * stride (and top_k's output axis strides) into byte strides before looking: signed overflow,
 * undefined (UBSan in the sanitizer build). Such strides are never stepped along. */
TEST(unused_huge_strides_each_isa) {
    float src[2] = {3.0f, 7.0f}, val[2] = {-1, -1};
    int64_t idx[2] = {-5, -5}, d21[2] = {2, 1}, d2[1] = {2}, d03[2] = {0, 3}, d0[1] = {0};
    dnnlk_tensor s = th_tensor(src, dnnlk_f32, 2, d21), o = th_tensor(idx, dnnlk_s64, 1, d2);
    dnnlk_tensor v = th_tensor(val, dnnlk_f32, 1, d2);
    s.strides[1] = INT64_MAX / 2; /* axis 1 has one element */
    CHECK_EQ(dnnlk_arg_max(&s, 1, 0, 0, &v, &o, 0, 1), dnnlk_success);
    CHECK(idx[0] == 0 && idx[1] == 0 && val[0] == 3.0f && val[1] == 7.0f);
    /* empty src: every stride unchecked */
    s = th_tensor(src, dnnlk_f32, 2, d03);
    s.strides[1] = INT64_MIN / 2, s.strides[0] = INT64_MAX;
    o = th_tensor(idx, dnnlk_s64, 1, d0);
    CHECK_EQ(dnnlk_arg_min(&s, 1, 0, 1, NULL, &o, 0, 1), dnnlk_success);
    /* top_k with k = 1: the outputs' axis has one element */
    s = th_tensor(src, dnnlk_f32, 2, d21);
    s.ndims = 2, s.dims[0] = 1, s.dims[1] = 2, s.strides[0] = INT64_MAX, s.strides[1] = 1;
    o = th_tensor(idx, dnnlk_s64, 2, d21);
    v = th_tensor(val, dnnlk_f32, 2, d21);
    o.dims[0] = v.dims[0] = 1, o.dims[1] = v.dims[1] = 1;
    o.strides[0] = v.strides[0] = 1;
    o.strides[1] = v.strides[1] = INT64_MAX / 3;
    idx[0] = -5;
    CHECK_EQ(dnnlk_top_k(&s, 1, 1, 1, 1, &v, &o, NULL, 0, 1), dnnlk_success);
    CHECK(idx[0] == 1 && val[0] == 7.0f);
}

int main(void) {
    RUN(infer_shapes);
    RUN(bad_arguments);
    RUN_EACH_ISA(arg_hand_cases_each_isa);
    RUN_EACH_ISA(u64_hand_cases_each_isa);
    RUN_EACH_ISA(topk_known_answer_each_isa);
    RUN_EACH_ISA(topk_nan_and_zeros_each_isa);
    RUN_EACH_ISA(arg_long_rows_each_isa);
    RUN_EACH_ISA(arg_random_each_isa);
    RUN_EACH_ISA(topk_random_each_isa);
    RUN_EACH_ISA(topk_large_k_workspace_each_isa);
    RUN_EACH_ISA(denormals_daz_each_isa);
    RUN_EACH_ISA(block_edges_each_isa);
    RUN_EACH_ISA(arg_fp_state_each_isa);
    RUN_EACH_ISA(topk_two_pass_each_isa);
    RUN_EACH_ISA(unused_huge_strides_each_isa);
    return th_summary();
}
