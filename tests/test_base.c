/* base.h: status and dtype tables, f16/bf16 conversion against independent oracles.
 * Oracles: bf16 — the nearest of the two bracketing bf16 values, chosen in double, ties to even;
 * f16 — decode by ldexp, and encode by the CPU's own F16C instruction where it has one.
 * `make test` sweeps a strided sample of all 2^32 floats; `make test-exhaustive` sweeps them all. */
#include "harness.h"

static int exhaustive(void) { return getenv("DNNLK_TEST_EXHAUSTIVE") != NULL; }

/* Floats to sweep: every float when exhaustive, else a stride that still visits every exponent
 * and many mantissa patterns, plus the neighbourhood of every rounding boundary of bf16/f16. */
static uint64_t sweep_step(void) { return exhaustive() ? 1 : (uint64_t)(4093 / th_scale()) | 1; }

TEST(status_and_dtype_tables) {
    CHECK_EQ(dnnlk_success, 0);
    CHECK_EQ(dnnlk_out_of_memory, 1);
    CHECK_EQ(dnnlk_invalid_arguments, 2);
    CHECK_EQ(dnnlk_unimplemented, 3);
    CHECK_EQ(dnnlk_invalid_shape, 9);
    CHECK_EQ(dnnlk_invalid_data_type, 10);
    CHECK(strcmp(dnnlk_status_str(dnnlk_invalid_data_type), "invalid_data_type") == 0);
    CHECK(strcmp(dnnlk_status_str((dnnlk_status)77), "unknown_status") == 0);
    CHECK_EQ(dnnlk_f16, 1);
    CHECK_EQ(dnnlk_bf16, 2);
    CHECK_EQ(dnnlk_f32, 3);
    CHECK_EQ(dnnlk_s32, 4);
    CHECK_EQ(dnnlk_s8, 5);
    CHECK_EQ(dnnlk_u8, 6);
    CHECK_EQ(dnnlk_f64, 7);
    CHECK_EQ(dnnlk_boolean, 8);
    CHECK_EQ(dnnlk_dtype_size(dnnlk_boolean), sizeof(_Bool));
    CHECK_EQ(dnnlk_dtype_size(dnnlk_f16), 2);
    CHECK_EQ(dnnlk_dtype_size(dnnlk_f64), 8);
    CHECK_EQ(dnnlk_dtype_size(dnnlk_s64), 8);
    CHECK_EQ(dnnlk_dtype_size(dnnlk_dtype_undef), 0);
    CHECK_EQ(dnnlk_dtype_size((dnnlk_dtype)99), 0);
    CHECK(strcmp(dnnlk_dtype_name(dnnlk_bf16), "bf16") == 0);
}

/* Every value from -8 to 300 (each dtype, the gaps between them, the values past them): the size
 * table against the sizes written out one by one. */
static size_t dtype_size_ref(int t) {
    if (t == dnnlk_s8 || t == dnnlk_u8 || t == dnnlk_boolean || t == dnnlk_f8_e5m2 || t == dnnlk_f8_e4m3) return 1;
    if (t == dnnlk_f16 || t == dnnlk_bf16 || t == dnnlk_s16 || t == dnnlk_u16) return 2;
    if (t == dnnlk_f32 || t == dnnlk_s32) return 4;
    if (t == dnnlk_f64 || t == dnnlk_s64 || t == dnnlk_u64) return 8;
    return 0;
}

TEST(dtype_size_of_every_value) {
    int t;
    for (t = -8; t <= 300; t++) {
        CHECK_EQ(dnnlk_dtype_size((dnnlk_dtype)t), dtype_size_ref(t));
        CHECK_EQ(dnnlk_dtype_bits((dnnlk_dtype)t), t == dnnlk_s4 || t == dnnlk_u4 ? 4 : 8 * (int)dtype_size_ref(t));
    }
}

/* Nearest bf16 to finite f, ties to even, chosen in double. Past the largest finite bf16 the
 * upper neighbour is infinity, which IEEE rounding places at 2^128 for this purpose. */
