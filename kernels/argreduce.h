/* dnnl_kernels — argreduce.h: arg_max / arg_min and top_k along one axis.
 *
 * ARG_MAX / ARG_MIN
 *   dnnlk_arg_max_infer(src, axis, keep_dims, values, indices)            (arg_min_infer: same)
 *   dnnlk_arg_max(src, axis, keep_dims, select_last_index, values, indices, ith, nth)
 *   dnnlk_arg_min(...)                                                     (same arguments)
 *
 *   src: f32, f64, bf16, f16, s64, u64, s32, s8 or u8, any shape and strides (0 and negative
 *   included). The 64-bit dtypes (ONNX's int64/uint64 top_k and double arg ops) run a scalar
 *   path; s64 and u64 compare as integers (exactly: a double holds only 53 bits; u64 unsigned, so
 *   2^63 and above are the largest values).
 *   axis: in [-ndims, ndims-1] (negative counts from the end); a 0-d src takes axis 0 or -1 and
 *   reduces its one element. Output shape: src's with the axis removed, or kept as 1 when
 *   keep_dims. indices: s32 or s64 (s32 needs the axis length <= 2^31-1). values: optional (NULL
 *   for none), src's dtype; it receives the bits of the element the index points at.
 *   Ties go to the lowest index, or the highest with select_last_index. -0 and +0 are equal. NaN
 *   is the extreme for both ops (it beats every number, as in numpy and PyTorch), and NaNs tie
 *   with each other, so the first NaN wins, or the last one with select_last_index.
 *   An empty axis with a non-empty output is dnnlk_invalid_shape. Values are compared as the FPU
 *   compares them: with MXCSR's denormals-are-zero on, denormals compare equal to zero (on every
 *   ISA alike).
 *
 * TOP_K
 *   dnnlk_top_k_infer(src, k, axis, values, indices)
 *   dnnlk_top_k(src, k, axis, largest, sorted, values, indices, workspace, ith, nth)
 *   dnnlk_top_k_workspace_bytes(k, nth, &bytes)
 *
 *   src: the dtypes of arg_max; output shape: src's with dims[axis] = k, 0 <= k <= dims[axis]
 *   (the axis length must be <= 2^32-1). indices s32 or s64 (s32 needs the axis length <=
 *   2^31-1); values optional (NULL), src's dtype, the bits of the selected elements.
 *   largest = 1 selects the k largest, largest = 0 the k smallest. Order of the candidates: by
 *   value (NaN above +inf, -0 equal to +0), equal values by lower index first: the selection is
 *   exactly the first k of a stable sort of the row (descending for largest, ascending for
 *   smallest; either way NaN counts as the largest value, so largest picks NaNs first and
 *   smallest picks them last). The order comes from the bits, so it is the same with the
 *   denormals-are-zero mode on (a denormal stays above +0).
 *   sorted = 1: the k outputs in that order. sorted = 0: the same k elements in increasing index
 *   order (their order in the row), which costs the same and is what a filter usually wants.
 *   Both are deterministic and identical on every ISA and part count.
 *   Cost: a contiguous row of at least k blocks of 64 elements and four vectors (and k <=
 *   DNNLK_TOP_K_STACK_K) takes two passes: the best of each block at read speed, then a vector
 *   filter of only the blocks whose best reaches a threshold that k to about 1.13k block bests
 *   reach (about 1.15k candidates on random data), while the row is in cache. Other rows, and rows
 *   with a NaN or many ties at that threshold, take one pass with a SIMD threshold filter; the elements that
 *   beat the current k-th best (about k·ln(n/k) on random data) go to a buffer that is cut back
 *   to the k best by quickselect whenever it fills (amortised O(1) each). Then O(k log k) to
 *   order the k (O(k^2) branch-free for k <= 64).
 *   workspace: (2k+64)·8 bytes per part, 8-byte aligned; it may be NULL when k <=
 *   DNNLK_TOP_K_STACK_K, which uses about 11 KiB of stack. Otherwise pass the bytes that
 *   dnnlk_top_k_workspace_bytes(k, nth, &bytes) gives (the same nth for every part); part ith uses
 *   its own slice. That query returns dnnlk_invalid_arguments for k < 0, nth < 1 or bytes NULL and
 *   dnnlk_invalid_shape when the size does not fit a size_t, and then leaves bytes untouched.
 *   Adversarial rows (e.g. ascending for largest) make every element a candidate: still O(n)
 *   amortised, with a larger constant. k = 0 is legal: outputs with a size-0 axis, nothing written.
 *
 * Both ops: the execute functions complete unknown output dims/strides like _infer, then compute
 * part ith of nth (a share of the output positions). Statuses: dnnlk_invalid_arguments (NULL
 * pointers, axis out of range, flag not 0/1, k < 0 or k > dims[axis], bad part, outputs
 * overlapping src or each other, missing workspace), dnnlk_invalid_data_type, dnnlk_invalid_shape.
 * On any error nothing is written, descriptors included. */
