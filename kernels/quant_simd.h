/* dnnl_kernels — quant_simd.h: the body of quant.h, compiled once per level (the scalar one
 * included) by simd_instantiate.h, on the vector layer (no include guard). Each lane does exactly
 * what dnnlk__quant_q_one / dnnlk__quant_dq_one do (one IEEE division or multiplication,
 * explicit round-to-even, exact integer steps), so every level gives the same bytes; row tails use
 * those functions.
 *
 * A row whose operands are contiguous (scale and zero point: contiguous or one value) goes
 * straight to the vector core; any other row is staged through small stack buffers in chunks. */

/* ---- quantize: the vector core over contiguous x and y ---- */

static DNNLK__FORCEINLINE dnnlk__vi DNNLK__SFX(dnnlk__quant_vec)(const char *x, dnnlk_dtype xt, dnnlk__vf s,
                                                              dnnlk__vf z, dnnlk__vf lo, dnnlk__vf hi) {
    dnnlk__vf v = dnnlk__vf_load_dt(x, xt);
    v = dnnlk__vf_blend(dnnlk__vf_cmpunord(v, v), dnnlk__vf_zero(), v); /* NaN -> 0 -> zero point */
    v = dnnlk__vf_add(dnnlk__vf_round_even(dnnlk__vf_div(v, s)), z);
    v = dnnlk__vf_min(dnnlk__vf_max(v, lo), hi);
    return dnnlk__vf_to_vi_trunc(v);
}

/* The reciprocal fast path for one scale s (r = fl(1/s), both normal: see dnnlk__quant_recip_ok).
 *
 * Why it is exact. Let q = x / s (real), u = 2^-24, and y = fl(x * r). With r = (1/s)(1 + d1) and
 * y = x r (1 + d2), |d1|, |d2| <= u (r normal; x*r normal whenever |y| >= 2^-126, and below that
 * both y and fl(x/s) are < 0.5 and round to 0 alike), so y = q (1 + d1)(1 + d2); the division
 * gives fl(x / s) = q (1 + d3). Hence |fl(x/s) - y| <= |q| (3u + u^2) <= |y| (3u + u^2) / (1 - u)^2
 * < 3.0001 u |y|. The result is saturate(rne(v) + z) with v = fl(x/s), |z| <= 255, range within
 * [-128, 255]:
 *  - |y| < 384: |fl(x/s) - y| < 3.0001 u 384 < 6.9e-5. When the distance from y to the nearest
 *    half-integer exceeds E = 2^-13 (1.2e-4), fl(x/s) lies in the same open interval between
 *    half-integers as y, so rne(fl(x/s)) == rne(y): exact. The test is |y - rne(y)| <= 0.5 - E
 *    (that difference is exact for |y| < 2^23); vectors with a lane failing it (a rounding
 *    boundary within ~5 ulp, e.g. data on a grid that makes x/s a near-tie) redo the division.
 *  - y >= 384 (inf, or x * r overflowing where x / s does not, included): fl(x/s) > 383, and
 *    rne(y) + z and rne(fl(x/s)) + z are both > 255: both saturate to hi; y <= -384 likewise to lo,
 *    whatever the test says. So y may be clamped (or converted with saturation) freely there.
 * NaN: y stays NaN through the clamps (written min(C, y): x86 min/max return the second operand
 * when one is NaN); its |y - rne(y)| is NaN, whose bit pattern compares above every finite one,
 * so NaN lanes take the division path, which maps them to the zero point.
 * Denormal x under DAZ is 0 for the multiplication and the division alike; FTZ only touches
 * |y| < 2^-126, which rounds to 0 either way.
 * Returns rne(y) as int32 where |y| < 384; beyond, a value of the same sign and magnitude >= 384
 * (the 16-bit saturating steps of dnnlk__vi_pack4_sat_i8 then saturate it like the division). */
static DNNLK__FORCEINLINE dnnlk__vi DNNLK__SFX(dnnlk__quant_fast)(const char *x, dnnlk_dtype xt, dnnlk__vf r,
                                                               unsigned *bad) {
    const dnnlk__vi absm = dnnlk__vi_set1(0x7fffffff), thr = dnnlk__vi_set1(0x3efff000); /* 0.5 - 2^-13 */
    const dnnlk__vf big = dnnlk__vf_set1(1073741824.0f);                                 /* 2^30 */
    dnnlk__vf y = dnnlk__vf_mul(dnnlk__vf_load_dt(x, xt), r);
    dnnlk__vi f;
    /* +inf and y >= 2^31 would convert to INT_MIN; -inf and y < -2^31 convert to INT_MIN, which is
     * right as it is. Where y - rne(y) of -inf is NaN (DNNLK__VEC_REDUCE 0) -inf is clamped too, lest
     * it send the vector to the division. */
    y = dnnlk__vf_min(big, DNNLK__VEC_REDUCE ? y : dnnlk__vf_max(dnnlk__vf_set1(-1073741824.0f), y));
    f = dnnlk__vi_and(dnnlk__vf_as_vi(dnnlk__vf_sub_round_even(y)), absm);
    *bad |= dnnlk__vmask_bits(dnnlk__vi_cmpgt(f, thr));
    return dnnlk__vf_to_vi_round_even(y);
}

/* What dnnlk__quant_fast returns, by the division: rne(clamp(x / s, L, H)) (NaN x counts as 0). */
static DNNLK__FORCEINLINE dnnlk__vi DNNLK__SFX(dnnlk__quant_div)(const char *x, dnnlk_dtype xt, dnnlk__vf s,
                                                              dnnlk__vf L, dnnlk__vf H) {
    dnnlk__vf v = dnnlk__vf_load_dt(x, xt);
    v = dnnlk__vf_blend(dnnlk__vf_cmpunord(v, v), dnnlk__vf_zero(), v);
    v = dnnlk__vf_min(dnnlk__vf_max(dnnlk__vf_div(v, s), L), H);
    return dnnlk__vf_to_vi_trunc(dnnlk__vf_round_even(v));
}


/* y[i] for i in [0, n): x of dtype xt; scale sv[i] (svec) or s1; zero point zv[i] (zvec) or z1. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__quant_core)(uint8_t *y, const char *x, dnnlk_dtype xt, const float *sv,
                                                          const uint8_t *zv, float s1, float z1, int sgn,
                                                          int svec, int zvec, int64_t n, int stream) {
    const int64_t N = DNNLK__VF_N;
    const int64_t xs = (int64_t)dnnlk_dtype_size(xt);
    float lo1 = sgn ? -128.0f : 0.0f, hi1 = sgn ? 127.0f : 255.0f;
    dnnlk__vf lo = dnnlk__vf_set1(lo1), hi = dnnlk__vf_set1(hi1);
    dnnlk__vf s = dnnlk__vf_set1(s1), z = dnnlk__vf_set1(z1);
    int64_t i = 0;
    /* streaming rows: the 4N elements of the iteration DNNLK_QUANT_PF_BYTES ahead */
#define DNNLK__QZ_PF()                                                                                   \
    do {                                                                                                 \
        if (stream && DNNLK_QUANT_PF_BYTES > 0)                                                          \
            dnnlk__vec_prefetch_l2(x + i * xs + DNNLK_QUANT_PF_BYTES, (size_t)(4 * N * xs));           \
    } while (0)
