/*
 * Element access and reductions for the fake NCCL (fake_nccl.c): integers as 64-bit (sign-extended for signed
 * types), floating types as double, half and bfloat16 converted with round-to-nearest-even like the GPU does.
 * Type codes are ncclDataType_t's: int8 0, uint8 1, int32 2, uint32 3, int64 4, uint64 5, half 6, float 7, double 8,
 * bfloat16 9. Reduction codes are ncclRedOp_t's: sum 0, prod 1, max 2, min 3, avg 4.
 */
#include "fake_nccl_reduce.h"

#include <string.h>

size_t fake_type_size(int t) {
    static const size_t sizes[] = {1, 1, 4, 4, 8, 8, 2, 4, 8, 2};
    return sizes[t];
}

static int is_float(int t) { return t >= 6; }

static int is_unsigned(int t) { return t == 1 || t == 3 || t == 5; }

static float half_to_float(uint16_t h) {
    int exp = (h >> 10) & 0x1f;
    float mant = (float) (h & 0x3ff);
    float v = exp == 0 ? mant / 16777216.0f /* 2^-24 */
              : exp == 31 ? (mant ? __builtin_nanf("") : __builtin_inff())
              : (1.0f + mant / 1024.0f) * (float) __builtin_ldexp(1.0, exp - 15);
    return (h & 0x8000) ? -v : v;
}

static uint16_t float_to_half(float f) {
    uint32_t x;
    memcpy(&x, &f, 4);
    uint16_t sign = (uint16_t) ((x >> 16) & 0x8000);
    int exp = (int) ((x >> 23) & 0xff) - 127 + 15;
    uint32_t mant = x & 0x7fffff;
    if (((x >> 23) & 0xff) == 0xff) return (uint16_t) (sign | 0x7c00 | (mant ? 0x200 : 0));
    if (exp >= 31) return (uint16_t) (sign | 0x7c00);
    if (exp <= 0) {
        if (exp < -10) return sign;
        mant |= 0x800000;
        int shift = 14 - exp;
        uint32_t h = mant >> shift, rest = mant & ((1U << shift) - 1), halfway = 1U << (shift - 1);
        if (rest > halfway || (rest == halfway && (h & 1))) h++;
        return (uint16_t) (sign | h);
    }
    uint32_t h = ((uint32_t) exp << 10) | (mant >> 13), rest = mant & 0x1fff;
    if (rest > 0x1000 || (rest == 0x1000 && (h & 1))) h++; /* may carry into the exponent, which is right */
    return (uint16_t) (sign | h);
}

static double getf(const void *p, size_t i, int t) {
    const char *b = (const char *) p + i * fake_type_size(t);
    uint16_t h;
    float f;
    double d;
    switch (t) {
        case 6: memcpy(&h, b, 2); return half_to_float(h);
        case 7: memcpy(&f, b, 4); return f;
        case 8: memcpy(&d, b, 8); return d;
        default: {
            uint32_t bits;
            memcpy(&h, b, 2);
            bits = (uint32_t) h << 16;
            memcpy(&f, &bits, 4);
            return f;
        }
    }
}

static void putf(void *p, size_t i, int t, double v) {
    char *b = (char *) p + i * fake_type_size(t);
    float f = (float) v;
    uint16_t h;
    uint32_t bits;
    switch (t) {
        case 6: h = float_to_half(f); memcpy(b, &h, 2); break;
        case 7: memcpy(b, &f, 4); break;
        case 8: memcpy(b, &v, 8); break;
        default:
            memcpy(&bits, &f, 4);
            h = (uint16_t) ((bits + 0x7fff + ((bits >> 16) & 1)) >> 16); /* round to nearest even */
            memcpy(b, &h, 2);
    }
}

static uint64_t geti(const void *p, size_t i, int t) {
    const char *b = (const char *) p + i * fake_type_size(t);
    int8_t i8; uint8_t u8; int32_t i32; uint32_t u32; uint64_t u64;
    switch (t) {
        case 0: memcpy(&i8, b, 1); return (uint64_t) (int64_t) i8;
        case 1: memcpy(&u8, b, 1); return u8;
        case 2: memcpy(&i32, b, 4); return (uint64_t) (int64_t) i32;
        case 3: memcpy(&u32, b, 4); return u32;
        default: memcpy(&u64, b, 8); return u64;
    }
}

static void puti(void *p, size_t i, int t, uint64_t v) {
    char *b = (char *) p + i * fake_type_size(t);
    uint8_t u8 = (uint8_t) v;
    uint32_t u32 = (uint32_t) v;
    switch (fake_type_size(t)) {
        case 1: memcpy(b, &u8, 1); break;
        case 4: memcpy(b, &u32, 4); break;
        default: memcpy(b, &v, 8);
    }
}

static int less_int(uint64_t a, uint64_t b, int t) { return is_unsigned(t) ? a < b : (int64_t) a < (int64_t) b; }

/* out[i] = in[0][i] op in[1][i] op ... for count elements; avg is the sum divided by n. */
void fake_reduce_into(void *out, void *const *in, int n, size_t count, int t, int redop) {
    for (size_t i = 0; i < count; i++) {
        if (is_float(t)) {
            double acc = getf(in[0], i, t);
            for (int r = 1; r < n; r++) {
                double v = getf(in[r], i, t);
                acc = redop == 1 ? acc * v : redop == 2 ? (v > acc ? v : acc) : redop == 3 ? (v < acc ? v : acc)
                      : acc + v;
            }
            putf(out, i, t, redop == 4 ? acc / n : acc);
        } else {
            uint64_t acc = geti(in[0], i, t);
            for (int r = 1; r < n; r++) {
                uint64_t v = geti(in[r], i, t);
                acc = redop == 1 ? acc * v : redop == 2 ? (less_int(acc, v, t) ? v : acc)
                      : redop == 3 ? (less_int(v, acc, t) ? v : acc) : acc + v;
            }
            if (redop == 4) acc = is_unsigned(t) ? acc / (uint64_t) n : (uint64_t) ((int64_t) acc / n);
            puti(out, i, t, acc);
        }
    }
}

