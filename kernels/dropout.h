/* dnnl_kernels — dropout.h: dropout forward and backward with a 1-bit mask.
 *
 *   dst = src * m * 1/(1 - rate),   m ~ Bernoulli(1 - rate), one draw per mask element
 *   diff_src = diff_dst * m * 1/(1 - rate)
 *
 * DATA: src/dst (diff_dst/diff_src) of one dtype, f32, bf16 or f16 (f32 math: one f32 multiply
 *   src * (m ? scale : 0) with scale = (float)(1/(1 - rate)), rounded to nearest even on store),
 *   any shape and strides; in-place (dst the same view as src) is allowed.
 *   Multiplication semantics: a dropped element is src * 0, so a dropped NaN or infinity gives NaN
 *   and a dropped negative gives -0 (as PyTorch's input * mask * scale).
 *   rate = 0: dst is a bitwise copy of src and the mask all ones. rate = 1: the mask is all zeros
 *   and dst = src * 0 (zeros, NaN where src is NaN or infinite). A rate outside [0, 1] or NaN is
 *   dnnlk_invalid_arguments.
 *
 * MASK: 1 bit per mask element, LSB-first within each byte (numpy.packbits bitorder='little'),
 *   row-major over the mask shape; bits past the last element in the last byte are written 0.
 *   The mask shape is the data shape, or (noise_dims, TensorFlow's noise_shape / MXNet's axes)
 *   the data shape with any dims set to 1: the mask is broadcast over those dims. noise_dims NULL
 *   means the data shape; otherwise noise_ndims must equal the data's ndims. The caller provides
 *   dnnlk_dropout_mask_bytes(...) bytes; the mask must not overlap src or dst.
 *
 * RANDOM STREAM: mask element j uses draw j of the stream *rng_in (dnnlk_rng, rng.h):
 *   MCG31m1 (the default to use): kept where VSL's viRngBernoulli(p = 1 - rate, in double) gives 1:
 *     (float)((double)x/m) < (float)(1 - rate), VSL's single-precision rule (rng_engine.h);
 *   Philox4x32-10 (either layout): kept when r > UINT32_MAX * rate, the product rounded to a double
 *     (oneDNN's rule; oneDNN's rate is a float, so pass (double)rate_f to get its masks: a double
 *     0.9 keeps a few elements that 0.9f drops). With seed S, offset O != 0 and use_offset
 *     (oneDNN v3.11+) masks equal dnnlk_rng_philox4x32_10 initialised with (S, O); with offset 0
 *     in v3.6-v3.9, dnnlk_rng_philox4x32_10_ctr32 initialised with (S, 0) (v3.11+ at offset 0
 *     repeat one word per group of four: a oneDNN defect we do not copy; see the README);
 *   MT19937: kept when generate_canonical<double,53> < 1 - rate, exactly (two outputs per draw), which
 *     is std::bernoulli_distribution(1 - rate) whenever 1 - rate is a double (any float rate).
 *   Every call consumes exactly one draw per mask element whatever the rate (MT19937: two outputs),
 *   and, when rng_out is not NULL, part 0 writes the state after them to *rng_out, computed from the
 *   const *rng_in. So consecutive calls continue one stream, and n1 then n2 elements equal one call
 *   of n1 + n2 (when n1 is a multiple of 8 the masks concatenate byte-wise). rng_out may be rng_in
 *   for a single-part call; with parts running at once keep them separate.
 *
 * PARTS: (ith, nth) splits the mask elements at multiples of 64 (a mask byte belongs to one part)
 *   and, with a noise shape, the data elements separately; each part regenerates the mask bits it
 *   needs from *rng_in (it never reads mask bytes another part writes). Results are bit-identical
 *   for every nth and ISA.
 *
 * SPEED: one pass over the data: the generator writes a block of keep bits straight into the mask,
 *   and the same block of src is scaled with those bits (L1-hot); past DNNLK_DROPOUT_NT_BYTES of
 *   output, f32 and bf16 rows use non-temporal stores and prefetch src DNNLK_DROPOUT_PF_BYTES ahead
 *   into L2. bf16 is computed without widening or narrowing conversions (two f32 halves of one
 *   integer vector, integer round-to-nearest-even). Dense data runs generator, mask and data in
 *   one loop for every engine (Philox when the stream position is a multiple of 4).
 *
 * STATUS: invalid_arguments (NULL pointers, bad rate, bad rng state, bad parts, overlaps),
 *   invalid_data_type (dtype not f32/bf16/f16, or src/dst differ), invalid_shape (bad noise
 *   shape, dims, strides, or dst dims that do not match). On error nothing is written. */