/* 4N output bytes at y + i (streamed: y + i is aligned to them) */
#define DNNLK__QZ_STORE4(v)                          \
    do {                                             \
        if (stream) dnnlk__vi_stream(y + i, (v));    \
        else dnnlk__vi_storeu(y + i, (v));           \
    } while (0)
#define DNNLK__QZ_ARGS(k)                                                                        \
    (svec ? dnnlk__vf_loadu(sv + i + (k)*N) : s),                                               \
        (zvec ? dnnlk__vi_to_vf(dnnlk__vi_load_i8(zv + i + (k)*N, sgn)) : z), lo, hi
    if (stream) { /* align the stores: whole 4N-byte blocks */
        int64_t head = (int64_t)((4 * N - ((uintptr_t)y & (uintptr_t)(4 * N - 1))) & (uintptr_t)(4 * N - 1));
        if (head > n) head = n;
        for (; i < head; i++)
            y[i] = (uint8_t)dnnlk__quant_q_one(dnnlk__load_as_f32(x + i * xs, xt), svec ? sv[i] : s1,
                                                zvec ? (float)(sgn ? (int8_t)zv[i] : zv[i]) : z1, lo1, hi1);
    }
    /* Where a division costs about what the multiplication and its exactness test cost (one lane:
     * DNNLK__VEC_CHEAP_DIV), every row divides. */
    if (!DNNLK__VEC_CHEAP_DIV && !svec && !zvec && dnnlk__quant_recip_ok(s1)) {
        const dnnlk__vf r = dnnlk__vf_set1(1.0f / s1);
        const dnnlk__vf L = dnnlk__vf_set1(lo1 - z1), H = dnnlk__vf_set1(hi1 - z1); /* for the division */
        for (; i + 4 * N <= n; i += 4 * N) {
            unsigned ba = 0, bb = 0, bc = 0, bd = 0;
            dnnlk__vi a;
            DNNLK__QZ_PF();
            a = DNNLK__SFX(dnnlk__quant_fast)(x + i * xs, xt, r, &ba);
            dnnlk__vi b = DNNLK__SFX(dnnlk__quant_fast)(x + (i + N) * xs, xt, r, &bb);
            dnnlk__vi c = DNNLK__SFX(dnnlk__quant_fast)(x + (i + 2 * N) * xs, xt, r, &bc);
            dnnlk__vi d = DNNLK__SFX(dnnlk__quant_fast)(x + (i + 3 * N) * xs, xt, r, &bd);
            if (ba | bb | bc | bd) { /* rare: a rounding boundary within 2^-13 of some x * r, or a NaN */
                if (ba) a = DNNLK__SFX(dnnlk__quant_div)(x + i * xs, xt, s, L, H);
                if (bb) b = DNNLK__SFX(dnnlk__quant_div)(x + (i + N) * xs, xt, s, L, H);
                if (bc) c = DNNLK__SFX(dnnlk__quant_div)(x + (i + 2 * N) * xs, xt, s, L, H);
                if (bd) d = DNNLK__SFX(dnnlk__quant_div)(x + (i + 3 * N) * xs, xt, s, L, H);
            }
            DNNLK__QZ_STORE4(dnnlk__vi_pack4_sat_i8(a, b, c, d, (int16_t)z1, sgn));
        }
    }
    for (; i + 4 * N <= n; i += 4 * N) {
        dnnlk__vi a;
        DNNLK__QZ_PF();
        a = DNNLK__SFX(dnnlk__quant_vec)(x + i * xs, xt, DNNLK__QZ_ARGS(0));
        dnnlk__vi b = DNNLK__SFX(dnnlk__quant_vec)(x + (i + N) * xs, xt, DNNLK__QZ_ARGS(1));
        dnnlk__vi c = DNNLK__SFX(dnnlk__quant_vec)(x + (i + 2 * N) * xs, xt, DNNLK__QZ_ARGS(2));
        dnnlk__vi d = DNNLK__SFX(dnnlk__quant_vec)(x + (i + 3 * N) * xs, xt, DNNLK__QZ_ARGS(3));
        DNNLK__QZ_STORE4(dnnlk__vi_pack4_u8(a, b, c, d));
    }
    for (; i + N <= n; i += N)
        dnnlk__vi_store_u8(y + i, DNNLK__SFX(dnnlk__quant_vec)(x + i * xs, xt, DNNLK__QZ_ARGS(0)));
#undef DNNLK__QZ_ARGS
#undef DNNLK__QZ_STORE4
#undef DNNLK__QZ_PF
    for (; i < n; i++)
        y[i] = (uint8_t)dnnlk__quant_q_one(dnnlk__load_as_f32(x + i * xs, xt), svec ? sv[i] : s1,
                                            zvec ? (float)(sgn ? (int8_t)zv[i] : zv[i]) : z1, lo1, hi1);
}

/* ---- dequantize: the vector core over contiguous x and y ---- */

static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__quant_dq_vec)(const uint8_t *x, int sgn, dnnlk__vf s, dnnlk__vi z) {
    dnnlk__vi q = dnnlk__vi_load_i8(x, sgn);
    return dnnlk__vf_mul(dnnlk__vi_to_vf(dnnlk__vi_sub(q, z)), s);
}

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__quant_dq_core)(char *y, dnnlk_dtype yt, const uint8_t *x, const float *sv,
                                                          const uint8_t *zv, float s1, int32_t z1, int sgn,
                                                          int svec, int zvec, int64_t n, int stream) {
    const int64_t N = DNNLK__VF_N;
    const int64_t ys = (int64_t)dnnlk_dtype_size(yt);
    dnnlk__vf s = dnnlk__vf_set1(s1);
    dnnlk__vi z = dnnlk__vi_set1(z1);
    int64_t i = 0;
#define DNNLK__DQ_ONE(i)                                                                               \
    dnnlk__store_from_f32(y + (i)*ys, yt,                                                            \
                          dnnlk__quant_dq_one(sgn ? (int32_t)(int8_t)x[i] : (int32_t)x[i],         \
                                                zvec ? (sgn ? (int32_t)(int8_t)zv[i] : (int32_t)zv[i]) : z1, \
                                                svec ? sv[i] : s1))
#define DNNLK__DQ_V(k)                                                                            \
    dnnlk__vf_store_dt(y + (i + (k)*N) * ys, yt,                                                  \
                                DNNLK__SFX(dnnlk__quant_dq_vec)(x + i + (k)*N, sgn,                    \
                                                          svec ? dnnlk__vf_loadu(sv + i + (k)*N) : s, \
                                                          zvec ? dnnlk__vi_load_i8(zv + i + (k)*N, sgn) : z), \
                                stream)
    stream = stream && yt == dnnlk_f32;
    if (stream) { /* align the stores to the vector width */
        int64_t head = (int64_t)(((uintptr_t)(N * 4) - ((uintptr_t)y & (uintptr_t)(N * 4 - 1))) & (uintptr_t)(N * 4 - 1)) / 4;
        if ((uintptr_t)y & 3) stream = 0, head = 0;
        if (head > n) head = n;
        for (; i < head; i++) DNNLK__DQ_ONE(i);
    }
    for (; i + 4 * N <= n; i += 4 * N) {
        DNNLK__DQ_V(0);
        DNNLK__DQ_V(1);
        DNNLK__DQ_V(2);
        DNNLK__DQ_V(3);
    }
    for (; i + N <= n; i += N) DNNLK__DQ_V(0);
    for (; i < n; i++) DNNLK__DQ_ONE(i);
#undef DNNLK__DQ_V
#undef DNNLK__DQ_ONE
}

