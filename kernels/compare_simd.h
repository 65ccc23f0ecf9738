/* dnnl_kernels — compare_simd.h: the compare and logical row kernels, one body compiled at every
 * level (the scalar one included) by simd_instantiate.h (no include guard). Entries:
 * DNNLK__SFX(dnnlk__compare_rows)(blk), DNNLK__SFX(dnnlk__logical_rows)(blk). Uses convert's body
 * (instantiated before this one, convert.h): its element readers and its to-boolean vector step. */

/* ---- compare ---- */

static DNNLK__FORCEINLINE dnnlk__vmask DNNLK__SFX(dnnlk__cmp_vop)(dnnlk__vf a, dnnlk__vf b, int op) {
    switch (op) {
    case dnnlk_compare_eq: return dnnlk__vf_cmpeq(a, b);
    case dnnlk_compare_ne: return dnnlk__vf_cmpneq(a, b); /* unordered: NaN gives true */
    case dnnlk_compare_lt: return dnnlk__vf_cmplt(a, b);
    case dnnlk_compare_le: return dnnlk__vf_cmple(a, b);
    case dnnlk_compare_gt: return dnnlk__vf_cmpgt(a, b);
    default: return dnnlk__vf_cmpge(a, b);
    }
}

/* The element path: a chunk of each operand read into exact values, then compared. */
#define DNNLK__CMP_LOOP(T, OPX)                                                    \
    do {                                                                           \
        const T *x = (const T *)xa, *y = (const T *)xb;                            \
        switch (op) {                                                              \
        case dnnlk_compare_eq: for (i = 0; i < m; i++) OPX(==); break;             \
        case dnnlk_compare_ne: for (i = 0; i < m; i++) OPX(!=); break;             \
        case dnnlk_compare_lt: for (i = 0; i < m; i++) OPX(<); break;              \
        case dnnlk_compare_le: for (i = 0; i < m; i++) OPX(<=); break;             \
        case dnnlk_compare_gt: for (i = 0; i < m; i++) OPX(>); break;              \
        default: for (i = 0; i < m; i++) OPX(>=); break;                           \
        }                                                                          \
    } while (0)
#define DNNLK__CMP_ELT(OP) d[i * ds] = (unsigned char)(x[i] OP y[i])

static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__compare_elems)(unsigned char *d, int64_t ds, const char *a, int64_t as,
                                                          const char *b, int64_t bs, int64_t n, int dt, int op) {
    union {
        double f[DNNLK__CMP_CHUNK];
        int64_t i[DNNLK__CMP_CHUNK];
    } ba, bb;
    int fl = dnnlk__cvt_src_is_float((dnnlk_dtype)dt);
    int64_t j = 0, i;
    while (j < n) {
        int64_t m = n - j < DNNLK__CMP_CHUNK ? n - j : DNNLK__CMP_CHUNK;
        const void *xa = fl ? (const void *)ba.f : (const void *)ba.i, *xb = fl ? (const void *)bb.f : (const void *)bb.i;
        if (fl) {
            DNNLK__SFX(dnnlk__convert_read_f)(ba.f, a + j * as, as, m, dt);
            DNNLK__SFX(dnnlk__convert_read_f)(bb.f, b + j * bs, bs, m, dt);
            DNNLK__CMP_LOOP(double, DNNLK__CMP_ELT);
        } else {
            DNNLK__SFX(dnnlk__convert_read_i)(ba.i, a + j * as, as, m, dt);
            DNNLK__SFX(dnnlk__convert_read_i)(bb.i, b + j * bs, bs, m, dt);
            if (dt == dnnlk_u64) /* its bits: the sign bit flipped, the signed order is the unsigned one */
                for (i = 0; i < m; i++)
                    ba.i[i] = (int64_t)((uint64_t)ba.i[i] ^ 0x8000000000000000ull),
                    bb.i[i] = (int64_t)((uint64_t)bb.i[i] ^ 0x8000000000000000ull);
            DNNLK__CMP_LOOP(int64_t, DNNLK__CMP_ELT);
        }
        d += m * ds;
        j += m;
    }
}
#undef DNNLK__CMP_ELT
#undef DNNLK__CMP_LOOP

