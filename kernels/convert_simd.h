/* dnnl_kernels — convert_simd.h: the convert row kernels, one body compiled at every level (the
 * scalar one included) by simd_instantiate.h (no include guard). Entry:
 * DNNLK__SFX(dnnlk__convert_rows)(blk).
 *
 * Four kinds of rows:
 *   - vector pairs (src f32/bf16/f16/u8/s8 -> dst f32/bf16/f16/boolean), both sides contiguous:
 *     DNNLK__VF_N elements per step as f32 lanes (every such source value is an f32 exactly, so
 *     the one rounding is the store's, the same as the element path's);
 *   - same dtype (boolean aside): copies, and transpose blocks in tiles;
 *   - everything else: a chunk of elements read into an exact intermediate (double for float
 *     sources, fp8 included, int64 for the others: a u64's bits, written by its own writer), then written, each
 *     loop specialised on its one dtype. */

#define DNNLK__CVT_CHUNK 256

/* ---- element path ---- */

#define DNNLK__CVT_READ_F(DT)                                                                      \
    for (i = 0; i < n; i++) buf[i] = dnnlk__cvt_read_f(s + i * ss, DT)
#define DNNLK__CVT_READ_I(DT)                                                                      \
    for (i = 0; i < n; i++) buf[i] = dnnlk__cvt_read_i(s + i * ss, DT)

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__convert_read_f)(double *buf, const char *s, int64_t ss, int64_t n,
                                                              int sdt) {
    int64_t i;
    switch (sdt) {
    case dnnlk_f32: DNNLK__CVT_READ_F(dnnlk_f32); break;
    case dnnlk_bf16: DNNLK__CVT_READ_F(dnnlk_bf16); break;
    case dnnlk_f16: DNNLK__CVT_READ_F(dnnlk_f16); break;
    case dnnlk_f8_e4m3: DNNLK__CVT_READ_F(dnnlk_f8_e4m3); break;
    case dnnlk_f8_e5m2: DNNLK__CVT_READ_F(dnnlk_f8_e5m2); break;
    default: DNNLK__CVT_READ_F(dnnlk_f64); break;
    }
}

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__convert_read_i)(int64_t *buf, const char *s, int64_t ss, int64_t n,
                                                              int sdt) {
    int64_t i;
    switch (sdt) {
    case dnnlk_s8: DNNLK__CVT_READ_I(dnnlk_s8); break;
    case dnnlk_u8: DNNLK__CVT_READ_I(dnnlk_u8); break;
    case dnnlk_boolean: DNNLK__CVT_READ_I(dnnlk_boolean); break;
    case dnnlk_s32: DNNLK__CVT_READ_I(dnnlk_s32); break;
    case dnnlk_s16: DNNLK__CVT_READ_I(dnnlk_s16); break;
    case dnnlk_u16: DNNLK__CVT_READ_I(dnnlk_u16); break;
    default: DNNLK__CVT_READ_I(dnnlk_s64); break;
    }
}
#undef DNNLK__CVT_READ_F
#undef DNNLK__CVT_READ_I

#define DNNLK__CVT_WRITE(FN, DT) \
    case DT: for (i = 0; i < n; i++) FN(d + i * ds, DT, buf[i]); break
#define DNNLK__CVT_WRITES(FN)                                                                                \
    switch (ddt) {                                                                                           \
        DNNLK__CVT_WRITE(FN, dnnlk_boolean); DNNLK__CVT_WRITE(FN, dnnlk_f64); DNNLK__CVT_WRITE(FN, dnnlk_f32); \
        DNNLK__CVT_WRITE(FN, dnnlk_bf16); DNNLK__CVT_WRITE(FN, dnnlk_f16); DNNLK__CVT_WRITE(FN, dnnlk_s64);   \
        DNNLK__CVT_WRITE(FN, dnnlk_s32); DNNLK__CVT_WRITE(FN, dnnlk_s8); DNNLK__CVT_WRITE(FN, dnnlk_u8);     \
        DNNLK__CVT_WRITE(FN, dnnlk_u64); DNNLK__CVT_WRITE(FN, dnnlk_s16); DNNLK__CVT_WRITE(FN, dnnlk_u16);   \
        DNNLK__CVT_WRITE(FN, dnnlk_f8_e4m3); DNNLK__CVT_WRITE(FN, dnnlk_f8_e5m2);                            \
    default: break;                                                                                          \
    }

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__convert_write_f)(char *d, int64_t ds, int64_t n, int ddt,
                                                               const double *buf) {
    int64_t i;
    DNNLK__CVT_WRITES(dnnlk__cvt_write_f)
}

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__convert_write_i)(char *d, int64_t ds, int64_t n, int ddt,
                                                               const int64_t *buf) {
    int64_t i;
    DNNLK__CVT_WRITES(dnnlk__cvt_write_i)
}