/* ---- rows ---- */

#define DNNLK__QCHUNK 256

/* Calls a core with svec and zvec as constants (and the float dtype ft as the caller's constant),
 * so the per-element tests inside fold away. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__quant_core_sel)(int dequant, dnnlk_dtype ft, char *y, const char *x,
                                                                 const float *sv, const uint8_t *zv, float s1,
                                                                 int32_t z1, int sgn, int svec, int zvec, int64_t n,
                                                                 int stream) {
#define DNNLK__QSEL(SV, ZV)                                                                                   \
    do {                                                                                                      \
        if (!dequant)                                                                                         \
            DNNLK__SFX(dnnlk__quant_core)((uint8_t *)y, x, ft, sv, zv, s1, (float)z1, sgn, SV, ZV, n, stream);   \
        else                                                                                                  \
            DNNLK__SFX(dnnlk__quant_dq_core)(y, ft, (const uint8_t *)x, sv, zv, s1, z1, sgn, SV, ZV, n, stream);    \
    } while (0)
    if (svec) {
        if (zvec) DNNLK__QSEL(1, 1);
        else DNNLK__QSEL(1, 0);
    } else {
        if (zvec) DNNLK__QSEL(0, 1);
        else DNNLK__QSEL(0, 0);
    }
#undef DNNLK__QSEL
}

/* One row of n elements; operand byte strides sy, sx, ss, sz. A row whose operands are all
 * contiguous (or one value) goes to the core in one piece; otherwise chunks are staged through
 * stack buffers: gather what is strided, run the core, scatter y. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__quant_row)(const dnnlk__quant_job *j, int dequant, dnnlk_dtype ft,
                                                            char *const *row, int64_t n, int64_t sy, int64_t sx,
                                                            int64_t ss, int64_t sz) {
    const dnnlk_dtype xt = dequant ? j->xt : ft, yt = dequant ? ft : j->yt;
    const int64_t ye = (int64_t)dnnlk_dtype_size(yt), xe = (int64_t)dnnlk_dtype_size(xt);
    int sgn = (dequant ? j->xt : j->yt) == dnnlk_s8;
    int svec = ss != 0, zvec = sz != 0;
    float s1 = svec ? 0.0f : dnnlk__load_as_f32(row[2], j->st);
    int32_t z1 = zvec ? 0 : dnnlk__load_q8(row[3], j->zt);
    int sdirect = !svec || (ss == 4 && j->st == dnnlk_f32), zdirect = !zvec || sz == 1;
    int direct = sy == ye && sx == xe && sdirect && zdirect;
    int64_t chunk = direct ? n : DNNLK__QCHUNK, c0;
    for (c0 = 0; c0 < n; c0 += chunk) {
        union { float f[DNNLK__QCHUNK]; uint8_t b[DNNLK__QCHUNK * 4]; } xb, yb;
        float sb[DNNLK__QCHUNK];
        uint8_t zb[DNNLK__QCHUNK];
        int64_t m = n - c0 < chunk ? n - c0 : chunk, i;
        const char *xp = row[1] + c0 * sx;
        char *yp = sy == ye ? row[0] + c0 * sy : (char *)yb.b;
        const float *sp = (const float *)(const void *)(row[2] + c0 * ss);
        const uint8_t *zp = (const uint8_t *)row[3] + c0 * sz;
        if (sx != xe) {
            for (i = 0; i < m; i++) memcpy(xb.b + i * xe, xp + i * sx, (size_t)xe);
            xp = (const char *)xb.b;
        }
        if (!sdirect) {
            for (i = 0; i < m; i++) sb[i] = dnnlk__load_as_f32(row[2] + (c0 + i) * ss, j->st);
            sp = sb;
        }
        if (!zdirect) {
            for (i = 0; i < m; i++) zb[i] = *((const uint8_t *)row[3] + (c0 + i) * sz);
            zp = zb;
        }
        DNNLK__SFX(dnnlk__quant_core_sel)(dequant, ft, yp, xp, sp, zp, s1, z1, sgn, svec, zvec, m,
                                          direct && j->stream);
        if (sy != ye)
            for (i = 0; i < m; i++) memcpy(row[0] + (c0 + i) * sy, yb.b + i * ye, (size_t)ye);
    }
}

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__quant_rows)(const dnnlk__quant_job *j, int dequant, dnnlk_dtype ft) {
    dnnlk__loop_iter it;
    char *row[4];
    int64_t n;
    int64_t sy = dnnlk__row_stride(&j->plan, 0), sx = dnnlk__row_stride(&j->plan, 1);
    int64_t ss = dnnlk__row_stride(&j->plan, 2), sz = dnnlk__row_stride(&j->plan, 3);
    dnnlk__iter_init(&it, &j->plan, j->base, j->begin, j->end);
    while ((n = dnnlk__iter_next(&it, row)) > 0) DNNLK__SFX(dnnlk__quant_row)(j, dequant, ft, row, n, sy, sx, ss, sz);
}

/* One instantiation per direction and float dtype. */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__quant_run)(const dnnlk__quant_job *j, int dequant) {
    dnnlk_dtype ft = dequant ? j->yt : j->xt;
    if (!dequant) {
        if (ft == dnnlk_f32) DNNLK__SFX(dnnlk__quant_rows)(j, 0, dnnlk_f32);
        else if (ft == dnnlk_bf16) DNNLK__SFX(dnnlk__quant_rows)(j, 0, dnnlk_bf16);
        else DNNLK__SFX(dnnlk__quant_rows)(j, 0, dnnlk_f16);
    } else {
        if (ft == dnnlk_f32) DNNLK__SFX(dnnlk__quant_rows)(j, 1, dnnlk_f32);
        else if (ft == dnnlk_bf16) DNNLK__SFX(dnnlk__quant_rows)(j, 1, dnnlk_bf16);
        else DNNLK__SFX(dnnlk__quant_rows)(j, 1, dnnlk_f16);
    }
    if (j->stream) dnnlk__vec_sfence();
}

/* ==== the general path (quant.h's dnnlk__qg_job): s16/u16/s4/u4/fp8, s32 dequantize input,
 * blocked scales. Same definitions as above, lane by lane: quantize is one f32 division by the
 * scale, then round half to even + zero point and clamp (integer types) or the fp8 encoding of
 * dnnlk__fp8_encode; dequantize is (q - zp) converted to f32 (exact but for s32, where it is one
 * rounding of the exact 64-bit difference) or the fp8 value, times the scale (one rounding). Rows
 * run along the last dim in segments of one scale (a block, or the whole row) or, where the scale
 * changes every element, through per-element buffers. ==== */

#define DNNLK__QG_CH 256

/* f32 -> fp8 codes, lane by lane what dnnlk__fp8_encode does (shift counts spelled out: the
 * intrinsics want immediates). */