/* Vector rows: dst contiguous; ka / kb: the operand is contiguous (1) or a scalar (0) along it,
 * sa / sb its value when a scalar. */
#define DNNLK__CMP_VMASK(j)                                                                                      \
    DNNLK__SFX(dnnlk__cmp_vop)(ka ? dnnlk__vf_load_dt(a + (j) * es, dt) : sa, kb ? dnnlk__vf_load_dt(b + (j) * es, dt) : sb, op)

/* DNNLK__VF_N results as 0/1 lanes. */
static DNNLK__FORCEINLINE dnnlk__vi DNNLK__SFX(dnnlk__cmp_vmask1)(const char *a, const char *b, dnnlk__vf sa, dnnlk__vf sb,
                                                              int dt, int op, int ka, int kb) {
    const int64_t es = (int64_t)dnnlk_dtype_size((dnnlk_dtype)dt);
    return dnnlk__vf_as_vi(dnnlk__vf_blend(DNNLK__CMP_VMASK(0), dnnlk__vi_as_vf(dnnlk__vi_set1(1)), dnnlk__vf_zero()));
}

/* 4 DNNLK__VF_N results as one vector of bytes: one store where there were four; the compares'
 * masks packed straight into bytes (dnnlk__vmask_pack4_u8: on AVX-512 4 operations where blending
 * each to 0/1 lanes and narrowing those took 15). */
static DNNLK__FORCEINLINE dnnlk__vi DNNLK__SFX(dnnlk__cmp_vstep4)(const char *a, const char *b, dnnlk__vf sa, dnnlk__vf sb,
                                                              int dt, int op, int ka, int kb) {
    const int64_t es = (int64_t)dnnlk_dtype_size((dnnlk_dtype)dt), W = DNNLK__VF_N;
    return dnnlk__vmask_pack4_u8(DNNLK__CMP_VMASK(0), DNNLK__CMP_VMASK(W), DNNLK__CMP_VMASK(2 * W), DNNLK__CMP_VMASK(3 * W));
}

/* n results of one row from element 0 of a and b (a scalar operand: its only element). */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__cmp_vspan)(unsigned char *d, const char *a, const char *b, int64_t n,
                                                         dnnlk__vf sa, dnnlk__vf sb, int dt, int op, int ka, int kb) {
    const int64_t es = (int64_t)dnnlk_dtype_size((dnnlk_dtype)dt), W = DNNLK__VF_N;
    int64_t i;
    for (i = 0; i + 4 * W <= n; i += 4 * W)
        dnnlk__vi_storeu(d + i, DNNLK__SFX(dnnlk__cmp_vstep4)(a + (ka ? i * es : 0), b + (kb ? i * es : 0), sa, sb, dt, op, ka, kb));
    for (; i + W <= n; i += W) {
        const char *ai = a + (ka ? i * es : 0), *bi = b + (kb ? i * es : 0);
        dnnlk__vi_store_u8(d + i, DNNLK__SFX(dnnlk__cmp_vmask1)(ai, bi, sa, sb, dt, op, ka, kb));
    }
    if (i < n)
        DNNLK__SFX(dnnlk__compare_elems)(d + i, 1, a + (ka ? i * es : 0), ka ? es : 0, b + (kb ? i * es : 0),
                                         kb ? es : 0, n - i, dt, op);
}

