/* dnnl_kernels — resize_bwd.h: the backward pass (adjoint) of resize (resize.h), nearest and linear.
 *
 *   dnnlk_resize_bwd_infer(diff_dst, desc, diff_src)
 *   dnnlk_resize_bwd(diff_dst, desc, diff_src, ith, nth)
 *
 * desc is the forward's (every coordinate mode and nearest rounding resize.h has). diff_src has
 * the forward src's ndims and dims (given: with scales several src sizes give one dst size); its
 * strides are completed like any output. diff_dst must have the dims the forward gives for them.
 * dtypes: f32, bf16, f16, the same for both (u8: invalid_data_type).
 *
 * The forward is linear in src: dst[o] = Σ_i Π_axes W_a[o_a][i_a] · src[i], per resized axis
 * W_a[o][i] = w0 where i == i0(o), + w1 where i == i1(o) (the f32 weights resize.h uses; both
 * where the clamp makes i0 == i1), nearest: 1 where i == index(o); unresized axes the identity.
 * The adjoint is written as a GATHER over the source: for each diff_src element, the destination
 * elements that read it form a box (per axis a contiguous range of o, the coordinate maps being
 * monotone); their diff_dst · Π W are summed in double in row-major order of the box and rounded
 * once. Parts split the diff_src elements, so no two parts write one element and the bits are the
 * same for every (ith, nth) and every ISA. A row at a time: the innermost axis's readers of a run
 * of columns are tabled once and reused by every row over those columns; the outer box is summed
 * along contiguous diff_dst rows, then each column over its readers (dnnlk__rsb_row), both on the
 * vector layer in double with every product kept apart from its sum (resize_bwd_simd.h), so the
 * plain C fallbacks and every level round alike.
 *
 * Statuses: invalid_arguments for NULL pointers or data, a mode other than nearest/linear, the
 * forward's desc errors, diff_src overlapping diff_dst, bad (ith, nth); invalid_shape for dims that
 * are not the forward's; invalid_data_type. Nothing is written on error. */
#ifndef DNNLK_RESIZE_BWD_H
#define DNNLK_RESIZE_BWD_H

#include "resize.h"
#include <math.h> /* NAN (a macro: no -lm) */

#define DNNLK__RSB_CACHE 64 /* weights of one axis's range kept per source index */
#define DNNLK__RSB_MEMO 8   /* an axis's last outputs' reads (a power of 2): a seek to the next source
                               index looks again at most of the outputs the last one did */

typedef struct dnnlk__rsb_axis {
    dnnlk__resize_axis a;
    int64_t gs;                 /* diff_dst element stride along this axis */
    int64_t cur, lo, hi;        /* source index whose range [lo, hi) of o is held */
    double w[DNNLK__RSB_CACHE]; /* W[lo + k][cur] when hi - lo <= DNNLK__RSB_CACHE */
    int z[DNNLK__RSB_CACHE];    /* its zero-weight flag */
    int64_t mo[DNNLK__RSB_MEMO], mf[DNNLK__RSB_MEMO], ml[DNNLK__RSB_MEMO]; /* output mo[s] reads [mf, ml] */
    float mw0[DNNLK__RSB_MEMO], mw1[DNNLK__RSB_MEMO];                       /* with these weights */
} dnnlk__rsb_axis;

#define DNNLK__RSB_COLS 128 /* innermost-axis columns whose readers are tabled at a time (a multiple of 8) */
#define DNNLK__RSB_READERS 8 /* readers per tabled column; a column with more is not tabled */

/* The readers of a run of innermost columns, reused by every row over the same columns; laid out
 * reader-major so that the column sums run in vectors over the columns (dnnlk__rsb_colsum). */
