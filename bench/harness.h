/* Benchmark harness (see ../shared/BENCH.md for the rules it follows).
 *
 * - Timing: one warm-up call, then the minimum of at least `reps` timed calls, each timed call
 *   repeated until the sample is >= 20 ms or 3 calls, whichever is longer; with rounds (below), the
 *   minimum over the rounds too. `reps` is 5, or
 *   DNNLK_BENCH_REPS from the environment (more samples steady the minimum on a shared host; the
 *   peers read the same variable). Threads: 1 and 2, or the counts in DNNLK_BENCH_THREADS; with
 *   nth threads the work runs as parts (0,nth) .. (nth-1,nth) that start together on one signal,
 *   and a sample is the time until the last finished (the runner below).
 * - Limit: a copy moving the same compulsory traffic (reads + writes) in the same process, best of
 *   libc memcpy and a non-temporal copy, with the same thread count. Efficiency = copy time / our
 *   time; 1.0 runs at copy speed.
 * - Every case checks its result against the scalar reference once before timing is reported;
 *   a mismatch prints CHECK FAILED and makes the program exit non-zero.
 *
 * Row columns: case, shape, dtype, ISA, threads, ns/element, GB/s (compulsory bytes / time),
 * eff (vs memcpy), x naive (naive scalar loop time / ours), note. */
#ifndef DNNLK_BENCH_HARNESS_H
#define DNNLK_BENCH_HARNESS_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* pthread_setaffinity_np, CPU_SET: DNNLK_BENCH_PIN */
#endif
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__linux__)
#include <sys/mman.h> /* madvise: huge pages for large buffers (bench_alloc) */
#endif

#include "../dnnl_kernels.h"

typedef void (*bench_fn)(void *ctx, int ith, int nth);

static int bench_failures;
/* DNNLK_BENCH_PARTS=N: the part-split model (below) for N parts; 0 = off. */
static int bench_parts;
static double bench_min_sample_s = 0.02;
static int bench_reps = 5;

/* DNNLK_BENCH_REPS overrides the sample count, for this program and the peers run.sh starts. */
static inline void bench_reps_from_env(void) {
    const char *s = getenv("DNNLK_BENCH_REPS");
    int n = s ? atoi(s) : 0;
    if (n > 0 && n <= 1000) bench_reps = n;
    s = getenv("DNNLK_BENCH_PARTS");
    n = s ? atoi(s) : 0;
    if (n > 1 && n <= 1024) bench_parts = n;
}