/* Whole rows; with k->nt the vector-aligned middle of each row is streamed out (convert_simd.h's
 * dnnlk__convert_vrows_t says why), each dnnlk__cmp_vstep4 result straight from its register: it
 * is a whole vector, so the L1 staging that convert's narrower results need would only add a
 * store and a load per vector. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__compare_vrows_t)(const dnnlk__cmp_blk *k, int dt, int op, int ka,
                                                               int kb) {
    const int64_t es = (int64_t)dnnlk_dtype_size((dnnlk_dtype)dt), W = DNNLK__VF_N, n = k->n;
    int64_t r, i, h;
    for (r = 0; r < k->rows; r++) {
        unsigned char *d = k->d + r * k->dp;
        const char *a = k->a + r * k->ap, *b = k->b + r * k->bp;
        dnnlk__vf sa = dnnlk__vf_zero(), sb = dnnlk__vf_zero();
        if (!ka) sa = dnnlk__vf_set1((float)(dnnlk__cvt_src_is_float((dnnlk_dtype)dt) ? dnnlk__cvt_read_f(a, (dnnlk_dtype)dt)
                                                                                  : (double)dnnlk__cvt_read_i(a, (dnnlk_dtype)dt)));
        if (!kb) sb = dnnlk__vf_set1((float)(dnnlk__cvt_src_is_float((dnnlk_dtype)dt) ? dnnlk__cvt_read_f(b, (dnnlk_dtype)dt)
                                                                                  : (double)dnnlk__cvt_read_i(b, (dnnlk_dtype)dt)));
        if (!k->nt) {
            DNNLK__SFX(dnnlk__cmp_vspan)(d, a, b, n, sa, sb, dt, op, ka, kb);
            continue;
        }
        h = (int64_t)((DNNLK__VB_N - (uintptr_t)d % DNNLK__VB_N) % DNNLK__VB_N);
        h = h < n ? h : n;
        DNNLK__SFX(dnnlk__cmp_vspan)(d, a, b, h, sa, sb, dt, op, ka, kb);
        for (i = h; i + 4 * W <= n; i += 4 * W)
            dnnlk__vi_stream(d + i, DNNLK__SFX(dnnlk__cmp_vstep4)(a + (ka ? i * es : 0), b + (kb ? i * es : 0), sa, sb, dt,
                                                                  op, ka, kb));
        DNNLK__SFX(dnnlk__cmp_vspan)(d + i, a + (ka ? i * es : 0), b + (kb ? i * es : 0), n - i, sa, sb, dt, op, ka, kb);
    }
    if (k->nt) dnnlk__vec_sfence();
}

static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__compare_vrows)(const dnnlk__cmp_blk *k, int ka, int kb) {
#define DNNLK__CMP_V(DT, OP) \
    case (DT) * 8 + (OP): DNNLK__SFX(dnnlk__compare_vrows_t)(k, DT, OP, ka, kb); break;
#define DNNLK__CMP_VS(DT)                                                                                 \
    DNNLK__CMP_V(DT, dnnlk_compare_eq) DNNLK__CMP_V(DT, dnnlk_compare_ne) DNNLK__CMP_V(DT, dnnlk_compare_lt) \
    DNNLK__CMP_V(DT, dnnlk_compare_le) DNNLK__CMP_V(DT, dnnlk_compare_gt) DNNLK__CMP_V(DT, dnnlk_compare_ge)
    switch (k->adt * 8 + k->op) {
        DNNLK__CMP_VS(dnnlk_f32)
        DNNLK__CMP_VS(dnnlk_bf16)
        DNNLK__CMP_VS(dnnlk_f16)
        DNNLK__CMP_VS(dnnlk_u8)
        DNNLK__CMP_VS(dnnlk_s8)
    default: break;
    }
#undef DNNLK__CMP_VS
#undef DNNLK__CMP_V
}

/* s64 / u64 rows on 64-bit lanes: eight compares of DNNLK__VQ_N elements packed into one register of
 * 0/1 bytes, one store (attention_mask == 0 was an element loop packing 8 results a store: 385 ns
 * of its 520 a call of [8,512] on AVX-512). Every op is eq or lt, maybe with the operands swapped
 * and the answer negated; u64 compares as s64 with both sign bits flipped. */
#define DNNLK__CMP_QSTEP(j)                                                                                   \
    (x = ka ? dnnlk__vq_loadu(a + (j) * W * 8) : sa, y = kb ? dnnlk__vq_loadu(b + (j) * W * 8) : sb,          \
     x = uns && ka ? dnnlk__vq_xor(x, flip) : x, y = uns && kb ? dnnlk__vq_xor(y, flip) : y,                    \
     op == dnnlk_compare_eq || op == dnnlk_compare_ne   ? dnnlk__vq_cmpeq64(x, y)                               \
     : op == dnnlk_compare_lt || op == dnnlk_compare_ge ? dnnlk__vq_cmplt64(x, y)                               \
                                                        : dnnlk__vq_cmplt64(y, x))