static uint16_t bf16_oracle(float f) {
    uint32_t u = dnnlk__f32_bits(f), lo = u & 0xffff0000u, hi = lo + 0x10000u;
    double d = f, dl = dnnlk__f32_from_bits(lo), dh;
    if ((u & 0xffffu) == 0) return (uint16_t)(u >> 16);
    if ((hi & 0x7fffffffu) == 0x7f800000u) dh = (u >> 31) ? -ldexp(1.0, 128) : ldexp(1.0, 128);
    else dh = dnnlk__f32_from_bits(hi);
    if (fabs(d - dl) < fabs(dh - d)) return (uint16_t)(lo >> 16);
    if (fabs(d - dl) > fabs(dh - d)) return (uint16_t)(hi >> 16);
    return (uint16_t)(((lo >> 16) & 1) ? hi >> 16 : lo >> 16);
}

TEST(bf16_conversion_matches_nearest_even) {
    uint64_t step = sweep_step(), i;
    long bad = 0;
    for (i = 0; i < (1ull << 32); i += step) {
        float f = dnnlk__f32_from_bits((uint32_t)i);
        uint16_t h = dnnlk_f32_to_bf16(f);
        if (f != f) {
            if (!((h & 0x7f80u) == 0x7f80u && (h & 0x7fu) != 0 && (h >> 15) == (i >> 31))) bad++;
        } else if (h != bf16_oracle(f)) {
            if (bad++ < 5) CHECK_MSG(0, "bf16(%08x) = %04x, want %04x", (unsigned)i, h, bf16_oracle(f));
        }
    }
    CHECK_EQ(bad, 0);
    /* Every bf16 decodes to the f32 with the same top half. */
    for (i = 0; i < 65536; i++) CHECK_EQ(dnnlk__f32_bits(dnnlk_bf16_to_f32((uint16_t)i)), (uint32_t)i << 16);
    /* Ties: 1 + 2^-8 is halfway between 1 and 1 + 2^-7 and goes to even (1). */
    CHECK_EQ(dnnlk_f32_to_bf16(1.0f + 1.0f / 256), 0x3f80);
    CHECK_EQ(dnnlk_f32_to_bf16(1.0f + 3.0f / 256), 0x3f82);
    /* A NaN whose payload sits only in the low half stays a NaN. */
    CHECK_EQ(dnnlk_f32_to_bf16(dnnlk__f32_from_bits(0x7f800001u)), 0x7fc0);
    CHECK_EQ(dnnlk_f32_to_bf16(dnnlk__f32_from_bits(0xff800001u)), 0xffc0);
}

static double f16_decode_oracle(uint16_t h) {
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : HUGE_VAL) : ldexp(1024 + m, e - 25);
    return (h >> 15) ? -v : v;
}

TEST(f16_decode_every_value) {
    int i;
    for (i = 0; i < 65536; i++) {
        float f = dnnlk_f16_to_f32((uint16_t)i);
        double want = f16_decode_oracle((uint16_t)i);
        if (want != want) {
            CHECK_MSG(f != f, "f16 %04x should decode to NaN", i);
            /* The payload is kept (shifted into the f32 mantissa). */
            CHECK_EQ(dnnlk__f32_bits(f) & 0x7fffffu, (uint32_t)(i & 0x3ff) << 13);
        } else {
            CHECK_MSG((double)f == want && !signbit(f) == !signbit(want), "f16 %04x -> %g, want %g", i, f, want);
        }
    }
}

#if DNNLK__X86
__attribute__((target("f16c"))) static uint16_t f16_encode_hw(float f) {
    return (uint16_t)_mm_extract_epi16(_mm_cvtps_ph(_mm_set_ss(f), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC), 0);
}
#elif DNNLK__NEON
static uint16_t f16_encode_hw(float f) { /* FCVTN, the conversion vec_neon.h stores f16 with */
    return vget_lane_u16(vreinterpret_u16_f16(vcvt_f16_f32(vdupq_n_f32(f))), 0);
}
#endif