typedef struct dnnlk__rsb_cols {
    int64_t c0, c1;   /* columns [c0, c1) held; c1 == 0: none */
    int64_t olo, ohi; /* union of their readers */
    int nr;           /* the most readers of a held column */
    int n[DNNLK__RSB_COLS]; /* readers of column c0 + k, -1: too many (element-wise box) */
    /* a reader whose reads include a zero weight while its weight is not zero (both reads clamped
     * to one index): the column is summed element by element to give that read's 0 · inf = NaN */
    unsigned char special[DNNLK__RSB_COLS];
    unsigned char lead[DNNLK__RSB_COLS]; /* reader slots before column c0 + k's first (reading a zero) */
    int64_t first_special; /* the first column c0 + k of special[k] set; INT64_MAX where none */
    int32_t ix[DNNLK__RSB_READERS][DNNLK__RSB_COLS]; /* slot r of column c0 + k: its reader's index - olo;
                                                        padding: -1 or ohi - olo, slots kept at 0 */
    /* its weight (padding: 0); 64-byte aligned: the column sums' vector loads of weights then
     * never cross a cache line */
    double w[DNNLK__RSB_READERS][DNNLK__RSB_COLS] DNNLK__ALIGN64;
    unsigned char z[DNNLK__RSB_READERS][DNNLK__RSB_COLS]; /* its zero-weight flag */
    /* reader r of the 8 columns 8g..8g+7 reads indices that step by 2 (1: an x2 upsampling's
     * columns): dnnlk__rsb_colsum loads them with dnnlk__vd_load_even instead of a gather (same
     * values), or with the next three as one dnnlk__vd_load_x2 window (3, and 4 for those three:
     * their indices are the first's + 1, 2, 3); 2: all padding, skipped (0 · 0 added to a sum
     * that is never -0 leaves it as it is: an x2 half_pixel adjoint's column 1 has a fifth reader,
     * of weight 0, that made every group gather a fifth reader of zeros) */
    unsigned char step2[DNNLK__RSB_READERS][DNNLK__RSB_COLS / 8];
} dnnlk__rsb_cols;

#define DNNLK__RSB_SEEKS 64 /* the row axis's seeks kept per source index (a power of 2) */
#define DNNLK__RSB_SEEKW 4  /* of ranges up to this long */

/* The row axis's (nd - 2) seek results by source index, direct-mapped: every plane of an NCHW
 * tensor seeks the same rows again (their walks and coordinates were a sixth of the time). */
typedef struct dnnlk__rsb_seeks {
    int64_t i[DNNLK__RSB_SEEKS]; /* source index + 1 held in the slot, 0: none */
    int64_t lo[DNNLK__RSB_SEEKS], hi[DNNLK__RSB_SEEKS];
    double w[DNNLK__RSB_SEEKS][DNNLK__RSB_SEEKW];
    int z[DNNLK__RSB_SEEKS][DNNLK__RSB_SEEKW];
} dnnlk__rsb_seeks;

typedef struct dnnlk__rsb_job {
    int nd, linear, coord, nearest;
    int plain_outer; /* every axis before the row axis nd - 2 is the identity (dnnlk__rsb_box_rows's loop) */
    dnnlk_dtype dt;
    int64_t es;
    const char *g;
    void (*axpy)(double *, const char *, int, int64_t, double);
    void (*rowsum)(double *, const char *const *, const double *, int, int, int64_t, const char *, int64_t);
    void (*colsum)(const double *, const int32_t *, const unsigned char *, const double *, int, int64_t, int64_t, double *,
                   float *, int64_t);
    dnnlk__rsb_axis ax[DNNLK_MAX_NDIMS];
    dnnlk__rsb_cols cols;
    dnnlk__rsb_seeks seeks;
} dnnlk__rsb_job;

#define DNNLK__SIMD_BODY "resize_bwd_simd.h"
#include "simd_instantiate.h"

/* The source indices output o reads along an axis: [first, last]. */
static inline void dnnlk__rsb_reads(const dnnlk__rsb_job *j, const dnnlk__resize_axis *a, int64_t o, int64_t *first,
                                    int64_t *last, float *w0, float *w1) {
    if (!a->resized) {
        *first = *last = o, *w0 = 1, *w1 = 0;
    } else if (j->linear) {
        dnnlk__resize_linear_coeffs(a, j->coord, o, first, last, w0, w1);
    } else {
        *first = *last = dnnlk__resize_nearest_index(a, j->coord, j->nearest, o);
        *w0 = 1, *w1 = 0;
    }
}

/* W[o][i]; *zero: one of the reads of i by o has weight 0 (then an inf or NaN diff_dst gives NaN,
 * 0 · inf, as the forward and PyTorch compute it, also where the clamp makes both reads i). */