static DNNLK__FORCEINLINE dnnlk__vq DNNLK__SFX(dnnlk__cmp_q_step8)(const char *a, const char *b, dnnlk__vq sa, dnnlk__vq sb,
                                                               dnnlk__vq flip, int op, int ka, int kb, int uns) {
    const int64_t W = DNNLK__VQ_N;
    dnnlk__vq x, y, r;
    dnnlk__vqmask m0, m1, m2, m3, m4, m5, m6, m7;
    m0 = DNNLK__CMP_QSTEP(0), m1 = DNNLK__CMP_QSTEP(1), m2 = DNNLK__CMP_QSTEP(2), m3 = DNNLK__CMP_QSTEP(3);
    m4 = DNNLK__CMP_QSTEP(4), m5 = DNNLK__CMP_QSTEP(5), m6 = DNNLK__CMP_QSTEP(6), m7 = DNNLK__CMP_QSTEP(7);
    r = dnnlk__vqmask_pack8_u8(m0, m1, m2, m3, m4, m5, m6, m7);
    if (op == dnnlk_compare_ne || op == dnnlk_compare_ge || op == dnnlk_compare_le)
        r = dnnlk__vq_xor(r, dnnlk__vq_set1_32(0x01010101u));
    return r;
}
#undef DNNLK__CMP_QSTEP

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__compare_q_row)(unsigned char *d, const char *a, const char *b, int64_t n,
                                                             int op, int ka, int kb, int uns) {
    const int64_t S = 8 * DNNLK__VQ_N; /* elements a step */
    const uint64_t sign = 0x8000000000000000ull, f = uns ? sign : 0; /* u64 ordered as s64 with the sign bits flipped */
    const dnnlk__vq flip = dnnlk__vq_set1_64(sign);
    uint64_t va = 0, vb = 0;
    dnnlk__vq sa, sb;
    int64_t i;
    memcpy(&va, a, 8), memcpy(&vb, b, 8); /* the scalars (an element of a row otherwise: unused) */
    sa = dnnlk__vq_set1_64(va ^ f), sb = dnnlk__vq_set1_64(vb ^ f);
    for (i = 0; i + S <= n; i += S)
        dnnlk__vq_storeu(d + i, DNNLK__SFX(dnnlk__cmp_q_step8)(a + (ka ? i * 8 : 0), b + (kb ? i * 8 : 0), sa, sb, flip, op, ka,
                                                             kb, uns));
    if (i < n)
        DNNLK__SFX(dnnlk__compare_elems)(d + i, 1, a + (ka ? i * 8 : 0), ka ? 8 : 0, b + (kb ? i * 8 : 0), kb ? 8 : 0, n - i,
                                         uns ? dnnlk_u64 : dnnlk_s64, op);
}

/* One instance per (operand kinds, signedness, op): every test in the step folds away. */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__compare_qrows)(const dnnlk__cmp_blk *k, int ka, int kb) {
    const int uns = k->adt == dnnlk_u64;
    int64_t r;
    for (r = 0; r < k->rows; r++) {
        unsigned char *d = k->d + r * k->dp;
        const char *a = k->a + r * k->ap, *b = k->b + r * k->bp;
#define DNNLK__CMP_Q(KA, KB, U, OP) \
    case (((KA) * 2 + (KB)) * 2 + (U)) * 8 + (OP): DNNLK__SFX(dnnlk__compare_q_row)(d, a, b, k->n, OP, KA, KB, U); break;
#define DNNLK__CMP_QOPS(KA, KB, U)                                                                             \
    DNNLK__CMP_Q(KA, KB, U, dnnlk_compare_eq) DNNLK__CMP_Q(KA, KB, U, dnnlk_compare_ne)                         \
    DNNLK__CMP_Q(KA, KB, U, dnnlk_compare_lt) DNNLK__CMP_Q(KA, KB, U, dnnlk_compare_le)                         \
    DNNLK__CMP_Q(KA, KB, U, dnnlk_compare_gt) DNNLK__CMP_Q(KA, KB, U, dnnlk_compare_ge)
        switch (((ka * 2 + kb) * 2 + uns) * 8 + k->op) {
            DNNLK__CMP_QOPS(1, 0, 0) DNNLK__CMP_QOPS(1, 0, 1) DNNLK__CMP_QOPS(0, 1, 0) DNNLK__CMP_QOPS(0, 1, 1)
            DNNLK__CMP_QOPS(1, 1, 0) DNNLK__CMP_QOPS(1, 1, 1)
        default: /* two scalars */
            DNNLK__SFX(dnnlk__compare_q_row)(d, a, b, k->n, k->op, 0, 0, uns);
            break;
        }
#undef DNNLK__CMP_QOPS
#undef DNNLK__CMP_Q
    }
}

