/* dnnl_kernels — resize.h: N-D resize (ONNX Resize, ByteIR resize), nearest and N-linear.
 *
 *   dnnlk_resize_infer(src, desc, dst)        completes dst's unknown dims/strides
 *   dnnlk_resize(src, desc, dst, ith, nth)    computes part ith of nth
 *
 * desc (dnnlk_resize_desc; a zeroed one is ONNX's defaults: nearest, half_pixel,
 * round_prefer_floor) names the resized axes (any subset, negative counts from the end; NULL axes
 * means axes 0..naxes-1) and, per listed axis, either a scale (scales) or an output size (sizes):
 * exactly one of the two arrays. With scales, out = floor(in * scale) (computed in double) and the
 * coordinate transform uses the scale as given; with sizes it uses out / in. Axes not listed keep
 * their size. Per output index o of a resized axis the source coordinate is (ONNX's formulas,
 * evaluated in double precision):
 *   half_pixel          x = (o + 0.5) / scale - 0.5
 *   pytorch_half_pixel  x = length > 1 ? (o + 0.5) / scale - 0.5 : 0
 *   align_corners       x = length != 1 ? o * (in - 1) / (length - 1) : 0
 *   asymmetric          x = o / scale
 * where length is ONNX's length_resized: in * scale, not floored, when scales are given (so
 * align_corners with scale 0.6 on 4 elements divides by 1.4, as the ONNX reference and its
 * test data do), and the output size when sizes are given.
 * nearest: index = floor(x) (ByteIR's "floor"), ceil(x), round_prefer_floor (ties down),
 *          round_prefer_ceil (ties up); then clamped to [0, in - 1]. Nearest copies element bits,
 *          so it is exact and identical on every ISA and part count.
 * linear:  x is clamped to [0, in - 1]; i0 = floor(x), i1 = min(i0 + 1, in - 1), t = x - i0,
 *          weights w0 = f32(1 - t), w1 = f32(t). N-linear is separable: along each resized axis,
 *          from the innermost in memory outward, v = v(i0) * w0 + v(i1) * w1 in f32 (two
 *          multiplications and an addition, never fused), so the result is identical on every
 *          ISA (x86) and part count for a given layout. Every neighbour is read, also one with
 *          weight 0, so an inf neighbour makes NaN (as PyTorch and the ONNX reference). An axis
 *          listed with its size and scale unchanged is copied, not interpolated.
 *          bf16/f16 compute in f32 and round to nearest even on store; u8 rounds the f32 result
 *          half to even and saturates to [0, 255].
 *
 * dtypes: src and dst the same, f32, bf16, f16 or u8. Any src strides; dst strides as shape.h
 * completes them. The fast paths: f32 rows along a resized innermost axis (NCHW-style, a window
 * load and an in-register permute per vector), and rows along a non-resized innermost axis
 * (NHWC-style: whole pixels, vectors over channels); every other layout takes a scalar path with
 * the same arithmetic.
 *
 * Statuses: invalid_arguments for NULL pointers or data, an unknown mode / coordinate mode /
 * nearest rounding, naxes outside [0, ndims], an axis out of range or repeated, both or neither
 * of scales/sizes (with naxes > 0), a scale that is <= 0, NaN or infinite, a negative size, dst
 * overlapping src, a bad (ith, nth); invalid_data_type for dtypes outside the list or different
 * from each other; invalid_shape for an output size that overflows, a nonzero size from an empty
 * axis, or dst dims that differ; unimplemented when the innermost axis of dst's layout is resized
 * from more than 2^31 - 1 elements (its tables hold 32-bit indices). Nothing is written on error. */
#ifndef DNNLK_RESIZE_H
#define DNNLK_RESIZE_H

#include "base.h"
#include "cpu.h"
#include "shape.h"
#include "loop.h"
#include "quant.h" /* dnnlk__round_half_even_f32 */

typedef enum dnnlk_resize_mode { dnnlk_resize_nearest = 0, dnnlk_resize_linear = 1 } dnnlk_resize_mode;