static inline double dnnlk__rsb_weight_of(const dnnlk__rsb_job *j, const dnnlk__resize_axis *a, int64_t f, int64_t l,
                                          float w0, float w1, int64_t i, int *zero) {
    double w = 0;
    *zero = 0;
    if (f == i) w += (double)w0, *zero |= w0 == 0;
    if (j->linear && a->resized) {
        if (l == i) w += (double)w1, *zero |= w1 == 0;
    } else if (l == i && f != i) {
        w += 1.0;
    }
    return w;
}

static inline double dnnlk__rsb_weight(const dnnlk__rsb_job *j, const dnnlk__resize_axis *a, int64_t o, int64_t i,
                                       int *zero) {
    int64_t f, l;
    float w0, w1;
    dnnlk__rsb_reads(j, a, o, &f, &l, &w0, &w1);
    return dnnlk__rsb_weight_of(j, a, f, l, w0, w1, i, zero);
}

/* dnnlk__rsb_reads of output o along axis x, through the axis's memo (a row's seek of an outer
 * axis computed each output's coordinates two or three times: a fifth of an x2 adjoint's time). */
static DNNLK__FORCEINLINE void dnnlk__rsb_reads_at(const dnnlk__rsb_job *j, dnnlk__rsb_axis *x, int64_t o, int64_t *f, int64_t *l,
                                       float *w0, float *w1) {
    const int s = (int)(o & (DNNLK__RSB_MEMO - 1));
    if (x->mo[s] != o) {
        dnnlk__rsb_reads(j, &x->a, o, &x->mf[s], &x->ml[s], &x->mw0[s], &x->mw1[s]);
        x->mo[s] = o;
    }
    *f = x->mf[s], *l = x->ml[s], *w0 = x->mw0[s], *w1 = x->mw1[s];
}

/* Moves axis d's held range to source index i (the row axis: from j->seeks where held; else a
 * walk from the last one when i follows it, else a binary search), and its weights. */
static inline void dnnlk__rsb_seek(dnnlk__rsb_job *j, dnnlk__rsb_axis *x, int64_t i) {
    const dnnlk__resize_axis *a = &x->a;
    dnnlk__rsb_seeks *m = &j->seeks;
    int64_t lo, hi, f, l, k;
    const int s = j->nd >= 2 && x == &j->ax[j->nd - 2] ? (int)(i & (DNNLK__RSB_SEEKS - 1)) : -1;
    float w0, w1;
    if (s >= 0 && m->i[s] == i + 1) {
        x->cur = i, x->lo = m->lo[s], x->hi = m->hi[s];
        for (k = 0; k < x->hi - x->lo; k++) x->w[k] = m->w[s][k], x->z[k] = m->z[s][k];
        return;
    }
    if (x->cur >= 0 && i == x->cur + 1) {
        lo = x->lo, hi = x->hi;
        for (;; lo++) { /* first o whose last read index reaches i */
            if (lo >= a->out) break;
            dnnlk__rsb_reads_at(j, x, lo, &f, &l, &w0, &w1);
            if (l >= i) break;
        }
        if (hi < lo) hi = lo;
        for (;; hi++) { /* first o whose first read index passes i */
            if (hi >= a->out) break;
            dnnlk__rsb_reads_at(j, x, hi, &f, &l, &w0, &w1);
            if (f > i) break;
        }
    } else {
        int64_t L = 0, H = a->out;
        while (L < H) {
            int64_t mid = L + (H - L) / 2;
            dnnlk__rsb_reads_at(j, x, mid, &f, &l, &w0, &w1);
            if (l >= i) H = mid;
            else L = mid + 1;
        }
        lo = L, H = a->out;
        while (L < H) {
            int64_t mid = L + (H - L) / 2;
            dnnlk__rsb_reads_at(j, x, mid, &f, &l, &w0, &w1);
            if (f > i) H = mid;
            else L = mid + 1;
        }
        hi = L;
    }
    x->cur = i, x->lo = lo, x->hi = hi;
    if (hi - lo <= DNNLK__RSB_CACHE)
        for (k = lo; k < hi; k++) {
            dnnlk__rsb_reads_at(j, x, k, &f, &l, &w0, &w1);
            x->w[k - lo] = dnnlk__rsb_weight_of(j, a, f, l, w0, w1, i, &x->z[k - lo]);
        }
    if (s >= 0 && hi - lo <= DNNLK__RSB_SEEKW) {
        m->i[s] = i + 1, m->lo[s] = lo, m->hi[s] = hi;
        for (k = 0; k < hi - lo; k++) m->w[s][k] = x->w[k], m->z[s][k] = x->z[k];
    }
}

