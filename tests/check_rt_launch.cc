// check_rt_launch.cc — the emulated launch (s2s_emu.h) and the device-side
// helpers of s2s_rt.h, compiled as C++ exactly as a generated .s2s.cu is:
//
//   g++ -std=c++14 -DS2S_EMULATE -Irt tests/check_rt_launch.cc libs2srt_emu.a -lm
//
// (a generated .s2s.cu needs `-x c++ file.s2s.cu -x none`, so that the
// library after it is not read as C++ too).
//
// S2S_LAUNCH must run every thread of the grid exactly once, in forward,
// reverse and shuffled order, with the built-ins set as CUDA sets them;
// S2S_LAUNCH_SMEM every thread of a block up to its barrier before any
// past it, on fresh shared memory per block; a
// small region then goes through the whole runtime (data clauses, kernel,
// copy out).  Exit status 0 when all checks pass, 1 otherwise.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include "s2s_rt.h"
#include "rt_array.h"

static S2sArray vector_of(const char *name, float *host, int n) {
  long ext = n;
  return whole_array(name, host, sizeof(float), 1, &ext);
}

static int failures;

#define CHECK(cond)                                                   \
  do {                                                                \
    if (!(cond)) {                                                    \
      std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__,    \
                   __LINE__, #cond);                                  \
      failures++;                                                     \
    }                                                                 \
  } while (0)

// Records which global thread ran, in which position, and whether the
// built-ins were in range.
__global__ void visit(int *count, int *order, int *next, int *bad) {
  unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned g = b * (blockDim.x * blockDim.y * blockDim.z) + t;
  if (threadIdx.x >= blockDim.x || threadIdx.y >= blockDim.y || threadIdx.z >= blockDim.z ||
      blockIdx.x >= gridDim.x || blockIdx.y >= gridDim.y || blockIdx.z >= gridDim.z)
    (*bad)++;
  count[g]++;
  order[(*next)++] = (int)g;
}

static std::vector<int> run_order(const char *order, dim3 grid, dim3 block) {
  const int n = (int)(grid.x * grid.y * grid.z * block.x * block.y * block.z);
  std::vector<int> count(n, 0), seq(n, -1);
  int next = 0, bad = 0;
  setenv("S2S_EMU_ORDER", order, 1);
  S2S_LAUNCH(visit, grid, block, count.data(), seq.data(), &next, &bad);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(next == n);
  CHECK(bad == 0);
  for (int g = 0; g < n; g++) CHECK(count[g] == 1);
  return seq;
}

static void test_orders(void) {
  dim3 grid(3, 2, 2), block(4, 3, 2);
  std::vector<int> fwd = run_order("forward", grid, block);
  std::vector<int> rev = run_order("reverse", grid, block);
  std::vector<int> shuf = run_order("shuffle", grid, block);
  std::vector<int> sorted(shuf);
  for (size_t i = 0; i < fwd.size(); i++) CHECK(fwd[i] == (int)i);
  for (size_t i = 0; i < rev.size(); i++) CHECK(rev[i] == fwd[fwd.size() - 1 - i]);
  CHECK(shuf != fwd);
  CHECK(shuf != rev);
  // Under shuffle blocks are whole (all threads of a block in a row): block
  // order and thread order are permuted separately.
  for (size_t i = 0; i < shuf.size(); i += 24)
    for (size_t j = i; j < i + 24; j++) CHECK(shuf[j] / 24 == shuf[i] / 24);
}

static void test_bad_configuration(void) {
  int count[1] = {0}, seq[1], next = 0, bad = 0;
  setenv("S2S_EMU_ORDER", "forward", 1);
  S2S_LAUNCH(visit, dim3(1), dim3(2048), count, seq, &next, &bad);
  CHECK(cudaGetLastError() == cudaErrorInvalidConfiguration);
  CHECK(next == 0);
  S2S_LAUNCH(visit, dim3(1, 65536), dim3(1), count, seq, &next, &bad);
  CHECK(cudaGetLastError() == cudaErrorInvalidConfiguration);
  S2S_LAUNCH(visit, dim3(0), dim3(32), count, seq, &next, &bad);
  CHECK(cudaGetLastError() == cudaErrorInvalidConfiguration);
  CHECK(next == 0);
}