typedef enum dnnlk_resize_coord {
    dnnlk_resize_half_pixel = 0,
    dnnlk_resize_pytorch_half_pixel = 1,
    dnnlk_resize_align_corners = 2,
    dnnlk_resize_asymmetric = 3
} dnnlk_resize_coord;

typedef enum dnnlk_resize_nearest_round {
    dnnlk_resize_round_prefer_floor = 0,
    dnnlk_resize_round_prefer_ceil = 1,
    dnnlk_resize_floor = 2,
    dnnlk_resize_ceil = 3
} dnnlk_resize_nearest_round;

typedef struct dnnlk_resize_desc {
    dnnlk_resize_mode mode;
    dnnlk_resize_coord coord;
    dnnlk_resize_nearest_round nearest; /* nearest mode only */
    int naxes;
    const int *axes;       /* naxes axes, or NULL for 0..naxes-1 */
    const float *scales;   /* naxes scales, or NULL */
    const int64_t *sizes;  /* naxes output sizes, or NULL */
} dnnlk_resize_desc;

/* ---- the plan ---- */

#define DNNLK__RESIZE_CB 512 /* output columns per table block (a multiple of every vector width) */

typedef struct dnnlk__resize_axis {
    int64_t in, out;
    int64_t is, os; /* element strides */
    int resized;
    double scale;
    double length; /* ONNX's length_resized: in * scale (not floored) with scales, out with sizes */
} dnnlk__resize_axis;

typedef struct dnnlk__resize_job {
    int n; /* dims, sorted by dst stride (innermost last); >= 1 */
    dnnlk__resize_axis ax[DNNLK_MAX_NDIMS];
    int linear, coord, nearest;
    dnnlk_dtype dt;
    int64_t es;
    const char *src;
    char *dst;
    int64_t rows, ncb, u0, u1; /* units = (row, column block); this part's [u0, u1) */
    int stream;
} dnnlk__resize_job;

/* What one row needs: the output row, source corner rows and the inner-axis table. */
typedef struct dnnlk__resize_row {
    char *dst;              /* output column 0 */
    const char *src;        /* corner 0: source row at inner index 0 */
    int k;                  /* linear: outer resized levels, innermost first */
    int64_t delta[DNNLK_MAX_NDIMS]; /* bytes from the i0 to the i1 source row of each level */
    float w0[DNNLK_MAX_NDIMS], w1[DNNLK_MAX_NDIMS];
    int64_t c0, c1;         /* columns [c0, c1) */
    const int32_t *x0, *x1; /* inner table, index c - c0; NULL when the inner axis is not resized */
    const float *xw0, *xw1;
    /* nearest, vector paths only: */
    char *dst2;             /* a second output row with the same source row (written alike), or NULL */
    int half;               /* 0 or 1 when x0[t] == x0[0] + ((t + half) >> 1) over the block (an x2
                               upscale); -1 otherwise */
} dnnlk__resize_row;

/* Source row of corner q of a linear row with k levels: bit b of q takes level b's i1 row. */
static DNNLK__FORCEINLINE const char *dnnlk__resize_corner(const dnnlk__resize_row *r, int k, int64_t q) {
    const char *row = r->src;
    int b;
    for (b = 0; b < k; b++)
        if ((q >> b) & 1) row += r->delta[b];
    return row;
}


static DNNLK__FORCEINLINE float dnnlk__resize_lerp(float a, float w0, float b, float w1) {
    float p = a * w0, q = b * w1;
    DNNLK__NOFUSE(p);
    DNNLK__NOFUSE(q);
    return p + q;
}

static inline double dnnlk__resize_coord_of(const dnnlk__resize_axis *a, int coord, int64_t o) {
    switch (coord) {
    case dnnlk_resize_pytorch_half_pixel:
        if (!(a->length > 1.0)) return 0.0;
        return ((double)o + 0.5) / a->scale - 0.5;
    case dnnlk_resize_align_corners:
        if (a->length == 1.0) return 0.0;
        return (double)o * (double)(a->in - 1) / (a->length - 1.0);
    case dnnlk_resize_asymmetric: return (double)o / a->scale;
    default: return ((double)o + 0.5) / a->scale - 0.5;
    }
}

