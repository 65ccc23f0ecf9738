/* dnnl_kernels — norm.h: layer_norm and l2_norm (ByteIR's additional ops).
 *
 * LAYER NORM
 *   dnnlk_layer_norm(src, weight, bias, naxes, axes, epsilon, eps_outside_sqrt,
 *                    dst, mean, inv_std_dev, ith, nth)
 *   Each group is the set of elements of src that share their indices outside `axes`; over it
 *     mean = Σx / N,  var = Σ(x − mean)² / N   (population variance)
 *     default:           dst = (x − mean) · (1 / sqrt(var + eps)) · w + b
 *     eps_outside_sqrt:  dst = (x − mean) · (1 / (sqrt(var) + eps)) · w + b
 *   - axes: naxes >= 1 distinct axes, negative values count from the end; they must be the
 *     trailing axes of src (any order). A set that is not trailing returns dnnlk_unimplemented.
 *   - weight, bias: optional (NULL); f32, broadcastable one-way to the normalized shape (the dims
 *     of the trailing axes), any strides.
 *   - mean, inv_std_dev: optional (NULL) outputs, f32, src's dims with the normalized axes set to
 *     1 (kept dims). inv_std_dev holds the factor that multiplies (x − mean): 1/sqrt(var + eps),
 *     or 1/(sqrt(var) + eps) in eps_outside_sqrt mode. An empty group (N = 0) gives NaN for both.
 *   - epsilon: finite and >= 0; eps_outside_sqrt: 0 or 1 (else dnnlk_invalid_arguments).
 *
 * L2 NORM
 *   dnnlk_l2_norm(src, axis, epsilon, eps_outside_sqrt, dst, ith, nth): over one axis,
 *     default (TF):                 dst = x / sqrt(max(Σx², eps))
 *     eps_outside_sqrt (F.normalize): dst = x / max(sqrt(Σx²), eps)
 *   Σx² never overflows: rows where it would in f32 are summed in double, so finite inputs always
 *   give finite, correct outputs (PyTorch and the TF formula return 0 for |x| >= ~1e19).
 *
 * BOTH
 *   dtypes: src and dst f32, bf16 or f16, the same for both; all math in f32 or wider.
 *   Any src and dst strides (0 allowed on src); dst may be src itself (same view, in place); any
 *   other overlap between an output and an input or another output is dnnlk_invalid_arguments.
 *   _infer completes dst (and mean / inv_std_dev) dims and strides as described in shape.h.
 *   Statuses: invalid_arguments (NULL pointers, bad epsilon, bad axes, overlap, bad ith/nth),
 *   invalid_data_type, invalid_shape, unimplemented (non-trailing layer_norm axes). On any error
 *   nothing is written.
 *
 * ACCURACY AND REPRODUCIBILITY
 *   Results are bit-identical for every (ith, nth) and for every ISA (scalar, SSE4.1, AVX2,
 *   AVX-512): all variants add in one canonical order (16 lanes, lane j taking the elements
 *   i ≡ j mod 16; per chunk of 128 elements a fixed tree of 8 values per lane, then one add into
 *   the lane; the 16 lanes summed in double by a fixed tree) and never fuse a multiply with an add
 *   (SSE4.1 has no FMA, so nobody uses one).
 *   layer_norm is a shifted two-pass method: a shift m (the mean of the first 16 elements), then
 *   Σ(x−m) and Σ(x−m)² in one pass, mean = m + r with r = Σ(x−m)/N, var = Σ(x−m)²/N − r², and the
 *   output as ((x − m) − r)·s·w + b, so a mean of 1e4 with std 1 keeps full f32 precision. When r
 *   is not small against the std the pass is redone with m + r as the shift. Rows whose sums
 *   overflow or underflow f32, or hold inf/NaN, are recomputed in double (rows of huge finite values
 *   give the correct finite result where PyTorch's f32 statistics overflow).
 *   Rows holding ±inf or NaN: every output element is NaN in both ops; layer_norm's mean output is
 *   the mean of the values (inf for [1, inf, 2, 3], NaN with both infinities or a NaN) and
 *   inv_std_dev is NaN, as ONNX's LayerNormalization reference computes them. (PyTorch and
 *   TensorFlow's l2 normalize give 0 for the finite elements of a row holding ±inf.)
 *   Typical error: within ~2 ulp of a double reference; elements that cancel to near 0 have an
 *   absolute error of a few ulp of the row's output scale. l2_norm over a non-innermost axis sums
 *   and scales in double (about 0.5 ulp) and runs as plain C on every ISA.
 *
 * SPEED
 *   Full-speed rows need the normalized elements contiguous in src and dst (weight and bias
 *   contiguous too); other layouts gather each group's elements into buffers for the same vector
 *   code (norm_simd.h, every level: same bits, slower). A row's statistics are taken in the
 *   loop that writes the row before it, so reading one and writing the other share the time. f32
 *   outputs of at least DNNLK_NORM_NT_BYTES per part (default 2 MiB; define it to change) are
 *   written with non-temporal stores, followed by an sfence. */
