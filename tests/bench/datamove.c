/* datamove.c — how fast the runtime moves data (issue 11, item 6).
 *
 * In one run, on one GPU, from pageable arrays the user allocated with
 * malloc (the case of every translated program):
 *   1. contiguous arrays of 1 MB to 1 GB, host to device and back, through
 *      the runtime (s2s_data_begin/s2s_data_end, s2s_update_device/host)
 *      against raw cudaMemcpy from pinned memory (the ceiling) and from the
 *      same pageable memory (what the runtime did before);
 *   2. sub-array boxes with holes of a 3-D array, against raw pinned
 *      cudaMemcpy of the same number of bytes;
 *   3. the laplace sample (samples/laplace, 512x512x256 by default), per
 *      call with its data, translated, against the original on one core.
 * Every figure is the best of several repetitions; MB = 1e6 bytes and
 * GB/s = 1e9 bytes per second, as in the timing report.  Targets (issue 11):
 * the runtime at 80% of pinned from 64 MB up, holey boxes at 50%, laplace
 * 3x faster than one core.
 *
 *   usage: datamove [--min-mb N] [--max-mb N] [--reps N] [--laplace NX NY NZ] [--contiguous-only | --holey-only]
 *
 * Built by tests/bench/datamove.sh: for a GPU (--build DIR) or for the CPU
 * emulation at small sizes (--emulate), where the figures mean nothing but
 * every path runs and the laplace results are checked against the CPU's.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "s2s_rt.h"
#include "../rt_array.h"

/* samples/laplace/laplace.c twice: translated (its launcher does the data
 * movement) and the original, compiled with -Dlaplace3d=laplace3d_cpu. */
void laplace3d(int nx, int ny, int nz, const double u[restrict nz][ny][nx],
               double unew[restrict nz][ny][nx], double w);
void laplace3d_cpu(int nx, int ny, int nz, const double u[restrict nz][ny][nx],
                   double unew[restrict nz][ny][nx], double w);

static S2sRegion bench_r = S2S_REGION("bench", "datamove", "datamove.c", 1);

static int reps = 5;

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void check(cudaError_t err, const char *what) {
  if (err == cudaSuccess) return;
  fprintf(stderr, "datamove: %s: %s\n", what, cudaGetErrorString(err));
  exit(1);
}

static void *host_alloc(size_t bytes) {
  char *p = malloc(bytes);
  if (!p) {
    fprintf(stderr, "datamove: out of host memory for %zu bytes\n", bytes);
    exit(1);
  }
  for (size_t i = 0; i < bytes; i += 4096) p[i] = (char)i; /* touched: no first-touch faults timed */
  memset(p, 1, bytes);
  return p;
}

static double gbs(size_t bytes, double s) { return s > 0.0 ? (double)bytes / s * 1e-9 : 0.0; }

/* ---- raw cudaMemcpy ---------------------------------------------------- */

/* Best seconds of a synchronous cudaMemcpy of `bytes` between `host` and
 * device memory, in the direction `kind`. */
static double raw_copy_s(void *host, void *dev, size_t bytes, enum cudaMemcpyKind kind) {
  double best = 1e30;
  for (int r = 0; r < reps; r++) {
    double t0 = now_s();
    if (kind == cudaMemcpyHostToDevice)
      check(cudaMemcpy(dev, host, bytes, kind), "cudaMemcpy");
    else
      check(cudaMemcpy(host, dev, bytes, kind), "cudaMemcpy");
    double t = now_s() - t0;
    best = t < best ? t : best;
  }
  return best;
}

/* ---- through the runtime ------------------------------------------------ */

static S2sArray vector_of(const char *name, void *host, long n) {
  return whole_array(name, host, sizeof(double), 1, &n);
}

/* Best seconds of a region's copyin (data_begin, then waiting for the copy)
 * and of its copyout (data_end), each region a fresh present copy. */
