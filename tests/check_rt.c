/* check_rt.c — unit tests of the runtime (rt/s2s_rt.c).
 *
 * Built against the emulated runtime (-DS2S_EMULATE, libs2srt_emu.a), where
 * "device" memory is host memory; the same file also builds against the CUDA
 * runtime (libs2srt.a, -lcudart) and runs on a GPU, leaving out the checks
 * that only emulation can make (0xFF fill of fresh device memory, the count
 * of copy calls).  Device memory is read and written through cudaMemcpy
 * only, so the tests do not depend on which build they run in.
 *
 * Each test runs in its own process (check's fork mode), so the runtime's
 * process-wide state starts empty; the tests of error paths fork once more to
 * read the message the runtime prints before exit(1).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* mkstemp, fork, setenv, pread */
#endif

#include <check.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "s2s_rt.h"

/* ---- fixtures ------------------------------------------------------- */

static S2sRegion data_r = {.name = "data_r1", .routine = "diffuse", .file = "diffusion.f90", .line = 10};
static S2sRegion kern_r = {.name = "diffuse_r1", .routine = "diffuse", .file = "diffusion.f90", .line = 21};
static S2sRegion upd_r = {.name = "update_r2", .routine = "diffuse", .file = "diffusion.f90", .line = 30};
static S2sRegion c_r = {.name = "smooth_r1", .routine = "smooth", .file = "smooth.c", .line = 7};

/* One dimension of an array: declared lower bound and extent, then the box. */
typedef struct Dim { long lo, ext, sub_lo, sub_hi; } Dim;

static S2sArray make_array(const char *name, void *host, size_t elem, int rank, const Dim *dims) {
  S2sArray a;
  memset(&a, 0, sizeof a);
  a.name = name;
  a.host = host;
  a.elem = elem;
  a.rank = rank;
  for (int d = 0; d < rank; d++) {
    a.lo[d] = dims[d].lo;
    a.ext[d] = dims[d].ext;
    a.sub_lo[d] = dims[d].sub_lo;
    a.sub_hi[d] = dims[d].sub_hi;
  }
  return a;
}

static S2sArray vec(const char *name, double *host, long lo, long ext, long sub_lo, long sub_hi) {
  Dim d = {lo, ext, sub_lo, sub_hi};
  return make_array(name, host, sizeof(double), 1, &d);
}

static void dev_read(void *dst, const void *dev, size_t bytes) {
  ck_assert_int_eq(cudaMemcpy(dst, dev, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
}

static void dev_write(void *dev, const void *src, size_t bytes) {
  ck_assert_int_eq(cudaMemcpy(dev, src, bytes, cudaMemcpyHostToDevice), cudaSuccess);
}

/* Run `fn` in a child with stderr captured; it must exit with status 1 and
 * print every string of `needles` (NULL-terminated). */
static void expect_failure(void (*fn)(void), const char *const *needles) {
  char path[] = "/tmp/check_rt_XXXXXX", text[4096];
  int fd = mkstemp(path), status = 0;
  ssize_t n;
  pid_t pid;
  ck_assert_int_ge(fd, 0);
  pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    dup2(fd, 2);
    fn();
    _exit(99); /* fn returned: the runtime did not stop */
  }
  waitpid(pid, &status, 0);
  n = pread(fd, text, sizeof text - 1, 0);
  close(fd);
  unlink(path);
  text[n > 0 ? n : 0] = '\0';
  ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 1, "status %d, stderr: %s", status, text);
  for (; *needles; needles++)
    ck_assert_msg(strstr(text, *needles), "'%s' missing from stderr: %s", *needles, text);
}

/* ---- present table ---------------------------------------------------- */