/* Σ over the box of axes d.. of diff_dst · Π weights (w: the product of the outer axes). */
static inline double dnnlk__rsb_box(const dnnlk__rsb_job *j, int d, const char *g, double w, int zero) {
    const dnnlk__rsb_axis *x = &j->ax[d];
    double s = 0;
    int64_t o;
    int cached = x->hi - x->lo <= DNNLK__RSB_CACHE;
    for (o = x->lo; o < x->hi; o++) {
        int zo;
        double wo = cached ? (zo = x->z[o - x->lo], x->w[o - x->lo]) : dnnlk__rsb_weight(j, &x->a, o, x->cur, &zo);
        const char *p = g + o * x->gs * j->es;
        if (d + 1 < j->nd) {
            s += dnnlk__rsb_box(j, d + 1, p, w * wo, zero | zo);
        } else {
            double v = (double)dnnlk__load_as_f32(p, j->dt);
            s += (zero | zo) && !(v - v == 0) ? (double)NAN : w * wo * v;
        }
    }
    return s;
}

/* Rows: tmp[k] += Σ over the box of the outer axes d.. (all but the innermost) of Π weights ·
 * diff_dst[..., olo + k], k < n: one pass along contiguous diff_dst rows per box element. */
static inline void dnnlk__rsb_rows(const dnnlk__rsb_job *j, int d, const char *g, double w, int zero, double *tmp,
                                   int64_t olo, int64_t n) {
    const dnnlk__rsb_axis *x = &j->ax[d];
    int64_t o, k;
    if (d == j->nd - 1) {
        const int64_t st = x->gs * j->es;
        g += olo * st;
        if (x->gs == 1 && (!zero || w == 0)) { /* w = 0: 0 · (inf or NaN) is the NaN asked for */
            j->axpy(tmp, g, (int)j->dt, n, w);
        } else {
            for (k = 0; k < n; k++) {
                double v = (double)dnnlk__load_as_f32(g + k * st, j->dt);
                tmp[k] += zero && !(v - v == 0) ? (double)NAN : w * v;
            }
        }
        return;
    }
    {
        int cached = x->hi - x->lo <= DNNLK__RSB_CACHE;
        for (o = x->lo; o < x->hi; o++) {
            int zo;
            double wo = cached ? (zo = x->z[o - x->lo], x->w[o - x->lo]) : dnnlk__rsb_weight(j, &x->a, o, x->cur, &zo);
            dnnlk__rsb_rows(j, d + 1, g + o * x->gs * j->es, w * wo, zero | zo, tmp, olo, n);
        }
    }
}

#define DNNLK__RSB_BOX 32 /* outer box elements summed by one dnnlk__rsb_rowsum call (more: dnnlk__rsb_rows) */

/* The rows dnnlk__rsb_rows would pass to dnnlk__rsb_axpy, in its order: g[*nr] and w[*nr]. 0 where
 * one would not go there (a strided row, or a zero read of weight not 0) or there are more than
 * DNNLK__RSB_BOX: the caller sums them with dnnlk__rsb_rows. */