#ifndef DNNLK_NORM_H
#define DNNLK_NORM_H

#include <math.h>
#include "base.h"
#include "cpu.h"
#include "shape.h"
#include "loop.h"

DNNLK__NOINLINE_BEGIN /* every static DNNLK__NOINLINE function below */

/* sqrt, correctly rounded like libm's, as the one instruction that libm's sqrt is on x86 (the
 * compiler's inline sqrt still calls libm for errno on a negative input): no op here needs -lm. */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__SSE2__)
#include <emmintrin.h>
static DNNLK__FORCEINLINE double dnnlk__sqrt(double x) {
    return _mm_cvtsd_f64(_mm_sqrt_sd(_mm_setzero_pd(), _mm_set_sd(x)));
}
#else
static DNNLK__FORCEINLINE double dnnlk__sqrt(double x) { return sqrt(x); }
#endif

#define DNNLK__NORM_LANES 16
/* Outputs of at least this many bytes per part are written with non-temporal stores: measured on
 * a 4 MiB-L2 core, streaming loses below ~1 MiB (the output would have stayed in L2) and wins from
 * ~3 MiB on. Above that the crossover depends on the host's L3: on another host (a VM reporting a
 * 480 MiB L3) outputs up to 32 MiB stayed in L3 between calls, so regular stores ran layer_norm
 * 3-7% faster there, but a plain scale kernel's regular stores lost 1.35-1.64x from 64 MiB on;
 * the threshold stays where streaming never loses much. */
#ifndef DNNLK_NORM_NT_BYTES
#define DNNLK_NORM_NT_BYTES (2 << 20)
#endif
#define DNNLK__NORM_CHUNK 128 /* 8 values per lane per chunk */

/* The canonical sum of the 16 lane partial sums, in double: halves folded onto each other. */
static DNNLK__FORCEINLINE double dnnlk__norm_hsum16(const float *l) {
    double b[8], c[4], d0, d1;
    int i;
    for (i = 0; i < 8; i++) b[i] = (double)l[i] + (double)l[i + 8];
    for (i = 0; i < 4; i++) c[i] = b[i] + b[i + 4];
    d0 = c[0] + c[2];
    d1 = c[1] + c[3];
    return d0 + d1;
}

/* ---- jobs: what the per-ISA kernels need, plain structs ---- */

typedef struct dnnlk__ln_job {
    dnnlk__loop inner; /* the normalized dims; operands 0 x, 1 y, 2 w, 3 b (bytes) */
    int64_t n;
    double inv_n;
    int dt; /* dtype of x and y */
    int has_w, has_b, eps_out;
    int nt; /* f32 output streamed past the caches (non-temporal stores) */
    double eps;
    const float *w, *b; /* group-independent bases (a dummy when absent) */
} dnnlk__ln_job;

typedef struct dnnlk__ln_row {
    float m, r, s;            /* shift, correction, scale */
    float mean_out, istd_out; /* what the optional outputs get */
} dnnlk__ln_row;

typedef struct dnnlk__l2_job {
    dnnlk__loop inner; /* operands 0 x, 1 y (rows mode: the axis) */
    int64_t n;
    int dt;
    int eps_out;
    int nt;
    double eps;
} dnnlk__l2_job;

/* Walks the elements of a group in row-major order of its logical index. */
typedef struct dnnlk__norm_stream {
    dnnlk__loop_iter it;
    char *row[4];
    int64_t left;
    int64_t st[4];
    int nops;
} dnnlk__norm_stream;

static DNNLK__FORCEINLINE void dnnlk__norm_stream_init(dnnlk__norm_stream *s, const dnnlk__loop *l, void *const *base,
                                                       int64_t begin) {
    int op;
    s->nops = l->nops;
    dnnlk__iter_init(&s->it, l, base, begin, l->total);
    s->left = 0;
    for (op = 0; op < l->nops; op++) s->st[op] = dnnlk__row_stride(l, op);
}

/* Pointers to the next element, per operand, in p. */
static DNNLK__FORCEINLINE void dnnlk__norm_stream_next(dnnlk__norm_stream *s, char **p) {
    int op;
    if (s->left == 0) s->left = dnnlk__iter_next(&s->it, s->row);
    for (op = 0; op < s->nops; op++) {
        p[op] = s->row[op];
        s->row[op] += s->st[op];
    }
    s->left--;
}

