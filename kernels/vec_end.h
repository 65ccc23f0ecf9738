/* dnnl_kernels — vec_end.h: removes the names vec.h mapped, at the end of each level's region.
 * Keep in step with vec_scalar.h, vec_sse41.h, vec_avx2.h and vec_avx512.h: a name missing here
 * and defined differently by the next level is a macro redefinition (an error under -Werror), and
 * tests/test_vec.c checks that a sample of them is gone after the instantiation. */
#undef DNNLK__VF_N
#undef DNNLK__VEC_FMA
#undef DNNLK__VEC_PERMUTE_LUT
#undef dnnlk__vf
#undef dnnlk__vi
#undef dnnlk__vmask
#undef dnnlk__vf_loadu
#undef dnnlk__vf_storeu
#undef dnnlk__vf_stream
#undef dnnlk__vf_loadu_n
#undef dnnlk__vf_storeu_n
#undef dnnlk__vf_set1
#undef dnnlk__vf_zero
#undef dnnlk__vf_add
#undef dnnlk__vf_sub
#undef dnnlk__vf_mul
#undef dnnlk__vf_div
#undef dnnlk__vf_fmadd
#undef dnnlk__vf_nofuse
#undef dnnlk__vf_min
#undef dnnlk__vf_max
#undef dnnlk__vf_sqrt
#undef dnnlk__vf_and
#undef dnnlk__vf_or
#undef dnnlk__vf_xor
#undef dnnlk__vf_round_even
#undef dnnlk__vf_floor
#undef dnnlk__vf_cmplt
#undef dnnlk__vf_cmple
#undef dnnlk__vf_cmpgt
#undef dnnlk__vf_cmpge
#undef dnnlk__vf_cmpeq
#undef dnnlk__vf_cmpunord
#undef dnnlk__vmask_bits
#undef dnnlk__vf_blend
#undef dnnlk__vf_load_bf16
#undef dnnlk__vf_store_bf16
#undef dnnlk__vf_load_f16
#undef dnnlk__vf_store_f16
#undef dnnlk__vi_loadu
#undef dnnlk__vi_storeu
#undef dnnlk__vi_set1
#undef dnnlk__vi_add
#undef dnnlk__vi_sub
#undef dnnlk__vi_mullo
#undef dnnlk__vi_and
#undef dnnlk__vi_or
#undef dnnlk__vi_xor
#undef dnnlk__vi_slli
#undef dnnlk__vi_srli
#undef dnnlk__vi_srai
#undef dnnlk__vf_as_vi
#undef dnnlk__vi_as_vf
#undef dnnlk__vi_to_vf
#undef dnnlk__vf_to_vi_trunc
#undef dnnlk__vi_load_i8
#undef dnnlk__vi_min
#undef dnnlk__vi_max
#undef dnnlk__vi_cmpeq
#undef dnnlk__vi_cmpgt
#undef dnnlk__vi_blend
#undef dnnlk__vf_cmpnle
#undef dnnlk__vf_cmpnge
#undef dnnlk__vf_cmpord
#undef dnnlk__vmask_and
#undef dnnlk__vmask_or
#undef dnnlk__vi_store
#undef dnnlk__vi_stream
#undef dnnlk__vec_sfence
#undef dnnlk__vec_prefetch_l2
#undef dnnlk__vf_load_dt
#undef dnnlk__vf_store_dt

/* == select: byte and 16-bit lanes == */

/* == rng, dropout: 32x32->64 products, 64-bit lanes, bit packing == */

/* == softmax, norm: f64 lanes == */

/* == quant, resize: s32 lanes narrowed to bytes == */
#undef DNNLK__VB_N
#undef DNNLK__VEC_REDUCE
#undef DNNLK__VEC_CHEAP_DIV
#undef dnnlk__vb
#undef dnnlk__vi_pack4_u8
#undef dnnlk__vi_pack4_sat_i8
#undef dnnlk__vb_storeu
#undef dnnlk__vb_stream
#undef dnnlk__vi_store_u8
#undef dnnlk__vf_sub_round_even
#undef dnnlk__vf_to_vi_round_even
#undef dnnlk__vf_permute
#undef dnnlk__vf_gather

/* == vmath: what the math bodies ask of a level == */