static inline double dnnlk__resize_floor(double x) {
    double t = (double)(int64_t)x; /* |x| < 2^62 here: callers clamp first */
    return t > x ? t - 1.0 : t;
}

static inline int64_t dnnlk__resize_nearest_index(const dnnlk__resize_axis *a, int coord, int rule, int64_t o) {
    double x = dnnlk__resize_coord_of(a, coord, o), r;
    double hi = (double)(a->in - 1);
    if (x < -1.0) x = -1.0; /* keeps the integer conversions in range; the result clamps to 0 anyway */
    if (x > hi + 1.0) x = hi + 1.0;
    switch (rule) {
    case dnnlk_resize_floor: r = dnnlk__resize_floor(x); break;
    case dnnlk_resize_ceil: r = -dnnlk__resize_floor(-x); break;
    case dnnlk_resize_round_prefer_ceil: r = dnnlk__resize_floor(x + 0.5); break;
    default: r = -dnnlk__resize_floor(-(x - 0.5)); break; /* ceil(x - 0.5): ties go down */
    }
    if (r < 0) r = 0;
    if (r > hi) r = hi;
    return (int64_t)r;
}

static inline void dnnlk__resize_linear_coeffs(const dnnlk__resize_axis *a, int coord, int64_t o, int64_t *i0,
                                               int64_t *i1, float *w0, float *w1) {
    double x = dnnlk__resize_coord_of(a, coord, o), t;
    double hi = (double)(a->in - 1);
    if (!(x > 0.0)) x = 0.0;
    if (x > hi) x = hi;
    *i0 = (int64_t)dnnlk__resize_floor(x);
    *i1 = *i0 + 1 < a->in ? *i0 + 1 : a->in - 1;
    t = x - (double)*i0;
    *w1 = (float)t;
    *w0 = (float)(1.0 - t);
}

/* ---- element-wise (scalar) row: the definition every vector path reproduces ---- */

static DNNLK__FORCEINLINE float dnnlk__resize_load(const char *p, dnnlk_dtype t) {
    if (t == dnnlk_u8) return (float)*(const uint8_t *)p;
    return dnnlk__load_as_f32(p, t);
}

static DNNLK__FORCEINLINE void dnnlk__resize_store(char *p, dnnlk_dtype t, float v) {
    if (t == dnnlk_u8) {
        v = dnnlk__round_half_even_f32(v);
        *(uint8_t *)p = (uint8_t)(v > 0.0f ? (v < 255.0f ? v : 255.0f) : 0.0f);
    } else {
        dnnlk__store_from_f32(p, t, v);
    }
}

/* Linear value of column c (inner index ix0/ix1 with weights, or plain index when not resized),
 * combining the 2^k corner rows innermost level first. */
static DNNLK__FORCEINLINE float dnnlk__resize_linear_at(const dnnlk__resize_job *j, const dnnlk__resize_row *r,
                                                        int64_t c) {
    float stack[DNNLK_MAX_NDIMS + 1];
    const dnnlk__resize_axis *in = &j->ax[j->n - 1];
    int64_t t = c - r->c0, nc = (int64_t)1 << r->k, q;
    int64_t o0 = r->x0 ? (int64_t)r->x0[t] * in->is * j->es : c * in->is * j->es;
    int64_t o1 = r->x0 ? (int64_t)r->x1[t] * in->is * j->es : 0;
    for (q = 0; q < nc; q++) {
        const char *row = dnnlk__resize_corner(r, r->k, q);
        float v = dnnlk__resize_load(row + o0, j->dt);
        int b;
        if (r->x0) v = dnnlk__resize_lerp(v, r->xw0[t], dnnlk__resize_load(row + o1, j->dt), r->xw1[t]);
        for (b = 0; (q >> b) & 1; b++) v = dnnlk__resize_lerp(stack[b], r->w0[b], v, r->w1[b]);
        stack[b] = v;
    }
    return stack[r->k];
}

