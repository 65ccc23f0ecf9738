/* The CMake consumer's program: softmax over three floats (softmax calls libm's log, so this also
 * checks that the target brings -lm), and the version the header says against the one CMake found. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dnnl_kernels.h"

int main(void) {
    float x[3] = {1, 2, 3}, y[3];
    dnnlk_tensor src = {x, dnnlk_f32, 1, {3}, {1}}, dst = {y, dnnlk_f32, 1, {3}, {1}};
    dnnlk_status st = dnnlk_log_softmax(&src, 0, &dst, 0, 1);
    /* log_softmax(x)_2 = 3 - log(e + e^2 + e^3) = -log(1 + e^-1 + e^-2) */
    double want = -log(1 + exp(-1.0) + exp(-2.0));
    if (st != dnnlk_success || fabs(y[2] - want) > 1e-6) {
        printf("consumer: log_softmax %s, y[2] = %.9g, want %.9g\n", dnnlk_status_str(st), y[2], want);
        return 1;
    }
    if (strcmp(DNNLK_FOUND_VERSION, "(add_subdirectory)") != 0 && strcmp(DNNLK_FOUND_VERSION, DNNLK_VERSION_STRING) != 0) {
        printf("consumer: CMake found version %s, the header says %s\n", DNNLK_FOUND_VERSION, DNNLK_VERSION_STRING);
        return 1;
    }
    printf("consumer: dnnl_kernels %s (CMake: %s), log_softmax ok\n", DNNLK_VERSION_STRING, DNNLK_FOUND_VERSION);
    return 0;
}
