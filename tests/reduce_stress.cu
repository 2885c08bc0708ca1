// reduce_stress.cu — s2s_reduce (rt/s2s_rt.h), the combining step of GPU reductions, on a
// real GPU: every block shape the emitter can ask for (1 to 1024 threads, partial warps,
// 2-D and 3-D blocks), every type (int, long long, float, double) and operator (+, max,
// min), negative values, grids of one to ~10000 blocks, each result against the host's
// sequential one: exact for integers, max and min; a real sum against the sum taken in
// double, within the rounding of adding the blocks' partials one by one (2 sqrt(blocks)
// ulps, plus 1e-6 for float and 1e-13 for double) of the sum of the magnitudes: the GPU
// adds in another order, and a million one-thread blocks make a sequential float sum,
// off by some 1e-5 (the host's own float sum is off by as much).  Not part of `make check`
// (it needs a GPU); build and run on one:
//   nvcc -arch=sm_90 -O2 -Irt tests/reduce_stress.cu -o reduce_stress && ./reduce_stress
// Prints a line per combination and exits 1 if one is wrong.
#include "s2s_rt.h"
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
template <class Op, class T> __global__ void k(const T *v, long n, T *acc, T ident) {
  long tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  long bid = blockIdx.x + gridDim.x * (blockIdx.y + (long)gridDim.y * blockIdx.z);
  long g = bid * (blockDim.x * blockDim.y * blockDim.z) + tid;
  T p = ident;
  if (g < n) p = Op()(p, v[g]);
  s2s_reduce<Op>(acc, p);
}
template <class Op, class T> int run(const char *what, dim3 b, long n, T start) {
  std::vector<T> h(n);
  for (long i = 0; i < n; i++) h[i] = (T)((long)((i * 2654435761u) % 20001) - 15000) / (T)(sizeof(T) == 4 && T(0.5) == 0 ? 1 : 7);
  T ref = start;
  double exact = (double)start, magnitude = (double)(start < 0 ? -start : start);
  for (long i = 0; i < n; i++) {
    ref = Op()(ref, h[i]);
    exact += (double)h[i];
    magnitude += (double)(h[i] < 0 ? -h[i] : h[i]);
  }
  T *dv, *da;
  cudaMalloc(&dv, n * sizeof(T)); cudaMalloc(&da, sizeof(T));
  cudaMemcpy(dv, h.data(), n * sizeof(T), cudaMemcpyHostToDevice);
  cudaMemcpy(da, &start, sizeof(T), cudaMemcpyHostToDevice);
  long per = (long)b.x * b.y * b.z, nb = (n + per - 1) / per;
  dim3 g((unsigned)(nb < 65535 ? nb : 65535), (unsigned)((nb + 65534) / 65535));
  k<Op, T><<<g, b>>>(dv, n, da, Op::template identity<T>());
  T out; cudaError_t e = cudaMemcpy(&out, da, sizeof(T), cudaMemcpyDeviceToHost);
  cudaFree(dv); cudaFree(da);
  bool real_sum = Op::template identity<T>() == T(0) && T(0.5) != T(0);
  /* the blocks' partials are added one by one (atomics): a sum of nb terms, whose
   * rounding grows like sqrt(nb) ulps */
  double ulp = sizeof(T) == 4 ? 6e-8 : 1.1e-16;
  double tol = (sizeof(T) == 4 ? 1e-6 : 1e-13) + 2.0 * std::sqrt((double)nb) * ulp;
  bool close = real_sum ? ((double)out - exact <= tol * magnitude && exact - (double)out <= tol * magnitude)
                        : out == ref;
  bool ok = e == cudaSuccess && close;
  printf("%s %-6s block %4ux%ux%u n=%8ld: %s (%.17g vs %.17g)\n", ok ? "ok  " : "FAIL", what, b.x, b.y, b.z, n,
         cudaGetErrorString(e), (double)out, real_sum ? exact : (double)ref);
  return !ok;
}
int main() {
  int bad = 0;
  dim3 shapes[] = { dim3(1), dim3(31), dim3(32), dim3(33), dim3(100), dim3(128), dim3(1024), dim3(100, 3), dim3(7, 5, 3), dim3(32, 32) };
  long sizes[] = { 1, 1000, 1234567 };
  for (dim3 b : shapes) for (long n : sizes) {
    bad += run<S2sSum, double>("sum d", b, n, 3.0);
    bad += run<S2sSum, float>("sum f", b, n, 3.0f);
    bad += run<S2sSum, int>("sum i", b, n, 3);
    bad += run<S2sSum, long long>("sum ll", b, n, 3);
    bad += run<S2sMax, double>("max d", b, n, -1e300);
    bad += run<S2sMax, float>("max f", b, n, -16000.0f);
    bad += run<S2sMin, float>("min f", b, n, 1e30f);
    bad += run<S2sMin, double>("min d", b, n, -14999.5);
    bad += run<S2sMax, int>("max i", b, n, -20000);
    bad += run<S2sMin, int>("min i", b, n, 0);
    bad += run<S2sMax, long long>("max ll", b, n, -20000);
    bad += run<S2sMin, long long>("min ll", b, n, 5);
  }
  printf("stress: %d failed\n", bad);
  return bad != 0;
}