static inline double bench_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Buffers of 4 MiB or more are given transparent huge pages (2 MiB aligned, madvise), as numpy
 * does for its arrays of that size (so numpy's rows run on them): with 4 KiB pages the TLB misses
 * of a large stream cost this KVM host about 1.5x (f32 lt [4096,4096]: 0.40 -> 0.25 ns/element,
 * numpy 0.36-0.44 -> 0.26 with its own madvise off/on). The copy limit is allocated here too, so
 * eff compares like with like. DNNLK_BENCH_HUGEPAGES=0 turns it off. */
static inline void *bench_alloc(size_t bytes) {
    void *p = NULL;
    const char *hp = getenv("DNNLK_BENCH_HUGEPAGES");
    int huge = bytes >= ((size_t)4 << 20) && !(hp && hp[0] == '0');
    if (posix_memalign(&p, huge ? (size_t)2 << 20 : 64, bytes ? bytes : 64)) p = NULL;
#ifdef MADV_HUGEPAGE
    if (p && huge) (void)madvise(p, bytes, MADV_HUGEPAGE); /* advice only: its failure changes nothing */
#endif
    if (!p) { fprintf(stderr, "bench: out of memory (%zu bytes)\n", bytes); exit(2); }
    memset(p, 0, bytes ? bytes : 64); /* touch every page before timing */
    return p;
}

static inline void bench_check(int ok, const char *what) {
    if (!ok) {
        printf("CHECK FAILED: %s\n", what);
        bench_failures++;
    }
}

/* A descriptor with dense row-major strides. */
static inline dnnlk_tensor bench_dense_tensor(void *data, dnnlk_dtype dt, int nd, const int64_t *dims) {
    dnnlk_tensor t;
    memset(&t, 0, sizeof t);
    t.data = data;
    t.dtype = dt;
    t.ndims = nd;
    if (nd > 0) memcpy(t.dims, dims, (size_t)nd * sizeof(int64_t));
    dnnlk_dense_strides(nd, t.dims, t.strides);
    return t;
}

/* ---- the thread counts rows are measured at ----
 * 1 and 2, or the list in DNNLK_BENCH_THREADS ("1,2,4,8,16": a scaling table on a many-core host;
 * the peers read the same variable). Groups walk it with
 *   for (nth = bench_threads_first(); nth; nth = bench_threads_next(nth)) */
#define BENCH_MAX_THREADS 64
static int bench_thread_list[16] = {1, 2};
static int bench_nthread_list = 2;
static double bench_spin_ns = 50000.0; /* how long a waiter spins before it sleeps (below) */
static int bench_pin = 1; /* DNNLK_BENCH_PIN=0: threads float (see bench_pool_start) */

static inline void bench_threads_from_env(void) {
    const char *s = getenv("DNNLK_BENCH_THREADS");
    int n = 0;
    while (s && *s && n < 16) {
        char *end;
        long v = strtol(s, &end, 10);
        if (end == s) break;
        if (v >= 1 && v <= BENCH_MAX_THREADS) {
            int i = n;
            while (i > 0 && bench_thread_list[i - 1] > v) i--; /* kept ascending, without repeats */
            if (!(i > 0 && bench_thread_list[i - 1] == v)) {
                memmove(&bench_thread_list[i + 1], &bench_thread_list[i], (size_t)(n - i) * sizeof(int));
                bench_thread_list[i] = (int)v;
                n++;
            }
        }
        s = *end == ',' ? end + 1 : end;
    }
    if (n > 0) bench_nthread_list = n;
    s = getenv("DNNLK_BENCH_SPIN_US");
    if (s && atof(s) >= 0) bench_spin_ns = 1e3 * atof(s);
    s = getenv("DNNLK_BENCH_PIN");
    if (s && s[0] == '0') bench_pin = 0;
}

static inline int bench_threads_first(void) { return bench_thread_list[0]; }

/* The next thread count after nth in the list, or 0 after the last. */
static inline int bench_threads_next(int nth) {
    int i;
    for (i = 0; i < bench_nthread_list; i++)
        if (bench_thread_list[i] > nth) return bench_thread_list[i];
    return 0;
}

/* ---- the many-thread runner: workers wait for each sample, spinning briefly, then asleep ----
 * Parts (1..nth-1, nth) run on nth - 1 workers and part 0 on the caller; a sample is the time from
 * the start signal until the last part finished. Both sides of the handshake (the workers waiting
 * for "go", the caller waiting for "done") spin for bench_spin_ns (50 us) and then sleep on a futex
 * until woken. Back-to-back samples on an idle host never get that far, so a sample costs no system
 * call; on a loaded host a waiter gives its core away instead of burning its slice while the thread
 * it waits for is off the CPU, which was what made two-thread samples of small cases wait a whole
 * scheduler slice (a 16K select read 339 ns/element beside a compiler). The minimum over the
 * samples then drops the slept ones. On a quiet many-core host, a longer spin
 * (DNNLK_BENCH_SPIN_US=5000) keeps workers awake between short samples, as OpenMP's own spin does
 * for the peers: waking 15 sleeping threads cost a 16-thread layer_norm [4096,768] 1.15x (0.039
 * against 0.034 ns/element, pinned). */

#if defined(__linux__)
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
static inline void bench_futex_wait(volatile int *addr, int val) {
    (void)syscall(SYS_futex, (int *)addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}
static inline void bench_futex_wake_all(volatile int *addr) {
    (void)syscall(SYS_futex, (int *)addr, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}
#else
#include <sched.h>
static inline void bench_futex_wait(volatile int *addr, int val) { (void)addr, (void)val, sched_yield(); }
static inline void bench_futex_wake_all(volatile int *addr) { (void)addr; }
#endif

typedef struct bench_pool bench_pool;
typedef struct bench_worker_arg { bench_pool *pool; int ith; } bench_worker_arg;
struct bench_pool {
    pthread_t thread[BENCH_MAX_THREADS];
    bench_worker_arg arg[BENCH_MAX_THREADS];
    bench_fn fn;
    void *ctx;
    int nth, started;
    volatile int go, done, quit;
    volatile int asleep_go, asleep_done; /* how many sleep on go (workers) / on done (the caller) */
#if defined(__linux__) && defined(CPU_SET)
    cpu_set_t caller_cpus; /* the caller's CPUs before pinning, restored at the end */
    int pinned;
#endif
};

/* Waits until *cell != seen (or quit is set), spinning first, then sleeping on the futex; *asleep
 * counts the sleepers so that the signalling side makes a system call only when one sleeps. */
static inline void bench_wait_change(bench_pool *p, volatile int *cell, int seen, volatile int *asleep) {
    double start = 0;
    unsigned spins = 0;
    for (;;) {
        if (__atomic_load_n(cell, __ATOMIC_SEQ_CST) != seen || __atomic_load_n(&p->quit, __ATOMIC_SEQ_CST)) return;
        if (++spins < 256) continue;
        if (start == 0) start = bench_now();
        else if (1e9 * (bench_now() - start) < bench_spin_ns) spins = 0;
        else {
            __atomic_add_fetch(asleep, 1, __ATOMIC_SEQ_CST);
            if (__atomic_load_n(cell, __ATOMIC_SEQ_CST) == seen && !__atomic_load_n(&p->quit, __ATOMIC_SEQ_CST))
                bench_futex_wait(cell, seen);
            __atomic_sub_fetch(asleep, 1, __ATOMIC_SEQ_CST);
        }
    }
}

/* Wakes every thread asleep on cell (after the caller changed it). */
static inline void bench_wake(volatile int *cell, volatile int *asleep) {
    if (__atomic_load_n(asleep, __ATOMIC_SEQ_CST)) bench_futex_wake_all(cell);
}

static inline void *bench_worker(void *arg) {
    bench_worker_arg *a = (bench_worker_arg *)arg;
    bench_pool *p = a->pool;
    int seen = 0;
    for (;;) {
        bench_wait_change(p, &p->go, seen, &p->asleep_go);
        if (__atomic_load_n(&p->quit, __ATOMIC_SEQ_CST)) return NULL;
        seen = __atomic_load_n(&p->go, __ATOMIC_SEQ_CST);
        p->fn(p->ctx, a->ith, p->nth);
        if (__atomic_add_fetch(&p->done, 1, __ATOMIC_SEQ_CST) == p->nth - 1) bench_wake(&p->done, &p->asleep_done);
    }
}

/* Starts nth - 1 workers (fewer if the system refuses some: nth shrinks to what runs). Where the
 * CPUs this process may use are at least nth, part ith's thread is pinned to the ith of them for the
 * measurement (the caller too, for part 0, until bench_pool_stop): a part then stays on one core
 * and finds its share of the data in that core's cache, as OpenMP's long-lived threads do for the
 * peers. Unpinned, fresh threads woken on other cores made a 16-thread layer_norm [4096,768] on a
 * 16-core host 1.9x slower (0.073 against 0.039 ns/element). */
static inline void bench_pool_start(bench_pool *p, bench_fn fn, void *ctx, int nth) {
    memset(p, 0, sizeof *p);
    p->fn = fn;
    p->ctx = ctx;
    for (p->started = 0; p->started < nth - 1; p->started++) {
        bench_worker_arg *a = &p->arg[p->started];
        a->pool = p, a->ith = p->started + 1;
        if (pthread_create(&p->thread[p->started], NULL, bench_worker, a) != 0) break;
    }
    p->nth = p->started + 1;
#if defined(__linux__) && defined(CPU_SET)
    p->pinned = 0;
    if (bench_pin && p->nth > 1 && pthread_getaffinity_np(pthread_self(), sizeof p->caller_cpus, &p->caller_cpus) == 0 &&
        CPU_COUNT(&p->caller_cpus) >= p->nth) {
        int cpu, part = 0;
        for (cpu = 0; cpu < CPU_SETSIZE && part < p->nth; cpu++) {
            cpu_set_t one;
            if (!CPU_ISSET(cpu, &p->caller_cpus)) continue;
            CPU_ZERO(&one);
            CPU_SET(cpu, &one);
            (void)pthread_setaffinity_np(part ? p->thread[part - 1] : pthread_self(), sizeof one, &one);
            part++;
        }
        p->pinned = 1;
    }
#endif
}

static inline void bench_pool_stop(bench_pool *p) {
    int i;
    __atomic_store_n(&p->quit, 1, __ATOMIC_SEQ_CST);
    __atomic_add_fetch(&p->go, 1, __ATOMIC_SEQ_CST); /* a new go value: a worker about to sleep won't */
    bench_futex_wake_all(&p->go);
    for (i = 0; i < p->started; i++) pthread_join(p->thread[i], NULL);
#if defined(__linux__) && defined(CPU_SET)
    if (p->pinned) (void)pthread_setaffinity_np(pthread_self(), sizeof p->caller_cpus, &p->caller_cpus);
#endif
}

/* Runs fn(ctx, ith, nth) for every part once and returns the wall time until the last finished. */
static inline double bench_once(bench_pool *p) {
    double t0, t1;
    if (p->nth == 1) {
        t0 = bench_now();
        p->fn(p->ctx, 0, 1);
        return bench_now() - t0;
    }
    __atomic_store_n(&p->done, 0, __ATOMIC_SEQ_CST);
    t0 = bench_now();
    __atomic_add_fetch(&p->go, 1, __ATOMIC_SEQ_CST);
    bench_wake(&p->go, &p->asleep_go);
    p->fn(p->ctx, 0, p->nth);
    for (;;) {
        int d = __atomic_load_n(&p->done, __ATOMIC_SEQ_CST);
        if (d == p->nth - 1) break;
        bench_wait_change(p, &p->done, d, &p->asleep_done);
    }
    t1 = bench_now();
    return t1 - t0;
}

/* ---- rounds ----
 * `make bench ROUNDS=N` runs the peers and this program N times, alternating, so each side gets
 * the quiet moments of a shared host alike. Each run of this program reads DNNLK_BENCH_HISTORY,
 * the best time of every measurement in the earlier rounds, reports the minimum of that and its own,
 * and writes the new minima back. Measurements are matched by their order, so the file also records
 * the arguments and the thread counts and is ignored when they differ (the table's last run once
 * lost make's THREADS: its history from the earlier rounds matched other rows, and one row read
 * 0.003 ns/element). */
#define BENCH_MAX_HISTORY 4096
static double bench_hist[BENCH_MAX_HISTORY];
static int bench_nhist, bench_hist_pos, bench_rounds = 1;
static char bench_hist_args[256];

static inline void bench_history_open(int argc, char **argv) {
    const char *path = getenv("DNNLK_BENCH_HISTORY");
    char line[300];
    FILE *f;
    int i, prior = 0;
    size_t k = 0;
    for (i = 1; i < argc && k < sizeof bench_hist_args; i++)
        k += (size_t)snprintf(bench_hist_args + k, sizeof bench_hist_args - k, " %s", argv[i]);
    for (i = 0; i < bench_nthread_list && k < sizeof bench_hist_args; i++)
        k += (size_t)snprintf(bench_hist_args + k, sizeof bench_hist_args - k, "%s%d", i ? "," : " threads ",
                              bench_thread_list[i]);
    if (!path || !(f = fopen(path, "r"))) return;
    if (fgets(line, sizeof line, f) && sscanf(line, "# rounds %d", &prior) == 1 && prior > 0) {
        const char *a = strstr(line, " args:");
        line[strcspn(line, "\n")] = 0;
        if (a && strcmp(a + 6, bench_hist_args) == 0) {
            while (bench_nhist < BENCH_MAX_HISTORY && fgets(line, sizeof line, f)) bench_hist[bench_nhist++] = atof(line);
            bench_rounds = prior + 1;
        }
    }
    fclose(f);
}

/* t, or the earlier rounds' best for this measurement if that is lower; records the result. */
static inline double bench_history_min(double t) {
    if (bench_hist_pos < BENCH_MAX_HISTORY) {
        double prior = bench_hist_pos < bench_nhist ? bench_hist[bench_hist_pos] : 0;
        if (prior > 0 && prior < t) t = prior;
        bench_hist[bench_hist_pos] = t;
    }
    bench_hist_pos++;
    return t;
}

static inline void bench_history_close(void) {
    const char *path = getenv("DNNLK_BENCH_HISTORY");
    FILE *f;
    int i;
    if (!path || !(f = fopen(path, "w"))) return;
    fprintf(f, "# rounds %d args:%s\n", bench_rounds, bench_hist_args);
    for (i = 0; i < bench_hist_pos && i < BENCH_MAX_HISTORY; i++) fprintf(f, "%.9e\n", bench_hist[i]);
    fclose(f);
}

/* ---- the part-split model (DNNLK_BENCH_PARTS=N) ----
 * How a row would scale to N threads, measured on one core: each part (p, N) of the row's 1-thread
 * call is timed alone (the minimum of 3 calls), and the row's note gets "pN" with the slowest
 * part's time over the mean part's (1.00 = equal parts), the last part's over the mean (where a
 * part skips the earlier parts' draws, the last pays most), and t(1 thread) / t(slowest part): the
 * speedup N threads could reach if compute were the only limit. Memory-bound rows are limited by
 * the copy's own scaling on the target host instead, which a 2-core host cannot show.
 * bench_time remembers its recent 1-thread calls; bench_row finds the one that returned the row's
 * time and measures its parts then (the case's data is still alive while its rows print). */
typedef struct bench_timed_call { bench_fn fn; void *ctx; double t; } bench_timed_call;
static bench_timed_call bench_recent[8];
static unsigned bench_nrecent;

static inline void bench_parts_note(char *buf, size_t n, double t) {
    double sum = 0, mx = 0, last = 0;
    const bench_timed_call *c = NULL;
    unsigned i;
    int p, k;
    for (i = 0; i < 8 && i < bench_nrecent; i++)
        if (bench_recent[(bench_nrecent - 1 - i) % 8].t == t) { c = &bench_recent[(bench_nrecent - 1 - i) % 8]; break; }
    if (!c) return;
    for (p = 0; p < bench_parts; p++) {
        double best = 1e30;
        for (k = 0; k < 3; k++) {
            double t0 = bench_now(), tp;
            c->fn(c->ctx, p, bench_parts);
            tp = bench_now() - t0;
            if (tp < best) best = tp;
        }
        sum += best;
        if (best > mx) mx = best;
        last = best;
    }
    snprintf(buf, n, "p%d max/mean %.2f last/mean %.2f x%.1f  ", bench_parts, mx * bench_parts / sum,
             last * bench_parts / sum, t / mx);
}

/* Minimum time of one call of all nth parts (seconds), over the rounds so far. */
static inline double bench_time(bench_fn fn, void *ctx, int nth) {
    static bench_pool pool; /* one measurement at a time; too large for the stack of some hosts */
    double best = 1e30;
    int r;
    bench_pool_start(&pool, fn, ctx, nth);
    (void)bench_once(&pool); /* warm-up */
    for (r = 0; r < bench_reps; r++) {
        double start = bench_now();
        int calls = 0;
        while (calls < 3 || bench_now() - start < bench_min_sample_s) {
            double t = bench_once(&pool);
            if (t < best) best = t;
            calls++;
        }
    }
    best = bench_history_min(best);
    if (nth == 1) {
        bench_timed_call *c = &bench_recent[bench_nrecent++ % 8];
        c->fn = fn, c->ctx = ctx, c->t = best;
    }
    bench_pool_stop(&pool);
    return best;
}

/* ---- the copy limit and the store ceiling ---- */

typedef struct bench_copy_ctx {
    char *dst;
    const char *src; /* NULL: fill dst with fill_byte instead (the store ceiling) */
    size_t bytes;
    int nontemporal, fill_byte;
} bench_copy_ctx;

#if DNNLK__X86
/* dst = src, or fill_byte everywhere when src is NULL, with non-temporal stores. */
__attribute__((target("avx2"))) static inline void bench_copy_nt(char *dst, const char *src, size_t n, int fill_byte) {
    size_t i = 0;
    while (i < n && ((uintptr_t)(dst + i) & 31)) dst[i] = src ? src[i] : (char)fill_byte, i++;
    if (!src) {
        __m256i v = _mm256_set1_epi8((char)fill_byte);
        for (; i + 128 <= n; i += 128) {
            _mm256_stream_si256((__m256i *)(void *)(dst + i), v);
            _mm256_stream_si256((__m256i *)(void *)(dst + i + 32), v);
            _mm256_stream_si256((__m256i *)(void *)(dst + i + 64), v);
            _mm256_stream_si256((__m256i *)(void *)(dst + i + 96), v);
        }
    }
    for (; src && i + 128 <= n; i += 128) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(src + i));
        __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(src + i + 32));
        __m256i c = _mm256_loadu_si256((const __m256i *)(const void *)(src + i + 64));
        __m256i d = _mm256_loadu_si256((const __m256i *)(const void *)(src + i + 96));
        _mm256_stream_si256((__m256i *)(void *)(dst + i), a);
        _mm256_stream_si256((__m256i *)(void *)(dst + i + 32), b);
        _mm256_stream_si256((__m256i *)(void *)(dst + i + 64), c);
        _mm256_stream_si256((__m256i *)(void *)(dst + i + 96), d);
    }
    _mm_sfence();
    for (; i < n; i++) dst[i] = src ? src[i] : (char)fill_byte;
}
#endif

