/* Probe body for tests/test_vec.c: instantiated per ISA through kernels/simd_instantiate.h, so the
 * target regions and the vector layer are compiled exactly as a kernel's body is. Each entry maps
 * n floats (n a multiple of the lane count, then a tail) through one vector-layer operation, chosen
 * by the vec_probe_* codes that test_vec.c defines before the instantiation. */

static DNNLK__NOINLINE void DNNLK__SFX(vec_probe)(int op, const float *src, float *dst, uint16_t *half, size_t n) {
    size_t i = 0;
    for (; i + DNNLK__VF_N <= n; i += DNNLK__VF_N) {
        dnnlk__vf v = dnnlk__vf_loadu(src + i);
        switch (op) {
        case vec_probe_bf16:
            dnnlk__vf_store_bf16(half + i, v);
            dnnlk__vf_storeu(dst + i, dnnlk__vf_load_bf16(half + i));
            break;
        case vec_probe_f16:
            dnnlk__vf_store_f16(half + i, v);
            dnnlk__vf_storeu(dst + i, dnnlk__vf_load_f16(half + i));
            break;
        case vec_probe_load_f16: dnnlk__vf_storeu(dst + i, dnnlk__vf_load_f16(half + i)); break;
        case vec_probe_round: dnnlk__vf_storeu(dst + i, dnnlk__vf_round_even(v)); break;
        case vec_probe_floor: dnnlk__vf_storeu(dst + i, dnnlk__vf_floor(v)); break;
        default: dnnlk__vf_storeu(dst + i, v); break;
        }
    }
    if (op == vec_probe_copy_n && i < n) dnnlk__vf_storeu_n(dst + i, dnnlk__vf_loadu_n(src + i, n - i), n - i);
}

static DNNLK__NOINLINE int DNNLK__SFX(vec_probe_lanes)(void) { return DNNLK__VF_N; }

/* Lane l of the compare bits must be lane l's result; blend must pick per lane. */
static DNNLK__NOINLINE unsigned DNNLK__SFX(vec_probe_cmp_blend)(const float *a, const float *b, float *out) {
    dnnlk__vf va = dnnlk__vf_loadu(a), vb = dnnlk__vf_loadu(b);
    dnnlk__vmask m = dnnlk__vf_cmplt(va, vb);
    dnnlk__vf_storeu(out, dnnlk__vf_blend(m, va, vb));
    return dnnlk__vmask_bits(m);
}

/* The s32 and NaN-aware operations of one vector: out holds min, max, blend(a > b, a, b) and the
 * signed and unsigned byte widenings; bits the lane bits of the compares and mask combinations. */
static DNNLK__NOINLINE void DNNLK__SFX(vec_probe_int)(const int32_t *a, const int32_t *b, const float *fa,
                                                      const float *fb, const uint8_t *bytes, int32_t *out,
                                                      unsigned *bits) {
    const int N = DNNLK__VF_N;
    dnnlk__vi va = dnnlk__vi_loadu(a), vb = dnnlk__vi_loadu(b);
    dnnlk__vf x = dnnlk__vf_loadu(fa), y = dnnlk__vf_loadu(fb);
    dnnlk__vmask gt = dnnlk__vi_cmpgt(va, vb), nle = dnnlk__vf_cmpnle(x, y), ord = dnnlk__vf_cmpord(x, y);
    dnnlk__vi_storeu(out, dnnlk__vi_min(va, vb));
    dnnlk__vi_storeu(out + N, dnnlk__vi_max(va, vb));
    dnnlk__vi_storeu(out + 2 * N, dnnlk__vi_blend(gt, va, vb));
    dnnlk__vi_storeu(out + 3 * N, dnnlk__vi_load_i8(bytes, 1));
    dnnlk__vi_storeu(out + 4 * N, dnnlk__vi_load_i8(bytes, 0));
    bits[0] = dnnlk__vmask_bits(dnnlk__vi_cmpeq(va, vb));
    bits[1] = dnnlk__vmask_bits(gt);
    bits[2] = dnnlk__vmask_bits(nle);
    bits[3] = dnnlk__vmask_bits(dnnlk__vf_cmpnge(x, y));
    bits[4] = dnnlk__vmask_bits(ord);
    bits[5] = dnnlk__vmask_bits(dnnlk__vmask_and(nle, ord));
    bits[6] = dnnlk__vmask_bits(dnnlk__vmask_or(nle, gt));
}

/* The operations whose x86 semantics another ISA must emulate: outf holds dnnlk__vf_min(a, b),
 * dnnlk__vf_max(a, b) (the second operand where either is NaN, and for two zeros) and
 * dnnlk__vf_max_neg0(a); outi dnnlk__vf_to_vi_trunc(a) (INT32_MIN for NaN and out of range). */
static DNNLK__NOINLINE void DNNLK__SFX(vec_probe_x86_order)(const float *a, const float *b, float *outf,
                                                            int32_t *outi) {
    const int N = DNNLK__VF_N;
    dnnlk__vf x = dnnlk__vf_loadu(a), y = dnnlk__vf_loadu(b);
    dnnlk__vf_storeu(outf, dnnlk__vf_min(x, y));
    dnnlk__vf_storeu(outf + N, dnnlk__vf_max(x, y));
    dnnlk__vf_storeu(outf + 2 * N, dnnlk__vf_max_neg0(x));
    dnnlk__vi_storeu(outi, dnnlk__vf_to_vi_trunc(x));
}