#ifndef DNNLK_ARGREDUCE_H
#define DNNLK_ARGREDUCE_H

#include "base.h"
#include "cpu.h"
#include "loop.h"
#include "shape.h"

#define DNNLK_TOP_K_STACK_K 512

/* What a row kernel needs; byte strides. */
typedef struct dnnlk__argred_args {
    int dtype;
    int is_min, last; /* arg ops: arg_min; select_last_index */
    int largest, sorted; /* top_k */
    int idx64;
    int64_t K;        /* axis length */
    int64_t k;        /* top_k's k */
    int64_t sa;       /* src stride along the axis */
    int64_t ss, si, sv; /* strides between consecutive output positions of a row: src, indices, values */
    int64_t sia, sva; /* top_k: output strides along the axis */
    int64_t esize;
} dnnlk__argred_args;

static inline int dnnlk__argred_dtype_ok(dnnlk_dtype t) {
    return t == dnnlk_f32 || t == dnnlk_bf16 || t == dnnlk_f16 || t == dnnlk_s32 || t == dnnlk_s8 || t == dnnlk_u8 ||
           t == dnnlk_f64 || t == dnnlk_s64 || t == dnnlk_u64;
}

/* The dtypes of 8 bytes: no vector path, and integers that a double cannot hold. */
static DNNLK__FORCEINLINE int dnnlk__argred_wide(int t) { return t == dnnlk_f64 || t == dnnlk_s64 || t == dnnlk_u64; }

/* An s64 or u64 element as a u64 whose unsigned order is the element's order (s64: the sign bit
 * flipped, so negatives come first; u64: the bits themselves). */
static DNNLK__FORCEINLINE uint64_t dnnlk__argred_ord64(const char *p, int t) {
    uint64_t u;
    memcpy(&u, p, 8);
    return t == dnnlk_s64 ? u ^ 0x8000000000000000ull : u;
}

/* One element as double: exact for every supported dtype but s64/u64 (compared by dnnlk__argred_ord64). */
static DNNLK__FORCEINLINE double dnnlk__argred_load(const char *p, int t) {
    switch (t) {
    case dnnlk_f32: { float v; memcpy(&v, p, 4); return v; }
    case dnnlk_f64: { double v; memcpy(&v, p, 8); return v; }
    case dnnlk_bf16: { uint16_t h; memcpy(&h, p, 2); return dnnlk_bf16_to_f32(h); }
    case dnnlk_f16: { uint16_t h; memcpy(&h, p, 2); return dnnlk_f16_to_f32(h); }
    case dnnlk_s32: { int32_t v; memcpy(&v, p, 4); return v; }
    case dnnlk_s8: return (double)*(const int8_t *)(const void *)p;
    default: return (double)*(const uint8_t *)(const void *)p;
    }
}

/* arg_max/arg_min of one s64 or u64 row: integers, no NaN. */
static inline int64_t dnnlk__argred_scalar1_int64(const dnnlk__argred_args *a, const char *p) {
    int64_t k, bi = 0;
    uint64_t best = dnnlk__argred_ord64(p, a->dtype);
    for (k = 1; k < a->K; k++) {
        uint64_t v = dnnlk__argred_ord64(p + k * a->sa, a->dtype);
        if (a->is_min ? (a->last ? v <= best : v < best) : (a->last ? v >= best : v > best)) best = v, bi = k;
    }
    return bi;
}

/* The reduction of one output position by the definition (the rows the vector paths leave). */
static inline int64_t dnnlk__argred_scalar1(const dnnlk__argred_args *a, const char *p) {
    int64_t k, bi = 0;
    double best;
    int bnan;
    if (a->dtype == dnnlk_s64 || a->dtype == dnnlk_u64) return dnnlk__argred_scalar1_int64(a, p);
    best = dnnlk__argred_load(p, a->dtype);
    bnan = best != best;
    if (bnan && !a->last) return 0;
    for (k = 1; k < a->K; k++) {
        double v = dnnlk__argred_load(p + k * a->sa, a->dtype);
        int upd;
        if (v != v) upd = 1; /* in first mode best is not NaN here */
        else if (bnan) upd = 0;
        else if (a->is_min) upd = a->last ? v <= best : v < best;
        else upd = a->last ? v >= best : v > best;
        if (upd) {
            best = v;
            bi = k;
            bnan = v != v;
            if (bnan && !a->last) return k;
        }
    }
    return bi;
}

/* One element of es bytes (1, 2, 4 or 8), by a copy of constant size: a libc call per element
 * cost top_k's row more than its whole sort. */