static inline void bench_copy_part(void *p, int ith, int nth) {
    bench_copy_ctx *c = (bench_copy_ctx *)p;
    const char *src;
    int64_t b, e;
    dnnlk__part_range((int64_t)c->bytes, ith, nth, 64, &b, &e);
    src = c->src ? c->src + b : NULL;
#if DNNLK__X86
    if (c->nontemporal && (dnnlk_cpu_isa() >= dnnlk_isa_avx2)) {
        bench_copy_nt(c->dst + b, src, (size_t)(e - b), c->fill_byte);
        return;
    }
#endif
    if (src) memcpy(c->dst + b, src, (size_t)(e - b));
    else memset(c->dst + b, c->fill_byte, (size_t)(e - b));
}

/* Fills buf with pseudo-random bytes (a 64 KiB xorshift block, repeated): the copy limit copies
 * data like the kernels' own, not zeros, which this EPYC VM copies faster (a non-temporal copy of
 * 12 MiB: 0.39-0.44 ms out of zeros, 0.49 out of random bytes or 0x5a). */
static inline void bench_fill_random(char *buf, size_t bytes) {
    uint64_t x = 0x9e3779b97f4a7c15u;
    size_t i, block = bytes < ((size_t)64 << 10) ? bytes : (size_t)64 << 10;
    for (i = 0; i + 8 <= block; i += 8) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        memcpy(buf + i, &x, 8);
    }
    for (; i < block; i++) buf[i] = (char)(x >> (8 * (i & 7)));
    for (i = block; i < bytes; i += block) memcpy(buf + i, buf, bytes - i < block ? bytes - i : block);
}