START_TEST(test_data_begin_twice_refcounts) {
  double a[100], v[100];
  S2sArray d = vec("a", a, 1, 100, 1, 100);
  double *p1, *p2;
  for (int i = 0; i < 100; i++) a[i] = i, v[i] = 10.0 * i;
  p1 = s2s_data_begin(&data_r, 10, &d, S2S_COPY);
  ck_assert_int_eq(s2s_present_refs(&d), 1);
  p2 = s2s_data_begin(&kern_r, 21, &d, S2S_COPY);
  ck_assert_ptr_eq(p1, p2);
  ck_assert_int_eq(s2s_present_refs(&d), 2);
  ck_assert_int_eq(s2s_present_count(), 1);
  ck_assert_int_eq(kern_r.bytes_in, 0);
  dev_write(p1, v, sizeof v); /* what a kernel would do */
  s2s_data_end(&kern_r, 21, &d, S2S_COPY);
  ck_assert(a[5] == 5.0); /* inner reference: no copy back */
  ck_assert_int_eq(kern_r.bytes_out, 0);
  ck_assert_int_eq(s2s_present_refs(&d), 1);
  s2s_data_end(&data_r, 10, &d, S2S_COPY);
  ck_assert(a[5] == 50.0 && a[99] == 990.0); /* last reference: copied back */
  ck_assert_int_eq(data_r.bytes_in, (long long)sizeof a);
  ck_assert_int_eq(data_r.bytes_out, (long long)sizeof a);
  ck_assert_int_eq(s2s_present_count(), 0);
}
END_TEST

START_TEST(test_inner_region_copies_nothing) {
  double a[50], seen[50], v[50];
  S2sArray d = vec("a", a, 1, 50, 1, 50);
  double *p;
  for (int i = 0; i < 50; i++) a[i] = i, v[i] = -1.0;
  s2s_data_begin(&data_r, 10, &d, S2S_COPYIN);
  for (int i = 0; i < 50; i++) a[i] = 100.0 + i; /* host changes after the copy in */
  p = s2s_data_begin(&kern_r, 21, &d, S2S_COPY);
  dev_read(seen, p, sizeof seen);
  ck_assert(seen[7] == 7.0); /* the device kept the data region's copy */
  ck_assert_int_eq(kern_r.copies_in, 0);
  dev_write(p, v, sizeof v);
  s2s_data_end(&kern_r, 21, &d, S2S_COPY);
  s2s_data_end(&data_r, 10, &d, S2S_COPYIN);
  ck_assert(a[7] == 107.0); /* the creating clause was copyin: nothing came back */
  ck_assert_int_eq(kern_r.copies_out + data_r.copies_out, 0);
  ck_assert_int_eq(s2s_present_count(), 0);
}
END_TEST

START_TEST(test_column_at_offset_is_present) {
  /* a(4,5,6) on the device; a routine gets the column a(:,3,2) as b(1:4). */
  double a[6][5][4], col[4];
  Dim full[3] = {{1, 4, 1, 4}, {1, 5, 1, 5}, {1, 6, 1, 6}};
  Dim cdim = {1, 4, 1, 4};
  S2sArray d = make_array("a", a, sizeof(double), 3, full);
  S2sArray b = make_array("b", &a[1][2][0], sizeof(double), 1, &cdim);
  double *pa, *pb;
  for (int i = 0; i < 120; i++) (&a[0][0][0])[i] = i;
  pa = s2s_data_begin(&data_r, 10, &d, S2S_COPYIN);
  pb = s2s_data_begin(&kern_r, 21, &b, S2S_COPYIN);
  ck_assert_ptr_eq(pb, pa + 28); /* (3-1)*4 + (2-1)*20 */
  ck_assert_int_eq(s2s_present_count(), 1);
  ck_assert_int_eq(s2s_present_refs(&b), 2);
  dev_read(col, pb, sizeof col);
  ck_assert(col[0] == 28.0 && col[3] == 31.0);
  s2s_data_end(&kern_r, 21, &b, S2S_COPYIN);
  s2s_data_end(&data_r, 10, &d, S2S_COPYIN);
  ck_assert_int_eq(s2s_present_count(), 0);
}
END_TEST

