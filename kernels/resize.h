/* dnnl_kernels — resize.h: N-D resize (ONNX Resize up to opset 19, ByteIR resize): nearest,
 * N-linear and N-cubic, antialiased, tf_crop_and_resize.
 *
 *   dnnlk_resize_infer(src, desc, dst)        completes dst's unknown dims/strides
 *   dnnlk_resize(src, desc, dst, ith, nth)    computes part ith of nth
 *
 * desc (dnnlk_resize_desc; a zeroed one is ONNX's defaults: nearest, half_pixel,
 * round_prefer_floor, cubic_coeff_a -0.75, no antialias, exclude_outside 0, stretch) names the
 * resized axes (any subset, negative counts from the end; NULL axes means axes 0..naxes-1) and,
 * per listed axis, either a scale (scales) or an output size (sizes): exactly one of the two
 * arrays (ONNX forbids both). With scales, out = floor(in * scale) (computed in double) and the
 * coordinate transform uses the scale as given; with sizes it uses out / in. With sizes and
 * keep_aspect not_larger / not_smaller, one scale s = min / max over the listed axes of
 * size / in is used for all of them: out = floor(in * s + 0.5) (ONNX's round half up) and the
 * coordinates use s, as with scales. Axes not listed keep their size. Per output index o of a
 * resized axis the source coordinate is (ONNX's formulas, evaluated in double precision):
 *   half_pixel            x = (o + 0.5) / scale - 0.5
 *   pytorch_half_pixel    x = length > 1 ? (o + 0.5) / scale - 0.5 : 0
 *   align_corners         x = length != 1 ? o * (in - 1) / (length - 1) : 0
 *   asymmetric            x = o / scale
 *   half_pixel_symmetric  x = in / 2 * (1 - out / length) + (o + 0.5) / scale - 0.5
 *   tf_crop_and_resize    x = length > 1 ? start * (in - 1) + o * (end - start) * (in - 1) / (length - 1)
 *                                        : (start + end) / 2 * (in - 1)
 *                         (start, end: the axis' roi); an x outside [0, in - 1] on any axis makes
 *                         the element extrapolation_value (converted to the dtype as a store)
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
 *          listed with its size and scale unchanged (and roi [0, 1]) is copied, not interpolated.
 * cubic, and linear with antialias: per axis a window of taps i around x, weights
 *          kernel((i - x) * s) computed in double and rounded to f32 (f64: kept), s = min(scale, 1)
 *          with antialias (the filter stretched by 1 / scale when downscaling) and 1 without; the
 *          kernel is Keys' cubic with a = cubic_coeff_a, or the hat 1 - |d|. The window is ONNX's:
 *          2 - 2 * (floor(-h / s) + 1) taps (h = 2 cubic, 1 linear) from floor(x) - taps / 2 + 1,
 *          indices clamped into the input (edge padding). With antialias the weights are divided by
 *          their sum; with exclude_outside the taps outside the input get weight 0 and the rest are
 *          divided by their sum. Separable as linear: v = w_0 v_0 + w_1 v_1 + ... in tap order
 *          along the innermost axis first, never fused, so every level and part count give the
 *          same bits. At most DNNLK__RESIZE_MAXTAPS (128) taps per axis: antialiased linear down to
 *          a scale of 1/64, cubic to 1/32; 512 over all resized axes.
 *          Results: bf16/f16 compute in f32 and round to nearest even on store, f64 computes in
 *          double; u8 and s8 round the f32 result half to even and saturate.
 *
 * dtypes: src and dst the same: nearest any of f32, bf16, f16, f64, u8, s8, s32, s64, u64, boolean;
 * linear and cubic f32, bf16, f16, f64, u8, s8. Any src strides; dst strides as shape.h
 * completes them. The fast paths: f32 rows along a resized innermost axis (NCHW-style: nearest a
 * window load and an in-register permute per vector; linear and cubic in two passes, the inner
 * pass of each source row computed once per column block and kept while the next output rows use
 * it), and rows along a non-resized innermost axis (NHWC-style: whole pixels, vectors over
 * channels); every other layout takes a scalar path with the same arithmetic.
 *
 * Statuses: invalid_arguments for NULL pointers or data, an unknown mode / coordinate mode /
 * nearest rounding / keep_aspect, naxes outside [0, ndims], an axis out of range or repeated, both
 * or neither of scales/sizes (with naxes > 0), a scale that is <= 0, NaN or infinite, a negative
 * size, cubic_coeff_a NaN or infinite, antialias or exclude_outside other than 0/1, antialias with
 * nearest, a roi that is not 2 * naxes finite values (nroi, roi) or missing with
 * tf_crop_and_resize, keep_aspect other than stretch without sizes or with a size <= 0, dst
 * overlapping src, a bad (ith, nth); invalid_data_type for dtypes outside the lists or different
 * from each other; invalid_shape for an output size that overflows, a nonzero size from an empty
 * axis (keep_aspect: any listed empty axis), or dst dims that differ; unimplemented when the
 * innermost axis of dst's layout is resized from more than 2^31 - 1 elements (its tables hold
 * 32-bit indices), or a window has more taps than the limits above. Nothing is written on error. */
#ifndef DNNLK_RESIZE_H
#define DNNLK_RESIZE_H

#include "base.h"
#include "cpu.h"
#include "shape.h"
#include "loop.h"
#include "quant.h" /* dnnlk__round_half_even_f32 */

typedef enum dnnlk_resize_mode {
    dnnlk_resize_nearest = 0,
    dnnlk_resize_linear = 1,
    dnnlk_resize_cubic = 2
} dnnlk_resize_mode;

typedef enum dnnlk_resize_coord {
    dnnlk_resize_half_pixel = 0,
    dnnlk_resize_pytorch_half_pixel = 1,
    dnnlk_resize_align_corners = 2,
    dnnlk_resize_asymmetric = 3,
    dnnlk_resize_half_pixel_symmetric = 4,
    dnnlk_resize_tf_crop_and_resize = 5
} dnnlk_resize_coord;

typedef enum dnnlk_resize_nearest_round {
    dnnlk_resize_round_prefer_floor = 0,
    dnnlk_resize_round_prefer_ceil = 1,
    dnnlk_resize_floor = 2,
    dnnlk_resize_ceil = 3
} dnnlk_resize_nearest_round;

