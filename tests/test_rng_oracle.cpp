// rng.h against libstdc++: std::mt19937, std::linear_congruential_engine (MCG31m1) and
// std::bernoulli_distribution over std::mt19937, on every ISA, parts and chained calls.
#include <random>
#include <vector>

#include "harness.h"

static const uint64_t seeds[] = {0, 1, 5489, 123456789, 4294967295u, 4294967296ull + 7};

TEST(mt19937_equals_std_isa) {
    for (uint64_t seed : seeds) {
        std::mt19937 e((std::mt19937::result_type)(seed & 0xffffffffu));
        std::vector<uint32_t> want(7000), got(7000);
        for (auto &w : want) w = (uint32_t)e();
        for (int nth = 1; nth <= 3; nth++) {
            dnnlk_rng r, end;
            dnnlk_rng_init(&r, dnnlk_rng_mt19937, seed, 0);
            std::fill(got.begin(), got.end(), 0u);
            for (int ith = 0; ith < nth; ith++) CHECK_EQ(dnnlk_rng_u32(&r, got.data(), 5000, &end, ith, nth), dnnlk_success);
            CHECK_EQ(dnnlk_rng_u32(&end, got.data() + 5000, 2000, NULL, 0, 1), dnnlk_success);
            CHECK_MSG(got == want, "seed %llu nth %d", (unsigned long long)seed, nth);
        }
        /* offset = discard */
        dnnlk_rng r;
        uint32_t v = 0;
        dnnlk_rng_init(&r, dnnlk_rng_mt19937, seed, 4321);
        dnnlk_rng_u32(&r, &v, 1, NULL, 0, 1);
        CHECK_EQ(v, want[4321]);
    }
}

// Skips long enough for the polynomial jump (DNNLK_MT_JUMP_MIN and up) against std::discard.
TEST(mt19937_jump_equals_std_discard_isa) {
    const unsigned long long ns[3] = {DNNLK_MT_JUMP_MIN, DNNLK_MT_JUMP_MIN + 4321, 3 * DNNLK_MT_JUMP_MIN + 623};
    for (int c = 0; c < (th_scaled(10) >= 10 ? 3 : 1); c++) {
        std::mt19937 e(2026u + (uint32_t)c);
        e.discard(ns[c]);
        std::vector<uint32_t> want(1000), got(1000);
        for (auto &w : want) w = (uint32_t)e();
        dnnlk_rng r;
        dnnlk_rng_init(&r, dnnlk_rng_mt19937, 2026u + (uint64_t)c, ns[c]);
        CHECK_EQ(dnnlk_rng_u32(&r, got.data(), 1000, NULL, 0, 1), dnnlk_success);
        CHECK_MSG(got == want, "n %llu", ns[c]);
    }
}

TEST(mcg31_equals_std_lcg_isa) {
    for (uint64_t seed : seeds) {
        // std's engine: x0 = seed mod m (0 -> 1), first output x1; VSL's first output is x0.
        std::linear_congruential_engine<uint32_t, 1132489760u, 0u, 2147483647u> e((uint32_t)(seed % 2147483647u));
        std::vector<uint32_t> want(3001), got(3001);
        want[0] = (uint32_t)(seed % 2147483647u) ? (uint32_t)(seed % 2147483647u) : 1u;
        for (size_t i = 1; i < want.size(); i++) want[i] = e();
        for (int nth = 1; nth <= 7; nth += 2) {
            dnnlk_rng r;
            dnnlk_rng_init(&r, dnnlk_rng_mcg31m1, seed, 0);
            for (int ith = 0; ith < nth; ith++) dnnlk_rng_u32(&r, got.data(), (int64_t)got.size(), NULL, ith, nth);
            CHECK_MSG(got == want, "seed %llu nth %d", (unsigned long long)seed, nth);
        }
    }
}

TEST(bernoulli_equals_std_isa) {
    const double ps[] = {0.0, 1.0, 0.5, 0.1, 0.9, 0.25, 1e-9, 1.0 - 1e-9, 0.123456789, 0.7};
    for (uint64_t seed : {1ull, 5489ull, 987654321ull})
        for (double p : ps) {
            std::mt19937 e((uint32_t)seed);
            std::bernoulli_distribution d(p);
            const int n = 3001;
            std::vector<uint8_t> want((n + 7) / 8, 0), got((n + 7) / 8, 0);
            for (int i = 0; i < n; i++) want[i / 8] |= (uint8_t)(d(e) << (i % 8));
            uint32_t next_std = (uint32_t)e();
            for (int nth = 1; nth <= 3; nth++) {
                dnnlk_rng r, end;
                dnnlk_rng_init(&r, dnnlk_rng_mt19937, seed, 0);
                for (int ith = 0; ith < nth; ith++)
                    CHECK_EQ(dnnlk_rng_bernoulli(&r, got.data(), n, p, &end, ith, nth), dnnlk_success);
                CHECK_MSG(got == want, "seed %llu p %g nth %d", (unsigned long long)seed, p, nth);
                uint32_t next = 0;
                dnnlk_rng_u32(&end, &next, 1, NULL, 0, 1);
                CHECK_EQ(next, next_std); /* two outputs per bit */
            }
            // chained: 1000 then 2001 bits (1000 is a multiple of 8)
            dnnlk_rng r, mid;
            dnnlk_rng_init(&r, dnnlk_rng_mt19937, seed, 0);
            std::fill(got.begin(), got.end(), 0);
            dnnlk_rng_bernoulli(&r, got.data(), 1000, p, &mid, 0, 1);
            dnnlk_rng_bernoulli(&mid, got.data() + 125, n - 1000, p, &mid, 0, 1);
            CHECK_MSG(got == want, "chained seed %llu p %g", (unsigned long long)seed, p);
        }
}


// Dropout masks from MT19937 are std::bernoulli_distribution(1 - rate) on std::mt19937.
TEST(dropout_mt_mask_equals_std_isa) {
    for (float rate : {0.1f, 0.5f, 0.25f, 0.9f, 0.3f}) {
        const int64_t n = 3000;
        std::mt19937 e(321u);
        std::bernoulli_distribution d(1.0 - (double)rate);
        std::vector<uint8_t> want((n + 7) / 8, 0), got((n + 7) / 8, 0);
        for (int64_t i = 0; i < n; i++) want[i / 8] |= (uint8_t)(d(e) << (i % 8));
        std::vector<float> x(n, 1.0f), y(n);
        int64_t dims[2] = {30, 100};
        for (int nth = 1; nth <= 3; nth++) {
            dnnlk_rng r;
            dnnlk_rng_init(&r, dnnlk_rng_mt19937, 321, 0);
            dnnlk_tensor s = th_tensor(x.data(), dnnlk_f32, 2, dims), t = th_tensor(y.data(), dnnlk_f32, 2, dims);
            for (int ith = 0; ith < nth; ith++)
                CHECK_EQ(dnnlk_dropout_fwd(&s, &t, got.data(), rate, 0, NULL, &r, NULL, ith, nth), dnnlk_success);
            CHECK_MSG(got == want, "rate %g nth %d", (double)rate, nth);
        }
    }
}

int main() {
    RUN_EACH_ISA(dropout_mt_mask_equals_std_isa);
    RUN_EACH_ISA(mt19937_equals_std_isa);
    RUN_EACH_ISA(mt19937_jump_equals_std_discard_isa);
    RUN_EACH_ISA(mcg31_equals_std_lcg_isa);
    RUN_EACH_ISA(bernoulli_equals_std_isa);
    return th_summary();
}