static inline int dnnlk__rsb_box_rows(const dnnlk__rsb_job *j, int d, const char *g, double w, int zero, int64_t olo,
                                      const char **gs, double *ws, int *nr) {
    const dnnlk__rsb_axis *x = &j->ax[d];
    int64_t o;
    if (d == 0 && j->plain_outer && j->nd >= 2) {
        /* the recursion's rows without it: the axes before the row axis each read their own
         * index with weight 1 (1 · w is w), the innermost is the row itself */
        const dnnlk__rsb_axis *y = &j->ax[j->nd - 2];
        int i;
        if (j->ax[j->nd - 1].gs != 1 || y->hi - y->lo > DNNLK__RSB_CACHE || y->hi - y->lo > DNNLK__RSB_BOX) return 0;
        for (i = 0; i < j->nd - 2; i++) g += j->ax[i].cur * j->ax[i].gs * j->es;
        g += olo * j->es;
        for (o = y->lo; o < y->hi; o++) {
            if (y->z[o - y->lo] && y->w[o - y->lo] != 0) return 0;
            gs[o - y->lo] = g + o * y->gs * j->es, ws[o - y->lo] = y->w[o - y->lo];
        }
        *nr = (int)(y->hi - y->lo);
        return 1;
    }
    if (d == j->nd - 1) {
        if (x->gs != 1 || (zero && w != 0) || *nr == DNNLK__RSB_BOX) return 0;
        gs[*nr] = g + olo * j->es, ws[*nr] = w, ++*nr;
        return 1;
    }
    if (x->hi - x->lo > DNNLK__RSB_CACHE) return 0;
    for (o = x->lo; o < x->hi; o++)
        if (!dnnlk__rsb_box_rows(j, d + 1, g + o * x->gs * j->es, w * x->w[o - x->lo], zero | x->z[o - x->lo], olo, gs, ws, nr))
            return 0;
    return 1;
}

#define DNNLK__RSB_ROW 1024 /* diff_dst columns summed over the outer box at a time (doubles, stack) */

/* Tables the readers of columns [c0, c1) of the innermost axis into j->cols, stopping early where
 * their union would pass DNNLK__RSB_ROW outputs (at least one column is tabled). */
static inline void dnnlk__rsb_table(dnnlk__rsb_job *j, int64_t c0, int64_t c1) {
    dnnlk__rsb_cols *t = &j->cols;
    dnnlk__rsb_axis *x = &j->ax[j->nd - 1];
    int64_t c, k, lo[DNNLK__RSB_COLS], pad;
    int r;
    if (c1 - c0 > DNNLK__RSB_COLS) c1 = c0 + DNNLK__RSB_COLS;
    t->c0 = c0, t->olo = 0, t->ohi = 0, t->nr = 0, t->first_special = INT64_MAX;
    for (c = c0; c < c1; c++) {
        int n;
        dnnlk__rsb_seek(j, x, c);
        n = x->hi - x->lo <= DNNLK__RSB_READERS ? (int)(x->hi - x->lo) : -1;
        if (n < 0) { /* a column of many readers goes alone */
            if (c == c0) t->n[0] = -1, c++;
            break;
        }
        if (c == c0) t->olo = x->lo, t->ohi = x->hi;
        else if (x->hi - t->olo > DNNLK__RSB_ROW) break;
        if (x->hi > t->ohi) t->ohi = x->hi;
        if (n > t->nr) t->nr = n;
        t->n[c - c0] = n;
        t->special[c - c0] = 0;
        lo[c - c0] = x->lo;
        for (r = 0; r < n; r++) {
            t->w[r][c - c0] = x->w[r], t->z[r][c - c0] = (unsigned char)x->z[r];
            if (x->z[r] && x->w[r] != 0) t->special[c - c0] = 1;
        }
        if (t->special[c - c0] && t->first_special > c) t->first_special = c;
    }
    t->c1 = c;
    if (t->n[0] < 0) return;
    { /* Each column's readers moved up by lead[k] slots so that slot r reads index 2k + K + r
       * (an x2 upsampling's step) where that takes no more slots: the edge columns (0 reads
       * outputs 0, 1, 2; 1 reads 0 .. 4, output 0 with weight 0) then step with the others, and
       * their group of 8 is an x2 window too. The slots before read a zero (index -1): a sum's
       * first products 0 · 0 leave its +0 as it was, the same bits. */
        int64_t K = INT64_MAX;
        int nr2 = 0;
        for (k = 0; k < c - c0; k++)
            if (lo[k] - 2 * k < K) K = lo[k] - 2 * k;
        for (k = 0; k < c - c0; k++)
            if (lo[k] - 2 * k - K + t->n[k] > nr2) nr2 = (int)(lo[k] - 2 * k - K + t->n[k]);
        for (k = 0; k < c - c0; k++) {
            const int p = nr2 <= t->nr ? (int)(lo[k] - 2 * k - K) : 0;
            for (r = t->n[k] - 1; r >= 0 && p > 0; r--) t->w[r + p][k] = t->w[r][k], t->z[r + p][k] = t->z[r][k];
            t->lead[k] = (unsigned char)p;
        }
    }
    /* reader indices relative to olo; every other slot up to the vector width reads a zero: -1
     * before a column's readers, pad after */
    pad = t->ohi - t->olo;
    for (k = 0; k < DNNLK__RSB_COLS && (k < c - c0 || k % 8 != 0); k++)
        for (r = 0; r < t->nr; r++) {
            const int lead = k < c - c0 ? t->lead[k] : 0, in = k < c - c0 && r >= lead && r < lead + t->n[k];
            t->ix[r][k] = (int32_t)(in ? lo[k] + r - lead - t->olo : r < lead ? -1 : pad);
            if (!in) t->w[r][k] = 0, t->z[r][k] = 0;
        }
    for (r = 0; r < t->nr; r++) /* the groups of 8 whose indices step by 2, or are all padding */
        for (k = 0; k + 8 <= DNNLK__RSB_COLS && (k < c - c0); k += 8) {
            int l, s2 = 1, none = 1;
            for (l = 1; l < 8; l++) s2 &= t->ix[r][k + l] == t->ix[r][k] + 2 * l;
            for (l = 0; l < 8; l++) none &= t->ix[r][k + l] == pad || t->ix[r][k + l] == -1;
            t->step2[r][k / 8] = (unsigned char)(none ? 2 : s2);
        }
    for (k = 0; k + 8 <= DNNLK__RSB_COLS && (k < c - c0); k += 8) /* x2 windows: readers at i - 1 .. i + 2 */
        for (r = 0; r + 4 <= t->nr; r++) {
            int q, win = 1;
            for (q = 0; q < 4; q++) win &= t->step2[r + q][k / 8] == 1 && t->ix[r + q][k] == t->ix[r][k] + q;
            if (win) {
                t->step2[r][k / 8] = 3;
                for (q = 1; q < 4; q++) t->step2[r + q][k / 8] = 4;
                r += 3;
            }
        }
}