START_TEST(test_sub_array_pointer_layout) {
  /* x(0:99), box x(10:19): p + offset(e) is e's device address for e in the box. */
  double x[100], seen[10];
  S2sArray d = vec("x", x, 0, 100, 10, 19);
  double *p;
  for (int i = 0; i < 100; i++) x[i] = i;
  p = s2s_data_begin(&kern_r, 21, &d, S2S_COPYIN);
  dev_read(seen, p + 10, sizeof seen);
  for (int i = 0; i < 10; i++) ck_assert(seen[i] == 10.0 + i);
  ck_assert_int_eq(kern_r.bytes_in, 10 * (long long)sizeof(double));
  s2s_data_end(&kern_r, 21, &d, S2S_COPYIN);
}
END_TEST

START_TEST(test_disjoint_boxes_of_one_array) {
  double x[100];
  S2sArray lo = vec("x", x, 1, 100, 1, 10), hi = vec("x", x, 1, 100, 51, 60);
  S2sArray inner = vec("x", x, 1, 100, 53, 55);
  double *pl, *ph;
  for (int i = 0; i < 100; i++) x[i] = i;
  pl = s2s_data_begin(&data_r, 10, &lo, S2S_COPYIN);
  ph = s2s_data_begin(&data_r, 10, &hi, S2S_COPYIN);
  ck_assert_int_eq(s2s_present_count(), 2);
  ck_assert_ptr_eq(s2s_data_begin(&kern_r, 21, &inner, S2S_PRESENT), ph);
  ck_assert_ptr_ne(pl, NULL);
  s2s_data_end(&kern_r, 21, &inner, S2S_PRESENT);
  s2s_data_end(&data_r, 10, &hi, S2S_COPYIN);
  s2s_data_end(&data_r, 10, &lo, S2S_COPYIN);
  ck_assert_int_eq(s2s_present_count(), 0);
}
END_TEST

START_TEST(test_empty_box_is_null) {
  double x[10];
  S2sArray d = vec("x", x, 1, 10, 5, 4);
  ck_assert_ptr_eq(s2s_data_begin(&kern_r, 21, &d, S2S_COPY), NULL);
  ck_assert_int_eq(s2s_present_count(), 0);
  s2s_data_end(&kern_r, 21, &d, S2S_COPY);
  ck_assert_int_eq(kern_r.copies_in + kern_r.copies_out, 0);
}
END_TEST

START_TEST(test_scalar_rank0) {
  double s = 2.5, seen = 0.0;
  S2sArray d = make_array("s", &s, sizeof s, 0, NULL);
  double *p = s2s_data_begin(&kern_r, 21, &d, S2S_COPYIN);
  dev_read(&seen, p, sizeof seen);
  ck_assert(seen == 2.5);
  s2s_data_end(&kern_r, 21, &d, S2S_COPYIN);
}
END_TEST

/* ---- boxes with holes --------------------------------------------------- */

/* Boxes of a(6,5,4) (lower bounds 1) and how many copy calls each needs. */
typedef struct BoxCase { Dim dims[3]; long calls; } BoxCase;
static const BoxCase box_cases[] = {
    {{{1, 6, 1, 6}, {1, 5, 1, 5}, {1, 4, 1, 4}}, 1}, /* whole array */
    {{{1, 6, 1, 6}, {1, 5, 1, 5}, {1, 4, 2, 3}}, 1}, /* full leading dims: contiguous */
    {{{1, 6, 1, 6}, {1, 5, 3, 3}, {1, 4, 2, 2}}, 1}, /* one column */
    {{{1, 6, 2, 4}, {1, 5, 2, 3}, {1, 4, 2, 3}}, 2}, /* interior: one 2-D copy per k */
    {{{1, 6, 2, 4}, {1, 5, 1, 5}, {1, 4, 2, 3}}, 1}, /* full j merges with k */
    {{{1, 6, 3, 3}, {1, 5, 1, 5}, {1, 4, 2, 3}}, 1}, /* single i: strided elements */
    {{{1, 6, 2, 5}, {1, 5, 2, 2}, {1, 4, 1, 4}}, 1}, /* single j */
    {{{1, 6, 1, 6}, {1, 5, 2, 4}, {1, 4, 1, 4}}, 1}, /* full i merges into runs of 18 */
    {{{1, 6, 2, 2}, {1, 5, 4, 4}, {1, 4, 3, 3}}, 1}, /* one element */
};

