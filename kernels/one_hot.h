/* dnnl_kernels — one_hot.h: one_hot(indices, depth, axis, on_value, off_value).
 *
 *   dnnlk_one_hot_infer(indices, depth, axis, dst)
 *   dnnlk_one_hot(indices, depth, axis, on_value, off_value, dst, ith, nth)
 *
 * indices: s32 or s64, any shape (rank r <= 11) and strides. dst: rank r+1, indices' shape with
 * depth inserted at axis; axis in [-(r+1), r], -1 meaning the last position (r). dst may be of
 * any dtype but u64 (f32, bf16, f16, f64, s32, s64, s8, u8, boolean).
 * on_value / off_value: pointers to ONE element of dst's dtype, as raw bytes (so every dtype is
 * exact, s64 included; for bf16/f16 pass the uint16_t bits, e.g. from dnnlk_f32_to_bf16). NULL
 * means 1 for on_value and 0 for off_value, in dst's dtype (boolean: 1 and 0).
 * An index i with -depth <= i < depth is valid, a negative one wraps to i + depth; any other
 * index gives an all-off_value line.
 *
 * Part ith of nth writes the dst lines of a contiguous share of the index positions. Results are
 * the same bytes on every ISA and for every nth. A dense dst with axis = -1 (the common layout) is
 * written as one stream with vector stores, non-temporal when the part writes more than
 * DNNLK_ONE_HOT_NT_BYTES; every other layout takes a strided element loop.
 * Statuses: dnnlk_invalid_arguments (NULL pointers, depth <= 0, axis out of range, bad part, dst
 * overlapping indices, missing data), dnnlk_invalid_data_type (indices not s32/s64, dst dtype
 * unknown), dnnlk_invalid_shape (dst dims that disagree, rank > DNNLK_MAX_NDIMS, overflow). On any
 * error nothing is written, the dst descriptor included. */
#ifndef DNNLK_ONE_HOT_H
#define DNNLK_ONE_HOT_H

#include "base.h"
#include "cpu.h"
#include "loop.h"
#include "shape.h"

/* Measured here (4 MiB L2 per core): below 4 MiB regular stores win (1 MiB: 0.10 vs 0.17 ns per
 * f32 element), at 4 MiB they tie, above it non-temporal stores are as fast or faster and leave the
 * cache to the caller. */
#ifndef DNNLK_ONE_HOT_NT_BYTES
#define DNNLK_ONE_HOT_NT_BYTES (4u << 20)
#endif

/* Rows handled per emit call: the hot positions of a block of index positions. */
#define DNNLK__ONE_HOT_BLOCK 512

static DNNLK__FORCEINLINE void dnnlk__onehot_put(char *q, const unsigned char *v, int es) {
    switch (es) {
    case 1: *q = (char)v[0]; break;
    case 2: memcpy(q, v, 2); break;
    case 4: memcpy(q, v, 4); break;
    default: memcpy(q, v, 8); break;
    }
}

/* Elements [e0, e1) of a dense block of rows of `depth` elements starting at p: row by row, so
 * one division finds the first row and each row's hot position is read once. */
static DNNLK__FORCEINLINE void dnnlk__onehot_elems(char *p, int64_t e0, int64_t e1, int64_t depth, const int64_t *hot,
                                                   const unsigned char *on, const unsigned char *off, int es) {
    int64_t e = e0, r, d;
    if (e0 >= e1) return;
    r = e0 / depth;
    d = e0 - r * depth;
    for (; e < e1; r++, d = 0) {
        int64_t h = hot[r], stop = e1 - e < depth - d ? e1 : e + (depth - d);
        for (; e < stop; e++, d++) dnnlk__onehot_put(p + e * es, d == h ? on : off, es);
    }
}

#define DNNLK__SIMD_BODY "one_hot_simd.h"
#include "simd_instantiate.h"

/* The on line position of an index value, or -1 for an all-off line. */
static DNNLK__FORCEINLINE int64_t dnnlk__onehot_wrap(int64_t v, int64_t depth) {
    if (v < -depth || v >= depth) return -1;
    return v < 0 ? v + depth : v;
}

