/* dnnl_kernels benchmark: one program, one table. `make bench` builds it with the project's default
 * flags (no -march) and runs every case group; `build/<cc>/bench WORD...` runs the groups whose
 * name contains a word. Exits non-zero if any result check failed. */
#include "harness.h"
#include "bench_loop.h"
#include "bench_rng.h"
#include "bench_dropout.h"
#include "bench_argops.h"
#include "bench_quantresize.h"
#include "bench_select.h"
#include "bench_convert.h"
#include "bench_norm.h"
#include "bench_mathops.h"
#include "bench_backward.h"
#include "bench_backward_math.h"
#include "bench_fused.h"
#include "bench_fused_ew.h"

int main(int argc, char **argv) {
    bench_argc = argc;
    bench_argv = argv;
    bench_reps_from_env();
    bench_threads_from_env();
    bench_history_open(argc, argv);
    bench_csv_open();
    printf("dnnl_kernels %s bench: cpu isa %s, running %s; times are the minimum of %d samples", DNNLK_VERSION_STRING,
           dnnlk_isa_name(dnnlk_cpu_isa()), dnnlk_isa_name(dnnlk_max_isa()), bench_reps);
    if (bench_rounds > 1) printf(" in each of %d rounds (peers alike)", bench_rounds);
    printf("\n");
    bench_header();
    bench_loop();
    bench_rng();
    bench_dropout();
    bench_argops();
    bench_quantresize();
    bench_select();
    bench_convert();
    bench_norm();
    bench_mathops();
    bench_backward();
    bench_backward_math();
    bench_fused();
    bench_fused_ew();
    bench_history_close();
    bench_csv_close();
    if (bench_failures) printf("%d result check(s) FAILED\n", bench_failures);
    return bench_failures ? 1 : 0;
}