static DNNLK__FORCEINLINE float dnnlk__norm_ld(const char *p, int dt) {
    return dnnlk__load_as_f32(p, (dnnlk_dtype)dt);
}

/* ---- layer_norm: per-row decisions, shared by every ISA (never inlined into a target region,
 * so the double math is compiled once) ---- */

enum { dnnlk__ln_ok = 0, dnnlk__ln_redo = 1, dnnlk__ln_fallback = 2 };

/* Shift for a row: the mean of its first min(16, N) elements (lanes zero-padded). */
static DNNLK__FORCEINLINE float dnnlk__ln_shift(const float *first16, int64_t n) {
    return (float)(dnnlk__norm_hsum16(first16) / (double)(n < 16 ? n : 16));
}

/* From the lane sums of d = x − m and d², decides: accept (o filled), redo with o->m, or fall
 * back to double. */
static DNNLK__NOINLINE int dnnlk__ln_finish(const dnnlk__ln_job *j, float m, const float *ld, const float *lq,
                                           int attempt, dnnlk__ln_row *o) {
    double sd = dnnlk__norm_hsum16(ld), sq = dnnlk__norm_hsum16(lq), r, rr, var, s;
    if (!(m - m == 0) || !(sd - sd == 0) || !(sq - sq == 0)) return dnnlk__ln_fallback;
    r = sd * j->inv_n;
    rr = r * r;
    DNNLK__NOFUSE(rr);
    var = sq * j->inv_n - rr;
    if (rr > 0.25 * var) {
        /* The shift is far from the mean against the spread: var has lost bits to cancellation
         * and (x − m) − r would round badly. Shift by the better mean and do the pass again. */
        if (attempt > 0) return dnnlk__ln_fallback;
        o->m = (float)((double)m + r);
        return dnnlk__ln_redo;
    }
    if (var < 0x1p-100) {
        /* Squares below f32's normal range were lost; fine only when eps dominates. */
        if (j->eps_out ? j->eps < 0x1p-37 : j->eps < 0x1p-74) return dnnlk__ln_fallback;
    }
    if (var < 0) var = 0;
    s = j->eps_out ? 1.0 / (dnnlk__sqrt(var) + j->eps) : 1.0 / dnnlk__sqrt(var + j->eps);
    o->m = m;
    o->r = (float)r;
    o->s = (float)s;
    o->mean_out = (float)((double)m + r);
    o->istd_out = (float)s;
    return dnnlk__ln_ok;
}

/* The whole group in double, in logical order: rows the f32 path cannot do (overflow, inf/NaN,
 * vanishing variance). base: x and y of the group, w and b bases. */
static DNNLK__NOINLINE void dnnlk__ln_group_double(const dnnlk__ln_job *j, void *const *base, dnnlk__ln_row *o) {
    dnnlk__norm_stream st;
    char *p[4];
    double sum = 0, mu, sq = 0, s;
    int64_t i;
    dnnlk__norm_stream_init(&st, &j->inner, base, 0);
    for (i = 0; i < j->n; i++) {
        dnnlk__norm_stream_next(&st, p);
        sum += (double)dnnlk__norm_ld(p[0], j->dt);
    }
    mu = sum / (double)j->n;
    dnnlk__norm_stream_init(&st, &j->inner, base, 0);
    for (i = 0; i < j->n; i++) {
        double d;
        dnnlk__norm_stream_next(&st, p);
        d = (double)dnnlk__norm_ld(p[0], j->dt) - mu;
        sq += d * d;
    }
    sq /= (double)j->n;
    s = j->eps_out ? 1.0 / (dnnlk__sqrt(sq) + j->eps) : 1.0 / dnnlk__sqrt(sq + j->eps);
    dnnlk__norm_stream_init(&st, &j->inner, base, 0);
    for (i = 0; i < j->n; i++) {
        double y;
        dnnlk__norm_stream_next(&st, p);
        y = ((double)dnnlk__norm_ld(p[0], j->dt) - mu) * s;
        if (j->has_w) y *= (double)*(const float *)(const void *)p[2];
        DNNLK__NOFUSE(y);
        if (j->has_b) y += (double)*(const float *)(const void *)p[3];
        dnnlk__store_from_f32(p[1], (dnnlk_dtype)j->dt, (float)y);
    }
    /* A row with inf or NaN: mean is the mean of the values (inf, -inf, or NaN when both signs
     * of inf or a NaN are present) and inv_std_dev NaN (x - mean is NaN somewhere), as ONNX's
     * LayerNormalization reference computes them; every output element is NaN. */
    o->mean_out = (float)mu;
    o->istd_out = (float)s;
}

/* ---- l2_norm rows (the axis is the only non-unit dim of a group) ---- */