/* The copy limit for a kernel that moves `traffic` compulsory bytes (reads + writes): the best
 * time, with nth threads, of copying traffic/2 bytes (memcpy or non-temporal), which moves the
 * same traffic. */
static inline double bench_copy_time(size_t traffic, int nth) {
    bench_copy_ctx c;
    double t1, t2;
    size_t bytes = traffic / 2;
    char *src;
    if (bytes < 64) bytes = 64;
    c.dst = (char *)bench_alloc(bytes);
    src = (char *)bench_alloc(bytes);
    bench_fill_random(src, bytes);
    c.src = src;
    c.bytes = bytes;
    c.nontemporal = 0;
    c.fill_byte = 0;
    t1 = bench_time(bench_copy_part, &c, nth);
    c.nontemporal = 1;
    t2 = bench_time(bench_copy_part, &c, nth);
    free(c.dst);
    free((void *)c.src);
    return t1 < t2 ? t1 : t2;
}

/* The store ceiling of a kernel whose output dominates its traffic: the best time, with nth
 * threads, of a non-temporal fill of `bytes` with fill_byte (no reads at all). Pass the byte the
 * output mostly holds: this EPYC VM streams lines of zeros 3.2x faster than other lines (32 MiB:
 * 0.37 against 1.17 ms), so zeros are the ceiling of a one_hot, not of a resize. */