static DNNLK__FORCEINLINE dnnlk__vi DNNLK__SFX(dnnlk__qg_fp8_enc)(dnnlk__vf v, int e4m3, int saturate) {
    const dnnlk__vi u = dnnlk__vf_as_vi(v), a = dnnlk__vi_and(u, dnnlk__vi_set1(0x7fffffff));
    dnnlk__vi norm, sub, code;
    if (e4m3) {
        norm = dnnlk__vi_add(dnnlk__vi_add(a, dnnlk__vi_set1(0x7ffff)), dnnlk__vi_and(dnnlk__vi_srli(a, 20), dnnlk__vi_set1(1)));
        norm = dnnlk__vi_sub(dnnlk__vi_srli(norm, 20), dnnlk__vi_set1(960));
        norm = dnnlk__vi_blend(dnnlk__vi_cmpgt(norm, dnnlk__vi_set1(0x7e)), dnnlk__vi_set1(saturate ? 0x7e : 0x7f), norm);
        sub = dnnlk__vi_sub(dnnlk__vf_as_vi(dnnlk__vf_add(dnnlk__vi_as_vf(a), dnnlk__vf_set1(16384.0f))),
                            dnnlk__vi_set1(0x46800000));
        code = dnnlk__vi_blend(dnnlk__vi_cmpgt(dnnlk__vi_set1(0x3c800000), a), sub, norm);
        code = dnnlk__vi_blend(dnnlk__vi_cmpgt(a, dnnlk__vi_set1(0x7f800000)), dnnlk__vi_set1(0x7f), code);
    } else {
        norm = dnnlk__vi_add(dnnlk__vi_add(a, dnnlk__vi_set1(0xfffff)), dnnlk__vi_and(dnnlk__vi_srli(a, 21), dnnlk__vi_set1(1)));
        norm = dnnlk__vi_sub(dnnlk__vi_srli(norm, 21), dnnlk__vi_set1(448));
        norm = dnnlk__vi_blend(dnnlk__vi_cmpgt(norm, dnnlk__vi_set1(0x7b)), dnnlk__vi_set1(saturate ? 0x7b : 0x7c), norm);
        sub = dnnlk__vi_sub(dnnlk__vf_as_vi(dnnlk__vf_add(dnnlk__vi_as_vf(a), dnnlk__vf_set1(128.0f))),
                            dnnlk__vi_set1(0x43000000));
        code = dnnlk__vi_blend(dnnlk__vi_cmpgt(dnnlk__vi_set1(0x38800000), a), sub, norm);
        code = dnnlk__vi_blend(dnnlk__vi_cmpgt(a, dnnlk__vi_set1(0x7f800000)), dnnlk__vi_set1(0x7e), code);
    }
    return dnnlk__vi_or(code, dnnlk__vi_and(dnnlk__vi_srli(u, 24), dnnlk__vi_set1(0x80)));
}

/* The reciprocal fast path of fp8 quantize with one scale s (r = fl(1/s), both normal, as for s8:
 * dnnlk__quant_recip_ok): y = fl(x * r) encoded with fewer steps than dnnlk__qg_fp8_enc, and a
 * per-lane test that the code equals that of v = fl(x / s); a vector with a lane failing it divides.
 * The loop is bound by vector instructions, not memory (one thread, Zen 4 host), so every step
 * counts: per 16 lanes a product, an and, a min, one add, one masked test and one masked compare
 * (chained into the vector's "ok" mask: no mask ORs), one shift, and a quarter of the pack.
 *
 * Why it is exact. dnnlk__fp8_encode is, on |v|'s bits a (v not NaN), a step function whose steps
 * change only at these bit patterns B (mb = 20 for e4m3, 21 for e5m2; H = 2^(mb-1)):
 *  - a >= the smallest normal fp8 (2^-6, 2^-14): B = k 2^mb + H (the integer rounding; the
 *    saturation and the inf/NaN codes past the largest finite fall on such a B too, or are flat);
 *  - 2^-10 (2^-17) <= a < that: the subnormal steps; below 2^-10 (2^-17) every code is 0.
 * If |y| >= 2^-126, |v - y| < 3.0001 u |y| (quant_simd.h's s8 argument above, u = 2^-24), under
 * 3.0001 ulp(y): v's bits are within 6 of y's (same sign; crossing down a binade the ulp halves).
 * So where y's bits are more than 8 from every B, v's code is y's. One add gives all of it:
 * t = a + K, K = 2^31 - A0 with A0 = 0x3a77fff8 (0x36effff8), just under 2^-10 (2^-17) - 8 bits
 * and = -(H + 8) mod 2^mb, so that K = H + 8 mod 2^mb (K = 0x45880008, 0x49100008):
 *  - the code: t >> mb (logical) = (a + H + 8) >> mb plus a constant (0x818, 0x408 past the
 *    code; dnnlk__vi_pack4_u8_sign subtracts it as z) rounds half up, not to even: it differs
 *    from round to nearest even only where a mod 2^mb = H + d, -8 <= d <= 0, all flagged below;
 *  - near: t mod 2^mb = d + 8 mod 2^mb in [0, 31] (bits 5 .. mb-1 zero) flags every |d| <= 8
 *    (and d up to 23);
 *  - window: a in [A0, smallest normal) flags the subnormal range whole, by one signed compare:
 *    the add puts A0 at INT_MIN, so t < (smallest normal's bits) + K as a signed number there and
 *    only there (a <= 0x7fffffff: t does not wrap past 2^32). Its codes are not computed here
 *    (rare in data scaled to the fp8 range; zeros are outside it).
 * Below the window the code is 0: t < 2^31, t >> mb less than the constant: the pack's unsigned
 * saturation gives 0. |y| < 2^-126 (FTZ included): v rounds to 0 too, and both have x's sign (r,
 * s > 0). Past the largest finite: y is clamped to F first (the largest finite where saturate,
 * else e5m2's inf; e4m3 without saturate needs no clamp: every code past 0x7e is its NaN, 0x7f),
 * whose bits are 0 mod 2^mb, never flagged; y >= F means v is past the last B before the
 * saturated/overflow code, x * r overflowing where x / s does not included. NaN: min(F, y) keeps
 * it (the second operand), its code is clamped to the NaN code (0x7f, 0x7e) by the pack and takes
 * y's sign, x's (a NaN operand comes out of the product and the quotient alike, quieted).
 * A flagged vector divides, v = fl(x / s), and goes through the same steps with exact set: no near
 * test, and the add rounds to even (K - 9 + the bit at mb: a + H - 1 + lsb); only a lane in the
 * window (the bound moves by at most 9 bits, still far from any step) takes dnnlk__qg_fp8_enc.
 * The code comes back as t >> mb with the sign in *u (y's bits); *ok keeps the lanes that passed. */