static DNNLK__FORCEINLINE int64_t dnnlk__onehot_load_index(const char *p, int is64) {
    if (is64) { int64_t v; memcpy(&v, p, 8); return v; }
    { int32_t v; memcpy(&v, p, 4); return v; }
}

static inline dnnlk_status dnnlk__onehot_prepare(const dnnlk_tensor *indices, int64_t depth, int axis,
                                                 const dnnlk_tensor *dst, int need_data, dnnlk_tensor *done, int *ax_out) {
    int64_t dims[DNNLK_MAX_NDIMS];
    int r, i, ax;
    dnnlk_status st;
    if (!indices || !dst) return dnnlk_invalid_arguments;
    st = dnnlk__check_input(indices, need_data);
    if (st != dnnlk_success) return st;
    if (indices->dtype != dnnlk_s32 && indices->dtype != dnnlk_s64) return dnnlk_invalid_data_type;
    if (depth <= 0) return dnnlk_invalid_arguments;
    r = indices->ndims;
    if (axis < -(r + 1) || axis > r) return dnnlk_invalid_arguments;
    if (r + 1 > DNNLK_MAX_NDIMS) return dnnlk_invalid_shape;
    ax = axis < 0 ? axis + r + 1 : axis;
    for (i = 0; i <= r; i++) dims[i] = i < ax ? indices->dims[i] : (i == ax ? depth : indices->dims[i - 1]);
    /* u64 is top_k/arg ops/convert/compare/select/nearest resize only (base.h) */
    if (dnnlk_dtype_size(dst->dtype) == 0 || dst->dtype == dnnlk_u64) return dnnlk_invalid_data_type;
    st = dnnlk__complete_output(dst, r + 1, dims, done);
    if (st != dnnlk_success) return st;
    *ax_out = ax;
    return dnnlk_success;
}

static inline dnnlk_status dnnlk_one_hot_infer(const dnnlk_tensor *indices, int64_t depth, int axis, dnnlk_tensor *dst) {
    dnnlk_tensor d;
    int ax;
    dnnlk_status st = dnnlk__onehot_prepare(indices, depth, axis, dst, 0, &d, &ax);
    if (st != dnnlk_success) return st;
    dnnlk__set_desc(dst, &d);
    return dnnlk_success;
}