static long offset3(long i, long j, long k) { return (i - 1) + 6 * (j - 1) + 30 * (k - 1); }

static int in_box(const BoxCase *c, long i, long j, long k) {
  const Dim *d = c->dims;
  return i >= d[0].sub_lo && i <= d[0].sub_hi && j >= d[1].sub_lo && j <= d[1].sub_hi &&
         k >= d[2].sub_lo && k <= d[2].sub_hi;
}

static long box_first(const BoxCase *c) {
  return offset3(c->dims[0].sub_lo, c->dims[1].sub_lo, c->dims[2].sub_lo);
}

static long box_last(const BoxCase *c) {
  return offset3(c->dims[0].sub_hi, c->dims[1].sub_hi, c->dims[2].sub_hi);
}

START_TEST(test_copyout_box_with_holes) {
  const BoxCase *c = &box_cases[_i];
  double a[120], dev_vals[120];
  S2sArray d = make_array("a", a, sizeof(double), 3, c->dims);
  long first = box_first(c), last = box_last(c), calls;
  double *p;
  for (int o = 0; o < 120; o++) a[o] = 1000.0 + o, dev_vals[o] = 5000.0 + o;
  p = s2s_data_begin(&kern_r, 21, &d, S2S_COPYOUT);
  ck_assert_int_eq(kern_r.copies_in, 0);
  /* A kernel writes the whole span, holes included. */
  dev_write(p + first, dev_vals + first, (size_t)(last - first + 1) * sizeof(double));
#ifdef S2S_EMULATE
  calls = s2s_emu_copy_calls();
#endif
  s2s_data_end(&kern_r, 21, &d, S2S_COPYOUT);
#ifdef S2S_EMULATE
  ck_assert_int_eq(s2s_emu_copy_calls() - calls, c->calls);
#endif
  (void)calls;
  for (long k = 1; k <= 4; k++)
    for (long j = 1; j <= 5; j++)
      for (long i = 1; i <= 6; i++) {
        long o = offset3(i, j, k);
        double want = in_box(c, i, j, k) ? 5000.0 + o : 1000.0 + o;
        ck_assert_msg(a[o] == want, "case %d: a(%ld,%ld,%ld) = %g, want %g", _i, i, j, k, a[o], want);
      }
  ck_assert_int_eq(s2s_present_count(), 0);
}
END_TEST

START_TEST(test_copyin_box_with_holes) {
  const BoxCase *c = &box_cases[_i];
  double a[120], seen[120];
  S2sArray d = make_array("a", a, sizeof(double), 3, c->dims);
  long first = box_first(c), last = box_last(c), calls;
  double *p;
  for (int o = 0; o < 120; o++) a[o] = o;
#ifdef S2S_EMULATE
  calls = s2s_emu_copy_calls();
#endif
  p = s2s_data_begin(&kern_r, 21, &d, S2S_COPYIN);
#ifdef S2S_EMULATE
  ck_assert_int_eq(s2s_emu_copy_calls() - calls, c->calls);
#endif
  (void)calls;
  dev_read(seen + first, p + first, (size_t)(last - first + 1) * sizeof(double));
  for (long k = 1; k <= 4; k++)
    for (long j = 1; j <= 5; j++)
      for (long i = 1; i <= 6; i++) {
        long o = offset3(i, j, k);
        if (o < first || o > last) continue;
        if (in_box(c, i, j, k))
          ck_assert_msg(seen[o] == (double)o, "case %d: element %ld", _i, o);
#ifdef S2S_EMULATE
        else /* holes keep the signalling fill: 0xFF bytes, a NaN */
          ck_assert_msg(seen[o] != seen[o], "case %d: hole %ld was written", _i, o);
#endif
      }
  s2s_data_end(&kern_r, 21, &d, S2S_COPYIN);
  ck_assert_int_eq(s2s_present_count(), 0);
}
END_TEST