static DNNLK__FORCEINLINE dnnlk__vi DNNLK__SFX(dnnlk__qg_fp8_code)(dnnlk__vf y, int e4m3, int sat, int exact, dnnlk__vi *u,
                                                                dnnlk__vmask *ok) {
    dnnlk__vi a = dnnlk__vi_and(dnnlk__vf_as_vi(y), dnnlk__vi_set1(0x7fffffff)), t;
    *u = dnnlk__vf_as_vi(y);
    if (sat || !e4m3)
        a = dnnlk__vf_as_vi(dnnlk__vf_min(dnnlk__vf_set1(e4m3 ? 448.0f : sat ? 57344.0f : 65536.0f), dnnlk__vi_as_vf(a)));
    t = dnnlk__vi_add(a, dnnlk__vi_set1((e4m3 ? 0x45880008 : 0x49100008) - (exact ? 9 : 0)));
    if (exact)
        t = dnnlk__vi_add(t, dnnlk__vi_and(e4m3 ? dnnlk__vi_srli(a, 20) : dnnlk__vi_srli(a, 21), dnnlk__vi_set1(1)));
    else
        *ok = dnnlk__vi_test_in(*ok, t, dnnlk__vi_set1(e4m3 ? 0xfffe0 : 0x1fffe0));
    *ok = dnnlk__vi_cmpgt_in(*ok, t, dnnlk__vi_set1(e4m3 ? (int32_t)0x82080007u : (int32_t)0x81900007u));
    return e4m3 ? dnnlk__vi_srli(t, 20) : dnnlk__vi_srli(t, 21);
}

/* fp8 quantize of a contiguous row segment with one scale by the fast path above, in blocks of 4N
 * (streamed where the job streams: y aligned to them by a scalar head); returns the elements done. */
static DNNLK__FORCEINLINE int64_t DNNLK__SFX(dnnlk__qg_fp8_row)(const dnnlk__qg_job *j, dnnlk_dtype xt, int64_t xo,
                                                             int64_t yo, int64_t n, float s1, int e4m3, int sat) {
    const int64_t N = DNNLK__VF_N, xe = (int64_t)dnnlk_dtype_size(xt);
    const char *x = j->x + xo * xe;
    uint8_t *y = (uint8_t *)j->y + yo;
    const int stream = j->stream;
    const dnnlk__vf r = dnnlk__vf_set1(1.0f / s1), s = dnnlk__vf_set1(s1);
    const int16_t zc = (int16_t)(e4m3 ? -0x818 : -0x408);
    /* s a power of two (r = 1/s, both normal: dnnlk__quant_recip_ok): x * r and x / s are the same
     * real number x 2^-k rounded once by the same rule, so the same float for every x (overflow,
     * subnormal results and FTZ included; DAZ reads a denormal x as 0 in both; a NaN comes out of
     * both as x quieted): a flagged vector takes the exact steps on the product, no division. Data
     * on a grid with such a scale is where exact ties are common (the bench's: 9% of its vectors). */
    const int p2 = (dnnlk__f32_bits(s1) & 0x7fffffu) == 0;
    int64_t i = 0;
    if (stream) {
        int64_t head = (int64_t)((4 * N - ((uintptr_t)y & (uintptr_t)(4 * N - 1))) & (uintptr_t)(4 * N - 1));
        if (head > n) head = n;
        for (; i < head; i++) y[i] = (uint8_t)dnnlk__fp8_encode(dnnlk__load_as_f32(x + i * xe, xt) / s1, e4m3, sat);
    }
    for (; i + 4 * N <= n; i += 4 * N) {
        const unsigned all = (1u << N) - 1u;
        dnnlk__vmask oa = dnnlk__vmask_ones(), ob = oa, oc = oa, od = oa;
        dnnlk__vi a, b, c, d, ua, ub, uc, ud, v;
        dnnlk__vf ya, yb, yc, yd;
        if (stream && DNNLK_QUANT_FP8_PF_BYTES > 0)
            dnnlk__vec_prefetch_l2(x + i * xe + DNNLK_QUANT_FP8_PF_BYTES, (size_t)(4 * N * xe));
        ya = dnnlk__vf_mul(dnnlk__vf_load_dt(x + i * xe, xt), r);
        yb = dnnlk__vf_mul(dnnlk__vf_load_dt(x + (i + N) * xe, xt), r);
        yc = dnnlk__vf_mul(dnnlk__vf_load_dt(x + (i + 2 * N) * xe, xt), r);
        yd = dnnlk__vf_mul(dnnlk__vf_load_dt(x + (i + 3 * N) * xe, xt), r);
        a = DNNLK__SFX(dnnlk__qg_fp8_code)(ya, e4m3, sat, 0, &ua, &oa);
        b = DNNLK__SFX(dnnlk__qg_fp8_code)(yb, e4m3, sat, 0, &ub, &ob);
        c = DNNLK__SFX(dnnlk__qg_fp8_code)(yc, e4m3, sat, 0, &uc, &oc);
        d = DNNLK__SFX(dnnlk__qg_fp8_code)(yd, e4m3, sat, 0, &ud, &od);
        /* rare: an fp8 step within 8 bits of some x * r, or fp8 subnormals: that vector divides.
         * A test per vector, none for the four together: on data with exact ties (a power-of-two
         * scale, values on a decimal grid: bench/bench_quantresize.h's e4m3 row flags 9% of its
         * vectors, a third of its blocks) the block's test mispredicted as often as the four. */
#define DNNLK__QG_FP8_DIV(k, yk, n, un)                                                                           \
    do {                                                                                                          \
        const dnnlk__vf v_ = p2 ? (yk) : dnnlk__vf_div(dnnlk__vf_load_dt(x + (i + (k) * N) * xe, xt), s);       \
        dnnlk__vmask w_ = dnnlk__vmask_ones();                                                                    \
        n = DNNLK__SFX(dnnlk__qg_fp8_code)(v_, e4m3, sat, 1, &un, &w_);                                          \
        if (dnnlk__vmask_bits(w_) != all) {                                                                       \
            const dnnlk__vi c_ = DNNLK__SFX(dnnlk__qg_fp8_enc)(v_, e4m3, sat);                                   \
            n = dnnlk__vi_add(dnnlk__vi_and(c_, dnnlk__vi_set1(0x7f)), dnnlk__vi_set1(-zc));                   \
            un = dnnlk__vi_slli(c_, 24);                                                                          \
        }                                                                                                         \
    } while (0)
        if (DNNLK__UNLIKELY(dnnlk__vmask_bits(oa) != all)) DNNLK__QG_FP8_DIV(0, ya, a, ua);
        if (DNNLK__UNLIKELY(dnnlk__vmask_bits(ob) != all)) DNNLK__QG_FP8_DIV(1, yb, b, ub);
        if (DNNLK__UNLIKELY(dnnlk__vmask_bits(oc) != all)) DNNLK__QG_FP8_DIV(2, yc, c, uc);
        if (DNNLK__UNLIKELY(dnnlk__vmask_bits(od) != all)) DNNLK__QG_FP8_DIV(3, yd, d, ud);
#undef DNNLK__QG_FP8_DIV
        /* e4m3 with saturate: its codes are at most 0x7e (y clamped to 448) or, NaN, saturate to
         * 0xff, whose bits 0..6 are the NaN code: the pack's clamp (maxc 255: none) is not needed */
        v = dnnlk__vi_pack4_u8_sign(a, b, c, d, ua, ub, uc, ud, zc, e4m3 ? (sat ? 0xff : 0x7f) : 0x7e);
        if (stream) dnnlk__vi_stream(y + i, v);
        else dnnlk__vi_storeu(y + i, v);
    }
    return i;
}

