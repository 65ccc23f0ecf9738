#!/bin/sh
# The header must export nothing: each object may define only its own TU probe (tu_*).
# NM (env) names the nm that reads the objects (aarch64-linux-gnu-nm for cross-built ones).
status=0
for o in "$@"; do
    leaks=$(${NM:-nm} -g --defined-only "$o" | awk '{print $NF}' | grep -v -E '^_?tu_(c99|c11|cxx17)$')
    if [ -n "$leaks" ]; then
        echo "symbols leaked by the header in $o:"; echo "$leaks"; status=1
    fi
done
[ $status -eq 0 ] && echo "symbol check: no external symbols from the header in $#  objects" | sed 's/  / /'
exit $status
