/*
 * A fake libcublasLt for the burn tests: the functions FfmCublasLt looks up, computing D = A^T x B for real on the
 * host (A, B n x n column-major in FP32, BF16 or FP8 E4M3; D FP32), since the fake libcudart's device memory is host
 * memory. Each multiply advances its stream's clock by 2 n^3 / speed, so CUDA events time it deterministically.
 *   Speed: 100 TFLOP/s per device, or FAKE_CUBLAS_TFLOPS="d:tflops,..." / fake_cublas_set_tflops(d, tflops).
 *   Wrong result: FAKE_CUBLAS_WRONG="d:element" / fake_cublas_set_wrong(d, element) adds 1 to that element of every
 *   result device d computes (element -1: none), as a GPU with a bad multiplier would.
 *   No FP8: with FAKE_CUBLAS_NO_FP8=1 the heuristic finds no FP8 kernel, as on a GPU before compute capability 8.9.
 * Status codes are cublas_api.h's.
 */
#include "fake_cudart.h"

#include <stdint.h>

typedef int cublasStatus_t;
enum { CUBLAS_STATUS_SUCCESS = 0, CUBLAS_STATUS_INVALID_VALUE = 7, CUBLAS_STATUS_NOT_SUPPORTED = 15 };
enum { CUDA_R_32F = 0, CUDA_R_16BF = 14, CUDA_R_8F_E4M3 = 28 };

#define MAX_DEVICES 32
static double tflops[MAX_DEVICES];
static long long wrong_element[MAX_DEVICES];
static int no_fp8;

static void parse_pairs(const char *env, void (*set)(int, double)) {
    const char *s = getenv(env);
    while (s && *s) {
        char *end;
        long d = strtol(s, &end, 10);
        if (*end != ':') return;
        double v = strtod(end + 1, &end);
        set((int) d, v);
        s = *end == ',' ? end + 1 : end;
        if (*end != ',') return;
    }
}

void fake_cublas_set_tflops(int d, double t) { if (d >= 0 && d < MAX_DEVICES) tflops[d] = t; }
void fake_cublas_set_wrong(int d, long long element) {
    if (d >= 0 && d < MAX_DEVICES) wrong_element[d] = element;
}
static void set_wrong(int d, double e) { fake_cublas_set_wrong(d, (long long) e); }

__attribute__((constructor)) static void cublas_from_env(void) {
    for (int d = 0; d < MAX_DEVICES; d++) { tflops[d] = 100; wrong_element[d] = -1; }
    parse_pairs("FAKE_CUBLAS_TFLOPS", fake_cublas_set_tflops);
    parse_pairs("FAKE_CUBLAS_WRONG", set_wrong);
    const char *nf = getenv("FAKE_CUBLAS_NO_FP8");
    no_fp8 = nf && strcmp(nf, "1") == 0;
}

struct handle { int magic; };
struct desc { int compute, scale, transa; };
struct layout { int type; uint64_t rows, cols; int64_t ld; };
struct pref { size_t workspace; };

