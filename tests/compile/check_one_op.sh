#!/bin/sh
# What a first program gets from the header (tests/compile/one_op.c):
#  1. a TU that calls nothing, built at -O0 and -O2 as C99 and C++17, defines no code and no
#     writable data from the header (nm): every function the header defines is emitted only where
#     it is used. Read-only constant tables are listed, not refused (gcc keeps unused static
#     consts at -O0, -fkeep-static-consts).
#  2. a TU per op family, built warning-free at -O0 (and a few at -O2, and select as C++17),
#     links without -lm unless the op is in LIBM_OPS (the README's list), and gives the right
#     answer. An op in LIBM_OPS must really reference libm, so the list stays exact.
#  3. every header of kernels/ but the per-level bodies (*_simd.h, vec*.h, simd_instantiate.h,
#     which their op header includes) compiles alone, warning-free as C99: README's Vendoring
#     says they may be included alone (resize_bwd.h and vmath.h once needed <math.h> first).
#   tests/compile/check_one_op.sh CC CXX BUILD_DIR
cc=$1; cxx=$2; b=$3
src=tests/compile/one_op.c
warn="-Wall -Wextra -Wpedantic -Werror"
ops="select rng_uniform dropout arg_max top_k one_hot quantize resize layer_norm l2_norm gelu softmax log_softmax convert compare masked_softmax_dropout bias_dropout_residual"
o2_ops="select layer_norm l2_norm"
LIBM_OPS="softmax log_softmax gelu" # log and log1p (glibc's; our own would change result bits); the f64
                                    # paths' erfl, erfcl, expl, logl, log1pl (kernels/math_f64.h)
libm_syms='^(sqrt|sqrtf|log|log1p|logf|exp|expf|erf|erff|tanh|tanhf|floor|ceil|round|nearbyint|rint|lrint|pow|fma|fmaf|erfl|erfcl|expl|logl|log1pl|sqrtl|fmal)$'
mkdir -p "$b"
status=0
fail() { echo "one-op check FAILED: $*"; status=1; }

for lang in c cxx; do
    for opt in -O0 -O2; do
        o=$b/none_${lang}${opt}.o
        if [ $lang = c ]; then $cc -std=c99 $warn $opt -c $src -o "$o" || { fail "no-op TU ($lang $opt) does not build"; continue; }
        else $cxx -x c++ -std=c++17 $warn $opt -c $src -o "$o" || { fail "no-op TU ($lang $opt) does not build"; continue; }; fi
        code=$(nm "$o" | awk '$2 ~ /^[tTwWdDbBvV]$/ && $3 ~ /dnnlk/ {print $3}')
        consts=$(nm "$o" | awk '$2 ~ /^[rR]$/ && $3 ~ /dnnlk/' | wc -l)
        if [ -n "$code" ]; then
            fail "a TU that calls nothing ($lang $opt) defines $(echo "$code" | wc -l) header symbols, e.g.:"
            echo "$code" | head -5
        fi
        echo "no-op TU ($lang $opt): no code from the header, $consts read-only tables, $(size "$o" | awk 'NR==2{print $1}') bytes of text+rodata"
    done
done

needs_libm() { case " $LIBM_OPS " in *" $1 "*) return 0 ;; esac; return 1; }
built=""
for op in $ops; do
    for opt in -O0 -O2; do
        [ $opt = -O2 ] && case " $o2_ops " in *" $op "*) ;; *) continue ;; esac
        exe=$b/$op$opt
        $cc -std=c99 $warn $opt -DONE_OP=$op -c $src -o "$exe.o" || { fail "$op ($opt) does not build"; continue; }
        libm=$(nm -u "$exe.o" | awk '{print $NF}' | grep -E "$libm_syms" | tr '\n' ' ')
        if needs_libm $op; then
            [ -n "$libm" ] || fail "$op ($opt) is listed as needing -lm but references no libm function"
            $cc "$exe.o" -o "$exe" -lm || { fail "$op ($opt) does not link with -lm"; continue; }
        else
            [ -z "$libm" ] || fail "$op ($opt) references libm ($libm) but the README says it needs no -lm"
            $cc "$exe.o" -o "$exe" || { fail "$op ($opt) does not link without -lm"; continue; }
        fi
        "$exe" || { fail "$op ($opt) gives a wrong answer"; continue; }
        built="$built $op$opt"
    done
done
$cxx -x c++ -std=c++17 $warn -O0 -DONE_OP=select $src -o "$b/select_cxx" && "$b/select_cxx" && built="$built select-C++" ||
    fail "select as C++17 (-O0)"
alone=0
for h in kernels/*.h; do
    case $h in *_simd.h | kernels/vec*.h | kernels/simd_instantiate.h) continue ;; esac
    printf '#include "%s"\nint main(void) { return 0; }\n' "$h" > "$b/alone.c"
    $cc -std=c99 $warn -fsyntax-only -I. "$b/alone.c" || { fail "$h does not compile alone"; continue; }
    alone=$((alone + 1))
done
[ $status -eq 0 ] && echo "headers included alone: $alone of kernels/ compile as C99 on their own"
[ $status -eq 0 ] && echo "one-op TUs built, linked (-lm only for: $LIBM_OPS) and run:$built"
exit $status
