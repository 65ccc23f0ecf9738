/* dnnl_kernels — select_simd.h: the select row kernels, one body compiled per ISA by
 * simd_instantiate.h (no include guard). Entry: DNNLK__SFX(dnnlk__select_rows)(blk).
 *
 * Elements are moved as integer lanes of 1, 2, 4 or 8 bytes. The cond bytes of a vector are
 * compared with zero and widened to the lane size: on AVX-512 into a k-mask (vptestmb gives one
 * bit per byte, which is one bit per lane when W cond bytes are loaded for W lanes), on AVX2 and
 * SSE4.1 into an all-ones "cond is false" lane vector (pcmpeqb, then pmovsx to the lane width),
 * which drives a byte blend. Operands that are scalars along the row are broadcast once. */

#if DNNLK__ISA == 3
#define DNNLK__SEL_VB 64
#define DNNLK__SEL_V __m512i
#define DNNLK__SEL_M __mmask64
#elif DNNLK__ISA == 2
#define DNNLK__SEL_VB 32
#define DNNLK__SEL_V __m256i
#define DNNLK__SEL_M __m256i
#else
#define DNNLK__SEL_VB 16
#define DNNLK__SEL_V __m128i
#define DNNLK__SEL_M __m128i
#endif

static DNNLK__FORCEINLINE DNNLK__SEL_V DNNLK__SFX(dnnlk__sel_load)(const void *p) {
#if DNNLK__ISA == 3
    return _mm512_loadu_si512(p);
#elif DNNLK__ISA == 2
    return _mm256_loadu_si256((const __m256i *)p);
#else
    return _mm_loadu_si128((const __m128i *)p);
#endif
}

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__sel_store)(void *p, DNNLK__SEL_V v, int nt) {
#if DNNLK__ISA == 3
    if (nt) _mm512_stream_si512((__m512i *)p, v);
    else _mm512_storeu_si512(p, v);
#elif DNNLK__ISA == 2
    if (nt) _mm256_stream_si256((__m256i *)p, v);
    else _mm256_storeu_si256((__m256i *)p, v);
#else
    if (nt) _mm_stream_si128((__m128i *)p, v);
    else _mm_storeu_si128((__m128i *)p, v);
#endif
}

/* The element at p in every lane. */
static DNNLK__FORCEINLINE DNNLK__SEL_V DNNLK__SFX(dnnlk__sel_bcast)(const void *p, int es) {
    uint8_t u8;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;
    switch (es) {
    case 1: memcpy(&u8, p, 1);
#if DNNLK__ISA == 3
        return _mm512_set1_epi8((char)u8);
#elif DNNLK__ISA == 2
        return _mm256_set1_epi8((char)u8);
#else
        return _mm_set1_epi8((char)u8);
#endif
    case 2: memcpy(&u16, p, 2);
#if DNNLK__ISA == 3
        return _mm512_set1_epi16((short)u16);
#elif DNNLK__ISA == 2
        return _mm256_set1_epi16((short)u16);
#else
        return _mm_set1_epi16((short)u16);
#endif
    case 4: memcpy(&u32, p, 4);
#if DNNLK__ISA == 3
        return _mm512_set1_epi32((int)u32);
#elif DNNLK__ISA == 2
        return _mm256_set1_epi32((int)u32);
#else
        return _mm_set1_epi32((int)u32);
#endif
    default: memcpy(&u64, p, 8);
#if DNNLK__ISA == 3
        return _mm512_set1_epi64((long long)u64);
#elif DNNLK__ISA == 2
        return _mm256_set1_epi64x((long long)u64);
#else
        return _mm_set1_epi64x((long long)u64);
#endif
    }
}

/* The cond of the W = VB/es lanes starting at c. AVX-512: bit j set where cond j is true.
 * AVX2/SSE4.1: lane j all ones where cond j is false. */
static DNNLK__FORCEINLINE DNNLK__SEL_M DNNLK__SFX(dnnlk__sel_cmask)(const unsigned char *c, int es) {
#if DNNLK__ISA == 3
    __m128i x;
    switch (es) {
    case 1: { __m512i v = _mm512_loadu_si512(c); return _mm512_test_epi8_mask(v, v); }
    case 2: { __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)c); return _mm256_test_epi8_mask(v, v); }
    case 4: x = _mm_loadu_si128((const __m128i *)(const void *)c); break;
    default: x = _mm_loadl_epi64((const __m128i *)(const void *)c); break;
    }
    return _mm_test_epi8_mask(x, x);