START_TEST(test_copy_bytes_counted) {
  double a[120];
  S2sArray d = make_array("a", a, sizeof(double), 3, box_cases[3].dims); /* 3x2x2 */
  s2s_data_begin(&kern_r, 21, &d, S2S_COPY);
  s2s_data_end(&kern_r, 21, &d, S2S_COPY);
  ck_assert_int_eq(kern_r.bytes_in, 12 * (long long)sizeof(double));
  ck_assert_int_eq(kern_r.bytes_out, 12 * (long long)sizeof(double));
  ck_assert_int_eq(kern_r.copies_in, 1);
  ck_assert_int_eq(kern_r.copies_out, 1);
}
END_TEST

#ifdef S2S_EMULATE
START_TEST(test_create_fills_signalling_pattern) {
  int n[8];
  Dim d = {1, 8, 1, 8};
  S2sArray a = make_array("n", n, sizeof(int), 1, &d);
  int seen[8];
  int *p = s2s_data_begin(&kern_r, 21, &a, S2S_CREATE);
  dev_read(seen, p, sizeof seen);
  for (int i = 0; i < 8; i++) ck_assert_int_eq(seen[i], -1);
  s2s_data_end(&kern_r, 21, &a, S2S_CREATE);
}
END_TEST
#endif

/* ---- update ------------------------------------------------------------ */

START_TEST(test_update_device_and_host) {
  /* float g[10][10] in C: dims fastest first, lower bounds 0. */
  float g[10][10], seen[10][10], v[10][10];
  Dim whole[2] = {{0, 10, 0, 9}, {0, 10, 0, 9}};
  Dim part[2] = {{0, 10, 2, 5}, {0, 10, 3, 4}}; /* g[3:2][2:4] */
  S2sArray all = make_array("g", g, sizeof(float), 2, whole);
  S2sArray box = make_array("g", g, sizeof(float), 2, part);
  float *p;
  for (int i = 0; i < 100; i++) (&g[0][0])[i] = (float)i, (&v[0][0])[i] = -1.0f - (float)i;
  p = s2s_data_begin(&c_r, 7, &all, S2S_CREATE);
  s2s_update_device(&c_r, 8, &box);
  dev_read(seen, p, sizeof seen);
  ck_assert(seen[3][2] == 32.0f && seen[4][5] == 45.0f);
  dev_write(p, v, sizeof v);
  s2s_update_host(&c_r, 9, &box);
  ck_assert(g[3][2] == -33.0f && g[4][5] == -46.0f); /* inside the box: device values */
  ck_assert(g[3][1] == 31.0f && g[3][6] == 36.0f && g[5][2] == 52.0f); /* outside: untouched */
  s2s_data_end(&c_r, 7, &all, S2S_CREATE);
  ck_assert(g[0][0] == 0.0f); /* create: nothing copied back */
  ck_assert_int_eq(c_r.copies_in, 1);
  ck_assert_int_eq(c_r.copies_out, 1);
}
END_TEST

/* ---- error paths ------------------------------------------------------- */

static double err_a[100];

static void present_absent(void) {
  S2sArray d = vec("a", err_a, 1, 100, 1, 100);
  s2s_data_begin(&kern_r, 21, &d, S2S_PRESENT);
}

static void update_absent(void) {
  S2sArray d = vec("a", err_a, 1, 100, 3, 7);
  s2s_update_host(&upd_r, 30, &d);
}

static void partly_present(void) {
  S2sArray outer = vec("a", err_a, 1, 100, 1, 10), inner = vec("a", err_a, 1, 100, 5, 20);
  s2s_data_begin(&data_r, 10, &outer, S2S_COPYIN);
  s2s_data_begin(&kern_r, 21, &inner, S2S_COPYIN);
}