typedef enum dnnlk_resize_aspect {
    dnnlk_resize_stretch = 0,
    dnnlk_resize_not_larger = 1,
    dnnlk_resize_not_smaller = 2
} dnnlk_resize_aspect;

typedef struct dnnlk_resize_desc {
    dnnlk_resize_mode mode;
    dnnlk_resize_coord coord;
    dnnlk_resize_nearest_round nearest; /* nearest mode only */
    int naxes;
    const int *axes;       /* naxes axes, or NULL for 0..naxes-1 */
    const float *scales;   /* naxes scales, or NULL */
    const int64_t *sizes;  /* naxes output sizes, or NULL */
    /* ONNX opset 19's further attributes; zero is each one's ONNX default */
    float cubic_coeff_a;   /* cubic: the kernel's a; 0 means ONNX's default -0.75 */
    int exclude_outside;   /* linear/cubic: taps outside the input weigh 0, the rest renormalized */
    int antialias;         /* linear/cubic: the filter stretched by 1/scale along downscaled axes */
    int nroi;              /* tf_crop_and_resize: 2 * naxes: */
    const float *roi;      /*   the starts of the listed axes, then their ends (fractions of in - 1) */
    float extrapolation_value; /* tf_crop_and_resize: the value of samples outside [0, in - 1] */
    dnnlk_resize_aspect keep_aspect; /* with sizes: stretch, or one scale for the listed axes */
} dnnlk_resize_desc;

/* ---- the plan ---- */

#define DNNLK__RESIZE_CB 512 /* output columns per table block (a multiple of every vector width) */

typedef struct dnnlk__resize_axis {
    int64_t in, out;
    int64_t is, os; /* element strides */
    int resized;
    double scale;
    double length; /* ONNX's length_resized: in * scale (not floored) with scales, out with sizes */
    double roi0, roi1; /* tf_crop_and_resize's roi (0 and 1 otherwise) */
    int taps;      /* taps of the general path along this axis (resized axes) */
} dnnlk__resize_axis;

typedef struct dnnlk__resize_job {
    int n; /* dims, sorted by dst stride (innermost last); >= 1 */
    dnnlk__resize_axis ax[DNNLK_MAX_NDIMS];
    int linear, coord, nearest;
    dnnlk_dtype dt;
    /* the general path (cubic, antialias, tf_crop_and_resize, f64 linear): */
    int general, mode, antialias, exclude;
    double cubic_a;
    unsigned char extrap[8]; /* extrapolation_value as one dst element */
    int64_t cbw;             /* its column block width */
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
    case dnnlk_resize_half_pixel_symmetric: {
        /* half_pixel shifted so the output's centre maps to the input's (differs when out is not
         * in * scale) */
        double adjust = (double)a->out / a->length;
        return (double)a->in / 2.0 * (1.0 - adjust) + ((double)o + 0.5) / a->scale - 0.5;
    }
    case dnnlk_resize_tf_crop_and_resize: {
        double span = (double)(a->in - 1);
        if (!(a->length > 1.0)) return 0.5 * (a->roi0 + a->roi1) * span;
        return a->roi0 * span + (double)o * (a->roi1 - a->roi0) * span / (a->length - 1.0);
    }
    default: return ((double)o + 0.5) / a->scale - 0.5;
    }
}

/* tf_crop_and_resize: output o samples outside the input (it takes extrapolation_value). */
static inline int dnnlk__resize_outside(const dnnlk__resize_axis *a, int coord, int64_t o) {
    double x;
    if (coord != dnnlk_resize_tf_crop_and_resize) return 0;
    x = dnnlk__resize_coord_of(a, coord, o);
    return !(x >= 0.0 && x <= (double)(a->in - 1));
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
    if (t == dnnlk_s8) return (float)*(const int8_t *)p;
    return dnnlk__load_as_f32(p, t);
}