#else
    uint32_t u32;
    __m128i x;
    switch (es) {
#if DNNLK__ISA == 2
    case 1: return _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(const void *)c), _mm256_setzero_si256());
    case 2:
        x = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)c), _mm_setzero_si128());
        return _mm256_cvtepi8_epi16(x);
    case 4:
        x = _mm_cmpeq_epi8(_mm_loadl_epi64((const __m128i *)(const void *)c), _mm_setzero_si128());
        return _mm256_cvtepi8_epi32(x);
    default:
        memcpy(&u32, c, 4);
        x = _mm_cmpeq_epi8(_mm_cvtsi32_si128((int)u32), _mm_setzero_si128());
        return _mm256_cvtepi8_epi64(x);
#else
    case 1: return _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)c), _mm_setzero_si128());
    case 2:
        x = _mm_cmpeq_epi8(_mm_loadl_epi64((const __m128i *)(const void *)c), _mm_setzero_si128());
        return _mm_cvtepi8_epi16(x);
    case 4:
        memcpy(&u32, c, 4);
        x = _mm_cmpeq_epi8(_mm_cvtsi32_si128((int)u32), _mm_setzero_si128());
        return _mm_cvtepi8_epi32(x);
    default: {
        uint16_t u16;
        memcpy(&u16, c, 2);
        x = _mm_cmpeq_epi8(_mm_cvtsi32_si128((int)u16), _mm_setzero_si128());
        return _mm_cvtepi8_epi64(x);
    }
#endif
    }
#endif
}

/* Lane j: a where cond j is true, else b. */
static DNNLK__FORCEINLINE DNNLK__SEL_V DNNLK__SFX(dnnlk__sel_blend)(DNNLK__SEL_M m, DNNLK__SEL_V a, DNNLK__SEL_V b,
                                                                   int es) {
#if DNNLK__ISA == 3
    switch (es) {
    case 1: return _mm512_mask_blend_epi8(m, b, a);
    case 2: return _mm512_mask_blend_epi16((__mmask32)m, b, a);
    case 4: return _mm512_mask_blend_epi32((__mmask16)m, b, a);
    default: return _mm512_mask_blend_epi64((__mmask8)m, b, a);
    }
#elif DNNLK__ISA == 2
    (void)es;
    return _mm256_blendv_epi8(a, b, m);
#else
    (void)es;
    return _mm_blendv_epi8(a, b, m);
#endif
}

#if DNNLK__ISA == 3
/* AVX-512 partial vectors: the first n lanes (n < W), nothing touched past them. The mask comes
 * from a byte compare, born in a k register: built in a general register by a shift, it made
 * clang 14 crash ("Cannot emit physreg copy instruction") under -fsanitize=address, which checks
 * masked accesses lane by lane, once -fomit-frame-pointer let the mask live in RBP. */
static DNNLK__FORCEINLINE __mmask64 DNNLK__SFX(dnnlk__sel_lanes)(int64_t n) {
    const __m512i iota = _mm512_set_epi8(63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44,
                                         43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24,
                                         23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    return _mm512_cmplt_epu8_mask(iota, _mm512_set1_epi8((char)(n < 64 ? n : 64)));
}

static DNNLK__FORCEINLINE __m512i DNNLK__SFX(dnnlk__sel_load_n)(const void *p, __mmask64 m, int es) {
    switch (es) {
    case 1: return _mm512_maskz_loadu_epi8(m, p);
    case 2: return _mm512_maskz_loadu_epi16((__mmask32)m, p);
    case 4: return _mm512_maskz_loadu_epi32((__mmask16)m, p);
    default: return _mm512_maskz_loadu_epi64((__mmask8)m, p);
    }
}

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__sel_store_n)(void *p, __mmask64 m, __m512i v, int es) {
    switch (es) {
    case 1: _mm512_mask_storeu_epi8(p, m, v); break;
    case 2: _mm512_mask_storeu_epi16(p, (__mmask32)m, v); break;
    case 4: _mm512_mask_storeu_epi32(p, (__mmask16)m, v); break;
    default: _mm512_mask_storeu_epi64(p, (__mmask8)m, v); break;
    }
}