static void runtime_clause_s(const S2sArray *a, double *in_s, double *out_s) {
  *in_s = *out_s = 1e30;
  for (int r = 0; r < reps; r++) {
    double t0 = now_s(), t;
    s2s_data_begin(&bench_r, 2, a, S2S_COPYIN);
    s2s_wait(&bench_r, 2);
    t = now_s() - t0;
    *in_s = t < *in_s ? t : *in_s;
    s2s_data_end(&bench_r, 2, a, S2S_COPYIN);
    s2s_data_begin(&bench_r, 3, a, S2S_COPYOUT);
    t0 = now_s();
    s2s_data_end(&bench_r, 3, a, S2S_COPYOUT);
    t = now_s() - t0;
    *out_s = t < *out_s ? t : *out_s;
  }
}

/* Best seconds of update device (waited for) and update host of the box of
 * `box` inside a data region that holds `whole`. */
static void runtime_update_s(const S2sArray *whole, const S2sArray *box, double *in_s, double *out_s) {
  *in_s = *out_s = 1e30;
  s2s_data_begin(&bench_r, 4, whole, S2S_CREATE);
  for (int r = 0; r < reps; r++) {
    double t0 = now_s(), t;
    s2s_update_device(&bench_r, 5, box);
    s2s_wait(&bench_r, 5);
    t = now_s() - t0;
    *in_s = t < *in_s ? t : *in_s;
    t0 = now_s();
    s2s_update_host(&bench_r, 6, box);
    t = now_s() - t0;
    *out_s = t < *out_s ? t : *out_s;
  }
  s2s_data_end(&bench_r, 4, whole, S2S_CREATE);
}

/* ---- 1. contiguous arrays ------------------------------------------------ */

static long min_mb = 1;      /* --min-mb: the smallest contiguous size */

static void bench_contiguous(long max_mb, char *pinned, void *dev) {
  printf("\n== 1. contiguous arrays, pageable (malloc) unless said: GB/s, best of %d\n", reps);
  printf("%8s | %8s %8s %8s %8s %6s | %8s %8s %8s %8s %6s\n", "MB", "H2D page", "pinned",
         "copyin", "update", "%pin", "D2H page", "pinned", "copyout", "update", "%pin");
  for (long mb = min_mb; mb <= max_mb; mb *= 4) {
    size_t bytes = (size_t)mb * 1000000;
    long n = (long)(bytes / sizeof(double));
    char *host = host_alloc(bytes);
    S2sArray a = vector_of("a", host, n);
    double page_in = raw_copy_s(host, dev, bytes, cudaMemcpyHostToDevice);
    double pin_in = raw_copy_s(pinned, dev, bytes, cudaMemcpyHostToDevice);
    double page_out = raw_copy_s(host, dev, bytes, cudaMemcpyDeviceToHost);
    double pin_out = raw_copy_s(pinned, dev, bytes, cudaMemcpyDeviceToHost);
    double cin, cout, uin, uout;
    runtime_clause_s(&a, &cin, &cout);
    runtime_update_s(&a, &a, &uin, &uout);
    double best_in = cin < uin ? cin : uin, best_out = cout < uout ? cout : uout;
    printf("%8ld | %8.2f %8.2f %8.2f %8.2f %5.0f%% | %8.2f %8.2f %8.2f %8.2f %5.0f%%\n", mb,
           gbs(bytes, page_in), gbs(bytes, pin_in), gbs(bytes, cin), gbs(bytes, uin),
           100.0 * pin_in / best_in, gbs(bytes, page_out), gbs(bytes, pin_out), gbs(bytes, cout),
           gbs(bytes, uout), 100.0 * pin_out / best_out);
    free(host);
    if (mb * 4 > max_mb && mb != max_mb && mb * 4 / max_mb < 4) mb = max_mb / 4; /* end on max_mb */
  }
}

/* ---- 2. boxes with holes ------------------------------------------------- */

typedef struct HoleyBox { const char *what; long lo[3], hi[3]; } HoleyBox;