/* A u64 source: buf holds its bits. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__convert_write_u)(char *d, int64_t ds, int64_t n, int ddt,
                                                               const int64_t *buf) {
    int64_t i;
    DNNLK__CVT_WRITES(dnnlk__cvt_write_u)
}
#undef DNNLK__CVT_WRITES
#undef DNNLK__CVT_WRITE

/* n elements of one row, any pair, any strides. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__convert_elems)(char *d, int64_t ds, const char *s, int64_t ss,
                                                             int64_t n, int ddt, int sdt) {
    union {
        double f[DNNLK__CVT_CHUNK];
        int64_t i[DNNLK__CVT_CHUNK];
    } buf;
    int fl = dnnlk__cvt_src_is_float((dnnlk_dtype)sdt);
    int64_t j = 0;
    while (j < n) {
        int64_t m = n - j < DNNLK__CVT_CHUNK ? n - j : DNNLK__CVT_CHUNK;
        if (fl) {
            DNNLK__SFX(dnnlk__convert_read_f)(buf.f, s + j * ss, ss, m, sdt);
            DNNLK__SFX(dnnlk__convert_write_f)(d + j * ds, ds, m, ddt, buf.f);
        } else {
            DNNLK__SFX(dnnlk__convert_read_i)(buf.i, s + j * ss, ss, m, sdt);
            if (sdt == dnnlk_u64) DNNLK__SFX(dnnlk__convert_write_u)(d + j * ds, ds, m, ddt, buf.i);
            else DNNLK__SFX(dnnlk__convert_write_i)(d + j * ds, ds, m, ddt, buf.i);
        }
        j += m;
    }
}

static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__convert_generic)(const dnnlk__convert_blk *k) {
    int64_t r;
    for (r = 0; r < k->rows; r++)
        DNNLK__SFX(dnnlk__convert_elems)(k->d + r * k->dp, k->ds, k->s + r * k->sp, k->ss, k->n, k->ddt, k->sdt);
}

/* ---- vector pairs: contiguous rows ---- */

/* DNNLK__VF_N elements: src (sdt) -> dst (ddt). To boolean: lane != 0 (NaN too: an unordered
 * compare), the lane's 0/1 stored as a byte. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__convert_vstep)(char *d, const char *s, int ddt, int sdt) {
    dnnlk__vf v = dnnlk__vf_load_dt(s, sdt);
    if (ddt == dnnlk_boolean) {
        dnnlk__vmask m = dnnlk__vf_cmpneq(v, dnnlk__vf_zero());
        dnnlk__vi_store_u8(d, dnnlk__vf_as_vi(dnnlk__vf_blend(m, dnnlk__vi_as_vf(dnnlk__vi_set1(1)), dnnlk__vf_zero())));
    } else {
        /* A signalling NaN widened to f32 is quieted, as the element path's conversions through
         * double do: the layer's f16 load quiets it at every level, its bf16 load (a shift) does
         * not; the half-width stores quiet by themselves. */
        if (ddt == dnnlk_f32 && sdt == dnnlk_bf16)
            v = dnnlk__vf_blend(dnnlk__vf_cmpunord(v, v), dnnlk__vf_or(v, dnnlk__vi_as_vf(dnnlk__vi_set1(0x00400000))), v);
        dnnlk__vf_store_dt(d, ddt, v, 0);
    }
}

/* 4 DNNLK__VF_N elements. A bf16 or f16 result is packed two vectors into one
 * (dnnlk__vf_pack2_bf16 / _f16: whole vectors, so with nt, d aligned to the vector, they are
 * streamed straight out). */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__convert_vstep4)(char *d, const char *s, int ddt, int sdt, int nt) {
    const int64_t des = (int64_t)dnnlk_dtype_size((dnnlk_dtype)ddt), ses = (int64_t)dnnlk_dtype_size((dnnlk_dtype)sdt);
    const int64_t W = DNNLK__VF_N;
    if (ddt == dnnlk_bf16 || ddt == dnnlk_f16) {
#define DNNLK__CVT_PACK2(a, b) (ddt == dnnlk_bf16 ? dnnlk__vf_pack2_bf16((a), (b)) : dnnlk__vf_pack2_f16((a), (b)))
        dnnlk__vi p0 = DNNLK__CVT_PACK2(dnnlk__vf_load_dt(s, sdt), dnnlk__vf_load_dt(s + W * ses, sdt));
        dnnlk__vi p1 = DNNLK__CVT_PACK2(dnnlk__vf_load_dt(s + 2 * W * ses, sdt), dnnlk__vf_load_dt(s + 3 * W * ses, sdt));
#undef DNNLK__CVT_PACK2
        if (nt) {
            dnnlk__vi_stream(d, p0);
            dnnlk__vi_stream(d + 2 * W * des, p1);
        } else {
            dnnlk__vi_storeu(d, p0);
            dnnlk__vi_storeu(d + 2 * W * des, p1);
        }
        return;
    }
    DNNLK__SFX(dnnlk__convert_vstep)(d, s, ddt, sdt);
    DNNLK__SFX(dnnlk__convert_vstep)(d + W * des, s + W * ses, ddt, sdt);
    DNNLK__SFX(dnnlk__convert_vstep)(d + 2 * W * des, s + 2 * W * ses, ddt, sdt);
    DNNLK__SFX(dnnlk__convert_vstep)(d + 3 * W * des, s + 3 * W * ses, ddt, sdt);
}

