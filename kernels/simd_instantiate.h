/* dnnl_kernels — simd_instantiate.h: compiles one kernel body once per level.
 *
 * A kernel header writes its code once, in a body file without include guards, and says
 *
 *     #define DNNLK__SIMD_BODY "one_hot_simd.h"
 *     #include "simd_instantiate.h"
 *
 * The body is then included once per level, with
 *   DNNLK__ISA        0, 1, 2, 3 or 4 (scalar, SSE4.1, AVX2, AVX-512, NEON): for the vector layer's
 *                     headers only (vec.h picks the level's header with it); a body asks the
 *                     layer what a level offers (DNNLK__VF_N, DNNLK__VEC_FMA, ...), never this,
 *   DNNLK__SFX(name)  name_scalar / name_sse41 / name_avx2 / name_avx512 / name_neon (name every
 *                     function with it),
 *   the vector layer of vec.h mapped to that level (dnnlk__vf_add, DNNLK__VF_N, ...):
 *   - the scalar level on every platform, with no target region (the includer's own flags;
 *     vec_scalar.h keeps its bits those of SSE4.1 regardless);
 *   - SSE4.1, AVX2 and AVX-512 inside their target regions, on x86 builds without DNNLK_NO_SIMD;
 *   - NEON (vec_neon.h) on little-endian aarch64 builds without DNNLK_NO_SIMD.
 * So every entry of a body exists at every level the build has, and the op header dispatches
 * with DNNLK__DISPATCH(name, args) alone (cpu.h). A body that other bodies call into (the
 * row gather, the RNG generators) is instantiated by a header of its own, which their op headers
 * include before instantiating theirs.
 * Functions the body defines are static; its entry points should be DNNLK__NOINLINE and take
 * pointers and sizes only (no vector types across a target boundary), its helpers
 * DNNLK__FORCEINLINE. */
#ifndef DNNLK__SIMD_BODY
#error "define DNNLK__SIMD_BODY before including simd_instantiate.h"
#endif

DNNLK__NOINLINE_BEGIN
#define DNNLK__ISA 0
#define DNNLK__SFX(name) name##_scalar
#include "vec.h"
#include DNNLK__SIMD_BODY
#include "vec_end.h"
#undef DNNLK__SFX
#undef DNNLK__ISA
DNNLK__NOINLINE_END

#if DNNLK__X86
DNNLK__NOINLINE_BEGIN

#define DNNLK__ISA 1
#define DNNLK__SFX(name) name##_sse41
DNNLK__TARGET_PUSH_SSE41
#include "vec.h"
#include DNNLK__SIMD_BODY
#include "vec_end.h"
DNNLK__TARGET_POP
#undef DNNLK__SFX
#undef DNNLK__ISA

#define DNNLK__ISA 2
#define DNNLK__SFX(name) name##_avx2
DNNLK__TARGET_PUSH_AVX2
#include "vec.h"
#include DNNLK__SIMD_BODY
#include "vec_end.h"
DNNLK__TARGET_POP
#undef DNNLK__SFX
#undef DNNLK__ISA

#define DNNLK__ISA 3
#define DNNLK__SFX(name) name##_avx512
DNNLK__TARGET_PUSH_AVX512
#include "vec.h"
#include DNNLK__SIMD_BODY
#include "vec_end.h"
DNNLK__TARGET_POP
#undef DNNLK__SFX
#undef DNNLK__ISA

DNNLK__NOINLINE_END
#elif DNNLK__NEON
DNNLK__NOINLINE_BEGIN
/* NEON is baseline on aarch64: no target region */
#define DNNLK__ISA 4
#define DNNLK__SFX(name) name##_neon
#include "vec.h"
#include DNNLK__SIMD_BODY
#include "vec_end.h"
#undef DNNLK__SFX
#undef DNNLK__ISA
DNNLK__NOINLINE_END
#endif /* DNNLK__X86, DNNLK__NEON */

#undef DNNLK__SIMD_BODY
