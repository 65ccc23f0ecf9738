/* Compile-time ISA selection: built once with -DDNNLK_MAX_ISA=1 (the cap must hold whatever the
 * CPU has) and once with -march=native (when the includer's flags cover the cap, the level is a
 * compile-time constant and the target regions must still build without inlining errors). */
#include <stdio.h>

#include "../../dnnl_kernels.h"

int main(void) {
    dnnlk_isa isa = dnnlk_max_isa();
    int cpu = (int)dnnlk_cpu_isa();
    int want = cpu < DNNLK_MAX_ISA ? cpu : DNNLK_MAX_ISA;
#if DNNLK__STATIC_ISA
    want = DNNLK__COMPILED_ISA < DNNLK_MAX_ISA ? DNNLK__COMPILED_ISA : DNNLK_MAX_ISA;
#endif
    if ((int)isa != want) {
        printf("compile-time cap check failed: running %s, expected level %d\n", dnnlk_isa_name(isa), want);
        return 1;
    }
    printf("compile-time selection: cap %d, compiled level %d, static %d, running %s\n", DNNLK_MAX_ISA,
           DNNLK__COMPILED_ISA, DNNLK__STATIC_ISA, dnnlk_isa_name(isa));
    return 0;
}
