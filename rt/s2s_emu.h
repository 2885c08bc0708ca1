/* s2s_emu.h — run generated CUDA on a CPU, one thread after another.
 *
 * s2s_rt.h includes this header instead of <cuda_runtime.h> when S2S_EMULATE
 * is defined.  It lets
 *   - a generated `.s2s.cu` file compile as plain C++ (g++ -x c++), and
 *   - s2s_rt.c compile as C11 (gcc),
 * with no CUDA toolkit installed.  That is what the differential tests use:
 * the original program and its translation run side by side on the host and
 * every output array is compared.
 *
 * What it provides:
 *   - the CUDA keywords (__global__, __device__, ...) as nothing, so kernels
 *     become ordinary functions;
 *   - the fast math intrinsics of -Mfprelaxed kernels (__expf, __fdividef,
 *     ...) as the standard functions, the products of -Kieee kernels
 *     (__fmul_rn, __dmul_rn) as plain products;
 *   - dim3/uint3 and the built-ins threadIdx, blockIdx, blockDim, gridDim as
 *     thread-local globals (defined once, with C linkage, in s2s_rt.c);
 *   - the handful of CUDA runtime calls the runtime and generated code use,
 *     implemented on the host in s2s_rt.c (so their state, e.g. the last
 *     error, is shared by C and C++ translation units; nothing is defined in
 *     this header except inline C++ helpers, so no symbol is duplicated);
 *   - in C++ only, S2S_LAUNCH, which runs every (block, thread) of a launch in
 *     turn: forward, reverse (S2S_EMU_ORDER=reverse) or in a pseudo-random
 *     order (S2S_EMU_ORDER=shuffle, seed S2S_EMU_SEED).  A kernel whose result
 *     changes with the order has a race: its loop was not really parallel.
 *
 *   - streams and events: asynchronous copies and memsets are queued on their
 *     stream and, by default, run only when something waits for them
 *     (cudaStreamSynchronize, cudaEventSynchronize, a kernel launched on the
 *     stream, a synchronous call such as cudaMemcpy or cudaFree, which waits
 *     for every stream as CUDA's legacy default stream does).  So a host that
 *     reads a copy-out buffer or rewrites a staging buffer without waiting
 *     sees stale bytes, as it might on a GPU.  S2S_EMU_ASYNC=immediate runs
 *     each asynchronous call at once instead;
 *   - pinned host memory (cudaMallocHost, cudaHostRegister) with CUDA's
 *     errors for a range registered twice.
 *
 * Not defined: __noinline__ (libstdc++ spells the GCC attribute that way).
 *   - the shared-memory tiles of pass "smem" (S2S_LAUNCH_SMEM): a kernel that
 *     stages a tile loads it, meets one barrier (S2S_SMEM_SYNC) and then
 *     computes.  Each block runs in two phases: every thread up to the
 *     barrier (the tile load: each thread loads its own share), then every
 *     thread again from the barrier on, the threads in a fresh order each
 *     phase.  The block's dynamic shared memory starts filled with 0xFF bytes
 *     (a NaN), so a read of an element no thread loaded shows.
 *
 * Not emulated: __syncthreads and __shared__ written by hand (threads run to
 * completion one at a time, so a general barrier cannot be honoured), atomics,
 * textures.
 */
#ifndef S2S_EMU_H
#define S2S_EMU_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
#include <cmath>
#include <math.h>   /* sqrtf, expf, ... in the global namespace, as nvcc has them */
#include <string.h>
#include <vector>
#else
#include <math.h>
#endif

/* ---- CUDA keywords ---------------------------------------------------- */
#define __global__
#define __device__
#define __host__
#define __constant__
#define __forceinline__ inline
#define __restrict__ __restrict
#define __launch_bounds__(...)
#define S2S_HD
#define __ldg(p) (*(p))

/* CUDA's fast single-precision intrinsics, which -Mfprelaxed kernels call,
 * as the standard functions: emulation checks the translation, not the
 * last bits of the GPU's approximations.  Macros, not functions: glibc's
 * <math.h> (included above) declares __expf and friends itself. */
#define __expf(x) expf(x)
#define __logf(x) logf(x)
#define __log10f(x) log10f(x)
#define __powf(x, y) powf(x, y)
#define __sinf(x) sinf(x)
#define __cosf(x) cosf(x)
#define __tanf(x) tanf(x)
#define __fdividef(x, y) ((x) / (y))
/* The products of -Kieee kernels, which nvcc never contracts into an FMA:
 * plain products (the emulation is built with -ffp-contract=off then). */
#define __fmul_rn(x, y) ((x) * (y))
#define __dmul_rn(x, y) ((x) * (y))
#ifdef __cplusplus
/* A barrier cannot be kept when threads run one after another to completion. */
#define __syncthreads() \
  static_assert(false, "__syncthreads() is not supported by S2S emulation")