#ifndef DNNLK_DROPOUT_H
#define DNNLK_DROPOUT_H

#include "base.h"
#include "cpu.h"
#include "shape.h"
#include "loop.h"
#include "rng_draw.h"

/* Outputs at least this large (bytes) are written with non-temporal stores. */
#ifndef DNNLK_DROPOUT_NT_BYTES
#define DNNLK_DROPOUT_NT_BYTES (6 << 20)
#endif
/* Those outputs' src is also prefetched (to L2) this many bytes ahead (measured: 4 KiB beat
 * 0.5-2 KiB and no prefetch from DRAM with one thread). */
#ifndef DNNLK_DROPOUT_PF_BYTES
#define DNNLK_DROPOUT_PF_BYTES 4096
#endif

/* ---- keep rules ---- */

/* Keep bits for 0 < rate < 1 (see the top of the file). */
static inline dnnlk__bern dnnlk__bern_keep(dnnlk_rng_alg alg, double rate) {
    dnnlk__bern b;
    memset(&b, 0, sizeof b);
    if (alg == dnnlk_rng_mcg31m1) {
        /* VSL's Bernoulli rule with p = 1 - rate (in double), as viRngBernoulli draws it */
        return dnnlk__bern_for_p(alg, 1.0 - rate);
    } else if (dnnlk__is_philox(alg)) {
        /* r > K with K = floor(RNE(UINT32_MAX * rate))  <=>  r >= K + 1 */
        uint64_t k = dnnlk__floor_rne_mul(rate, 0xffffffffu);
        if (k >= 0xffffffffu) b.kind = dnnlk__bern_never;
        else b.kind = dnnlk__bern_ge, b.t = (uint32_t)(k + 1);
    } else {
        /* canonical*2^64 < 2^64 - rate*2^64  <=>  C < 2^64 - floor(rate*2^64) */
        int inexact;
        uint64_t f = dnnlk__floor_p64(rate, &inexact);
        if (f == 0) b.kind = dnnlk__bern_always;
        else return dnnlk__bern_mt_scaled(0 - f);
    }
    return b;
}

/* ---- the walk over data elements ----
 * A loop.h plan of three operands: src (0), dst (1), and the mask element index (2: element size
 * 1, so its "pointer" minus the base is the index of the row's first mask element). No reordering:
 * parts split the data elements in row-major order. */
enum { dnnlk__dropout_src = 0, dnnlk__dropout_dst = 1, dnnlk__dropout_mask = 2 };

/* ---- SIMD bodies ---- */

#if defined(__cplusplus) && defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#define DNNLK__SIMD_BODY "dropout_simd.h"
#include "simd_instantiate.h"
#if defined(__cplusplus) && defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

/* Bits [pos, pos + 57) of a bit array of nbytes bytes (bits past the array read 0). */
static DNNLK__FORCEINLINE uint64_t dnnlk__bits_at(const uint8_t *bits, uint64_t pos, size_t nbytes) {
    size_t byte = (size_t)(pos >> 3);
    uint64_t v = 0;
    if (byte + 8 <= nbytes) memcpy(&v, bits + byte, 8);
    else if (byte < nbytes) memcpy(&v, bits + byte, nbytes - byte);
    return v >> (pos & 7);
}

/* One contiguous or strided row: dst[i] = src[i] * (bit ? scale : 0), or a bitwise copy. */
typedef struct dnnlk__drow {
    dnnlk_dtype dt;
    size_t es;
    float scale;
    int copy;          /* rate 0: bitwise copy */
    int nt;            /* non-temporal stores */
    const uint8_t *bits;
    size_t nbytes;
} dnnlk__drow;