/* n elements of one contiguous row. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__convert_vspan)(char *d, const char *s, int64_t n, int ddt, int sdt) {
    const int64_t des = (int64_t)dnnlk_dtype_size((dnnlk_dtype)ddt), ses = (int64_t)dnnlk_dtype_size((dnnlk_dtype)sdt);
    const int64_t W = DNNLK__VF_N;
    int64_t i;
    for (i = 0; i + 4 * W <= n; i += 4 * W) DNNLK__SFX(dnnlk__convert_vstep4)(d + i * des, s + i * ses, ddt, sdt, 0);
    for (; i + W <= n; i += W) DNNLK__SFX(dnnlk__convert_vstep)(d + i * des, s + i * ses, ddt, sdt);
    if (i < n) DNNLK__SFX(dnnlk__convert_elems)(d + i * des, des, s + i * ses, ses, n - i, ddt, sdt);
}

/* bytes (a multiple of DNNLK__VB_N) from the staging buffer to d (aligned to the vector) with
 * streaming stores. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__stage_stream)(char *d, const unsigned char *buf, int64_t bytes) {
    int64_t i;
    for (i = 0; i < bytes; i += DNNLK__VB_N) dnnlk__vb_stream(d + i, dnnlk__vb_loadu(buf + i));
}

/* The staging buffer of the streaming rows: whole vectors, so it is aligned to them. */
typedef union DNNLK__SFX(dnnlk__stage_buf) {
    dnnlk__vb v[DNNLK__STAGE_BYTES / DNNLK__VB_N];
    unsigned char b[DNNLK__STAGE_BYTES];
} DNNLK__SFX(dnnlk__stage_buf);

/* Whole rows; with k->nt, the vector-aligned middle of each row goes out by streaming stores.
 * Narrower results (boolean, u8 ...) are a fraction of a vector, which cannot be streamed by
 * themselves (a streaming store is a whole aligned vector), so they are converted into an L1
 * staging buffer a few KiB at a time and streamed from there: a plain store of a line the
 * kernel will never read again first reads it from memory (the write-allocate), a third more
 * traffic for f32 -> bf16 (measured 0.21 -> 0.15 ns/element for [4096,4096] on AVX-512). bf16
 * and f16 results come two vectors packed into one (dnnlk__convert_vstep4) and are streamed straight from
 * the register: with the cheaper rounding of the AVX-512 layer, f32 -> bf16 [4096,4096] went from
 * 0.86-0.92 to 0.93 of a copy of the same bytes (thread CPU time, tools/convert_cputime.c). */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__convert_vrows_t)(const dnnlk__convert_blk *k, int ddt, int sdt) {
    const int64_t des = (int64_t)dnnlk_dtype_size((dnnlk_dtype)ddt), ses = (int64_t)dnnlk_dtype_size((dnnlk_dtype)sdt);
    const int64_t C = DNNLK__STAGE_BYTES / des; /* elements per staged chunk */
    DNNLK__SFX(dnnlk__stage_buf) stage;
    int64_t r, i, h;
    for (r = 0; r < k->rows; r++) {
        char *d = k->d + r * k->dp;
        const char *s = k->s + r * k->sp;
        h = (int64_t)((DNNLK__VB_N - (uintptr_t)d % DNNLK__VB_N) % DNNLK__VB_N); /* bytes to alignment */
        if (!k->nt || h % des != 0) {
            DNNLK__SFX(dnnlk__convert_vspan)(d, s, k->n, ddt, sdt);
            continue;
        }
        h = h / des < k->n ? h / des : k->n;
        DNNLK__SFX(dnnlk__convert_vspan)(d, s, h, ddt, sdt);
        for (i = h; i + C <= k->n; i += C) {
            int64_t j; /* C is a multiple of 4 DNNLK__VF_N */
            if (ddt == dnnlk_bf16 || ddt == dnnlk_f16) { /* whole vectors: no staging */
                for (j = 0; j < C; j += 4 * DNNLK__VF_N)
                    DNNLK__SFX(dnnlk__convert_vstep4)(d + (i + j) * des, s + (i + j) * ses, ddt, sdt, 1);
                continue;
            }
            for (j = 0; j < C; j += 4 * DNNLK__VF_N)
                DNNLK__SFX(dnnlk__convert_vstep4)((char *)stage.b + j * des, s + (i + j) * ses, ddt, sdt, 0);
            DNNLK__SFX(dnnlk__stage_stream)(d + i * des, stage.b, C * des);
        }
        DNNLK__SFX(dnnlk__convert_vspan)(d + i * des, s + i * ses, k->n - i, ddt, sdt);
    }
    if (k->nt) dnnlk__vec_sfence();
}