/* 1/denominator from a double sum of squares. A row holding NaN or ±inf has a NaN or +inf sum
 * (double squares of floats cannot overflow it): its factor is NaN, so every element of the row
 * is NaN, instead of max() turning a NaN sum into eps or 1/inf making the finite elements 0. */
static DNNLK__FORCEINLINE double dnnlk__l2_inv(const dnnlk__l2_job *j, double s) {
    if (!(s - s == 0)) return s - s;
    return j->eps_out ? 1.0 / (dnnlk__sqrt(s) > j->eps ? dnnlk__sqrt(s) : j->eps)
                      : 1.0 / dnnlk__sqrt(s > j->eps ? s : j->eps);
}

/* 1/denominator in double from the lane sums of x²; 0 when the row must go to double. */
static DNNLK__NOINLINE int dnnlk__l2_finish(const dnnlk__l2_job *j, const float *lq, float *scale) {
    double s = dnnlk__norm_hsum16(lq);
    if (!(s - s == 0)) return dnnlk__ln_fallback;
    if (s < (double)j->n * 0x1p-100) {
        /* Squares below f32's normal range were lost; fine only when eps dominates. */
        if (j->eps_out ? j->eps * j->eps < (double)j->n * 0x1p-74 : j->eps < (double)j->n * 0x1p-74)
            return dnnlk__ln_fallback;
    }
    *scale = (float)dnnlk__l2_inv(j, s);
    return dnnlk__ln_ok;
}

/* A row in double: exact squares, a sum that cannot overflow, the product rounded once. */
static DNNLK__NOINLINE void dnnlk__l2_group_double(const dnnlk__l2_job *j, void *const *base) {
    dnnlk__norm_stream st;
    char *p[2];
    double s = 0, inv;
    int64_t i;
    dnnlk__norm_stream_init(&st, &j->inner, base, 0);
    for (i = 0; i < j->n; i++) {
        double x;
        dnnlk__norm_stream_next(&st, p);
        x = (double)dnnlk__norm_ld(p[0], j->dt);
        s += x * x;
    }
    inv = dnnlk__l2_inv(j, s);
    dnnlk__norm_stream_init(&st, &j->inner, base, 0);
    for (i = 0; i < j->n; i++) {
        dnnlk__norm_stream_next(&st, p);
        dnnlk__store_from_f32(p[1], (dnnlk_dtype)j->dt, (float)((double)dnnlk__norm_ld(p[0], j->dt) * inv));
    }
}

#define DNNLK__SIMD_BODY_SCALAR 1
#define DNNLK__SIMD_BODY "norm_simd.h"
#include "simd_instantiate.h"

/* ---- validation and shape inference ---- */

static inline int dnnlk__norm_float_dt(dnnlk_dtype t) { return dnnlk__is_float_dtype(t); }

static inline int dnnlk__norm_eps_ok(float eps) { return eps - eps == 0 && eps >= 0; }

/* Checks and completes everything; on success od, om, oi hold the completed descriptors (om/oi
 * only when mean/inv_std_dev are given) and *kaxes the number of normalized (trailing) axes. */