static void box_out_of_bounds(void) {
  S2sArray d = vec("a", err_a, 1, 100, 0, 100);
  s2s_data_begin(&kern_r, 22, &d, S2S_COPYIN);
}

static void end_not_present(void) {
  S2sArray d = vec("a", err_a, 1, 100, 1, 100);
  s2s_data_end(&kern_r, 23, &d, S2S_COPYOUT);
}

static void grid_y_too_long(void) { s2s_grid_dim(&kern_r, 24, 65536L * 4, 4, 1); }
static void grid_x_too_long(void) { s2s_grid_dim(&kern_r, 24, 2147483648L, 1, 0); }

static void bad_device(void) {
  setenv("S2S_DEVICE", "999", 1);
  s2s_region_begin(&kern_r);
}

/* The exit tests check the status only (test_error_messages reads the
 * messages), so their expected errors stay out of the test log. */
static void quiet(void) {
  if (!freopen("/dev/null", "w", stderr)) return;
}

START_TEST(test_present_absent_exits) {
  quiet();
  present_absent();
}
END_TEST

START_TEST(test_update_absent_exits) {
  quiet();
  update_absent();
}
END_TEST

START_TEST(test_error_messages) {
  const char *present[] = {"s2s-cuda runtime: error: a(1:100) is not present on the device "
                           "(present clause) in region diffuse_r1 (diffusion.f90:21)",
                           "note:", NULL};
  const char *update[] = {"a(3:7) is not present", "update host", "update_r2 (diffusion.f90:30)",
                          NULL};
  const char *partly[] = {"a(5:20) is only partly present", "a(1:10)", "diffusion.f90:10",
                          "diffuse_r1 (diffusion.f90:21)", NULL};
  const char *bounds[] = {"a(0:100) is outside dimension 1 of 'a' (1:100)", "diffusion.f90:22",
                          NULL};
  const char *end[] = {"a(1:100) is not present", "diffusion.f90:23", NULL};
  const char *grid_y[] = {"262144 iterations needs 65536 blocks of 4 along grid axis y",
                          "65535", "diffuse_r1 (diffusion.f90:24)", NULL};
  const char *grid_x[] = {"along grid axis x", "2147483647", NULL};
  const char *device[] = {"S2S_DEVICE=999", "diffuse_r1 (diffusion.f90:21)", NULL};
  expect_failure(present_absent, present);
  expect_failure(update_absent, update);
  expect_failure(partly_present, partly);
  expect_failure(box_out_of_bounds, bounds);
  expect_failure(end_not_present, end);
  expect_failure(grid_y_too_long, grid_y);
  expect_failure(grid_x_too_long, grid_x);
  expect_failure(bad_device, device);
}
END_TEST

/* An assumption of the translation (its >= ims) that the call breaks. */
static void assumption_fails(void) {
  long its = 1, ims = 2;
  s2s_assume(&kern_r, 46, its - ims >= 0, "its >= ims",
             "dimension 1 of 'p' reached by the call of 'vrec' at line 46 stays inside its "
             "declared bounds", "ims = %ld, its = %ld", ims, its);
}

START_TEST(test_assumption) {
  const char *fails[] = {"s2s-cuda runtime: error: the translation assumed its >= ims "
                         "(dimension 1 of 'p' reached by the call of 'vrec' at line 46 stays "
                         "inside its declared bounds), but ims = 2, its = 1 in region diffuse_r1 "
                         "(diffusion.f90:46)", "note: no kernel ran", NULL};
  s2s_assume(&kern_r, 46, 1, "its >= ims", "why", "ims = %ld, its = %ld", 1L, 2L);  /* holds: returns */
  expect_failure(assumption_fails, fails);
}
END_TEST

/* float g[10][20] in C, box g[3:4][0:20]: messages use the C spelling. */
static void present_c_array(void) {
  static float g[10][20];
  Dim d[2] = {{0, 20, 0, 19}, {0, 10, 3, 6}};
  S2sArray a = make_array("g", g, sizeof(float), 2, d);
  s2s_data_begin(&c_r, 7, &a, S2S_PRESENT);
}