#endif

#ifdef __cplusplus
/* GCC's __thread, not thread_local: it promises constant initialisation,
 * so C++ accesses the C definitions directly instead of through TLS wrapper
 * functions (which UBSan at -O2 misreads as null-pointer accesses). */
#define S2S_EMU_TLS __thread
#define S2S_EMU_DEFAULT(v) = v
#else
#define S2S_EMU_TLS _Thread_local
#define S2S_EMU_DEFAULT(v)
#endif

/* ---- vector types ----------------------------------------------------- */
/* Same layout in C and C++ (three unsigned ints, trivially copyable), so a
 * dim3 passes by value between C and C++ translation units unchanged. */
typedef struct uint3 { unsigned int x, y, z; } uint3;
#ifdef __cplusplus
typedef struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
} dim3;
#else
typedef struct dim3 { unsigned int x, y, z; } dim3;
#endif

/* ---- runtime API subset ----------------------------------------------- */
/* Values are CUDA's own, so messages and codes read the same in both builds. */
typedef enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidPitchValue = 12,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700,
  cudaErrorHostMemoryAlreadyRegistered = 712,
  cudaErrorHostMemoryNotRegistered = 713,
  cudaErrorLaunchFailure = 719
} cudaError_t;

/* Flags, with CUDA's values. */
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00
#define cudaEventDisableTiming 0x02
#define cudaHostRegisterDefault 0x00
#define cudaHostAllocDefault 0x00

typedef enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
} cudaMemcpyKind;

typedef struct S2sEmuEvent *cudaEvent_t;
typedef struct S2sEmuStream *cudaStream_t;

/* 3-D copies between linear memory (no CUDA arrays): CUDA's layout. */
struct cudaPos { size_t x, y, z; };
struct cudaExtent { size_t width, height, depth; };     /* width in bytes */
struct cudaPitchedPtr { void *ptr; size_t pitch, xsize, ysize; };
typedef struct cudaArray *cudaArray_t;
struct cudaMemcpy3DParms {
  cudaArray_t srcArray;
  struct cudaPos srcPos;
  struct cudaPitchedPtr srcPtr;
  cudaArray_t dstArray;
  struct cudaPos dstPos;
  struct cudaPitchedPtr dstPtr;
  struct cudaExtent extent;
  enum cudaMemcpyKind kind;
};

/* Only the fields the runtime reads. */
typedef struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem;
  int major, minor;
  int multiProcessorCount;
} cudaDeviceProp;

#ifdef __cplusplus
extern "C" {
#endif

/* CUDA built-ins: thread-local so that a multi-threaded emulator could be
 * added later without changing generated code. */
extern S2S_EMU_TLS uint3 threadIdx, blockIdx;
extern S2S_EMU_TLS dim3 blockDim, gridDim;
/* The running block's dynamic shared memory and the phase of a two-phase
 * launch (S2S_LAUNCH_SMEM): 0 up to the barrier, 1 after it. */
extern S2S_EMU_TLS unsigned char *s2s_emu_smem;
extern S2S_EMU_TLS int s2s_emu_phase;

const char *cudaGetErrorString(cudaError_t err);
const char *cudaGetErrorName(cudaError_t err);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDevice(int *device);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp *prop, int device);
cudaError_t cudaDeviceSynchronize(void);
/* Fresh "device" memory is filled with 0xFF bytes (a NaN for every float
 * type, -1 for integers), so a kernel reading data nobody copied in shows. */
cudaError_t cudaMalloc(void **ptr, size_t bytes);
cudaError_t cudaFree(void *ptr);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
                         size_t width, size_t height, cudaMemcpyKind kind);
cudaError_t cudaMemset(void *ptr, int value, size_t bytes);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind,
                            cudaStream_t stream S2S_EMU_DEFAULT(0));
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, cudaMemcpyKind kind,
                              cudaStream_t stream S2S_EMU_DEFAULT(0));
cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p,
                              cudaStream_t stream S2S_EMU_DEFAULT(0));
cudaError_t cudaMemsetAsync(void *ptr, int value, size_t bytes,
                            cudaStream_t stream S2S_EMU_DEFAULT(0));
cudaError_t cudaMallocHost(void **ptr, size_t bytes);
cudaError_t cudaFreeHost(void *ptr);
cudaError_t cudaHostRegister(void *ptr, size_t bytes, unsigned int flags);
cudaError_t cudaHostUnregister(void *ptr);
cudaError_t cudaStreamCreate(cudaStream_t *stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                                unsigned int flags S2S_EMU_DEFAULT(0));
cudaError_t cudaEventCreate(cudaEvent_t *event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream S2S_EMU_DEFAULT(0));
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t stop);
cudaError_t cudaEventDestroy(cudaEvent_t event);

