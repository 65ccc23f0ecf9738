/* What both libFuzzer targets share: REQUIRE (an invariant broken: abort, so libFuzzer keeps the
 * input) and a reader that takes the fuzz input a byte at a time, zeros once it runs out. */
#include <stdint.h>
#include <stdlib.h>

#define REQUIRE(c) do { if (!(c)) abort(); } while (0)

typedef struct reader { const uint8_t *p; size_t n; } reader;

static uint8_t rd8(reader *r) {
    uint8_t v = 0;
    if (r->n) { v = *r->p++; r->n--; }
    return v;
}