/* Source elements [w0, w1) of one row (the outer axes already seeked). Per column: the sum over
 * its readers o along the innermost axis of W · (the sum over the outer box of Π W · diff_dst at
 * o, from dnnlk__rsb_rows), in reader order. Both sums depend on the column only, so the bits are
 * the same however rows and parts cut the columns. A column read by more than DNNLK__RSB_READERS
 * outputs takes the element-wise box (also a function of the column only). */
static inline void dnnlk__rsb_row(dnnlk__rsb_job *j, char *out, int64_t ostride, int64_t w0, int64_t w1) {
    /* tmp 64-byte aligned (an x2 window's loads then do not cross cache lines), tmp[-1] a zero */
    double tmp0[DNNLK__RSB_ROW + 1 + 16], *const tmp = (double *)(((uintptr_t)tmp0 + 63) & ~(uintptr_t)63) + 8;
    double sums[DNNLK__RSB_COLS];
    dnnlk__rsb_cols *t = &j->cols;
    int64_t w = w0;
    while (w < w1) {
        int64_t k, ce;
        if (!(t->c1 > 0 && t->c0 == w)) dnnlk__rsb_table(j, w, w1); /* rows over the same columns share it */
        ce = t->c1 < w1 ? t->c1 : w1;
        if (t->n[0] < 0) { /* one column of many readers */
            float v;
            dnnlk__rsb_seek(j, &j->ax[j->nd - 1], w);
            v = (float)dnnlk__rsb_box(j, 0, j->g, 1.0, 0);
            dnnlk__store_from_f32(out + w * ostride * j->es, j->dt, v);
            w++;
            continue;
        }
        {
            const char *gs[DNNLK__RSB_BOX];
            double ws[DNNLK__RSB_BOX];
            int nr = 0;
            if (dnnlk__rsb_box_rows(j, 0, j->g, 1.0, 0, t->olo, gs, ws, &nr)) {
                /* the two diff_dst rows past the box's last: those the next row's box adds in an
                 * upsampling by 2 (requested into L1 first: 7% of the time at the bench's shape) */
                const int64_t rb = j->nd >= 2 && nr > 0 ? j->ax[j->nd - 2].gs * j->es : 0;
                j->rowsum(tmp, gs, ws, nr, (int)j->dt, t->ohi - t->olo, rb ? gs[nr - 1] : NULL, rb);
                tmp[-1] = tmp[t->ohi - t->olo] = 0; /* the zero slots */
            } else {
                for (k = -1; k <= t->ohi - t->olo; k++) tmp[k] = 0; /* and the zero slots */
                dnnlk__rsb_rows(j, 0, j->g, 1.0, 0, tmp, t->olo, t->ohi - t->olo);
            }
        }
        { /* f32 columns of unit stride: whole vectors written by the column sums themselves */
            int64_t nf = j->dt == dnnlk_f32 && ostride == 1 ? (ce - t->c0) / 8 * 8 : 0;
            j->colsum(tmp, &t->ix[0][0], &t->step2[0][0], &t->w[0][0], t->nr, DNNLK__RSB_COLS, (ce - t->c0 + 7) / 8 * 8, sums,
                      nf ? (float *)(void *)(out + t->c0 * j->es) : NULL, nf);
            /* those written; from a special column on they are written again */
            w = t->c0 + nf < t->first_special ? t->c0 + nf : t->first_special;
        }
        for (; w < ce; w++) {
            const int64_t c = w - t->c0;
            double sum = sums[c];
            if (t->special[c]) {
                int r;
                sum = 0;
                for (r = 0; r < t->nr; r++) { /* padding adds 0 · 0: the sum as it was */
                    double v = tmp[t->ix[r][c]];
                    sum += t->z[r][c] && !(v - v == 0) ? (double)NAN : t->w[r][c] * v;
                }
            }
            dnnlk__store_from_f32(out + w * ostride * j->es, j->dt, (float)sum);
        }
    }
}