static inline dnnlk_status dnnlk__ln_prepare(const dnnlk_tensor *src, const dnnlk_tensor *weight,
                                             const dnnlk_tensor *bias, int naxes, const int *axes, float epsilon,
                                             const dnnlk_tensor *dst, const dnnlk_tensor *mean,
                                             const dnnlk_tensor *inv_std_dev, int exec, dnnlk_tensor *od,
                                             dnnlk_tensor *om, dnnlk_tensor *oi) {
    int seen[DNNLK_MAX_NDIMS] = {0};
    int64_t kdims[DNNLK_MAX_NDIMS];
    int nd, i, outer;
    dnnlk_status st;
    const dnnlk_tensor *wb[2];
    if (!src || !dst || (naxes > 0 && !axes)) return dnnlk_invalid_arguments;
    st = dnnlk__check_input(src, exec);
    if (st != dnnlk_success) return st;
    if (!dnnlk__norm_float_dt(src->dtype)) return dnnlk_invalid_data_type;
    nd = src->ndims;
    if (naxes < 1 || naxes > nd) return dnnlk_invalid_arguments;
    for (i = 0; i < naxes; i++) {
        int a = axes[i] < 0 ? axes[i] + nd : axes[i];
        if (a < 0 || a >= nd || seen[a]) return dnnlk_invalid_arguments;
        seen[a] = 1;
    }
    outer = nd - naxes;
    for (i = outer; i < nd; i++)
        if (!seen[i]) return dnnlk_unimplemented;
    if (!dnnlk__norm_eps_ok(epsilon)) return dnnlk_invalid_arguments;
    wb[0] = weight;
    wb[1] = bias;
    for (i = 0; i < 2; i++) {
        if (!wb[i]) continue;
        st = dnnlk__check_input(wb[i], exec);
        if (st != dnnlk_success) return st;
        if (wb[i]->dtype != dnnlk_f32) return dnnlk_invalid_data_type;
        st = dnnlk_broadcast_oneway(wb[i]->ndims, wb[i]->dims, naxes, src->dims + outer);
        if (st != dnnlk_success) return st;
    }
    if (dst->dtype != src->dtype) return dnnlk_invalid_data_type;
    st = dnnlk__complete_output(dst, nd, src->dims, od);
    if (st != dnnlk_success) return st;
    for (i = 0; i < nd; i++) kdims[i] = i < outer ? src->dims[i] : 1;
    if (mean) {
        if (mean->dtype != dnnlk_f32) return dnnlk_invalid_data_type;
        st = dnnlk__complete_output(mean, nd, kdims, om);
        if (st != dnnlk_success) return st;
    }
    if (inv_std_dev) {
        if (inv_std_dev->dtype != dnnlk_f32) return dnnlk_invalid_data_type;
        st = dnnlk__complete_output(inv_std_dev, nd, kdims, oi);
        if (st != dnnlk_success) return st;
    }
    if (exec) {
        const dnnlk_tensor *outs[3];
        int no = 0, a, b;
        int64_t numel;
        outs[no++] = od;
        if (mean) outs[no++] = om;
        if (inv_std_dev) outs[no++] = oi;
        for (a = 0; a < no; a++) {
            if (dnnlk_shape_numel(outs[a]->ndims, outs[a]->dims, &numel) != dnnlk_success) return dnnlk_invalid_shape;
            if (numel > 0 && !outs[a]->data) return dnnlk_invalid_arguments;
            if (!dnnlk__alias_ok(outs[a], src)) return dnnlk_invalid_arguments;
            if (a > 0 && dnnlk__ranges_intersect(outs[a], src)) return dnnlk_invalid_arguments;
            for (i = 0; i < 2; i++)
                if (wb[i] && dnnlk__ranges_intersect(outs[a], wb[i])) return dnnlk_invalid_arguments;
            for (b = 0; b < a; b++)
                if (dnnlk__ranges_intersect(outs[a], outs[b])) return dnnlk_invalid_arguments;
        }
    }
    return dnnlk_success;
}

/* Completes dst (and mean / inv_std_dev when given) for layer_norm; writes nothing on error. */
static inline dnnlk_status dnnlk_layer_norm_infer(const dnnlk_tensor *src, const dnnlk_tensor *weight,
                                                  const dnnlk_tensor *bias, int naxes, const int *axes,
                                                  float epsilon, int eps_outside_sqrt, dnnlk_tensor *dst,
                                                  dnnlk_tensor *mean, dnnlk_tensor *inv_std_dev) {
    dnnlk_tensor od, om, oi;
    dnnlk_status st;
    if (!dnnlk__flag_ok(eps_outside_sqrt)) return dnnlk_invalid_arguments;
    st = dnnlk__ln_prepare(src, weight, bias, naxes, axes, epsilon, dst, mean, inv_std_dev, 0, &od, &om, &oi);
    if (st != dnnlk_success) return st;
    *dst = od;
    if (mean) *mean = om;
    if (inv_std_dev) *inv_std_dev = oi;
    return dnnlk_success;
}

typedef void (*dnnlk__ln_rows_fn)(const dnnlk__ln_job *, char *, int64_t, char *, int64_t, char *, int64_t, char *,
                                  int64_t, int64_t, int);