static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__convert_vrows)(const dnnlk__convert_blk *k) {
#define DNNLK__CVT_V(D, S) \
    case (D) * 128 + (S): DNNLK__SFX(dnnlk__convert_vrows_t)(k, D, S); break;
#define DNNLK__CVT_VS(D)                                                                                   \
    DNNLK__CVT_V(D, dnnlk_f32) DNNLK__CVT_V(D, dnnlk_bf16) DNNLK__CVT_V(D, dnnlk_f16) DNNLK__CVT_V(D, dnnlk_u8) \
    DNNLK__CVT_V(D, dnnlk_s8)
    switch (k->ddt * 128 + k->sdt) {
        DNNLK__CVT_VS(dnnlk_f32)
        DNNLK__CVT_VS(dnnlk_bf16)
        DNNLK__CVT_VS(dnnlk_f16)
        DNNLK__CVT_VS(dnnlk_boolean)
    default: DNNLK__SFX(dnnlk__convert_generic)(k); break;
    }
#undef DNNLK__CVT_VS
#undef DNNLK__CVT_V
}

/* ---- same dtype: copies and transposes ---- */

/* es-byte elements, strided on both sides. The block's fields in locals: the stores through d
 * could alias *k, which would be read again for every element (3x slower on [N,3] rows). */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__convert_copy_es)(const dnnlk__convert_blk *k, int es) {
    const int64_t n = k->n, rows = k->rows, dp = k->dp, sp = k->sp, ds = k->ds, ss = k->ss;
    char *d0 = k->d;
    const char *s0 = k->s;
    int64_t r, i;
    for (r = 0; r < rows; r++) {
        char *d = d0 + r * dp;
        const char *s = s0 + r * sp;
        for (i = 0; i < n; i++) memcpy(d + i * ds, s + i * ss, (size_t)es);
    }
}

/* A transpose block: dst rows contiguous (ds == es), src contiguous across rows (sp == es). Tiles
 * of R rows by every column: for each column, R src elements from whole cache lines, written down
 * the tile's R dst rows, which the tile fills completely (R rows x n columns of dst are one
 * contiguous run); row by row instead, every src element would be a line of its own. The src
 * lines of the tile after next are requested into L2 first: with a large power-of-two column
 * stride (NCHW's H*W) the columns' lines share a few cache sets, which defeats the hardware
 * prefetchers. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__convert_transpose_es)(const dnnlk__convert_blk *k, int es) {
    const int64_t R = DNNLK__CONVERT_TILE_ROWS, n = k->n, dp = k->dp, ss = k->ss;
    int64_t r0, i, r;
    for (r0 = 0; r0 < k->rows; r0 += R) {
        int64_t t = k->rows - r0 < R ? k->rows - r0 : R;
        char *d = k->d + r0 * dp;
        const char *s = k->s + r0 * es;
        if (r0 + (DNNLK__CONVERT_TILE_AHEAD + 1) * R <= k->rows)
            for (i = 0; i < n; i++) dnnlk__vec_prefetch_l2(s + DNNLK__CONVERT_TILE_AHEAD * R * es + i * ss, (size_t)(R * es));
        if (t == R) { /* a whole tile: a constant trip count */
            for (i = 0; i < n; i++)
                for (r = 0; r < R; r++) memcpy(d + r * dp + i * es, s + i * ss + r * es, (size_t)es);
        } else {
            for (i = 0; i < n; i++)
                for (r = 0; r < t; r++) memcpy(d + r * dp + i * es, s + i * ss + r * es, (size_t)es);
        }
    }
}

/* The 32-bit transpose block on the layer's register transpose (dnnlk__v32_transpose): one block
 * of 16 columns (a 64-byte line of a dst row) after another, each down every row of the block
 * DNNLK__VT_N rows at a time. So src is read as 16 sequential runs (which the hardware prefetchers
 * follow; the longer the better: runs of 512 rows, one band of rows after another, measured 0.24
 * against 0.19-0.20 ns/element for the whole 16384), where a tile of every column at once reads a
 * line from each of n columns that a power-of-two column stride (NCHW's H*W) puts into one or two
 * cache sets; and each dst line is written whole, so with k->nt it is streamed (no read of dst's
 * lines first: measured 0.95 -> 0.41 ns/element for NCHW -> NHWC f32 [8,64,128,128] on AVX-512,
 * where tiles in registers with plain stores were no faster than element copies). Where dst's
 * rows start on 128-byte boundaries, two blocks go side by side, so each dst row gets an aligned
 * pair of lines at a time: on the Xeon host streaming one line of every 256 bytes took 0.36
 * ns/element against 0.19 for the same lines in order or as aligned pairs (the read side: 16,
 * 32 or 64 runs all at 0.15), and NCHW -> NHWC f32 [8,64,128,128] went 0.40-0.46 -> 0.34-0.41
 * (`tools/ab_inprocess.sh OLD tp`, AVX2 and SSE4.1 alike; C = 96, 128 too); a pitch off that
 * boundary (C = 48: 192 bytes) measured no gain, and 8- and 16-bit blocks in pairs none either
 * (u8 C = 128 9% slower). */
