// copy_bw.cu -- the bandwidths the floors of a benchmark are judged against
// (tests/bench/wsm5.sh): a device-to-device copy kernel (what a kernel that
// only moves its bytes achieves) and pinned host<->device copies (what the
// data of a call can move at).  Prints one line per figure, best of REPS.
//   copy_bw [MB [REPS]]      default 1024 MB, 20 repetitions
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                              \
  do {                                                                           \
    cudaError_t err_ = (call);                                                   \
    if (err_ != cudaSuccess) {                                                   \
      fprintf(stderr, "copy_bw: %s: %s\n", #call, cudaGetErrorString(err_));     \
      exit(1);                                                                   \
    }                                                                            \
  } while (0)

__global__ void copy_kernel(const float4 *__restrict__ in, float4 *__restrict__ out, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    out[i] = in[i];
}

// Best time in ms of REPS runs of what the callback enqueues, timed by events.
typedef void (*enqueue_fn)(void *);
static float best_ms(enqueue_fn fn, void *arg, int reps) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  float best = 1e30f;
  for (int r = 0; r < reps; r++) {
    CHECK(cudaEventRecord(a));
    fn(arg);
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    if (ms < best) best = ms;
  }
  CHECK(cudaEventDestroy(a));
  CHECK(cudaEventDestroy(b));
  return best;
}

struct job {
  void *dst;
  const void *src;
  size_t bytes;
  cudaMemcpyKind kind;
  int blocks;
};
static void run_kernel(void *p) {
  struct job *j = (struct job *)p;
  copy_kernel<<<j->blocks, 256>>>((const float4 *)j->src, (float4 *)j->dst, j->bytes / sizeof(float4));
}
static void run_memcpy(void *p) {
  struct job *j = (struct job *)p;
  CHECK(cudaMemcpyAsync(j->dst, j->src, j->bytes, j->kind, 0));
}

int main(int argc, char **argv) {
  size_t mb = argc > 1 ? strtoul(argv[1], NULL, 10) : 1024;
  int reps = argc > 2 ? atoi(argv[2]) : 20;
  size_t bytes = mb << 20;
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  void *d_in, *d_out, *h;
  CHECK(cudaMalloc(&d_in, bytes));
  CHECK(cudaMalloc(&d_out, bytes));
  CHECK(cudaMallocHost(&h, bytes));
  CHECK(cudaMemset(d_in, 1, bytes));
  memset(h, 1, bytes);
  struct job j = {d_out, d_in, bytes, cudaMemcpyDeviceToDevice, prop.multiProcessorCount * 8};
  run_kernel(&j); // warm-up
  float ms = best_ms(run_kernel, &j, reps);
  printf("device copy kernel: %.0f GB/s (%zu MB read + written, best of %d)\n",
         2.0 * bytes / ms / 1e6, mb, reps);
  struct job up = {d_in, h, bytes, cudaMemcpyHostToDevice, 0};
  ms = best_ms(run_memcpy, &up, reps);
  printf("pinned host to device: %.1f GB/s\n", bytes / ms / 1e6);
  struct job down = {h, d_out, bytes, cudaMemcpyDeviceToHost, 0};
  ms = best_ms(run_memcpy, &down, reps);
  printf("pinned device to host: %.1f GB/s\n", bytes / ms / 1e6);
  CHECK(cudaFreeHost(h));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  return 0;
}