static inline double bench_fill_time(size_t bytes, int nth, int fill_byte) {
    bench_copy_ctx c;
    double t;
    c.dst = (char *)bench_alloc(bytes ? bytes : 64);
    c.src = NULL;
    c.bytes = bytes;
    c.nontemporal = 1;
    c.fill_byte = fill_byte;
    t = bench_time(bench_copy_part, &c, nth);
    free(c.dst);
    return t;
}

/* ---- the read bound: read-only kernels (arg_max, top_k) move no output worth counting, so a copy
 * of half their bytes (the copy limit) is the wrong yardstick: it writes as much as it reads. ---- */

typedef struct bench_read_ctx {
    const char *src;
    size_t bytes;
    int avx2; /* the CPU has AVX2: detected once (CPUID traps to the hypervisor on a VM: ~20 us) */
    volatile uint64_t sink; /* keeps the reads from being optimised away */
} bench_read_ctx;

static inline void bench_read_init(bench_read_ctx *c, const void *src, size_t bytes) {
    c->src = (const char *)src;
    c->bytes = bytes;
    c->avx2 = dnnlk_cpu_isa() >= dnnlk_isa_avx2;
    c->sink = 0;
}

#if DNNLK__X86
/* The OR of every 8-byte word of [p, p + n), four independent 256-bit accumulators so that the
 * loads, not the ORs, set the pace. */