/* The quant/resize names on one group of four vectors: out8 the bytes of dnnlk__vi_pack4_sat_i8
 * (4N), of dnnlk__vi_pack4_u8 on w (4N) and of dnnlk__vi_store_u8 on a (N, then 0x5a guard bytes);
 * outf dnnlk__vf_sub_round_even(x), dnnlk__vf_permute(x, idx), dnnlk__vf_gather(g, idx); outi
 * dnnlk__vf_to_vi_round_even(x). */
static DNNLK__NOINLINE void DNNLK__SFX(vec_probe_q8)(const int32_t *abcd, const int32_t *w, int16_t z, int sgn,
                                                     const float *x, const int32_t *idx, const float *g,
                                                     uint8_t *out8, float *outf, int32_t *outi) {
    const int N = DNNLK__VF_N;
    dnnlk__vi a = dnnlk__vi_loadu(abcd), b = dnnlk__vi_loadu(abcd + N), c = dnnlk__vi_loadu(abcd + 2 * N),
              d = dnnlk__vi_loadu(abcd + 3 * N);
    dnnlk__vf v = dnnlk__vf_loadu(x);
    dnnlk__vi_storeu(out8, dnnlk__vi_pack4_sat_i8(a, b, c, d, z, sgn));
    dnnlk__vi_storeu(out8 + 4 * N, dnnlk__vi_pack4_u8(dnnlk__vi_loadu(w), dnnlk__vi_loadu(w + N),
                                                      dnnlk__vi_loadu(w + 2 * N), dnnlk__vi_loadu(w + 3 * N)));
    dnnlk__vi_store_u8(out8 + 8 * N, a);
    dnnlk__vf_storeu(outf, dnnlk__vf_sub_round_even(v));
    dnnlk__vf_storeu(outf + N, dnnlk__vf_permute(v, dnnlk__vi_loadu(idx)));
    dnnlk__vf_storeu(outf + 2 * N, dnnlk__vf_gather(g, idx));
    dnnlk__vi_storeu(outi, dnnlk__vf_to_vi_round_even(v));
}

/* dnnlk__vi_permute2 of the vectors at a and b by the DNNLK__VF_N indices at idx -> out. */
static DNNLK__NOINLINE void DNNLK__SFX(vec_probe_permute2)(const int32_t *a, const int32_t *b, const int32_t *idx,
                                                           int32_t *out) {
    dnnlk__vi_storeu(out, dnnlk__vi_permute2(dnnlk__vi_loadu(a), dnnlk__vi_loadu(b), dnnlk__vperm2_index(idx)));
}

/* dnnlk__vb_ziplo_elem / _ziphi_elem of one pair of vectors for es = 1, 2, 4: out gets, per es,
 * ziplo then ziphi (2 DNNLK__VB_N bytes); returns DNNLK__VB_N. */
static DNNLK__NOINLINE int DNNLK__SFX(vec_probe_zip)(const unsigned char *a, const unsigned char *b, unsigned char *out) {
    dnnlk__vb x = dnnlk__vb_loadu(a), y = dnnlk__vb_loadu(b);
    dnnlk__vb_storeu(out, dnnlk__vb_ziplo_elem(x, y, 1));
    dnnlk__vb_storeu(out + DNNLK__VB_N, dnnlk__vb_ziphi_elem(x, y, 1));
    dnnlk__vb_storeu(out + 2 * DNNLK__VB_N, dnnlk__vb_ziplo_elem(x, y, 2));
    dnnlk__vb_storeu(out + 3 * DNNLK__VB_N, dnnlk__vb_ziphi_elem(x, y, 2));
    dnnlk__vb_storeu(out + 4 * DNNLK__VB_N, dnnlk__vb_ziplo_elem(x, y, 4));
    dnnlk__vb_storeu(out + 5 * DNNLK__VB_N, dnnlk__vb_ziphi_elem(x, y, 4));
    return DNNLK__VB_N;
}

/* dnnlk__vf_ziplo / _ziphi of one pair of f32 vectors: out gets ziplo then ziphi (2 DNNLK__VF_N
 * floats); returns DNNLK__VF_N. */
static DNNLK__NOINLINE int DNNLK__SFX(vec_probe_fzip)(const float *a, const float *b, float *out) {
    dnnlk__vf x = dnnlk__vf_loadu(a), y = dnnlk__vf_loadu(b);
    dnnlk__vf_storeu(out, dnnlk__vf_ziplo(x, y));
    dnnlk__vf_storeu(out + DNNLK__VF_N, dnnlk__vf_ziphi(x, y));
    return DNNLK__VF_N;
}

/* dnnlk__v32_transpose on one tile; returns the tile's side (DNNLK__VT_N). */
static DNNLK__NOINLINE int DNNLK__SFX(vec_probe_transpose)(void *d, int64_t dp, const void *s, int64_t sp, int nt) {
    dnnlk__v32_transpose(d, dp, s, sp, nt);
    if (nt) dnnlk__vec_sfence();
    return DNNLK__VT_N;
}