static DNNLK__FORCEINLINE void dnnlk__argred_copy_elem(char *d, const char *s, int64_t es) {
    switch (es) {
    case 1: *d = *s; break;
    case 2: memcpy(d, s, 2); break;
    case 4: memcpy(d, s, 4); break;
    default: memcpy(d, s, 8); break;
    }
}

static DNNLK__FORCEINLINE void dnnlk__argred_put(const dnnlk__argred_args *a, const char *p, int64_t k, char *ip,
                                                 char *vp) {
    if (a->idx64) memcpy(ip, &k, 8);
    else { int32_t v = (int32_t)k; memcpy(ip, &v, 4); }
    if (vp) dnnlk__argred_copy_elem(vp, p + k * a->sa, a->esize);
}

/* Rows one element at a time: what the body's vector paths do not take (a strided axis without
 * contiguous neighbours, the last positions of a vertical scan). */
static inline void dnnlk__argred_rows_elem(const dnnlk__argred_args *a, const char *src, char *ip, char *vp,
                                             int64_t n) {
    int64_t j;
    for (j = 0; j < n; j++) {
        const char *p = src + j * a->ss;
        dnnlk__argred_put(a, p, dnnlk__argred_scalar1(a, p), ip + j * a->si, vp ? vp + j * a->sv : NULL);
    }
}

/* ---- top_k: a total order on (value, index) as one u64 per element ----
 * key: a u32 that orders values (NaN highest, -0 == +0), complemented for smallest; the low half
 * holds ~index so that, for equal keys, the lower index is the larger composite. The k largest
 * composites are the selection, with no ties possible. */

/* The largest-first key of an f32 given by its bits. */
static DNNLK__FORCEINLINE uint32_t dnnlk__topk_key_f32bits(uint32_t u) {
    if ((u & 0x7fffffffu) > 0x7f800000u) return 0xffffffffu;
    if ((u & 0x7fffffffu) == 0) return 0x80000000u;
    return (u >> 31) ? ~u : (u | 0x80000000u);
}

static DNNLK__FORCEINLINE uint32_t dnnlk__topk_key(const char *p, int t, int largest) {
    uint32_t key;
    if (t == dnnlk_s32 || t == dnnlk_s8 || t == dnnlk_u8) {
        int32_t v;
        if (t == dnnlk_s32) memcpy(&v, p, 4);
        else if (t == dnnlk_s8) v = *(const int8_t *)(const void *)p;
        else v = *(const uint8_t *)(const void *)p;
        key = (uint32_t)v ^ 0x80000000u;
    } else {
        /* From the bits alone, so denormals-are-zero mode cannot merge a denormal with 0. */
        uint32_t u;
        uint16_t h;
        if (t == dnnlk_f32) memcpy(&u, p, 4);
        else if ((memcpy(&h, p, 2), t == dnnlk_bf16)) u = (uint32_t)h << 16;
        else u = dnnlk__f32_bits(dnnlk_f16_to_f32(h)); /* f16 subnormals are normal in f32 */
        key = dnnlk__topk_key_f32bits(u);
    }
    return largest ? key : ~key;
}

static DNNLK__FORCEINLINE uint64_t dnnlk__topk_comp(const char *p, int t, int largest, int64_t i) {
    return ((uint64_t)dnnlk__topk_key(p, t, largest) << 32) | (uint64_t)(0xffffffffu - (uint32_t)i);
}

static DNNLK__FORCEINLINE int64_t dnnlk__topk_comp_index(uint64_t c) { return (int64_t)(0xffffffffu - (uint32_t)c); }

static DNNLK__FORCEINLINE void dnnlk__topk_sift_max(uint64_t *h, int64_t i, int64_t n) {
    uint64_t x = h[i];
    for (;;) {
        int64_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && h[c + 1] > h[c]) c++;
        if (h[c] <= x) break;
        h[i] = h[c];
        i = c;
    }
    h[i] = x;
}

static inline void dnnlk__topk_sort_asc(uint64_t *h, int64_t n) {
    int64_t i;
    if (n <= 64) { /* distinct values: each one's rank is its place, counted without a branch
                    * (a heap sort's compares are coin flips, mispredicted half the time) */
        uint64_t out[64];
        for (i = 0; i + 4 <= n; i += 4) { /* four counts at once: four independent add chains */
            int64_t j, r0 = 0, r1 = 0, r2 = 0, r3 = 0;
            for (j = 0; j < n; j++) {
                uint64_t x = h[j];
                r0 += x < h[i];
                r1 += x < h[i + 1];
                r2 += x < h[i + 2];
                r3 += x < h[i + 3];
            }
            out[r0] = h[i];
            out[r1] = h[i + 1];
            out[r2] = h[i + 2];
            out[r3] = h[i + 3];
        }
        for (; i < n; i++) {
            int64_t j, r = 0;
            for (j = 0; j < n; j++) r += h[j] < h[i];
            out[r] = h[i];
        }
        memcpy(h, out, (size_t)n * 8);
        return;
    }
    for (i = n / 2 - 1; i >= 0; i--) dnnlk__topk_sift_max(h, i, n);
    for (i = n - 1; i > 0; i--) {
        uint64_t t = h[0];
        h[0] = h[i];
        h[i] = t;
        dnnlk__topk_sift_max(h, 0, i);
    }
}