static DNNLK__FORCEINLINE __mmask64 DNNLK__SFX(dnnlk__sel_cmask_n)(const unsigned char *c, __mmask64 m) {
    __m512i v = _mm512_maskz_loadu_epi8(m, c);
    return _mm512_test_epi8_mask(v, v);
}
#endif

/* n < W elements (or up to an alignment boundary) of a contiguous-cond row. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__sel_part)(char *d, const unsigned char *c, const char *a,
                                                           const char *b, int64_t n, int es, int ka, int kb,
                                                           DNNLK__SEL_V va, DNNLK__SEL_V vb) {
#if DNNLK__ISA == 3
    __mmask64 lanes = DNNLK__SFX(dnnlk__sel_lanes)(n);
    __mmask64 m = DNNLK__SFX(dnnlk__sel_cmask_n)(c, lanes);
    __m512i x = ka ? DNNLK__SFX(dnnlk__sel_load_n)(a, lanes, es) : va;
    __m512i y = kb ? DNNLK__SFX(dnnlk__sel_load_n)(b, lanes, es) : vb;
    DNNLK__SFX(dnnlk__sel_store_n)(d, lanes, DNNLK__SFX(dnnlk__sel_blend)(m, x, y, es), es);
#else
    int64_t i;
    (void)va, (void)vb;
    for (i = 0; i < n; i++)
        memcpy(d + i * es, c[i] ? a + (ka ? i * es : 0) : b + (kb ? i * es : 0), (size_t)es);
#endif
}

/* One row, cond contiguous; ka/kb: 1 = contiguous, 0 = scalar along the row. With nt, the head
 * up to a vector boundary of d is done apart so the streaming stores are aligned. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__sel_row)(char *d, const unsigned char *c, const char *a,
                                                          const char *b, int64_t n, int es, int ka, int kb, int nt) {
    const int64_t W = DNNLK__SEL_VB / es;
    DNNLK__SEL_V va = DNNLK__SFX(dnnlk__sel_bcast)(a, es), vb = DNNLK__SFX(dnnlk__sel_bcast)(b, es);
    int64_t i = 0;
#define DNNLK__SEL_STEP(j)                                                                                   \
    DNNLK__SFX(dnnlk__sel_store)                                                                            \
    (d + (j) * es,                                                                                           \
     DNNLK__SFX(dnnlk__sel_blend)(DNNLK__SFX(dnnlk__sel_cmask)(c + (j), es),                                 \
                                  ka ? DNNLK__SFX(dnnlk__sel_load)(a + (j) * es) : va,                       \
                                  kb ? DNNLK__SFX(dnnlk__sel_load)(b + (j) * es) : vb, es),                  \
     nt)
    if (nt) {
        int64_t h = (int64_t)(((uintptr_t)0 - (uintptr_t)d) & (DNNLK__SEL_VB - 1)) / es;
        if (h > n) h = n;
        if (h) DNNLK__SFX(dnnlk__sel_part)(d, c, a, b, h, es, ka, kb, va, vb);
        i = h;
    }
    for (; i + 4 * W <= n; i += 4 * W) {
        DNNLK__SEL_STEP(i);
        DNNLK__SEL_STEP(i + W);
        DNNLK__SEL_STEP(i + 2 * W);
        DNNLK__SEL_STEP(i + 3 * W);
    }
    for (; i + W <= n; i += W) DNNLK__SEL_STEP(i);
#undef DNNLK__SEL_STEP
    if (i < n) DNNLK__SFX(dnnlk__sel_part)(d + i * es, c + i, a + (ka ? i * es : 0), b + (kb ? i * es : 0), n - i,
                                          es, ka, kb, va, vb);
}

/* One row whose cond is constant along it: copy a contiguous source, or fill with a scalar. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__sel_copy)(char *d, const char *s, int64_t n, int es, int ks,
                                                           int nt) {
    const int64_t W = DNNLK__SEL_VB / es;
    DNNLK__SEL_V v;
    int64_t i = 0;
    if (ks && d == s) return; /* in-place: nothing to move */
    if (ks && !nt) {
        memcpy(d, s, (size_t)(n * es));
        return;
    }
    v = DNNLK__SFX(dnnlk__sel_bcast)(s, es);
    if (nt) {
        int64_t h = (int64_t)(((uintptr_t)0 - (uintptr_t)d) & (DNNLK__SEL_VB - 1)) / es;
        if (h > n) h = n;
        if (ks) memmove(d, s, (size_t)(h * es));
        else
            for (; i < h; i++) memcpy(d + i * es, s, (size_t)es);
        i = h;
    }