/* A row of n elements; mstr is the mask's inner stride (1, or 0 when broadcast). */
static inline void dnnlk__drow_run(const dnnlk__drow *c, char *dst, int64_t dstr, const char *src, int64_t sstr,
                                   int64_t n, uint64_t pos, int64_t mstr) {
    if (n <= 0) return;
    if (dstr != 1 || sstr != 1) {
        DNNLK__DISPATCH(dnnlk__dropout_row_strided_v,
                        (dst, dstr, src, sstr, n, c->bits, pos, c->nbytes, mstr, c->scale, (int)c->dt, c->copy));
        return;
    }
    if (c->copy) {
        if (dst != src) memmove(dst, src, (size_t)n * c->es);
        return;
    }
    if (mstr == 0) {
        float f = (dnnlk__bits_at(c->bits, pos, c->nbytes) & 1) ? c->scale : 0.0f;
        DNNLK__DISPATCH(dnnlk__dropout_row_v, (dst, src, (size_t)n, NULL, 0, 0, f, (int)c->dt, c->nt));
    } else {
        DNNLK__DISPATCH(dnnlk__dropout_row_v, (dst, src, (size_t)n, c->bits, pos, c->nbytes, c->scale, (int)c->dt, c->nt));
    }
}

/* Bit source for the rows of a walk: either a window of the mask's bit array (fused forward: the
 * block just generated; backward: the whole mask), or a cache of regenerated mask bits. */
#define DNNLK__DCACHE_BITS 4096
typedef struct dnnlk__dsrc {
    int regen;                 /* regenerate into cache */
    const uint8_t *bits;       /* !regen: the bit array, and the mask index of its bit 0 */
    int64_t bits_base;
    size_t nbytes;
    /* regen: */
    const dnnlk_rng *in;
    dnnlk_rng cur;             /* positioned at draw cur_pos */
    int64_t cur_pos, nmask, cache_base, cache_len;
    const dnnlk__bern *bern;
    uint8_t cache[DNNLK__DCACHE_BITS / 8];
} dnnlk__dsrc;

/* Makes mask bits [j, j + need) available (need <= DNNLK__DCACHE_BITS - 64); returns the bit
 * array and sets *pos to the position of bit j in it. */
static inline const uint8_t *dnnlk__dropout_src_get(dnnlk__dsrc *s, int64_t j, int64_t need, uint64_t *pos, size_t *nbytes) {
    int64_t base, len;
    uint64_t per;
    if (!s->regen) {
        *pos = (uint64_t)(j - s->bits_base);
        *nbytes = s->nbytes;
        return s->bits;
    }
    if (j >= s->cache_base && j + need <= s->cache_base + s->cache_len) {
        *pos = (uint64_t)(j - s->cache_base);
        *nbytes = sizeof s->cache;
        return s->cache;
    }
    base = j & ~(int64_t)63;
    len = s->nmask - base;
    if (len > DNNLK__DCACHE_BITS) len = DNNLK__DCACHE_BITS;
    per = s->in->alg == dnnlk_rng_mt19937 ? 2 : 1;
    if (s->in->alg == dnnlk_rng_mt19937 && base >= s->cur_pos) {
        dnnlk__rng_advance(&s->cur, per * (uint64_t)(base - s->cur_pos)); /* forward: continue */
    } else {
        s->cur = *s->in;
        dnnlk__rng_advance(&s->cur, per * (uint64_t)base);
    }
    dnnlk__rng_gen_bits(&s->cur, s->cache, (size_t)len, s->bern);
    s->cur_pos = base + len;
    s->cache_base = base;
    s->cache_len = len;
    *pos = (uint64_t)(j - base);
    *nbytes = sizeof s->cache;
    return s->cache;
}