/* Moves the k largest of h[0..n) to h[0..k), the k-th largest at h[k-1]: quickselect with a
 * median-of-three pivot and a branch-free partition (the compares are data-dependent coin flips,
 * which a branchy partition mispredicts half the time). Composites are distinct, so the result
 * does not depend on the pivots. */
static inline void dnnlk__topk_select(uint64_t *h, int64_t n, int64_t k) {
    int64_t lo = 0, hi = n; /* the target index k-1 lies in [lo, hi) */
    while (hi - lo > 1) {
        uint64_t a = h[lo], b = h[lo + (hi - lo) / 2], c = h[hi - 1], piv, t;
        int64_t i, st = lo;
        /* median of three, moved to the end */
        if ((a > b) != (a > c)) piv = a, t = lo;
        else if ((b > a) != (b > c)) piv = b, t = lo + (hi - lo) / 2;
        else piv = c, t = hi - 1;
        h[t] = h[hi - 1];
        h[hi - 1] = piv;
        for (i = lo; i < hi - 1; i++) { /* [lo, st) > piv, [st, i) < piv */
            uint64_t v = h[i];
            h[i] = h[st];
            h[st] = v;
            st += v > piv;
        }
        h[hi - 1] = h[st];
        h[st] = piv;
        if (st == k - 1) return;
        if (st > k - 1) hi = st;
        else lo = st + 1;
    }
}

/* arg_max's max-only scan: scan vectors per block (four running maxima of 8 loads each). On the Zen 4
 * host (tools/scan_probe.c, the library's line, three alternated runs) 32 vectors (256 f32 at AVX2
 * and AVX-512) read at 0.96-0.99 of the bound, 16 at 0.95-0.97 and 64 at 0.93-0.96. */
#define DNNLK__AR_SCAN_VECS 32

/* The most blocks the two-pass rows split a row into: their int32 keys, padded to whole vectors,
 * fit the stack buffer of dnnlk_top_k's k <= DNNLK_TOP_K_STACK_K path; a multiple of 64. */
#define DNNLK__TOPK_MAX_BLOCKS 2048

/* The candidate set of one row: buf[0..n) holds every composite that beat thr when it came; when
 * the buffer is full it is cut back to the k best and thr rises to the k-th. Amortised O(1) per
 * candidate, no per-element cand work. */
typedef struct dnnlk__topk_set {
    uint64_t *buf;
    int64_t n, cap, k;
    uint64_t thr;
} dnnlk__topk_set;

/* Capacity of the buffer for k: room for k kept and at least k (and 64) newcomers. */
static DNNLK__FORCEINLINE int64_t dnnlk__topk_cap(int64_t k) { return 2 * k + 64; }

/* Adds candidate c; returns 1 when the threshold changed. */
static DNNLK__FORCEINLINE int dnnlk__topk_add(dnnlk__topk_set *s, uint64_t c) {
    if (c <= s->thr) return 0;
    s->buf[s->n++] = c;
    if (s->n < s->cap) return 0;
    dnnlk__topk_select(s->buf, s->n, s->k);
    s->n = s->k;
    s->thr = s->buf[s->k - 1];
    return 1;
}

/* A sort of n distinct u64 into ascending order: dnnlk__topk_sort_asc, or the vector rank sort of
 * argreduce_simd.h at its level. */
typedef void (*dnnlk__topk_sort_fn)(uint64_t *h, int64_t n);

/* Writes the k outputs whose row indices are ix[0..k), in that order. */
static DNNLK__FORCEINLINE void dnnlk__topk_put(const dnnlk__argred_args *a, const char *p, const uint64_t *ix, char *vp,
                                               char *ip) {
    int64_t r;
    for (r = 0; r < a->k; r++) {
        int64_t i = (int64_t)ix[r];
        if (a->idx64) memcpy(ip + r * a->sia, &i, 8);
        else { int32_t v = (int32_t)i; memcpy(ip + r * a->sia, &v, 4); }
        if (vp) dnnlk__argred_copy_elem(vp + r * a->sva, p + i * a->sa, a->esize);
    }
}