__attribute__((target("avx2"))) static inline uint64_t bench_read_or_avx2(const char *p, size_t n) {
    __m256i a = _mm256_setzero_si256(), b = a, c = a, d = a;
    uint64_t r = 0, w[4];
    size_t i = 0;
    for (; i + 128 <= n; i += 128) {
        a = _mm256_or_si256(a, _mm256_loadu_si256((const __m256i *)(const void *)(p + i)));
        b = _mm256_or_si256(b, _mm256_loadu_si256((const __m256i *)(const void *)(p + i + 32)));
        c = _mm256_or_si256(c, _mm256_loadu_si256((const __m256i *)(const void *)(p + i + 64)));
        d = _mm256_or_si256(d, _mm256_loadu_si256((const __m256i *)(const void *)(p + i + 96)));
    }
    _mm256_storeu_si256((__m256i *)(void *)w, _mm256_or_si256(_mm256_or_si256(a, b), _mm256_or_si256(c, d)));
    r = w[0] | w[1] | w[2] | w[3];
    for (; i < n; i++) r |= (uint8_t)p[i];
    return r;
}
#endif

static inline void bench_read_part(void *p, int ith, int nth) {
    bench_read_ctx *c = (bench_read_ctx *)p;
    int64_t b, e;
    uint64_t r = 0;
    dnnlk__part_range((int64_t)c->bytes, ith, nth, 64, &b, &e);
#if DNNLK__X86
    if (c->avx2) {
        c->sink = bench_read_or_avx2(c->src + b, (size_t)(e - b));
        return;
    }
#endif
    for (; b + 8 <= e; b += 8) {
        uint64_t w;
        memcpy(&w, c->src + b, 8);
        r |= w;
    }
    for (; b < e; b++) r |= (uint8_t)c->src[b];
    c->sink = r;
}

/* The read bound of a kernel that reads the `bytes` at src and writes next to nothing: the best
 * time, with nth threads, of reading those same bytes (same pages, same cache state) alone. */
static inline double bench_read_time(const void *src, size_t bytes, int nth) {
    bench_read_ctx c;
    bench_read_init(&c, src, bytes);
    return bench_time(bench_read_part, &c, nth);
}

/* ---- the table, and the same rows as CSV ----
 * DNNLK_BENCH_CSV=PATH (make bench sets it to build/<cc>/bench.csv) writes every row there too,
 * one line each, for tools/bench_plot.py (make plot) and spreadsheets:
 *   group,case,shape,dtype,isa,threads,ns_per_elem,gb_per_s,copy_ns_per_elem,naive_ns_per_elem,peers,note
 * in ns per element (copy: the copy limit of the same traffic and threads; naive: the naive scalar
 * loop; empty where the row has none); peers "name=ns;name=ns", each peer's best time in ns per
 * element, from the bench_peer_note call of that row. */
static FILE *bench_csv;
static const char *bench_group = "";
#define BENCH_MAX_ROW_PEERS 8
static struct { char name[24]; double ns; } bench_row_peers[BENCH_MAX_ROW_PEERS];
static int bench_nrow_peers;

static inline void bench_csv_open(void) {
    const char *path = getenv("DNNLK_BENCH_CSV");
    if (!path || !*path) return;
    if (!(bench_csv = fopen(path, "w"))) {
        fprintf(stderr, "bench: cannot write %s\n", path);
        exit(2);
    }
    fprintf(bench_csv, "group,case,shape,dtype,isa,threads,ns_per_elem,gb_per_s,copy_ns_per_elem,naive_ns_per_elem,peers,note\n");
}

static inline void bench_csv_close(void) {
    if (bench_csv) fclose(bench_csv);
    bench_csv = NULL;
}

/* s as one CSV field: quoted, with quotes doubled, when it holds a comma, a quote or a newline */
static inline void bench_csv_field(const char *s, int last) {
    if (strpbrk(s, ",\"\n")) {
        fputc('"', bench_csv);
        for (; *s; s++) {
            if (*s == '"') fputc('"', bench_csv);
            fputc(*s, bench_csv);
        }
        fputc('"', bench_csv);
    } else {
        fputs(s, bench_csv);
    }
    fputc(last ? '\n' : ',', bench_csv);
}

static inline void bench_header(void) {
    printf("%-26s %-22s %-6s %-7s %3s %9s %8s %6s %8s  %s\n", "case", "shape", "dtype", "isa", "thr", "ns/elem",
           "GB/s", "eff", "x naive", "note");
}

/* elems: elements processed; bytes: compulsory bytes; t: our time; copy_t: copy time of the same
 * bytes with the same threads (0: not applicable); naive_t: naive scalar time (0: none). */
static inline void bench_row(const char *name, const char *shape, const char *dtype, int nth, double elems,
                             double bytes, double t, double copy_t, double naive_t, const char *note) {
    char eff[16] = "-", xn[16] = "-", parts[96] = "";
    if (bench_parts && nth == 1) bench_parts_note(parts, sizeof parts, t);
    if (copy_t > 0) snprintf(eff, sizeof eff, "%.2f", copy_t / t);
    if (naive_t > 0) snprintf(xn, sizeof xn, "%.1f", naive_t / t);
    printf("%-26s %-22s %-6s %-7s %3d %9.3f %8.2f %6s %8s  %s%s\n", name, shape, dtype, dnnlk_isa_name(dnnlk_max_isa()),
           nth, 1e9 * t / elems, bytes / t / 1e9, eff, xn, parts, note ? note : "");
    fflush(stdout);
    if (bench_csv) {
        char num[64], peers[BENCH_MAX_ROW_PEERS * 48] = "";
        size_t k = 0;
        int i;
        bench_csv_field(bench_group, 0);
        bench_csv_field(name, 0);
        bench_csv_field(shape, 0);
        bench_csv_field(dtype, 0);
        bench_csv_field(dnnlk_isa_name(dnnlk_max_isa()), 0);
        snprintf(num, sizeof num, "%d", nth);
        bench_csv_field(num, 0);
        snprintf(num, sizeof num, "%.6g", 1e9 * t / elems);
        bench_csv_field(num, 0);
        snprintf(num, sizeof num, "%.6g", bytes / t / 1e9);
        bench_csv_field(num, 0);
        num[0] = 0;
        if (copy_t > 0) snprintf(num, sizeof num, "%.6g", 1e9 * copy_t / elems);
        bench_csv_field(num, 0);
        num[0] = 0;
        if (naive_t > 0) snprintf(num, sizeof num, "%.6g", 1e9 * naive_t / elems);
        bench_csv_field(num, 0);
        for (i = 0; i < bench_nrow_peers && k < sizeof peers; i++)
            k += (size_t)snprintf(peers + k, sizeof peers - k, "%s%s=%.6g", i ? ";" : "", bench_row_peers[i].name,
                                  bench_row_peers[i].ns);
        bench_csv_field(peers, 0);
        bench_csv_field(note ? note : "", 1);
        fflush(bench_csv);
    }
    bench_nrow_peers = 0; /* the peers noted for this row are spent */
}