static void bench_holey(long max_mb, char *pinned, void *dev) {
  long n = 8; /* the largest cube of doubles within max_mb / 2 */
  while ((double)(2 * n) * (2 * n) * (2 * n) * 8.0 <= (double)max_mb * 1e6 / 2.0) n *= 2;
  const HoleyBox boxes[] = {
      {"interior (2:n-1)^3", {2, 2, 2}, {n - 1, n - 1, n - 1}},
      {"i half (1:n/2,:,:)", {1, 1, 1}, {n / 2, n, n}},
      {"i tile (1:32,:,:)", {1, 1, 1}, {n < 32 ? n : 32, n, n}},
      {"j,k tile (:,2:n/2,2:n/2)", {1, 2, 2}, {n, n / 2, n / 2}},
      {"k column tile (3:n/4,3:n/4,:)", {3, 3, 1}, {n / 4, n / 4, n}},
  };
  char *host = host_alloc((size_t)n * n * n * sizeof(double));
  const long ext[3] = {n, n, n};
  S2sArray whole = whole_array("a", host, sizeof(double), 3, ext);
  printf("\n== 2. boxes with holes of a(%ld,%ld,%ld), doubles: GB/s of box bytes, best of %d\n", n,
         n, n, reps);
  printf("%-30s %9s | %8s %8s %8s %6s | %8s %8s %8s %6s\n", "box", "MB", "pinned", "copyin",
         "update", "%pin", "pinned", "copyout", "update", "%pin");
  for (size_t b = 0; b < sizeof boxes / sizeof boxes[0]; b++) {
    S2sArray box = whole;
    size_t bytes = sizeof(double);
    for (int d = 0; d < 3; d++) {
      box.sub_lo[d] = boxes[b].lo[d];
      box.sub_hi[d] = boxes[b].hi[d];
      bytes *= (size_t)(boxes[b].hi[d] - boxes[b].lo[d] + 1);
    }
    double pin_in = raw_copy_s(pinned, dev, bytes, cudaMemcpyHostToDevice);
    double pin_out = raw_copy_s(pinned, dev, bytes, cudaMemcpyDeviceToHost);
    double cin, cout, uin, uout;
    runtime_clause_s(&box, &cin, &cout);
    runtime_update_s(&whole, &box, &uin, &uout);
    double best_in = cin < uin ? cin : uin, best_out = cout < uout ? cout : uout;
    printf("%-30s %9.1f | %8.2f %8.2f %8.2f %5.0f%% | %8.2f %8.2f %8.2f %5.0f%%\n", boxes[b].what,
           (double)bytes * 1e-6, gbs(bytes, pin_in), gbs(bytes, cin), gbs(bytes, uin),
           100.0 * pin_in / best_in, gbs(bytes, pin_out), gbs(bytes, cout), gbs(bytes, uout),
           100.0 * pin_out / best_out);
  }
  free(host);
}

/* ---- 3. laplace per call with its data ---------------------------------- */

static void laplace_fill(int nx, int ny, int nz, double u[nz][ny][nx]) {
  for (int k = 0; k < nz; k++)
    for (int j = 0; j < ny; j++)
      for (int i = 0; i < nx; i++)
        u[k][j][i] = 1.0 + 0.001 * i + 0.002 * j - 0.003 * k + ((i * 7 + j * 13 + k * 29) % 17) * 1e-3;
}

static int bench_laplace(int nx, int ny, int nz) {
  size_t bytes = sizeof(double) * (size_t)nx * ny * nz;
  double (*u)[ny][nx] = host_alloc(bytes), (*cpu)[ny][nx] = host_alloc(bytes);
  double (*gpu)[ny][nx] = host_alloc(bytes);
  double best_cpu = 1e30, best_gpu = 1e30, first_gpu = 0.0, maxdiff = 0.0, scale = 0.0;
  laplace_fill(nx, ny, nz, u);
  memcpy(cpu, u, bytes);
  memcpy(gpu, u, bytes);
  for (int r = 0; r < (reps < 3 ? reps : 3); r++) {
    double t0 = now_s();
    laplace3d_cpu(nx, ny, nz, u, cpu, 0.15);
    double t = now_s() - t0;
    best_cpu = t < best_cpu ? t : best_cpu;
  }
  for (int r = 0; r <= reps; r++) { /* the first call selects the device: shown apart */
    double t0 = now_s();
    laplace3d(nx, ny, nz, u, gpu, 0.15);
    double t = now_s() - t0;
    if (r == 0) first_gpu = t;
    else best_gpu = t < best_gpu ? t : best_gpu;
  }
  for (size_t i = 0; i < (size_t)nx * ny * nz; i++) {
    double d = fabs((&gpu[0][0][0])[i] - (&cpu[0][0][0])[i]);
    maxdiff = d > maxdiff ? d : maxdiff;
    scale = fabs((&cpu[0][0][0])[i]) > scale ? fabs((&cpu[0][0][0])[i]) : scale;
  }
  printf("\n== 3. laplace %dx%dx%d (doubles), per call with its data (copyin u %.0f MB, copyout "
         "interior of unew), best of %d\n", nx, ny, nz, (double)bytes * 1e-6, reps);
  printf("%-34s %10.2f ms\n", "original, one CPU core (gcc -O3)", best_cpu * 1e3);
  printf("%-34s %10.2f ms   (first call %.2f ms)\n", "translated, data each call", best_gpu * 1e3,
         first_gpu * 1e3);
  printf("%-34s %10.2fx   (target 3x)\n", "speed-up over one core", best_cpu / best_gpu);
  printf("%-34s %10.3g      (largest value %.3g)\n", "largest difference from the CPU", maxdiff, scale);
  free(u);
  free(cpu);
  free(gpu);
  return maxdiff <= 1e-12 * (scale > 1.0 ? scale : 1.0) ? 0 : 1;
}