/* Runs the rows of walk w for data elements [fb, fe). */
static inline void dnnlk__dropout_walk_run(const dnnlk__loop *w, char *dst, const char *src, const uint8_t *mask,
                                    dnnlk__drow *row, dnnlk__dsrc *bsrc, int64_t fb, int64_t fe) {
    const int64_t es = (int64_t)row->es;
    const int64_t ss = dnnlk__row_stride(w, dnnlk__dropout_src) / es, ds = dnnlk__row_stride(w, dnnlk__dropout_dst) / es;
    const int64_t ms = dnnlk__row_stride(w, dnnlk__dropout_mask);
    char *mbase = (char *)(uintptr_t)mask, *r[3];
    void *base[3];
    dnnlk__loop_iter it;
    int64_t n, k;
    base[dnnlk__dropout_src] = (void *)(uintptr_t)src, base[dnnlk__dropout_dst] = dst, base[dnnlk__dropout_mask] = mbase;
    dnnlk__iter_init(&it, w, base, fb, fe);
    while ((n = dnnlk__iter_next(&it, r)) > 0) {
        const int64_t j = (int64_t)(r[dnnlk__dropout_mask] - mbase);
        if (ms == 0 || row->copy) {
            uint64_t pos = 0;
            size_t nb = 0;
            row->bits = row->copy ? NULL : dnnlk__dropout_src_get(bsrc, j, 1, &pos, &nb);
            row->nbytes = nb;
            dnnlk__drow_run(row, r[dnnlk__dropout_dst], ds, r[dnnlk__dropout_src], ss, n, pos, 0);
            continue;
        }
        for (k = 0; k < n;) { /* the mask runs along the row: fetch bits in windows */
            int64_t m = n - k;
            uint64_t pos;
            size_t nb;
            if (bsrc->regen && m > DNNLK__DCACHE_BITS - 64) m = DNNLK__DCACHE_BITS - 64;
            row->bits = dnnlk__dropout_src_get(bsrc, j + k * ms, m, &pos, &nb);
            row->nbytes = nb;
            dnnlk__drow_run(row, r[dnnlk__dropout_dst] + k * ds * es, ds, r[dnnlk__dropout_src] + k * ss * es, ss, m, pos, 1);
            k += m;
        }
    }
}

/* The fused loop for dense data (src and dst contiguous) with MCG31, MT19937 or counter-aligned Philox:
 * runs whole rounds from mask element mb, advances the stream, and returns how many elements it
 * did (0 when the case does not qualify; the block path then does everything). */
static inline int64_t dnnlk__dropout_fused(dnnlk_rng *cur, const dnnlk__bern *b, const dnnlk__loop *w,
                                           const dnnlk__drow *row, char *dst, const char *src, uint8_t *mask,
                                           int64_t mb, int64_t me) {
    size_t off = (size_t)mb * row->es, n = (size_t)(me - mb), done;
    int dt = (int)row->dt;
    if (row->copy || w->ndims != 1 || dnnlk__row_kind(w, dnnlk__dropout_src) != dnnlk__row_contig ||
        dnnlk__row_kind(w, dnnlk__dropout_dst) != dnnlk__row_contig)
        return 0;
    if (b->kind != dnnlk__bern_lt && b->kind != dnnlk__bern_ge) return 0;
    if (dnnlk__is_philox(cur->alg) && (cur->index & 3)) return 0;
    if (cur->alg == dnnlk_rng_mt19937) {
        done = DNNLK__DISPATCH(dnnlk__dropout_fused_mt_v, (cur->mt, &cur->mt_pos, b->t64, dst + off, src + off,
                                                           mask + mb / 8, n, row->scale, dt, row->nt));
    } else if (cur->alg == dnnlk_rng_mcg31m1) {
        done = DNNLK__DISPATCH(dnnlk__dropout_fused_mcg_v,
                               (&cur->x, b->t, dst + off, src + off, mask + mb / 8, n, row->scale, dt, row->nt));
    } else {
        uint32_t inv = b->kind == dnnlk__bern_ge;
        int ctr32 = cur->alg == dnnlk_rng_philox4x32_10_ctr32;
        done = DNNLK__DISPATCH(dnnlk__dropout_fused_philox_v, (ctr32, cur->seed, cur->offset, cur->index, b->t, inv,
                                                               dst + off, src + off, mask + mb / 8, n, row->scale, dt,
                                                               row->nt));
        cur->index += (uint64_t)done;
    }
    return (int64_t)done;
}