/* Any layout, element by element: the path for rows no vector path takes. */
static inline void dnnlk__resize_row_any(const dnnlk__resize_job *j, const dnnlk__resize_row *r) {
    const dnnlk__resize_axis *in = &j->ax[j->n - 1];
    int64_t c, es = j->es;
    for (c = r->c0; c < r->c1; c++) {
        char *d = r->dst + c * in->os * es;
        if (!j->linear) {
            int64_t ix = r->x0 ? (int64_t)r->x0[c - r->c0] : c;
            memcpy(d, r->src + ix * in->is * es, (size_t)es);
        } else {
            dnnlk__resize_store(d, j->dt, dnnlk__resize_linear_at(j, r, c));
        }
    }
}

#define DNNLK__SIMD_BODY "resize_simd.h"
#include "simd_instantiate.h"

/* Outputs at least this large (bytes) are written with non-temporal stores where rows allow. */
#ifndef DNNLK_RESIZE_NT_BYTES
#define DNNLK_RESIZE_NT_BYTES ((int64_t)8 << 20)
#endif

/* ---- the driver: units of (row, column block), tables per block, corners per row ---- */

#define DNNLK__RESIZE_OT 512 /* entries of the outer-axis mapping table (on the stack) */

/* Mapping of output index o of outer axis d: byte offset of the (i0) source row, and for linear
 * the byte step to the i1 row and the two weights. */
static inline void dnnlk__resize_map(const dnnlk__resize_job *j, int d, int64_t o, int64_t *off, int64_t *delta,
                                     float *w0, float *w1) {
    const dnnlk__resize_axis *a = &j->ax[d];
    if (j->linear) {
        int64_t i0, i1;
        dnnlk__resize_linear_coeffs(a, j->coord, o, &i0, &i1, w0, w1);
        *off = i0 * a->is * j->es;
        *delta = (i1 - i0) * a->is * j->es;
    } else {
        *off = dnnlk__resize_nearest_index(a, j->coord, j->nearest, o) * a->is * j->es;
        *delta = 0;
        *w0 = 1.0f;
        *w1 = 0.0f;
    }
}

/* Where a row of the current column block is: its outer indices, and per outer resized axis the
 * mapping of the current index (computed only when the index changes). */
typedef struct dnnlk__resize_cursor {
    int64_t idx[DNNLK_MAX_NDIMS];
    int64_t cache_o[DNNLK_MAX_NDIMS], cache_off[DNNLK_MAX_NDIMS], cache_delta[DNNLK_MAX_NDIMS];
    float cache_w0[DNNLK_MAX_NDIMS], cache_w1[DNNLK_MAX_NDIMS];
} dnnlk__resize_cursor;

/* Caches axis d's mapping of the cursor's index: from the per-call tables when they hold the
 * axis (ot_base[d] >= 0), else computed. */
static DNNLK__FORCEINLINE void dnnlk__resize_cache_axis(const dnnlk__resize_job *j, dnnlk__resize_cursor *cu, int d,
                                                        const int64_t *ot_off, const int64_t *ot_delta,
                                                        const float *ot_w0, const float *ot_w1,
                                                        const int64_t *ot_base) {
    cu->cache_o[d] = cu->idx[d];
    if (ot_base[d] >= 0) {
        int64_t t = ot_base[d] + cu->idx[d];
        cu->cache_off[d] = ot_off[t];
        cu->cache_delta[d] = ot_delta[t];
        cu->cache_w0[d] = ot_w0[t];
        cu->cache_w1[d] = ot_w1[t];
    } else {
        dnnlk__resize_map(j, d, cu->idx[d], &cu->cache_off[d], &cu->cache_delta[d], &cu->cache_w0[d],
                          &cu->cache_w1[d]);
    }
}

