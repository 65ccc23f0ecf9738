/* libFuzzer target for the ops themselves (built and run for a bounded time by `make test` with
 * clang, beside fuzz_shape.c): select, convert, compare, logical (and not), one_hot, arg_max /
 * arg_min, quantize_linear / dequantize_linear and resize. From the input it builds small tensors
 * with good and bad descriptors (ranks, dims, strides: dense, permuted, padded, broadcast, flipped,
 * overlapping, overflowing; dtypes valid and not), each over its own malloc'd buffer of exactly the
 * bytes the descriptor addresses (64 bytes where that span overflows, which the op must refuse),
 * so ASan sees any access outside a tensor. It checks the contract, not only the absence of
 * crashes:
 *   - on an error status every output byte and every output descriptor is unchanged;
 *   - inputs are never written (unless the output is the same view, in-place);
 *   - what _infer refuses the execute function refuses, and on success the completed descriptor
 *     is the one _infer gives;
 *   - every ISA level gives the same bytes as the scalar level, and nth parts (2..7, called one
 *     after another) the same bytes as one part: every op here promises both. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../dnnl_kernels.h"

#include "fuzz_reader.h"

/* ---- values: a PRNG seeded by the input, and per-dtype palettes of the interesting ones ---- */

static uint64_t rng_state;
static uint64_t rnd(void) {
    uint64_t x = rng_state;
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    return rng_state = x;
}