TEST(f16_encode_matches_hardware) {
#if DNNLK__X86 || DNNLK__NEON
    uint64_t step = sweep_step(), i;
    long bad = 0;
    if (DNNLK__X86 && dnnlk_cpu_isa() < dnnlk_isa_avx2) SKIP("no F16C to compare with");
    for (i = 0; i < (1ull << 32); i += step) {
        float f = dnnlk__f32_from_bits((uint32_t)i);
        uint16_t ours = dnnlk_f32_to_f16(f), hw = f16_encode_hw(f);
        if (ours != hw && bad++ < 5) CHECK_MSG(0, "f16(%08x) = %04x, the hardware says %04x", (unsigned)i, ours, hw);
    }
    /* The boundaries of every f16 rounding interval, where errors would hide. */
    for (i = 0; i < 0x7c00; i++) {
        double mid = (f16_decode_oracle((uint16_t)i) + f16_decode_oracle((uint16_t)(i + 1))) / 2;
        float f = (float)mid;
        int d;
        for (d = -2; d <= 2; d++) {
            float g = dnnlk__f32_from_bits(dnnlk__f32_bits(f) + (uint32_t)d);
            if (dnnlk_f32_to_f16(g) != f16_encode_hw(g) && bad++ < 5) CHECK_MSG(0, "f16 boundary %08x", dnnlk__f32_bits(g));
            if (dnnlk_f32_to_f16(-g) != f16_encode_hw(-g) && bad++ < 5) CHECK_MSG(0, "f16 boundary -%08x", dnnlk__f32_bits(g));
        }
    }
    CHECK_EQ(bad, 0);
#else
    SKIP("neither x86 nor aarch64: no f16 conversion instruction to compare with");
#endif
}

TEST(f16_round_trip_and_specials) {
    int i;
    for (i = 0; i < 65536; i++) {
        float f = dnnlk_f16_to_f32((uint16_t)i);
        if (f == f) CHECK_EQ(dnnlk_f32_to_f16(f), i);
        else CHECK_EQ(dnnlk_f32_to_f16(f) & 0x7e00, 0x7e00); /* quiet NaN */
    }
    CHECK_EQ(dnnlk_f32_to_f16(65504.0f), 0x7bff);
    CHECK_EQ(dnnlk_f32_to_f16(65519.99f), 0x7bff);
    CHECK_EQ(dnnlk_f32_to_f16(65520.0f), 0x7c00); /* halfway to 65536 rounds to even: overflow */
    CHECK_EQ(dnnlk_f32_to_f16(-1e10f), 0xfc00);
    CHECK_EQ(dnnlk_f32_to_f16(ldexpf(1.0f, -24)), 0x0001);
    CHECK_EQ(dnnlk_f32_to_f16(ldexpf(1.0f, -25)), 0x0000);             /* tie to even: 0 */
    CHECK_EQ(dnnlk_f32_to_f16(ldexpf(3.0f, -25)), 0x0002);             /* tie to even: 2 */
    CHECK_EQ(dnnlk_f32_to_f16(-ldexpf(1.0f, -30)), 0x8000);            /* underflow keeps sign */
    CHECK_EQ(dnnlk_f32_to_f16(dnnlk__f32_from_bits(0x7f800001u)) & 0x7e00, 0x7e00);
}

TEST(float_load_store_helpers) {
    unsigned char buf[4];
    const dnnlk_dtype types[3] = {dnnlk_f32, dnnlk_bf16, dnnlk_f16};
    int k;
    for (k = 0; k < 3; k++) {
        dnnlk__store_from_f32(buf, types[k], 1.5f);
        CHECK(dnnlk__load_as_f32(buf, types[k]) == 1.5f);
        dnnlk__store_from_f32(buf, types[k], -0.0f);
        CHECK(signbit(dnnlk__load_as_f32(buf, types[k])));
    }
    CHECK(dnnlk__is_float_dtype(dnnlk_bf16) && !dnnlk__is_float_dtype(dnnlk_s32));
}

int main(void) {
    RUN(status_and_dtype_tables);
    RUN(dtype_size_of_every_value);
    RUN(bf16_conversion_matches_nearest_even);
    RUN(f16_decode_every_value);
    RUN(f16_encode_matches_hardware);
    RUN(f16_round_trip_and_specials);
    RUN(float_load_store_helpers);
    return th_summary();
}