/* Source row (corner 0) and output row at the cursor; for linear, the levels into row. */
static DNNLK__FORCEINLINE void dnnlk__resize_locate(const dnnlk__resize_job *j, dnnlk__resize_cursor *cu,
                                                    const int64_t *ot_off, const int64_t *ot_delta,
                                                    const float *ot_w0, const float *ot_w1, const int64_t *ot_base,
                                                    dnnlk__resize_row *row, const char **src, char **dst) {
    const char *s = j->src;
    char *o = j->dst;
    int lev = 0, d;
    for (d = j->n - 2; d >= 0; d--) { /* levels: outer resized axes, innermost first */
        const dnnlk__resize_axis *a = &j->ax[d];
        o += cu->idx[d] * a->os * j->es;
        if (!a->resized) {
            s += cu->idx[d] * a->is * j->es;
            continue;
        }
        if (cu->cache_o[d] != cu->idx[d]) dnnlk__resize_cache_axis(j, cu, d, ot_off, ot_delta, ot_w0, ot_w1, ot_base);
        s += cu->cache_off[d];
        if (j->linear) {
            row->delta[lev] = cu->cache_delta[d];
            row->w0[lev] = cu->cache_w0[d];
            row->w1[lev] = cu->cache_w1[d];
            lev++;
        }
    }
    if (j->linear) row->k = lev;
    else row->k = 0;
    *src = s;
    *dst = o;
}

/* Moves the cursor to the next row and returns its source and output rows (and linear levels):
 * a step along the innermost outer axis only adjusts the previous row's pointers; a carry into
 * the axes further out locates the row from scratch. */
static DNNLK__FORCEINLINE void dnnlk__resize_next(const dnnlk__resize_job *j, dnnlk__resize_cursor *cu,
                                                  const int64_t *ot_off, const int64_t *ot_delta,
                                                  const float *ot_w0, const float *ot_w1, const int64_t *ot_base,
                                                  dnnlk__resize_row *row, const char **src, char **dst) {
    const int d = j->n - 2;
    const dnnlk__resize_axis *a;
    int e;
    if (d < 0) return; /* one row only */
    a = &j->ax[d];
    if (++cu->idx[d] < a->out) {
        *dst += a->os * j->es;
        if (!a->resized) {
            *src += a->is * j->es;
            return;
        }
        *src -= cu->cache_off[d];
        dnnlk__resize_cache_axis(j, cu, d, ot_off, ot_delta, ot_w0, ot_w1, ot_base);
        *src += cu->cache_off[d];
        if (j->linear) { /* this axis is level 0: the innermost outer resized axis */
            row->delta[0] = cu->cache_delta[d];
            row->w0[0] = cu->cache_w0[d];
            row->w1[0] = cu->cache_w1[d];
        }
        return;
    }
    cu->idx[d] = 0;
    for (e = d - 1; e >= 0; e--) {
        if (++cu->idx[e] < j->ax[e].out) break;
        cu->idx[e] = 0;
    }
    dnnlk__resize_locate(j, cu, ot_off, ot_delta, ot_w0, ot_w1, ot_base, row, src, dst);
}