// A region as the translator would emit it: y(i) = a*x(i) + y(i), i = 1..n.
__global__ void saxpy_k(int n, float a, const float *__restrict__ x, float *__restrict__ y) {
  int i = (int)(blockIdx.x * blockDim.x + threadIdx.x) + 1;
  if (i <= n) y[i - 1] = a * __ldg(&x[i - 1]) + y[i - 1];
}

static S2sRegion saxpy_r = S2S_REGION("saxpy_r1", "saxpy", "saxpy.f90", 3);

static void test_region_end_to_end(void) {
  const int n = 1000;
  std::vector<float> x(n), y(n);
  S2sArray ax = vector_of("x", x.data(), n), ay = vector_of("y", y.data(), n);
  for (int i = 0; i < n; i++) x[i] = (float)i, y[i] = 1.0f;
  setenv("S2S_EMU_ORDER", "shuffle", 1);
  s2s_region_begin(&saxpy_r);
  float *dx = (float *)s2s_data_begin(&saxpy_r, 3, &ax, S2S_COPYIN);
  float *dy = (float *)s2s_data_begin(&saxpy_r, 3, &ay, S2S_COPY);
  dim3 block(128), grid(s2s_grid_dim(&saxpy_r, 4, n, block.x, 0));
  CHECK(grid.x == 8);
  s2s_kernel_begin(&saxpy_r, 4, grid, block);
  S2S_LAUNCH(saxpy_k, grid, block, n, 2.0f, dx, dy);
  s2s_kernel_end(&saxpy_r, 4);
  s2s_data_end(&saxpy_r, 3, &ay, S2S_COPY);
  s2s_data_end(&saxpy_r, 3, &ax, S2S_COPYIN);
  s2s_region_end(&saxpy_r);
  for (int i = 0; i < n; i++) CHECK(y[i] == 2.0f * (float)i + 1.0f);
  CHECK(s2s_present_count() == 0);
  CHECK(saxpy_r.kernels_launched == 1);
}


// The region above, entered `times` times on arrays of its own: copies are
// queued (deferred in emulation) and the kernel must still see them, as it
// would on the thread's stream.
static int saxpy_times(int n, int times) {
  std::vector<float> x(n), y(n);
  S2sArray ax = vector_of("x", x.data(), n), ay = vector_of("y", y.data(), n);
  int bad = 0;
  for (int i = 0; i < n; i++) x[i] = (float)i, y[i] = 0.0f;
  for (int t = 0; t < times; t++) {
    s2s_region_begin(&saxpy_r);
    float *dx = (float *)s2s_data_begin(&saxpy_r, 3, &ax, S2S_COPYIN);
    float *dy = (float *)s2s_data_begin(&saxpy_r, 3, &ay, S2S_COPY);
    dim3 block(128), grid(s2s_grid_dim(&saxpy_r, 4, n, block.x, 0));
    s2s_kernel_begin(&saxpy_r, 4, grid, block);
    S2S_LAUNCH(saxpy_k, grid, block, n, 1.0f, dx, dy);
    s2s_kernel_end(&saxpy_r, 4);
    s2s_data_end(&saxpy_r, 3, &ay, S2S_COPY);
    s2s_data_end(&saxpy_r, 3, &ax, S2S_COPYIN);
    s2s_region_end(&saxpy_r);
  }
  for (int i = 0; i < n; i++) bad += y[i] != (float)times * (float)i;
  return bad;
}

// Several host threads run the region at once (OpenMP tiles in WRF), each
// on its own stream; staging windows of 256 bytes make each copy many.
static void test_threads_and_windows(void) {
  std::vector<std::thread> pool;
  std::vector<int> bad(4, 0);
  CHECK(saxpy_times(3000, 3) == 0);
  for (int t = 0; t < 4; t++)
    pool.emplace_back([t, &bad]() { bad[t] = saxpy_times(1000 + 100 * t, 10); });
  for (auto &th : pool) th.join();
  for (int t = 0; t < 4; t++) CHECK(bad[t] == 0);
  CHECK(s2s_present_count() == 0);
}

