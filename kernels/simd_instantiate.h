/* dnnl_kernels — simd_instantiate.h: compiles one kernel body once per x86 ISA.
 *
 * A kernel header writes its SIMD code once, in a body file without include guards, and says
 *
 *     #define DNNLK__SIMD_BODY "select_simd.h"
 *     #include "simd_instantiate.h"
 *
 * The body is then included three times, inside the SSE4.1, AVX2 and AVX-512 target regions, with
 *   DNNLK__ISA        1, 2 or 3 (for the rare `#if` an ISA needs),
 *   DNNLK__SFX(name)  name_sse41 / name_avx2 / name_avx512 (name every function with it),
 *   the vector layer of vec.h mapped to that ISA (dnnlk__vf_add, DNNLK__VF_N, ...).
 * Functions the body defines are static; its entry points should be DNNLK__NOINLINE and take
 * pointers and sizes only (no vector types across a target boundary), its helpers
 * DNNLK__FORCEINLINE. On non-x86 builds nothing is included and only scalar code exists. */
#ifndef DNNLK__SIMD_BODY
#error "define DNNLK__SIMD_BODY before including simd_instantiate.h"
#endif

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
#endif /* DNNLK__X86 */

#undef DNNLK__SIMD_BODY