/* T dst rows (d, pitch dp) of one 64-byte line each: the 32-bit transpose of 16 src rows (s, pitch
 * sp) by T units, as 16 / T tiles. Tiles narrower than a line (T < 16: every level below AVX-512)
 * leave each dst line part-written until the next tile comes; streamed so, the write-combining
 * buffers let partial lines go (on the Xeon host AVX2 took 3.1-4.0 ns/element for NCHW -> NHWC f32
 * [8,64,128,128], slower than scalar code, against AVX-512's 0.45; bf16 1.27 against 0.26). With
 * nt those levels (DNNLK__VEC_STREAM_LINES) transpose into an L1 line buffer and stream whole lines
 * from it. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__convert_t32_lines)(char *d, int64_t dp, const char *s, int64_t sp, int nt) {
    const int64_t T = DNNLK__VT_N;
    int64_t j, u, b;
    if (DNNLK__VEC_STREAM_LINES && nt && T < 16) {
        unsigned char line_buf[16 * 64] DNNLK__ALIGN64;
        for (j = 0; j < 16; j += T) dnnlk__v32_transpose(line_buf + j * 4, 64, s + j * sp, sp, 0);
        for (u = 0; u < T; u++)
            for (b = 0; b < 64; b += DNNLK__VB_N) dnnlk__vb_stream(d + u * dp + b, dnnlk__vb_loadu(line_buf + u * 64 + b));
        return;
    }
    for (j = 0; j < 16; j += T) dnnlk__v32_transpose(d + j * 4, dp, s + j * sp, sp, nt);
}

/* Rows [r0, r1) (whole tiles) of the 32-bit transpose block: column blocks one after another,
 * each down those rows; the last columns, fewer than a tile, element by element. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__convert_t32_rows)(const dnnlk__convert_blk *k, int64_t r0, int64_t r1,
                                                                 int nt, int pairs) {
    const int64_t T = DNNLK__VT_N, n = k->n, dp = k->dp, ss = k->ss;
    char *d = k->d;
    const char *s = k->s;
    int64_t i = 0, r, j;
    if (pairs) /* two blocks side by side: 32 src runs, an aligned 128-byte pair of lines a dst row */
        for (; i + 32 <= n; i += 32)
            for (r = r0; r < r1; r += T) {
                DNNLK__SFX(dnnlk__convert_t32_lines)(d + r * dp + i * 4, dp, s + i * ss + r * 4, ss, nt);
                DNNLK__SFX(dnnlk__convert_t32_lines)(d + r * dp + (i + 16) * 4, dp, s + (i + 16) * ss + r * 4, ss, nt);
            }
    for (; i + 16 <= n; i += 16)
        for (r = r0; r < r1; r += T) DNNLK__SFX(dnnlk__convert_t32_lines)(d + r * dp + i * 4, dp, s + i * ss + r * 4, ss, nt);
    for (; i + T <= n; i += T) /* fewer than 16 columns left: tiles, plain stores */
        for (r = r0; r < r1; r += T) dnnlk__v32_transpose(d + r * dp + i * 4, dp, s + i * ss + r * 4, ss, 0);
    for (j = i; j < n; j++) /* the last columns: fewer than a tile */
        for (r = r0; r < r1; r++) memcpy(d + r * dp + j * 4, s + j * ss + r * 4, 4);
}

/* The same in bands of rows whose dst stays in L1, for a dst written through the cache: every
 * column block, then the last columns, writes into lines still there (down every row instead,
 * each pass over the columns fetched dst's lines again: f32 [8,24,128,128] 0.96 ns/element,
 * [8,40,128,128] 1.19, against 0.29 for C = 16). */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__convert_t32_bands)(const dnnlk__convert_blk *k, int64_t tv, int64_t band) {
    int64_t r0;
    for (r0 = 0; r0 < tv; r0 += band) DNNLK__SFX(dnnlk__convert_t32_rows)(k, r0, tv - r0 > band ? r0 + band : tv, 0, 0);
}

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__convert_transpose_v32)(const dnnlk__convert_blk *k) {
    const int64_t T = DNNLK__VT_N, n = k->n, dp = k->dp, ss = k->ss, t = k->rows, tv = t - t % T;
    const int nt = k->nt && (uintptr_t)k->d % 64 == 0 && dp % 64 == 0;
    const int64_t band = (int64_t)DNNLK_CONVERT_BAND_BYTES / (dp > 0 ? dp : 1) / T * T;
    int64_t r, j;
    if (nt || band >= tv) /* streamed: runs down every row read fastest (the comment above) */
        DNNLK__SFX(dnnlk__convert_t32_rows)(k, 0, tv, nt, nt && (uintptr_t)k->d % 128 == 0 && dp % 128 == 0);
    else
        DNNLK__SFX(dnnlk__convert_t32_bands)(k, tv, band < T ? T : band);
    for (r = tv; r < t; r++) /* the last rows: fewer than a tile */
        for (j = 0; j < n; j++) memcpy(k->d + r * dp + j * 4, k->s + j * ss + r * 4, 4);
    if (nt) dnnlk__vec_sfence();
}