#define DNNLK__SEL_CSTEP(j) DNNLK__SFX(dnnlk__sel_store)(d + (j) * es, ks ? DNNLK__SFX(dnnlk__sel_load)(s + (j) * es) : v, nt)
    for (; i + 4 * W <= n; i += 4 * W) {
        DNNLK__SEL_CSTEP(i);
        DNNLK__SEL_CSTEP(i + W);
        DNNLK__SEL_CSTEP(i + 2 * W);
        DNNLK__SEL_CSTEP(i + 3 * W);
    }
    for (; i + W <= n; i += W) DNNLK__SEL_CSTEP(i);
#undef DNNLK__SEL_CSTEP
    if (ks) memmove(d + i * es, s + i * es, (size_t)((n - i) * es));
    else
        for (; i < n; i++) memcpy(d + i * es, s, (size_t)es);
}

/* Rows with a contiguous cond, specialised on element size, operand kinds and store kind. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__sel_rows_cc)(const dnnlk__select_blk *k, int es, int ka, int kb,
                                                              int nt) {
    int64_t r;
    for (r = 0; r < k->rows; r++)
        DNNLK__SFX(dnnlk__sel_row)(k->d + r * k->dp, k->c + r * k->cp, k->a + r * k->ap, k->b + r * k->bp, k->n,
                                   es, ka, kb, nt);
}

static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__sel_cc)(const dnnlk__select_blk *k, int ka, int kb) {
#define DNNLK__SEL_CASE(ES, KA, KB, NT) \
    case (ES) * 8 + (KA) * 4 + (KB) * 2 + (NT): DNNLK__SFX(dnnlk__sel_rows_cc)(k, ES, KA, KB, NT); break;
#define DNNLK__SEL_CASES(ES)                                                                              \
    DNNLK__SEL_CASE(ES, 0, 0, 0) DNNLK__SEL_CASE(ES, 0, 0, 1) DNNLK__SEL_CASE(ES, 0, 1, 0)              \
    DNNLK__SEL_CASE(ES, 0, 1, 1) DNNLK__SEL_CASE(ES, 1, 0, 0) DNNLK__SEL_CASE(ES, 1, 0, 1)              \
    DNNLK__SEL_CASE(ES, 1, 1, 0) DNNLK__SEL_CASE(ES, 1, 1, 1)
    switch (k->es * 8 + ka * 4 + kb * 2 + (k->nt ? 1 : 0)) {
        DNNLK__SEL_CASES(1)
        DNNLK__SEL_CASES(2)
        DNNLK__SEL_CASES(4)
        DNNLK__SEL_CASES(8)
    default: break;
    }
#undef DNNLK__SEL_CASES
#undef DNNLK__SEL_CASE
}

/* Rows whose cond is constant along each row: one copy or fill per row. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__sel_rows_c0)(const dnnlk__select_blk *k, int es, int ka, int kb,
                                                              int nt) {
    int64_t r;
    for (r = 0; r < k->rows; r++) {
        char *d = k->d + r * k->dp;
        if (k->c[r * k->cp]) DNNLK__SFX(dnnlk__sel_copy)(d, k->a + r * k->ap, k->n, es, ka, nt);
        else DNNLK__SFX(dnnlk__sel_copy)(d, k->b + r * k->bp, k->n, es, kb, nt);
    }
}

static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__sel_c0)(const dnnlk__select_blk *k, int ka, int kb) {
    int nt = k->nt ? 1 : 0;
    /* Only the chosen source's kind matters per row; specialise on es and nt, pass kinds. */
    switch (k->es * 2 + nt) {
    case 2: DNNLK__SFX(dnnlk__sel_rows_c0)(k, 1, ka, kb, 0); break;
    case 3: DNNLK__SFX(dnnlk__sel_rows_c0)(k, 1, ka, kb, 1); break;
    case 4: DNNLK__SFX(dnnlk__sel_rows_c0)(k, 2, ka, kb, 0); break;
    case 5: DNNLK__SFX(dnnlk__sel_rows_c0)(k, 2, ka, kb, 1); break;
    case 8: DNNLK__SFX(dnnlk__sel_rows_c0)(k, 4, ka, kb, 0); break;
    case 9: DNNLK__SFX(dnnlk__sel_rows_c0)(k, 4, ka, kb, 1); break;
    case 16: DNNLK__SFX(dnnlk__sel_rows_c0)(k, 8, ka, kb, 0); break;
    case 17: DNNLK__SFX(dnnlk__sel_rows_c0)(k, 8, ka, kb, 1); break;
    default: break;
    }
}