/* ---- validation shared by fwd and bwd ---- */

static inline dnnlk_status dnnlk__dropout_mask_shape(const dnnlk_tensor *data, int noise_ndims,
                                                     const int64_t *noise_dims, int64_t *mdims, int64_t *nmask) {
    int i;
    if (!noise_dims) {
        memcpy(mdims, data->dims, (size_t)data->ndims * sizeof(int64_t));
    } else {
        if (noise_ndims != data->ndims) return dnnlk_invalid_shape;
        for (i = 0; i < data->ndims; i++) {
            if (noise_dims[i] != data->dims[i] && noise_dims[i] != 1) return dnnlk_invalid_shape;
            mdims[i] = noise_dims[i];
        }
    }
    return dnnlk_shape_numel(data->ndims, mdims, nmask);
}

/* The number of mask bytes for data (dims known) and a noise shape (NULL: the data shape). */
static inline dnnlk_status dnnlk_dropout_mask_bytes(const dnnlk_tensor *data, int noise_ndims,
                                                    const int64_t *noise_dims, size_t *bytes) {
    int64_t mdims[DNNLK_MAX_NDIMS], nmask;
    dnnlk_status st;
    int i;
    if (!data || !bytes) return dnnlk_invalid_arguments;
    if (data->ndims < 0 || data->ndims > DNNLK_MAX_NDIMS) return dnnlk_invalid_shape;
    for (i = 0; i < data->ndims; i++)
        if (data->dims[i] < 0) return dnnlk_invalid_shape;
    st = dnnlk__dropout_mask_shape(data, noise_ndims, noise_dims, mdims, &nmask);
    if (st != dnnlk_success) return st;
    /* ceil(nmask / 8) without nmask + 7, which overflows for counts near INT64_MAX */
    if ((uint64_t)(nmask / 8 + (nmask % 8 != 0)) > (uint64_t)SIZE_MAX) return dnnlk_invalid_shape;
    *bytes = (size_t)(nmask / 8 + (nmask % 8 != 0));
    return dnnlk_success;
}

/* dst: same dims and dtype as src (dst's dtype undef takes src's); unknown strides deduced. */
static inline dnnlk_status dnnlk__dropout_infer(const dnnlk_tensor *src, const dnnlk_tensor *dst, dnnlk_tensor *out) {
    dnnlk_tensor d;
    dnnlk_status st;
    if (!src || !dst) return dnnlk_invalid_arguments;
    st = dnnlk__check_input(src, 0);
    if (st != dnnlk_success) return st;
    if (!dnnlk__is_float_dtype(src->dtype)) return dnnlk_invalid_data_type;
    dnnlk__desc_copy(&d, dst);
    if (d.dtype == dnnlk_dtype_undef) d.dtype = src->dtype;
    if (d.dtype != src->dtype) return dnnlk_invalid_data_type;
    st = dnnlk__complete_output(&d, src->ndims, src->dims, out);
    return st;
}

static inline dnnlk_status dnnlk_dropout_fwd_infer(const dnnlk_tensor *src, dnnlk_tensor *dst) {
    dnnlk_tensor d;
    dnnlk_status st = dnnlk__dropout_infer(src, dst, &d);
    if (st == dnnlk_success) dnnlk__set_desc(dst, &d);
    return st;
}

static inline dnnlk_status dnnlk_dropout_bwd_infer(const dnnlk_tensor *diff_dst, dnnlk_tensor *diff_src) {
    return dnnlk_dropout_fwd_infer(diff_dst, diff_src);
}