static inline dnnlk_status dnnlk_one_hot(const dnnlk_tensor *indices, int64_t depth, int axis, const void *on_value,
                                         const void *off_value, dnnlk_tensor *dst, int ith, int nth) {
    dnnlk_tensor d;
    unsigned char on[8] = {0}, off[8] = {0};
    int64_t numel = 0, npos, b, e, dense[DNNLK_MAX_NDIMS];
    int ax, es, i, r, flat, is64;
    dnnlk_status st;
    if (!dnnlk__part_ok(ith, nth)) return dnnlk_invalid_arguments;
    st = dnnlk__onehot_prepare(indices, depth, axis, dst, 1, &d, &ax);
    if (st != dnnlk_success) return st;
    dnnlk_shape_numel(d.ndims, d.dims, &numel);
    if (numel > 0 && !d.data) return dnnlk_invalid_arguments;
    if (dnnlk__ranges_intersect(&d, indices)) return dnnlk_invalid_arguments;
    dnnlk__set_desc(dst, &d);
    if (numel == 0) return dnnlk_success;

    es = (int)dnnlk_dtype_size(d.dtype);
    if (on_value) memcpy(on, on_value, (size_t)es);
    else {
        switch (d.dtype) {
        case dnnlk_f32: { float one = 1.0f; memcpy(on, &one, 4); } break;
        case dnnlk_f64: { double one = 1.0; memcpy(on, &one, 8); } break;
        case dnnlk_bf16: { uint16_t h = 0x3f80u; memcpy(on, &h, 2); } break;
        case dnnlk_f16: { uint16_t h = 0x3c00u; memcpy(on, &h, 2); } break;
        case dnnlk_s32: { int32_t one = 1; memcpy(on, &one, 4); } break;
        case dnnlk_s64: { int64_t one = 1; memcpy(on, &one, 8); } break;
        default: on[0] = 1; break; /* s8, u8, boolean */
        }
    }
    if (off_value) memcpy(off, off_value, (size_t)es); /* every zero here is all-zero bytes */

    r = indices->ndims;
    is64 = indices->dtype == dnnlk_s64;
    npos = numel / depth;
    dnnlk_dense_strides(d.ndims, d.dims, dense);
    flat = ax == r && ((uintptr_t)d.data % (uintptr_t)es) == 0;
    for (i = 0; i < d.ndims && flat; i++) flat = d.dims[i] == 1 || d.strides[i] == dense[i];
    dnnlk__part_range(npos, ith, nth, dnnlk__part_grain(depth), &b, &e);
    if (b >= e) return dnnlk_success;

    if (flat) {
        /* Index positions in row-major order (no reordering), a block at a time. */
        dnnlk__loop plan;
        dnnlk__loop_iter it;
        const int64_t *istr[1];
        size_t ies[1];
        void *base[1];
        char *row[1];
        int64_t hot[DNNLK__ONE_HOT_BLOCK], n, j, done = b, isz;
        int nt;
        istr[0] = indices->strides;
        ies[0] = dnnlk_dtype_size(indices->dtype);
        base[0] = indices->data;
        dnnlk__loop_init(&plan, r, indices->dims, 1, istr, ies, 0);
        dnnlk__iter_init(&it, &plan, base, b, e);
        isz = dnnlk__row_stride(&plan, 0);
        nt = (double)(e - b) * (double)depth * es >= (double)DNNLK_ONE_HOT_NT_BYTES;
        while ((n = dnnlk__iter_next(&it, row)) > 0) {
            const char *ip = row[0];
            while (n > 0) {
                int64_t m = n < DNNLK__ONE_HOT_BLOCK ? n : DNNLK__ONE_HOT_BLOCK;
                char *p = (char *)d.data + done * depth * es;
                for (j = 0; j < m; j++) hot[j] = dnnlk__onehot_wrap(dnnlk__onehot_load_index(ip + j * isz, is64), depth);
                DNNLK__DISPATCH(dnnlk__onehot_emit, (p, m, depth, hot, on, off, es, nt));
                ip += m * isz;
                done += m;
                n -= m;
            }
        }
        return dnnlk_success;
    }

    {
        /* Any other layout: walk the index positions (dst strides without the axis), then the
         * line of each, in whichever order keeps dst's inner stride smaller. */
        dnnlk__loop plan;
        dnnlk__loop_iter it;
        int64_t dstr[DNNLK_MAX_NDIMS], n, j, k, sa = d.strides[ax] * es, so;
        const int64_t *strides[2];
        size_t esz[2];
        void *base[2];
        char *row[2];
        for (i = 0; i < r; i++) dstr[i] = d.strides[i < ax ? i : i + 1];
        strides[0] = dstr;
        strides[1] = indices->strides;
        esz[0] = (size_t)es;
        esz[1] = dnnlk_dtype_size(indices->dtype);
        base[0] = d.data;
        base[1] = indices->data;
        /* Row-major order over the index shape, so the part split matches [b, e). */
        dnnlk__loop_init(&plan, r, indices->dims, 2, strides, esz, 0);
        dnnlk__iter_init(&it, &plan, base, b, e);
        so = dnnlk__row_stride(&plan, 0);
        while ((n = dnnlk__iter_next(&it, row)) > 0) {
            int64_t is = dnnlk__row_stride(&plan, 1);
            if ((sa < 0 ? -sa : sa) > (so < 0 ? -so : so) && n > 1) {
                for (k = 0; k < depth; k++)
                    for (j = 0; j < n; j++) {
                        int64_t h = dnnlk__onehot_wrap(dnnlk__onehot_load_index(row[1] + j * is, is64), depth);
                        dnnlk__onehot_put(row[0] + j * so + k * sa, h == k ? on : off, es);
                    }
            } else {
                for (j = 0; j < n; j++) {
                    int64_t h = dnnlk__onehot_wrap(dnnlk__onehot_load_index(row[1] + j * is, is64), depth);
                    for (k = 0; k < depth; k++) dnnlk__onehot_put(row[0] + j * so + k * sa, h == k ? on : off, es);
                }
            }
        }
    }
    return dnnlk_success;
}

#endif /* DNNLK_ONE_HOT_H */