static inline void dnnlk__resize_run(const dnnlk__resize_job *j) {
    /* the level's row function, chosen once for the part */
    void (*const row_fn)(const dnnlk__resize_job *, const dnnlk__resize_row *) = DNNLK__DISPATCH(dnnlk__resize_row, );
    int32_t x0[DNNLK__RESIZE_CB], x1[DNNLK__RESIZE_CB];
    float xw0[DNNLK__RESIZE_CB], xw1[DNNLK__RESIZE_CB];
    const int n = j->n, inner = n - 1;
    const dnnlk__resize_axis *ia = &j->ax[inner];
    int64_t cb, cb_first = j->u0 % j->ncb, r_first = j->u0 / j->ncb;
    int64_t r_last = (j->u1 - 1) / j->ncb, cb_last = (j->u1 - 1) % j->ncb;
    int64_t cbs = j->ncb < j->u1 - j->u0 ? j->ncb : j->u1 - j->u0;
    int64_t ot_off[DNNLK__RESIZE_OT], ot_delta[DNNLK__RESIZE_OT], ot_base[DNNLK_MAX_NDIMS], used = 0;
    float ot_w0[DNNLK__RESIZE_OT], ot_w1[DNNLK__RESIZE_OT];
    int64_t k;
    int d0;
    /* rows for the nearest f32 path along a resized contiguous inner axis */
    const int pair = !j->linear && j->dt == dnnlk_f32 && ia->resized && ia->os == 1 && ia->is == 1;
    /* Mappings of the outer resized axes, computed once per call while they fit (each output row
     * needs them, and the same ones repeat for every outer non-resized index, e.g. channels). */
    for (d0 = 0; d0 < inner; d0++) {
        const dnnlk__resize_axis *a = &j->ax[d0];
        int64_t o;
        ot_base[d0] = -1;
        if (!a->resized || used + a->out > DNNLK__RESIZE_OT) continue;
        ot_base[d0] = used;
        for (o = 0; o < a->out; o++, used++)
            dnnlk__resize_map(j, d0, o, &ot_off[used], &ot_delta[used], &ot_w0[used], &ot_w1[used]);
    }
    /* Visit the column blocks this part touches; in each, its rows in order. */
    for (k = 0; k < cbs; k++) {
        int64_t c0, c1, ra, rb, rr, c;
        dnnlk__resize_cursor cu;
        dnnlk__resize_row row;
        int d;
        cb = (cb_first + k) % j->ncb;
        c0 = cb * DNNLK__RESIZE_CB;
        c1 = c0 + DNNLK__RESIZE_CB < ia->out ? c0 + DNNLK__RESIZE_CB : ia->out;
        ra = cb >= cb_first ? r_first : r_first + 1;
        rb = cb <= cb_last ? r_last : r_last - 1;
        if (ra > rb) continue;
        row.c0 = c0;
        row.c1 = c1;
        row.x0 = row.x1 = NULL;
        row.xw0 = row.xw1 = NULL;
        if (ia->resized) {
            for (c = c0; c < c1; c++) {
                if (j->linear) {
                    int64_t i0, i1;
                    dnnlk__resize_linear_coeffs(ia, j->coord, c, &i0, &i1, &xw0[c - c0], &xw1[c - c0]);
                    x0[c - c0] = (int32_t)i0;
                    x1[c - c0] = (int32_t)i1;
                } else {
                    x0[c - c0] = (int32_t)dnnlk__resize_nearest_index(ia, j->coord, j->nearest, c);
                }
            }
            row.x0 = x0;
            row.x1 = x1;
            row.xw0 = xw0;
            row.xw1 = xw1;
        }
        row.dst2 = NULL;
        row.half = -1;
        if (pair) {
            int ph;
            for (ph = 0; ph < 2 && row.half < 0; ph++) {
                for (c = 0; c < c1 - c0 && x0[c] == x0[0] + (int32_t)((c + ph) >> 1); c++) {
                }
                if (c == c1 - c0) row.half = ph;
            }
        }
        /* outer indices of row ra; per outer resized axis, its mapping for the current index */
        {
            int64_t rem = ra;
            for (d = inner - 1; d >= 0; d--) {
                cu.idx[d] = rem % j->ax[d].out;
                rem /= j->ax[d].out;
                cu.cache_o[d] = -1;
            }
        }
        {
            const char *cs = NULL, *s2 = NULL; /* cs, co: the rows at the cursor */
            char *co = NULL, *o2 = NULL;
            int ahead = 0; /* the cursor is one row past row (at s2, o2) */
            for (rr = ra; rr <= rb; rr++) {
                if (rr == ra) dnnlk__resize_locate(j, &cu, ot_off, ot_delta, ot_w0, ot_w1, ot_base, &row, &cs, &co);
                else if (ahead) cs = s2, co = o2;
                else dnnlk__resize_next(j, &cu, ot_off, ot_delta, ot_w0, ot_w1, ot_base, &row, &cs, &co);
                ahead = 0;
                row.src = cs;
                row.dst = co;
                row.dst2 = NULL;
                /* The nearest f32 vector path writes the next row too when it has the same source
                 * row (an upscaled outer axis repeats rows): the loads and permutes are shared. */
                if (pair && rr < rb) {
                    s2 = cs;
                    o2 = co;
                    dnnlk__resize_next(j, &cu, ot_off, ot_delta, ot_w0, ot_w1, ot_base, &row, &s2, &o2);
                    if (s2 == cs) {
                        co = o2;
                        row.dst2 = o2;
                        rr++;
                    } else {
                        ahead = 1;
                    }
                }
                row_fn(j, &row);
            }
        }
    }
    if (j->stream) DNNLK__DISPATCH(dnnlk__resize_fence, ());
}