static float pick_f32(void) {
    static const uint32_t bits[] = {0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x3f000000u, 0x40000000u,
                                    0x40400000u, 0x00000001u, 0x007fffffu, 0x7f800000u, 0xff800000u, 0x7fc00000u,
                                    0xffa00001u, 0x42ff0000u, 0xc3008000u, 0x501502f9u, 0x7f7fffffu, 0x3fc00000u};
    uint64_t k = rnd() % 24;
    uint32_t u = k < sizeof bits / sizeof bits[0] ? bits[k] : (uint32_t)rnd();
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static int64_t pick_int(void) {
    static const int64_t v[] = {0, 1, -1, 2, 3, -2, 5, 127, -128, 255, 32767, INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN};
    uint64_t k = rnd() % 20;
    return k < sizeof v / sizeof v[0] ? v[k] : (int64_t)rnd();
}

/* One element of dtype t at p (an index of one_hot: small, around +-depth). */
static void fill_elem(unsigned char *p, dnnlk_dtype t, int index_like) {
    switch (t) {
    case dnnlk_f32: { float f = pick_f32(); memcpy(p, &f, 4); } break;
    case dnnlk_f64: {
        double d = rnd() % 8 == 0 ? (double)(int64_t)rnd() * 1e-3 : (double)pick_f32();
        memcpy(p, &d, 8);
    } break;
    case dnnlk_f16: { uint16_t h = rnd() % 4 == 0 ? (uint16_t)rnd() : dnnlk_f32_to_f16(pick_f32()); memcpy(p, &h, 2); } break;
    case dnnlk_bf16: { uint16_t h = rnd() % 4 == 0 ? (uint16_t)rnd() : dnnlk_f32_to_bf16(pick_f32()); memcpy(p, &h, 2); } break;
    case dnnlk_s32: {
        int32_t v = index_like ? (int32_t)(rnd() % 19) - 9 : (int32_t)pick_int();
        memcpy(p, &v, 4);
    } break;
    case dnnlk_s64: case dnnlk_u64: {
        int64_t v = index_like ? (int64_t)(rnd() % 19) - 9 : pick_int();
        memcpy(p, &v, 8);
    } break;
    case dnnlk_boolean: { static const unsigned char b[] = {0, 1, 0, 1, 2, 255}; *p = b[rnd() % 6]; } break;
    case dnnlk_s16: case dnnlk_u16: { int16_t v = (int16_t)pick_int(); memcpy(p, &v, 2); } break;
    default: *p = (unsigned char)pick_int(); break;
    }
}

/* ---- descriptors and their buffers ---- */

static const dnnlk_dtype all_dtypes[] = {dnnlk_f32, dnnlk_bf16, dnnlk_f16, dnnlk_f64, dnnlk_s32, dnnlk_s8,
                                         dnnlk_u8, dnnlk_boolean, dnnlk_s64, dnnlk_u64, dnnlk_f8_e5m2,
                                         dnnlk_f8_e4m3, dnnlk_s4, dnnlk_u4, dnnlk_s16, dnnlk_u16,
                                         dnnlk_dtype_undef, (dnnlk_dtype)13, (dnnlk_dtype)99, (dnnlk_dtype)-1};
#define N_DTYPES ((int)(sizeof all_dtypes / sizeof all_dtypes[0]))

/* Mostly one of `good` (n of them), sometimes any dtype, valid or not. */
static dnnlk_dtype rd_dtype(reader *r, const dnnlk_dtype *good, int n) {
    uint8_t k = rd8(r);
    if (n > 0 && k < 224) return good[k % n];
    return all_dtypes[k % N_DTYPES];
}

/* A tensor with its own buffer: data points into buf (past the bytes negative strides reach). */
typedef struct tbuf {
    dnnlk_tensor t;
    unsigned char *buf, *copy;
    size_t n;
} tbuf;

/* Bytes per element as the ops address them (s4/u4 count as 1: their span is covered anyway). */
static int64_t esize_of(dnnlk_dtype t) {
    if (t == dnnlk_s4 || t == dnnlk_u4) return 1;
    return (int64_t)dnnlk_dtype_size(t);
}

/* [lo, hi) bytes of a descriptor relative to data, by checked arithmetic; 0 when not computable. */
static int span_of(const dnnlk_tensor *t, int64_t *lo, int64_t *hi) {
    int64_t l = 0, h = 0, m, es = esize_of(t->dtype);
    int i;
    if (t->ndims < 0 || t->ndims > DNNLK_MAX_NDIMS || es == 0) return 0;
    for (i = 0; i < t->ndims; i++)
        if (t->dims[i] < 0) return 0;
    for (i = 0; i < t->ndims; i++)
        if (t->dims[i] == 0) { *lo = *hi = 0; return 1; }
    if (t->dtype == dnnlk_s4 || t->dtype == dnnlk_u4) { /* packed: dense, two a byte (else refused) */
        int64_t numel = 1;
        for (i = 0; i < t->ndims; i++)
            if (__builtin_mul_overflow(numel, t->dims[i], &numel)) return 0;
        if (dnnlk__dense_rowmajor(t)) {
            *lo = 0;
            *hi = numel / 2 + (numel & 1);
            return 1;
        }
    }
    for (i = 0; i < t->ndims; i++) {
        if (t->dims[i] == 1) continue;
        if (__builtin_mul_overflow(t->dims[i] - 1, t->strides[i], &m) || __builtin_mul_overflow(m, es, &m)) return 0;
        if (m < 0 ? __builtin_add_overflow(l, m, &l) : __builtin_add_overflow(h, m, &h)) return 0;
    }
    if (__builtin_add_overflow(h, es, &h)) return 0;
    *lo = l;
    *hi = h;
    return 1;
}

#define MAX_SPAN ((int64_t)1 << 20)

static int too_big(int64_t lo, int64_t hi) {
    int64_t d;
    return __builtin_sub_overflow(hi, lo, &d) || d > MAX_SPAN;
}

/* Allocates b->t's buffer for its span (64 bytes where it is not computable); fill: values. A
 * computable span too large to allocate (only from dims with a huge count of elements) gets no
 * data, and so does a huge count: the op must refuse the tensor for that. */
static void alloc_buf(tbuf *b, int fill, int index_like) {
    int64_t lo = 0, hi = 64, es = esize_of(b->t.dtype), off;
    int big = 0;
    if (!span_of(&b->t, &lo, &hi)) lo = 0, hi = 64;
    else if (too_big(lo, hi)) lo = 0, hi = 64, big = 1;
    {   /* broadcast strides (0) keep the span of a huge count small: no data for that either */
        int64_t numel;
        if (dnnlk_shape_numel(b->t.ndims, b->t.dims, &numel) == dnnlk_success && numel > 65536) big = 1;
    }
    b->n = (size_t)(hi - lo);
    b->buf = (unsigned char *)malloc(b->n ? b->n : 1);
    REQUIRE(b->buf);
    b->copy = NULL;
    b->t.data = big ? NULL : b->buf - lo;
    if (!fill) return;
    if (es == 0 || b->t.dtype == dnnlk_s4 || b->t.dtype == dnnlk_u4) es = 1;
    for (off = 0; off + es <= (int64_t)b->n; off += es) {
        if (es == 1 && (b->t.dtype == dnnlk_s4 || b->t.dtype == dnnlk_u4 || dnnlk_dtype_size(b->t.dtype) == 0))
            b->buf[off] = (unsigned char)rnd();
        else fill_elem(b->buf + off, b->t.dtype, index_like);
    }
    for (; off < (int64_t)b->n; off++) b->buf[off] = (unsigned char)rnd();
}

static void free_buf(tbuf *b) {
    free(b->buf);
    free(b->copy);
    b->buf = b->copy = NULL;
}

/* Strides for dims of element size es by a layout chosen by k (dense, permuted, padded, flipped,
 * broadcast, overlapping, huge, unknown). A layout whose span is computable but too large to
 * allocate falls back to dense. */
static void rd_layout(reader *r, dnnlk_tensor *t) {
    int n = t->ndims, i, perm[DNNLK_MAX_NDIMS];
    uint8_t k = rd8(r);
    int64_t s = 1, lo, hi;
    if (n < 0 || n > DNNLK_MAX_NDIMS) {
        for (i = 0; i < DNNLK_MAX_NDIMS; i++) t->strides[i] = 1;
        return;
    }
    for (i = 0; i < n; i++) perm[i] = i;
    if (k % 8 == 1) /* permuted */
        for (i = n - 1; i > 0; i--) {
            int j = rd8(r) % (i + 1), x = perm[i];
            perm[i] = perm[j], perm[j] = x;
        }
    for (i = n - 1; i >= 0; i--) {
        int d = perm[i];
        int64_t dim = t->dims[d] > 0 && t->dims[d] < 64 ? t->dims[d] : 1;
        t->strides[d] = s;
        s *= dim + (k % 8 == 2 ? rd8(r) % 3 : 0); /* padded */
    }
    switch (k % 8) {
    case 3: for (i = 0; i < n; i++) if (rd8(r) & 1) t->strides[i] = -t->strides[i]; break; /* flipped */
    case 4: for (i = 0; i < n; i++) if (rd8(r) & 1) t->strides[i] = 0; break;              /* broadcast */
    case 5: for (i = 0; i < n; i++) t->strides[i] = rd8(r) % 3; break;                    /* overlapping */
    case 6: /* one huge stride */
        if (n > 0) {
            static const int64_t huge[] = {INT64_MAX, INT64_MIN, INT64_MAX / 2 + 1, (int64_t)1 << 40, -((int64_t)1 << 61)};
            t->strides[rd8(r) % n] = huge[rd8(r) % 5];
        }
        break;
    case 7: if (n > 0 && (k & 8)) t->strides[rd8(r) % n] = DNNLK_UNKNOWN; break;
    default: break;
    }
    if (span_of(t, &lo, &hi) && too_big(lo, hi)) {
        int64_t numel;
        if (dnnlk_shape_numel(n, t->dims, &numel) == dnnlk_success && numel <= 4096)
            dnnlk_dense_strides(n, t->dims, t->strides);
    }
}

/* A shape of rank 0..4 with dims 0..6, mostly; sometimes a bad rank or dim. */
static void rd_shape(reader *r, int *nd, int64_t *dims) {
    uint8_t k = rd8(r);
    int i;
    *nd = k < 248 ? k % 5 : (k & 1 ? -1 : (k & 2 ? DNNLK_MAX_NDIMS + 1 : DNNLK_MAX_NDIMS));
    for (i = 0; i < DNNLK_MAX_NDIMS; i++) {
        uint8_t d = rd8(r);
        dims[i] = d < 240 ? d % 7 : (d & 1 ? DNNLK_UNKNOWN : (d & 2 ? (int64_t)1 << 40 : (d & 4 ? INT64_MAX : -5)));
    }
}

/* An input over `base` (numpy broadcast variants of it, or a shape of its own), dtype from `good`. */
static void rd_input(reader *r, tbuf *b, int bnd, const int64_t *bdims, const dnnlk_dtype *good, int ngood,
                     int index_like) {
    uint8_t k = rd8(r);
    int i;
    memset(b, 0, sizeof *b);
    b->t.dtype = rd_dtype(r, good, ngood);
    if (k < 160) {
        b->t.ndims = bnd;
        for (i = 0; i < DNNLK_MAX_NDIMS; i++) b->t.dims[i] = bdims[i];
    } else if (k < 224 && bnd >= 0 && bnd <= DNNLK_MAX_NDIMS) { /* broadcastable: fewer dims, some 1 */
        int drop = rd8(r) % (bnd + 1);
        b->t.ndims = bnd - drop;
        for (i = 0; i < b->t.ndims; i++) b->t.dims[i] = rd8(r) % 3 == 0 ? 1 : bdims[i + drop];
    } else {
        rd_shape(r, &b->t.ndims, b->t.dims);
    }
    rd_layout(r, &b->t);
    alloc_buf(b, 1, index_like);
    if (rd8(r) == 255) b->t.data = NULL;
}

/* An output descriptor (no data yet): unknown rank, or known with unknown or given dims and
 * strides, or the shape `hint` (what _infer gave) with a layout of rd_layout's. */
static void rd_output(reader *r, dnnlk_tensor *t, dnnlk_dtype dt, const dnnlk_tensor *hint) {
    uint8_t k = rd8(r);
    int i;
    memset(t, 0, sizeof *t);
    t->dtype = dt;
    for (i = 0; i < DNNLK_MAX_NDIMS; i++) t->dims[i] = t->strides[i] = DNNLK_UNKNOWN;
    if (k < 96) {
        t->ndims = DNNLK_UNKNOWN;
    } else if (k < 192 && hint) {
        t->ndims = hint->ndims;
        for (i = 0; i < DNNLK_MAX_NDIMS; i++) t->dims[i] = hint->dims[i];
        if (k & 1) rd_layout(r, t);
        else if (t->ndims > 0 && (k & 2)) t->strides[rd8(r) % t->ndims] = 1; /* that dim innermost */
        if (k & 4 && t->ndims > 0) t->dims[rd8(r) % t->ndims] = DNNLK_UNKNOWN;
    } else {
        rd_shape(r, &t->ndims, t->dims);
        if (k & 1) rd_layout(r, t);
    }
}

/* ---- the ops ---- */

enum { OP_SELECT, OP_CONVERT, OP_COMPARE, OP_LOGICAL, OP_NOT, OP_ONE_HOT, OP_ARG_MAX, OP_ARG_MIN, OP_QUANT,
       OP_DEQUANT, OP_RESIZE, OP_COUNT };

typedef struct op_case {
    int op, sub, bcast, axis, keep, last, saturate, has_values, zp_null;
    int64_t depth, block;
    const void *on, *off;
    unsigned char onb[8], offb[8];
    tbuf in[3];
    int nin;
    dnnlk_resize_desc rd;
    int raxes[DNNLK_MAX_NDIMS + 1];
    float rscales[DNNLK_MAX_NDIMS + 1], roi[2 * (DNNLK_MAX_NDIMS + 1)];
    int64_t rsizes[DNNLK_MAX_NDIMS + 1];
} op_case;

#ifdef FUZZ_OPS_DEBUG
/* -DFUZZ_OPS_DEBUG: each call and its tensors on stderr, to read a crash input with. */
#include <stdio.h>
static void dump(const char *what, const dnnlk_tensor *t, size_t n, const void *buf) {
    int i;
    fprintf(stderr, "  %s: %s nd %d dims", what, dnnlk_dtype_name(t->dtype), t->ndims);
    for (i = 0; i < t->ndims && i < DNNLK_MAX_NDIMS; i++) fprintf(stderr, " %lld", (long long)t->dims[i]);
    fprintf(stderr, " strides");
    for (i = 0; i < t->ndims && i < DNNLK_MAX_NDIMS; i++) fprintf(stderr, " %lld", (long long)t->strides[i]);
    fprintf(stderr, " data %+lld bytes %zu\n", t->data && buf ? (long long)((const char *)t->data - (const char *)buf) : -1LL, n);
}
#endif

/* infer (execute = 0) or execute part ith of nth; o[0] the output (arg ops: indices), o[1] values. */
static dnnlk_status call(const op_case *c, dnnlk_tensor *o, int execute, int ith, int nth) {
    const dnnlk_tensor *a = &c->in[0].t, *b = &c->in[1].t, *z = &c->in[2].t;
    dnnlk_tensor *v = c->has_values ? &o[1] : NULL;
#ifdef FUZZ_OPS_DEBUG
    {
        int i;
        fprintf(stderr, "op %d sub %d exec %d part %d/%d axis %d keep %d last %d bcast %d depth %lld block %lld sat %d\n",
                c->op, c->sub, execute, ith, nth, c->axis, c->keep, c->last, c->bcast, (long long)c->depth,
                (long long)c->block, c->saturate);
        for (i = 0; i < c->nin; i++) dump("in", &c->in[i].t, c->in[i].n, c->in[i].buf);
        dump("out0", &o[0], 0, NULL);
        if (c->op == OP_ARG_MAX || c->op == OP_ARG_MIN) dump("out1", &o[1], 0, NULL);
        if (c->op == OP_RESIZE) {
            fprintf(stderr, "  resize mode %d coord %d nearest %d aspect %d antialias %d exclude %d a %g nroi %d naxes %d:",
                    c->rd.mode, c->rd.coord, c->rd.nearest, c->rd.keep_aspect, c->rd.antialias, c->rd.exclude_outside,
                    (double)c->rd.cubic_coeff_a, c->rd.nroi, c->rd.naxes);
            for (i = 0; i < c->rd.naxes && i <= DNNLK_MAX_NDIMS; i++)
                fprintf(stderr, " [axis %d scale %g size %lld]", c->rd.axes ? c->rd.axes[i] : i,
                        c->rd.scales ? (double)c->rd.scales[i] : -1.0, c->rd.sizes ? (long long)c->rd.sizes[i] : -1LL);
            fprintf(stderr, "\n");
        }
    }
#endif
    switch (c->op) {
    case OP_SELECT:
        return execute ? dnnlk_select(a, b, z, o, (dnnlk_broadcast)c->bcast, ith, nth)
                       : dnnlk_select_infer(a, b, z, o, (dnnlk_broadcast)c->bcast);
    case OP_CONVERT: return execute ? dnnlk_convert(a, o, ith, nth) : dnnlk_convert_infer(a, o);
    case OP_COMPARE:
        return execute ? dnnlk_compare((dnnlk_compare_op)c->sub, a, b, o, ith, nth)
                       : dnnlk_compare_infer((dnnlk_compare_op)c->sub, a, b, o);
    case OP_LOGICAL:
        return execute ? dnnlk_logical((dnnlk_logical_op)c->sub, a, b, o, ith, nth)
                       : dnnlk_logical_infer((dnnlk_logical_op)c->sub, a, b, o);
    case OP_NOT: return execute ? dnnlk_logical_not(a, o, ith, nth) : dnnlk_logical_not_infer(a, o);
    case OP_ONE_HOT:
        return execute ? dnnlk_one_hot(a, c->depth, c->axis, c->on, c->off, o, ith, nth)
                       : dnnlk_one_hot_infer(a, c->depth, c->axis, o);
    case OP_ARG_MAX:
        return execute ? dnnlk_arg_max(a, c->axis, c->keep, c->last, v, o, ith, nth)
                       : dnnlk_arg_max_infer(a, c->axis, c->keep, v, o);
    case OP_ARG_MIN:
        return execute ? dnnlk_arg_min(a, c->axis, c->keep, c->last, v, o, ith, nth)
                       : dnnlk_arg_min_infer(a, c->axis, c->keep, v, o);
    case OP_QUANT:
        return execute ? dnnlk_quantize_linear(a, b, c->zp_null ? NULL : z, c->axis, c->block, c->saturate, o, ith, nth)
                       : dnnlk_quantize_linear_infer(a, b, c->zp_null ? NULL : z, c->axis, c->block, c->saturate, o);
    case OP_DEQUANT:
        return execute ? dnnlk_dequantize_linear(a, b, c->zp_null ? NULL : z, c->axis, c->block, o, ith, nth)
                       : dnnlk_dequantize_linear_infer(a, b, c->zp_null ? NULL : z, c->axis, c->block, o);
    default: return execute ? dnnlk_resize(a, &c->rd, o, ith, nth) : dnnlk_resize_infer(a, &c->rd, o);
    }
}

static const dnnlk_dtype any_t[] = {dnnlk_f32, dnnlk_bf16, dnnlk_f16, dnnlk_f64, dnnlk_s32, dnnlk_s8,
                                    dnnlk_u8, dnnlk_boolean, dnnlk_s64, dnnlk_u64};
static const dnnlk_dtype arg_t[] = {dnnlk_f32, dnnlk_bf16, dnnlk_f16, dnnlk_f64, dnnlk_s32,
                                    dnnlk_s8, dnnlk_u8, dnnlk_s64, dnnlk_u64};
static const dnnlk_dtype cond_t[] = {dnnlk_boolean, dnnlk_u8, dnnlk_s8};
static const dnnlk_dtype idx_t[] = {dnnlk_s32, dnnlk_s64};
static const dnnlk_dtype flt_t[] = {dnnlk_f32, dnnlk_bf16, dnnlk_f16};
static const dnnlk_dtype q_t[] = {dnnlk_s8, dnnlk_u8, dnnlk_s8, dnnlk_u8, dnnlk_s16, dnnlk_u16,
                                  dnnlk_s4, dnnlk_u4, dnnlk_f8_e4m3, dnnlk_f8_e5m2};
static const dnnlk_dtype dq_t[] = {dnnlk_s8, dnnlk_u8, dnnlk_s8, dnnlk_u8, dnnlk_s16, dnnlk_u16,
                                   dnnlk_s4, dnnlk_u4, dnnlk_f8_e4m3, dnnlk_f8_e5m2, dnnlk_s32};
#define NOF(a) ((int)(sizeof a / sizeof a[0]))

/* A small signed value near the useful range, sometimes extreme. */
static int rd_small(reader *r, int lo, int hi) {
    uint8_t k = rd8(r);
    if (k >= 250) return k & 1 ? INT32_MIN : INT32_MAX;
    return lo + k % (hi - lo + 1);
}

/* Positive finite scales mostly (quantize requires them), sometimes 0, negative, inf or NaN. */
static void fill_scales(tbuf *s, reader *r) {
    static const float good[] = {1.0f, 0.5f, 0.1f, 3.0f, 1e-3f, 2.5f, 1e30f, 7.0f};
    static const float bad[] = {0.0f, -1.0f, 1e-40f, 3.4e38f * 10.0f};
    int64_t es = esize_of(s->t.dtype), off;
    int bad_one = rd8(r) >= 240;
    if (es == 0) return;
    for (off = 0; off + es <= (int64_t)s->n; off += es) {
        float f = good[rnd() % NOF(good)];
        if (bad_one && rnd() % 4 == 0) {
            uint32_t nan = 0x7fc00000u;
            if (rnd() % 5 == 4) memcpy(&f, &nan, 4);
            else f = bad[rnd() % NOF(bad)];
        }
        if (s->t.dtype == dnnlk_f32) memcpy(s->buf + off, &f, 4);
        else if (s->t.dtype == dnnlk_bf16) { uint16_t h = dnnlk_f32_to_bf16(f); memcpy(s->buf + off, &h, 2); }
        else if (s->t.dtype == dnnlk_f16) { uint16_t h = dnnlk_f32_to_f16(f); memcpy(s->buf + off, &h, 2); }
    }
}

/* Builds the case's inputs and attributes; returns the number of outputs (1 or 2) and their
 * dtypes in dt. */
static int build(reader *r, op_case *c, dnnlk_dtype *dt) {
    int bnd, i;
    int64_t bd[DNNLK_MAX_NDIMS];
    dnnlk_dtype t;
    rd_shape(r, &bnd, bd);
    switch (c->op) {
    case OP_SELECT:
        c->bcast = rd8(r) < 250 ? rd8(r) & 1 : 7;
        rd_input(r, &c->in[0], bnd, bd, cond_t, NOF(cond_t), 0);
        rd_input(r, &c->in[1], bnd, bd, any_t, NOF(any_t), 0);
        t = c->in[1].t.dtype;
        rd_input(r, &c->in[2], bnd, bd, &t, 1, 0);
        c->nin = 3;
        dt[0] = rd8(r) & 1 ? dnnlk_dtype_undef : rd_dtype(r, &t, 1);
        return 1;
    case OP_CONVERT:
        rd_input(r, &c->in[0], bnd, bd, any_t, NOF(any_t), 0);
        c->nin = 1;
        dt[0] = rd8(r) < 32 ? dnnlk_dtype_undef : rd_dtype(r, any_t, NOF(any_t));
        return 1;
    case OP_COMPARE: case OP_LOGICAL:
        c->sub = rd_small(r, 0, c->op == OP_COMPARE ? 6 : 3);
        rd_input(r, &c->in[0], bnd, bd, any_t, NOF(any_t), 0);
        t = c->in[0].t.dtype;
        if (c->op == OP_COMPARE) rd_input(r, &c->in[1], bnd, bd, &t, 1, 0);
        else rd_input(r, &c->in[1], bnd, bd, any_t, NOF(any_t), 0);
        c->nin = 2;
        dt[0] = rd8(r) & 1 ? dnnlk_dtype_undef : rd_dtype(r, cond_t, 1);
        return 1;
    case OP_NOT:
        rd_input(r, &c->in[0], bnd, bd, any_t, NOF(any_t), 0);
        c->nin = 1;
        dt[0] = rd8(r) & 1 ? dnnlk_dtype_undef : rd_dtype(r, cond_t, 1);
        return 1;
    case OP_ONE_HOT: {
        uint8_t k = rd8(r);
        rd_input(r, &c->in[0], bnd, bd, idx_t, NOF(idx_t), 1);
        c->nin = 1;
        c->depth = k < 240 ? 1 + k % 8 : (k & 1 ? 0 : (k & 2 ? -3 : INT64_MAX));
        c->axis = rd_small(r, -6, 5);
        dt[0] = rd_dtype(r, any_t, NOF(any_t));
        for (i = 0; i < 8; i++) c->onb[i] = (unsigned char)rnd(), c->offb[i] = (unsigned char)rnd();
        k = rd8(r);
        c->on = k & 1 ? c->onb : NULL;
        c->off = k & 2 ? c->offb : NULL;
        return 1;
    }
    case OP_ARG_MAX: case OP_ARG_MIN:
        rd_input(r, &c->in[0], bnd, bd, arg_t, NOF(arg_t), 0);
        c->nin = 1;
        c->axis = rd_small(r, -5, 4);
        c->keep = rd_small(r, 0, 1);
        c->last = rd_small(r, 0, 1);
        c->has_values = rd8(r) & 1;
        dt[0] = rd_dtype(r, idx_t, NOF(idx_t));
        dt[1] = rd_dtype(r, &c->in[0].t.dtype, 1);
        return 2;
    default: break;
    }
    if (c->op == OP_QUANT || c->op == OP_DEQUANT) {
        int dq = c->op == OP_DEQUANT, sn;
        uint8_t k = rd8(r);
        int64_t sd[DNNLK_MAX_NDIMS], numel;
        c->axis = rd_small(r, -5, 4);
        c->saturate = rd8(r) < 240 ? 1 : rd_small(r, 0, 2);
        c->block = k < 160 ? 0 : (k < 248 ? 1 + k % 5 : (k & 1 ? -1 : INT64_MAX));
        rd_input(r, &c->in[0], bnd, bd, dq ? dq_t : flt_t, dq ? NOF(dq_t) : NOF(flt_t), 0);
        /* x's dtype decides the quantized type of dequantize; quantize's is y's */
        dt[0] = dq ? rd_dtype(r, flt_t, NOF(flt_t)) : rd_dtype(r, q_t, NOF(q_t));
        t = dq ? c->in[0].t.dtype : dt[0];
        /* scale: 0-d, per axis (1-d of the axis' length or 1), or blocked (x's shape, the axis
         * divided by the block rounded up); sometimes any shape */
        {
            int a = c->axis < 0 ? c->axis + (bnd > 0 ? bnd : 1) : c->axis;
            uint8_t m = rd8(r);
            if (c->block > 0 && c->block < 64 && bnd > 0 && bnd <= DNNLK_MAX_NDIMS && a >= 0 && a < bnd && m < 200) {
                sn = bnd;
                for (i = 0; i < bnd; i++)
                    sd[i] = i == a && bd[i] >= 0 && bd[i] < 64 ? (bd[i] + c->block - 1) / c->block : bd[i];
            } else if (m < 100 || bnd <= 0 || bnd > DNNLK_MAX_NDIMS || a < 0 || a >= bnd) {
                sn = 0;
            } else if (m < 200) {
                sn = 1;
                sd[0] = m & 1 ? 1 : bd[a];
            } else {
                rd_shape(r, &sn, sd);
            }
        }
        memset(&c->in[1], 0, sizeof c->in[1]);
        c->in[1].t.dtype = rd_dtype(r, flt_t, NOF(flt_t));
        c->in[1].t.ndims = sn;
        for (i = 0; i < DNNLK_MAX_NDIMS; i++) c->in[1].t.dims[i] = i < sn ? sd[i] : 0;
        rd_layout(r, &c->in[1].t);
        alloc_buf(&c->in[1], 0, 0);
        fill_scales(&c->in[1], r);
        /* zero point: the scale's shape, the quantized dtype (fp8: zero mostly, as ONNX wants) */
        memset(&c->in[2], 0, sizeof c->in[2]);
        c->zp_null = rd8(r) & 1;
        c->in[2].t = c->in[1].t;
        c->in[2].t.dtype = rd_dtype(r, &t, 1);
        if ((c->in[2].t.dtype == dnnlk_s4 || c->in[2].t.dtype == dnnlk_u4) && /* dense, as packed data must be */
            dnnlk_shape_numel(c->in[2].t.ndims, c->in[2].t.dims, &numel) == dnnlk_success)
            dnnlk_dense_strides(c->in[2].t.ndims, c->in[2].t.dims, c->in[2].t.strides);
        else rd_layout(r, &c->in[2].t);
        alloc_buf(&c->in[2], 1, 0);
        if ((c->in[2].t.dtype == dnnlk_f8_e4m3 || c->in[2].t.dtype == dnnlk_f8_e5m2) && rd8(r) < 224)
            memset(c->in[2].buf, rd8(r) & 0x80, c->in[2].n);
        c->nin = 3;
        return 1;
    }
    /* resize */
    {
        uint8_t k = rd8(r);
        int na;
        rd_input(r, &c->in[0], bnd, bd, any_t, NOF(any_t), 0);
        c->nin = 1;
        memset(&c->rd, 0, sizeof c->rd);
        c->rd.mode = (dnnlk_resize_mode)(k < 248 ? (k % 3 == 2 && (rd8(r) & 1) ? 0 : k % 3) : 3);
        k = rd8(r);
        c->rd.coord = (dnnlk_resize_coord)(k < 252 ? k % 6 : 6);
        k = rd8(r);
        c->rd.nearest = (dnnlk_resize_nearest_round)(k < 252 ? k % 4 : 4);
        na = rd_small(r, -1, bnd > 0 ? bnd : 1);
        c->rd.naxes = na;
        if (na < 0 || na > DNNLK_MAX_NDIMS + 1) na = 0;
        for (i = 0; i < na; i++) {
            static const float sc[] = {1.0f, 2.0f, 0.5f, 1.5f, 3.0f, 0.75f, 0.34f, 0.0f, -1.0f, 1e-3f};
            uint8_t s = rd8(r);
            c->raxes[i] = rd8(r) < 240 ? (int)((bnd > 0 ? i : 0) - (s & 1 ? bnd : 0)) : rd_small(r, -9, 9);
            c->rscales[i] = s < 250 ? sc[(s >> 1) % 7] : sc[7 + s % 3];
            c->rsizes[i] = s < 250 ? (s >> 1) % 9 : -1;
            c->roi[i] = (rd8(r) % 5) * 0.25f - 0.25f;
            c->roi[na + i] = 1.0f + (rd8(r) % 5) * 0.25f - 0.5f;
        }
        k = rd8(r);
        c->rd.axes = k & 1 ? c->raxes : NULL;
        if (k & 2) c->rd.scales = c->rscales;
        else c->rd.sizes = c->rsizes;
        if (k >= 250) c->rd.scales = c->rscales, c->rd.sizes = c->rsizes;
        if (c->rd.coord == dnnlk_resize_tf_crop_and_resize || (k & 4)) c->rd.nroi = 2 * na, c->rd.roi = c->roi;
        c->rd.keep_aspect = (dnnlk_resize_aspect)(k & 8 ? rd_small(r, 0, 3) : 0);
        k = rd8(r);
        c->rd.antialias = k & 1 && c->rd.mode != dnnlk_resize_nearest;
        c->rd.exclude_outside = (k >> 1) & 1;
        c->rd.cubic_coeff_a = k & 4 ? -0.5f : 0.0f;
        c->rd.extrapolation_value = k & 8 ? 2.5f : -1.0f;
        if (k >= 252) c->rd.antialias = 2;
        dt[0] = rd8(r) < 240 ? c->in[0].t.dtype : rd_dtype(r, any_t, NOF(any_t));
        return 1;
    }
}

/* ---- the checks ---- */

typedef struct outset {
    dnnlk_tensor d[2];
    unsigned char *buf[2];
    size_t n[2];
} outset;

/* Output buffers of `sizes`, filled with the canary, descriptors `proto` pointed at them. */
static void out_alloc(outset *o, int nout, const dnnlk_tensor *proto, const size_t *n, const int64_t *lo) {
    int k;
    for (k = 0; k < nout; k++) {
        o->n[k] = n[k];
        o->buf[k] = (unsigned char *)malloc(n[k] ? n[k] : 1);
        REQUIRE(o->buf[k]);
        memset(o->buf[k], 0xa5 + k, n[k]);
        o->d[k] = proto[k];
        o->d[k].data = o->buf[k] - lo[k];
    }
}

static void out_free(outset *o, int nout) {
    int k;
    for (k = 0; k < nout; k++) free(o->buf[k]);
}

static int canary_intact(const outset *o, int nout) {
    int k;
    size_t i;
    for (k = 0; k < nout; k++)
        for (i = 0; i < o->n[k]; i++)
            if (o->buf[k][i] != (unsigned char)(0xa5 + k)) return 0;
    return 1;
}

/* Same bytes in both output sets, and the same descriptors but for data. */
static int same_outputs(const outset *a, const outset *b, int nout) {
    int k;
    for (k = 0; k < nout; k++) {
        dnnlk_tensor x = a->d[k], y = b->d[k];
        x.data = y.data = NULL;
        if (memcmp(&x, &y, sizeof x) != 0) return 0;
        if (memcmp(a->buf[k], b->buf[k], a->n[k]) != 0) return 0;
    }
    return 1;
}

static int inputs_intact(const op_case *c) {
    int i;
    for (i = 0; i < c->nin; i++)
        if (c->in[i].copy && memcmp(c->in[i].buf, c->in[i].copy, c->in[i].n) != 0) return 0;
    return 1;
}

#ifdef FUZZ_OPS_STATS
/* -DFUZZ_OPS_STATS: per op, the calls and the successes that reached the cross-level check, at
 * exit (replay a corpus to see what it reaches: fuzz_ops -runs=0 CORPUS). */
#include <stdio.h>
static long stat_calls[OP_COUNT], stat_ok[OP_COUNT], stat_big[OP_COUNT];
__attribute__((destructor)) static void stat_print(void) {
    int i;
    for (i = 0; i < OP_COUNT; i++) fprintf(stderr, "op %2d: %7ld calls, %7ld compared, %7ld of them of 32 or more elements\n", i,
                stat_calls[i], stat_ok[i], stat_big[i]);
}
#define STAT(a) a
#else
#define STAT(a)
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader r;
    op_case c;
    dnnlk_tensor proto[2], inf[2];
    dnnlk_dtype dt[2] = {dnnlk_f32, dnnlk_f32};
    outset A, B;
    size_t n[2] = {64, 64};
    int64_t lo[2] = {0, 0}, hi, numel;
    int nout, k, i, infer_ok, level, ith = 0, nth = 1, alias = -1, no_data[2] = {0, 0};
    dnnlk_status st;
    uint8_t pk;

    r.p = data;
    r.n = size;
    rng_state = 0x9e3779b97f4a7c15ull;
    for (i = 0; i < 8 && i < (int)size; i++) rng_state = rng_state * 31 + data[size - 1 - i] + 1;
    memset(&c, 0, sizeof c);
    c.op = rd8(&r) % OP_COUNT;
    nout = build(&r, &c, dt);
    STAT(stat_calls[c.op]++);

    /* Output descriptors: a first one, completed by _infer for a shape hint, then the real one. */
    for (k = 0; k < nout; k++) rd_output(&r, &proto[k], dt[k], NULL);
    memcpy(inf, proto, sizeof inf);
    if (call(&c, inf, 0, 0, 1) == dnnlk_success && rd8(&r) & 1)
        for (k = 0; k < nout; k++) rd_output(&r, &proto[k], dt[k], &inf[k]);
    memcpy(inf, proto, sizeof inf);
    infer_ok = call(&c, inf, 0, 0, 1) == dnnlk_success;
    for (k = 0; k < nout; k++) {
        n[k] = 64, lo[k] = 0;
        if (infer_ok && span_of(&inf[k], &lo[k], &hi) && !too_big(lo[k], hi)) n[k] = (size_t)(hi - lo[k]);
        else if (infer_ok && span_of(&inf[k], &lo[k], &hi)) n[k] = 0, lo[k] = 0, no_data[k] = 1; /* too big */
        else lo[k] = 0;
        /* fast inputs: an output of many elements (resize up 8x on 4 axes: 100K, cubic 256 taps
         * each, 20 s at -O0) gets no data, which the op must refuse */
        if (infer_ok && dnnlk_shape_numel(inf[k].ndims, inf[k].dims, &numel) == dnnlk_success && numel > 8192)
            no_data[k] = 1;
    }
    for (i = 0; i < c.nin; i++) {
        c.in[i].copy = (unsigned char *)malloc(c.in[i].n ? c.in[i].n : 1);
        REQUIRE(c.in[i].copy);
        memcpy(c.in[i].copy, c.in[i].buf, c.in[i].n);
    }

    pk = rd8(&r);
    level = pk & 3;
    if (pk >= 240) { /* a bad part */
        static const int bad[][2] = {{-1, 1}, {0, 0}, {1, 1}, {3, 2}, {0, -1}, {INT32_MIN, INT32_MAX}};
        ith = bad[pk % 6][0], nth = bad[pk % 6][1];
    }
    out_alloc(&A, nout, proto, n, lo);
    for (k = 0; k < nout; k++)
        if (no_data[k]) A.d[k].data = NULL;
    pk = rd8(&r);
    if (pk >= 248) { /* no data */
        A.d[0].data = NULL;
    } else if (pk >= 232 && c.in[0].t.data) { /* the output over input 0's memory, maybe its view */
        alias = 0;
        A.d[0].data = c.in[0].t.data;
        if (pk & 1) {
            for (i = 0; i < DNNLK_MAX_NDIMS; i++) A.d[0].dims[i] = c.in[0].t.dims[i], A.d[0].strides[i] = c.in[0].t.strides[i];
            A.d[0].ndims = c.in[0].t.ndims;
        }
    }
    {
        outset before = A;
        dnnlk_set_max_isa((dnnlk_isa)level);
        st = call(&c, A.d, 1, ith, nth);
        dnnlk_set_max_isa(dnnlk_isa_avx512);
        if (st != dnnlk_success) {
            REQUIRE(memcmp(A.d, before.d, sizeof(dnnlk_tensor) * (size_t)nout) == 0);
            REQUIRE(canary_intact(&A, nout));
            REQUIRE(inputs_intact(&c));
            goto done;
        }
    }
    /* success: _infer agreed, and completed the descriptors alike */
    REQUIRE(infer_ok || alias >= 0);
    if (alias >= 0 || A.d[0].data == NULL || (nout > 1 && A.d[1].data == NULL)) goto done;
    REQUIRE(inputs_intact(&c));
    for (k = 0; k < nout; k++) {
        dnnlk_tensor x = A.d[k];
        x.data = inf[k].data;
        REQUIRE(memcmp(&x, &inf[k], sizeof x) == 0);
    }
    STAT(stat_ok[c.op]++);
    STAT(stat_big[c.op] += dnnlk_shape_numel(A.d[0].ndims, A.d[0].dims, &numel) == dnnlk_success && numel >= 32);
    /* the scalar level, one part */
    out_alloc(&B, nout, proto, n, lo);
    dnnlk_set_max_isa(dnnlk_isa_scalar);
    st = call(&c, B.d, 1, 0, 1);
    dnnlk_set_max_isa(dnnlk_isa_avx512);
    REQUIRE(st == dnnlk_success);
    REQUIRE(same_outputs(&A, &B, nout));
    out_free(&B, nout);
    /* nth parts, each from the caller's descriptor as a thread would pass it */
    nth = 2 + rd8(&r) % 6;
    out_alloc(&B, nout, proto, n, lo);
    dnnlk_set_max_isa((dnnlk_isa)level);
    for (ith = 0; ith < nth; ith++) {
        outset part;
        memcpy(&part, &B, sizeof part);
        st = call(&c, part.d, 1, ith, nth);
        REQUIRE(st == dnnlk_success);
        if (ith == nth - 1) memcpy(B.d, part.d, sizeof B.d);
    }
    dnnlk_set_max_isa(dnnlk_isa_avx512);
    REQUIRE(same_outputs(&A, &B, nout));
    out_free(&B, nout);
    REQUIRE(inputs_intact(&c));
done:
    out_free(&A, nout);
    for (i = 0; i < c.nin; i++) free_buf(&c.in[i]);
    return 0;
}