/* layer_norm, part ith of nth (see the top of the file). */
static inline dnnlk_status dnnlk_layer_norm(const dnnlk_tensor *src, const dnnlk_tensor *weight,
                                            const dnnlk_tensor *bias, int naxes, const int *axes, float epsilon,
                                            int eps_outside_sqrt, dnnlk_tensor *dst, dnnlk_tensor *mean,
                                            dnnlk_tensor *inv_std_dev, int ith, int nth) {
    static const float dummy[1] = {0};
    dnnlk_tensor od, om, oi;
    dnnlk_status st;
    dnnlk__ln_job j;
    dnnlk__loop outer;
    int64_t zeros[DNNLK_MAX_NDIMS] = {0}, ws[DNNLK_MAX_NDIMS], bs[DNNLK_MAX_NDIMS];
    const int64_t *ostr[4], *istr[4];
    size_t oes[4], ies[4];
    void *obase[4], *ibase[4];
    int nd, ko, outs, fast;
    int64_t gb, ge, n;
    char *row[4];
    dnnlk__loop_iter it;
    dnnlk__ln_rows_fn fn;

    if (!dnnlk__flag_ok(eps_outside_sqrt)) return dnnlk_invalid_arguments;
    st = dnnlk__ln_prepare(src, weight, bias, naxes, axes, epsilon, dst, mean, inv_std_dev, 1, &od, &om, &oi);
    if (st != dnnlk_success) return st;
    if (!dnnlk__part_ok(ith, nth)) return dnnlk_invalid_arguments;
    *dst = od;
    if (mean) *mean = om;
    if (inv_std_dev) *inv_std_dev = oi;

    nd = src->ndims;
    ko = nd - naxes;
    memset(&j, 0, sizeof j);
    j.dt = (int)src->dtype;
    j.has_w = weight != NULL;
    j.has_b = bias != NULL;
    j.eps_out = eps_outside_sqrt != 0;
    j.eps = (double)epsilon;
    j.w = j.has_w && weight->data ? (const float *)weight->data : dummy;
    j.b = j.has_b && bias->data ? (const float *)bias->data : dummy;
    if (j.has_w) dnnlk__broadcast_strides(weight, naxes, src->dims + ko, ws);
    if (j.has_b) dnnlk__broadcast_strides(bias, naxes, src->dims + ko, bs);
    istr[0] = src->strides + ko;
    istr[1] = od.strides + ko;
    istr[2] = j.has_w ? ws : zeros;
    istr[3] = j.has_b ? bs : zeros;
    ies[0] = ies[1] = dnnlk_dtype_size(src->dtype);
    ies[2] = ies[3] = 4;
    dnnlk__loop_init(&j.inner, naxes, src->dims + ko, 4, istr, ies, 0);
    j.n = j.inner.total;
    j.inv_n = j.n > 0 ? 1.0 / (double)j.n : 0;

    ostr[0] = src->strides;
    ostr[1] = od.strides;
    ostr[2] = mean ? om.strides : zeros;
    ostr[3] = inv_std_dev ? oi.strides : zeros;
    oes[0] = oes[1] = dnnlk_dtype_size(src->dtype);
    oes[2] = oes[3] = 4;
    dnnlk__loop_init(&outer, ko, src->dims, 4, ostr, oes, 0);
    if (outer.total == 0) return dnnlk_success;
    outs = (mean ? 1 : 0) | (inv_std_dev ? 2 : 0);
    obase[0] = src->data ? src->data : (void *)(uintptr_t)dummy;
    obase[1] = od.data ? od.data : (void *)(uintptr_t)dummy;
    obase[2] = mean && om.data ? om.data : (void *)(uintptr_t)dummy;
    obase[3] = inv_std_dev && oi.data ? oi.data : (void *)(uintptr_t)dummy;
    (void)ibase;

    fast = j.inner.ndims == 1 && dnnlk__row_kind(&j.inner, 0) == dnnlk__row_contig &&
           dnnlk__row_kind(&j.inner, 1) == dnnlk__row_contig &&
           (!j.has_w || dnnlk__row_kind(&j.inner, 2) == dnnlk__row_contig) &&
           (!j.has_b || dnnlk__row_kind(&j.inner, 3) == dnnlk__row_contig);
    fn = fast ? DNNLK__DISPATCH(dnnlk__ln_rows, ) : DNNLK__DISPATCH(dnnlk__ln_rows_strided, );
    dnnlk__part_range(outer.total, ith, nth, 1, &gb, &ge);
    j.nt = j.dt == dnnlk_f32 && (double)(ge - gb) * (double)j.n * 4.0 >= (double)DNNLK_NORM_NT_BYTES;
    dnnlk__iter_init(&it, &outer, obase, gb, ge);
    while ((n = dnnlk__iter_next(&it, row)) > 0) {
        if (j.n == 0) {
            /* Empty groups: no output elements; the statistics of nothing are NaN. */
            float nanv = (float)NAN;
            int64_t g;
            for (g = 0; g < n; g++) {
                if (outs & 1) memcpy(row[2] + g * dnnlk__row_stride(&outer, 2), &nanv, 4);
                if (outs & 2) memcpy(row[3] + g * dnnlk__row_stride(&outer, 3), &nanv, 4);
            }
            continue;
        }
        fn(&j, row[0], dnnlk__row_stride(&outer, 0), row[1], dnnlk__row_stride(&outer, 1), row[2],
           dnnlk__row_stride(&outer, 2), row[3], dnnlk__row_stride(&outer, 3), n, outs);
    }
    return dnnlk_success;
}

/* ---- l2_norm ---- */