/* Typed rows for the other dtypes the f32 lanes cannot hold (s32, f64): dst contiguous, each
 * operand contiguous or a scalar along the row; plain loops the compiler may vectorize. */
#define DNNLK__CMP_TLOOP(T, OP)                                                         \
    do {                                                                                \
        if (ka && kb) for (i = 0; i < n; i++) d[i] = (unsigned char)(a[i] OP b[i]);     \
        else if (ka) {                                                                  \
            /* against a scalar (a mask == 0): 8 results packed into one store */          \
            const T y = b[0];                                                           \
            for (i = 0; i + 8 <= n; i += 8) {                                           \
                uint64_t w = 0;                                                         \
                int j;                                                                  \
                for (j = 0; j < 8; j++) w |= (uint64_t)(a[i + j] OP y) << DNNLK__CMP_BYTE_SHIFT(j); \
                memcpy(d + i, &w, 8);                                                   \
            }                                                                           \
            for (; i < n; i++) d[i] = (unsigned char)(a[i] OP y);                       \
        } \
        else if (kb) { const T x = a[0]; for (i = 0; i < n; i++) d[i] = (unsigned char)(x OP b[i]); } \
        else memset(d, (unsigned char)(a[0] OP b[0]), (size_t)n);                       \
    } while (0)
#define DNNLK__CMP_TYPED(T)                                                                                         \
    static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__compare_typed_##T)(unsigned char *d, const T *a, const T *b,      \
                                                                     int64_t n, int op, int ka, int kb) {            \
        int64_t i;                                                                                                  \
        switch (op) {                                                                                               \
        case dnnlk_compare_eq: DNNLK__CMP_TLOOP(T, ==); break;                                                       \
        case dnnlk_compare_ne: DNNLK__CMP_TLOOP(T, !=); break;                                                       \
        case dnnlk_compare_lt: DNNLK__CMP_TLOOP(T, <); break;                                                        \
        case dnnlk_compare_le: DNNLK__CMP_TLOOP(T, <=); break;                                                       \
        case dnnlk_compare_gt: DNNLK__CMP_TLOOP(T, >); break;                                                        \
        default: DNNLK__CMP_TLOOP(T, >=); break;                                                                     \
        }                                                                                                           \
    }
DNNLK__CMP_TYPED(int32_t)
DNNLK__CMP_TYPED(double)
#undef DNNLK__CMP_TYPED
#undef DNNLK__CMP_TLOOP

static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__compare_trows)(const dnnlk__cmp_blk *k, int ka, int kb) {
    int64_t r;
    for (r = 0; r < k->rows; r++) {
        unsigned char *d = k->d + r * k->dp;
        const char *a = k->a + r * k->ap, *b = k->b + r * k->bp;
        switch (k->adt) {
        case dnnlk_s32: DNNLK__SFX(dnnlk__compare_typed_int32_t)(d, (const int32_t *)(const void *)a, (const int32_t *)(const void *)b, k->n, k->op, ka, kb); break;
        default: DNNLK__SFX(dnnlk__compare_typed_double)(d, (const double *)(const void *)a, (const double *)(const void *)b, k->n, k->op, ka, kb); break;
        }
    }
}

