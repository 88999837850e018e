// Small kernels for the cuda package's own device tests: they check argument
// passing (every scalar kind and a struct by value), copies and launches
// against CPU computations. Nothing in the product uses them.

#include <stdint.h>
#include <stddef.h>

// out[i] = a[i] + b[i], grid-stride.
extern "C" __global__ void add_i64(const int64_t* __restrict__ a, const int64_t* __restrict__ b,
                                   int64_t* __restrict__ out, int64_t n) {
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x) {
        out[i] = a[i] + b[i];
    }
}

// *count += number of bytes equal to c in data[0..n) (a newline counter when
// c is '\n'). Each thread counts in a register, then one atomic per warp.
extern "C" __global__ void count_byte(const uint8_t* __restrict__ data, uint64_t n, uint32_t c,
                                      unsigned long long* count) {
    unsigned long long local = 0;
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        local += data[i] == (uint8_t)c;
    }
    for (int off = 16; off > 0; off /= 2) {
        local += __shfl_down_sync(0xffffffffu, local, off);
    }
    if ((threadIdx.x & 31) == 0 && local != 0) {
        atomicAdd(count, local);
    }
}

// y[i] = a*x[i] + b (float32 and float64 scalars by value).
extern "C" __global__ void affine_f32(float a, const float* __restrict__ x, float b,
                                      float* __restrict__ y, uint32_t n) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + b;
}

extern "C" __global__ void affine_f64(double a, const double* __restrict__ x, double b,
                                      double* __restrict__ y, int32_t n) {
    int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + b;
}

// SmokeParams mirrors smokeParams in cuda/args_test.go; the offsets are
// asserted on both sides (the Go side in args_test.go).
struct SmokeParams {
    uint8_t flag;      // 0
    int64_t n;         // 8
    int32_t k;         // 16
    float scale;       // 20
    double bias;       // 24
    uint16_t small[3]; // 32
    uint64_t ptr;      // 40
};
static_assert(offsetof(SmokeParams, flag) == 0, "flag");
static_assert(offsetof(SmokeParams, n) == 8, "n");
static_assert(offsetof(SmokeParams, k) == 16, "k");
static_assert(offsetof(SmokeParams, scale) == 20, "scale");
static_assert(offsetof(SmokeParams, bias) == 24, "bias");
static_assert(offsetof(SmokeParams, small) == 32, "small");
static_assert(offsetof(SmokeParams, ptr) == 40, "ptr");
static_assert(sizeof(SmokeParams) == 48, "size");

// Copies the struct it received by value to out (byte for byte), and a tail
// scalar after it, so the test sees both the layout and the next argument.
extern "C" __global__ void echo_params(SmokeParams p, uint8_t* out, uint32_t tail) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        const uint8_t* src = (const uint8_t*)&p;
        for (int i = 0; i < (int)sizeof(SmokeParams); i++) out[i] = src[i];
        *(uint32_t*)(out + sizeof(SmokeParams)) = tail;
    }
}