static inline dnnlk_status dnnlk__l2_prepare(const dnnlk_tensor *src, int axis, float epsilon, const dnnlk_tensor *dst,
                                             int exec, dnnlk_tensor *od, int *ax) {
    dnnlk_status st;
    if (!src || !dst) return dnnlk_invalid_arguments;
    st = dnnlk__check_input(src, exec);
    if (st != dnnlk_success) return st;
    if (!dnnlk__norm_float_dt(src->dtype)) return dnnlk_invalid_data_type;
    if (src->ndims < 1 || axis < -src->ndims || axis >= src->ndims) return dnnlk_invalid_arguments;
    *ax = axis < 0 ? axis + src->ndims : axis;
    if (!dnnlk__norm_eps_ok(epsilon)) return dnnlk_invalid_arguments;
    if (dst->dtype != src->dtype) return dnnlk_invalid_data_type;
    st = dnnlk__complete_output(dst, src->ndims, src->dims, od);
    if (st != dnnlk_success) return st;
    if (exec) {
        int64_t numel;
        if (dnnlk_shape_numel(od->ndims, od->dims, &numel) != dnnlk_success) return dnnlk_invalid_shape;
        if (numel > 0 && !od->data) return dnnlk_invalid_arguments;
        if (!dnnlk__alias_ok(od, src)) return dnnlk_invalid_arguments;
    }
    return dnnlk_success;
}

/* Completes dst for l2_norm; writes nothing on error. */
static inline dnnlk_status dnnlk_l2_norm_infer(const dnnlk_tensor *src, int axis, float epsilon, int eps_outside_sqrt,
                                               dnnlk_tensor *dst) {
    dnnlk_tensor od;
    int ax;
    dnnlk_status st;
    if (!dnnlk__flag_ok(eps_outside_sqrt)) return dnnlk_invalid_arguments;
    st = dnnlk__l2_prepare(src, axis, epsilon, dst, 0, &od, &ax);
    if (st == dnnlk_success) *dst = od;
    return st;
}

typedef void (*dnnlk__l2_rows_fn)(const dnnlk__l2_job *, char *, int64_t, char *, int64_t, int64_t);

/* Columns mode (the axis is not innermost): groups (o, p) for outer index o and inner position p,
 * flat index o·P + p; each sums its x² over the axis in order, in double (exact squares, no
 * overflow; FMA or not gives the same double), and scales in double. Blocks of inner positions
 * walk the axis together so contiguous inner rows stream. */
static DNNLK__NOINLINE void dnnlk__l2_columns(const dnnlk__l2_job *j, const dnnlk__loop *outer, const dnnlk__loop *inner,
                                              void *const *obase, int64_t sax_x, int64_t sax_y, int64_t gb, int64_t ge) {
    enum { BLK = 256 };
    int64_t P = inner->total, K = j->n, g = gb;
    size_t es = dnnlk_dtype_size((dnnlk_dtype)j->dt);
    double acc[BLK];
    int64_t offx[BLK], offy[BLK];
    while (g < ge) {
        int64_t o = g / P, p = g % P, cnt = P - p, q, k;
        dnnlk__loop_iter oit;
        char *orow[2], *ibase[2];
        dnnlk__norm_stream st;
        char *pp[2];
        if (cnt > ge - g) cnt = ge - g;
        if (cnt > BLK) cnt = BLK;
        dnnlk__iter_init(&oit, outer, obase, o, o + 1);
        (void)dnnlk__iter_next(&oit, orow);
        ibase[0] = orow[0];
        ibase[1] = orow[1];
        dnnlk__norm_stream_init(&st, inner, (void *const *)ibase, p);
        for (q = 0; q < cnt; q++) {
            dnnlk__norm_stream_next(&st, pp);
            offx[q] = pp[0] - orow[0];
            offy[q] = pp[1] - orow[1];
            acc[q] = 0;
        }
        for (k = 0; k < K; k++) {
            const char *xr = orow[0] + k * sax_x;
            for (q = 0; q < cnt; q++) {
                double x = (double)dnnlk__norm_ld(xr + offx[q], j->dt);
                acc[q] += x * x;
            }
        }
        for (q = 0; q < cnt; q++) acc[q] = dnnlk__l2_inv(j, acc[q]);
        for (k = 0; k < K; k++) {
            const char *xr = orow[0] + k * sax_x;
            char *yr = orow[1] + k * sax_y;
            for (q = 0; q < cnt; q++)
                dnnlk__store_from_f32(yr + offy[q], (dnnlk_dtype)j->dt,
                                      (float)((double)dnnlk__norm_ld(xr + offx[q], j->dt) * acc[q]));
        }
        (void)es;
        g += cnt;
    }
}