/* Everything both directions check; fills the walk, mask shape and count. */
static inline dnnlk_status dnnlk__dropout_prepare(const dnnlk_tensor *src, const dnnlk_tensor *dst, dnnlk_tensor *out,
                                                  const uint8_t *mask, double rate, int noise_ndims,
                                                  const int64_t *noise_dims, int ith, int nth, dnnlk__loop *w,
                                                  int64_t *nmask, int *broadcast) {
    int64_t mdims[DNNLK_MAX_NDIMS], mstr[DNNLK_MAX_NDIMS], ms[DNNLK_MAX_NDIMS], n = 0;
    dnnlk_status st;
    int i;
    st = dnnlk__dropout_infer(src, dst, out);
    if (st != dnnlk_success) return st;
    st = dnnlk__dropout_mask_shape(src, noise_ndims, noise_dims, mdims, nmask);
    if (st != dnnlk_success) return st;
    if (!(rate >= 0 && rate <= 1)) return dnnlk_invalid_arguments;
    if (!dnnlk__part_ok(ith, nth)) return dnnlk_invalid_arguments;
    (void)dnnlk_shape_numel(src->ndims, src->dims, &n); /* checked with src */
    if (n > 0 && (!src->data || !out->data || !mask)) return dnnlk_invalid_arguments;
    if (!dnnlk__alias_ok(out, src)) return dnnlk_invalid_arguments;
    if (n > 0) { /* the mask overlaps neither tensor */
        dnnlk_tensor m = dnnlk__byte_range(mask, (*nmask + 7) / 8);
        if (dnnlk__ranges_intersect(&m, src) || dnnlk__ranges_intersect(&m, out)) return dnnlk_invalid_arguments;
    }
    dnnlk_dense_strides(src->ndims, mdims, mstr);
    *broadcast = 0;
    for (i = 0; i < src->ndims; i++) {
        ms[i] = mdims[i] == src->dims[i] ? mstr[i] : 0;
        if (mdims[i] != src->dims[i]) *broadcast = 1;
    }
    {
        const int64_t *strides[3];
        size_t esize[3];
        strides[dnnlk__dropout_src] = src->strides, strides[dnnlk__dropout_dst] = out->strides, strides[dnnlk__dropout_mask] = ms;
        esize[dnnlk__dropout_src] = esize[dnnlk__dropout_dst] = dnnlk_dtype_size(src->dtype), esize[dnnlk__dropout_mask] = 1;
        dnnlk__loop_init(w, src->ndims, src->dims, 3, strides, esize, 0);
    }
    return dnnlk_success;
}

static inline void dnnlk__dropout_row_init(dnnlk__drow *row, dnnlk_dtype dt, double rate, int64_t n) {
    row->dt = dt;
    row->es = dnnlk_dtype_size(dt);
    row->scale = rate < 1 ? (float)(1.0 / (1.0 - rate)) : 0.0f;
    row->copy = rate == 0;
    row->nt = (double)n * (double)row->es >= (double)DNNLK_DROPOUT_NT_BYTES;
    row->bits = NULL;
    row->nbytes = 0;
}

