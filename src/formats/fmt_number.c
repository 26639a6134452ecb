// SPDX-License-Identifier: MIT
// Fast, correctly rounded decimal number parsing for the text readers (strtod is the
// bottleneck of ASCII mesh loading; this handles the common cases exactly and defers the
// rest to strtod).
#include "formats/fmt_internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

static const double s_pow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

#if defined(__x86_64__) && LDBL_MANT_DIG == 64
#define IC_HAVE_X87 1
// 10^k for k <= 27 is exact in the 64-bit significand of the x87 format (5^27 < 2^64).
static const long double s_pow10Long[28] = {1e0L,  1e1L,  1e2L,  1e3L,  1e4L,  1e5L,  1e6L,
                                            1e7L,  1e8L,  1e9L,  1e10L, 1e11L, 1e12L, 1e13L,
                                            1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L, 1e20L,
                                            1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L};
#endif

static inline bool isDigit(char ch) { return (unsigned)(ch - '0') < 10u; }
static inline char lower(char ch) { return (char)(ch | 0x20); }

static const char *parseSpecial(const char *p, const char *start, double *value, bool *finite) {
    // "nan", "inf", "infinity", case-insensitive (p is past the sign)
    bool negative = *start == '-';
    if (lower(p[0]) == 'n' && lower(p[1]) == 'a' && lower(p[2]) == 'n') {
        *value = NAN;
        *finite = false;
        return p + 3;
    }
    if (lower(p[0]) == 'i' && lower(p[1]) == 'n' && lower(p[2]) == 'f') {
        *value = negative ? -INFINITY : INFINITY;
        *finite = false;
        p += 3;
        if (lower(p[0]) == 'i' && lower(p[1]) == 'n' && lower(p[2]) == 'i' && lower(p[3]) == 't' &&
            lower(p[4]) == 'y')
            p += 5;
        return p;
    }
    return NULL;
}

const char *icFmt_ParseReal(const char *p, double *value, bool *finite) {
    const char *start = p;
    *finite = true;
    bool negative = false;
    if (*p == '-' || *p == '+') negative = *p++ == '-';

    // Up to 19 significant digits go into an exact 64-bit integer; more are only counted.
    uint64_t mantissa = 0;
    int digits = 0, exponent = 0;
    bool dropped = false, any = false;
    while (*p == '0') {
        ++p;
        any = true;
    }
    for (; isDigit(*p); ++p, any = true) {
        if (digits < 19) {
            mantissa = mantissa * 10 + (uint64_t)(*p - '0');
            ++digits;
        } else {
            ++exponent;
            dropped |= *p != '0';
        }
    }
    if (*p == '.') {
        ++p;
        if (digits == 0)
            for (; *p == '0'; ++p, any = true) --exponent;
        for (; isDigit(*p); ++p, any = true) {
            if (digits < 19) {
                mantissa = mantissa * 10 + (uint64_t)(*p - '0');
                ++digits;
                --exponent;
            } else {
                dropped |= *p != '0';
            }
        }
    }
    if (!any) return parseSpecial(p, start, value, finite);
    if (lower(*p) == 'e') {
        const char *q = p + 1;
        bool expNegative = false;
        if (*q == '-' || *q == '+') expNegative = *q++ == '-';
        if (isDigit(*q)) {
            int e = 0;
            for (; isDigit(*q); ++q)
                if (e < 100000) e = e * 10 + (*q - '0');
            exponent += expNegative ? -e : e;
            p = q;
        }
    }
    const char *end = p;

    double result;
    if (mantissa == 0) {
        result = 0.0;
    } else if (!dropped && mantissa <= (1ull << 53) && exponent >= -22 && exponent <= 22) {
        // Clinger's fast path: both operands exact, so one correctly rounded operation.
        double m = (double)mantissa;
        result = exponent < 0 ? m / s_pow10[-exponent] : m * s_pow10[exponent];
#ifdef IC_HAVE_X87
    } else if (!dropped && exponent >= -27 && exponent <= 27) {
        // One correctly rounded x87 operation (64-bit significand), then rounding to double.
        // That double rounding can only go wrong when the x87 result sits exactly on a
        // halfway point between doubles (low 11 significand bits 0x400): defer those.
        long double m = (long double)mantissa;
        long double r = exponent < 0 ? m / s_pow10Long[-exponent] : m * s_pow10Long[exponent];
        uint64_t significand;
        memcpy(&significand, &r, 8);
        if ((significand & 0x7FF) == 0x400) {
            result = strtod(start, NULL);
            *value = result;
            *finite = isfinite(result);
            return end;
        }
        result = (double)r;
#endif
    } else {
        result = strtod(start, NULL);
        *value = result;
        *finite = isfinite(result);
        return end;
    }
    *value = negative ? -result : result;
    return end;
}

const char *icFmt_ParseInt(const char *p, long long *value) {
    bool negative = false;
    if (*p == '-' || *p == '+') negative = *p++ == '-';
    if (!isDigit(*p)) return NULL;
    unsigned long long v = 0;
    for (; isDigit(*p); ++p) {
        v = v * 10 + (unsigned long long)(*p - '0');
        if (v >= (1ull << 62)) return NULL;
    }
    *value = negative ? -(long long)v : (long long)v;
    return p;
}
