/* dnnl_kernels — norm_common.h: what layer_norm.h and l2_norm.h share: the canonical summation
 * order, the row decisions' return codes, the element walker of a group, validation helpers, and
 * the row kernels both ops run (norm_simd.h, compiled at every level).
 *
 * BOTH OPS
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
 *   (SSE4.1 has no FMA, so nobody uses one). Rows holding ±inf or NaN: every output element is
 *   NaN in both ops. Typical error: within ~2 ulp of a double reference.
 *
 * SPEED
 *   Full-speed rows need the normalized elements contiguous in src and dst (weight and bias
 *   contiguous too); other layouts gather each group's elements into buffers for the same vector
 *   code (norm_simd.h, every level: same bits, slower). A row's statistics are taken in the
 *   loop that writes the row before it, so reading one and writing the other share the time. f32
 *   outputs of at least DNNLK_NORM_NT_BYTES per part (default 2 MiB; define it to change) are
 *   written with non-temporal stores, followed by an sfence. */
#ifndef DNNLK_NORM_COMMON_H
#define DNNLK_NORM_COMMON_H

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
#elif DNNLK__NEON /* FSQRT: the same, on aarch64 */
static DNNLK__FORCEINLINE double dnnlk__sqrt(double x) { return vget_lane_f64(vsqrt_f64(vdup_n_f64(x)), 0); }
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

/* What a row's statistics decide: accept, redo with a better shift (layer_norm), or recompute
 * the group in double. */
enum { dnnlk__norm_ok = 0, dnnlk__norm_redo = 1, dnnlk__norm_fallback = 2 };

/* What writing a row needs: y = ((x − m) − r)·s [·w] [+ b] (l2_norm: m = r = 0), and what
 * layer_norm's optional outputs get. */
typedef struct dnnlk__norm_row {
    float m, r, s;            /* shift, correction, scale */
    float mean_out, istd_out; /* what the optional outputs get */
} dnnlk__norm_row;

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

/* ---- validation shared by both ops ---- */

static inline int dnnlk__norm_float_dt(dnnlk_dtype t) { return dnnlk__is_float_dtype(t); }

static inline int dnnlk__norm_eps_ok(float eps) { return eps - eps == 0 && eps >= 0; }

/* The row kernels both ops share (row statistics, row output, strided groups), per level. */
#define DNNLK__SIMD_BODY "norm_simd.h"
#include "simd_instantiate.h"

DNNLK__NOINLINE_END
#endif /* DNNLK_NORM_COMMON_H */