/* Emulator internals used by s2s_emu_launch and the tests. */
enum { S2S_EMU_FORWARD, S2S_EMU_REVERSE, S2S_EMU_SHUFFLE };
/* S2S_EMU_ORDER as one of the above; an unknown value reads as forward
 * (s2s_kernel_begin rejects it first, naming the region). */
int s2s_emu_order(void);
/* Validate a launch configuration as CUDA does; on failure records
 * cudaErrorInvalidConfiguration as the last error (s2s_kernel_end reports it). */
cudaError_t s2s_emu_check_launch(dim3 grid, dim3 block);
/* Overwrite order[0..n-1] with a pseudo-random permutation of 0..n-1
 * (seeded once from S2S_EMU_SEED). */
void s2s_emu_permutation(unsigned long long *order, unsigned long long n);
/* Record `err` as the last error, as a failing CUDA call would. */
void s2s_emu_set_error(cudaError_t err);
/* Number of copy calls so far (every cudaMemcpy* variant; tests count them),
 * and of those the ones that cross between host and device. */
long s2s_emu_copy_calls(void);
long s2s_emu_transfer_calls(void);
/* Bytes those host-device calls moved (what would cross the bus). */
long long s2s_emu_transfer_bytes(void);
/* cudaMalloc and cudaFree calls so far, and the bytes cudaMalloc holds. */
long s2s_emu_malloc_calls(void);
long s2s_emu_free_calls(void);
size_t s2s_emu_device_bytes(void);
/* Emulated device memory size: cudaMalloc fails with
 * cudaErrorMemoryAllocation beyond `bytes` in use (0: no limit). */
void s2s_emu_set_device_limit(size_t bytes);
/* Bytes of host memory currently registered with cudaHostRegister. */
size_t s2s_emu_registered_bytes(void);
/* Asynchronous operations queued and not yet run, over all streams. */
long s2s_emu_pending_ops(void);
/* Make the next wait of the calling thread (stream or event
 * synchronisation) return `err`, as a kernel that faulted would. */
void s2s_emu_fail_next_wait(cudaError_t err);
/* Called by S2S_LAUNCH before a kernel runs: the kernel is ordered after
 * the work queued on the calling thread's stream, so that work runs first. */
void s2s_emu_launch_begin(void);

/* The race check (S2S_EMU_CHECK=race, rt/s2s_rt.c): nonzero on the calling
 * thread while a kernel runs under the check.  Then every element of a
 * global array the kernel reads or writes through its index macro
 * (S2S_ELEM) is recorded by s2s_emu_race_access: `base` is the kernel's
 * array parameter, `off` the element's linear offset from the declared
 * lower bounds, `elem` its size in bytes. */
extern S2S_EMU_TLS int s2s_emu_race_active;
void s2s_emu_race_access(const void *base, long off, size_t elem, int write) __attribute__((cold));

#ifdef __cplusplus
}

/* As CUDA's own overloads: typed pointers without casts. */
template <class T> static inline cudaError_t cudaMalloc(T **ptr, size_t bytes) {
  return cudaMalloc((void **)ptr, bytes);
}
template <class T>
static inline cudaError_t cudaMemcpyToSymbol(T &symbol, const void *src, size_t bytes,
                                             size_t offset = 0,
                                             cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return cudaMemcpy((char *)&symbol + offset, src, bytes, kind);
}

/* CUDA's fast reciprocal square root, absent from the C library. */
static inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
static inline double rsqrt(double x) { return 1.0 / sqrt(x); }

/* Linear index -> (x, y, z), x fastest, as CUDA numbers threads and blocks. */
static inline uint3 s2s_emu_index(unsigned long long i, dim3 d) {
  uint3 v;
  v.x = (unsigned)(i % d.x);
  v.y = (unsigned)(i / d.x % d.y);
  v.z = (unsigned)(i / d.x / d.y);
  return v;
}

/* The i-th of n items to run under `order`; `perm` holds the shuffle. */
static inline unsigned long long s2s_emu_pick(int order, unsigned long long i,
                                              unsigned long long n,
                                              const std::vector<unsigned long long> &perm) {
  if (order == S2S_EMU_REVERSE) return n - 1 - i;
  if (order == S2S_EMU_SHUFFLE) return perm[i];
  return i;
}

/* Run `body` (the kernel call) once per thread of the launch, setting the
 * built-ins before each call.  Under shuffle the block order is permuted,
 * and the thread order afresh for every block, so two threads of different
 * blocks as well as of one block meet in varying order.  A kernel with a
 * shared-memory tile (smem_bytes > 0) runs its threads twice per block:
 * phase 0 up to its barrier, phase 1 after it (S2S_SMEM_SYNC), on a fresh
 * block of shared memory filled with 0xFF bytes. */
