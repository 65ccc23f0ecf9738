/* dnnl_kernels — gather.h: the strided / half-precision row gather and scatter that several
 * kernel bodies share (gather_simd.h), compiled once per level here; eltwise.h and softmax.h
 * include this header before instantiating their bodies, which then call
 * DNNLK__SFX(dnnlk__gather_f32) / DNNLK__SFX(dnnlk__scatter_f32) of their own level. */
#ifndef DNNLK_GATHER_H
#define DNNLK_GATHER_H

#include "base.h"
#include "cpu.h"

#define DNNLK__SIMD_BODY "gather_simd.h"
#include "simd_instantiate.h"

#endif /* DNNLK_GATHER_H */
