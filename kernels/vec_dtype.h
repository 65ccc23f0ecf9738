/* dnnl_kernels — vec_dtype.h: loads and stores of a whole vector of elements of a tensor dtype as
 * f32 lanes, written once on top of each level's primitives (no include guard: vec.h includes it
 * after the level's header; vec_end.h removes the names). The dtype argument is a constant at
 * every call site after inlining, so the branches fold away.
 *
 *   dnnlk__vf_load_dt(p, dt)         DNNLK__VF_N elements of dtype dt (f32, bf16, f16, u8, s8)
 *                                    at p (any byte alignment) as f32 lanes, exactly
 *   dnnlk__vf_load_dt_scan(p, dt)    the same, f32 through dnnlk__vf_loadu_scan: for scans that
 *                                    read and compare a stream (vec.h says when it pays)
 *   dnnlk__vs_load_dt(p, dt)         DNNLK__VS_N f32, bf16 or f16 elements as the scan vector's lanes
 *   dnnlk__vf_store_dt(p, dt, v, nt) v as DNNLK__VF_N elements of dtype dt (f32, bf16, f16;
 *                                    round to nearest even, NaN kept NaN); nt: stream an f32
 *                                    vector (p aligned to the vector). Half-width outputs are
 *                                    stored plainly: a streaming store of half a vector measured
 *                                    no faster, and keeps the alignment rule of f32 only.
 * And vec.h's dnnlk__vi_pack4_u8_sign, where the level has no faster form of its own. */

#if DNNLK__ISA == 0 && !defined(DNNLK__VEC_DTYPE_0)
#define DNNLK__VEC_DTYPE_0
#define DNNLK__VEC_DTYPE_DEFINE
#elif DNNLK__ISA == 1 && !defined(DNNLK__VEC_DTYPE_1)
#define DNNLK__VEC_DTYPE_1
#define DNNLK__VEC_DTYPE_DEFINE
#elif DNNLK__ISA == 2 && !defined(DNNLK__VEC_DTYPE_2)
#define DNNLK__VEC_DTYPE_2
#define DNNLK__VEC_DTYPE_DEFINE
#elif DNNLK__ISA == 3 && !defined(DNNLK__VEC_DTYPE_3)
#define DNNLK__VEC_DTYPE_3
#define DNNLK__VEC_DTYPE_DEFINE
#elif DNNLK__ISA == 4 && !defined(DNNLK__VEC_DTYPE_4)
#define DNNLK__VEC_DTYPE_4
#define DNNLK__VEC_DTYPE_DEFINE
#endif

#ifdef DNNLK__VEC_DTYPE_DEFINE
#undef DNNLK__VEC_DTYPE_DEFINE
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__vf_load_dt_fn)(const void *p, int dt) {
    if (dt == (int)dnnlk_f32) return dnnlk__vf_loadu((const float *)p);
    if (dt == (int)dnnlk_bf16) return dnnlk__vf_load_bf16((const uint16_t *)p);
    if (dt == (int)dnnlk_f16) return dnnlk__vf_load_f16((const uint16_t *)p);
    return dnnlk__vi_to_vf(dnnlk__vi_load_i8(p, dt == (int)dnnlk_s8));
}
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__vf_load_dt_scan_fn)(const void *p, int dt) {
    if (dt == (int)dnnlk_f32) return dnnlk__vf_loadu_scan((const float *)p);
    return DNNLK__SFX(dnnlk__vf_load_dt_fn)(p, dt);
}
static DNNLK__FORCEINLINE dnnlk__vs DNNLK__SFX(dnnlk__vs_load_dt_fn)(const void *p, int dt) {
    if (dt == (int)dnnlk_f32) return dnnlk__vs_loadu((const float *)p);
    if (dt == (int)dnnlk_bf16) return dnnlk__vs_load_bf16((const uint16_t *)p);
    return dnnlk__vs_load_f16((const uint16_t *)p);
}
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__vf_store_dt_fn)(void *p, int dt, dnnlk__vf v, int nt) {
    if (dt == (int)dnnlk_f32) {
        if (nt) dnnlk__vf_stream((float *)p, v);
        else dnnlk__vf_storeu((float *)p, v);
    } else if (dt == (int)dnnlk_bf16) {
        dnnlk__vf_store_bf16((uint16_t *)p, v);
    } else {
        dnnlk__vf_store_f16((uint16_t *)p, v);
    }
}
#ifndef dnnlk__vi_pack4_u8_sign
/* the level has no faster form: the top clamp on the s32 lanes, the bottom one by the pack's
 * unsigned saturation; the signs packed like the codes (signed saturation keeps each lane's sign
 * bit) and bit 7 taken from them by one bit select */
static DNNLK__FORCEINLINE dnnlk__vi DNNLK__SFX(dnnlk__vi_pack4_u8_sign_fn)(dnnlk__vi a, dnnlk__vi b, dnnlk__vi c, dnnlk__vi d,
                                                                       dnnlk__vi ua, dnnlk__vi ub, dnnlk__vi uc,
                                                                       dnnlk__vi ud, int16_t z, int maxc) {
    const dnnlk__vi hi = dnnlk__vi_set1(maxc - z);
    const dnnlk__vi code = maxc < 255 ? dnnlk__vi_pack4_sat_i8(dnnlk__vi_min(a, hi), dnnlk__vi_min(b, hi), dnnlk__vi_min(c, hi),
                                                               dnnlk__vi_min(d, hi), z, 0)
                                      : dnnlk__vi_pack4_sat_i8(a, b, c, d, z, 0);
    return dnnlk__vi_bitselect(dnnlk__vi_set1((int32_t)0x80808080u), dnnlk__vi_pack4_sat_i8(ua, ub, uc, ud, 0, 1), code);
}
#endif
#endif

#define dnnlk__vf_load_dt(p, dt) DNNLK__SFX(dnnlk__vf_load_dt_fn)((const void *)(p), (int)(dt))
#define dnnlk__vf_load_dt_scan(p, dt) DNNLK__SFX(dnnlk__vf_load_dt_scan_fn)((const void *)(p), (int)(dt))
#define dnnlk__vs_load_dt(p, dt) DNNLK__SFX(dnnlk__vs_load_dt_fn)((const void *)(p), (int)(dt))
#define dnnlk__vf_store_dt(p, dt, v, nt) DNNLK__SFX(dnnlk__vf_store_dt_fn)((void *)(p), (int)(dt), (v), (nt))
#ifndef dnnlk__vi_pack4_u8_sign
#define dnnlk__vi_pack4_u8_sign(a, b, c, d, ua, ub, uc, ud, z, maxc) \
    DNNLK__SFX(dnnlk__vi_pack4_u8_sign_fn)((a), (b), (c), (d), (ua), (ub), (uc), (ud), (z), (maxc))
#endif