cublasStatus_t cublasLtCreate(struct handle **h) {
    if (!h) return CUBLAS_STATUS_INVALID_VALUE;
    *h = calloc(1, sizeof **h);
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtDestroy(struct handle *h) { free(h); return CUBLAS_STATUS_SUCCESS; }
size_t cublasLtGetVersion(void) { return 130100; }
const char *cublasLtGetStatusString(cublasStatus_t s) {
    switch (s) {
        case CUBLAS_STATUS_SUCCESS: return "the operation completed successfully";
        case CUBLAS_STATUS_INVALID_VALUE: return "an invalid numeric value was used as an argument";
        case CUBLAS_STATUS_NOT_SUPPORTED: return "the functionality requested is not supported";
        default: return "unknown error";
    }
}

cublasStatus_t cublasLtMatmulDescCreate(struct desc **d, int compute, int scale) {
    if (!d) return CUBLAS_STATUS_INVALID_VALUE;
    *d = calloc(1, sizeof **d);
    (*d)->compute = compute;
    (*d)->scale = scale;
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmulDescSetAttribute(struct desc *d, int attr, const void *buf, size_t size) {
    if (!d || !buf) return CUBLAS_STATUS_INVALID_VALUE;
    if (attr == 3 && size == 4) { d->transa = *(const int *) buf; return CUBLAS_STATUS_SUCCESS; } /* TRANSA */
    return CUBLAS_STATUS_INVALID_VALUE;
}
cublasStatus_t cublasLtMatmulDescDestroy(struct desc *d) { free(d); return CUBLAS_STATUS_SUCCESS; }

cublasStatus_t cublasLtMatrixLayoutCreate(struct layout **l, int type, uint64_t rows, uint64_t cols, int64_t ld) {
    if (!l || ld < (int64_t) rows) return CUBLAS_STATUS_INVALID_VALUE;
    if (type != CUDA_R_32F && type != CUDA_R_16BF && type != CUDA_R_8F_E4M3) return CUBLAS_STATUS_NOT_SUPPORTED;
    *l = calloc(1, sizeof **l);
    (*l)->type = type;
    (*l)->rows = rows;
    (*l)->cols = cols;
    (*l)->ld = ld;
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatrixLayoutDestroy(struct layout *l) { free(l); return CUBLAS_STATUS_SUCCESS; }

cublasStatus_t cublasLtMatmulPreferenceCreate(struct pref **p) {
    if (!p) return CUBLAS_STATUS_INVALID_VALUE;
    *p = calloc(1, sizeof **p);
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmulPreferenceSetAttribute(struct pref *p, int attr, const void *buf, size_t size) {
    if (!p || !buf || attr != 1 || size != 8) return CUBLAS_STATUS_INVALID_VALUE; /* MAX_WORKSPACE_BYTES */
    p->workspace = *(const uint64_t *) buf;
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmulPreferenceDestroy(struct pref *p) { free(p); return CUBLAS_STATUS_SUCCESS; }


/* cublasLtMatmulHeuristicResult_t: algo (64 bytes), workspaceSize, state, wavesCount, reserved[4]. */
struct heuristic { uint64_t algo[8]; size_t workspace; int state; float waves; int reserved[4]; };

cublasStatus_t cublasLtMatmulAlgoGetHeuristic(struct handle *h, struct desc *op, struct layout *a, struct layout *b,
                                              struct layout *c, struct layout *d, struct pref *p, int requested,
                                              struct heuristic *result, int *found) {
    if (!h || !op || !a || !b || !c || !d || !p || requested < 1 || !result || !found) return CUBLAS_STATUS_INVALID_VALUE;
    *found = 0;
    if (a->type == CUDA_R_8F_E4M3 && (no_fp8 || op->transa != 1)) return CUBLAS_STATUS_NOT_SUPPORTED;
    memset(result, 0, sizeof *result);
    result->algo[0] = 0x414c474fULL; /* "ALGO" */
    result->waves = 1;
    *found = 1;
    return CUBLAS_STATUS_SUCCESS;
}

static double element(const void *base, int type, uint64_t i) {
    switch (type) {
        case CUDA_R_32F: return ((const float *) base)[i];
        case CUDA_R_16BF: {
            uint32_t bits = (uint32_t) ((const uint16_t *) base)[i] << 16;
            float f;
            memcpy(&f, &bits, 4);
            return f;
        }
        default: { /* E4M3, normal numbers only: what the burn's inputs hold */
            uint8_t v = ((const uint8_t *) base)[i];
            int e = (v >> 3) & 15, m = v & 7;
            double x = (1 + m / 8.0) * (e >= 7 ? (double) (1 << (e - 7)) : 1.0 / (double) (1 << (7 - e)));
            return v & 0x80 ? -x : x;
        }
    }
}

cublasStatus_t cublasLtMatmul(struct handle *h, struct desc *op, const float *alpha, const void *A, struct layout *a,
                              const void *B, struct layout *b, const float *beta, const void *C, struct layout *c,
                              void *D, struct layout *d, const struct heuristic *algo, void *workspace,
                              size_t workspace_bytes, struct fake_stream *stream) {
    (void) C; (void) workspace; (void) workspace_bytes;
    if (!h || !op || !alpha || !A || !a || !B || !b || !beta || !c || !D || !d || !algo || !stream) {
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    if (stream->magic != FAKE_STREAM_MAGIC || op->transa != 1 || d->type != CUDA_R_32F) return CUBLAS_STATUS_INVALID_VALUE;
    uint64_t n = d->rows, k = a->rows;
    float *out = D;
    for (uint64_t j = 0; j < n; j++) {
        for (uint64_t i = 0; i < n; i++) {
            double sum = 0;
            for (uint64_t x = 0; x < k; x++) sum += element(A, a->type, x + i * a->ld) * element(B, b->type, x + j * b->ld);
            out[i + j * d->ld] = (float) (*alpha * sum);
        }
    }
    int dev = stream->device;
    if (dev >= 0 && dev < MAX_DEVICES && wrong_element[dev] >= 0 && (uint64_t) wrong_element[dev] < n * n) {
        out[wrong_element[dev]] += 1;
    }
    double t = dev >= 0 && dev < MAX_DEVICES && tflops[dev] > 0 ? tflops[dev] : 100;
    stream->clock_fraction_ns += 2.0 * (double) n * (double) n * (double) k / (t * 1e3);
    unsigned long long whole = (unsigned long long) stream->clock_fraction_ns;
    stream->clock_ns += whole;
    stream->clock_fraction_ns -= (double) whole;
    return CUBLAS_STATUS_SUCCESS;
}