/* Orders the k kept composites (with sort) and writes them out. */
static DNNLK__FORCEINLINE void dnnlk__topk_emit(const dnnlk__argred_args *a, const char *p, uint64_t *h, char *vp,
                                                char *ip, dnnlk__topk_sort_fn sort) {
    int64_t r, k = a->k;
    if (a->sorted) {
        sort(h, k);
        for (r = 0; r < k / 2; r++) {
            uint64_t t = h[r];
            h[r] = h[k - 1 - r];
            h[k - 1 - r] = t;
        }
        for (r = 0; r < k; r++) h[r] = (uint64_t)dnnlk__topk_comp_index(h[r]);
    } else {
        for (r = 0; r < k; r++) h[r] = (uint64_t)dnnlk__topk_comp_index(h[r]);
        sort(h, k);
    }
    dnnlk__topk_put(a, p, h, vp, ip);
}

/* Starts a row's set with its first k elements; the threshold is the worst of them. */
static DNNLK__FORCEINLINE void dnnlk__topk_start(const dnnlk__argred_args *a, const char *p, uint64_t *buf,
                                                 dnnlk__topk_set *s) {
    int64_t i;
    s->buf = buf;
    s->k = a->k;
    s->cap = dnnlk__topk_cap(a->k);
    s->n = a->k;
    s->thr = ~(uint64_t)0;
    for (i = 0; i < a->k; i++) {
        buf[i] = dnnlk__topk_comp(p + i * a->sa, a->dtype, a->largest, i);
        if (buf[i] < s->thr) s->thr = buf[i];
    }
}

static DNNLK__FORCEINLINE void dnnlk__topk_finish(const dnnlk__argred_args *a, const char *p, dnnlk__topk_set *s, char *vp,
                                                  char *ip, dnnlk__topk_sort_fn sort) {
    if (s->n > s->k) dnnlk__topk_select(s->buf, s->n, s->k);
    dnnlk__topk_emit(a, p, s->buf, vp, ip, sort);
}

/* Rows one element at a time: what the body's vector scan does not take (a strided axis, rows
 * with fewer than four vectors past the first k). */
static inline void dnnlk__topk_rows_elem(const dnnlk__argred_args *a, const char *src, char *ip, char *vp,
                                           int64_t n, uint64_t *buf, dnnlk__topk_sort_fn sort) {
    int64_t j, i;
    dnnlk__topk_set s;
    for (j = 0; j < n; j++) {
        const char *p = src + j * a->ss;
        if (a->k == 0) continue;
        dnnlk__topk_start(a, p, buf, &s);
        for (i = a->k; i < a->K; i++) (void)dnnlk__topk_add(&s, dnnlk__topk_comp(p + i * a->sa, a->dtype, a->largest, i));
        dnnlk__topk_finish(a, p, &s, vp ? vp + j * a->sv : NULL, ip + j * a->si, sort);
    }
}

/* top_k for the 8-byte dtypes: an element's order key does not fit the 32 bits that the
 * composites above give it, so the candidates are indices, compared through the row (key, then
 * lower index first), kept in a heap whose root is the worst of the k best: O(n log k), scalar. */
static DNNLK__FORCEINLINE uint64_t dnnlk__topk_key64(const dnnlk__argred_args *a, const char *p) {
    uint64_t u, key;
    memcpy(&u, p, 8);
    if (a->dtype == dnnlk_s64 || a->dtype == dnnlk_u64) key = dnnlk__argred_ord64(p, a->dtype);
    else if ((u & 0x7fffffffffffffffull) > 0x7ff0000000000000ull) key = ~(uint64_t)0; /* NaN: highest */
    else if ((u & 0x7fffffffffffffffull) == 0) key = 0x8000000000000000ull;           /* -0 == +0 */
    else key = (u >> 63) ? ~u : (u | 0x8000000000000000ull);
    return a->largest ? key : ~key;
}

/* Element i of the row at p comes before element j in the selection order. */
static DNNLK__FORCEINLINE int dnnlk__topk_wide_before(const dnnlk__argred_args *a, const char *p, uint64_t i,
                                                      uint64_t j) {
    uint64_t ki = dnnlk__topk_key64(a, p + (int64_t)i * a->sa), kj = dnnlk__topk_key64(a, p + (int64_t)j * a->sa);
    return ki > kj || (ki == kj && i < j);
}

/* Restores the heap below h[i]: every parent comes after its children in the selection order. */
static inline void dnnlk__topk_wide_sift(const dnnlk__argred_args *a, const char *p, uint64_t *h, int64_t i,
                                         int64_t n) {
    uint64_t x = h[i];
    for (;;) {
        int64_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && dnnlk__topk_wide_before(a, p, h[c], h[c + 1])) c++;
        if (!dnnlk__topk_wide_before(a, p, x, h[c])) break;
        h[i] = h[c];
        i = c;
    }
    h[i] = x;
}