/* ---- validation and the plan ---- */

static inline dnnlk_status dnnlk__resize_prepare(const dnnlk_tensor *src, const dnnlk_resize_desc *desc,
                                                 const dnnlk_tensor *dst, int execute, dnnlk_tensor *dd,
                                                 dnnlk__resize_axis *ax) {
    int64_t out[DNNLK_MAX_NDIMS], n = 0;
    int listed[DNNLK_MAX_NDIMS];
    int nd, i;
    dnnlk_status st;
    if (!src || !desc || !dst) return dnnlk_invalid_arguments;
    if ((st = dnnlk__check_input(src, execute)) != dnnlk_success) return st;
    if (src->dtype != dnnlk_f32 && src->dtype != dnnlk_bf16 && src->dtype != dnnlk_f16 && src->dtype != dnnlk_u8)
        return dnnlk_invalid_data_type;
    if (dst->dtype != src->dtype) return dnnlk_invalid_data_type;
    if ((unsigned)desc->mode > 1u || (unsigned)desc->coord > 3u || (unsigned)desc->nearest > 3u)
        return dnnlk_invalid_arguments;
    nd = src->ndims;
    if (desc->naxes < 0 || desc->naxes > nd) return dnnlk_invalid_arguments;
    if (desc->naxes > 0 && ((desc->scales == NULL) == (desc->sizes == NULL))) return dnnlk_invalid_arguments;
    for (i = 0; i < nd; i++) {
        listed[i] = 0;
        out[i] = src->dims[i];
        ax[i].in = src->dims[i];
        ax[i].is = src->strides[i];
        ax[i].resized = 0;
        ax[i].scale = 1.0;
        ax[i].length = (double)src->dims[i];
    }
    for (i = 0; i < desc->naxes; i++) {
        int a = desc->axes ? desc->axes[i] : i;
        int64_t in;
        double scale;
        if (a < -nd || a >= nd) return dnnlk_invalid_arguments;
        if (a < 0) a += nd;
        if (listed[a]) return dnnlk_invalid_arguments;
        listed[a] = 1;
        in = src->dims[a];
        if (desc->scales) {
            double p;
            scale = (double)desc->scales[i];
            if (!(scale > 0.0 && scale <= 3.4028234663852886e38)) return dnnlk_invalid_arguments;
            p = (double)in * scale;
            if (!(p < 4611686018427387904.0)) return dnnlk_invalid_shape; /* 2^62 */
            out[a] = (int64_t)p; /* p >= 0: truncation is floor */
        } else {
            if (desc->sizes[i] < 0) return dnnlk_invalid_arguments;
            out[a] = desc->sizes[i];
            if (in == 0 && out[a] > 0) return dnnlk_invalid_shape;
            scale = in > 0 ? (double)out[a] / (double)in : 1.0;
        }
        ax[a].scale = scale;
        ax[a].length = desc->scales ? (double)in * scale : (double)out[a];
        ax[a].resized = !(out[a] == in && scale == 1.0) && in > 0 && out[a] > 0;
    }
    for (i = 0; i < nd; i++) ax[i].out = out[i];
    if ((st = dnnlk__complete_output(dst, nd, out, dd)) != dnnlk_success) return st;
    for (i = 0; i < nd; i++) ax[i].os = dd->strides[i];
    if (execute) {
        (void)dnnlk_shape_numel(nd, out, &n);
        if (n > 0 && !dd->data) return dnnlk_invalid_arguments;
        if (dnnlk__ranges_intersect(dd, src)) return dnnlk_invalid_arguments; /* no in-place resize */
    }
    return dnnlk_success;
}

