# dnnl_kernels — build, test and benchmark. The library itself is header-only: nothing to build.
#
#   make test                 every test program, optimized and under ASan+UBSan, header checks,
#                             and a bounded libFuzzer run (clang); prints "N passed, N failed"
#   make bench                builds bench/ with the default flags (no -march) and prints the table
#                             (also as CSV, build/<cc>/bench.csv); make plot draws it as an SVG
#   make test-exhaustive      the slow sweeps (every float) of the tests that have them
#   make test-native          the optimized tests built with -march=native
#   make test-install         install into a staging folder and build against it (pkg-config, CMake)
#   make test-aarch64         every test cross-compiled for aarch64 (gcc and clang), run under
#                             qemu-aarch64 at each level (scalar, neon), a -DDNNLK_NO_SIMD build,
#                             and the header checks for aarch64
#   make single               dist/dnnl_kernels_single.h: the whole library as one header
#   make install PREFIX=...   headers, a pkg-config file and a CMake package (find_package(dnnl_kernels CONFIG))
#   CC=clang make test        the same with clang (CXX follows CC); SANITIZE=0: no sanitizer builds

CC ?= cc
ifeq ($(findstring clang,$(CC)),clang)
CXX := $(subst clang,clang++,$(CC))
else
CXX := g++
endif
PREFIX ?= /usr/local
FUZZ_SECONDS ?= 30
FUZZ_CC ?= clang

WARN := -Wall -Wextra -Wpedantic -Werror
OPT := -O2
TEST_STD := -std=gnu11
# -O0: the sanitizer builds compile 30-90x faster than at -O1 (test_compare with clang: 2 s against
# 185 s; test_quant with gcc: 3 s against 85 s), because at -O0 the helpers that optimized builds
# force inline are called (base.h, DNNLK__FORCEINLINE), and run 2-4x slower, at the small
# DNNLK_TEST_SCALE that sanitizer runs use anyway. The -O2 builds test the optimized code.
# -g1: line tables only (file:line in sanitizer reports).
SAN_FLAGS := -g1 -fsanitize=address,undefined -fno-sanitize-recover=all
SAN := -O0 $(SAN_FLAGS) -fno-omit-frame-pointer
# An optimized sanitizer build without -fno-omit-frame-pointer as well: clang 14 crashed ("Cannot
# emit physreg copy instruction") on the AVX-512 select kernel with a free RBP at -O1. Only the
# tests listed here, each a ~30 s sanitizer compile (add more with SAN_NOFP_TESTS="..."), and by
# default with clang only (the crash was clang's; gcc's build cost CI ~30 s for nothing).
SAN_NOFP := -O1 $(SAN_FLAGS)
SAN_NOFP_TESTS ?= $(if $(findstring clang,$(notdir $(firstword $(CC)))),test_select,)
LIBS := -lm -lpthread
# Tests built at -O0 even in the optimized flavours (opt, native, aarch64): they check the ops'
# wrappers (descriptors, statuses), not arithmetic, and call many ops: at -O2 test_descriptors took
# 190 s to compile with gcc on the 2-core host (every op's kernels at every level), at -O0 4 s.
O0_TESTS := test_descriptors
# The version, read from its one source (DNNLK_VERSION_MAJOR/MINOR/PATCH in dnnl_kernels.h).
VERSION := $(shell sed -n 's/^\#define DNNLK_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)$$/\2/p' dnnl_kernels.h | paste -sd. -)