/* rows [r0, r0 + nr) by columns [i0, i0 + ni) of a transpose block, by element tiles (the edges
 * that the register transposes below leave). */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__convert_transpose_part)(const dnnlk__convert_blk *k, int es, int64_t r0,
                                                                      int64_t nr, int64_t i0, int64_t ni) {
    dnnlk__convert_blk b = *k;
    if (nr <= 0 || ni <= 0) return;
    b.d = k->d + r0 * k->dp + i0 * es, b.s = k->s + r0 * es + i0 * k->ss, b.rows = nr, b.n = ni;
    switch (es) {
    case 1: DNNLK__SFX(dnnlk__convert_transpose_es)(&b, 1); break;
    case 2: DNNLK__SFX(dnnlk__convert_transpose_es)(&b, 2); break;
    default: DNNLK__SFX(dnnlk__convert_transpose_es)(&b, 8); break;
    }
}

/* 8- and 16-bit transposes on the 32-bit one, one block of S = 64 / es src rows (dst columns i..,
 * one 64-byte line of each dst row) by S columns (dst rows r..; S es = 64 bytes of each src row):
 * G = 4 / es src rows are interleaved (dnnlk__vb_ziplo_elem / _ziphi_elem) into rows of 32-bit
 * units in an L1 scratch, unit c of scratch row q holding column c of src rows i + G q ..
 * i + G q + G - 1, which is what dst row c wants at columns i + G q ..; the scratch is then
 * transposed by dnnlk__v32_transpose into dst, a dst line's tiles back to back (so with nt every
 * line is streamed whole). */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__convert_transpose_zip)(const dnnlk__convert_blk *k, int es, int64_t r,
                                                                     int64_t i, int nt) {
    const int64_t T = DNNLK__VT_N, V = DNNLK__VB_N, dp = k->dp, ss = k->ss;
    const int64_t G = 4 / es, S = 64 / es, Q = S / G, W = 4 * S; /* Q scratch rows of W bytes */
    union {
        dnnlk__vb v[16 * 256 / DNNLK__VB_N];
        unsigned char b[16 * 256];
    } scr;
    const char *s = k->s + r * es + i * ss;
    int64_t q, c, u;
    for (q = 0; q < Q; q++) {
        const char *sq = s + G * q * ss;
        unsigned char *o = scr.b + q * W;
        if (es == 2) {
            for (c = 0; c < S; c += V / 2) {
                dnnlk__vb a = dnnlk__vb_loadu(sq + c * 2), b = dnnlk__vb_loadu(sq + ss + c * 2);
                dnnlk__vb_storeu(o + c * 4, dnnlk__vb_ziplo_elem(a, b, 2));
                dnnlk__vb_storeu(o + c * 4 + V, dnnlk__vb_ziphi_elem(a, b, 2));
            }
        } else {
            for (c = 0; c < S; c += V) {
                dnnlk__vb a0 = dnnlk__vb_loadu(sq + c), a1 = dnnlk__vb_loadu(sq + ss + c);
                dnnlk__vb a2 = dnnlk__vb_loadu(sq + 2 * ss + c), a3 = dnnlk__vb_loadu(sq + 3 * ss + c);
                dnnlk__vb p = dnnlk__vb_ziplo_elem(a0, a1, 1), ph = dnnlk__vb_ziphi_elem(a0, a1, 1);
                dnnlk__vb w = dnnlk__vb_ziplo_elem(a2, a3, 1), wh = dnnlk__vb_ziphi_elem(a2, a3, 1);
                dnnlk__vb_storeu(o + c * 4, dnnlk__vb_ziplo_elem(p, w, 2));
                dnnlk__vb_storeu(o + c * 4 + V, dnnlk__vb_ziphi_elem(p, w, 2));
                dnnlk__vb_storeu(o + c * 4 + 2 * V, dnnlk__vb_ziplo_elem(ph, wh, 2));
                dnnlk__vb_storeu(o + c * 4 + 3 * V, dnnlk__vb_ziphi_elem(ph, wh, 2));
            }
        }
    }
    for (u = 0; u < S; u += T) /* Q == 16 scratch rows: one dst line per dst row */
        DNNLK__SFX(dnnlk__convert_t32_lines)(k->d + (r + u) * dp + i * es, dp, (const char *)scr.b + u * 4, W, nt);
}