template <class F>
static inline void s2s_emu_launch(dim3 grid, dim3 block, F body, size_t smem_bytes = 0) {
  if (s2s_emu_check_launch(grid, block) != cudaSuccess) return;
  s2s_emu_launch_begin();
  const int order = s2s_emu_order();
  const int phases = smem_bytes ? 2 : 1;
  const unsigned long long nblocks = (unsigned long long)grid.x * grid.y * grid.z;
  const unsigned long long nthreads = (unsigned long long)block.x * block.y * block.z;
  std::vector<unsigned long long> bperm, tperm;
  std::vector<unsigned char> smem(smem_bytes);
  if (order == S2S_EMU_SHUFFLE) {
    bperm.resize(nblocks);
    tperm.resize(nthreads);
    s2s_emu_permutation(bperm.data(), nblocks);
  }
  gridDim = grid;
  blockDim = block;
  for (unsigned long long b = 0; b < nblocks; b++) {
    blockIdx = s2s_emu_index(s2s_emu_pick(order, b, nblocks, bperm), grid);
    if (smem_bytes) memset(smem.data(), 0xFF, smem_bytes);
    s2s_emu_smem = smem_bytes ? smem.data() : NULL;
    for (int phase = 0; phase < phases; phase++) {
      s2s_emu_phase = phase;
      if (order == S2S_EMU_SHUFFLE) s2s_emu_permutation(tperm.data(), nthreads);
      for (unsigned long long t = 0; t < nthreads; t++) {
        threadIdx = s2s_emu_index(s2s_emu_pick(order, t, nthreads, tperm), block);
        body();
      }
    }
  }
  s2s_emu_smem = NULL;
  s2s_emu_phase = 0;
}

/* Arguments are evaluated at every thread's call, as each CUDA thread
 * receives its own copy of them. */
#define S2S_LAUNCH(kernel, grid, block, ...) \
  s2s_emu_launch((grid), (block), [&]() { kernel(__VA_ARGS__); })
/* A kernel with shared-memory tiles (pass "smem"), `bytes` of dynamic
 * shared memory per block, in two phases around its one barrier. */
#define S2S_LAUNCH_SMEM(kernel, grid, block, bytes, ...) \
  s2s_emu_launch((grid), (block), [&]() { kernel(__VA_ARGS__); }, (bytes))
/* In the kernel: its dynamic shared memory; whether this run of the thread
 * loads the tiles (phase 0); the barrier, where phase 0 ends. */
#define S2S_SMEM_DECLARE unsigned char *const s2s_smem = s2s_emu_smem
#define S2S_SMEM_LOADING (s2s_emu_phase == 0)
#define S2S_SMEM_SYNC() \
  do { \
    if (s2s_emu_phase == 0) return; \
  } while (0)

/* An element of a global array, as a kernel's index macro names it
 * (S2S_ELEM(p, off), see s2s_rt.h): a reference that tells the race check
 * whether it is read (converted to its value) or written (assigned, or its
 * address passed to a __device__ subroutine that may assign it).  With the
 * check off it costs a test of a thread-local flag.  The helpers of
 * s2s_rt.h that are templates (s2s_min, s2s_powi, ...) have overloads that
 * take it, so generated code compiles unchanged. */
template <class T> struct S2sEmuElem {
  T *p;
  long off;
  S2sEmuElem(T *p_, long off_) : p(p_), off(off_) {}
  S2sEmuElem(const S2sEmuElem &) = default;
  void note(int write) const {
    if (__builtin_expect(s2s_emu_race_active, 0)) s2s_emu_race_access(p, off, sizeof(T), write);
  }
  operator T() const {
    note(0);
    return p[off];
  }
  const S2sEmuElem &operator=(T v) const {
    note(1);
    p[off] = v;
    return *this;
  }
  const S2sEmuElem &operator=(const S2sEmuElem &o) const { return *this = (T)o; }
  const S2sEmuElem &operator+=(T v) const { return *this = (T)*this + v; }
  const S2sEmuElem &operator-=(T v) const { return *this = (T)*this - v; }
  const S2sEmuElem &operator*=(T v) const { return *this = (T)*this * v; }
  const S2sEmuElem &operator/=(T v) const { return *this = (T)*this / v; }
  T *operator&() const {
    note(1);
    return p + off;
  }
};
template <class T> struct S2sEmuUnconst { typedef T type; };
template <class T> struct S2sEmuUnconst<const T> { typedef T type; };
template <class T>
static inline S2sEmuElem<typename S2sEmuUnconst<T>::type> s2s_emu_elem(T *p, long off) {
  return S2sEmuElem<typename S2sEmuUnconst<T>::type>(
      const_cast<typename S2sEmuUnconst<T>::type *>(p), off);
}
#define S2S_ELEM(p, off) s2s_emu_elem((p), (long)(off))
#endif /* __cplusplus */

#endif