B := build/$(notdir $(firstword $(CC)))
HEADERS := dnnl_kernels.h $(wildcard kernels/*.h)
# The harness and the generated case tables (tests/*_cases.h ...): a test is rebuilt when one changes.
TEST_HEADERS := $(wildcard tests/*.h)
C_TESTS := $(patsubst tests/%.c,%,$(wildcard tests/test_*.c))
CXX_TESTS := $(patsubst tests/%.cpp,%,$(wildcard tests/test_*.cpp))
TESTS := $(C_TESTS) $(CXX_TESTS)

.PHONY: all test test-exhaustive test-native test-install test-aarch64 check-headers-aarch64 bench check-headers \
        check-one-op check-docs check-readme check-examples check-single single plot fuzz install uninstall clean
.DELETE_ON_ERROR:

all: $(addprefix $(B)/opt/,$(TESTS)) $(B)/bench check-headers

# ---- tests ----

$(B)/opt/%: tests/%.c $(TEST_HEADERS) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(TEST_STD) $(WARN) $(OPT) $< -o $@ $(LIBS)

$(B)/asan/%: tests/%.c $(TEST_HEADERS) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(TEST_STD) $(WARN) $(SAN) $< -o $@ $(LIBS)

$(B)/asan-nofp/%: tests/%.c $(TEST_HEADERS) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(TEST_STD) $(WARN) $(SAN_NOFP) $< -o $@ $(LIBS)

$(B)/opt/%: tests/%.cpp $(TEST_HEADERS) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CXX) -std=c++17 $(WARN) $(OPT) $< -o $@ $(LIBS)

$(B)/asan/%: tests/%.cpp $(TEST_HEADERS) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CXX) -std=c++17 $(WARN) $(SAN) $< -o $@ $(LIBS)

# check-headers and fuzz first: their recipes are long serial chains (one core), so under -j2 they
# overlap the test compiles instead of leaving one core idle at the end.
# SANITIZE=0 leaves the -O0 sanitizer builds out (the optimized ones, SAN_NOFP_TESTS' -O1 builds,
# the header checks and the fuzz run stay): CI's clang pass, where the gcc pass has run every test
# under ASan+UBSan already and the fuzzers are clang's sanitizer builds; it saves a third of that
# pass.
SANITIZE ?= 1
# The long single-job recipes come first, so that -j2 starts them at once and they overlap the test
# compiles: make starts a target whose prerequisites are still building only after it has started
# everything else it can, so a check behind one (check-headers behind the multi-TU objects) ran at
# the end of the pass, alone on one core, for ~90 s of gcc's pass.
EARLY := fuzz check-one-op check-docs $(addprefix $(B)/asan-nofp/,$(SAN_NOFP_TESTS))
ifeq ($(SANITIZE),0)
test: $(EARLY) check-headers $(addprefix $(B)/opt/,$(TESTS))
	@sh tests/run_all.sh --env-cap sse41 --opt-only --nofp "$(SAN_NOFP_TESTS)" $(B) $(TESTS)
else
test: $(EARLY) check-headers $(addprefix $(B)/opt/,$(TESTS)) $(addprefix $(B)/asan/,$(TESTS))
	@sh tests/run_all.sh --nofp "$(SAN_NOFP_TESTS)" $(B) $(TESTS)
endif

test-exhaustive: $(addprefix $(B)/opt/,$(TESTS))
	@DNNLK_TEST_EXHAUSTIVE=1 sh tests/run_all.sh --opt-only $(B) $(TESTS)

# ---- the header as users include it: C99, C11, C++17, several TUs, no exported symbols, and a
# first program per op (code only where used, -O0 and -O2; -lm only where the README says) ----

check-headers: check-one-op check-docs $(B)/multi_tu $(B)/cap_sse41 $(B)/cap_native $(B)/no_simd_c99.o \
               $(B)/no_simd_cxx17.o
	@sh tests/compile/check_symbols.sh $(B)/multi_tu_c99.o $(B)/multi_tu_c11.o $(B)/multi_tu_cxx17.o
	@echo "scalar-only build (-DDNNLK_NO_SIMD, what a non-x86 includer compiles): C99 and C++17 warning-free"
	@$(B)/multi_tu
	@$(B)/cap_sse41
	@$(B)/cap_native
	@sh tests/compile/check_summary.sh $(B)
	@sh tests/compile/check_api_index.sh
	@python3 tools/mt_jump_tables.py | cmp -s - kernels/rng_mt_jump_tables.h || \
	  { echo "kernels/rng_mt_jump_tables.h is not what tools/mt_jump_tables.py writes"; exit 1; }
	@python3 tests/compile/check_plot.py $(B)/plot
check-one-op:
	@sh tests/compile/check_one_op.sh "$(CC)" "$(CXX)" $(B)/one_op
check-docs: check-readme check-examples check-single

# The single-file build: dist/dnnl_kernels_single.h (generated, not committed), written by
# tools/amalgamate.py whenever a header changed. check-single: it preprocesses to the same tokens as
# dnnl_kernels.h, and the multi-TU header check and the examples pass against it.
SINGLE := dist/dnnl_kernels_single.h
single: $(SINGLE)
$(SINGLE): $(HEADERS) tools/amalgamate.py
	python3 tools/amalgamate.py $@
	@echo "$@: $$(wc -c < $@) bytes; #include it alone, as dnnl_kernels.h"
check-single: # no prerequisite, so -j2 starts it early (see EARLY); it makes $(SINGLE) itself
	@$(MAKE) -s $(SINGLE)
	@sh tests/compile/check_single.sh "$(CC)" "$(CXX)" $(B) $(SINGLE)

# examples/*.c: each built with the command its comment gives (with -Werror), run, its output checked
# (tests/compile/check_examples.sh).
check-examples:
	@sh tests/compile/check_examples.sh "$(CC)" $(B)/examples

# Every C program in the README (a ```c block with an #include) compiles warning-free as C99 and
# C++17, links with no flags but -I, and runs with exit status 0.
check-readme:
	@n=0; for f in $$(sh tools/readme_programs.sh README.md $(B)/readme); do \
	  $(CC) -std=c99 $(WARN) -I. $$f -o $${f%.c}_c && $${f%.c}_c >/dev/null && \
	  $(CXX) -x c++ -std=c++17 $(WARN) -I. $$f -o $${f%.c}_cxx && $${f%.c}_cxx >/dev/null || \
	  { echo "README program $$n+1 ($$f) fails to build or run"; exit 1; }; n=$$((n + 1)); done; \
	  [ $$n -gt 0 ] || { echo "no program found in README.md"; exit 1; }; \
	  echo "README: $$n C programs build as C99 and C++17 and run"
$(B)/no_simd_c99.o: tests/compile/tu.c $(HEADERS)
	@mkdir -p $(B)
	$(CC) -std=c99 $(WARN) -O2 -DDNNLK_NO_SIMD -DTU_NAME=tu_c99 -c $< -o $@
$(B)/no_simd_cxx17.o: tests/compile/tu.c $(HEADERS)
	@mkdir -p $(B)
	$(CXX) -x c++ -std=c++17 $(WARN) -O2 -DDNNLK_NO_SIMD -DTU_NAME=tu_cxx17 -c $< -o $@

$(B)/cap_sse41: tests/compile/cap.c $(HEADERS)
	@mkdir -p $(B)
	$(CC) -std=c99 $(WARN) -O2 -DDNNLK_MAX_ISA=1 $< -o $@
$(B)/cap_native: tests/compile/cap.c $(HEADERS)
	@mkdir -p $(B)
	$(CC) -std=c99 $(WARN) -O2 -march=native $< -o $@

# The optimized tests again, built with -march=native: kernels compiled under the includer's own
# AVX flags (where even the scalar path is auto-vectorized) must give the same answers.
test-native: $(addprefix $(B)/native/,$(C_TESTS))
	@sh tests/run_all.sh --opt-only --dir native $(B) $(C_TESTS)

$(B)/native/%: tests/%.c $(TEST_HEADERS) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(TEST_STD) $(WARN) $(OPT) -march=native $< -o $@ $(LIBS)

# Installs into a staging folder and builds the header check against it with the .pc file's flags,
# and a log_softmax program (which needs libm) with its Libs; then the CMake package both ways and
# the version everywhere (tests/compile/check_cmake.sh).
test-install:
	@rm -rf $(B)/stage && $(MAKE) -s install PREFIX=$(abspath $(B)/stage) >/dev/null
	@cflags=$$(PKG_CONFIG_PATH=$(abspath $(B)/stage)/lib/pkgconfig pkg-config --cflags dnnl_kernels 2>/dev/null || \
	  sed -n 's|^Cflags: -I\$${includedir}|-I$(abspath $(B)/stage)/include|p' $(B)/stage/lib/pkgconfig/dnnl_kernels.pc); \
	  mkdir -p $(B)/stage/t && sed 's|"../../dnnl_kernels.h"|<dnnl_kernels.h>|' tests/compile/tu.c > $(B)/stage/t/tu.c && \
	  $(CC) -std=c99 $(WARN) $$cflags -DTU_NAME=tu_c99 -c $(B)/stage/t/tu.c -o $(B)/stage/t/a.o && \
	  $(CC) -std=c11 $(WARN) $$cflags -DTU_NAME=tu_c11 -c $(B)/stage/t/tu.c -o $(B)/stage/t/b.o && \
	  $(CXX) -x c++ -std=c++17 $(WARN) $$cflags -DTU_NAME=tu_cxx17 -c $(B)/stage/t/tu.c -o $(B)/stage/t/c.o && \
	  $(CXX) -x c++ tests/compile/main.c -x none $(B)/stage/t/a.o $(B)/stage/t/b.o $(B)/stage/t/c.o -o $(B)/stage/t/m && \
	  $(B)/stage/t/m >/dev/null && \
	  libs=$$(PKG_CONFIG_PATH=$(abspath $(B)/stage)/lib/pkgconfig pkg-config --libs dnnl_kernels 2>/dev/null || \
	  sed -n 's|^Libs: ||p' $(B)/stage/lib/pkgconfig/dnnl_kernels.pc); \
	  sed 's|"../../dnnl_kernels.h"|<dnnl_kernels.h>|' tests/compile/one_op.c > $(B)/stage/t/one_op.c && \
	  $(CC) -std=c99 $(WARN) $$cflags -DONE_OP=log_softmax $(B)/stage/t/one_op.c -o $(B)/stage/t/lsm $$libs && \
	  $(B)/stage/t/lsm && echo "install check: headers and pkg-config file work from $(B)/stage ($$cflags; log_softmax links with $$libs)"
	@sh tests/compile/check_cmake.sh $(B) $(VERSION) "$(CC)"

# The C99 and C11 TUs at -O0 (a C front end's checks, and functions left out of line, so the link
# meets every static function in three TUs), the C++17 one at -O2 (the optimizer's warnings, such as
# -Wmaybe-uninitialized, which the -O2 test builds also give for C): each was ~22 s of -O2.
$(B)/multi_tu_c99.o: tests/compile/tu.c $(HEADERS)
	@mkdir -p $(B)
	$(CC) -std=c99 $(WARN) -O0 -DTU_NAME=tu_c99 -c $< -o $@
$(B)/multi_tu_c11.o: tests/compile/tu.c $(HEADERS)
	@mkdir -p $(B)
	$(CC) -std=c11 $(WARN) -O0 -DTU_NAME=tu_c11 -c $< -o $@
$(B)/multi_tu_cxx17.o: tests/compile/tu.c $(HEADERS)
	@mkdir -p $(B)
	$(CXX) -x c++ -std=c++17 $(WARN) -O2 -DTU_NAME=tu_cxx17 -c $< -o $@
$(B)/multi_tu: tests/compile/main.c $(B)/multi_tu_c99.o $(B)/multi_tu_c11.o $(B)/multi_tu_cxx17.o
	$(CXX) -x c++ -std=c++17 $(WARN) -O2 tests/compile/main.c -x none $(B)/multi_tu_c99.o $(B)/multi_tu_c11.o $(B)/multi_tu_cxx17.o -o $@

# ---- aarch64: cross-compiled, run under user-mode emulation ----
# Debian's gcc-aarch64-linux-gnu, g++-aarch64-linux-gnu (the C++ test), libc6-dev-arm64-cross and
# qemu-user; clang uses gcc's cross sysroot and binutils. Optimized builds only (no sanitizers
# under qemu). Each compiler's tests run as one job, so -j2 runs gcc's and clang's side by side; the
# -DDNNLK_NO_SIMD build (the scalar level alone, what a big-endian or 32-bit ARM includer gets)
# runs A64_NOSIMD_TESTS at a quarter of the random-case counts: the scalar bodies it runs are the
# ones the gcc and clang builds test at their scalar level already; what is its own is the
# compile-time static dispatch, which these tests reach through select, the RNGs and dropout,
# one_hot, the elementwise math and the norms (every test: make test-aarch64
# A64_NOSIMD_TESTS='$(TESTS)'). The last line sums them all.
A64_GCC ?= aarch64-linux-gnu-gcc
A64_GXX ?= aarch64-linux-gnu-g++
A64_CLANG ?= clang --target=aarch64-linux-gnu
A64_CLANGXX ?= clang++ --target=aarch64-linux-gnu
A64_NM ?= aarch64-linux-gnu-nm
QEMU_A64 ?= qemu-aarch64 -L /usr/aarch64-linux-gnu
A := build/aarch64
$(foreach t,$(O0_TESTS),$(B)/opt/$(t) $(B)/native/$(t) $(A)/gcc/$(t) $(A)/clang/$(t) $(A)/nosimd/$(t)): OPT := -O0

$(A)/gcc/%: tests/%.c $(TEST_HEADERS) $(HEADERS)
	@mkdir -p $(dir $@)
	$(A64_GCC) $(TEST_STD) $(WARN) $(OPT) $< -o $@ $(LIBS)
$(A)/gcc/%: tests/%.cpp $(TEST_HEADERS) $(HEADERS)
	@mkdir -p $(dir $@)
	$(A64_GXX) -std=c++17 $(WARN) $(OPT) $< -o $@ $(LIBS)
$(A)/clang/%: tests/%.c $(TEST_HEADERS) $(HEADERS)
	@mkdir -p $(dir $@)
	$(A64_CLANG) $(TEST_STD) $(WARN) $(OPT) $< -o $@ $(LIBS)
$(A)/clang/%: tests/%.cpp $(TEST_HEADERS) $(HEADERS)
	@mkdir -p $(dir $@)
	$(A64_CLANGXX) -std=c++17 $(WARN) $(OPT) $< -o $@ $(LIBS)
$(A)/nosimd/%: tests/%.c $(TEST_HEADERS) $(HEADERS)
	@mkdir -p $(dir $@)
	$(A64_GCC) $(TEST_STD) $(WARN) $(OPT) -DDNNLK_NO_SIMD $< -o $@ $(LIBS)
$(A)/nosimd/%: tests/%.cpp $(TEST_HEADERS) $(HEADERS)
	@mkdir -p $(dir $@)
	$(A64_GXX) -std=c++17 $(WARN) $(OPT) -DDNNLK_NO_SIMD $< -o $@ $(LIBS)

# One log per build (a file target, so -j2 runs them in parallel); a failing test is in the log's
# counts, not make's status, so the other logs still run. Explicit rules: binaries reached only
# through a pattern chain would be deleted as intermediate files. Emulation runs at a twentieth
# of native speed or less, so the random-case counts are halved (DNNLK_TEST_SCALE=0.5, which also
# keeps the MT19937 jump tests to their short form: test_rng took 62 s at full scale); clang's
# build, the same code from a second compiler, runs a quarter of them, and its per-level cases at
# the NEON level only (DNNLK_TEST_MIN_ISA=neon): clang's scalar bodies run in the x86 clang pass,
# and gcc's cross build runs the aarch64 scalar level.
.PHONY: FORCE
$(A)/gcc.log: FORCE $(addprefix $(A)/gcc/,$(TESTS))
	@DNNLK_TEST_SCALE=0.5 sh tests/run_all.sh --runner "$(QEMU_A64)" --env-cap scalar --opt-only --dir gcc $(A) $(TESTS) > $@ 2>&1 || true
$(A)/clang.log: FORCE $(addprefix $(A)/clang/,$(TESTS))
	@DNNLK_TEST_SCALE=0.25 DNNLK_TEST_MIN_ISA=neon sh tests/run_all.sh --runner "$(QEMU_A64)" --env-cap scalar --opt-only --dir clang $(A) $(TESTS) > $@ 2>&1 || true
A64_NOSIMD_TESTS ?= test_cpu test_vec test_select test_dropout test_rng test_one_hot test_mathops test_norm
$(A)/nosimd.log: FORCE $(addprefix $(A)/nosimd/,$(A64_NOSIMD_TESTS))
	@DNNLK_TEST_SCALE=0.25 sh tests/run_all.sh --runner "$(QEMU_A64)" --opt-only --dir nosimd $(A) $(A64_NOSIMD_TESTS) > $@ 2>&1 || true

test-aarch64: $(A)/gcc.log $(A)/clang.log $(A)/nosimd.log check-headers-aarch64
	@for b in gcc clang nosimd; do echo "== aarch64, $$b under qemu"; sed '$$d' $(A)/$$b.log; done
	@tail -q -n 1 $(A)/gcc.log $(A)/clang.log $(A)/nosimd.log | awk -F'[ ,]+' \
	  '{p += $$1; f += $$3; s += $$5} END {printf "%d passed, %d failed, %d skipped\n", p, f, s; exit f != 0}'

# The header as an aarch64 user includes it: C99, C11, C++17 TUs warning-free, linked, no exported
# symbol; the compile-time caps (scalar only, neon); the DNNLK_NO_SIMD TUs; big-endian aarch64 and
# 32-bit ARM compile clean on the scalar level.
check-headers-aarch64: $(A)/multi_tu $(A)/cap_scalar $(A)/cap_neon $(A)/no_simd_c99.o $(A)/no_simd_cxx17.o
	@NM="$(A64_NM)" sh tests/compile/check_symbols.sh $(A)/multi_tu_c99.o $(A)/multi_tu_c11.o $(A)/multi_tu_cxx17.o
	@$(QEMU_A64) $(A)/multi_tu
	@$(QEMU_A64) $(A)/cap_scalar
	@$(QEMU_A64) $(A)/cap_neon
	@echo "aarch64 -DDNNLK_NO_SIMD TUs: C99 and C++17 warning-free"
	@sh tests/compile/check_arm_fallback.sh $(A)/fallback
$(A)/multi_tu_c99.o: tests/compile/tu.c $(HEADERS)
	@mkdir -p $(A)
	$(A64_GCC) -std=c99 $(WARN) -O0 -DTU_NAME=tu_c99 -c $< -o $@
$(A)/multi_tu_c11.o: tests/compile/tu.c $(HEADERS)
	@mkdir -p $(A)
	$(A64_CLANG) -std=c11 $(WARN) -O0 -DTU_NAME=tu_c11 -c $< -o $@
$(A)/multi_tu_cxx17.o: tests/compile/tu.c $(HEADERS)
	@mkdir -p $(A)
	$(A64_GXX) -x c++ -std=c++17 $(WARN) -O2 -DTU_NAME=tu_cxx17 -c $< -o $@
$(A)/multi_tu: tests/compile/main.c $(A)/multi_tu_c99.o $(A)/multi_tu_c11.o $(A)/multi_tu_cxx17.o
	$(A64_GXX) -x c++ -std=c++17 $(WARN) -O2 tests/compile/main.c -x none $(A)/multi_tu_c99.o $(A)/multi_tu_c11.o \
	  $(A)/multi_tu_cxx17.o -o $@
$(A)/cap_scalar: tests/compile/cap.c $(HEADERS)
	@mkdir -p $(A)
	$(A64_GCC) -std=c99 $(WARN) -O2 -DDNNLK_MAX_ISA=0 $< -o $@
$(A)/cap_neon: tests/compile/cap.c $(HEADERS)
	@mkdir -p $(A)
	$(A64_CLANG) -std=c99 $(WARN) -O2 -DDNNLK_MAX_ISA=1 $< -o $@
$(A)/no_simd_c99.o: tests/compile/tu.c $(HEADERS)
	@mkdir -p $(A)
	$(A64_GCC) -std=c99 $(WARN) -O2 -DDNNLK_NO_SIMD -DTU_NAME=tu_c99 -c $< -o $@
$(A)/no_simd_cxx17.o: tests/compile/tu.c $(HEADERS)
	@mkdir -p $(A)
	$(A64_CLANGXX) -x c++ -std=c++17 $(WARN) -O2 -DDNNLK_NO_SIMD -DTU_NAME=tu_cxx17 -c $< -o $@

# ---- fuzzing (libFuzzer needs clang; skipped with a message where it is missing) ----

# Two targets: fuzz_shape (shape/stride inference) and fuzz_ops (the ops' argument checks and
# kernels: errors write nothing, every ISA level and part count give the same bytes). FUZZ_SECONDS
# is their total: a third to fuzz_shape, the rest to fuzz_ops (far more code to cover), each at
# least 1 s. FUZZ_SECONDS=0 skips both (.ci/run fuzzes once: both passes would build the same
# clang fuzzers). -fno-sanitize-recover=all: without it UBSan prints a report and the run goes on
# and passes. fuzz_ops is built at -O0: clang 14 with the sanitizers had not finished compiling it
# at -O1 after 10 minutes (every op's kernels at every ISA level); at -O0 it takes ~15 s and runs
# 1-5 thousand inputs a second. A failing input is left in $(B)/fuzz/ (crash-*, timeout-*); to
# replay it: $(B)/fuzz/fuzz_ops FILE (built with -DFUZZ_OPS_DEBUG it prints every call's tensors).
FUZZ_FLAGS := -std=gnu11 $(WARN) -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
fuzz:
	@if [ "$(FUZZ_SECONDS)" = 0 ]; then echo "fuzz: FUZZ_SECONDS=0, skipped"; \
	elif command -v $(FUZZ_CC) >/dev/null 2>&1; then \
	  t_shape=$$(( $(FUZZ_SECONDS) / 3 )); [ $$t_shape -ge 1 ] || t_shape=1; \
	  t_ops=$$(( $(FUZZ_SECONDS) - t_shape )); [ $$t_ops -ge 1 ] || t_ops=1; \
	  mkdir -p $(B)/fuzz/corpus_shape $(B)/fuzz/corpus_ops && \
	  $(FUZZ_CC) $(FUZZ_FLAGS) -O1 tests/fuzz/fuzz_shape.c -o $(B)/fuzz/fuzz_shape && \
	  $(FUZZ_CC) $(FUZZ_FLAGS) -O0 tests/fuzz/fuzz_ops.c -o $(B)/fuzz/fuzz_ops && \
	  for f in shape:$$t_shape ops:$$t_ops; do \
	    n=$${f%%:*}; t=$${f#*:}; \
	    echo "fuzz_$$n: $$t s"; \
	    $(B)/fuzz/fuzz_$$n -max_total_time=$$t -print_final_stats=0 -close_fd_mask=3 -artifact_prefix=$(B)/fuzz/ \
	      $(B)/fuzz/corpus_$$n >/dev/null 2>$(B)/fuzz/fuzz_$$n.log \
	    || { tail -40 $(B)/fuzz/fuzz_$$n.log; exit 1; }; \
	    echo "fuzz_$$n: ok, $$(grep -o 'Done [0-9]* runs' $(B)/fuzz/fuzz_$$n.log | awk '{print $$2}') inputs, no invariant broken"; \
	  done; \
	else echo "fuzz: $(FUZZ_CC) not found, skipped"; fi

# ---- benchmark ----

$(B)/bench: bench/bench.c $(wildcard bench/*.h) $(HEADERS)
	@mkdir -p $(B)
	$(CC) -std=gnu11 $(WARN) $(OPT) $< -o $@ $(LIBS)

# Peers (PyTorch, numpy, oneDNN, MKL) run first, where installed, into $(B)/peers.tsv; the table
# then shows our time against theirs from the same run. `make bench PEERS=0` skips them.
# `make bench ROUNDS=N` alternates peers and bench N times and prints one table in which each side
# has its best time over the rounds (a steadier ratio on a shared, noisy host).
PEERS ?= 1
ROUNDS ?= 1
# `make bench THREADS=1,2,4,8,16`: every row (ours, the copy limit, the peers) at those thread counts
# instead of 1 and 2, for a scaling table on a many-core host (tools/bench_scaling.py prints it).
THREADS ?=
# The table also goes to $(B)/bench.csv (one line per row, times in ns/element; `make plot` draws it).
# Progress (the round, the peers, each group) goes to stderr.
bench: $(B)/bench
	@export DNNLK_BENCH_THREADS=$(THREADS); : > $(B)/peers.tsv; rm -f $(B)/bench.history; r=1; \
	while :; do \
	  if [ "$(PEERS)" = 1 ]; then echo "bench: peers, round $$r of $(ROUNDS)" >&2; \
	    sh bench/peers/run.sh $(B) $(BENCH_ARGS) >> $(B)/peers.tsv; fi; \
	  [ $$r -ge $(ROUNDS) ] && break; \
	  DNNLK_BENCH_ROUNDS=$(ROUNDS) DNNLK_BENCH_HISTORY=$(B)/bench.history $(B)/bench $(BENCH_ARGS) > /dev/null || exit 1; \
	  r=$$((r + 1)); \
	done
	DNNLK_BENCH_THREADS=$(THREADS) DNNLK_BENCH_ROUNDS=$(ROUNDS) DNNLK_BENCH_HISTORY=$(B)/bench.history \
	  DNNLK_BENCH_PEERS=$(B)/peers.tsv DNNLK_BENCH_CSV=$(B)/bench.csv $(B)/bench $(BENCH_ARGS)
	@echo "bench: the table as CSV in $(B)/bench.csv (make plot draws it)" >&2

# The CSV of the last `make bench` as an SVG: per group a panel, per row our time, the copy limit
# and each peer's time (tools/bench_plot.py, Python's standard library only).
PLOT_OUT ?= $(B)/bench.svg
plot:
	@[ -f $(B)/bench.csv ] || { echo "no $(B)/bench.csv: run make bench first"; exit 1; }
	python3 tools/bench_plot.py $(B)/bench.csv $(PLOT_OUT)

# ---- install ----

install:
	install -d $(DESTDIR)$(PREFIX)/include/dnnl_kernels/kernels $(DESTDIR)$(PREFIX)/lib/pkgconfig \
	  $(DESTDIR)$(PREFIX)/lib/cmake/dnnl_kernels
	install -m 644 dnnl_kernels.h $(DESTDIR)$(PREFIX)/include/dnnl_kernels/
	install -m 644 kernels/*.h $(DESTDIR)$(PREFIX)/include/dnnl_kernels/kernels/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' dnnl_kernels.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/dnnl_kernels.pc
	install -m 644 cmake/dnnl_kernelsConfig.cmake $(DESTDIR)$(PREFIX)/lib/cmake/dnnl_kernels/
	sed 's|@DNNLK_VERSION@|$(VERSION)|g' cmake/dnnl_kernelsConfigVersion.cmake.in \
	  > $(DESTDIR)$(PREFIX)/lib/cmake/dnnl_kernels/dnnl_kernelsConfigVersion.cmake

uninstall:
	rm -rf $(DESTDIR)$(PREFIX)/include/dnnl_kernels $(DESTDIR)$(PREFIX)/lib/pkgconfig/dnnl_kernels.pc \
	  $(DESTDIR)$(PREFIX)/lib/cmake/dnnl_kernels

clean:
	rm -rf build dist