START_TEST(test_c_arrays_named_in_c_notation) {
  const char *want[] = {"g[3:4][0:20] is not present", "smooth_r1 (smooth.c:7)", NULL};
  expect_failure(present_c_array, want);
}
END_TEST

#ifdef S2S_EMULATE
static void bad_launch(void) {
  dim3 grid = {1, 1, 1}, block = {2048, 1, 1};
  s2s_kernel_begin(&kern_r, 24, grid, block);
  s2s_emu_check_launch(grid, block); /* what S2S_LAUNCH does first */
  s2s_kernel_end(&kern_r, 24);
}

static void bad_order(void) {
  dim3 one = {1, 1, 1};
  setenv("S2S_EMU_ORDER", "shufle", 1);
  s2s_kernel_begin(&kern_r, 24, one, one);
}

START_TEST(test_kernel_errors_name_kernel) {
  const char *launch[] = {"s2s-cuda runtime: error: CUDA error 'invalid configuration argument' "
                          "in kernel of region diffuse_r1 (diffusion.f90:24)",
                          NULL};
  const char *order[] = {"S2S_EMU_ORDER='shufle'", "diffusion.f90:24", NULL};
  expect_failure(bad_launch, launch);
  expect_failure(bad_order, order);
}
END_TEST
#endif

/* ---- grid sizes -------------------------------------------------------- */

typedef struct GridCase { long iterations; unsigned block; int axis; unsigned want; } GridCase;
static const GridCase grid_cases[] = {
    {1000, 128, 0, 8},  {1024, 128, 0, 8},      {1025, 128, 0, 9},
    {1, 256, 0, 1},     {0, 128, 0, 0},         {-5, 128, 1, 0},
    {65535, 1, 1, 65535}, {65535L * 8, 8, 2, 65535}, {2147483647L, 1, 0, 2147483647u},
    {5000000000L, 128, 0, 39062500},
};

START_TEST(test_grid_dim) {
  const GridCase *c = &grid_cases[_i];
  ck_assert_uint_eq(s2s_grid_dim(&kern_r, 24, c->iterations, c->block, c->axis), c->want);
}
END_TEST

START_TEST(test_grid_dim_y_limit_exits) {
  quiet();
  grid_y_too_long();
}
END_TEST

START_TEST(test_grid_dim_z_limit_exits) {
  quiet();
  s2s_grid_dim(&kern_r, 24, 65536, 1, 2);
}
END_TEST

/* ---- timing ------------------------------------------------------------ */

START_TEST(test_timing_report) {
  double a[64];
  S2sArray d = vec("a", a, 1, 64, 1, 64);
  dim3 grid = {2, 8, 1}, block = {128, 1, 1};
  char text[4096];
  FILE *out = tmpfile();
  size_t n;
  for (int it = 0; it < 2; it++) {
    s2s_region_begin(&kern_r);
    s2s_data_begin(&kern_r, 21, &d, S2S_COPY);
    s2s_kernel_begin(&kern_r, 24, grid, block);
    s2s_kernel_end(&kern_r, 24);
    s2s_data_end(&kern_r, 21, &d, S2S_COPY);
    s2s_region_end(&kern_r);
  }
  s2s_region_begin(&c_r);
  s2s_region_end(&c_r);
  s2s_timing_report(out);
  rewind(out);
  n = fread(text, 1, sizeof text - 1, out);
  text[n] = '\0';
  fclose(out);
  ck_assert_int_eq(kern_r.entered, 2);
  ck_assert_int_eq(kern_r.kernels_launched, 2);
  ck_assert_msg(strstr(text, "S2S Accelerator Kernel Timing data ("), "%s", text);
  ck_assert_msg(strstr(text, "\ndiffusion.f90\n  diffuse\n    21: region diffuse_r1 reached 2 times\n"
                             "        time(us): total="), "%s", text);
  ck_assert_msg(strstr(text, "        24: kernel launched 2 times\n"
                             "            grid: [2x8x1]  block: [128x1x1]\n"
                             "            device time(us): total="), "%s", text);
  ck_assert_msg(strstr(text, "        21: data copyin reached 2 times\n"
                             "            bytes=1,024  device time(us): total="), "%s", text);
  ck_assert_msg(strstr(text, "        21: data copyout reached 2 times\n"), "%s", text);
  ck_assert_msg(strstr(text, "GB/s\n"), "%s", text);
  ck_assert_msg(strstr(text, "\nsmooth.c\n  smooth\n    7: region smooth_r1 reached 1 times\n"), "%s", text);
  /* files in name order: diffusion.f90 before smooth.c */
  ck_assert(strstr(text, "diffusion.f90") < strstr(text, "smooth.c"));
}
END_TEST