/* l2_norm, part ith of nth (see the top of the file). */
static inline dnnlk_status dnnlk_l2_norm(const dnnlk_tensor *src, int axis, float epsilon, int eps_outside_sqrt,
                                         dnnlk_tensor *dst, int ith, int nth) {
    static const float dummy[1] = {0};
    dnnlk_tensor od;
    dnnlk_status st;
    dnnlk__l2_job j;
    int ax, nd, i, no = 0, ni = 0;
    /* zeroed: a 1-d src leaves them empty, and gcc -O2 -Wall then warns in the includer's build */
    int64_t odims[DNNLK_MAX_NDIMS] = {0}, oxs[DNNLK_MAX_NDIMS] = {0}, oys[DNNLK_MAX_NDIMS] = {0};
    int64_t idims[DNNLK_MAX_NDIMS] = {0}, ixs[DNNLK_MAX_NDIMS] = {0}, iys[DNNLK_MAX_NDIMS] = {0};
    const int64_t *str[2];
    size_t es[2];
    void *base[2];
    dnnlk__loop outer, inner;
    int64_t gb, ge, n, P;
    char *row[2];
    dnnlk__loop_iter it;

    if (!dnnlk__flag_ok(eps_outside_sqrt)) return dnnlk_invalid_arguments;
    st = dnnlk__l2_prepare(src, axis, epsilon, dst, 1, &od, &ax);
    if (st != dnnlk_success) return st;
    if (!dnnlk__part_ok(ith, nth)) return dnnlk_invalid_arguments;
    *dst = od;

    nd = src->ndims;
    memset(&j, 0, sizeof j);
    j.dt = (int)src->dtype;
    j.eps_out = eps_outside_sqrt != 0;
    j.eps = (double)epsilon;
    j.n = src->dims[ax];
    es[0] = es[1] = dnnlk_dtype_size(src->dtype);
    base[0] = src->data ? src->data : (void *)(uintptr_t)dummy;
    base[1] = od.data ? od.data : (void *)(uintptr_t)dummy;
    for (i = 0; i < nd; i++) {
        if (i < ax) odims[no] = src->dims[i], oxs[no] = src->strides[i], oys[no] = od.strides[i], no++;
        if (i > ax) idims[ni] = src->dims[i], ixs[ni] = src->strides[i], iys[ni] = od.strides[i], ni++;
    }
    str[0] = oxs;
    str[1] = oys;
    dnnlk__loop_init(&outer, no, odims, 2, str, es, 0);
    str[0] = ixs;
    str[1] = iys;
    dnnlk__loop_init(&inner, ni, idims, 2, str, es, 0);
    P = inner.total;
    if (outer.total == 0 || P == 0 || j.n == 0) return dnnlk_success;

    if (P == 1) {
        /* Rows mode: a group is the axis. The group plan is the 1-d axis; the others are outer. */
        int64_t gdims[DNNLK_MAX_NDIMS] = {0}, gxs[DNNLK_MAX_NDIMS] = {0}, gys[DNNLK_MAX_NDIMS] = {0};
        int ng = 0;
        dnnlk__loop groups;
        dnnlk__l2_rows_fn fn;
        for (i = 0; i < nd; i++)
            if (i != ax) gdims[ng] = src->dims[i], gxs[ng] = src->strides[i], gys[ng] = od.strides[i], ng++;
        str[0] = gxs;
        str[1] = gys;
        dnnlk__loop_init(&groups, ng, gdims, 2, str, es, 0);
        str[0] = src->strides + ax;
        str[1] = od.strides + ax;
        dnnlk__loop_init(&j.inner, 1, src->dims + ax, 2, str, es, 0);
        fn = dnnlk__row_kind(&j.inner, 0) == dnnlk__row_contig && dnnlk__row_kind(&j.inner, 1) == dnnlk__row_contig
                 ? DNNLK__DISPATCH(dnnlk__l2_rows, )
                 : DNNLK__DISPATCH(dnnlk__l2_rows_strided, );
        dnnlk__part_range(groups.total, ith, nth, 1, &gb, &ge);
        j.nt = j.dt == dnnlk_f32 && (double)(ge - gb) * (double)j.n * 4.0 >= (double)DNNLK_NORM_NT_BYTES;
        dnnlk__iter_init(&it, &groups, base, gb, ge);
        while ((n = dnnlk__iter_next(&it, row)) > 0)
            fn(&j, row[0], dnnlk__row_stride(&groups, 0), row[1], dnnlk__row_stride(&groups, 1), n);
        return dnnlk_success;
    }
    dnnlk__part_range(outer.total * P, ith, nth, 1, &gb, &ge);
    dnnlk__l2_columns(&j, &outer, &inner, base, src->strides[ax] * (int64_t)es[0], od.strides[ax] * (int64_t)es[1], gb, ge);
    return dnnlk_success;
}

DNNLK__NOINLINE_END
#endif /* DNNLK_NORM_H */