/* Nibble unpacking: N bytes (2N nibbles, low first) loaded as N lanes; output vector k takes, in
 * lane l, element e = kN + l: byte e / 2 (a permute) shifted so its nibble is on top (a multiply
 * by 2^28 or 2^24), then shifted down 28 (arithmetic for s4). Built once per part. */
typedef struct DNNLK__SFX(dnnlk__qg_nib) {
    int32_t idx[2][DNNLK__VF_N], mul[2][DNNLK__VF_N];
} DNNLK__SFX(dnnlk__qg_nib);

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__qg_nib_init)(DNNLK__SFX(dnnlk__qg_nib) *t) {
    int k, l;
    for (k = 0; k < 2; k++)
        for (l = 0; l < DNNLK__VF_N; l++) {
            int e = k * DNNLK__VF_N + l;
            t->idx[k][l] = e >> 1;
            t->mul[k][l] = (e & 1) ? (1 << 24) : (1 << 28);
        }
}

static DNNLK__FORCEINLINE dnnlk__vi DNNLK__SFX(dnnlk__qg_nib_get)(dnnlk__vi bytes, const DNNLK__SFX(dnnlk__qg_nib) *t,
                                                               int k, int sgn) {
    dnnlk__vi v = dnnlk__vf_as_vi(dnnlk__vf_permute(dnnlk__vi_as_vf(bytes), dnnlk__vi_loadu(t->idx[k])));
    v = dnnlk__vi_mullo(v, dnnlk__vi_loadu(t->mul[k]));
    return sgn ? dnnlk__vi_srai(v, 28) : dnnlk__vi_srli(v, 28);
}

/* One element of dequantize's dx: (q - zp) as f32, or the fp8 value. */
static DNNLK__FORCEINLINE float DNNLK__SFX(dnnlk__qg_dx)(const dnnlk__qg_job *j, int64_t xo, int64_t z) {
    if (dnnlk__is_fp8(j->xt)) return dnnlk__fp8_decode((uint32_t)dnnlk__qg_load(j->x, xo, j->xt), j->xt == dnnlk_f8_e4m3);
    return (float)(dnnlk__qg_load(j->x, xo, j->xt) - z);
}

/* Dequantize n elements: x from element offset xo (stride xst), y from yo (stride yst); one scale
 * s1 and zero point z1, or (sv) one per element in sv / zv. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__qg_dq)(const dnnlk__qg_job *j, const DNNLK__SFX(dnnlk__qg_nib) *nib,
                                                     int64_t xo, int64_t xst, int64_t yo, int64_t yst, int64_t n,
                                                     float s1, int64_t z1, const float *sv, const int64_t *zv) {
    const int64_t N = DNNLK__VF_N, ye = (int64_t)dnnlk_dtype_size(j->yt);
    const dnnlk_dtype xt = j->xt;
    const dnnlk__vf s = dnnlk__vf_set1(s1);
    int64_t i = 0;
    if (!sv && xst == 1 && yst == 1 && (xt == dnnlk_s8 || xt == dnnlk_u8 || dnnlk__is_packed4(xt))) {
        const int sgn = xt == dnnlk_s8 || xt == dnnlk_s4;
        const dnnlk__vi z = dnnlk__vi_set1((int32_t)z1);
        char *y = j->y + yo * ye;
        int stream = j->stream && j->yt == dnnlk_f32 && ((uintptr_t)y & 3) == 0;
        if (dnnlk__is_packed4(xt) && (xo & 1) && n > 0) { /* vectors start on a byte */
            dnnlk__store_from_f32(y, j->yt, DNNLK__SFX(dnnlk__qg_dx)(j, xo, z1) * s1);
            i = 1;
        }
        if (stream) { /* align the stores to the vector (where the nibbles allow it) */
            int64_t head = (int64_t)(((uintptr_t)(N * 4) - ((uintptr_t)(y + i * ye) & (uintptr_t)(N * 4 - 1))) & (uintptr_t)(N * 4 - 1)) / 4;
            if (dnnlk__is_packed4(xt) && ((xo + i + head) & 1)) stream = 0, head = 0;
            for (head += i; i < head && i < n; i++)
                dnnlk__store_from_f32(y + i * ye, j->yt, DNNLK__SFX(dnnlk__qg_dx)(j, xo + i, z1) * s1);
        }
        if (dnnlk__is_packed4(xt)) {
            for (; i + 2 * N <= n; i += 2 * N) {
                dnnlk__vi b = dnnlk__vi_load_i8(j->x + ((xo + i) >> 1), 0);
                dnnlk__vf v0 = dnnlk__vf_mul(dnnlk__vi_to_vf(dnnlk__vi_sub(DNNLK__SFX(dnnlk__qg_nib_get)(b, nib, 0, sgn), z)), s);
                dnnlk__vf v1 = dnnlk__vf_mul(dnnlk__vi_to_vf(dnnlk__vi_sub(DNNLK__SFX(dnnlk__qg_nib_get)(b, nib, 1, sgn), z)), s);
                dnnlk__vf_store_dt(y + i * ye, j->yt, v0, stream);
                dnnlk__vf_store_dt(y + (i + N) * ye, j->yt, v1, stream);
            }
        } else {
            for (; i + N <= n; i += N) {
                dnnlk__vi q = dnnlk__vi_load_i8(j->x + xo + i, sgn);
                dnnlk__vf_store_dt(y + i * ye, j->yt, dnnlk__vf_mul(dnnlk__vi_to_vf(dnnlk__vi_sub(q, z)), s), stream);
            }
        }
        for (; i < n; i++) dnnlk__store_from_f32(y + i * ye, j->yt, DNNLK__SFX(dnnlk__qg_dx)(j, xo + i, z1) * s1);
        return;
    }
    /* anything else: dx staged in a buffer (scalar loads), the products in vectors */
    while (i < n) {
        float fb[DNNLK__QG_CH], ob[DNNLK__QG_CH];
        int64_t m = n - i < DNNLK__QG_CH ? n - i : DNNLK__QG_CH, k;
        int direct = yst == 1;
        char *yp = direct ? j->y + (yo + i) * ye : (char *)ob;
        dnnlk_dtype ot = direct ? j->yt : dnnlk_f32;
        const int64_t oe = direct ? ye : 4;
        for (k = 0; k < m; k++) fb[k] = DNNLK__SFX(dnnlk__qg_dx)(j, xo + (i + k) * xst, sv ? zv[i + k] : z1);
        for (k = 0; k + N <= m; k += N)
            dnnlk__vf_store_dt(yp + k * oe, ot, dnnlk__vf_mul(dnnlk__vf_loadu(fb + k), sv ? dnnlk__vf_loadu(sv + i + k) : s), 0);
        for (; k < m; k++) dnnlk__store_from_f32(yp + k * oe, ot, fb[k] * (sv ? sv[i + k] : s1));
        if (!direct)
            for (k = 0; k < m; k++) dnnlk__store_from_f32(j->y + (yo + (i + k) * yst) * ye, j->yt, ob[k]);
        i += m;
    }
}