static Suite *rt_suite(void) {
  Suite *s = suite_create("s2s_rt");
  TCase *present = tcase_create("present"), *boxes = tcase_create("boxes");
  TCase *update = tcase_create("update"), *errors = tcase_create("errors");
  TCase *grid = tcase_create("grid"), *timing = tcase_create("timing");
  int nbox = (int)(sizeof box_cases / sizeof box_cases[0]);
  int ngrid = (int)(sizeof grid_cases / sizeof grid_cases[0]);
  tcase_add_test(present, test_data_begin_twice_refcounts);
  tcase_add_test(present, test_inner_region_copies_nothing);
  tcase_add_test(present, test_column_at_offset_is_present);
  tcase_add_test(present, test_sub_array_pointer_layout);
  tcase_add_test(present, test_disjoint_boxes_of_one_array);
  tcase_add_test(present, test_empty_box_is_null);
  tcase_add_test(present, test_scalar_rank0);
  tcase_add_loop_test(boxes, test_copyout_box_with_holes, 0, nbox);
  tcase_add_loop_test(boxes, test_copyin_box_with_holes, 0, nbox);
  tcase_add_test(boxes, test_copy_bytes_counted);
#ifdef S2S_EMULATE
  tcase_add_test(boxes, test_create_fills_signalling_pattern);
  tcase_add_test(errors, test_kernel_errors_name_kernel);
#endif
  tcase_add_test(update, test_update_device_and_host);
  tcase_add_exit_test(errors, test_present_absent_exits, 1);
  tcase_add_exit_test(errors, test_update_absent_exits, 1);
  tcase_add_test(errors, test_error_messages);
  tcase_add_test(errors, test_c_arrays_named_in_c_notation);
  tcase_add_test(errors, test_assumption);
  tcase_add_loop_test(grid, test_grid_dim, 0, ngrid);
  tcase_add_exit_test(grid, test_grid_dim_y_limit_exits, 1);
  tcase_add_exit_test(grid, test_grid_dim_z_limit_exits, 1);
  tcase_add_test(timing, test_timing_report);
  suite_add_tcase(s, present);
  suite_add_tcase(s, boxes);
  suite_add_tcase(s, update);
  suite_add_tcase(s, errors);
  suite_add_tcase(s, grid);
  suite_add_tcase(s, timing);
  return s;
}

int main(void) {
  SRunner *sr;
  int failed, devices = 0;
#ifndef S2S_EMULATE
  /* Built against the CUDA runtime: without a GPU, skip (automake's 77).
   * Asked in a child, so that this process never creates a CUDA context
   * that the forked tests would inherit. */
  pid_t pid = fork();
  if (pid == 0) _exit(cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0 ? 0 : 77);
  waitpid(pid, &failed, 0);
  if (!WIFEXITED(failed) || WEXITSTATUS(failed) != 0) {
    fprintf(stderr, "check_rt: no usable GPU, skipped\n");
    return 77;
  }
#endif
  (void)devices;
  sr = srunner_create(rt_suite());
  unsetenv("S2S_TIME"); /* the tests read the report themselves */
  unsetenv("S2S_EMU_ORDER");
  srunner_run_all(sr, CK_NORMAL);
  failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