// Fortran semantics of the device helpers, as gfortran computes them.
static void test_helpers(void) {
  CHECK(s2s_sign(3.0, -0.0) == -3.0);      // copysign: SIGN(a, -0.0) = -|a|
  CHECK(s2s_sign(-3.0f, 0.0f) == 3.0f);
  CHECK(s2s_sign(-3, 0) == 3);
  CHECK(s2s_sign(3, -2) == -3);
  CHECK(s2s_nint(2.5) == 3 && s2s_nint(-2.5) == -3 && s2s_nint(2.4999f) == 2);
  CHECK(s2s_mod(-7, 3) == -1 && s2s_mod(7, -3) == 1);
  CHECK(s2s_modulo(-7, 3) == 2 && s2s_modulo(7, -3) == -2 && s2s_modulo(6, 3) == 0);
  CHECK(s2s_mod(-7.5, 2.0) == -1.5);
  CHECK(s2s_modulo(-7.5, 2.0) == 0.5 && s2s_modulo(7.5f, -2.0f) == -0.5f);
  CHECK(std::signbit(s2s_modulo(4.0, -2.0)));  // zero takes the sign of p
  CHECK(s2s_powi(2.0, 10) == 1024.0 && s2s_powi(2.0f, -2) == 0.25f);
  CHECK(s2s_ipow(3, 4) == 81 && s2s_ipow(-1, -3) == -1 && s2s_ipow(2, -1) == 0);
  CHECK(s2s_min(3, 4) == 3 && s2s_max(2.0, -1.0) == 2.0);
}

// ---- the race check (S2S_EMU_CHECK=race) ----------------------------------
// Kernels written as the translator writes them: global arrays through
// index macros over S2S_ELEM.  v(1:n) of a Fortran region; a[4][8] of a C
// one (fastest dimension first: a(i0, i1) is a[i1][i0]).
#define S2S_v(i0) S2S_ELEM(v, (long)(i0) - 1)
#define S2S_w(i0) S2S_ELEM(w, (long)(i0) - 1)
#define S2S_a(i0, i1) S2S_ELEM(a, (long)(i0) + 8L * (long)(i1))

// v(i+1) = v(i) + 1: thread i writes what thread i+1 reads.
__global__ void shift_k(int n, float *v) {
  int i = (int)(blockIdx.x * blockDim.x + threadIdx.x) + 1;
  if (i < n) S2S_v(i + 1) = S2S_v(i) + 1.0f;
}

// Every thread its own element, through the helpers that take S2sEmuElem
// and a __device__ subroutine's pointer argument: no race.
__device__ static void twice(float *x) { *x = 2.0f * *x; }
__global__ void own_k(int n, float *v, const float *w) {
  int i = (int)(blockIdx.x * blockDim.x + threadIdx.x) + 1;
  if (i > n) return;
  S2S_v(i) = s2s_max(S2S_v(i), S2S_w(i)) + s2s_powi(S2S_w(i), 2) + s2s_min(0.0f, S2S_w(i)) +
             s2s_sign(S2S_w(i), S2S_w(i)) - fabsf(S2S_w(i));
  S2S_v(i) = S2S_v(i);
  twice(&S2S_v(i));
}

// Every thread stores v(1); through a pointer when `by_pointer`.
__global__ void same_k(float *v, int by_pointer) {
  if (by_pointer) twice(&S2S_v(1));
  else S2S_v(1) = (float)threadIdx.x;
}

// Reads v(i + 50): outside a box v(1:50) for i >= 1.
__global__ void past_box_k(float *v, int n) {
  int i = (int)threadIdx.x + 1;
  if (i <= n) S2S_v(i) = S2S_v(i + 50);
}

// C: a[2][i+1] = a[2][i].
__global__ void shift_c_k(float *a) {
  int i = (int)threadIdx.x;
  if (i < 7) S2S_a(i + 1, 2) = S2S_a(i, 2);
}

// A kernel with a shared-memory tile (S2S_LAUNCH_SMEM, pass "smem"): the
// even threads of each block load their global index into the block's
// shared memory, all meet the barrier, then each thread reads the slot of
// its mirror in the block.  An odd thread's slot is never loaded: it must
// read the 0xFF bytes a block's shared memory starts with.
__global__ void mirror_k(int *out) {
  S2S_SMEM_DECLARE;
  int *slot = (int *)s2s_smem;
  int t = (int)threadIdx.x, g = (int)(blockIdx.x * blockDim.x) + t;
  if (S2S_SMEM_LOADING && t % 2 == 0) slot[t] = g;
  S2S_SMEM_SYNC();
  out[g] = slot[blockDim.x - 1 - t];
}