/* Short rows, one cond byte per row, d/a/b flat across rows: expand the cond to one byte per
 * element, a chunk at a time, and run the contiguous-cond kernel over the flat chunk. With a dense
 * cond (pitch 1) and rows of at most 16 elements, pshufb expands 16 elements per step from the
 * bytes of the next 16 rows: lane j of a step starting `off` elements into row r reads row
 * r + (off + j) / n. */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__sel_flat)(const dnnlk__select_blk *k, int ka, int kb) {
    unsigned char buf[DNNLK__SELECT_CHUNK];
    unsigned char idx[16][16], adv[16], nxt[16];
    const int64_t n = k->n, total = k->n * k->rows;
    const int es = k->es;
    int64_t p = 0, r = 0, off = 0;
    int fast = k->cp == 1 && n <= 16;
    dnnlk__select_blk sub = *k;
    if (fast) {
        int64_t o, j;
        for (o = 0; o < n; o++) {
            for (j = 0; j < 16; j++) idx[o][j] = (unsigned char)((o + j) / n);
            adv[o] = (unsigned char)((o + 16) / n);
            nxt[o] = (unsigned char)((o + 16) % n);
        }
    }
    sub.rows = 1;
    sub.cs = 1;
    sub.ds = sub.as = sub.bs = es;
    while (p < total) {
        int64_t len = total - p < DNNLK__SELECT_CHUNK ? total - p : DNNLK__SELECT_CHUNK, j = 0;
        if (fast) {
            for (; j + 16 <= len && r + 16 <= k->rows; j += 16) {
                __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(k->c + r));
                v = _mm_shuffle_epi8(v, _mm_loadu_si128((const __m128i *)(const void *)idx[off]));
                _mm_storeu_si128((__m128i *)(void *)(buf + j), v);
                r += adv[off];
                off = nxt[off];
            }
        }
        while (j < len) {
            int64_t t = n - off < len - j ? n - off : len - j;
            memset(buf + j, k->c[r * k->cp], (size_t)t);
            j += t;
            off += t;
            if (off == n) off = 0, r++;
        }
        sub.d = k->d + p * es;
        sub.c = buf;
        sub.a = k->a + (ka ? p * es : 0);
        sub.b = k->b + (kb ? p * es : 0);
        sub.n = len;
        DNNLK__SFX(dnnlk__sel_cc)(&sub, ka, kb);
        p += len;
    }
}

/* Entry: one block of rows. */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__select_rows)(const dnnlk__select_blk *k) {
    const int64_t es = k->es;
    int ka = k->as == es ? 1 : k->as == 0 ? 0 : -1;
    int kb = k->bs == es ? 1 : k->bs == 0 ? 0 : -1;
    if (k->ds != es || ka < 0 || kb < 0 || (k->cs != 0 && k->cs != 1)) {
        dnnlk__select_rows_c(k);
        return;
    }
    if (k->cs == 1) {
        DNNLK__SFX(dnnlk__sel_cc)(k, ka, kb);
    } else if (k->rows > 1 && k->n * es < DNNLK__SELECT_SHORT_ROW_BYTES && k->dp == k->n * es &&
               k->ap == (ka ? k->n * es : 0) && k->bp == (kb ? k->n * es : 0)) {
        DNNLK__SFX(dnnlk__sel_flat)(k, ka, kb);
    } else {
        DNNLK__SFX(dnnlk__sel_c0)(k, ka, kb);
    }
    if (k->nt) _mm_sfence();
}

#undef DNNLK__SEL_VB
#undef DNNLK__SEL_V
#undef DNNLK__SEL_M