static inline void dnnlk__topk_rows_wide(const dnnlk__argred_args *a, const char *src, char *ip, char *vp, int64_t n,
                                         uint64_t *h) {
    int64_t j, i, r, k = a->k;
    for (j = 0; j < n; j++) {
        const char *p = src + j * a->ss;
        char *ipj = ip + j * a->si, *vpj = vp ? vp + j * a->sv : NULL;
        for (i = 0; i < k; i++) h[i] = (uint64_t)i;
        for (i = k / 2 - 1; i >= 0; i--) dnnlk__topk_wide_sift(a, p, h, i, k);
        for (i = k; i < a->K; i++)
            if (dnnlk__topk_wide_before(a, p, (uint64_t)i, h[0])) {
                h[0] = (uint64_t)i;
                dnnlk__topk_wide_sift(a, p, h, 0, k);
            }
        if (a->sorted) { /* pop the worst to the back: best first */
            for (i = k - 1; i > 0; i--) {
                uint64_t t = h[0];
                h[0] = h[i];
                h[i] = t;
                dnnlk__topk_wide_sift(a, p, h, 0, i);
            }
        } else {
            dnnlk__topk_sort_asc(h, k); /* indices: their order in the row */
        }
        for (r = 0; r < k; r++) {
            int64_t x = (int64_t)h[r];
            if (a->idx64) memcpy(ipj + r * a->sia, &x, 8);
            else { int32_t v = (int32_t)x; memcpy(ipj + r * a->sia, &v, 4); }
            if (vpj) memcpy(vpj + r * a->sva, p + x * a->sa, 8);
        }
    }
}

#define DNNLK__SIMD_BODY "argreduce_simd.h"
#include "simd_instantiate.h"

/* ---- validation and shapes ---- */


/* Checks src, axis and the output descriptors and completes them into vd/id (out_dims: the output
 * shape; top_k when k >= 0, arg ops otherwise). Writes nothing else. */
static inline dnnlk_status dnnlk__argred_prepare(const dnnlk_tensor *src, int axis, int keep_dims, int64_t k,
                                                 const dnnlk_tensor *values, const dnnlk_tensor *indices,
                                                 int need_data, dnnlk_tensor *vd, dnnlk_tensor *id, int *axis_out) {
    int64_t dims[DNNLK_MAX_NDIMS], K;
    int nd, i, ax, ond = 0;
    dnnlk_status st;
    if (!src || !indices) return dnnlk_invalid_arguments;
    st = dnnlk__check_input(src, need_data);
    if (st != dnnlk_success) return st;
    if (!dnnlk__argred_dtype_ok(src->dtype)) return dnnlk_invalid_data_type;
    nd = src->ndims;
    if (nd == 0) {
        if (axis != 0 && axis != -1) return dnnlk_invalid_arguments;
        ax = 0;
        K = 1;
    } else {
        if (axis < -nd || axis >= nd) return dnnlk_invalid_arguments;
        ax = axis < 0 ? axis + nd : axis;
        K = src->dims[ax];
    }
    if (k < 0) { /* arg ops */
        if (!dnnlk__flag_ok(keep_dims)) return dnnlk_invalid_arguments;
        for (i = 0; i < nd; i++) {
            if (i == ax) {
                if (keep_dims) dims[ond++] = 1;
            } else {
                dims[ond++] = src->dims[i];
            }
        }
        if (nd == 0) ond = 0;
        if (K == 0) {
            int64_t n;
            if (dnnlk_shape_numel(ond, dims, &n) != dnnlk_success) return dnnlk_invalid_shape;
            if (n > 0) return dnnlk_invalid_shape; /* nothing to pick from */
        }
        if (indices->dtype == dnnlk_s32 && K - 1 > INT32_MAX) return dnnlk_invalid_arguments;
    } else {
        if (k > K) return dnnlk_invalid_arguments;
        if (K > (int64_t)0xffffffffll) return dnnlk_invalid_arguments;
        for (i = 0; i < nd; i++) dims[i] = i == ax ? k : src->dims[i];
        ond = nd;
        if (indices->dtype == dnnlk_s32 && K - 1 > INT32_MAX) return dnnlk_invalid_arguments;
    }
    if (indices->dtype != dnnlk_s32 && indices->dtype != dnnlk_s64) return dnnlk_invalid_data_type;
    if (values && values->dtype != src->dtype) return dnnlk_invalid_data_type;
    st = dnnlk__complete_output(indices, ond, dims, id);
    if (st != dnnlk_success) return st;
    if (values) {
        st = dnnlk__complete_output(values, ond, dims, vd);
        if (st != dnnlk_success) return st;
    }
    *axis_out = ax;
    return dnnlk_success;
}