/* Quantize n elements (the same arguments as dnnlk__qg_dq). */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__qg_q)(const dnnlk__qg_job *j, int64_t xo, int64_t xst, int64_t yo,
                                                    int64_t yst, int64_t n, float s1, int64_t z1, const float *sv,
                                                    const int64_t *zv) {
    const int64_t N = DNNLK__VF_N, xe = (int64_t)dnnlk_dtype_size(j->xt);
    const dnnlk_dtype qt = j->qt;
    const int fp8 = dnnlk__is_fp8(qt), e4m3 = qt == dnnlk_f8_e4m3, sat = j->saturate;
    const int bytes_out = fp8 || qt == dnnlk_s8 || qt == dnnlk_u8;
    float lo1, hi1;
    dnnlk__vf lo, hi;
    int64_t i = 0;
    dnnlk__qint_range(qt, &lo1, &hi1);
    lo = dnnlk__vf_set1(lo1), hi = dnnlk__vf_set1(hi1);
    /* one scale, contiguous: the reciprocal fast path (where a division costs more than it) */
    if (fp8 && !sv && xst == 1 && yst == 1 && !DNNLK__VEC_CHEAP_DIV && dnnlk__quant_recip_ok(s1)) {
        /* x's dtype, the format and saturate as constants: nothing is decided per vector */
#define DNNLK__QG_FP8_ROW(XT) \
    (e4m3 ? (sat ? DNNLK__SFX(dnnlk__qg_fp8_row)(j, XT, xo, yo, n, s1, 1, 1) : DNNLK__SFX(dnnlk__qg_fp8_row)(j, XT, xo, yo, n, s1, 1, 0)) \
          : (sat ? DNNLK__SFX(dnnlk__qg_fp8_row)(j, XT, xo, yo, n, s1, 0, 1) : DNNLK__SFX(dnnlk__qg_fp8_row)(j, XT, xo, yo, n, s1, 0, 0)))
        if (j->xt == dnnlk_f32) i = DNNLK__QG_FP8_ROW(dnnlk_f32);
        else if (j->xt == dnnlk_bf16) i = DNNLK__QG_FP8_ROW(dnnlk_bf16);
        else i = DNNLK__QG_FP8_ROW(dnnlk_f16);
#undef DNNLK__QG_FP8_ROW
    }
    while (i < n) {
        float xb[DNNLK__QG_CH], zb[DNNLK__QG_CH];
        int32_t ob[DNNLK__QG_CH];
        int64_t m = n - i < DNNLK__QG_CH ? n - i : DNNLK__QG_CH, k;
        int xdirect = xst == 1, ydirect = yst == 1 && bytes_out;
        const char *xp = j->x + (xo + i) * xe;
        for (k = 0; !xdirect && k < m; k++) xb[k] = dnnlk__load_as_f32(j->x + (xo + (i + k) * xst) * xe, j->xt);
        for (k = 0; sv && !fp8 && k < m; k++) zb[k] = (float)zv[i + k];
        for (k = 0; k + N <= m; k += N) {
            dnnlk__vf v = xdirect ? dnnlk__vf_load_dt(xp + k * xe, j->xt) : dnnlk__vf_loadu(xb + k);
            dnnlk__vi r;
            v = dnnlk__vf_div(v, sv ? dnnlk__vf_loadu(sv + i + k) : dnnlk__vf_set1(s1));
            if (fp8) {
                r = DNNLK__SFX(dnnlk__qg_fp8_enc)(v, e4m3, sat);
            } else {
                v = dnnlk__vf_blend(dnnlk__vf_cmpunord(v, v), dnnlk__vf_zero(), v); /* NaN -> zero point */
                v = dnnlk__vf_add(dnnlk__vf_round_even(v), sv ? dnnlk__vf_loadu(zb + k) : dnnlk__vf_set1((float)z1));
                r = dnnlk__vf_to_vi_trunc(dnnlk__vf_min(dnnlk__vf_max(v, lo), hi));
            }
            if (ydirect) dnnlk__vi_store_u8(j->y + yo + i + k, r);
            else dnnlk__vi_storeu(ob + k, r);
        }
        for (; k < m; k++) {
            float xv = xdirect ? dnnlk__load_as_f32(xp + k * xe, j->xt) : xb[k], s = sv ? sv[i + k] : s1;
            int32_t r = fp8 ? (int32_t)dnnlk__fp8_encode(xv / s, e4m3, sat)
                            : dnnlk__quant_q_one(xv, s, (float)(sv ? zv[i + k] : z1), lo1, hi1);
            if (ydirect) j->y[yo + i + k] = (char)r;
            else ob[k] = r;
        }
        if (!ydirect)
            for (k = 0; k < m; k++) dnnlk__qg_store(j->y, yo + (i + k) * yst, qt, ob[k]);
        i += m;
    }
}

/* The blocks of dnnlk__qg_dq_blocks with y's dtype yt and the packing as constants (the caller
 * switches on them), and every field of the job in a local: y's stores could alias the job, so
 * fields read in the loop would be read again after every store. sb / zb: one f32 scale and one
 * zero point per block. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__qg_dq_blocks_t)(char *y, const char *x, int64_t xo, int64_t B,
                                                              const float *sb, const int32_t *zb, int64_t m,
                                                              const DNNLK__SFX(dnnlk__qg_nib) *nib, dnnlk_dtype yt,
                                                              int packed, int sgn, int stream) {
    const int64_t N = DNNLK__VF_N, ye = (int64_t)dnnlk_dtype_size(yt);
    int64_t k, i = 0;
    for (k = 0; k < m; k++) {
        const dnnlk__vf s = dnnlk__vf_set1(sb[k]);
        const dnnlk__vi z = dnnlk__vi_set1(zb[k]);
        const int64_t e = i + B;
        if (packed) {
            for (; i < e; i += 2 * N) {
                dnnlk__vi bytes = dnnlk__vi_load_i8(x + ((xo + i) >> 1), 0);
                dnnlk__vf v0 = dnnlk__vf_mul(dnnlk__vi_to_vf(dnnlk__vi_sub(DNNLK__SFX(dnnlk__qg_nib_get)(bytes, nib, 0, sgn), z)), s);
                dnnlk__vf v1 = dnnlk__vf_mul(dnnlk__vi_to_vf(dnnlk__vi_sub(DNNLK__SFX(dnnlk__qg_nib_get)(bytes, nib, 1, sgn), z)), s);
                dnnlk__vf_store_dt(y + i * ye, yt, v0, stream);
                dnnlk__vf_store_dt(y + (i + N) * ye, yt, v1, stream);
            }
        } else {
            for (; i < e; i += N)
                dnnlk__vf_store_dt(y + i * ye, yt, dnnlk__vf_mul(dnnlk__vi_to_vf(dnnlk__vi_sub(dnnlk__vi_load_i8(x + xo + i, sgn), z)), s), stream);
        }
    }
}

/* Dequantize whole blocks of a contiguous row (x s8/u8/s4/u4, y contiguous, scales contiguous
 * along the row, block a multiple of 2N, x's first element at a byte): the LLM weight case. The
 * row's scales are widened to f32 by vectors into a buffer first, so a block costs a broadcast;
 * each lane is the same (q - zp) * scale as dnnlk__qg_dq's. Returns the elements done. */