static inline dnnlk_status dnnlk__rsb_prepare(const dnnlk_tensor *diff_dst, const dnnlk_resize_desc *desc,
                                              const dnnlk_tensor *diff_src, int exec, dnnlk_tensor *ods,
                                              dnnlk__resize_axis *ax) {
    dnnlk_tensor sv, dd;
    dnnlk_status st;
    if (!diff_dst || !desc || !diff_src) return dnnlk_invalid_arguments;
    if ((st = dnnlk__check_input(diff_dst, exec)) != dnnlk_success) return st;
    if (diff_dst->dtype != dnnlk_f32 && diff_dst->dtype != dnnlk_bf16 && diff_dst->dtype != dnnlk_f16)
        return dnnlk_invalid_data_type;
    if (diff_src->dtype != diff_dst->dtype) return dnnlk_invalid_data_type;
    if ((unsigned)desc->mode > 1u) return dnnlk_invalid_arguments;
    if (diff_src->ndims < 0 || diff_src->ndims > DNNLK_MAX_NDIMS) return dnnlk_invalid_shape;
    if ((st = dnnlk__complete_output(diff_src, diff_src->ndims, diff_src->dims, &sv)) != dnnlk_success) return st;
    /* the forward's shape rules, with diff_src as its src and diff_dst as its dst */
    if ((st = dnnlk__resize_prepare(&sv, desc, diff_dst, 0, &dd, ax)) != dnnlk_success) return st;
    if (memcmp(dd.strides, diff_dst->strides, sizeof(int64_t) * (size_t)dd.ndims) != 0) return dnnlk_invalid_shape;
    if (exec && (st = dnnlk__output_writable(&sv, &sv, NULL)) != dnnlk_success) return st;
    if (exec && dnnlk__ranges_intersect(&sv, diff_dst)) return dnnlk_invalid_arguments;
    *ods = sv;
    return dnnlk_success;
}

/* Completes diff_src's strides; writes nothing on error. */
static inline dnnlk_status dnnlk_resize_bwd_infer(const dnnlk_tensor *diff_dst, const dnnlk_resize_desc *desc,
                                                  dnnlk_tensor *diff_src) {
    dnnlk_tensor o;
    dnnlk__resize_axis ax[DNNLK_MAX_NDIMS];
    dnnlk_status st = dnnlk__rsb_prepare(diff_dst, desc, diff_src, 0, &o, ax);
    if (st == dnnlk_success) dnnlk__set_desc(diff_src, &o);
    return st;
}