/* Formats dims as "8x12x512x512". */
static inline const char *bench_shape_str(char *buf, size_t n, int ndims, const int64_t *dims) {
    size_t k = 0;
    int i;
    buf[0] = 0;
    for (i = 0; i < ndims && k < n; i++) k += (size_t)snprintf(buf + k, n - k, i ? "x%lld" : "%lld", (long long)dims[i]);
    if (ndims == 0) snprintf(buf, n, "scalar");
    return buf;
}

/* ---- peers measured in the same `make bench` run ----
 * bench/peers/run.sh runs the optional peer programs (PyTorch, numpy, oneDNN, MKL: whichever are
 * installed) just before this program and collects their lines, "KEY<TAB>PEER<TAB>ns_per_elem",
 * into the file named by DNNLK_BENCH_PEERS. KEY is "<case>|<threads>", the same string a row passes
 * to bench_peer_note, which then reads "torch 12.1x" for each peer (peer time / our time). */

#define BENCH_MAX_PEER_ROWS 4096
typedef struct bench_peer_row { char key[96]; char peer[24]; double ns; } bench_peer_row;
static bench_peer_row bench_peer_rows[BENCH_MAX_PEER_ROWS];
static int bench_npeer_rows = -1;

static inline void bench_load_peers(void) {
    const char *path = getenv("DNNLK_BENCH_PEERS");
    FILE *f;
    char line[256];
    bench_npeer_rows = 0;
    if (!path || !(f = fopen(path, "r"))) return;
    while (fgets(line, sizeof line, f) && bench_npeer_rows < BENCH_MAX_PEER_ROWS) {
        bench_peer_row *r = &bench_peer_rows[bench_npeer_rows];
        char *t1 = strchr(line, '\t'), *t2;
        if (!t1) continue;
        t2 = strchr(t1 + 1, '\t');
        if (!t2) continue;
        *t1 = *t2 = 0;
        if (strlen(line) >= sizeof r->key || strlen(t1 + 1) >= sizeof r->peer) continue;
        memcpy(r->key, line, strlen(line) + 1);
        memcpy(r->peer, t1 + 1, strlen(t1 + 1) + 1);
        r->ns = atof(t2 + 1);
        if (r->ns > 0) bench_npeer_rows++;
    }
    fclose(f);
}

static inline int bench_peer_same(int i, int j) {
    return strcmp(bench_peer_rows[i].key, bench_peer_rows[j].key) == 0 &&
           strcmp(bench_peer_rows[i].peer, bench_peer_rows[j].peer) == 0;
}

/* Appends " PEER Nx" for each peer of `key` (case name and thread count) to note; a peer with
 * several rows (one per round) counts with its best. */
static inline const char *bench_peer_note(char *note, size_t n, const char *key, int nth, double our_ns) {
    char full[128];
    size_t k = strlen(note);
    int i, j;
    if (bench_npeer_rows < 0) bench_load_peers();
    snprintf(full, sizeof full, "%s|%d", key, nth);
    for (i = 0; i < bench_npeer_rows && k < n; i++) {
        double best = bench_peer_rows[i].ns;
        int first = 1;
        if (strcmp(bench_peer_rows[i].key, full) != 0) continue;
        for (j = 0; j < bench_npeer_rows; j++)
            if (j != i && bench_peer_same(i, j)) {
                if (j < i) first = 0;
                if (bench_peer_rows[j].ns < best) best = bench_peer_rows[j].ns;
            }
        /* two decimals below 2x, where "1.0x" would hide a few percent either way */
        if (first) {
            k += (size_t)snprintf(note + k, n - k, best / our_ns < 2 ? "%s%s %.2fx" : "%s%s %.1fx", k ? ", " : "",
                                  bench_peer_rows[i].peer, best / our_ns);
            if (bench_nrow_peers < BENCH_MAX_ROW_PEERS) { /* for the CSV line of the row that follows */
                memcpy(bench_row_peers[bench_nrow_peers].name, bench_peer_rows[i].peer,
                       sizeof bench_row_peers[0].name);
                bench_row_peers[bench_nrow_peers++].ns = best;
            }
        }
    }
    return note;
}