static DNNLK__FORCEINLINE int64_t DNNLK__SFX(dnnlk__qg_dq_blocks)(const dnnlk__qg_job *j, const DNNLK__SFX(dnnlk__qg_nib) *nib,
                                                               int64_t xo, int64_t yo, const char *sp, int64_t zo,
                                                               int64_t nblk) {
    const int64_t N = DNNLK__VF_N, B = j->block, ye = (int64_t)dnnlk_dtype_size(j->yt), se = (int64_t)dnnlk_dtype_size(j->st);
    const dnnlk_dtype xt = j->xt, yt = j->yt, st = j->st;
    const int packed = dnnlk__is_packed4(xt), sgn = xt == dnnlk_s8 || xt == dnnlk_s4;
    const char *x = j->x;
    char *y = j->y + yo * ye;
    const int stream = j->stream && yt == dnnlk_f32 && ((uintptr_t)y & (uintptr_t)(N * 4 - 1)) == 0;
    int64_t b0, i = 0;
    for (b0 = 0; b0 < nblk; b0 += DNNLK__QG_CH) {
        float sb[DNNLK__QG_CH];
        int32_t zb[DNNLK__QG_CH];
        int64_t m = nblk - b0 < DNNLK__QG_CH ? nblk - b0 : DNNLK__QG_CH, k;
        for (k = 0; k + N <= m; k += N) dnnlk__vf_storeu(sb + k, dnnlk__vf_load_dt(sp + (b0 + k) * se, st));
        for (; k < m; k++) sb[k] = dnnlk__load_as_f32(sp + (b0 + k) * se, st);
        for (k = 0; k < m; k++) zb[k] = j->z ? (int32_t)dnnlk__qg_load(j->z, zo + b0 + k, j->qt) : 0;
#define DNNLK__QG_BLK(YT, PK) \
    DNNLK__SFX(dnnlk__qg_dq_blocks_t)(y + i * ye, x, xo + i, B, sb, zb, m, nib, YT, PK, sgn, stream)
        if (yt == dnnlk_f32) {
            if (packed) DNNLK__QG_BLK(dnnlk_f32, 1);
            else DNNLK__QG_BLK(dnnlk_f32, 0);
        } else if (yt == dnnlk_bf16) {
            if (packed) DNNLK__QG_BLK(dnnlk_bf16, 1);
            else DNNLK__QG_BLK(dnnlk_bf16, 0);
        } else {
            if (packed) DNNLK__QG_BLK(dnnlk_f16, 1);
            else DNNLK__QG_BLK(dnnlk_f16, 0);
        }
#undef DNNLK__QG_BLK
        i += m * B;
    }
    return i;
}

static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__qg_run)(const dnnlk__qg_job *j) {
    const int nd = j->nd, last = nd - 1;
    const int64_t L = j->dims[last], B = j->block;
    const int64_t se = (int64_t)dnnlk_dtype_size(j->st);
    /* the scale changes along the rows: per-axis or blocked on the last dim, or blocked on another
     * (the scale then has x's rank, its last dim x's) */
    const int along = j->ax == last || (B > 0 && j->dims[last] > 1);
    const int64_t bdiv = j->ax == last && B > 0 ? B : 1; /* row element -> scale index along it */
    DNNLK__SFX(dnnlk__qg_nib) nib;
    int64_t f = j->begin;
    DNNLK__SFX(dnnlk__qg_nib_init)(&nib);
    while (f < j->end) {
        int64_t idx[DNNLK_MAX_NDIMS], r = f / L, c0 = f % L, c1, x0 = 0, y0 = 0, s0 = 0, z0 = 0;
        int d;
        c1 = L < c0 + (j->end - f) ? L : c0 + (j->end - f);
        for (d = last; d >= 0; d--) {
            if (d == last) idx[d] = 0;
            else idx[d] = r % j->dims[d], r /= j->dims[d];
        }
        for (d = 0; d < last; d++) {
            int64_t si = (d == j->ax && B > 0) ? idx[d] / B : idx[d];
            x0 += idx[d] * j->xs[d], y0 += idx[d] * j->ys[d];
            s0 += si * j->ss[d], z0 += si * j->zs[d];
        }
#define DNNLK__QG_S(so) dnnlk__load_as_f32(j->s + (so) * se, j->st)
#define DNNLK__QG_Z(zo) (j->z ? dnnlk__qg_load(j->z, (zo), j->qt) : 0)
#define DNNLK__QG_SEG(c, n, s1, z1, sv, zv)                                                                     \
    do {                                                                                                       \
        if (j->dequant)                                                                                        \
            DNNLK__SFX(dnnlk__qg_dq)(j, &nib, x0 + (c) * j->xs[last], j->xs[last], y0 + (c) * j->ys[last],     \
                                     j->ys[last], (n), (s1), (z1), (sv), (zv));                                \
        else                                                                                                   \
            DNNLK__SFX(dnnlk__qg_q)(j, x0 + (c) * j->xs[last], j->xs[last], y0 + (c) * j->ys[last], j->ys[last], \
                                    (n), (s1), (z1), (sv), (zv));                                              \
    } while (0)
        if (!along) {
            DNNLK__QG_SEG(c0, c1 - c0, DNNLK__QG_S(s0), DNNLK__QG_Z(z0), (const float *)NULL, (const int64_t *)NULL);
        } else if (bdiv >= 8) { /* blocks of one scale (one division per row, not per block) */
            int64_t b = c0 / B, c = c0, e = (b + 1) * B;
            if (j->dequant && c0 == b * B && j->xs[last] == 1 && j->ys[last] == 1 && j->ss[last] == 1 &&
                (!j->z || j->zs[last] == 1) && B % (2 * DNNLK__VF_N) == 0 && (j->xt == dnnlk_s8 || j->xt == dnnlk_u8 ||
                (dnnlk__is_packed4(j->xt) && (x0 + c0) % 2 == 0))) {
                int64_t nblk = (c1 - c0) / B, done;
                done = DNNLK__SFX(dnnlk__qg_dq_blocks)(j, &nib, x0 + c0, y0 + c0, j->s + (s0 + b) * se, z0 + b, nblk);
                c += done, b += nblk, e = c + B;
            }
            for (; c < c1; b++, c = e, e += B)
                DNNLK__QG_SEG(c, (e < c1 ? e : c1) - c, DNNLK__QG_S(s0 + b * j->ss[last]),
                              DNNLK__QG_Z(z0 + b * j->zs[last]), (const float *)NULL, (const int64_t *)NULL);
        } else { /* a scale per element (per-axis), or per few: buffers */
            int64_t c = c0;
            while (c < c1) {
                float sb[DNNLK__QG_CH];
                int64_t zb[DNNLK__QG_CH], m = c1 - c < DNNLK__QG_CH ? c1 - c : DNNLK__QG_CH, k;
                for (k = 0; k < m; k++) {
                    int64_t b = (c + k) / bdiv;
                    sb[k] = DNNLK__QG_S(s0 + b * j->ss[last]);
                    zb[k] = DNNLK__QG_Z(z0 + b * j->zs[last]);
                }
                DNNLK__QG_SEG(c, m, 0.0f, 0, sb, zb);
                c += m;
            }
        }
#undef DNNLK__QG_SEG
#undef DNNLK__QG_Z
#undef DNNLK__QG_S
        f += c1 - c0;
    }
    if (j->stream) dnnlk__vec_sfence();
}