/* ---- public API ---- */

static inline dnnlk_status dnnlk_resize_infer(const dnnlk_tensor *src, const dnnlk_resize_desc *desc, dnnlk_tensor *dst) {
    dnnlk_tensor dd;
    dnnlk__resize_axis ax[DNNLK_MAX_NDIMS];
    dnnlk_status st = dnnlk__resize_prepare(src, desc, dst, 0, &dd, ax);
    if (st == dnnlk_success) *dst = dd;
    return st;
}

static inline dnnlk_status dnnlk_resize(const dnnlk_tensor *src, const dnnlk_resize_desc *desc, dnnlk_tensor *dst,
                                        int ith, int nth) {
    dnnlk_tensor dd;
    dnnlk__resize_job job;
    dnnlk__resize_axis ax[DNNLK_MAX_NDIMS];
    int64_t total = 1, units;
    int i, m;
    dnnlk_status st = dnnlk__resize_prepare(src, desc, dst, 1, &dd, ax);
    if (st != dnnlk_success) return st;
    if (!dnnlk__part_ok(ith, nth)) return dnnlk_invalid_arguments;
    /* Dims in dst memory order (stable by |stride|, largest first): rows run along dst memory. */
    m = 0;
    for (i = 0; i < dd.ndims; i++) {
        int jx = m++;
        int64_t si = ax[i].os < 0 ? -ax[i].os : ax[i].os;
        dnnlk__resize_axis a = ax[i];
        total *= ax[i].out;
        while (jx > 0) {
            int64_t sj = job.ax[jx - 1].os < 0 ? -job.ax[jx - 1].os : job.ax[jx - 1].os;
            if (sj >= si) break;
            job.ax[jx] = job.ax[jx - 1];
            jx--;
        }
        job.ax[jx] = a;
    }
    /* The inner-axis tables hold 32-bit source indices. */
    if (m > 0 && job.ax[m - 1].resized && job.ax[m - 1].in > INT32_MAX) return dnnlk_unimplemented;
    *dst = dd;
    if (total == 0) return dnnlk_success;
    if (m == 0) {
        job.ax[0].in = job.ax[0].out = 1;
        job.ax[0].is = job.ax[0].os = 1;
        job.ax[0].resized = 0;
        job.ax[0].scale = job.ax[0].length = 1.0;
        m = 1;
    }
    job.n = m;
    job.linear = desc->mode == dnnlk_resize_linear;
    job.coord = (int)desc->coord;
    job.nearest = (int)desc->nearest;
    job.dt = src->dtype;
    job.es = (int64_t)dnnlk_dtype_size(src->dtype);
    job.src = (const char *)src->data;
    job.dst = (char *)dd.data;
    job.rows = total / job.ax[m - 1].out;
    job.ncb = (job.ax[m - 1].out + DNNLK__RESIZE_CB - 1) / DNNLK__RESIZE_CB;
    job.stream = total * job.es >= DNNLK_RESIZE_NT_BYTES && job.ax[m - 1].os == 1;
    units = job.rows * job.ncb;
    dnnlk__part_range(units, ith, nth, 1, &job.u0, &job.u1);
    if (job.u0 >= job.u1) return dnnlk_success;
    dnnlk__resize_run(&job);
    return dnnlk_success;
}

#endif /* DNNLK_RESIZE_H */