/* A bound of a row that is neither the copy nor the arithmetic, bound_t, named by label:
 *  - "NT fill": a non-temporal fill of the output bytes alone, for rows whose output is most of
 *    their traffic (a dequantize writes 4 bytes an element and reads half of one to one);
 *  - "read": a read of the input bytes alone, for rows that read much more than they write (a
 *    compare reads 8 bytes an element and writes one).
 * Appends "NT fill 0.95x" (bound_t / ours) and, where that bound takes longer than the copy limit
 * of the row's traffic, the ceilings it puts on the row on this machine: "eff <= 0.63" (copy_t /
 * bound_t) and per peer noted for the row "PEER lead <= 9.5x" (the peer's time / bound_t): how far
 * ahead of that peer any kernel could be. Call it after bench_peer_note, which records the row's
 * peers. A bound slower than ours was disturbed (another job): no ceiling from it. */
static inline const char *bench_bound_ceiling_note(char *note, size_t n, const char *label, double elems, double t,
                                                   double copy_t, double bound_t) {
    size_t k = strlen(note);
    int i;
    if (k < n) k += (size_t)snprintf(note + k, n - k, "%s%s %.2fx", k ? ", " : "", label, bound_t / t);
    if (bound_t <= copy_t || bound_t > t) return note;
    if (k < n) k += (size_t)snprintf(note + k, n - k, ": eff <= %.2f", copy_t / bound_t);
    for (i = 0; i < bench_nrow_peers && k < n; i++)
        k += (size_t)snprintf(note + k, n - k, ", %s lead <= %.1fx", bench_row_peers[i].name,
                              bench_row_peers[i].ns / (1e9 * bound_t / elems));
    return note;
}

/* ---- the arithmetic floor of a compute-bound row (gelu, softmax, their backward): the same call
 * on a slice of the row's own tensors small enough to stay in L2 (its first rows), back to back, so
 * that no memory traffic is left: no memory system makes the row faster than that. ---- */
typedef struct bench_repeat_ctx {
    void (*part)(void *, int, int);
    void *ctx;
    int repeat;
} bench_repeat_ctx;

static inline void bench_repeat_part(void *p, int ith, int nth) {
    bench_repeat_ctx *q = (bench_repeat_ctx *)p;
    int r;
    for (r = 0; r < q->repeat; r++) q->part(q->ctx, ith, nth);
}

/* Seconds per element of part(slice) with nth threads, slice holding slice_elems elements. */
static inline double bench_cached_time(void (*part)(void *, int, int), void *slice, double slice_elems, int nth) {
    bench_repeat_ctx q;
    q.part = part, q.ctx = slice, q.repeat = 64;
    return bench_time(bench_repeat_part, &q, nth) / (q.repeat * slice_elems);
}

/* The rows per slice of a [rows, cols] tensor for bench_cached_time: about 32K elements (128 KiB a
 * tensor: three of them stay in a 1 MiB L2, and a call's fixed cost is spread as thin as a few
 * percent of its time), one row at least. */
static inline int64_t bench_cached_rows(int64_t rows, int64_t cols) {
    int64_t r = ((int64_t)1 << 15) / cols;
    return r < 1 ? 1 : r > rows ? rows : r;
}

/* Appends "in cache 0.49 ns" (cached: bench_cached_time) and, where that arithmetic alone takes
 * longer than the copy limit of the row's traffic, the ceiling it puts on the row on this machine:
 * ": eff <= 0.45" (copy_t / the cached time of the row's elements). A fused row passes the time of
 * the unfused sequence it replaces (else 0): "x unfused <= 1.52", the most the fusion can gain
 * here, its own arithmetic being what it cannot leave out. */
static inline const char *bench_compute_ceiling_note(char *note, size_t n, double elems, double t, double copy_t,
                                                     double cached, double unfused_t) {
    size_t k = strlen(note);
    if (k < n) k += (size_t)snprintf(note + k, n - k, "%sin cache %.3f ns", k ? ", " : "", 1e9 * cached);
    double floor_t = cached * elems;
    /* a floor well above the row's own time was disturbed, or holds a per-call cost the row spreads
     * thinner: no ceiling from it; within 5% (a compute-bound row runs at its floor) the row's own
     * time is the floor */
    if (floor_t > 1.05 * t) return note;
    if (floor_t > t) floor_t = t;
    if (floor_t > copy_t && k < n) k += (size_t)snprintf(note + k, n - k, ": eff <= %.2f", copy_t / floor_t);
    if (unfused_t > 0 && k < n) snprintf(note + k, n - k, ", x unfused <= %.2f", unfused_t / floor_t);
    return note;
}

/* Case filter: `bench NAME...` runs only the case groups whose name contains one of the words. */
static int bench_argc;
static char **bench_argv;
/* A selected group also becomes the group of the rows that follow (the CSV's first column), and is
 * announced on stderr: a whole run takes tens of minutes. */
static inline int bench_selected(const char *group) {
    int i, sel = bench_argc <= 1;
    for (i = 1; i < bench_argc && !sel; i++)
        if (strstr(group, bench_argv[i])) sel = 1;
    if (sel) {
        const char *total = getenv("DNNLK_BENCH_ROUNDS");
        bench_group = group;
        if (total && atoi(total) > 1) fprintf(stderr, "bench: round %d of %s, group %s\n", bench_rounds, total, group);
        else fprintf(stderr, "bench: group %s\n", group);
    }
    return sel;
}

#endif
