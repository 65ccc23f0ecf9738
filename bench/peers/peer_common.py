"""Shared timing for the Python peers: min of N samples, each >= 20 ms, like bench/harness.h.
Prints "KEY<TAB>PEER<TAB>ns_per_elem" lines for bench/peers/run.sh."""
import os
import sys
import time

ARGS = sys.argv[1:]


def thread_counts():
    """1 and 2, or the counts in DNNLK_BENCH_THREADS ("1,2,4,8,16"), as bench/harness.h reads them."""
    counts = set()
    for word in os.environ.get("DNNLK_BENCH_THREADS", "").split(","):
        if word.strip().isdigit() and 1 <= int(word) <= 64:
            counts.add(int(word))
    return sorted(counts) or [1, 2]


THREADS = thread_counts()


def selected(group):
    return not ARGS or any(w in group for w in ARGS)


def best_time(fn, reps=None, min_sample=0.02):
    if reps is None:
        reps = max(1, int(os.environ.get("DNNLK_BENCH_REPS", "5") or 5))
    fn()
    best = float("inf")
    for _ in range(reps):
        start = time.perf_counter()
        calls = 0
        while calls < 3 or time.perf_counter() - start < min_sample:
            t0 = time.perf_counter()
            fn()
            t = time.perf_counter() - t0
            best = min(best, t)
            calls += 1
    return best


def emit(case, threads, peer, seconds, elems):
    print(f"{case}|{threads}\t{peer}\t{1e9 * seconds / elems:.4f}", flush=True)
