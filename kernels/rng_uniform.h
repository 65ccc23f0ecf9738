/* dnnl_kernels — rng_uniform.h: the ByteIR rng_uniform op on the engines of rng_engine.h.
 *
 * rng_uniform (ByteIR): dst of any shape and strides (f32, bf16, f16) filled with uniform values
 *   in [low, high) from the engine initialised by dnnlk_rng_init(alg, seed, offset): element i in
 *   row-major order of dst's shape gets draw i, whatever the strides, parts or ISA. bf16/f16
 *   values are the f32 value rounded to nearest even, moved one unit down when that reaches
 *   high. low > high, or a non-finite low, high or high - low, is invalid_arguments.
 *
 * STATUS: invalid_arguments for NULL pointers, a bad (ith, nth), an unknown algorithm or bad
 *   low/high; invalid_shape / invalid_data_type for a bad dst; nothing is written then. */
#ifndef DNNLK_RNG_UNIFORM_H
#define DNNLK_RNG_UNIFORM_H

#include "base.h"
#include "shape.h"
#include "loop.h"
#include "rng_draw.h"

/* dst's dims must all be known (they are the op's shape attribute); unknown strides are deduced.
 * dst's dtype must be f32, bf16 or f16. */
static inline dnnlk_status dnnlk_rng_uniform_infer(dnnlk_tensor *dst) {
    dnnlk_tensor d;
    dnnlk_status st;
    int i;
    if (!dst) return dnnlk_invalid_arguments;
    if (dst->ndims < 0 || dst->ndims > DNNLK_MAX_NDIMS) return dnnlk_invalid_shape;
    for (i = 0; i < dst->ndims; i++)
        if (dst->dims[i] < 0) return dnnlk_invalid_shape;
    if (!dnnlk__is_float_dtype(dst->dtype)) return dnnlk_invalid_data_type;
    st = dnnlk__complete_output(dst, dst->ndims, dst->dims, &d);
    if (st != dnnlk_success) return st;
    dnnlk__set_desc(dst, &d);
    return dnnlk_success;
}

/* The f32 value v (in [low, high)) as the dtype's bits, kept below high. */
static inline uint16_t dnnlk__uniform_to_16(float v, dnnlk_dtype dt, float low, float high) {
    uint16_t h = dt == dnnlk_bf16 ? dnnlk_f32_to_bf16(v) : dnnlk_f32_to_f16(v);
    int guard;
    for (guard = 0; guard < 2; guard++) {
        float f = dt == dnnlk_bf16 ? dnnlk_bf16_to_f32(h) : dnnlk_f16_to_f32(h);
        if (f < high || !(low < high)) break;
        /* one unit toward -inf: magnitude down for positives, up for negatives */
        if (h & 0x8000u) h = (uint16_t)(h + 1u);
        else if (h == 0) h = 0x8001u;
        else h = (uint16_t)(h - 1u);
    }
    {
        float f = dt == dnnlk_bf16 ? dnnlk_bf16_to_f32(h) : dnnlk_f16_to_f32(h);
        if (!(f >= low) && low < high) h = dt == dnnlk_bf16 ? dnnlk_f32_to_bf16(low) : dnnlk_f32_to_f16(low);
    }
    return h;
}

/* Fills dst (see the top of the file). Parts split the elements in row-major order: the walk
 * (loop.h) keeps that order (no reordering of dims; merging contiguous dims and dropping size-1
 * dims keep each element's row-major index), so draw i goes to element i whatever the strides. */
static inline dnnlk_status dnnlk_rng_uniform(dnnlk_tensor *dst, float low, float high, uint64_t seed,
                                             uint64_t offset, dnnlk_rng_alg alg, int ith, int nth) {
    dnnlk_tensor d;
    dnnlk_status st;
    dnnlk_rng cur;
    float width, top;
    int64_t b, e, n = 0;
    float buf[512];
    size_t es;
    dnnlk__loop l;
    dnnlk__loop_iter it;
    char *row[1];
    if (!dst) return dnnlk_invalid_arguments;
    d = *dst;
    st = dnnlk_rng_uniform_infer(&d);
    if (st != dnnlk_success) return st;
    if (!dnnlk__part_ok(ith, nth)) return dnnlk_invalid_arguments;
    if (!dnnlk__rng_alg_ok(alg)) return dnnlk_invalid_arguments;
    if (!dnnlk__uniform_args_ok(low, high, &width, &top)) return dnnlk_invalid_arguments;
    (void)dnnlk_shape_numel(d.ndims, d.dims, &n); /* checked by the inference above */
    if (n > 0 && !d.data) return dnnlk_invalid_arguments;
    dnnlk__part_range(n, ith, nth, 16, &b, &e);
    dnnlk__set_desc(dst, &d); /* the completed layout goes back before any data is written */
    if (b >= e) return dnnlk_success;
    dnnlk_rng_init(&cur, alg, seed, offset);
    dnnlk__rng_advance(&cur, (uint64_t)b);
    es = dnnlk_dtype_size(d.dtype);
    {
        const int64_t *strides[1];
        void *base[1];
        strides[0] = d.strides;
        base[0] = d.data;
        dnnlk__loop_init(&l, d.ndims, d.dims, 1, strides, &es, 0);
        dnnlk__iter_init(&it, &l, base, b, e);
    }
    while ((n = dnnlk__iter_next(&it, row)) > 0) {
        const int64_t str = dnnlk__row_stride(&l, 0);
        int64_t k0, k;
        if (d.dtype == dnnlk_f32 && dnnlk__row_kind(&l, 0) == dnnlk__row_contig) { /* straight into dst */
            dnnlk__rng_gen_uniform(&cur, (float *)(void *)row[0], (size_t)n, low, width, top);
            continue;
        }
        for (k0 = 0; k0 < n; k0 += 512) {
            int64_t m = n - k0 < 512 ? n - k0 : 512;
            dnnlk__rng_gen_uniform(&cur, buf, (size_t)m, low, width, top);
            for (k = 0; k < m; k++) {
                char *p = row[0] + (k0 + k) * str;
                if (d.dtype == dnnlk_f32) memcpy(p, &buf[k], 4);
                else {
                    uint16_t h = dnnlk__uniform_to_16(buf[k], d.dtype, low, high);
                    memcpy(p, &h, 2);
                }
            }
        }
    }
    return dnnlk_success;
}

#endif /* DNNLK_RNG_UNIFORM_H */