static void test_smem_phases(void) {
  const int blocks = 5, threads = 6;
  for (const char *order : { "forward", "reverse", "shuffle" }) {
    std::vector<int> out(blocks * threads, 7);
    setenv("S2S_EMU_ORDER", order, 1);
    S2S_LAUNCH_SMEM(mirror_k, dim3(blocks), dim3(threads), threads * sizeof(int), out.data());
    for (int b = 0; b < blocks; b++)
      for (int t = 0; t < threads; t++) {
        int mirror = threads - 1 - t;
        CHECK(out[b * threads + t] == (mirror % 2 == 0 ? b * threads + mirror : -1));
      }
  }
  unsetenv("S2S_EMU_ORDER");
}

static S2sRegion race_r = S2S_REGION("race_r1", "race", "race.f90", 10);
static S2sRegion race_c_r = S2S_REGION("race_c_r1", "race_c", "race.c", 20);

// Runs `body` in a child process with S2S_EMU_CHECK=race (and `order`);
// returns its exit status, its stderr in *err.
template <class F> static int run_checked(const char *order, F body, std::string *err) {
  char path[] = "/tmp/check_rt_race_XXXXXX";
  int fd = mkstemp(path), status = -1;
  std::fflush(stdout);
  std::fflush(stderr);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fd, 2);
    setenv("S2S_EMU_CHECK", "race", 1);
    setenv("S2S_EMU_ORDER", order, 1);
    body();
    std::fflush(stderr);
    _exit(failures ? 3 : 0);
  }
  waitpid(pid, &status, 0);
  err->clear();
  char buf[4096];
  ssize_t got;
  lseek(fd, 0, SEEK_SET);
  while ((got = read(fd, buf, sizeof buf)) > 0) err->append(buf, (size_t)got);
  close(fd);
  unlink(path);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// One launch of `kernel` over n threads in blocks of `bx` on v(1:n) (and w).
template <class K, class... A>
static void race_region(S2sRegion *r, S2sArray *av, int n, unsigned bx, const char *name, K kernel,
                        A... args) {
  s2s_region_begin(r);
  float *v = (float *)s2s_data_begin(r, r->line, av, S2S_COPY);
  long trip[3] = { n, 1, 1 };
  dim3 block = s2s_block_shape(r, r->line + 1, name, trip, bx, 1, 1, 0);
  dim3 grid(s2s_grid_dim(r, r->line + 1, n, block.x, 0));
  s2s_kernel_begin(r, r->line + 1, grid, block);
  S2S_LAUNCH(kernel, grid, block, v, args...);
  s2s_kernel_end(r, r->line + 1);
  s2s_data_end(r, r->line, av, S2S_COPY);
  s2s_region_end(r);
}

static int count_of(const std::string &s, const char *what) {
  int n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) n++;
  return n;
}

#define CHECK_HAS(text, what)                                                   \
  do {                                                                          \
    if ((text).find(what) == std::string::npos) {                               \
      std::fprintf(stderr, "%s:%d: no '%s' in:\n%s\n", __FILE__, __LINE__, what, \
                   (text).c_str());                                             \
      failures++;                                                               \
    }                                                                           \
  } while (0)