static long arg_long(const char *s, const char *what) {
  char *end;
  long v = strtol(s, &end, 10);
  if (*end || v <= 0) {
    fprintf(stderr, "datamove: %s '%s' is not a positive number\n", what, s);
    exit(2);
  }
  return v;
}

int main(int argc, char **argv) {
  long max_mb = 1024;
  int nx = 512, ny = 512, nz = 256, bad = 0, contiguous_only = 0, holey_only = 0;
  struct cudaDeviceProp prop;
  char *pinned;
  void *dev;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--max-mb") && i + 1 < argc) max_mb = arg_long(argv[++i], "--max-mb");
    else if (!strcmp(argv[i], "--min-mb") && i + 1 < argc) min_mb = arg_long(argv[++i], "--min-mb");
    else if (!strcmp(argv[i], "--contiguous-only")) contiguous_only = 1;
    else if (!strcmp(argv[i], "--holey-only")) holey_only = 1;
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = (int)arg_long(argv[++i], "--reps");
    else if (!strcmp(argv[i], "--laplace") && i + 3 < argc) {
      nx = (int)arg_long(argv[++i], "NX");
      ny = (int)arg_long(argv[++i], "NY");
      nz = (int)arg_long(argv[++i], "NZ");
    } else {
      fprintf(stderr, "usage: %s [--min-mb N] [--max-mb N] [--reps N] [--laplace NX NY NZ] "
              "[--contiguous-only | --holey-only]\n", argv[0]);
      return 2;
    }
  }
  s2s_region_begin(&bench_r); /* selects the device (S2S_DEVICE) */
  s2s_region_end(&bench_r);
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  printf("datamove: %s; S2S_STAGE_CHUNK=%s S2S_STAGE_BYTES=%s S2S_COPY_THREADS=%s S2S_REGISTER=%s S2S_SPAN_RATIO=%s\n",
         prop.name, getenv("S2S_STAGE_CHUNK") ? getenv("S2S_STAGE_CHUNK") : "(4M)",
         getenv("S2S_STAGE_BYTES") ? getenv("S2S_STAGE_BYTES") : "(64M)",
         getenv("S2S_COPY_THREADS") ? getenv("S2S_COPY_THREADS") : "(default)",
         getenv("S2S_REGISTER") ? getenv("S2S_REGISTER") : "(auto)",
         getenv("S2S_SPAN_RATIO") ? getenv("S2S_SPAN_RATIO") : "(1.25)");
  check(cudaMallocHost((void **)&pinned, (size_t)max_mb * 1000000), "cudaMallocHost");
  memset(pinned, 1, (size_t)max_mb * 1000000);
  check(cudaMalloc(&dev, (size_t)max_mb * 1000000), "cudaMalloc");
  if (!holey_only) bench_contiguous(max_mb, pinned, dev);
  if (!contiguous_only) bench_holey(max_mb, pinned, dev);
  check(cudaFree(dev), "cudaFree");
  check(cudaFreeHost(pinned), "cudaFreeHost");
  s2s_pool_release();
  if (!contiguous_only && !holey_only) bad = bench_laplace(nx, ny, nz);
  if (bad) fprintf(stderr, "datamove: laplace results differ from the CPU's\n");
  return bad;
}