static inline dnnlk_status dnnlk_arg_max_infer(const dnnlk_tensor *src, int axis, int keep_dims, dnnlk_tensor *values,
                                               dnnlk_tensor *indices) {
    dnnlk_tensor vd, id;
    int ax;
    dnnlk_status st = dnnlk__argred_prepare(src, axis, keep_dims, -1, values, indices, 0, &vd, &id, &ax);
    if (st != dnnlk_success) return st;
    dnnlk__set_desc(indices, &id);
    if (values) dnnlk__set_desc(values, &vd);
    return dnnlk_success;
}

static inline dnnlk_status dnnlk_arg_min_infer(const dnnlk_tensor *src, int axis, int keep_dims, dnnlk_tensor *values,
                                               dnnlk_tensor *indices) {
    return dnnlk_arg_max_infer(src, axis, keep_dims, values, indices);
}

static inline dnnlk_status dnnlk_top_k_infer(const dnnlk_tensor *src, int64_t k, int axis, dnnlk_tensor *values,
                                             dnnlk_tensor *indices) {
    dnnlk_tensor vd, id;
    int ax;
    dnnlk_status st;
    if (k < 0) return dnnlk_invalid_arguments;
    st = dnnlk__argred_prepare(src, axis, 0, k, values, indices, 0, &vd, &id, &ax);
    if (st != dnnlk_success) return st;
    dnnlk__set_desc(indices, &id);
    if (values) dnnlk__set_desc(values, &vd);
    return dnnlk_success;
}

/* Workspace bytes for dnnlk_top_k with nth parts (0 when the stack suffices), into *bytes; a size
 * that does not fit a size_t is dnnlk_invalid_shape, and *bytes is then left as it was. */
static inline dnnlk_status dnnlk_top_k_workspace_bytes(int64_t k, int nth, size_t *bytes) {
    uint64_t max_cap; /* the largest 2k + 64 whose workspace fits a size_t */
    if (k < 0 || nth < 1 || !bytes) return dnnlk_invalid_arguments;
    if (k <= DNNLK_TOP_K_STACK_K) {
        *bytes = 0;
        return dnnlk_success;
    }
    max_cap = (uint64_t)SIZE_MAX / 8u / (uint64_t)nth;
    if (max_cap < 64u || (uint64_t)k > (max_cap - 64u) / 2u) return dnnlk_invalid_shape;
    *bytes = (size_t)(((uint64_t)dnnlk__topk_cap(k) * 8u) * (uint64_t)nth);
    return dnnlk_success;
}

/* Shared execute path. Loop operands: 0 src, 1 indices, 2 values (if any), over src's shape with
 * the axis dropped; output strides along the axis go to sia/sva. */