/* The 64-bit transpose on the 32-bit one, one block of 16 src rows by 16 columns: the 32-bit
 * transpose of the src words into an L1 scratch (scratch row 2c + h: word h of column c of the 16
 * rows), then dst row c is the 4-byte interleave of scratch rows 2c and 2c + 1, written whole. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__convert_transpose_v64)(const dnnlk__convert_blk *k, int64_t r, int64_t i,
                                                                     int nt) {
    const int64_t T = DNNLK__VT_N, V = DNNLK__VB_N, S = 16, W = 4 * S, dp = k->dp, ss = k->ss; /* 2 S rows of W bytes */
    union {
        dnnlk__vb v[2 * 16 * 64 / DNNLK__VB_N];
        unsigned char b[2 * 16 * 64];
    } scr;
    const char *s = k->s + r * 8 + i * ss;
    int64_t q, c, j;
    for (q = 0; q < 2 * S; q += T)
        for (j = 0; j < S; j += T) dnnlk__v32_transpose(scr.b + q * W + j * 4, W, s + j * ss + q * 4, ss, 0);
    for (c = 0; c < S; c++) {
        char *d = k->d + (r + c) * dp + i * 8;
        for (j = 0; j < W; j += V) {
            dnnlk__vb a = dnnlk__vb_loadu(scr.b + 2 * c * W + j), b = dnnlk__vb_loadu(scr.b + (2 * c + 1) * W + j);
            if (nt) {
                dnnlk__vb_stream(d + 2 * j, dnnlk__vb_ziplo_elem(a, b, 4));
                dnnlk__vb_stream(d + 2 * j + V, dnnlk__vb_ziphi_elem(a, b, 4));
            } else {
                dnnlk__vb_storeu(d + 2 * j, dnnlk__vb_ziplo_elem(a, b, 4));
                dnnlk__vb_storeu(d + 2 * j + V, dnnlk__vb_ziphi_elem(a, b, 4));
            }
        }
    }
}

/* 8-, 16- and 64-bit transpose blocks, in S x S blocks of the two above (S = 64 / es, 16 for
 * es = 8), walked as the 32-bit transpose walks: one block column (a dst line, two for es = 8)
 * after another down every row (bands of 512 rows instead measured 0.18-0.19 against 0.14-0.15
 * ns/element for bf16, 0.54 against 0.51 for f64); the edges by element tiles. Elements one at a
 * time moved 0.10 (u8), 0.17 (bf16) and 0.24 (f64) of a copy's speed for NCHW -> NHWC
 * [8,64,128,128]. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__convert_transpose_blocks)(const dnnlk__convert_blk *k, int es) {
    const int64_t S = es == 8 ? 16 : 64 / es, ni = k->n - k->n % S, t = k->rows, tv = t - t % S;
    const int nt = k->nt && (uintptr_t)k->d % 64 == 0 && k->dp % 64 == 0;
    int64_t i, r;
    for (i = 0; i < ni; i += S)
        for (r = 0; r < tv; r += S) {
            if (es == 8) DNNLK__SFX(dnnlk__convert_transpose_v64)(k, r, i, nt);
            else DNNLK__SFX(dnnlk__convert_transpose_zip)(k, es, r, i, nt);
        }
    DNNLK__SFX(dnnlk__convert_transpose_part)(k, es, tv, t - tv, 0, ni); /* the last rows */
    DNNLK__SFX(dnnlk__convert_transpose_part)(k, es, 0, t, ni, k->n - ni); /* the last columns */
    if (nt) dnnlk__vec_sfence();
}

/* Short 32-bit rows out of a padded source into a dense dst ([N,3] f32 out of rows of 4): rows of
 * n elements at a source pitch of m > n elements, contiguous on both sides, dst rows back to back.
 * Row by row that is a 12-byte copy per row (0.98 ns per element, a quarter of copy speed);
 * instead DNNLK__VF_N rows at a time, which are m whole source vectors (the padding included) and
 * n whole dst vectors: dst vector j takes its lanes from two neighbouring source vectors by one
 * two-register permute. A group reads its last row's padding, which ends where the next row
 * starts, so only groups followed by another row of the block go this way; the rest are copied
 * element by element. Returns 0, having written nothing, where some dst vector's lanes would span
 * more than two source vectors (a wide pitch against short rows). */
