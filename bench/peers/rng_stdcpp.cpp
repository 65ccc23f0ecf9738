// libstdc++ peer of the RNG bench: std::mt19937 raw, + std::bernoulli_distribution(0.9),
// + std::uniform_real_distribution<float>, one thread. Prints "KEY<TAB>PEER<TAB>ns_per_draw" lines
// for every engine's row of that kind (the ratio shown is libstdc++ MT19937 time / ours).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

static bool selected(int argc, char **argv, const char *group) {
    if (argc <= 1) return true;
    for (int i = 1; i < argc; i++)
        if (std::strstr(group, argv[i])) return true;
    return false;
}

template <class F> static double best_time(F fn) {
    fn();
    double best = 1e30;
    const char *env = std::getenv("DNNLK_BENCH_REPS"); // sample count as in bench/harness.h
    int reps = env && std::atoi(env) > 0 && std::atoi(env) <= 1000 ? std::atoi(env) : 5;
    for (int r = 0; r < reps; r++) {
        auto start = std::chrono::steady_clock::now();
        int calls = 0;
        while (calls < 3 || std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < 0.02) {
            auto t0 = std::chrono::steady_clock::now();
            fn();
            double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            if (t < best) best = t;
            calls++;
        }
    }
    return best;
}

int main(int argc, char **argv) {
    if (!selected(argc, argv, "rng")) return 0;
    const int n = 1 << 22;
    std::mt19937 e(2024);
    std::vector<uint32_t> u(n);
    std::vector<float> f(n);
    std::vector<uint8_t> bits(n / 8);
    double t_u = best_time([&] { for (int i = 0; i < n; i++) u[i] = (uint32_t)e(); });
    std::uniform_real_distribution<float> ud(0.0f, 1.0f);
    double t_f = best_time([&] { for (int i = 0; i < n; i++) f[i] = ud(e); });
    std::bernoulli_distribution bd(0.9);
    double t_b = best_time([&] {
        for (int i = 0; i < n; i += 8) {
            unsigned b = 0;
            for (int k = 0; k < 8; k++) b |= (unsigned)bd(e) << k;
            bits[i / 8] = (uint8_t)b;
        }
    });
    const char *algs[3] = {"mcg31", "philox", "mt19937"};
    for (const char *a : algs) {
        std::printf("rng %s u32|1\tstdc++\t%.4f\n", a, 1e9 * t_u / n);
        std::printf("rng %s uniform|1\tstdc++\t%.4f\n", a, 1e9 * t_f / n);
        std::printf("rng %s bernoulli|1\tstdc++\t%.4f\n", a, 1e9 * t_b / n);
    }
    volatile uint32_t sink = u[7] + bits[3] + (f[5] > 2.0f);
    (void)sink;
    return 0;
}