static DNNLK__FORCEINLINE void dnnlk__resize_store(char *p, dnnlk_dtype t, float v) {
    if (t == dnnlk_u8) {
        v = dnnlk__round_half_even_f32(v);
        *(uint8_t *)p = (uint8_t)(v > 0.0f ? (v < 255.0f ? v : 255.0f) : 0.0f);
    } else if (t == dnnlk_s8) { /* NaN gives 0, as u8 */
        v = dnnlk__round_half_even_f32(v);
        *(int8_t *)p = (int8_t)(v > -128.0f ? (v < 127.0f ? v : 127.0f) : (v <= -128.0f ? -128.0f : 0.0f));
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

/* ---- the general path: any number of taps per axis (cubic, antialias), tf_crop_and_resize's
 * extrapolation, f64 ---- */

#define DNNLK__RESIZE_MAXTAPS 128 /* taps per axis: antialiased linear down to 1/64, cubic to 1/32 */
#define DNNLK__RESIZE_TPOOL 512   /* taps of one row's outer levels together */
#define DNNLK__RESIZE_TB 1024     /* entries of the inner-axis tap table of a column block */

/* Taps along an axis of the general path: ONNX's window, 2 - 2 * floor(-h / s) - 2 taps for
 * the half-width h (1 linear, 2 cubic) stretched by s = min(scale, 1) with antialias. 0 when
 * that is more than DNNLK__RESIZE_MAXTAPS. */
static inline int dnnlk__resize_ntaps(int mode, int antialias, double scale) {
    double s = antialias && scale < 1.0 ? scale : 1.0, h = mode == dnnlk_resize_cubic ? 2.0 : 1.0, start;
    if (mode == dnnlk_resize_nearest) return 1;
    if (!(h / s < (double)DNNLK__RESIZE_MAXTAPS)) return 0;
    start = dnnlk__resize_floor(-h / s) + 1.0;
    return 2 - 2 * (int)start <= DNNLK__RESIZE_MAXTAPS ? 2 - 2 * (int)start : 0;
}

/* Keys' cubic convolution kernel with parameter a at |d| (ONNX's and PyTorch's). */
static inline double dnnlk__resize_cubic_kernel(double ad, double a) {
    if (ad <= 1.0) return ((a + 2.0) * ad - (a + 3.0)) * ad * ad + 1.0;
    if (ad < 2.0) return ((a * ad - 5.0 * a) * ad + 8.0 * a) * ad - 4.0 * a;
    return 0.0;
}

/* Taps of output o along resized axis a: a->taps source indices clamped into [0, in - 1]
 * (ONNX's edge padding) and their weights, in double: kernel((i - x) * s) at the window of
 * indices i around x; normalized to sum 1 with antialias, and with exclude_outside after the
 * taps outside the input are zeroed. Returns 1 (indices 0, weights 0) where tf_crop_and_resize
 * samples outside the input. */
static inline int dnnlk__resize_taps_of(const dnnlk__resize_job *j, const dnnlk__resize_axis *a, int64_t o,
                                        int64_t *idx, double *w) {
    const int m = a->taps, h = m / 2 - 1; /* the window is floor(x) - h .. floor(x) + m - 1 - h */
    double x = dnnlk__resize_coord_of(a, j->coord, o), hi = (double)(a->in - 1), fl, r, s, sum = 0.0;
    int64_t first;
    int i;
    if (j->coord == dnnlk_resize_tf_crop_and_resize && !(x >= 0.0 && x <= hi)) {
        for (i = 0; i < m; i++) idx[i] = 0, w[i] = 0.0;
        return 1;
    }
    if (j->mode == dnnlk_resize_nearest) {
        idx[0] = dnnlk__resize_nearest_index(a, j->coord, j->nearest, o);
        w[0] = 1.0;
        return 0;
    }
    if (j->mode == dnnlk_resize_linear && !j->antialias) {
        /* the two-tap paths' taps (x clamped into the input: the same as edge padding, and
         * exclude_outside has no tap outside to drop), so both paths give the same bits */
        double t;
        if (!(x > 0.0)) x = 0.0;
        if (x > hi) x = hi;
        idx[0] = (int64_t)dnnlk__resize_floor(x);
        idx[1] = idx[0] + 1 < a->in ? idx[0] + 1 : a->in - 1;
        t = x - (double)idx[0];
        w[0] = 1.0 - t; /* rounded to f32 as dnnlk__resize_linear_coeffs rounds them; f64 keeps these */
        w[1] = t;
        return 0;
    }
    /* further out every tap is past the edge either way; keeps the conversions in range */
    if (!(x > -(double)m - 1.0)) x = -(double)m - 1.0;
    if (x > hi + (double)m + 1.0) x = hi + (double)m + 1.0;
    fl = dnnlk__resize_floor(x);
    r = x - fl;
    s = j->antialias && a->scale < 1.0 ? a->scale : 1.0;
    first = (int64_t)fl - h;
    for (i = 0; i < m; i++) {
        double d = ((double)(i - h) - r) * s, ad = d < 0.0 ? -d : d;
        w[i] = j->mode == dnnlk_resize_cubic ? dnnlk__resize_cubic_kernel(ad, j->cubic_a) : (ad < 1.0 ? 1.0 - ad : 0.0);
        sum += w[i];
    }
    if (j->antialias && sum != 0.0)
        for (i = 0; i < m; i++) w[i] /= sum;
    if (j->exclude) {
        sum = 0.0;
        for (i = 0; i < m; i++) {
            if (first + i < 0 || first + i > a->in - 1) w[i] = 0.0;
            sum += w[i];
        }
        if (sum != 0.0)
            for (i = 0; i < m; i++) w[i] /= sum;
    }
    for (i = 0; i < m; i++) idx[i] = first + i < 0 ? 0 : (first + i > a->in - 1 ? a->in - 1 : first + i);
    return 0;
}

/* What one row of the general path needs. Levels are the outer resized axes, innermost first;
 * the source row of taps (d_0, ..., d_k-1) is src + off[0][d_0] + ... + off[k-1][d_k-1]. */
typedef struct dnnlk__resize_trow {
    char *dst;              /* output column 0 */
    const char *src;
    int k;
    int m[DNNLK_MAX_NDIMS];
    const int64_t *off[DNNLK_MAX_NDIMS]; /* bytes */
    const float *w[DNNLK_MAX_NDIMS];
    const double *wd[DNNLK_MAX_NDIMS];
    int outside;            /* an outer axis samples outside the input: the whole row extrapolates */
    int64_t c0, c1;         /* columns [c0, c1) */
    int mi;                 /* taps of the inner axis; 0 when it is not resized */
    int64_t cb;             /* tap i of column c: entry i * cb + c - c0 of the tables below */
    const int32_t *xi;      /* source index */
    const float *xw;
    const double *xwd;
    const unsigned char *xout; /* column samples outside the input (tf_crop_and_resize), or NULL */
    /* Separable passes: over the pn * ps columns from c0 + pa the inner table repeats with period
     * ps (2 or 4): column pa + ps g + p has the taps of column pa + p moved g elements along, with
     * the same weights, and each column's taps are consecutive. ps 0: no such run. */
    int ps;
    int64_t pa, pn;
} dnnlk__resize_trow;

static DNNLK__FORCEINLINE const char *dnnlk__resize_trow_src(const dnnlk__resize_trow *r, const int *dig) {
    const char *p = r->src;
    int b;
    for (b = 0; b < r->k; b++) p += r->off[b][dig[b]];
    return p;
}

/* Advances the tap digits after level b's partial sum was not complete (dig[b] + 1 < m[b]):
 * the levels below restart. */
static DNNLK__FORCEINLINE void dnnlk__resize_trow_step(int *dig, int b) {
    int e;
    for (e = 0; e < b; e++) dig[e] = 0;
    dig[b]++;
}

/* f32 value of column c: along the inner axis s = w_0 x_0 + w_1 x_1 + ... in tap order, then
 * per level, innermost first, the same sum over its taps of the values below; products never
 * fused into the sums (every level gives these bits). */
static DNNLK__FORCEINLINE float dnnlk__resize_tap_at(const dnnlk__resize_job *j, const dnnlk__resize_trow *r, int64_t c) {
    const dnnlk__resize_axis *ia = &j->ax[j->n - 1];
    const int64_t t = c - r->c0, step = ia->is * j->es;
    float part[DNNLK_MAX_NDIMS];
    int dig[DNNLK_MAX_NDIMS], b, i;
    for (b = 0; b < r->k; b++) dig[b] = 0;
    for (;;) {
        const char *row = dnnlk__resize_trow_src(r, dig);
        float v;
        if (!r->mi) {
            v = dnnlk__resize_load(row + c * step, j->dt);
        } else {
            v = dnnlk__resize_load(row + r->xi[t] * step, j->dt) * r->xw[t];
            DNNLK__NOFUSE(v);
            for (i = 1; i < r->mi; i++) {
                float p = dnnlk__resize_load(row + r->xi[i * r->cb + t] * step, j->dt) * r->xw[i * r->cb + t];
                DNNLK__NOFUSE(p);
                v = v + p;
            }
        }
        for (b = 0;; b++) {
            float p;
            if (b == r->k) return v;
            p = v * r->w[b][dig[b]];
            DNNLK__NOFUSE(p);
            part[b] = dig[b] ? part[b] + p : p;
            if (dig[b] + 1 < r->m[b]) break;
            v = part[b];
        }
        dnnlk__resize_trow_step(dig, b);
    }
}

/* The same in double, for f64. */
static inline double dnnlk__resize_tap_at_f64(const dnnlk__resize_job *j, const dnnlk__resize_trow *r, int64_t c) {
    const dnnlk__resize_axis *ia = &j->ax[j->n - 1];
    const int64_t t = c - r->c0, step = ia->is * j->es;
    double part[DNNLK_MAX_NDIMS], v, x;
    int dig[DNNLK_MAX_NDIMS], b, i;
    for (b = 0; b < r->k; b++) dig[b] = 0;
    for (;;) {
        const char *row = dnnlk__resize_trow_src(r, dig);
        if (!r->mi) {
            memcpy(&v, row + c * step, 8);
        } else {
            memcpy(&x, row + r->xi[t] * step, 8);
            v = x * r->xwd[t];
            DNNLK__NOFUSE(v);
            for (i = 1; i < r->mi; i++) {
                double p;
                memcpy(&x, row + r->xi[i * r->cb + t] * step, 8);
                p = x * r->xwd[i * r->cb + t];
                DNNLK__NOFUSE(p);
                v = v + p;
            }
        }
        for (b = 0;; b++) {
            double p;
            if (b == r->k) return v;
            p = v * r->wd[b][dig[b]];
            DNNLK__NOFUSE(p);
            part[b] = dig[b] ? part[b] + p : p;
            if (dig[b] + 1 < r->m[b]) break;
            v = part[b];
        }
        dnnlk__resize_trow_step(dig, b);
    }
}

/* One element of the general path: extrapolated, copied (nearest), or filtered. */
static DNNLK__FORCEINLINE void dnnlk__resize_tap_put(const dnnlk__resize_job *j, const dnnlk__resize_trow *r, int64_t c) {
    const dnnlk__resize_axis *ia = &j->ax[j->n - 1];
    char *d = r->dst + c * ia->os * j->es;
    const int64_t t = c - r->c0;
    if (r->outside || (r->xout && r->xout[t])) {
        memcpy(d, j->extrap, (size_t)j->es);
    } else if (j->mode == dnnlk_resize_nearest) {
        int dig[DNNLK_MAX_NDIMS], b;
        for (b = 0; b < r->k; b++) dig[b] = 0;
        memcpy(d, dnnlk__resize_trow_src(r, dig) + (r->mi ? (int64_t)r->xi[t] : c) * ia->is * j->es, (size_t)j->es);
    } else if (j->dt == dnnlk_f64) {
        double v = dnnlk__resize_tap_at_f64(j, r, c);
        memcpy(d, &v, 8);
    } else {
        dnnlk__resize_store(d, j->dt, dnnlk__resize_tap_at(j, r, c));
    }
}

/* One element, out of line: the vector paths' heads and tails. */
DNNLK__NOINLINE_BEGIN
static DNNLK__NOINLINE void dnnlk__resize_tap_put_one(const dnnlk__resize_job *j, const dnnlk__resize_trow *r, int64_t c) {
    dnnlk__resize_tap_put(j, r, c);
}
DNNLK__NOINLINE_END

/* Any layout, element by element: the definition the vector paths reproduce. */
static inline void dnnlk__resize_trow_any(const dnnlk__resize_job *j, const dnnlk__resize_trow *r) {
    int64_t c;
    for (c = r->c0; c < r->c1; c++) dnnlk__resize_tap_put(j, r, c);
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

/* ---- the general path's driver ---- */

/* The periodic run of a column block's inner tap table for the separable inner pass (see
 * dnnlk__resize_trow's ps): a candidate period s (an integer factor out / in of 2 or 4), and the
 * longest stretch of columns whose mi taps are consecutive (not clamped at the border) and where
 * each column has the weights (bit for bit) of the column s before it and taps one element
 * higher. The table decides, not the coordinate mode: whatever rounding made the weights, a run
 * holds exactly the ones the column-by-column pass would use. */
static inline void dnnlk__resize_period(const dnnlk__resize_axis *ia, int mi, int64_t cb, int64_t cw,
                                        const int32_t *xi, const float *xw, dnnlk__resize_trow *row) {
    const int64_t s = ia->out % ia->in ? 0 : ia->out / ia->in;
    int64_t t, pa = 0, best_a = 0, best_n = 0;
    int i;
    row->ps = 0;
    row->pa = row->pn = 0;
    if ((s != 2 && s != 4) || mi > 4) return; /* upscales: 2 taps linear, 4 cubic */
    for (t = 0; t < cw; t++) {
        int ok = 1;
        for (i = 1; i < mi && ok; i++) ok = xi[i * cb + t] == xi[t] + i;
        if (!ok) { /* no run holds column t */
            pa = t + 1;
            continue;
        }
        if (t - pa >= s) {
            ok = xi[t] == xi[t - s] + 1;
            for (i = 0; i < mi && ok; i++) ok = !memcmp(&xw[i * cb + t], &xw[i * cb + t - s], sizeof(float));
            if (!ok) pa = t - s + 1; /* no run holds both t - s and t */
        }
        if ((t + 1 - pa) / s > best_n) {
            best_n = (t + 1 - pa) / s;
            best_a = pa;
        }
    }
    if (best_n < 1) return;
    {
        /* The run from a multiple of 16 columns (the widest vector) when it stays longer than a
         * vector of groups there: its stores are then whole aligned vectors (the slots are
         * 64-byte aligned), not each split over two cache lines; the columns before it are one
         * or two vectors of the column-by-column pass, as the misaligned head was. */
        const int64_t a16 = (best_a + 15) / 16 * 16, end = best_a + s * best_n;
        if (a16 > best_a && (end - a16) / s >= 16) {
            best_n = (end - a16) / s;
            best_a = a16;
        }
    }
    row->ps = (int)s;
    row->pa = best_a;
    row->pn = best_n;
}

#define DNNLK__RESIZE_TOT 1024 /* entries of the per-call outer-axis tap tables */
#define DNNLK__RESIZE_HSLOTS 8 /* inner-pass rows kept by the separable path */

static inline void dnnlk__resize_run_general(const dnnlk__resize_job *j) {
    void (*const row_fn)(const dnnlk__resize_job *, const dnnlk__resize_trow *) = DNNLK__DISPATCH(dnnlk__resize_trow, );
    const int n = j->n, inner = n - 1;
    const dnnlk__resize_axis *ia = &j->ax[inner];
    const int mi = ia->resized ? ia->taps : 0;
    int32_t xi[DNNLK__RESIZE_TB];
    float xw[DNNLK__RESIZE_TB];
    double xwd[DNNLK__RESIZE_TB];
    unsigned char xout[DNNLK__RESIZE_CB];
    /* outer resized axes: all their taps per call while they fit, else per row in the pool */
    int64_t ot_off[DNNLK__RESIZE_TOT], ot_base[DNNLK_MAX_NDIMS], used = 0;
    float ot_w[DNNLK__RESIZE_TOT];
    double ot_wd[DNNLK__RESIZE_TOT];
    unsigned char ot_out[DNNLK__RESIZE_TOT];
    /* each tap's source index mod the axis' taps: the slot its inner pass is kept in */
    unsigned char ot_slot[DNNLK__RESIZE_TOT], pool_slot[DNNLK__RESIZE_TPOOL];
    int64_t pool_off[DNNLK__RESIZE_TPOOL];
    float pool_w[DNNLK__RESIZE_TPOOL];
    double pool_wd[DNNLK__RESIZE_TPOOL];
    int64_t cb_first = j->u0 % j->ncb, r_first = j->u0 / j->ncb, r_last = (j->u1 - 1) / j->ncb;
    int64_t cb_last = (j->u1 - 1) % j->ncb, cbs = j->ncb < j->u1 - j->u0 ? j->ncb : j->u1 - j->u0, k;
    int d, nlev = 0, sep, pair_axis;
    /* separable passes (f32 along a resized contiguous inner axis, at most one outer level of at
     * most DNNLK__RESIZE_HSLOTS taps): the inner pass of a source row is kept for the rows after */
    void (*const hpass)(const dnnlk__resize_job *, const dnnlk__resize_trow *, const char *, float *) =
        DNNLK__DISPATCH(dnnlk__resize_hpass, );
    void (*const vpass)(const dnnlk__resize_job *, const dnnlk__resize_trow *, const float *const *, const float *, int,
                        float *, const float *) = DNNLK__DISPATCH(dnnlk__resize_vpass, );
    float hmem[DNNLK__RESIZE_HSLOTS * DNNLK__RESIZE_CB + 16], *hbuf[DNNLK__RESIZE_HSLOTS];
    const char *hkey[DNNLK__RESIZE_HSLOTS];
    /* the slots on 64-byte boundaries: a vector of the outer pass's loads (column offsets are
     * whole vectors) then never spans two cache lines */
    hbuf[0] = hmem + ((64 - ((uintptr_t)hmem & 63)) & 63) / 4;
    for (d = 1; d < DNNLK__RESIZE_HSLOTS; d++) hbuf[d] = hbuf[0] + d * DNNLK__RESIZE_CB;
    for (d = 0; d < inner; d++) nlev += j->ax[d].resized;
    sep = j->mode != dnnlk_resize_nearest && j->dt == dnnlk_f32 && mi && ia->is == 1 && ia->os == 1 && nlev <= 1;
    for (d = 0; d < inner; d++)
        if (j->ax[d].resized && j->ax[d].taps > DNNLK__RESIZE_HSLOTS) sep = 0;
    for (d = 0; d < inner; d++) {
        const dnnlk__resize_axis *a = &j->ax[d];
        int64_t o, idx[DNNLK__RESIZE_MAXTAPS];
        double w[DNNLK__RESIZE_MAXTAPS];
        int i;
        ot_base[d] = -1;
        if (!a->resized || used + a->out * a->taps > DNNLK__RESIZE_TOT) continue;
        ot_base[d] = used;
        for (o = 0; o < a->out; o++) {
            int out = dnnlk__resize_taps_of(j, a, o, idx, w);
            ot_out[used] = (unsigned char)out; /* at the output's first tap */
            for (i = 0; i < a->taps; i++, used++) {
                ot_off[used] = idx[i] * a->is * j->es;
                ot_slot[used] = (unsigned char)(idx[i] % a->taps);
                ot_w[used] = (float)w[i];
                ot_wd[used] = w[i];
            }
        }
    }
    /* the separable path's one outer level, when consecutive rows step along it and its taps
     * are in the per-call tables: output rows there may pair (see the outer pass) */
    pair_axis = -1;
    if (sep && inner >= 1 && j->ax[inner - 1].resized && ot_base[inner - 1] >= 0) pair_axis = inner - 1;
    for (k = 0; k < cbs; k++) {
        const int64_t cb = (cb_first + k) % j->ncb, c0 = cb * j->cbw;
        const int64_t c1 = c0 + j->cbw < ia->out ? c0 + j->cbw : ia->out;
        int64_t ra = cb >= cb_first ? r_first : r_first + 1, rb = cb <= cb_last ? r_last : r_last - 1, rr, c;
        int64_t idx[DNNLK_MAX_NDIMS];
        dnnlk__resize_trow row;
        int any_out = 0;
        if (ra > rb) continue;
        for (d = 0; d < DNNLK__RESIZE_HSLOTS; d++) hkey[d] = NULL;
        row.c0 = c0;
        row.c1 = c1;
        row.mi = mi;
        row.cb = j->cbw;
        row.xi = xi;
        row.xw = xw;
        row.xwd = xwd;
        row.xout = NULL;
        if (mi) {
            for (c = c0; c < c1; c++) {
                int64_t ti[DNNLK__RESIZE_MAXTAPS];
                double tw[DNNLK__RESIZE_MAXTAPS];
                int i;
                xout[c - c0] = (unsigned char)dnnlk__resize_taps_of(j, ia, c, ti, tw);
                any_out |= xout[c - c0];
                for (i = 0; i < mi; i++) {
                    xi[i * j->cbw + c - c0] = (int32_t)ti[i];
                    xw[i * j->cbw + c - c0] = (float)tw[i];
                    xwd[i * j->cbw + c - c0] = tw[i];
                }
            }
            if (any_out) row.xout = xout;
        }
        row.ps = 0;
        row.pa = row.pn = 0;
        if (sep && !any_out) dnnlk__resize_period(ia, mi, j->cbw, c1 - c0, xi, xw, &row);
        {
            int64_t rem = ra;
            for (d = inner - 1; d >= 0; d--) {
                idx[d] = rem % j->ax[d].out;
                rem /= j->ax[d].out;
            }
        }
        for (rr = ra; rr <= rb; rr++) {
            const char *sp = j->src;
            char *op = j->dst;
            int lev = 0, pooled = 0;
            const unsigned char *slot0 = NULL; /* level 0's ot_slot / pool_slot */
            row.outside = 0;
            for (d = inner - 1; d >= 0; d--) { /* levels: innermost outer resized axis first */
                const dnnlk__resize_axis *a = &j->ax[d];
                op += idx[d] * a->os * j->es;
                if (!a->resized) {
                    sp += idx[d] * a->is * j->es;
                    continue;
                }
                row.m[lev] = a->taps;
                if (ot_base[d] >= 0) {
                    const int64_t t = ot_base[d] + idx[d] * a->taps;
                    row.outside |= ot_out[t];
                    row.off[lev] = ot_off + t;
                    if (!lev) slot0 = ot_slot + t;
                    row.w[lev] = ot_w + t;
                    row.wd[lev] = ot_wd + t;
                } else {
                    int64_t ti[DNNLK__RESIZE_MAXTAPS];
                    double tw[DNNLK__RESIZE_MAXTAPS];
                    int i;
                    row.outside |= dnnlk__resize_taps_of(j, a, idx[d], ti, tw);
                    for (i = 0; i < a->taps; i++) {
                        pool_off[pooled + i] = ti[i] * a->is * j->es;
                        pool_slot[pooled + i] = (unsigned char)(ti[i] % a->taps);
                        pool_w[pooled + i] = (float)tw[i];
                        pool_wd[pooled + i] = tw[i];
                    }
                    row.off[lev] = pool_off + pooled;
                    if (!lev) slot0 = pool_slot + pooled;
                    row.w[lev] = pool_w + pooled;
                    row.wd[lev] = pool_wd + pooled;
                    pooled += a->taps;
                }
                lev++;
            }
            row.k = lev;
            row.src = sp;
            row.dst = op;
            if (row.outside) {
                for (c = c0; c < c1; c++) memcpy(op + c * ia->os * j->es, j->extrap, (size_t)j->es);
            } else if (sep) {
                /* The inner pass of each source row once per block, kept while later rows use it,
                 * in the slot of its index mod the axis' taps m0 (<= DNNLK__RESIZE_HSLOTS): a row's
                 * taps are m0 consecutive indices (clamped), so its distinct source rows have
                 * distinct slots; each is looked at once, without a search, and the fewest buffers
                 * stay in L1. */
                const float *hp[DNNLK__RESIZE_HSLOTS];
                const float one = 1.0f, *wl = &one, *wl2 = NULL;
                float *dst2 = NULL;
                int m0 = 1, i;
                if (row.k == 0) {
                    if (hkey[0] != row.src) {
                        hkey[0] = row.src;
                        hpass(j, &row, row.src, hbuf[0]);
                    }
                    hp[0] = hbuf[0];
                } else {
                    m0 = row.m[0];
                    wl = row.w[0];
                    for (i = 0; i < m0; i++) {
                        const char *need = row.src + row.off[0][i];
                        const int e = slot0[i];
                        if (hkey[e] != need) {
                            hkey[e] = need;
                            hpass(j, &row, need, hbuf[e]);
                        }
                        hp[i] = hbuf[e];
                    }
                    /* The next row too when it is the next index along the same (innermost
                     * outer) axis, in this block, and has the same source rows: the outer pass
                     * loads them once for both (an x2 upscale's rows 2k + 1 and 2k + 2). */
                    if (pair_axis >= 0 && rr < rb && idx[pair_axis] + 1 < j->ax[pair_axis].out && !row.xout &&
                        (m0 == 2 || m0 == 4)) {
                        const dnnlk__resize_axis *a = &j->ax[pair_axis];
                        const int64_t t = ot_base[pair_axis] + idx[pair_axis] * m0, t2 = t + m0;
                        char *const op2 = op + a->os * j->es;
                        int same = !ot_out[t2] && !(((uintptr_t)op ^ (uintptr_t)op2) & 63);
                        for (i = 0; i < m0 && same; i++) same = ot_off[t2 + i] == ot_off[t + i];
                        if (same) {
                            dst2 = (float *)(void *)op2;
                            wl2 = ot_w + t2;
                        }
                    }
                }
                vpass(j, &row, hp, wl, m0, dst2, wl2);
                if (dst2) { /* the pair's second row is done: step past it */
                    idx[pair_axis]++;
                    rr++;
                }
            } else {
                row_fn(j, &row);
            }
            for (d = inner - 1; d >= 0; d--) { /* the next row's outer indices */
                if (++idx[d] < j->ax[d].out) break;
                idx[d] = 0;
            }
        }
    }
    if (j->stream) DNNLK__DISPATCH(dnnlk__resize_fence, ());
}

/* ---- validation and the plan ---- */

static inline int dnnlk__resize_dtype_ok(dnnlk_dtype t, int mode) {
    switch (t) {
    case dnnlk_f32: case dnnlk_bf16: case dnnlk_f16: case dnnlk_f64: case dnnlk_u8: case dnnlk_s8: return 1;
    case dnnlk_s32: case dnnlk_s64: case dnnlk_u64: case dnnlk_boolean:
        return mode == dnnlk_resize_nearest; /* bits copied */
    default: return 0;
    }
}

static inline dnnlk_status dnnlk__resize_prepare(const dnnlk_tensor *src, const dnnlk_resize_desc *desc,
                                                 const dnnlk_tensor *dst, int execute, dnnlk_tensor *dd,
                                                 dnnlk__resize_axis *ax) {
    int64_t out[DNNLK_MAX_NDIMS], n = 0;
    int listed[DNNLK_MAX_NDIMS];
    int nd, i;
    double aspect = 0.0; /* keep_aspect: the one scale of the listed axes */
    dnnlk_status st;
    if (!src || !desc || !dst) return dnnlk_invalid_arguments;
    if ((st = dnnlk__check_input(src, execute)) != dnnlk_success) return st;
    if ((unsigned)desc->mode > 2u || (unsigned)desc->coord > 5u || (unsigned)desc->nearest > 3u ||
        (unsigned)desc->keep_aspect > 2u)
        return dnnlk_invalid_arguments;
    if (!dnnlk__resize_dtype_ok(src->dtype, desc->mode)) return dnnlk_invalid_data_type;
    if (dst->dtype != src->dtype) return dnnlk_invalid_data_type;
    /* a finite cubic_coeff_a (NaN or an infinity makes every weight NaN); antialias only filters */
    if (!(desc->cubic_coeff_a >= -3.4028234663852886e38 && desc->cubic_coeff_a <= 3.4028234663852886e38))
        return dnnlk_invalid_arguments;
    if (!dnnlk__flag_ok(desc->antialias) || !dnnlk__flag_ok(desc->exclude_outside)) return dnnlk_invalid_arguments;
    if (desc->antialias && desc->mode == dnnlk_resize_nearest) return dnnlk_invalid_arguments;
    nd = src->ndims;
    if (desc->naxes < 0 || desc->naxes > nd) return dnnlk_invalid_arguments;
    if (desc->naxes > 0 && ((desc->scales == NULL) == (desc->sizes == NULL))) return dnnlk_invalid_arguments;
    /* keep_aspect_ratio_policy chooses one scale for the listed axes from their sizes */
    if (desc->keep_aspect != dnnlk_resize_stretch && (desc->naxes == 0 || !desc->sizes)) return dnnlk_invalid_arguments;
    /* roi: two values per listed axis, for tf_crop_and_resize (which needs it) */
    if (desc->nroi != 0 || desc->roi) {
        if (desc->nroi != 2 * desc->naxes || !desc->roi) return dnnlk_invalid_arguments;
        for (i = 0; i < desc->nroi; i++)
            if (!(desc->roi[i] >= -3.4028234663852886e38 && desc->roi[i] <= 3.4028234663852886e38))
                return dnnlk_invalid_arguments;
    }
    if (desc->coord == dnnlk_resize_tf_crop_and_resize && desc->naxes > 0 && !desc->roi) return dnnlk_invalid_arguments;
    for (i = 0; i < nd; i++) {
        listed[i] = 0;
        out[i] = src->dims[i];
        ax[i].in = src->dims[i];
        /* Only index 0 of a size-1 dim is read, and its stride may be anything (the extent checks
         * skip it): 1 instead keeps the byte offsets (stride x element size) from overflowing, and
         * the contiguous paths open to it. */
        ax[i].is = src->dims[i] > 1 ? src->strides[i] : 1;
        ax[i].resized = 0;
        ax[i].scale = 1.0;
        ax[i].length = (double)src->dims[i];
        ax[i].roi0 = 0.0;
        ax[i].roi1 = 1.0;
        ax[i].taps = 1;
    }
    if (desc->keep_aspect != dnnlk_resize_stretch) {
        for (i = 0; i < desc->naxes; i++) {
            int a = desc->axes ? desc->axes[i] : i;
            double r;
            if (a < -nd || a >= nd) return dnnlk_invalid_arguments;
            if (a < 0) a += nd;
            if (desc->sizes[i] <= 0) return dnnlk_invalid_arguments;
            if (src->dims[a] == 0) return dnnlk_invalid_shape;
            r = (double)desc->sizes[i] / (double)src->dims[a];
            if (i == 0 || (desc->keep_aspect == dnnlk_resize_not_larger ? r < aspect : r > aspect)) aspect = r;
        }
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
        if (desc->scales || aspect > 0.0) {
            double p;
            scale = desc->scales ? (double)desc->scales[i] : aspect;
            if (!(scale > 0.0 && scale <= 3.4028234663852886e38)) return dnnlk_invalid_arguments;
            p = (double)in * scale;
            if (!(p < 4611686018427387904.0)) return dnnlk_invalid_shape; /* 2^62 */
            /* floor(in * scale) with scales; ONNX's round half up with keep_aspect_ratio_policy */
            out[a] = desc->scales ? (int64_t)p : (int64_t)(p + 0.5); /* p >= 0: truncation is floor */
            ax[a].length = p;
        } else {
            if (desc->sizes[i] < 0) return dnnlk_invalid_arguments;
            out[a] = desc->sizes[i];
            if (in == 0 && out[a] > 0) return dnnlk_invalid_shape;
            scale = in > 0 ? (double)out[a] / (double)in : 1.0;
            ax[a].length = (double)out[a];
        }
        ax[a].scale = scale;
        if (desc->coord == dnnlk_resize_tf_crop_and_resize) {
            ax[a].roi0 = (double)desc->roi[i];
            ax[a].roi1 = (double)desc->roi[desc->naxes + i];
        }
        ax[a].resized = !(out[a] == in && scale == 1.0 && ax[a].roi0 == 0.0 && ax[a].roi1 == 1.0) && in > 0 && out[a] > 0;
        if (ax[a].resized) {
            ax[a].taps = dnnlk__resize_ntaps((int)desc->mode, desc->antialias, scale);
            if (ax[a].taps == 0) return dnnlk_unimplemented; /* a window over DNNLK__RESIZE_MAXTAPS */
        }
    }
    {
        int taps = 0; /* one row's outer levels hold their taps in a pool */
        for (i = 0; i < nd; i++) taps += ax[i].resized ? ax[i].taps : 0;
        if (taps > DNNLK__RESIZE_TPOOL) return dnnlk_unimplemented;
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

/* extrapolation_value as one element of dtype t: floats rounded to nearest even, integers
 * rounded half to even and saturated (NaN: 0), boolean nonzero. */
static inline void dnnlk__resize_extrap_bytes(dnnlk_dtype t, float v, unsigned char *out) {
    memset(out, 0, 8);
    switch (t) {
    case dnnlk_f64: { double x = (double)v; memcpy(out, &x, 8); } break;
    case dnnlk_s32: case dnnlk_s64: {
        double r = v != v ? 0.0 : (double)dnnlk__round_half_even_f32(v);
        if (t == dnnlk_s32) {
            int32_t x = r >= 2147483647.0 ? INT32_MAX : (r <= -2147483648.0 ? INT32_MIN : (int32_t)r);
            memcpy(out, &x, 4);
        } else {
            int64_t x = r >= 9223372036854775807.0 ? INT64_MAX : (r <= -9223372036854775808.0 ? INT64_MIN : (int64_t)r);
            memcpy(out, &x, 8);
        }
    } break;
    case dnnlk_u64: {
        double r = v != v ? 0.0 : (double)dnnlk__round_half_even_f32(v);
        uint64_t x = r <= 0.0 ? 0 : (r >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)r);
        memcpy(out, &x, 8);
    } break;
    case dnnlk_boolean: out[0] = v != 0.0f; break;
    default: dnnlk__resize_store((char *)out, t, v); break;
    }
}

/* ---- public API ---- */

static inline dnnlk_status dnnlk_resize_infer(const dnnlk_tensor *src, const dnnlk_resize_desc *desc, dnnlk_tensor *dst) {
    dnnlk_tensor dd;
    dnnlk__resize_axis ax[DNNLK_MAX_NDIMS];
    dnnlk_status st = dnnlk__resize_prepare(src, desc, dst, 0, &dd, ax);
    if (st == dnnlk_success) dnnlk__set_desc(dst, &dd);
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
    /* Dims in dst memory order (stable by |stride|, largest first): rows run along dst memory.
     * |stride| in uint64_t: the stride of a size-1 dim (or of an empty dst) may be INT64_MIN. */
    m = 0;
    for (i = 0; i < dd.ndims; i++) {
        int jx = m++;
        uint64_t si = ax[i].os < 0 ? 0u - (uint64_t)ax[i].os : (uint64_t)ax[i].os;
        dnnlk__resize_axis a = ax[i];
        total *= ax[i].out;
        while (jx > 0) {
            uint64_t sj = job.ax[jx - 1].os < 0 ? 0u - (uint64_t)job.ax[jx - 1].os : (uint64_t)job.ax[jx - 1].os;
            if (sj >= si) break;
            job.ax[jx] = job.ax[jx - 1];
            jx--;
        }
        job.ax[jx] = a;
    }
    /* The inner-axis tables hold 32-bit source indices. */
    if (m > 0 && job.ax[m - 1].resized && job.ax[m - 1].in > INT32_MAX) return dnnlk_unimplemented;
    dnnlk__set_desc(dst, &dd);
    if (total == 0) return dnnlk_success;
    if (m == 0) {
        job.ax[0].in = job.ax[0].out = 1;
        job.ax[0].is = job.ax[0].os = 1;
        job.ax[0].resized = 0;
        job.ax[0].scale = job.ax[0].length = 1.0;
        m = 1;
    }
    job.n = m;
    job.mode = (int)desc->mode;
    job.antialias = desc->antialias != 0;
    job.exclude = desc->exclude_outside != 0;
    job.cubic_a = desc->cubic_coeff_a != 0.0f ? (double)desc->cubic_coeff_a : -0.75;
    dnnlk__resize_extrap_bytes(src->dtype, desc->extrapolation_value, job.extrap);
    {
        const dnnlk__resize_axis *ia = &job.ax[m - 1];
        int down = 0, outer = 0;
        for (i = 0; i < m; i++) down |= job.ax[i].resized && job.ax[i].scale < 1.0;
        for (i = 0; i < m - 1; i++) outer += job.ax[i].resized;
        /* the general path: what the two-tap paths do not do, and f32 NCHW linear */
        job.general = desc->mode == dnnlk_resize_cubic || (desc->mode == dnnlk_resize_linear && desc->antialias && down) ||
                      desc->coord == dnnlk_resize_tf_crop_and_resize ||
                      (desc->mode == dnnlk_resize_linear && src->dtype == dnnlk_f64) ||
                      /* f32 linear along a resized contiguous inner axis with at most one outer
                       * resized axis: the general path's separable passes, the same bits */
                      (desc->mode == dnnlk_resize_linear && src->dtype == dnnlk_f32 && ia->resized && ia->is == 1 &&
                       ia->os == 1 && outer <= 1);
    }
    job.cbw = DNNLK__RESIZE_CB;
    if (job.general && job.ax[m - 1].resized && DNNLK__RESIZE_TB / job.ax[m - 1].taps < job.cbw)
        job.cbw = DNNLK__RESIZE_TB / job.ax[m - 1].taps;
    job.linear = desc->mode == dnnlk_resize_linear;
    job.coord = (int)desc->coord;
    job.nearest = (int)desc->nearest;
    job.dt = src->dtype;
    job.es = (int64_t)dnnlk_dtype_size(src->dtype);
    job.src = (const char *)src->data;
    job.dst = (char *)dd.data;
    job.rows = total / job.ax[m - 1].out;
    job.ncb = (job.ax[m - 1].out + job.cbw - 1) / job.cbw;
    job.stream = total * job.es >= DNNLK_RESIZE_NT_BYTES && job.ax[m - 1].os == 1;
    units = job.rows * job.ncb;
    dnnlk__part_range(units, ith, nth, 1, &job.u0, &job.u1);
    if (job.u0 >= job.u1) return dnnlk_success;
    if (job.general) dnnlk__resize_run_general(&job);
    else dnnlk__resize_run(&job);
    return dnnlk_success;
}

#endif /* DNNLK_RESIZE_H */