static DNNLK__FORCEINLINE int DNNLK__SFX(dnnlk__convert_pack32)(const dnnlk__convert_blk *k) {
    enum { W = DNNLK__VF_N, VB = DNNLK__VF_N * 4 };
    const int64_t n = k->n, m = k->sp / 4, dp = k->dp, sp = k->sp, rows = k->rows;
    char *const d0 = k->d;
    const char *const s0 = k->s;
    int32_t idx[W];
    dnnlk__vperm2 ix[16];
    int64_t lo[16], hi[16], j, l, r, h = 0;
    int nt = k->nt;
    for (j = 0; j < n; j++) {
        int64_t o0 = j * W;
        lo[j] = ((o0 / n) * m + o0 % n) / W;
        hi[j] = lo[j] + 1 < m ? lo[j] + 1 : lo[j];
        for (l = 0; l < W; l++) {
            int64_t o = o0 + l, rel = (o / n) * m + o % n - lo[j] * W;
            if (rel >= 2 * W) return 0;
            idx[l] = (int32_t)rel;
        }
        ix[j] = dnnlk__vperm2_index(idx);
    }
    if (nt) { /* streaming stores want whole aligned vectors: the first row where a group starts on one */
        while (h < W && (uintptr_t)(d0 + h * dp) % VB != 0) h++;
        if (h == W) h = 0, nt = 0;
    }
    for (r = 0; r < h; r++)
        for (l = 0; l < n; l++) memcpy(d0 + r * dp + l * 4, s0 + r * sp + l * 4, 4);
    for (; r + W < rows; r += W) {
        const char *s = s0 + r * sp;
        char *d = d0 + r * dp;
        for (j = 0; j < n; j++) {
            dnnlk__vi v = dnnlk__vi_permute2(dnnlk__vi_loadu(s + lo[j] * VB), dnnlk__vi_loadu(s + hi[j] * VB), ix[j]);
            if (nt) dnnlk__vi_stream(d + j * VB, v);
            else dnnlk__vi_storeu(d + j * VB, v);
        }
    }
    for (; r < rows; r++)
        for (l = 0; l < n; l++) memcpy(d0 + r * dp + l * 4, s0 + r * sp + l * 4, 4);
    if (nt) dnnlk__vec_sfence();
    return 1;
}

static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__convert_copy)(const dnnlk__convert_blk *k) {
    const int64_t es = (int64_t)dnnlk_dtype_size((dnnlk_dtype)k->ddt);
    int64_t r;
    if (es == 4 && k->ds == 4 && k->ss == 4 && k->dp == 4 * k->n && k->sp > k->dp && k->sp % 4 == 0 && k->n <= 16 &&
        k->sp <= 8 * DNNLK__VF_N && k->rows > DNNLK__VF_N && DNNLK__SFX(dnnlk__convert_pack32)(k))
        return;
    if (k->ds == es && k->ss == es) {
        if (k->n * es < 64 && k->d != k->s) { /* short rows: fixed-size moves, not a memcpy call per row */
            switch (es) {
            case 1: DNNLK__SFX(dnnlk__convert_copy_es)(k, 1); break;
            case 2: DNNLK__SFX(dnnlk__convert_copy_es)(k, 2); break;
            case 4: DNNLK__SFX(dnnlk__convert_copy_es)(k, 4); break;
            default: DNNLK__SFX(dnnlk__convert_copy_es)(k, 8); break;
            }
            return;
        }
        for (r = 0; r < k->rows; r++) {
            char *d = k->d + r * k->dp;
            const char *s = k->s + r * k->sp;
            if (d != s) memcpy(d, s, (size_t)(k->n * es)); /* d == s: in place, nothing to move */
        }
        return;
    }
    if (k->ds == es && k->sp == es && k->rows > 1) {
        switch (es) {
        /* byte interleaves pay where a vector is wider than 8 bytes: at the scalar level (an
         * 8-byte dnnlk__vb) element tiles measured 0.38 / 0.58 ns per u8 / bf16 element against
         * 0.55 / 0.92 (NCHW -> NHWC [8,64,128,128]); for f64 the blocks win there too (2.98 / 3.68) */
        case 1: if (DNNLK__VB_N > 8) DNNLK__SFX(dnnlk__convert_transpose_blocks)(k, 1); else DNNLK__SFX(dnnlk__convert_transpose_es)(k, 1); break;
        case 2: if (DNNLK__VB_N > 8) DNNLK__SFX(dnnlk__convert_transpose_blocks)(k, 2); else DNNLK__SFX(dnnlk__convert_transpose_es)(k, 2); break;
        case 4: DNNLK__SFX(dnnlk__convert_transpose_v32)(k); break;
        default: DNNLK__SFX(dnnlk__convert_transpose_blocks)(k, 8); break;
        }
        return;
    }
    switch (es) {
    case 1: DNNLK__SFX(dnnlk__convert_copy_es)(k, 1); break;
    case 2: DNNLK__SFX(dnnlk__convert_copy_es)(k, 2); break;
    case 4: DNNLK__SFX(dnnlk__convert_copy_es)(k, 4); break;
    default: DNNLK__SFX(dnnlk__convert_copy_es)(k, 8); break;
    }
}

/* Entry: one block of rows. */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__convert_rows)(const dnnlk__convert_blk *k) {
    if (k->ddt == k->sdt && k->ddt != dnnlk_boolean) {
        DNNLK__SFX(dnnlk__convert_copy)(k);
    } else if (dnnlk__convert_vec_src(k->sdt) && dnnlk__convert_vec_dst(k->ddt) &&
               k->ds == (int64_t)dnnlk_dtype_size((dnnlk_dtype)k->ddt) &&
               k->ss == (int64_t)dnnlk_dtype_size((dnnlk_dtype)k->sdt)) {
        DNNLK__SFX(dnnlk__convert_vrows)(k);
    } else {
        DNNLK__SFX(dnnlk__convert_generic)(k);
    }
}