/* resize backward, part ith of nth of diff_src's elements (see the top of the file). */
static inline dnnlk_status dnnlk_resize_bwd(const dnnlk_tensor *diff_dst, const dnnlk_resize_desc *desc,
                                            dnnlk_tensor *diff_src, int ith, int nth) {
    dnnlk_tensor o;
    dnnlk__resize_axis ax[DNNLK_MAX_NDIMS];
    dnnlk__rsb_job j;
    int64_t total = 1, e0, e1, e, idx[DNNLK_MAX_NDIMS];
    int i, nd;
    dnnlk_status st;
    if (!dnnlk__part_ok(ith, nth)) return dnnlk_invalid_arguments;
    if ((st = dnnlk__rsb_prepare(diff_dst, desc, diff_src, 1, &o, ax)) != dnnlk_success) return st;
    dnnlk__set_desc(diff_src, &o);
    nd = o.ndims;
    for (i = 0; i < nd; i++) total *= o.dims[i];
    if (total == 0) return dnnlk_success;
    /* the scalars; the tables (32 KB) are written before they are read: only their "none held"
     * marks are cleared (a memset of the whole job was a few % of a 64x64 plane's call) */
    memset(&j, 0, offsetof(dnnlk__rsb_job, ax));
    j.cols.c0 = j.cols.c1 = 0;
    memset(j.seeks.i, 0, sizeof j.seeks.i);
    j.nd = nd, j.linear = desc->mode == dnnlk_resize_linear, j.coord = (int)desc->coord;
    j.nearest = (int)desc->nearest, j.dt = o.dtype, j.es = (int64_t)dnnlk_dtype_size(o.dtype);
    j.g = (const char *)diff_dst->data;
    j.axpy = DNNLK__DISPATCH(dnnlk__rsb_axpy, );
    j.rowsum = DNNLK__DISPATCH(dnnlk__rsb_rowsum, );
    j.colsum = DNNLK__DISPATCH(dnnlk__rsb_colsum, );
    j.plain_outer = 1;
    for (i = 0; i + 2 < nd; i++) j.plain_outer &= !ax[i].resized && ax[i].out == ax[i].in; /* not resized to 0 */
    for (i = 0; i < nd; i++) {
        int s;
        j.ax[i].a = ax[i], j.ax[i].gs = diff_dst->strides[i], j.ax[i].cur = -2;
        for (s = 0; s < DNNLK__RSB_MEMO; s++) j.ax[i].mo[s] = -1;
    }
    dnnlk__part_range(total, ith, nth, 16, &e0, &e1);
    if (e0 >= e1) return dnnlk_success;
    { /* the start index, row-major */
        int64_t r = e0;
        for (i = nd - 1; i >= 0; i--) idx[i] = r % o.dims[i], r /= o.dims[i];
        for (i = 0; i < nd; i++) dnnlk__rsb_seek(&j, &j.ax[i], idx[i]);
    }
    if (nd == 0) {
        dnnlk__store_from_f32(o.data, o.dtype, dnnlk__load_as_f32(j.g, j.dt));
        return dnnlk_success;
    }
    for (e = e0; e < e1;) { /* a row (or what of it is in the part) at a time */
        int64_t off = 0, w1 = o.dims[nd - 1];
        if (w1 - idx[nd - 1] > e1 - e) w1 = idx[nd - 1] + (e1 - e);
        for (i = 0; i < nd - 1; i++) off += idx[i] * o.strides[i];
        dnnlk__rsb_row(&j, (char *)o.data + off * j.es, o.strides[nd - 1], idx[nd - 1], w1);
        e += w1 - idx[nd - 1];
        idx[nd - 1] = 0;
        for (i = nd - 2; i >= 0; i--) { /* next row; seek the outer axes that moved */
            if (++idx[i] < o.dims[i]) {
                dnnlk__rsb_seek(&j, &j.ax[i], idx[i]);
                break;
            }
            idx[i] = 0;
            dnnlk__rsb_seek(&j, &j.ax[i], 0);
        }
    }
    return dnnlk_success;
}

#endif /* DNNLK_RESIZE_BWD_H */
