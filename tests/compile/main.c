/* Links the C99, C11 and C++17 translation units of the header check into one program. */
#include <cstdio>

extern "C" int tu_c99(void);
extern "C" int tu_c11(void);
extern "C" int tu_cxx17(void);

int main() {
    int a = tu_c99(), b = tu_c11(), c = tu_cxx17();
    if (a || b || c) {
        std::printf("multi-TU check failed: %d %d %d\n", a, b, c);
        return 1;
    }
    std::printf("multi-TU check: C99, C11 and C++17 TUs linked, header included twice in each\n");
    return 0;
}
