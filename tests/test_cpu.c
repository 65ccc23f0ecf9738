/* cpu.h: detection, caps, names, and that every level's target region really runs. */
#include "harness.h"

TEST(isa_names_round_trip) {
    int l;
    for (l = 0; l <= 3; l++) CHECK_EQ(dnnlk__isa_from_name(dnnlk_isa_name((dnnlk_isa)l)), l);
    CHECK_EQ(dnnlk__isa_from_name("AVX2"), 2);
    CHECK_EQ(dnnlk__isa_from_name("Neon"), dnnlk_isa_neon); /* on every platform: a cap names a slot */
    CHECK_EQ(dnnlk__isa_from_name("avx"), -1);
    CHECK_EQ(dnnlk__isa_from_name("avx5120"), -1);
    CHECK_EQ(dnnlk__isa_from_name(""), -1);
    CHECK_EQ(dnnlk__isa_from_name(NULL), -1);
    CHECK(strcmp(dnnlk_isa_name((dnnlk_isa)7), "unknown") == 0);
}

TEST(set_max_isa_caps_and_restores) {
    int top = (int)dnnlk_cpu_isa(), l;
    for (l = 0; l <= 3; l++) {
        CHECK_EQ(dnnlk_set_max_isa((dnnlk_isa)l), dnnlk_success);
#if DNNLK__STATIC_ISA /* the includer's flags fixed the level: caps are documented to do nothing */
        CHECK_EQ(dnnlk_max_isa(), DNNLK__COMPILED_ISA < DNNLK_MAX_ISA ? DNNLK__COMPILED_ISA : DNNLK_MAX_ISA);
#else
        CHECK_EQ(dnnlk_max_isa(), l < top ? l : top);
#endif
    }
    CHECK_EQ(dnnlk_set_max_isa((dnnlk_isa)4), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_set_max_isa((dnnlk_isa)-1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_max_isa(), top); /* refused values change nothing */
}

TEST(detection_agrees_with_compiler_builtins) {
#if DNNLK__X86
    int expect = 0;
    __builtin_cpu_init();
    if (__builtin_cpu_supports("sse4.1")) expect = 1;
    if (expect == 1 && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
        __builtin_cpu_supports("bmi2"))
        expect = 2;
    if (expect == 2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512cd"))
        expect = 3;
    CHECK_EQ(dnnlk_cpu_isa(), expect);
#elif DNNLK__NEON /* Advanced SIMD is baseline on aarch64: nothing to detect */
    CHECK_EQ(dnnlk_cpu_isa(), dnnlk_isa_neon);
    CHECK(strcmp(dnnlk_isa_name(dnnlk_isa_neon), "neon") == 0);
#else
    CHECK_EQ(dnnlk_cpu_isa(), dnnlk_isa_scalar);
#endif
}

/* The environment cap is read at the first resolve; run_all.sh runs this program once more with
 * DNNLK_MAX_ISA=sse41 and DNNLK_EXPECT_ENV_CAP=sse41. This must be the first case to run. */
TEST(environment_cap) {
    const char *want = getenv("DNNLK_EXPECT_ENV_CAP");
    int top = (int)dnnlk_cpu_isa();
    if (want) {
        int cap = dnnlk__isa_from_name(want);
        CHECK(cap >= 0);
        CHECK_EQ(dnnlk_max_isa(), cap < top ? cap : top);
        dnnlk_set_max_isa(dnnlk_isa_avx512); /* a runtime cap cannot lift the environment's */
        CHECK_EQ(dnnlk_max_isa(), cap < top ? cap : top);
    } else {
        CHECK_EQ(dnnlk_max_isa(), top);
    }
}

int main(void) {
    RUN(environment_cap);
    RUN(isa_names_round_trip);
    if (getenv("DNNLK_EXPECT_ENV_CAP")) return th_summary();
    RUN(set_max_isa_caps_and_restores);
    RUN(detection_agrees_with_compiler_builtins);
    return th_summary();
}