static inline dnnlk_status dnnlk__argred_exec(const dnnlk_tensor *src, int axis, int keep_dims, int is_min, int last,
                                              int64_t k, int largest, int sorted, dnnlk_tensor *values,
                                              dnnlk_tensor *indices, void *workspace, int ith, int nth) {
    dnnlk_tensor vd, id;
    dnnlk__argred_args a;
    dnnlk__loop plan;
    dnnlk__loop_iter it;
    int64_t rdims[DNNLK_MAX_NDIMS], s_src[DNNLK_MAX_NDIMS], s_idx[DNNLK_MAX_NDIMS], s_val[DNNLK_MAX_NDIMS];
    const int64_t *strides[3];
    size_t esz[3];
    void *base[3];
    char *row[3];
    int64_t b, e, n, sia = 0, sva = 0, src_n = 0;
    uint64_t stack_buf[2 * DNNLK_TOP_K_STACK_K + 64];
    uint64_t *cand = stack_buf;
    int ax, nd, rnd = 0, i, is_topk = k >= 0;
    dnnlk_status st;
    if (!dnnlk__part_ok(ith, nth)) return dnnlk_invalid_arguments;
    if (!dnnlk__flag_ok(last) || !dnnlk__flag_ok(largest) || !dnnlk__flag_ok(sorted))
        return dnnlk_invalid_arguments;
    st = dnnlk__argred_prepare(src, axis, keep_dims, k, values, indices, 1, &vd, &id, &ax);
    if (st != dnnlk_success) return st;
    {
        int64_t ni = 0, nv = 0;
        dnnlk_shape_numel(id.ndims, id.dims, &ni);
        if (values) dnnlk_shape_numel(vd.ndims, vd.dims, &nv);
        if ((ni > 0 && !id.data) || (nv > 0 && !vd.data)) return dnnlk_invalid_arguments;
        /* Any overlap with src is refused, src's own view too: a reduction writes positions of rows
         * that parts may still be reading (an elementwise op's in-place view does not apply). */
        if (dnnlk__ranges_intersect(&id, src) || (values && dnnlk__ranges_intersect(&vd, src)))
            return dnnlk_invalid_arguments;
        if (values && dnnlk__ranges_intersect(&id, &vd)) return dnnlk_invalid_arguments;
    }
    if (is_topk && k > DNNLK_TOP_K_STACK_K) {
        if (!workspace) return dnnlk_invalid_arguments;
        cand = (uint64_t *)workspace + (size_t)dnnlk__topk_cap(k) * (size_t)ith;
    }
    dnnlk__set_desc(indices, &id);
    if (values) dnnlk__set_desc(values, &vd);

    nd = src->ndims;
    memset(&a, 0, sizeof a);
    a.dtype = (int)src->dtype;
    a.is_min = is_min;
    a.last = last;
    a.largest = largest;
    a.sorted = sorted;
    a.idx64 = id.dtype == dnnlk_s64;
    a.K = nd ? src->dims[ax] : 1;
    a.k = k;
    a.esize = (int64_t)dnnlk_dtype_size(src->dtype);
    /* The extent checks bound a stride only along a dim of more than one element of a non-empty
     * tensor; any other stride may be anything (a byte stride from it would overflow), and no row
     * steps along it: such a row has one element, or there are no rows. */
    (void)dnnlk_shape_numel(nd, src->dims, &src_n);
    a.sa = a.K > 1 && src_n > 0 ? src->strides[ax] * a.esize : a.esize;
    /* Output strides of the axis (top_k), and of every other dim in the loop. */
    for (i = 0; i < nd; i++) {
        int oi = (is_topk || keep_dims) ? i : (i < ax ? i : i - 1);
        if (i == ax) {
            if (is_topk && k > 1 && src_n > 0) {
                sia = id.strides[i] * (int64_t)dnnlk_dtype_size(id.dtype);
                if (values) sva = vd.strides[i] * a.esize;
            }
            continue;
        }
        rdims[rnd] = src->dims[i];
        s_src[rnd] = src->strides[i];
        s_idx[rnd] = id.strides[oi];
        s_val[rnd] = values ? vd.strides[oi] : 0;
        rnd++;
    }
    a.sia = sia;
    a.sva = sva;
    if (is_topk && k == 0) return dnnlk_success;
    strides[0] = s_src;
    strides[1] = s_idx;
    strides[2] = s_val;
    esz[0] = (size_t)a.esize;
    esz[1] = dnnlk_dtype_size(id.dtype);
    esz[2] = (size_t)a.esize;
    dnnlk__loop_init(&plan, rnd, rdims, values ? 3 : 2, strides, esz, DNNLK__LOOP_REORDER);
    if (plan.total == 0) return dnnlk_success;
    base[0] = src->data;
    base[1] = id.data;
    base[2] = values ? vd.data : NULL;
    a.ss = dnnlk__row_stride(&plan, 0);
    a.si = dnnlk__row_stride(&plan, 1);
    a.sv = values ? dnnlk__row_stride(&plan, 2) : 0;
    dnnlk__part_range(plan.total, ith, nth, is_topk ? 1 : dnnlk__part_grain(a.K), &b, &e);
    dnnlk__iter_init(&it, &plan, base, b, e);
    while ((n = dnnlk__iter_next(&it, row)) > 0) {
        char *vp = values ? row[2] : NULL;
        if (dnnlk__argred_wide(a.dtype)) {
            if (is_topk) dnnlk__topk_rows_wide(&a, row[0], row[1], vp, n, cand);
            else dnnlk__argred_rows_elem(&a, row[0], row[1], vp, n);
        } else if (is_topk) {
            DNNLK__DISPATCH(dnnlk__topk_rows, (&a, row[0], row[1], vp, n, cand));
        } else {
            DNNLK__DISPATCH(dnnlk__argred_rows, (&a, row[0], row[1], vp, n));
        }
    }
    return dnnlk_success;
}

static inline dnnlk_status dnnlk_arg_max(const dnnlk_tensor *src, int axis, int keep_dims, int select_last_index,
                                         dnnlk_tensor *values, dnnlk_tensor *indices, int ith, int nth) {
    return dnnlk__argred_exec(src, axis, keep_dims, 0, select_last_index, -1, 0, 0, values, indices, NULL, ith, nth);
}

static inline dnnlk_status dnnlk_arg_min(const dnnlk_tensor *src, int axis, int keep_dims, int select_last_index,
                                         dnnlk_tensor *values, dnnlk_tensor *indices, int ith, int nth) {
    return dnnlk__argred_exec(src, axis, keep_dims, 1, select_last_index, -1, 0, 0, values, indices, NULL, ith, nth);
}

static inline dnnlk_status dnnlk_top_k(const dnnlk_tensor *src, int64_t k, int axis, int largest, int sorted,
                                       dnnlk_tensor *values, dnnlk_tensor *indices, void *workspace, int ith, int nth) {
    if (k < 0) return dnnlk_invalid_arguments;
    return dnnlk__argred_exec(src, axis, 0, 0, 0, k, largest, sorted, values, indices, workspace, ith, nth);
}

#endif /* DNNLK_ARGREDUCE_H */