/* Entry: one block of rows. */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__compare_rows)(const dnnlk__cmp_blk *k) {
    const int64_t es = (int64_t)dnnlk_dtype_size((dnnlk_dtype)k->adt);
    int ka = k->as == es ? 1 : k->as == 0 ? 0 : -1;
    int kb = k->bs == es ? 1 : k->bs == 0 ? 0 : -1;
    int64_t r;
    if (k->ds == 1 && ka >= 0 && kb >= 0 && dnnlk__cmp_vec_dtype(k->adt)) {
        DNNLK__SFX(dnnlk__compare_vrows)(k, ka, kb);
        return;
    }
    if (k->ds == 1 && ka >= 0 && kb >= 0 && (k->adt == dnnlk_s64 || k->adt == dnnlk_u64)) {
        DNNLK__SFX(dnnlk__compare_qrows)(k, ka, kb);
        return;
    }
    /* typed pointers need natural alignment; an odd-aligned tensor takes the element path */
    if (k->ds == 1 && ka >= 0 && kb >= 0 && (k->adt == dnnlk_s32 || k->adt == dnnlk_f64) &&
        ((uintptr_t)k->a | (uintptr_t)k->b | (uintptr_t)k->ap | (uintptr_t)k->bp) % (uintptr_t)es == 0) {
        DNNLK__SFX(dnnlk__compare_trows)(k, ka, kb);
        return;
    }
    for (r = 0; r < k->rows; r++)
        DNNLK__SFX(dnnlk__compare_elems)(k->d + r * k->dp, k->ds, k->a + r * k->ap, k->as, k->b + r * k->bp, k->bs,
                                         k->n, k->adt, k->op);
}

#undef DNNLK__CMP_VMASK

/* ---- logical ---- */

/* The truth bytes (nonzero = true, not necessarily 1) of m elements at p: p itself where it holds
 * contiguous bytes already, else buf filled (vector path of convert for its pairs). */
static DNNLK__FORCEINLINE const unsigned char *DNNLK__SFX(dnnlk__logical_truth)(unsigned char *buf, const char *p,
                                                                             int64_t s, int dt, int64_t m) {
    const int64_t es = (int64_t)dnnlk_dtype_size((dnnlk_dtype)dt);
    if (es == 1 && s == 1 && !dnnlk__cvt_src_is_float((dnnlk_dtype)dt)) return (const unsigned char *)p; /* not fp8's -0 */
    if (s == 0) {
        unsigned char t;
        DNNLK__SFX(dnnlk__convert_elems)((char *)&t, 1, p, 0, 1, dnnlk_boolean, dt);
        memset(buf, t, (size_t)m);
    } else if (s == es && dnnlk__convert_vec_src(dt)) {
        dnnlk__convert_blk c;
        c.d = (char *)buf, c.s = p, c.n = m, c.rows = 1, c.dp = c.sp = 0, c.ds = 1, c.ss = es;
        c.ddt = dnnlk_boolean, c.sdt = dt, c.nt = 0;
        DNNLK__SFX(dnnlk__convert_vrows)(&c);
    } else {
        DNNLK__SFX(dnnlk__convert_elems)((char *)buf, 1, p, s, m, dnnlk_boolean, dt);
    }
    return buf;
}

/* m bytes of the result from truth bytes ta, tb, as byte vectors: each operand's truth as a lane
 * selection, the op as blends of the constants 0 and 1 (no byte logic needed from the layer).
 * nt: streaming stores (d aligned to the vector, m a multiple of it). */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__logical_combine)(unsigned char *d, const unsigned char *ta,
                                                               const unsigned char *tb, int64_t m, int op, int nt) {
    static const unsigned char zero_byte = 0, one_byte = 1;
    const dnnlk__vb zero = dnnlk__vb_set1_elem(&zero_byte, 1), one = dnnlk__vb_set1_elem(&one_byte, 1);
    int64_t i = 0;
    for (; i + DNNLK__VB_N <= m; i += DNNLK__VB_N) {
        dnnlk__vmask_vb ca = dnnlk__vb_cond_elem(ta + i, 1), cb = dnnlk__vb_cond_elem(tb + i, 1);
        dnnlk__vb r;
        switch (op) {
        case dnnlk_logical_and: r = dnnlk__vb_blend_elem(ca, dnnlk__vb_blend_elem(cb, one, zero, 1), zero, 1); break;
        case dnnlk_logical_or: r = dnnlk__vb_blend_elem(ca, one, dnnlk__vb_blend_elem(cb, one, zero, 1), 1); break;
        case dnnlk_logical_xor:
            r = dnnlk__vb_blend_elem(ca, dnnlk__vb_blend_elem(cb, zero, one, 1), dnnlk__vb_blend_elem(cb, one, zero, 1), 1);
            break;
        default: r = dnnlk__vb_blend_elem(ca, zero, one, 1); break; /* not */
        }
        if (nt) dnnlk__vb_stream(d + i, r);
        else dnnlk__vb_storeu(d + i, r);
    }
    for (; i < m; i++) {
        int x = ta[i] != 0, y = tb[i] != 0;
        d[i] = (unsigned char)(op == dnnlk_logical_and ? x & y : op == dnnlk_logical_or ? x | y
                               : op == dnnlk_logical_xor ? x ^ y : !x);
    }
}