static void test_race_check(void) {
  const int n = 100;
  std::vector<float> x(n, 1.0f), y(n, 3.0f);
  S2sArray av = vector_of("v", x.data(), n), aw = vector_of("w", y.data(), n);
  std::string err;
  // Read after write in forward order; write after read in reverse order.
  auto shift = [&]() {
    s2s_region_begin(&race_r);
    float *v = (float *)s2s_data_begin(&race_r, 10, &av, S2S_COPY);
    long trip[3] = { n - 1, 1, 1 };
    dim3 block = s2s_block_shape(&race_r, 11, "shift_k", trip, 32, 1, 1, 0), grid(4);
    s2s_kernel_begin(&race_r, 11, grid, block);
    S2S_LAUNCH(shift_k, grid, block, n, v);
    s2s_kernel_end(&race_r, 11);
  };
  CHECK(run_checked("forward", shift, &err) == 1);
  CHECK_HAS(err, "s2s-cuda runtime: error: race on v(2): written by block (0,0,0) thread (0,0,0), "
                 "read by block (0,0,0) thread (1,0,0) in kernel shift_k of region race_r1 (race.f90:11)");
  CHECK(count_of(err, "race on") == 4);
  CHECK_HAS(err, "error: race check (S2S_EMU_CHECK=race): 98 elements of global arrays written by "
                 "one thread and read or written by another (the first 4 shown) in kernel shift_k "
                 "of region race_r1 (race.f90:11)");
  CHECK_HAS(err, "note: the kernel's threads share these elements");
  CHECK(run_checked("reverse", shift, &err) == 1);
  CHECK_HAS(err, "race on v(99): read by block (3,0,0) thread (2,0,0), written by block (3,0,0) thread (1,0,0)");
  // Every thread writes v(1): written twice; through a pointer as well.
  for (int by_pointer = 0; by_pointer < 2; by_pointer++) {
    CHECK(run_checked("forward", [&]() { race_region(&race_r, &av, 2, 32, "same_k", same_k, by_pointer); }, &err) == 1);
    CHECK_HAS(err, "race on v(1): written by block (0,0,0) thread (0,0,0), written by block (0,0,0) thread (1,0,0) in kernel same_k");
    CHECK_HAS(err, "race check (S2S_EMU_CHECK=race): 1 element of global arrays written");
  }
  // A C region names the element a[i1][i0].
  CHECK(run_checked("forward", [&]() {
    std::vector<float> h(32, 0.0f);
    Dim dims[2] = { { 0, 8, 0, 7 }, { 0, 4, 0, 3 } };
    S2sArray aa = make_array("a", h.data(), sizeof(float), 2, dims);
    s2s_region_begin(&race_c_r);
    float *a = (float *)s2s_data_begin(&race_c_r, 20, &aa, S2S_COPY);
    s2s_kernel_begin(&race_c_r, 21, dim3(1), dim3(8));
    S2S_LAUNCH(shift_c_k, dim3(1), dim3(8), a);
    s2s_kernel_end(&race_c_r, 21);
  }, &err) == 1);
  CHECK_HAS(err, "race on a[2][1]: written by block (0,0,0) thread (0,0,0), read by block (0,0,0) thread (1,0,0) in kernel of region race_c_r1 (race.c:21)");
  // Each thread its own element, in every order: no report, the right values.
  for (const char *order : { "forward", "reverse", "shuffle" }) {
    CHECK(run_checked(order, [&]() {
      s2s_region_begin(&race_r);
      float *v = (float *)s2s_data_begin(&race_r, 10, &av, S2S_COPY);
      float *w = (float *)s2s_data_begin(&race_r, 10, &aw, S2S_COPYIN);
      s2s_kernel_begin(&race_r, 12, dim3(4), dim3(32));
      S2S_LAUNCH(own_k, dim3(4), dim3(32), n, v, (const float *)w);
      s2s_kernel_end(&race_r, 12);
      s2s_data_end(&race_r, 10, &aw, S2S_COPYIN);
      s2s_data_end(&race_r, 10, &av, S2S_COPY);
      s2s_region_end(&race_r);
      // v = 2*(max(1,3) + 9 + 0 + 3 - 3) = 24
      for (int i = 0; i < n; i++) CHECK(x[i] == 24.0f);
    }, &err) == 0);
    CHECK(err.empty());
  }
  // A read past the box of the data clause (the device copy holds v(1:50) of v(1:100)).
  CHECK(run_checked("forward", [&]() {
    Dim dims[1] = { { 1, n, 1, 50 } };
    S2sArray half = make_array("v", x.data(), sizeof(float), 1, dims);
    race_region(&race_r, &half, 2, 32, "past_box_k", past_box_k, 2);
  }, &err) == 1);
  CHECK_HAS(err, "error: v(51) read outside the elements the device copy holds in kernel "
                 "past_box_k of region race_r1 (race.f90:11)");
  CHECK_HAS(err, "race check (S2S_EMU_CHECK=race): 2 accesses outside the device copy of an array");
  // A misspelt check stops at the first kernel.
  CHECK(run_checked("forward", [&]() {
    setenv("S2S_EMU_CHECK", "races", 1);
    race_region(&race_r, &av, 2, 32, "same_k", same_k, 0);
  }, &err) == 1);
  CHECK_HAS(err, "S2S_EMU_CHECK='races' is not a check");
}

int main(void) {
  setenv("S2S_STAGE_CHUNK", "256", 1);  // read at the runtime's first call: many windows
  test_race_check();  // first: it forks, before the runtime has started any thread
  test_orders();
  test_smem_phases();
  test_bad_configuration();
  test_region_end_to_end();
  test_threads_and_windows();
  test_helpers();
  if (failures) std::fprintf(stderr, "check_rt_launch: %d check(s) failed\n", failures);
  else std::printf("check_rt_launch: all checks passed\n");
  return failures ? 1 : 0;
}