/* Forward (see the top of the file). */
static inline dnnlk_status dnnlk_dropout_fwd(const dnnlk_tensor *src, dnnlk_tensor *dst, uint8_t *mask, double rate,
                                             int noise_ndims, const int64_t *noise_dims, const dnnlk_rng *rng_in,
                                             dnnlk_rng *rng_out, int ith, int nth) {
    dnnlk_tensor out;
    dnnlk__loop w;
    dnnlk__drow row;
    dnnlk__dsrc bs;
    dnnlk__bern bern;
    dnnlk_rng cur;
    int64_t nmask, mb, me;
    int broadcast;
    uint64_t per;
    dnnlk_status st;
    if (!dst || !dnnlk__rng_state_ok(rng_in)) return dnnlk_invalid_arguments;
    st = dnnlk__dropout_prepare(src, dst, &out, mask, rate, noise_ndims, noise_dims, ith, nth, &w, &nmask,
                                &broadcast);
    if (st != dnnlk_success) return st;
    dnnlk__set_desc(dst, &out);
    per = rng_in->alg == dnnlk_rng_mt19937 ? 2 : 1;
    dnnlk__dropout_row_init(&row, src->dtype, rate, w.total);
    memset(&bs, 0, sizeof bs);
    bs.in = rng_in; /* read-only below: every stream starts from a private copy */
    memset(&bern, 0, sizeof bern);
    if (rate == 0) bern.kind = dnnlk__bern_always;
    else if (rate == 1) bern.kind = dnnlk__bern_never;
    else bern = dnnlk__bern_keep(rng_in->alg, rate);
    bs.bern = &bern;
    dnnlk__part_range(nmask, ith, nth, 64, &mb, &me);
    cur = *rng_in;
    dnnlk__rng_advance(&cur, per * (uint64_t)mb);
    if (!broadcast) {
        /* one pass: a block of bits into the mask, then the same block of data */
        const int64_t B = 4096;
        int64_t blk = mb;
        blk += dnnlk__dropout_fused(&cur, &bern, &w, &row, (char *)out.data, (const char *)src->data, mask, mb, me);
        for (; blk < me; blk += B) {
            int64_t len = me - blk < B ? me - blk : B;
            dnnlk__rng_gen_bits(&cur, mask + blk / 8, (size_t)len, &bern);
            bs.regen = 0;
            bs.bits = mask + blk / 8;
            bs.bits_base = blk;
            bs.nbytes = (size_t)((len + 7) / 8);
            dnnlk__dropout_walk_run(&w, (char *)out.data, (const char *)src->data, mask, &row, &bs, blk, blk + len);
        }
    } else {
        /* the mask share, then the data share with regenerated bits */
        int64_t db, de, blk;
        for (blk = mb; blk < me; blk += 4096) {
            int64_t len = me - blk < 4096 ? me - blk : 4096;
            dnnlk__rng_gen_bits(&cur, mask + blk / 8, (size_t)len, &bern);
        }
        dnnlk__part_range(w.total, ith, nth, 64, &db, &de);
        bs.regen = 1;
        bs.nmask = nmask;
        bs.cache_len = 0;
        bs.cur_pos = 0;
        bs.cur = *rng_in;
        dnnlk__dropout_walk_run(&w, (char *)out.data, (const char *)src->data, mask, &row, &bs, db, de);
    }
    if (row.nt) DNNLK__DISPATCH(dnnlk__dropout_fence, ());
    dnnlk__rng_write_end(&cur, rng_out, per * (uint64_t)(nmask - me), ith); /* cur: after [mb, me) */
    return dnnlk_success;
}

/* Backward (see the top of the file): mask as written by the forward call with the same rate and
 * noise shape. */
static inline dnnlk_status dnnlk_dropout_bwd(const dnnlk_tensor *diff_dst, const uint8_t *mask,
                                             dnnlk_tensor *diff_src, double rate, int noise_ndims,
                                             const int64_t *noise_dims, int ith, int nth) {
    dnnlk_tensor out;
    dnnlk__loop w;
    dnnlk__drow row;
    dnnlk__dsrc bs;
    int64_t nmask, db, de;
    int broadcast;
    dnnlk_status st;
    if (!diff_src) return dnnlk_invalid_arguments;
    st = dnnlk__dropout_prepare(diff_dst, diff_src, &out, mask, rate, noise_ndims, noise_dims, ith, nth, &w, &nmask,
                                &broadcast);
    if (st != dnnlk_success) return st;
    dnnlk__set_desc(diff_src, &out);
    dnnlk__dropout_row_init(&row, diff_dst->dtype, rate, w.total);
    memset(&bs, 0, sizeof bs);
    bs.regen = 0;
    bs.bits = mask;
    bs.bits_base = 0;
    bs.nbytes = (size_t)((nmask + 7) / 8);
    dnnlk__part_range(w.total, ith, nth, 64, &db, &de);
    dnnlk__dropout_walk_run(&w, (char *)out.data, (const char *)diff_dst->data, mask, &row, &bs, db, de);
    if (row.nt) DNNLK__DISPATCH(dnnlk__dropout_fence, ());
    return dnnlk_success;
}

#endif /* DNNLK_DROPOUT_H */