/* One row, a chunk at a time. With nt (and a contiguous dst), a first chunk up to dst's next
 * vector boundary, then every whole chunk is combined straight into streaming stores (convert's
 * dnnlk__convert_vrows_t says why). The combine's results are whole vectors, so they need no L1
 * staging buffer: boolean and [4096,4096] on AVX-512 went from 1.02x to 0.97x the thread CPU time
 * of a bare loop of two loads, two tests and one streaming store per 64 bytes. */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__logical_row)(unsigned char *d, int64_t ds, const char *a, int64_t as,
                                                        const char *b, int64_t bs, int64_t n, int adt, int bdt, int op,
                                                        int nt) {
    unsigned char bufa[DNNLK__CMP_CHUNK], bufb[DNNLK__CMP_CHUNK], bufd[DNNLK__CMP_CHUNK];
    int64_t j = 0, i, head = (int64_t)((DNNLK__VB_N - (uintptr_t)d % DNNLK__VB_N) % DNNLK__VB_N);
    int streamed = 0;
    nt = nt && ds == 1;
    while (j < n) {
        int64_t m = n - j < DNNLK__CMP_CHUNK ? n - j : DNNLK__CMP_CHUNK;
        const unsigned char *ta, *tb;
        unsigned char *out;
        int stream;
        if (nt && j == 0 && head > 0 && m > head) m = head;
        stream = nt && m == DNNLK__CMP_CHUNK && (uintptr_t)(d + j) % DNNLK__VB_N == 0;
        streamed |= stream;
        out = ds == 1 ? d + j : bufd;
        ta = DNNLK__SFX(dnnlk__logical_truth)(bufa, a + j * as, as, adt, m);
        tb = op == DNNLK__CMP_LOGICAL_NOT ? ta : DNNLK__SFX(dnnlk__logical_truth)(bufb, b + j * bs, bs, bdt, m);
        switch (op) { /* a constant op per loop, so the combine's switch folds */
        case dnnlk_logical_and: DNNLK__SFX(dnnlk__logical_combine)(out, ta, tb, m, dnnlk_logical_and, stream); break;
        case dnnlk_logical_or: DNNLK__SFX(dnnlk__logical_combine)(out, ta, tb, m, dnnlk_logical_or, stream); break;
        case dnnlk_logical_xor: DNNLK__SFX(dnnlk__logical_combine)(out, ta, tb, m, dnnlk_logical_xor, stream); break;
        default: DNNLK__SFX(dnnlk__logical_combine)(out, ta, tb, m, DNNLK__CMP_LOGICAL_NOT, stream); break;
        }
        if (ds != 1)
            for (i = 0; i < m; i++) d[(j + i) * ds] = bufd[i];
        j += m;
    }
    if (streamed) dnnlk__vec_sfence();
}

/* Entry: one block of rows. */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__logical_rows)(const dnnlk__cmp_blk *k) {
    int64_t r;
    for (r = 0; r < k->rows; r++)
        DNNLK__SFX(dnnlk__logical_row)(k->d + r * k->dp, k->ds, k->a + r * k->ap, k->as, k->b + r * k->bp, k->bs, k->n,
                                       k->adt, k->bdt, k->op, k->nt);
}
