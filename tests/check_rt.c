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
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "s2s_rt.h"
#include "rt_array.h"
#include "s2s_rt_internal.h"

/* ---- fixtures ------------------------------------------------------- */

static S2sRegion data_r = {.name = "data_r1", .routine = "diffuse", .file = "diffusion.f90", .line = 10};
static S2sRegion kern_r = {.name = "diffuse_r1", .routine = "diffuse", .file = "diffusion.f90", .line = 21};
static S2sRegion upd_r = {.name = "update_r2", .routine = "diffuse", .file = "diffusion.f90", .line = 30};
static S2sRegion c_r = {.name = "smooth_r1", .routine = "smooth", .file = "smooth.c", .line = 7};

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

/* Which present copy holds a box: a(100,10) doubles, a data region holding
 * `held`, then a region asking for `asked` (present-or copy-in).  The span
 * of a holey copy covers elements it does not hold: a box in its holes is
 * not present (it gets a copy of its own, whose contents must be right),
 * and a box partly in it stops the run.  `view` asks through a 1-D view
 * of column 3, a(1:100,3) handed on as b(1:100) (another layout: compared
 * row by row). */
typedef enum Holds { HOLDS_INSIDE, HOLDS_APART, HOLDS_PARTLY } Holds;
typedef struct PresentCase { Dim held[2], asked[2]; int view; long view_lo, view_hi; Holds want; } PresentCase;
static const PresentCase present_cases[] = {
    {{{1, 100, 1, 5}, {1, 10, 1, 10}}, {{1, 100, 3, 4}, {1, 10, 2, 5}}, 0, 0, 0, HOLDS_INSIDE},
    {{{1, 100, 1, 5}, {1, 10, 1, 10}}, {{1, 100, 50, 60}, {1, 10, 3, 3}}, 0, 0, 0, HOLDS_APART},   /* in the holes */
    {{{1, 100, 1, 5}, {1, 10, 1, 10}}, {{1, 100, 4, 8}, {1, 10, 2, 2}}, 0, 0, 0, HOLDS_PARTLY},
    {{{1, 100, 1, 50}, {1, 10, 1, 10}}, {{1, 100, 51, 100}, {1, 10, 1, 10}}, 0, 0, 0, HOLDS_APART}, /* OpenMP halves of i */
    {{{1, 100, 1, 50}, {1, 10, 1, 10}}, {{1, 100, 50, 100}, {1, 10, 1, 10}}, 0, 0, 0, HOLDS_PARTLY},
    {{{1, 100, 1, 100}, {1, 10, 2, 4}}, {{1, 100, 1, 100}, {1, 10, 3, 3}}, 0, 0, 0, HOLDS_INSIDE},
    {{{1, 100, 1, 100}, {1, 10, 2, 4}}, {{0}}, 1, 1, 100, HOLDS_INSIDE},                  /* view: a contiguous copy */
    {{{1, 100, 1, 5}, {1, 10, 1, 10}}, {{0}}, 1, 1, 5, HOLDS_INSIDE},                     /* view: one row of the copy */
    {{{1, 100, 1, 5}, {1, 10, 1, 10}}, {{0}}, 1, 2, 6, HOLDS_PARTLY},                     /* view: past the row */
    {{{1, 100, 1, 5}, {1, 10, 1, 10}}, {{0}}, 1, 40, 60, HOLDS_PARTLY},                   /* view: in the holes (not told apart) */
};

static const PresentCase *present_case;

static void present_case_run(void) {
  static double a[1000];
  const PresentCase *c = present_case;
  S2sArray held = make_array("a", a, sizeof(double), 2, c->held), asked;
  double *p, *q;
  if (c->view) {
    Dim col = {1, 100, c->view_lo, c->view_hi};
    asked = make_array("b", a + 200, sizeof(double), 1, &col);
  } else {
    asked = make_array("a", a, sizeof(double), 2, c->asked);
  }
  for (int o = 0; o < 1000; o++) a[o] = o;
  p = s2s_data_begin(&data_r, 10, &held, S2S_COPYIN);
  q = s2s_data_begin(&kern_r, 21, &asked, S2S_COPYIN); /* stops here when partly present */
  {
    long refs = s2s_present_refs(&held);
    ck_assert_msg(refs == (c->want == HOLDS_INSIDE ? 2 : 1), "%ld references to the held copy", refs);
  }
  if (c->want == HOLDS_APART) { /* a copy of its own, filled: read back an element */
    long i = c->asked[0].sub_lo, j = c->asked[1].sub_lo, o = (i - 1) + 100 * (j - 1);
    double v;
    ck_assert_int_eq(s2s_present_count(), 2);
    dev_read(&v, q + o, sizeof v);
    ck_assert_msg(v == (double)o, "a(%ld,%ld) on the device is %g", i, j, v);
  } else {
    ck_assert_ptr_eq((char *)q, (char *)p + (c->view ? 200 * sizeof(double) : 0));
  }
  s2s_data_end(&kern_r, 21, &asked, S2S_COPYIN);
  s2s_data_end(&data_r, 10, &held, S2S_COPYIN);
  ck_assert_int_eq(s2s_present_count(), 0);
}

START_TEST(test_present_boxes) {
  const char *partly[] = {"is only partly present", "a(", NULL};
  present_case = &present_cases[_i];
  if (present_case->want == HOLDS_PARTLY) expect_failure(present_case_run, partly);
  else present_case_run();
}
END_TEST

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

/* enter data / exit data (OpenACC's dynamic reference count) mixed with
 * structured data clauses: each step of a case is one call, then the
 * references it must leave (all, and dynamic) and whether the host array
 * holds the device's values (copied back) or still its own. */
typedef enum RefOp {
  ENTER_COPYIN, ENTER_CREATE, EXIT_COPYOUT, EXIT_DELETE, EXIT_COPYOUT_FINALIZE,
  EXIT_DELETE_FINALIZE, BEGIN_COPY, END_COPY, BEGIN_COPYIN, END_COPYIN, DEVICE_WRITE
} RefOp;

typedef struct RefStep { RefOp op; long refs, dynamic; int host_has_device_values; } RefStep;

typedef struct RefCase {
  const char *name;
  RefStep steps[8];
  int nsteps;
  long copies_in, copies_out; /* box transfers of the whole case */
} RefCase;

static const RefCase ref_cases[] = {
    {"enter twice, exit once: still present; the second exit copies out",
     {{ENTER_COPYIN, 1, 1, 0}, {ENTER_COPYIN, 2, 2, 0}, {DEVICE_WRITE, 2, 2, 0},
      {EXIT_COPYOUT, 1, 1, 0}, {EXIT_COPYOUT, 0, 0, 1}}, 5, 1, 1},
    {"finalize drops every dynamic reference at once",
     {{ENTER_COPYIN, 1, 1, 0}, {ENTER_CREATE, 2, 2, 0}, {DEVICE_WRITE, 2, 2, 0},
      {EXIT_COPYOUT_FINALIZE, 0, 0, 1}}, 4, 1, 1},
    {"delete frees without copying out",
     {{ENTER_COPYIN, 1, 1, 0}, {DEVICE_WRITE, 1, 1, 0}, {EXIT_DELETE, 0, 0, 0}}, 3, 1, 0},
    {"create copies nothing in; delete with finalize",
     {{ENTER_CREATE, 1, 1, 0}, {ENTER_CREATE, 2, 2, 0}, {EXIT_DELETE_FINALIZE, 0, 0, 0}}, 3, 0, 0},
    {"exit data of an absent array: no action",
     {{EXIT_COPYOUT, 0, 0, 0}, {EXIT_DELETE_FINALIZE, 0, 0, 0}}, 2, 0, 0},
    {"exit data of an array no enter data holds: no action",
     {{BEGIN_COPY, 1, 0, 0}, {EXIT_COPYOUT, 1, 0, 0}, {DEVICE_WRITE, 1, 0, 0},
      {END_COPY, 0, 0, 1}}, 4, 1, 1},
    {"a region between enter and exit finds it present and moves nothing",
     {{ENTER_COPYIN, 1, 1, 0}, {BEGIN_COPY, 2, 1, 0}, {DEVICE_WRITE, 2, 1, 0},
      {END_COPY, 1, 1, 0}, {EXIT_COPYOUT, 0, 0, 1}}, 5, 1, 1},
    {"enter inside a data region outlives it; exit delete copies nothing back",
     {{BEGIN_COPY, 1, 0, 0}, {ENTER_COPYIN, 2, 1, 0}, {DEVICE_WRITE, 2, 1, 0},
      {END_COPY, 1, 1, 0}, {EXIT_DELETE, 0, 0, 0}}, 5, 1, 0},
    {"exit inside a data region: the data region's end copies out, by its own clause",
     {{ENTER_CREATE, 1, 1, 0}, {BEGIN_COPY, 2, 1, 0}, {DEVICE_WRITE, 2, 1, 0},
      {EXIT_COPYOUT, 1, 0, 0}, {END_COPY, 0, 0, 1}}, 5, 0, 1},
    {"... and a copyin data region ending last copies nothing back",
     {{ENTER_COPYIN, 1, 1, 0}, {BEGIN_COPYIN, 2, 1, 0}, {DEVICE_WRITE, 2, 1, 0},
      {EXIT_COPYOUT, 1, 0, 0}, {END_COPYIN, 0, 0, 0}}, 5, 1, 0},
};

START_TEST(test_enter_exit_reference_counts) {
  const RefCase *c = &ref_cases[_i];
  static S2sRegion enter_r = {.name = "s2s_init_e1", .routine = "init", .file = "init.f90", .line = 5};
  static S2sRegion exit_r = {.name = "s2s_finish_x1", .routine = "finish", .file = "init.f90", .line = 40};
  double a[64], v[64];
  S2sArray d = vec("a", a, 1, 64, 1, 64);
  for (int i = 0; i < 64; i++) a[i] = i, v[i] = -1.0 - i;
  for (int k = 0; k < c->nsteps; k++) {
    const RefStep *st = &c->steps[k];
    switch (st->op) {
    case ENTER_COPYIN: s2s_enter_data(&enter_r, 5, &d, S2S_COPYIN); break;
    case ENTER_CREATE: s2s_enter_data(&enter_r, 5, &d, S2S_CREATE); break;
    case EXIT_COPYOUT: s2s_exit_data(&exit_r, 40, &d, S2S_COPYOUT, 0); break;
    case EXIT_DELETE: s2s_exit_data(&exit_r, 40, &d, S2S_DELETE, 0); break;
    case EXIT_COPYOUT_FINALIZE: s2s_exit_data(&exit_r, 40, &d, S2S_COPYOUT, 1); break;
    case EXIT_DELETE_FINALIZE: s2s_exit_data(&exit_r, 40, &d, S2S_DELETE, 1); break;
    case BEGIN_COPY: s2s_data_begin(&kern_r, 21, &d, S2S_COPY); break;
    case END_COPY: s2s_data_end(&kern_r, 21, &d, S2S_COPY); break;
    case BEGIN_COPYIN: s2s_data_begin(&kern_r, 21, &d, S2S_COPYIN); break;
    case END_COPYIN: s2s_data_end(&kern_r, 21, &d, S2S_COPYIN); break;
    case DEVICE_WRITE: {
      /* what a kernel would do: through the present copy's pointer */
      double *p = s2s_data_begin(&kern_r, 21, &d, S2S_PRESENT);
      dev_write(p, v, sizeof v);
      s2s_data_end(&kern_r, 21, &d, S2S_PRESENT);
      break;
    }
    }
    ck_assert_msg(s2s_present_refs(&d) == st->refs, "%s, step %d: %ld references, expected %ld",
                  c->name, k + 1, s2s_present_refs(&d), st->refs);
    ck_assert_msg(s2s_present_dynamic_refs(&d) == st->dynamic,
                  "%s, step %d: %ld dynamic references, expected %ld", c->name, k + 1,
                  s2s_present_dynamic_refs(&d), st->dynamic);
    ck_assert_msg((a[9] == v[9]) == (st->host_has_device_values != 0),
                  "%s, step %d: the host holds %g", c->name, k + 1, a[9]);
    ck_assert_int_eq(s2s_present_count(), st->refs ? 1 : 0);
  }
  ck_assert_msg(enter_r.copies_in + kern_r.copies_in == c->copies_in, "%s: %ld copies in", c->name,
                enter_r.copies_in + kern_r.copies_in);
  ck_assert_msg(exit_r.copies_out + kern_r.copies_out == c->copies_out, "%s: %ld copies out",
                c->name, exit_r.copies_out + kern_r.copies_out);
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

/* Boxes of a(6,5,4) (lower bounds 1) and how each moves: one contiguous
 * run; the whole span when it is at most 1.25 times the box (S2S_SPAN_RATIO's
 * default); otherwise packed on the host and unpacked on the device by one
 * 2-D or 3-D copy.  Each crosses the bus in one transfer (one staging
 * window) and never row by row. */
typedef enum Move { CONTIGUOUS, SPAN, PACKED } Move;
typedef struct BoxCase { Dim dims[3]; Move move; } BoxCase;
static const BoxCase box_cases[] = {
    {{{1, 6, 1, 6}, {1, 5, 1, 5}, {1, 4, 1, 4}}, CONTIGUOUS}, /* whole array */
    {{{1, 6, 1, 6}, {1, 5, 1, 5}, {1, 4, 2, 3}}, CONTIGUOUS}, /* full leading dims */
    {{{1, 6, 1, 6}, {1, 5, 3, 3}, {1, 4, 2, 2}}, CONTIGUOUS}, /* one column */
    {{{1, 6, 2, 4}, {1, 5, 2, 3}, {1, 4, 2, 3}}, PACKED},     /* interior: 3 runs, one pack kernel */
    {{{1, 6, 2, 4}, {1, 5, 1, 5}, {1, 4, 2, 3}}, PACKED},     /* full j merges with k: 2 runs */
    {{{1, 6, 3, 3}, {1, 5, 1, 5}, {1, 4, 2, 3}}, PACKED},     /* single i: strided elements */
    {{{1, 6, 2, 5}, {1, 5, 2, 2}, {1, 4, 1, 4}}, PACKED},     /* single j */
    {{{1, 6, 1, 6}, {1, 5, 2, 4}, {1, 4, 1, 4}}, PACKED},     /* full i merges into runs of 18 */
    {{{1, 6, 2, 2}, {1, 5, 4, 4}, {1, 4, 3, 3}}, CONTIGUOUS}, /* one element */
    {{{1, 6, 1, 5}, {1, 5, 1, 5}, {1, 4, 2, 3}}, SPAN},       /* span 59 <= 1.25 * 50 */
    {{{1, 6, 1, 5}, {1, 5, 2, 5}, {1, 4, 2, 2}}, SPAN},       /* span 23 <= 1.25 * 20 */
    {{{1, 6, 2, 6}, {1, 5, 1, 5}, {1, 4, 1, 4}}, SPAN},       /* span 119 <= 1.25 * 100 */
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

static long box_size(const BoxCase *c) {
  long n = 1;
  for (int d = 0; d < 3; d++) n *= c->dims[d].sub_hi - c->dims[d].sub_lo + 1;
  return n;
}

#ifdef S2S_EMULATE
/* Copy calls, bus transfers and bus bytes since `mark`. */
typedef struct Traffic { long calls, transfers; long long bytes; } Traffic;

static Traffic traffic_now(void) {
  Traffic t = {s2s_emu_copy_calls(), s2s_emu_transfer_calls(), s2s_emu_transfer_bytes()};
  return t;
}

/* One window (the default is 8 MiB), and device copies only when packed. */
static void check_traffic(const BoxCase *c, Traffic mark, int which) {
  Traffic now = traffic_now();
  long span = box_last(c) - box_first(c) + 1;
  long long want_bytes = (long long)(c->move == SPAN ? span : box_size(c)) * (long long)sizeof(double);
  ck_assert_msg(now.transfers - mark.transfers == 1, "case %d: %ld transfers", which,
                now.transfers - mark.transfers);
  ck_assert_msg(now.calls - now.transfers - (mark.calls - mark.transfers) == (c->move == PACKED),
                "case %d: %ld device-side copies", which,
                now.calls - now.transfers - (mark.calls - mark.transfers));
  ck_assert_msg(now.bytes - mark.bytes == want_bytes, "case %d: %lld bus bytes, want %lld", which,
                now.bytes - mark.bytes, want_bytes);
}
#endif

START_TEST(test_copyout_box_with_holes) {
  const BoxCase *c = &box_cases[_i];
  double a[120], dev_vals[120];
  S2sArray d = make_array("a", a, sizeof(double), 3, c->dims);
  long first = box_first(c), last = box_last(c);
  double *p;
  for (int o = 0; o < 120; o++) a[o] = 1000.0 + o, dev_vals[o] = 5000.0 + o;
  p = s2s_data_begin(&kern_r, 21, &d, S2S_COPYOUT);
  ck_assert_int_eq(kern_r.copies_in, 0);
  /* A kernel writes the whole span, holes included. */
  dev_write(p + first, dev_vals + first, (size_t)(last - first + 1) * sizeof(double));
#ifdef S2S_EMULATE
  Traffic mark = traffic_now();
#endif
  s2s_data_end(&kern_r, 21, &d, S2S_COPYOUT);
#ifdef S2S_EMULATE
  check_traffic(c, mark, _i);
#endif
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
  long first = box_first(c), last = box_last(c);
  double *p;
  for (int o = 0; o < 120; o++) a[o] = o;
#ifdef S2S_EMULATE
  Traffic mark = traffic_now();
#endif
  p = s2s_data_begin(&kern_r, 21, &d, S2S_COPYIN);
#ifdef S2S_EMULATE
  check_traffic(c, mark, _i);
#endif
  dev_read(seen + first, p + first, (size_t)(last - first + 1) * sizeof(double));
  for (long k = 1; k <= 4; k++)
    for (long j = 1; j <= 5; j++)
      for (long i = 1; i <= 6; i++) {
        long o = offset3(i, j, k);
        if (o < first || o > last) continue;
        if (in_box(c, i, j, k) || c->move == SPAN) /* the span moves whole into a fresh copy */
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

/* An update of a box inside a present copy never writes the device copy's
 * elements outside the box, even when the span would qualify: those may
 * hold results the host has not seen. */
START_TEST(test_update_device_keeps_holes) {
  const BoxCase *c = &box_cases[_i];
  double a[120], seen[120];
  Dim whole[3] = {{1, 6, 1, 6}, {1, 5, 1, 5}, {1, 4, 1, 4}};
  S2sArray all = make_array("a", a, sizeof(double), 3, whole);
  S2sArray box = make_array("a", a, sizeof(double), 3, c->dims);
  double *p;
  for (int o = 0; o < 120; o++) a[o] = -1.0 - o, seen[o] = 7.0;
  p = s2s_data_begin(&data_r, 10, &all, S2S_CREATE);
  dev_write(p, seen, sizeof seen); /* "results" the device computed */
  for (int o = 0; o < 120; o++) a[o] = o;
  s2s_update_device(&upd_r, 30, &box);
  dev_read(seen, p, sizeof seen);
  for (long k = 1; k <= 4; k++)
    for (long j = 1; j <= 5; j++)
      for (long i = 1; i <= 6; i++) {
        long o = offset3(i, j, k);
        ck_assert_msg(seen[o] == (in_box(c, i, j, k) ? (double)o : 7.0), "case %d: element %ld = %g",
                      _i, o, seen[o]);
      }
  s2s_data_end(&data_r, 10, &all, S2S_CREATE);
}
END_TEST

/* ---- staging windows ---------------------------------------------------- */

/* Staging windows of `chunk` bytes (S2S_STAGE_CHUNK), boxes of a(37,11,5)
 * (doubles): windows that split rows, end on row boundaries, or hold the
 * whole box, each way of moving; the copy-in and copy-out must be exact in
 * the emulation's deferred mode, where a missing wait for a window would
 * send stale bytes. */
typedef struct ChunkCase { const char *chunk; Dim dims[3]; long windows; } ChunkCase;
static const ChunkCase chunk_cases[] = {
    {"8", {{1, 37, 1, 37}, {1, 11, 1, 11}, {1, 5, 1, 5}}, 2035},     /* one element per window */
    {"24", {{1, 37, 1, 37}, {1, 11, 1, 11}, {1, 5, 1, 5}}, 679},     /* 3 per window, last 2 */
    {"296", {{1, 37, 1, 37}, {1, 11, 1, 11}, {1, 5, 1, 5}}, 55},     /* one column per window */
    {"1000", {{1, 37, 1, 37}, {1, 11, 1, 11}, {1, 5, 2, 4}}, 10},    /* contiguous slab */
    {"200", {{1, 37, 3, 30}, {1, 11, 2, 9}, {1, 5, 2, 4}}, 27},      /* packed, rows of 224 bytes split */
    {"224", {{1, 37, 3, 30}, {1, 11, 2, 9}, {1, 5, 2, 4}}, 24},      /* packed, one row per window */
    {"1M", {{1, 37, 3, 30}, {1, 11, 2, 9}, {1, 5, 2, 4}}, 1},        /* packed, one window */
    {"96", {{1, 37, 2, 37}, {1, 11, 1, 11}, {1, 5, 1, 3}}, 102},     /* span: 1220 elements for 1188 */
    {"4k", {{1, 37, 2, 37}, {1, 11, 1, 11}, {1, 5, 1, 3}}, 3},       /* span, few windows */
};

static long off37(long i, long j, long k) { return (i - 1) + 37 * (j - 1) + 407 * (k - 1); }

static int in_dims(const Dim *d, long i, long j, long k) {
  return i >= d[0].sub_lo && i <= d[0].sub_hi && j >= d[1].sub_lo && j <= d[1].sub_hi &&
         k >= d[2].sub_lo && k <= d[2].sub_hi;
}

START_TEST(test_staging_windows) {
  const ChunkCase *c = &chunk_cases[_i];
  static double a[2035], dev_vals[2035];
  S2sArray d = make_array("a", a, sizeof(double), 3, c->dims);
  double *p, seen[2035];
  long first;
  size_t span;
  setenv("S2S_STAGE_CHUNK", c->chunk, 1); /* read at the first call (each test forks) */
  for (int o = 0; o < 2035; o++) a[o] = o, dev_vals[o] = 10000.0 + o;
#ifdef S2S_EMULATE
  long mark = s2s_emu_transfer_calls();
#endif
  p = s2s_data_begin(&kern_r, 21, &d, S2S_COPY);
#ifdef S2S_EMULATE
  ck_assert_msg(s2s_emu_transfer_calls() - mark == c->windows, "case %d: %ld windows in", _i,
                s2s_emu_transfer_calls() - mark);
#endif
  /* The device copy covers the box's span only. */
  first = off37(c->dims[0].sub_lo, c->dims[1].sub_lo, c->dims[2].sub_lo);
  span = (size_t)(off37(c->dims[0].sub_hi, c->dims[1].sub_hi, c->dims[2].sub_hi) - first + 1);
  dev_read(seen + first, p + first, span * sizeof(double));
  for (long k = 1; k <= 5; k++)
    for (long j = 1; j <= 11; j++)
      for (long i = 1; i <= 37; i++) {
        long o = off37(i, j, k);
        if (in_dims(c->dims, i, j, k)) ck_assert_msg(seen[o] == (double)o, "case %d: in %ld", _i, o);
      }
  dev_write(p + first, dev_vals + first, span * sizeof(double));
#ifdef S2S_EMULATE
  mark = s2s_emu_transfer_calls();
#endif
  s2s_data_end(&kern_r, 21, &d, S2S_COPY);
#ifdef S2S_EMULATE
  ck_assert_msg(s2s_emu_transfer_calls() - mark == c->windows, "case %d: %ld windows out", _i,
                s2s_emu_transfer_calls() - mark);
#endif
  for (long k = 1; k <= 5; k++)
    for (long j = 1; j <= 11; j++)
      for (long i = 1; i <= 37; i++) {
        long o = off37(i, j, k);
        double want = in_dims(c->dims, i, j, k) ? 10000.0 + o : (double)o;
        ck_assert_msg(a[o] == want, "case %d: out %ld = %g, want %g", _i, o, a[o], want);
      }
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
  const char *grid_y[] = {"262144 threads along grid axis y need 65536 blocks of 4",
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

/* The pieces of a staged transfer: S2S_STAGE_CHUNK bytes each, or for a
 * transfer of less than eight of them an eighth of it (a power of two, at
 * least 256 KiB); one bus copy each (the threads share a piece in parts,
 * which the bus never sees).  Counted as bus copies of a contiguous array. */
typedef struct RampCase { const char *chunk; size_t bytes; long pieces; } RampCase;
static const RampCase ramp_cases[] = {
    {"1M", 100000, 1},                       /* smaller than the smallest piece */
    {"1M", 1048576, 4},                      /* a chunk: pieces of 256 KiB */
    {"1M", 2097152, 8},                      /* 2 chunks: still 256 KiB */
    {"1M", 2097153, 5},                      /* one byte more: 512 KiB pieces, a last of one byte */
    {"3M", 6291456, 6},                      /* 2 chunks: pieces of 1 MiB */
    {"4M", 300000, 2},                       /* past the first piece (256 KiB) */
    {"4M", 16777216, 8},                     /* 4 chunks: pieces of 2 MiB */
    {"4M", 67108864, 16},                    /* 16 chunks: whole ones */
    {"64k", 200000, 4},                      /* chunks under 256 KiB: whole ones, of one part */
    {"200k", 1000000, 5},                    /* a piece that is not a multiple of the part */
};

/* The default copy threads: all the CPUs the process may run on but one,
 * at most 15, one below 4 CPUs; MPI ranks of a node that are not bound
 * share its CPUs. */
typedef struct ThreadsCase { long online, cpus; int ranks, want; } ThreadsCase;
static const ThreadsCase threads_cases[] = {
    {16, 16, 1, 15},   /* the H100 host */
    {32, 32, 1, 15},   /* at most 15 */
    {2, 2, 1, 1},      /* this machine: the caller alone */
    {4, 4, 1, 3},
    {32, 32, 2, 15},   /* two unbound ranks of a 32-CPU node: 16 each */
    {16, 16, 2, 7},    /* two unbound ranks of a 16-CPU node: 8 each */
    {16, 16, 8, 1},    /* 8 ranks on 16 CPUs: 2 each, too few to share */
    {32, 1, 2, 1},     /* mpirun's default: each rank bound to one core */
    {32, 16, 2, 15},   /* bound to a socket of 16 */
    {32, 8, 1, 7},     /* a cgroup or taskset of 8 CPUs */
};

START_TEST(test_copy_threads_default) {
  const ThreadsCase *c = &threads_cases[_i];
  ck_assert_int_eq(s2s_copy_threads_default(c->online, c->cpus, c->ranks), c->want);
}
END_TEST

START_TEST(test_staging_ramp) {
  const RampCase *c = &ramp_cases[_i];
  size_t n = c->bytes;
  char *a = malloc(n);
  Dim dims[1] = {{1, (long)n, 1, (long)n}};
  ck_assert_ptr_nonnull(a);
  S2sArray d = make_array("a", a, 1, 1, dims);
  setenv("S2S_STAGE_CHUNK", c->chunk, 1);
  for (size_t o = 0; o < n; o++) a[o] = (char)(o * 7);
#ifdef S2S_EMULATE
  long mark = s2s_emu_transfer_calls();
#endif
  (void)s2s_data_begin(&kern_r, 21, &d, S2S_COPY);
#ifdef S2S_EMULATE
  ck_assert_msg(s2s_emu_transfer_calls() - mark == c->pieces, "case %d: %ld pieces in", _i,
                s2s_emu_transfer_calls() - mark);
#endif
  memset(a, 0, n);
  s2s_data_end(&kern_r, 21, &d, S2S_COPY);
  for (size_t o = 0; o < n; o++)
    if (a[o] != (char)(o * 7)) ck_abort_msg("case %d: byte %zu came back wrong", _i, o);
  free(a);
}
END_TEST

/* Several CPU threads fill and drain one transfer (S2S_COPY_THREADS) when
 * it holds 512 KiB or more: a(200,100,40) (6.4 MB), a box of each kind, pieces
 * that split rows anywhere; in 3 MB pieces and the default ring, then in
 * pieces of one part (64 KB) and of 4 parts (512 KB) through rings of 2
 * slots, so that the threads take turns at every slot (a missing wait for
 * a slot's bus copy sends stale bytes in the emulation's deferred mode). */
static const char *const copy_thread_rings[][2] = {{"3M", "64M"}, {"64k", "128k"}, {"512k", "1M"}};
static const Dim big_boxes[][3] = {
    {{1, 200, 1, 200}, {1, 100, 1, 100}, {1, 40, 1, 40}},   /* contiguous */
    {{1, 200, 3, 170}, {1, 100, 2, 99}, {1, 40, 2, 39}},    /* packed: 3 runs */
    {{1, 200, 2, 199}, {1, 100, 1, 100}, {1, 40, 1, 40}},   /* span */
};

START_TEST(test_copy_threads) {
  const Dim *dims = big_boxes[_i % 3];
  const long n = 200L * 100 * 40;
  double *a = malloc((size_t)n * sizeof *a), *v = malloc((size_t)n * sizeof *v);
  S2sArray d = make_array("a", a, sizeof(double), 3, dims);
  long first = (dims[0].sub_lo - 1) + 200 * (dims[1].sub_lo - 1) + 20000 * (dims[2].sub_lo - 1);
  long last = (dims[0].sub_hi - 1) + 200 * (dims[1].sub_hi - 1) + 20000 * (dims[2].sub_hi - 1);
  double *p;
  long wrong = 0, bad = -1;
  setenv("S2S_COPY_THREADS", "3", 1);
  setenv("S2S_STAGE_CHUNK", copy_thread_rings[_i / 3][0], 1);
  setenv("S2S_STAGE_BYTES", copy_thread_rings[_i / 3][1], 1);
  for (long o = 0; o < n; o++) a[o] = (double)o;
  p = s2s_data_begin(&kern_r, 21, &d, S2S_COPY);
  dev_read(v + first, p + first, (size_t)(last - first + 1) * sizeof(double));
  /* Counted, not asserted one by one: check marks every passing assertion
   * in a pipe, which would make this test slow. */
  for (long o = first; o <= last; o++) {
    long i = o % 200 + 1, j = o / 200 % 100 + 1, k = o / 20000 + 1;
    if (in_dims(dims, i, j, k) && v[o] != (double)o && wrong++ == 0) bad = o;
    v[o] = -(double)o;
  }
  ck_assert_msg(wrong == 0, "case %d: %ld elements in wrong, the first %ld", _i, wrong, bad);
  dev_write(p + first, v + first, (size_t)(last - first + 1) * sizeof(double));
  s2s_data_end(&kern_r, 21, &d, S2S_COPY);
  for (long o = 0; o < n; o++) {
    long i = o % 200 + 1, j = o / 200 % 100 + 1, k = o / 20000 + 1;
    double want = in_dims(dims, i, j, k) ? -(double)o : (double)o;
    if (a[o] != want && wrong++ == 0) bad = o;
  }
  ck_assert_msg(wrong == 0, "case %d: %ld elements out wrong, the first %ld", _i, wrong, bad);
  free(a);
  free(v);
}
END_TEST

/* ---- the device memory pool -------------------------------------------- */

/* Sizes of consecutive regions' arrays (doubles) and whether the second
 * reuses the first's block: the same size class, or a cached block at most
 * a quarter larger; never a much larger block for a small array. */
typedef struct PoolCase { long first, second; int reused; } PoolCase;
static const PoolCase pool_cases[] = {
    {1000, 1000, 1}, {1000, 990, 1}, {1000, 1100, 0}, {100000, 90000, 1},
    {100000, 10, 0}, {10, 12, 1},   {(1 << 20) + 1, 1 << 20, 1}, {1 << 20, (1 << 20) + 1, 0},
};

START_TEST(test_pool_reuse) {
  const PoolCase *c = &pool_cases[_i];
  double *x = calloc((size_t)c->first, sizeof *x), *y = calloc((size_t)c->second, sizeof *y);
  S2sArray a = vec("x", x, 1, c->first, 1, c->first), b = vec("y", y, 1, c->second, 1, c->second);
  S2sPoolStats st;
  s2s_data_begin(&kern_r, 21, &a, S2S_COPYIN);
  s2s_data_end(&kern_r, 21, &a, S2S_COPYIN);
  s2s_pool_stats(&st);
  ck_assert_int_eq(st.cached_blocks, 1);
  ck_assert_int_eq(st.in_use_blocks, 0);
  s2s_data_begin(&kern_r, 21, &b, S2S_COPYIN);
  s2s_pool_stats(&st);
  ck_assert_msg(st.reused == c->reused, "case %d: reused %ld", _i, st.reused);
  ck_assert_int_eq(st.allocated, 2 - c->reused);
  ck_assert_int_eq(st.in_use_blocks, 1);
  s2s_data_end(&kern_r, 21, &b, S2S_COPYIN);
  ck_assert_int_eq(s2s_pool_release(), 2 - c->reused);
  s2s_pool_stats(&st);
  ck_assert_int_eq(st.cached_blocks, 0);
  ck_assert_int_eq((long)st.cached_bytes, 0);
  free(x);
  free(y);
}
END_TEST

/* A region entered a hundred times allocates once, and its reused block is
 * refilled with the signalling pattern in emulation (so stale data cannot
 * hide a missing copy-in). */
START_TEST(test_pool_no_malloc_per_entry) {
  double a[500];
  S2sArray d = vec("a", a, 1, 500, 1, 500);
  S2sPoolStats st;
#ifdef S2S_EMULATE
  long mallocs = s2s_emu_malloc_calls(), frees = s2s_emu_free_calls();
#endif
  for (int it = 0; it < 100; it++) {
    for (int i = 0; i < 500; i++) a[i] = it + i;
    double *p = s2s_data_begin(&kern_r, 21, &d, S2S_COPY);
    double v;
    dev_read(&v, p + 7, sizeof v);
    ck_assert(v == it + 7);
    s2s_data_end(&kern_r, 21, &d, S2S_COPY);
  }
  s2s_pool_stats(&st);
  ck_assert_int_eq(st.allocated, 1);
  ck_assert_int_eq(st.reused, 99);
#ifdef S2S_EMULATE
  ck_assert_int_eq(s2s_emu_malloc_calls() - mallocs, 1);
  ck_assert_int_eq(s2s_emu_free_calls() - frees, 0);
  {
    int n[4], seen[4];
    Dim dn = {1, 4, 1, 4};
    S2sArray an = make_array("n", n, sizeof(int), 1, &dn);
    s2s_data_begin(&kern_r, 21, &d, S2S_COPYIN); /* takes the cached block */
    s2s_data_end(&kern_r, 21, &d, S2S_COPYIN);
    int *p = s2s_data_begin(&kern_r, 21, &an, S2S_CREATE);
    dev_read(seen, p, sizeof seen);
    for (int i = 0; i < 4; i++) ck_assert_int_eq(seen[i], -1);
    s2s_data_end(&kern_r, 21, &an, S2S_CREATE);
  }
#endif
}
END_TEST

/* S2S_POOL=0: every device copy is allocated and freed. */
START_TEST(test_pool_off) {
  double a[500];
  S2sArray d = vec("a", a, 1, 500, 1, 500);
  S2sPoolStats st;
  setenv("S2S_POOL", "0", 1);
  for (int it = 0; it < 3; it++) {
    s2s_data_begin(&kern_r, 21, &d, S2S_COPY);
    s2s_data_end(&kern_r, 21, &d, S2S_COPY);
  }
  s2s_pool_stats(&st);
  ck_assert_int_eq(st.allocated, 3);
  ck_assert_int_eq(st.reused, 0);
  ck_assert_int_eq(st.cached_blocks, 0);
#ifdef S2S_EMULATE
  ck_assert_int_eq((long)s2s_emu_device_bytes(), 0);
#endif
}
END_TEST

#ifdef S2S_EMULATE
/* A device of 100 KB: a cached block that blocks a new allocation is
 * released and the allocation retried once; what cannot fit at all stops
 * with a message naming the region. */
START_TEST(test_pool_releases_when_short) {
  static double x[8000], y[9000];
  S2sArray a = vec("x", x, 1, 8000, 1, 8000), b = vec("y", y, 1, 9000, 1, 9000);
  S2sPoolStats st;
  s2s_emu_set_device_limit(100000);
  s2s_data_begin(&kern_r, 21, &a, S2S_COPYIN);
  s2s_data_end(&kern_r, 21, &a, S2S_COPYIN); /* 64 KB cached */
  s2s_data_begin(&kern_r, 21, &b, S2S_COPYIN); /* 72 KB: fits only without the cache */
  s2s_pool_stats(&st);
  ck_assert_int_eq(st.trims, 1);
  ck_assert_int_eq(st.cached_blocks, 0);
  ck_assert_int_eq(st.in_use_blocks, 1);
  s2s_data_end(&kern_r, 21, &b, S2S_COPYIN);
  s2s_emu_set_device_limit(0);
}
END_TEST

static void does_not_fit(void) {
  static double x[8000], y[9000];
  S2sArray a = vec("x", x, 1, 8000, 1, 8000), b = vec("y", y, 1, 9000, 1, 9000);
  s2s_emu_set_device_limit(100000);
  s2s_data_begin(&data_r, 10, &a, S2S_COPYIN);
  s2s_data_begin(&kern_r, 21, &b, S2S_COPYIN);
}

START_TEST(test_pool_out_of_memory_message) {
  const char *want[] = {"CUDA error 'out of memory' in cudaMalloc of 73728 bytes in region "
                        "diffuse_r1 (diffusion.f90:21)", "note: the arrays present at once", NULL};
  expect_failure(does_not_fit, want);
}
END_TEST

/* ---- asynchronous copies and kernels ------------------------------------ */

/* The emulation defers asynchronous copies until waited for: a host that
 * read a copy's destination without waiting would see the old bytes (the
 * property that makes a missing wait in the runtime fail the tests). */
START_TEST(test_emulation_defers_async_copies) {
  double src[4] = {1, 2, 3, 4}, dst[4] = {0, 0, 0, 0};
  cudaStream_t st;
  cudaEvent_t ev;
  ck_assert_int_eq(cudaStreamCreate(&st), cudaSuccess);
  ck_assert_int_eq(cudaEventCreate(&ev), cudaSuccess);
  ck_assert_int_eq(cudaMemcpyAsync(dst, src, sizeof src, cudaMemcpyHostToHost, st), cudaSuccess);
  ck_assert_int_eq(cudaEventRecord(ev, st), cudaSuccess);
  ck_assert(dst[3] == 0.0);
  ck_assert_int_eq(cudaEventQuery(ev), cudaErrorNotReady);
  ck_assert_int_eq(cudaEventSynchronize(ev), cudaSuccess);
  ck_assert(dst[3] == 4.0);
  setenv("S2S_EMU_ASYNC", "immediate", 1);
  src[3] = 5.0;
  ck_assert_int_eq(cudaMemcpyAsync(dst, src, sizeof src, cudaMemcpyHostToHost, st), cudaSuccess);
  ck_assert(dst[3] == 5.0);
  unsetenv("S2S_EMU_ASYNC");
  cudaEventDestroy(ev);
  cudaStreamDestroy(st);
}
END_TEST

/* Without S2S_TIME a copy-in returns with its last window still queued and
 * a kernel does not wait; copy-out waits (the host reads the array next). */
START_TEST(test_copies_queued_not_waited) {
  static double a[4096];
  S2sArray d = vec("a", a, 1, 4096, 1, 4096);
  dim3 one = {1, 1, 1};
  double *p;
  for (int i = 0; i < 4096; i++) a[i] = i;
  p = s2s_data_begin(&kern_r, 21, &d, S2S_COPY);
  ck_assert_int_gt(s2s_emu_pending_ops(), 0);
  s2s_kernel_begin(&kern_r, 24, one, one);
  s2s_kernel_end(&kern_r, 24);
  ck_assert_int_gt(s2s_emu_pending_ops(), 0);
  for (int i = 0; i < 4096; i++) a[i] = -1.0; /* the staged copy-in took its own snapshot */
  {
    double v;
    dev_read(&v, p + 4095, sizeof v);
    ck_assert(v == 4095.0);
  }
  s2s_data_end(&kern_r, 21, &d, S2S_COPY);
  ck_assert(a[4095] == 4095.0);
}
END_TEST

/* With S2S_TIME every copy and kernel is waited for, to be timed. */
START_TEST(test_timing_waits) {
  static double a[4096];
  S2sArray d = vec("a", a, 1, 4096, 1, 4096);
  quiet(); /* the report at exit */
  setenv("S2S_TIME", "1", 1);
  s2s_data_begin(&kern_r, 21, &d, S2S_COPYIN);
  ck_assert_int_eq(s2s_emu_pending_ops(), 0);
  s2s_data_end(&kern_r, 21, &d, S2S_COPYIN);
  unsetenv("S2S_TIME");
}
END_TEST

/* A kernel that faults shows at the next wait: the message names the
 * kernel's region and line, and where the error was seen. */
static void fault_seen_later(void) {
  static double a[64];
  S2sArray d = vec("a", a, 1, 64, 1, 64);
  dim3 one = {1, 1, 1};
  s2s_data_begin(&data_r, 10, &d, S2S_COPY);
  s2s_kernel_begin(&kern_r, 24, one, one);
  s2s_kernel_end(&kern_r, 24);
  s2s_emu_fail_next_wait(cudaErrorIllegalAddress);
  s2s_data_end(&data_r, 12, &d, S2S_COPY);
}

static void fault_among_several(void) {
  static double a[64];
  S2sArray d = vec("a", a, 1, 64, 1, 64);
  dim3 one = {1, 1, 1};
  s2s_data_begin(&data_r, 10, &d, S2S_COPY);
  s2s_kernel_begin(&kern_r, 24, one, one);
  s2s_kernel_end(&kern_r, 24);
  s2s_kernel_begin(&kern_r, 27, one, one);
  s2s_kernel_end(&kern_r, 27);
  s2s_emu_fail_next_wait(cudaErrorIllegalAddress);
  s2s_wait(&upd_r, 30);
}

static void fault_timed(void) {
  dim3 one = {1, 1, 1};
  setenv("S2S_TIME", "1", 1);
  s2s_kernel_begin(&kern_r, 24, one, one);
  s2s_emu_fail_next_wait(cudaErrorIllegalAddress);
  s2s_kernel_end(&kern_r, 24);
}

START_TEST(test_async_errors_name_kernel) {
  const char *later[] = {"s2s-cuda runtime: error: CUDA error 'an illegal memory access was "
                         "encountered' in kernel of region diffuse_r1 (diffusion.f90:24)",
                         "note: seen when region data_r1 (diffusion.f90:12) waited for the device",
                         NULL};
  const char *several[] = {"in kernel of region diffuse_r1 (diffusion.f90:24)",
                           "2 kernels were queued since the previous wait",
                           "diffuse_r1 (diffusion.f90:27)", "S2S_TIME=1", NULL};
  const char *timed[] = {"CUDA error 'an illegal memory access was encountered' in kernel of "
                         "region diffuse_r1 (diffusion.f90:24)\n", NULL};
  expect_failure(fault_seen_later, later);
  expect_failure(fault_among_several, several);
  expect_failure(fault_timed, timed);
}
END_TEST
#endif

/* ---- registration ------------------------------------------------------ */

#ifdef S2S_EMULATE
/* update host ... async (s2s_update_host_async): the copy is queued and
 * the array holds the values only after s2s_wait_updates (the emulation
 * defers queued copies, so a missing wait reads the old values): straight
 * into a registered array, else through a pinned block the wait unpacks,
 * packed on the device first for a box with holes; a data end waits for a
 * pending one and lets go of the copy it held. */
typedef struct AsyncCase { const char *reg; int holey, wait_by_end, second; } AsyncCase;
static const AsyncCase async_cases[] = {
    {"always", 0, 0, 0},   /* registered: straight into the array */
    {"never", 0, 0, 0},    /* not registered: through a pinned block */
    {"never", 1, 0, 0},    /* a box with holes: packed on the device, unpacked by the wait */
    {"always", 0, 1, 0},   /* never waited for: the data end does it */
    {"never", 1, 1, 0},
    {"never", 1, 0, 1},    /* a second update pending (a(2001:2100)): a block each */
    {"never", 0, 1, 1},
};

START_TEST(test_update_host_async) {
  const AsyncCase *c = &async_cases[_i];
  static double a[3000];  /* a(1:100, 1:30); the box: a(101:200) or a(11:20, 5:25) */
  Dim whole[2] = {{1, 100, 1, 100}, {1, 30, 1, 30}}, box[2] = {{1, 100, 11, 20}, {1, 30, 5, 25}};
  S2sArray d = make_array("a", a, sizeof(double), 2, whole),
           part = c->holey ? make_array("a", a, sizeof(double), 2, box) : vec("a", a, 1, 3000, 101, 200),
           part2 = vec("a", a, 1, 3000, 2001, 2100);
  double *p, v = 7.5;
  setenv("S2S_REGISTER", c->reg, 1);
  for (int i = 0; i < 3000; i++) a[i] = i;
  p = s2s_data_begin(&data_r, 10, &d, S2S_COPYIN);
  for (int i = 0; i < 3000; i++) dev_write(p + i, &v, sizeof v);
  s2s_update_host_async(&upd_r, 30, &part);
  if (c->second) s2s_update_host_async(&upd_r, 32, &part2);
  ck_assert_msg(a[150] == 150.0 && a[10 + 100 * 4] == 410.0 && a[2050] == 2050.0,
                "a changed before the wait");
  ck_assert_int_eq(s2s_present_refs(&d), 2 + c->second);
  if (!c->wait_by_end) s2s_wait_updates(&upd_r, 31);
  else s2s_data_end(&data_r, 10, &d, S2S_COPYIN);
  for (int i = 0; i < 3000; i++) {
    int in = (c->holey ? i % 100 >= 10 && i % 100 < 20 && i / 100 >= 4 && i / 100 < 25 : i >= 100 && i < 200) ||
             (c->second && i >= 2000 && i < 2100);
    ck_assert_msg(a[i] == (in ? 7.5 : (double)i), "a[%d] = %g after the wait", i, a[i]);
  }
  if (!c->wait_by_end) {
    ck_assert_int_eq(s2s_present_refs(&d), 1);
    s2s_data_end(&data_r, 10, &d, S2S_COPYIN);
  }
  ck_assert_int_eq(s2s_present_count(), 0);
  ck_assert_int_eq((long)s2s_emu_registered_bytes(), 0);
}
END_TEST

/* The end of a region nested in the data region does not wait for a
 * pending update host ... async of the array (the host goes on while the
 * copy runs: a halo exchange overlapping the interior's kernel); the
 * outer data end, the copy's last release, does. */
START_TEST(test_update_async_nested_end) {
  static double a[1000];
  S2sArray d = vec("a", a, 1, 1000, 1, 1000), part = vec("a", a, 1, 1000, 11, 20);
  double *p, v = 3.5;
  setenv("S2S_REGISTER", "never", 1);
  for (int i = 0; i < 1000; i++) a[i] = i;
  p = s2s_data_begin(&data_r, 10, &d, S2S_COPYIN);
  for (int i = 0; i < 1000; i++) dev_write(p + i, &v, sizeof v);
  s2s_update_host_async(&upd_r, 30, &part);
  ck_assert(s2s_data_begin(&kern_r, 21, &d, S2S_COPY) == p);
  s2s_data_end(&kern_r, 21, &d, S2S_COPY);
  ck_assert_msg(a[15] == 15.0, "the nested end waited for the update: a(16) = %g", a[15]);
  ck_assert_int_eq(s2s_present_refs(&d), 2);
  s2s_data_end(&data_r, 10, &d, S2S_COPYIN);
  ck_assert(a[15] == 3.5 && a[10] == 3.5 && a[9] == 9.0 && a[20] == 20.0);
  ck_assert_int_eq(s2s_present_count(), 0);
}
END_TEST

/* An asynchronous update host runs on the thread's copy stream, beside
 * what the thread queues next on its own stream; only work that may write
 * the bytes it reads waits for it.  The emulation runs a stream's work when
 * something waits for it: a kernel (here: a copy into the device array,
 * then a wait for the thread's stream, as an emulated launch does) runs
 * the copy stream first only if its stream waits for the update, which the
 * pending-operation count shows; and a missing wait shows as the kernel's
 * values in the host array after s2s_wait_updates.  The update is a(101:200). */
typedef struct CopyStreamCase {
  const char *what;
  int op;                  /* 0 a kernel writes, 1 update device, 2 update host (synchronous) */
  long lo, hi;             /* the elements it writes (reads for 2) */
  int read_only;           /* the kernel's descriptor says it only reads */
  int waits;               /* the thread's stream waited for the update */
} CopyStreamCase;
static const CopyStreamCase copy_stream_cases[] = {
    {"kernel writing a(150:160)", 0, 150, 160, 0, 1},
    {"kernel writing a(1:101), one element shared", 0, 1, 101, 0, 1},
    {"kernel writing a(201:300), next to the box", 0, 201, 300, 0, 0},
    {"kernel only reading a(1:1000)", 0, 1, 1000, 1, 0},
    {"update device of a(180:220)", 1, 180, 220, 0, 1},
    {"update device of a(1:100)", 1, 1, 100, 0, 0},
    {"update host of a(120:130): the older update finishes first", 2, 120, 130, 0, 1},
};

START_TEST(test_update_async_copy_stream) {
  const CopyStreamCase *c = &copy_stream_cases[_i];
  static double a[1000], newer[1000];
  S2sArray d = vec("a", a, 1, 1000, 1, 1000), part = vec("a", a, 1, 1000, 101, 200),
           op = vec("a", a, 1, 1000, c->lo, c->hi);
  double *p, v = 7.5;
  setenv("S2S_REGISTER", "never", 1);
  for (int i = 0; i < 1000; i++) a[i] = i, newer[i] = -1.0 - i;
  p = s2s_data_begin(&data_r, 10, &d, S2S_COPYIN);
  for (int i = 0; i < 1000; i++) dev_write(p + i, &v, sizeof v);
  s2s_update_host_async(&upd_r, 30, &part);
  ck_assert_msg(s2s_emu_pending_ops() > 0, "%s: the update ran at once", c->what);
  op.read_only = c->read_only;
  if (c->op == 0) {
    ck_assert(s2s_data_begin(&kern_r, 21, &op, S2S_COPY) == p);
    if (!c->read_only)
      ck_assert_int_eq(cudaMemcpyAsync(p + c->lo - 1, newer + c->lo - 1,
                                       (size_t)(c->hi - c->lo + 1) * sizeof(double),
                                       cudaMemcpyHostToDevice, s2s_stream()), cudaSuccess);
    ck_assert_int_eq(cudaStreamSynchronize(s2s_stream()), cudaSuccess);
    ck_assert_msg((s2s_emu_pending_ops() == 0) == c->waits, "%s: the stream %s for the update",
                  c->what, c->waits ? "did not wait" : "waited");
    s2s_data_end(&kern_r, 21, &op, S2S_COPY);
  } else if (c->op == 1) {
    for (long i = c->lo; i <= c->hi; i++) a[i - 1] = newer[i - 1];
    s2s_update_device(&upd_r, 33, &op);
    ck_assert_int_eq(cudaStreamSynchronize(s2s_stream()), cudaSuccess);
    ck_assert_msg((s2s_emu_pending_ops() == 0) == c->waits, "%s: the stream %s for the update",
                  c->what, c->waits ? "did not wait" : "waited");
    for (long i = c->lo; i <= c->hi; i++) a[i - 1] = (double)(i - 1);
  } else {
    double w = 9.25;
    dev_write(p + 124, &w, sizeof w);
    s2s_update_host(&upd_r, 34, &op);
    ck_assert_msg(s2s_emu_pending_ops() == 0, "%s: the older update is still pending", c->what);
  }
  s2s_wait_updates(&upd_r, 31);
  for (int i = 0; i < 1000; i++) {
    double want = (double)i;
    if (i >= 100 && i < 200) want = 7.5;           /* what the update read */
    if (c->op == 2 && i >= c->lo - 1 && i < c->hi) want = i == 124 ? 9.25 : 7.5;
    ck_assert_msg(a[i] == want, "%s: a(%d) = %g after the wait, not %g", c->what, i + 1, a[i], want);
  }
  s2s_data_end(&data_r, 10, &d, S2S_COPYIN);
  ck_assert_int_eq(s2s_present_count(), 0);
}
END_TEST

/* An update device of a contiguous box that no work still queued on the
 * thread's stream touches runs on the copy stream, beside that work; work
 * queued after it that touches its box waits for it.  Here a kernel (a
 * copy into the device array on the thread's stream) that writes a(1:100)
 * is queued and not run; then the update; then a second kernel.  "beside":
 * after the thread's stream has run, the update is still pending; "waits":
 * the second kernel's stream ran the update first. */
typedef struct BesideCase {
  const char *what;
  long lo, hi;             /* the update device */
  long klo, khi;           /* the second kernel's box */
  int kernel_writes;       /* it writes its box (with -2 - i) */
  int beside, waits;
} BesideCase;
static const BesideCase beside_cases[] = {
    {"a(301:400), then a kernel reading a(350:360)", 301, 400, 350, 360, 0, 1, 1},
    {"a(301:400), then a kernel reading a(500:600)", 301, 400, 500, 600, 0, 1, 0},
    {"a(301:400), then a kernel writing a(400:450)", 301, 400, 400, 450, 1, 1, 1},
    {"a(50:60), which the queued kernel writes: on the stream, after it", 50, 60, 500, 600, 0, 0, 0},
    {"a(101:120), next to the queued kernel's box", 101, 120, 1, 10, 0, 1, 0},
};

START_TEST(test_update_device_beside) {
  const BesideCase *c = &beside_cases[_i];
  static double a[1000], kernel1[1000], kernel2[1000], got[1000];
  S2sArray d = vec("a", a, 1, 1000, 1, 1000), first = vec("a", a, 1, 1000, 1, 100),
           upd = vec("a", a, 1, 1000, c->lo, c->hi), second = vec("a", a, 1, 1000, c->klo, c->khi);
  double *p;
  setenv("S2S_REGISTER", "never", 1);
  for (int i = 0; i < 1000; i++) a[i] = i, kernel1[i] = -1.0 - i, kernel2[i] = -2.0 - i;
  p = s2s_data_begin(&data_r, 10, &d, S2S_COPYIN);
  s2s_wait(&data_r, 10);                       /* nothing queued is left */
  ck_assert(s2s_data_begin(&kern_r, 21, &first, S2S_COPY) == p);
  ck_assert_int_eq(cudaMemcpyAsync(p, kernel1, 100 * sizeof(double), cudaMemcpyHostToDevice,
                                   s2s_stream()), cudaSuccess);
  s2s_data_end(&kern_r, 21, &first, S2S_COPY);
  for (long i = c->lo; i <= c->hi; i++) a[i - 1] = 1000.0 + (double)i;
  s2s_update_device(&upd_r, 33, &upd);
  second.read_only = !c->kernel_writes;
  ck_assert(s2s_data_begin(&kern_r, 25, &second, S2S_COPY) == p);
  if (c->kernel_writes)
    ck_assert_int_eq(cudaMemcpyAsync(p + c->klo - 1, kernel2 + c->klo - 1,
                                     (size_t)(c->khi - c->klo + 1) * sizeof(double),
                                     cudaMemcpyHostToDevice, s2s_stream()), cudaSuccess);
  ck_assert_int_eq(cudaStreamSynchronize(s2s_stream()), cudaSuccess);
  ck_assert_msg((s2s_emu_pending_ops() > 0) == (c->beside && !c->waits),
                "%s: %ld operations pending after the thread's stream ran", c->what,
                s2s_emu_pending_ops());
  s2s_data_end(&kern_r, 25, &second, S2S_COPY);
  s2s_wait_updates(&upd_r, 31);
  dev_read(got, p, sizeof got);
  for (long i = 1; i <= 1000; i++) {
    double want = i <= 100 ? kernel1[i - 1] : (double)(i - 1);
    if (i >= c->lo && i <= c->hi) want = 1000.0 + (double)i;
    if (c->kernel_writes && i >= c->klo && i <= c->khi) want = kernel2[i - 1];
    ck_assert_msg(got[i - 1] == want, "%s: device a(%ld) = %g, not %g", c->what, i, got[i - 1], want);
  }
  s2s_data_end(&data_r, 10, &d, S2S_COPYIN);
  ck_assert_int_eq(s2s_present_count(), 0);
}
END_TEST

/* host_data use_device: the device address of the array's first element
 * in the one copy that holds any of it (a copy of a section: the address
 * the section's elements are at, counted back to element 1), after the
 * thread's queued copies have landed; an array not present keeps its host
 * address under if_present. */
typedef struct UseDeviceCase {
  const char *what;
  long lo, hi;             /* the present box (0: none) */
  int update_first;        /* an update device of a(lo:lo+9) is queued just before */
  int if_present;
  int host;                /* the answer is the host address */
} UseDeviceCase;
static const UseDeviceCase use_device_cases[] = {
    {"a(1:1000) present", 1, 1000, 0, 0, 0},
    {"a(101:300) present: element 1's address is before the copy", 101, 300, 0, 0, 0},
    {"a(1:1000) present, an update device queued beside the kernels", 1, 1000, 1, 0, 0},
    {"a(401:500) present, an update device queued", 401, 500, 1, 0, 0},
    {"not present, if_present: the host address", 0, 0, 0, 1, 1},
    {"present, if_present: the device address", 1, 1000, 0, 1, 0},
};

START_TEST(test_use_device) {
  const UseDeviceCase *c = &use_device_cases[_i];
  static double a[1000];
  S2sArray whole = vec("a", a, 1, 1000, 1, 1000), d = vec("a", a, 1, 1000, c->lo, c->hi),
           upd = vec("a", a, 1, 1000, c->lo, c->lo + 9);
  double *p = NULL, *dev, got;
  setenv("S2S_REGISTER", "never", 1);
  for (int i = 0; i < 1000; i++) a[i] = i;
  if (c->lo) {
    p = s2s_data_begin(&data_r, 10, &d, S2S_COPYIN);
    s2s_wait(&data_r, 10);
  }
  if (c->update_first) {
    for (long i = c->lo; i < c->lo + 10; i++) a[i - 1] = -1.0 - (double)i;
    s2s_update_device(&upd_r, 33, &upd);
    ck_assert_msg(s2s_emu_pending_ops() > 0, "%s: the update ran at once", c->what);
  }
  dev = s2s_use_device(&upd_r, 40, &whole, c->if_present);
  if (c->host) {
    ck_assert_msg(dev == a, "%s: %p, not the host's %p", c->what, (void *)dev, (void *)a);
    return;
  }
  /* data_begin's answer is where element 1 would be, as the kernels index */
  ck_assert_msg(dev == p, "%s: element 1 at %p, not at %p", c->what, (void *)dev, (void *)p);
  ck_assert_msg(s2s_emu_pending_ops() == 0, "%s: %ld operations still pending", c->what,
                s2s_emu_pending_ops());
  for (long i = c->lo; i <= c->hi; i++) {
    double want = c->update_first && i < c->lo + 10 ? -1.0 - (double)i : (double)(i - 1);
    got = dev[i - 1]; /* emulated device memory is the host's: what MPI would read */
    ck_assert_msg(got == want, "%s: a(%ld) at the device address is %g, not %g", c->what, i, got,
                  want);
  }
  s2s_data_end(&data_r, 10, &d, S2S_COPYIN);
  ck_assert_int_eq(s2s_present_count(), 0);
}
END_TEST

static void use_device_absent(void) {
  static double a[100];
  S2sArray whole = vec("a", a, 1, 100, 1, 100);
  s2s_use_device(&upd_r, 40, &whole, 0);
}

static void use_device_two_copies(void) {
  static double a[100];
  S2sArray whole = vec("a", a, 1, 100, 1, 100), lo = vec("a", a, 1, 100, 1, 10),
           hi = vec("a", a, 1, 100, 51, 60);
  s2s_data_begin(&data_r, 10, &lo, S2S_COPYIN);
  s2s_data_begin(&data_r, 11, &hi, S2S_COPYIN);
  s2s_use_device(&upd_r, 40, &whole, 0);
}

/* A region called inside the construct with the device address as its
 * host array. */
static void use_device_then_region(void) {
  static double a[100];
  S2sArray whole = vec("a", a, 1, 100, 1, 100), dev_box;
  s2s_data_begin(&data_r, 10, &whole, S2S_COPYIN);
  dev_box = vec("a", s2s_use_device(&upd_r, 40, &whole, 0), 1, 100, 1, 100);
  s2s_data_begin(&kern_r, 21, &dev_box, S2S_COPYIN);
}

/* Does MPI read device memory?  S2S_MPI_DEVICE decides; unset, the
 * emulation says yes (its device memory is the host's) and a GPU build
 * asks the MPI library, of which this test links none: no. */
START_TEST(test_mpi_device_aware) {
  static const struct { const char *value; int want; } rows[] = {
      {"0", 0}, {"1", 1}, {"", -1}, {NULL, -1},
  };
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    int want = rows[i].want;
#ifdef S2S_EMULATE
    if (want < 0) want = 1;
#else
    if (want < 0) want = 0;
#endif
    if (rows[i].value) setenv("S2S_MPI_DEVICE", rows[i].value, 1);
    else unsetenv("S2S_MPI_DEVICE");
    ck_assert_msg(s2s_mpi_device_aware() == want, "S2S_MPI_DEVICE=%s: %d, not %d",
                  rows[i].value ? rows[i].value : "(unset)", s2s_mpi_device_aware(), want);
  }
  unsetenv("S2S_MPI_DEVICE");
}
END_TEST

static void mpi_device_bad_value(void) {
  setenv("S2S_MPI_DEVICE", "yes", 1);
  s2s_mpi_device_aware();
}

START_TEST(test_use_device_errors) {
  const char *absent[] = {"a(1:100) is not present on the device (host_data use_device)",
                          "update_r2 (diffusion.f90:40)", "if_present", NULL};
  const char *two[] = {"use_device(a): two device copies hold parts of it (a(1:10) and a(51:60))",
                       "host_data needs one", NULL};
  expect_failure(use_device_absent, absent);
  expect_failure(use_device_two_copies, two);
  const char *in_device[] = {"a(1:100) is in device memory: it is the device copy of a(1:100)",
                             "diffuse_r1 (diffusion.f90:21)", "after the host_data construct",
                             NULL};
  expect_failure(use_device_then_region, in_device);
  const char *bad_value[] = {"S2S_MPI_DEVICE='yes': use 1 when MPI reads and writes device memory",
                             NULL};
  expect_failure(mpi_device_bad_value, bad_value);
}
END_TEST

/* S2S_REGISTER=always pins a contiguous present copy's host span at its
 * first transfer, copies straight from it, and unpins it with the copy. */
START_TEST(test_register_always) {
  static double a[5000];
  S2sArray d = vec("a", a, 1, 5000, 1, 5000);
  double *p, v;
  setenv("S2S_REGISTER", "always", 1);
  for (int i = 0; i < 5000; i++) a[i] = i;
  p = s2s_data_begin(&data_r, 10, &d, S2S_COPY);
  ck_assert_int_eq((long)s2s_emu_registered_bytes(), 5000 * (long)sizeof(double));
  dev_read(&v, p + 4999, sizeof v);
  ck_assert(v == 4999.0);
  a[10] = -5.0;
  s2s_update_device(&upd_r, 30, &d);
  dev_read(&v, p + 10, sizeof v);
  ck_assert(v == -5.0);
  v = 42.0;
  dev_write(p + 3, &v, sizeof v);
  s2s_data_end(&data_r, 10, &d, S2S_COPY);
  ck_assert(a[3] == 42.0);
  ck_assert_int_eq((long)s2s_emu_registered_bytes(), 0);
}
END_TEST

/* auto: a present copy of 16 MB or more is registered once the bytes it
 * moved would have paid for pinning its span: updates of the whole array
 * get there, updates of a 64 KB plane of it (a halo) never do. */
typedef struct RegisterCase { const char *what; long box, updates; int registers; } RegisterCase;
static const RegisterCase register_cases[] = {
    {"300 updates of 64 KB", 8192, 300, 0},
    {"12 updates of the whole 17 MB", 2200000, 12, 1},
};

START_TEST(test_register_by_bytes) {
  const RegisterCase *c = &register_cases[_i];
  static double a[2200000];
  S2sArray d = vec("a", a, 1, 2200000, 1, 2200000), box = vec("a", a, 1, 2200000, 1, c->box);
  setenv("S2S_REGISTER", "auto", 1);
  s2s_data_begin(&data_r, 10, &d, S2S_CREATE);
  for (long i = 0; i < c->updates; i++) s2s_update_host(&upd_r, 30, &box);
  ck_assert_msg((s2s_emu_registered_bytes() > 0) == c->registers, "%s: %zu bytes registered",
                c->what, s2s_emu_registered_bytes());
  s2s_data_end(&data_r, 10, &d, S2S_CREATE);
  ck_assert_int_eq((long)s2s_emu_registered_bytes(), 0);
}
END_TEST

/* auto: small arrays never; a registration that fails (the range is
 * already registered) falls back to staging. */
START_TEST(test_register_auto_and_fallback) {
  static double a[5000];
  S2sArray d = vec("a", a, 1, 5000, 1, 5000);
  for (int it = 0; it < 20; it++) {
    s2s_data_begin(&kern_r, 21, &d, S2S_COPY);
    s2s_data_end(&kern_r, 21, &d, S2S_COPY);
  }
  ck_assert_int_eq((long)s2s_emu_registered_bytes(), 0);
  setenv("S2S_REGISTER", "always", 1);
  ck_assert_int_eq(cudaHostRegister(a, sizeof a, 0), cudaSuccess);
  a[7] = 7.5;
  double *p = s2s_data_begin(&kern_r, 21, &d, S2S_COPYIN), v;
  dev_read(&v, p + 6, sizeof v);
  s2s_data_end(&kern_r, 21, &d, S2S_COPYIN);
  ck_assert_int_eq(cudaHostUnregister(a), cudaSuccess);
  ck_assert_int_eq(cudaGetLastError(), cudaSuccess);
  (void)v;
}
END_TEST
#endif

/* ---- threads ----------------------------------------------------------- */

/* An update device returns once it is queued; a thread that launches a
 * kernel on the array next (an OpenMP tile after the master's update) must
 * have its stream wait for the copy.  The worker reads the device array on
 * its own stream; the emulation runs a stream's work only when something
 * waits for it, so without that wait the worker reads the old values.
 * `settled`: the master's stream had finished everything (the update goes
 * to its copy stream), else it stays on the master's stream. */
static double upd_a[600], upd_seen[600];

static void *update_reader(void *arg) {
  S2sArray d = vec("a", upd_a, 1, 600, 1, 600);
  double *p = s2s_data_begin(&kern_r, 21, &d, S2S_COPYIN);
  (void)arg;
  if (cudaMemcpyAsync(upd_seen, p, sizeof upd_seen, cudaMemcpyDeviceToHost, s2s_stream()) != cudaSuccess ||
      cudaStreamSynchronize(s2s_stream()) != cudaSuccess)
    upd_seen[0] = -1.0;
  s2s_data_end(&kern_r, 21, &d, S2S_COPYIN);
  return NULL;
}

/* 1: the master's stream had finished (the update goes to its copy
 * stream); 0: it had not (the update stays on it); 2: no update, a kernel
 * of the master (a copy on its stream inside a region) wrote the box. */
static const int update_settled[] = {1, 0, 2};

START_TEST(test_update_device_other_thread) {
  S2sArray d = vec("a", upd_a, 1, 600, 1, 600), box = vec("a", upd_a, 1, 600, 201, 300);
  pthread_t th;
  setenv("S2S_REGISTER", "never", 1);
  for (int i = 0; i < 600; i++) upd_a[i] = i;
  s2s_data_begin(&data_r, 10, &d, S2S_COPYIN);
  if (update_settled[_i]) s2s_wait(&data_r, 10);
  for (int i = 200; i < 300; i++) upd_a[i] = -5.0 - i;
  if (update_settled[_i] < 2) {
    s2s_update_device(&upd_r, 33, &box);
  } else {
    double *p = s2s_data_begin(&kern_r, 21, &box, S2S_COPY);
    ck_assert_int_eq(cudaMemcpyAsync(p + 200, upd_a + 200, 100 * sizeof(double),
                                     cudaMemcpyHostToDevice, s2s_stream()), cudaSuccess);
    s2s_data_end(&kern_r, 21, &box, S2S_COPYIN); /* no copy-out: the worker must see the device */
  }
  ck_assert_int_eq(pthread_create(&th, NULL, update_reader, NULL), 0);
  ck_assert_int_eq(pthread_join(th, NULL), 0);
  for (int i = 0; i < 600; i++)
    ck_assert_msg(upd_seen[i] == upd_a[i], "the other thread saw a(%d) = %g, not %g (settled %d)",
                  i + 1, upd_seen[i], upd_a[i], update_settled[_i]);
  s2s_wait_updates(&upd_r, 31);
  s2s_data_end(&data_r, 10, &d, S2S_COPYIN);
  ck_assert_int_eq(s2s_present_count(), 0);
}
END_TEST

/* Each thread copies its own tile in and out through a region entered many
 * times, and all share one read-only table and one data region's array. */
#define NTHREADS 6
#define TILE 3000
static double tiles[NTHREADS][TILE], table[1000];

static void *tile_worker(void *arg) {
  long id = (long)arg;
  S2sArray t = vec("tile", tiles[id], 1, TILE, 1, TILE), tab = vec("table", table, 1, 1000, 1, 1000);
  for (int it = 0; it < 30; it++) {
    double *p = s2s_data_begin(&kern_r, 21, &t, S2S_COPY), *q, v[TILE];
    q = s2s_data_begin(&kern_r, 21, &tab, S2S_COPYIN);
    dev_read(v, p, sizeof v);
    for (int i = 0; i < TILE; i++) v[i] += 1.0;
    dev_write(p, v, sizeof v);
    dev_read(v, q + 999, sizeof(double));
    if (v[0] != 999.0) return (void *)1;
    s2s_data_end(&kern_r, 21, &tab, S2S_COPYIN);
    s2s_data_end(&kern_r, 21, &t, S2S_COPY);
  }
  return NULL;
}

START_TEST(test_threads) {
  pthread_t th[NTHREADS];
  S2sArray tab = vec("table", table, 1, 1000, 1, 1000);
  S2sPoolStats st;
  for (int i = 0; i < 1000; i++) table[i] = i;
  for (long id = 0; id < NTHREADS; id++)
    for (int i = 0; i < TILE; i++) tiles[id][i] = id * 1000.0 + i;
  s2s_data_begin(&data_r, 10, &tab, S2S_COPYIN); /* present for every thread */
  for (long id = 0; id < NTHREADS; id++) ck_assert_int_eq(pthread_create(&th[id], NULL, tile_worker, (void *)id), 0);
  for (long id = 0; id < NTHREADS; id++) {
    void *ret;
    pthread_join(th[id], &ret);
    ck_assert_msg(ret == NULL, "thread %ld saw a wrong table", id);
  }
  s2s_data_end(&data_r, 10, &tab, S2S_COPYIN);
  for (long id = 0; id < NTHREADS; id++)
    for (int i = 0; i < TILE; i++)
      ck_assert_msg(tiles[id][i] == id * 1000.0 + i + 30.0, "tile %ld element %d = %g", id, i, tiles[id][i]);
  ck_assert_int_eq(s2s_present_count(), 0);
  ck_assert_int_eq(kern_r.copies_in, NTHREADS * 30);
  s2s_pool_stats(&st);
  ck_assert_int_eq(st.in_use_blocks, 0);
  ck_assert_int_le(st.allocated, NTHREADS + 1);
}
END_TEST

/* Threads that copy in the same array at once: one device copy, made once,
 * whichever comes first; the others wait until it is filled. */
static double common[20000];
static void *common_worker(void *arg) {
  S2sArray c = vec("common", common, 1, 20000, 1, 20000);
  (void)arg;
  for (int it = 0; it < 20; it++) {
    double *p = s2s_data_begin(&kern_r, 21, &c, S2S_COPYIN), v;
    dev_read(&v, p + 19999, sizeof v);
    if (v != 19999.0) return (void *)1;
    s2s_data_end(&kern_r, 21, &c, S2S_COPYIN);
  }
  return NULL;
}

START_TEST(test_threads_share_a_copy) {
  pthread_t th[NTHREADS];
  setenv("S2S_STAGE_CHUNK", "4k", 1); /* many windows: a long fill to race with */
  for (int i = 0; i < 20000; i++) common[i] = i;
  for (long id = 0; id < NTHREADS; id++) ck_assert_int_eq(pthread_create(&th[id], NULL, common_worker, NULL), 0);
  for (long id = 0; id < NTHREADS; id++) {
    void *ret;
    pthread_join(th[id], &ret);
    ck_assert(ret == NULL);
  }
  ck_assert_int_eq(s2s_present_count(), 0);
}
END_TEST

/* ---- advice ------------------------------------------------------------ */

START_TEST(test_repeated_copy_advice) {
  double th[64], q[32], once[8], tend[16];
  S2sArray d = vec("th", th, 1, 64, 1, 64), e = vec("q", q, 1, 32, 1, 32), f = vec("once", once, 1, 8, 1, 8);
  S2sArray o = vec("tend", tend, 1, 16, 1, 16);
  static float g[10][20];
  Dim gd[2] = {{0, 20, 0, 19}, {0, 10, 0, 9}};
  static float g2[10][20];
  S2sArray ga = make_array("g", g, sizeof(float), 2, gd), gb = make_array("g", g2, sizeof(float), 2, gd);
  char text[4096];
  FILE *out = tmpfile();
  size_t n;
  for (int it = 0; it < 5; it++) {
    s2s_region_begin(&kern_r);
    s2s_data_begin(&kern_r, 21, &d, S2S_COPY);
    s2s_data_begin(&kern_r, 21, &e, S2S_COPYIN);
    if (it == 0) s2s_data_begin(&kern_r, 21, &f, S2S_COPYIN);
    if (it == 0) s2s_data_end(&kern_r, 21, &f, S2S_COPYIN);
    s2s_data_begin(&kern_r, 21, &o, S2S_COPYOUT);
    s2s_data_end(&kern_r, 21, &o, S2S_COPYOUT);
    s2s_data_end(&kern_r, 21, &e, S2S_COPYIN);
    s2s_data_end(&kern_r, 21, &d, S2S_COPY);
    s2s_region_end(&kern_r);
    s2s_data_begin(&c_r, 7, &ga, S2S_COPYIN);
    s2s_data_end(&c_r, 7, &ga, S2S_COPYIN);
    s2s_data_begin(&c_r, 7, &gb, S2S_COPYIN); /* the other buffer of a swapped pair */
    s2s_data_end(&c_r, 7, &gb, S2S_COPYIN);
  }
  s2s_timing_report(out);
  rewind(out);
  n = fread(text, 1, sizeof text - 1, out);
  text[n] = '\0';
  fclose(out);
  ck_assert_msg(strstr(text, "        21: advice: copyin of 'th' repeated 5 times ("), "%s", text);
  ck_assert_msg(strstr(text, "s): wrap the calls in !$stencil data copy(th)\n"
                             "            (copied once instead, saves about "), "%s", text);
  ck_assert_msg(strstr(text, "copyin of 'q' repeated 5 times"), "%s", text);
  ck_assert_msg(strstr(text, "!$stencil data copyin(q)\n"), "%s", text);
  ck_assert_msg(!strstr(text, "'once'"), "%s", text);
  ck_assert_msg(strstr(text, "        21: advice: copyout of 'tend' repeated 5 times ("), "%s", text);
  ck_assert_msg(strstr(text, "s): wrap the calls in !$stencil data copyout(tend)\n"
                             "            (copied out once at its end instead, saves about "), "%s", text);
  ck_assert_msg(strstr(text, "update host(tend) there)\n"), "%s", text);
  ck_assert_msg(strstr(text, "        7: advice: copyin of 'g' repeated 10 times"), "%s", text);
  ck_assert_msg(strstr(text, "#pragma stencil data copyin(g)\n"), "%s", text);
}
END_TEST


/* ---- host pass: autocompare and host fallback (rt/s2s_compare.c) ------ */

/* One element compared: the host pass computed `host`, the device `dev`. */
typedef struct CompareCase {
  const char *what;
  int type;                   /* S2S_TYPE_* */
  size_t elem;                /* 4 or 8 */
  double host, dev;
  const char *rtol, *atol;    /* S2S_AUTOCOMPARE_RTOL/ATOL, or NULL (defaults) */
  int bad;                    /* expected: out of tolerance */
} CompareCase;

static const CompareCase compare_cases[] = {
  { "real(4) equal", S2S_TYPE_REAL, 4, 1.0, 1.0, NULL, NULL, 0 },
  { "real(4) rel 1e-6 within default 1e-5", S2S_TYPE_REAL, 4, 1.0, 1.000001, NULL, NULL, 0 },
  { "real(4) rel 1e-4 beyond default", S2S_TYPE_REAL, 4, 1.0, 1.0001, NULL, NULL, 1 },
  { "real(4) rel 1e-4 within RTOL 1e-3", S2S_TYPE_REAL, 4, 1.0, 1.0001, "1e-3", NULL, 0 },
  { "real(8) rel 1e-13 within default 1e-12", S2S_TYPE_REAL, 8, 1.0, 1.0 + 1e-13, NULL, NULL, 0 },
  { "real(8) rel 1e-11 beyond default", S2S_TYPE_REAL, 8, 1.0, 1.0 + 1e-11, NULL, NULL, 1 },
  { "real(8) 0 vs 1e-20: relative error infinite", S2S_TYPE_REAL, 8, 0.0, 1e-20, NULL, NULL, 1 },
  { "real(8) 0 vs 1e-20 within ATOL 1e-15", S2S_TYPE_REAL, 8, 0.0, 1e-20, NULL, "1e-15", 0 },
  { "real(8) 0 vs 1e-20 within w's own ATOL", S2S_TYPE_REAL, 8, 0.0, 1e-20, NULL, "x=1,w=1e-15", 0 },
  { "real(8) 0 vs 1e-20: ATOL for another array only", S2S_TYPE_REAL, 8, 0.0, 1e-20, NULL, "x=1", 1 },
  { "real(4) rel 1e-4 within w's own RTOL", S2S_TYPE_REAL, 4, 1.0, 1.0001, "W=1e-3,1e-6", NULL, 0 },
  { "real(8) NaN and NaN", S2S_TYPE_REAL, 8, NAN, NAN, NULL, NULL, 0 },
  { "real(8) NaN on the device only", S2S_TYPE_REAL, 8, 1.0, NAN, NULL, "1", 1 },
  { "real(4) sign differs", S2S_TYPE_REAL, 4, 0.5, -0.5, NULL, NULL, 1 },
  { "integer equal", S2S_TYPE_INTEGER, 4, 3, 3, NULL, NULL, 0 },
  { "integer off by one: exact, whatever RTOL", S2S_TYPE_INTEGER, 4, 1000000, 1000001, "1e-3", NULL, 1 },
  { "integer(8) off by one", S2S_TYPE_INTEGER, 8, 7, 8, NULL, NULL, 1 },
  { "logical: two spellings of true", S2S_TYPE_LOGICAL, 4, 1, 2, NULL, NULL, 0 },
  { "logical: true and false", S2S_TYPE_LOGICAL, 4, 0, 1, NULL, NULL, 1 },
};

static void store_value(void *p, int type, size_t elem, double v) {
  if (type == S2S_TYPE_REAL && elem == 4) *(float *)p = (float)v;
  else if (type == S2S_TYPE_REAL) *(double *)p = v;
  else if (elem == 4) *(int *)p = (int)v;
  else *(long long *)p = (long long)v;
}

/* A region writes a 4x3 array with a hole (box 2:3 x 1:3); the device's
 * value of element (3,2) differs from the host pass's by the case. */
START_TEST(test_autocompare_tolerance) {
  const CompareCase *c = &compare_cases[_i];
  unsigned char host[12 * 8], dev_vals[12 * 8];
  Dim dims[2] = { { 1, 4, 2, 3 }, { 1, 3, 1, 3 } };
  S2sArray a = make_array("w", host, c->elem, 2, dims);
  long calls, failed;
  long long bad;
  setenv("S2S_AUTOCOMPARE", "1", 1);
  if (c->rtol) setenv("S2S_AUTOCOMPARE_RTOL", c->rtol, 1);
  if (c->atol) setenv("S2S_AUTOCOMPARE_ATOL", c->atol, 1);
  for (int e = 0; e < 12; e++) {
    store_value(host + e * c->elem, c->type, c->elem, 10 + e);
    store_value(dev_vals + e * c->elem, c->type, c->elem, 10 + e);
  }
  ck_assert_int_eq(s2s_compute_begin(&kern_r), 1);
  void *d = s2s_data_begin(&kern_r, 21, &a, S2S_COPYOUT);
  store_value(dev_vals + 6 * c->elem, c->type, c->elem, c->dev); /* element (3,2) */
  store_value(dev_vals + 3 * c->elem, c->type, c->elem, -99);      /* (4,1): a hole of the box */
  store_value(dev_vals + 1 * c->elem, c->type, c->elem, -98);      /* (2,1): in the box */
  /* the device copy spans (2,1) .. (3,3): offsets 1 .. 10 */
  dev_write((unsigned char *)d + c->elem, dev_vals + c->elem, 10 * c->elem);
  s2s_compare_array(&kern_r, 21, &a, d, c->type);
  s2s_data_end(&kern_r, 21, &a, S2S_COPYOUT);
  s2s_region_end(&kern_r);
  /* not copied back: the host pass computes the box */
  store_value(dev_vals, c->type, c->elem, 11);
  ck_assert_int_eq(memcmp(host + c->elem, dev_vals, c->elem), 0);
  ck_assert_int_eq(s2s_host_pass(), 1);
  store_value(host + 6 * c->elem, c->type, c->elem, c->host);
  store_value(host + 1 * c->elem, c->type, c->elem, -98);
  s2s_host_pass_end();
  ck_assert_int_eq(s2s_host_pass(), 0);
  s2s_autocompare_counts(&kern_r, &calls, &failed, &bad);
  ck_assert_msg(calls == 1 && failed == c->bad && bad == c->bad, "%s: calls %ld failed %ld bad %lld",
                c->what, calls, failed, bad);
}
END_TEST

/* A reduction result: the device's value is kept (the launcher does not
 * store it) and compared with the value the host pass hands over. */
START_TEST(test_autocompare_scalar) {
  double sum = 5.0, device_sum = 7.0;
  long calls, failed;
  long long bad;
  setenv("S2S_AUTOCOMPARE", "1", 1);
  ck_assert_int_eq(s2s_compute_begin(&kern_r), 1);
  ck_assert_int_eq(s2s_compare_scalar(&kern_r, 22, "sum", &sum, &device_sum, sizeof sum,
                                      S2S_TYPE_REAL), 1);
  s2s_region_end(&kern_r);
  ck_assert(sum == 5.0);
  ck_assert_int_eq(s2s_host_pass(), 1);
  sum = 7.0;
  s2s_host_pass_result(&sum);
  s2s_host_pass_end();
  s2s_autocompare_counts(&kern_r, &calls, &failed, &bad);
  ck_assert(calls == 1 && failed == 0 && bad == 0);
  /* a second call that differs */
  ck_assert_int_eq(s2s_compute_begin(&kern_r), 1);
  s2s_compare_scalar(&kern_r, 22, "sum", &sum, &device_sum, sizeof sum, S2S_TYPE_REAL);
  s2s_region_end(&kern_r);
  ck_assert_int_eq(s2s_host_pass(), 1);
  sum = 8.0;
  s2s_host_pass_result(&sum);
  s2s_host_pass_end();
  s2s_autocompare_counts(&kern_r, &calls, &failed, &bad);
  ck_assert(calls == 2 && failed == 1 && bad == 1);
}
END_TEST

/* Without S2S_AUTOCOMPARE nothing is captured and no host pass runs: the
 * launcher stores its results as always. */
START_TEST(test_autocompare_off) {
  double sum = 5.0, device_sum = 7.0;
  unsetenv("S2S_AUTOCOMPARE");
  ck_assert_int_eq(s2s_compute_begin(&kern_r), 1);
  ck_assert_int_eq(s2s_compare_scalar(&kern_r, 22, "sum", &sum, &device_sum, sizeof sum,
                                      S2S_TYPE_REAL), 0);
  s2s_region_end(&kern_r);
  ck_assert_int_eq(s2s_host_pass(), 0);
}
END_TEST

/* S2S_DEVICE=host: launchers, data and update functions do nothing; the
 * host pass runs every region, also a region called from inside one. */
START_TEST(test_host_fallback) {
  setenv("S2S_DEVICE", "host", 1);
  ck_assert_int_eq(s2s_region_begin(&data_r), 0);
  ck_assert_int_eq(s2s_compute_begin(&kern_r), 0);
  ck_assert_int_eq(s2s_host_pass(), 1);
  ck_assert_int_eq(s2s_compute_begin(&c_r), 0);   /* nested */
  ck_assert_int_eq(s2s_host_pass(), 1);
  s2s_host_pass_end();
  s2s_host_pass_end();
  ck_assert_int_eq(s2s_host_pass(), 0);
  ck_assert_int_eq(s2s_present_count(), 0);
  ck_assert_int_eq(kern_r.entered, 0);
}
END_TEST

static void bad_autocompare_value(void) {
  setenv("S2S_AUTOCOMPARE", "yes", 1);
  (void)s2s_compute_begin(&kern_r);
}

static void bad_tolerance_value(void) {
  setenv("S2S_AUTOCOMPARE", "1", 1);
  setenv("S2S_AUTOCOMPARE_ATOL", "th=0.05,q=abc", 1);
  (void)s2s_compute_begin(&kern_r);
}

static void bad_device_value(void) {
  setenv("S2S_DEVICE", "gpu", 1);
  (void)s2s_compute_begin(&kern_r);
}

START_TEST(test_host_pass_settings_checked) {
  static const char *const ac[] = { "S2S_AUTOCOMPARE='yes'", "use 1", NULL };
  static const char *const dev[] = { "S2S_DEVICE='gpu' is not a device number", "host", NULL };
  static const char *const tol[] = { "S2S_AUTOCOMPARE_ATOL='th=0.05,q=abc': 'q=abc' is not a tolerance",
                                      "ARRAY=NUMBER", NULL };
  expect_failure(bad_autocompare_value, ac);
  expect_failure(bad_tolerance_value, tol);
  expect_failure(bad_device_value, dev);
}
END_TEST


/* ---- several GPUs under MPI: the device from the node-local rank ------- */

static void report_text(char *text, size_t size) {
  FILE *out = tmpfile();
  size_t n;
  s2s_timing_report(out);
  rewind(out);
  n = fread(text, 1, size - 1, out);
  text[n] = '\0';
  fclose(out);
}

/* A launcher's variable picks the device (mod the count: emulation has
 * one) and the report says which rank it was. */
START_TEST(test_local_rank_from_launcher) {
  char text[4096];
  setenv("OMPI_COMM_WORLD_LOCAL_RANK", "3", 1);
  ck_assert_int_eq(s2s_region_begin(&kern_r), 1);
  s2s_region_end(&kern_r);
  report_text(text, sizeof text);
  ck_assert_msg(strstr(text, "local rank 3 from OMPI_COMM_WORLD_LOCAL_RANK)"), "%s", text);
}
END_TEST

/* The program's own rank (MPI_Comm_split_type) wins over the environment. */
START_TEST(test_local_rank_from_program) {
  char text[4096];
  int rank = 1;
  setenv("SLURM_LOCALID", "5", 1);
  s2s_use_local_rank(&rank);
  ck_assert_int_eq(s2s_region_begin(&kern_r), 1);
  s2s_region_end(&kern_r);
  report_text(text, sizeof text);
  ck_assert_msg(strstr(text, "local rank 1 from s2s_use_local_rank)"), "%s", text);
}
END_TEST

static void rank_after_first_region(void) {
  int rank = 1;
  setenv("OMPI_COMM_WORLD_LOCAL_RANK", "0", 1);
  (void)s2s_region_begin(&kern_r);
  s2s_region_end(&kern_r);
  s2s_use_local_rank(&rank);
}

START_TEST(test_local_rank_too_late) {
  static const char *const msg[] = { "s2s_use_local_rank(1) after the runtime chose device 0",
                                     "call it before the first region runs", NULL };
  expect_failure(rank_after_first_region, msg);
}
END_TEST

static Suite *rt_suite(void) {
  Suite *s = suite_create("s2s_rt");
  TCase *present = tcase_create("present"), *boxes = tcase_create("boxes");
  TCase *update = tcase_create("update"), *errors = tcase_create("errors");
  TCase *grid = tcase_create("grid"), *timing = tcase_create("timing");
  TCase *pool = tcase_create("pool"), *async = tcase_create("async");
  TCase *threads = tcase_create("threads"), *hostpass = tcase_create("hostpass");
  int ncompare = (int)(sizeof compare_cases / sizeof compare_cases[0]);
  int nbox = (int)(sizeof box_cases / sizeof box_cases[0]);
  int nchunk = (int)(sizeof chunk_cases / sizeof chunk_cases[0]);
  int npool = (int)(sizeof pool_cases / sizeof pool_cases[0]);
  int ngrid = (int)(sizeof grid_cases / sizeof grid_cases[0]);
  tcase_add_test(present, test_data_begin_twice_refcounts);
  tcase_add_loop_test(present, test_enter_exit_reference_counts, 0,
                      (int)(sizeof ref_cases / sizeof ref_cases[0]));
  tcase_add_test(present, test_inner_region_copies_nothing);
  tcase_add_test(present, test_column_at_offset_is_present);
  tcase_add_test(present, test_sub_array_pointer_layout);
  tcase_add_test(present, test_disjoint_boxes_of_one_array);
  tcase_add_test(present, test_empty_box_is_null);
  tcase_add_test(present, test_scalar_rank0);
  tcase_add_loop_test(boxes, test_copyout_box_with_holes, 0, nbox);
  tcase_add_loop_test(boxes, test_copyin_box_with_holes, 0, nbox);
  tcase_add_loop_test(boxes, test_update_device_keeps_holes, 0, nbox);
  tcase_add_loop_test(boxes, test_staging_windows, 0, nchunk);
  tcase_add_loop_test(boxes, test_present_boxes, 0, (int)(sizeof present_cases / sizeof *present_cases));
#ifdef S2S_EMULATE
  tcase_add_loop_test(boxes, test_update_host_async, 0, (int)(sizeof async_cases / sizeof *async_cases));
  tcase_add_test(boxes, test_update_async_nested_end);
  tcase_add_loop_test(boxes, test_update_async_copy_stream, 0,
                      (int)(sizeof copy_stream_cases / sizeof *copy_stream_cases));
  tcase_add_loop_test(boxes, test_update_device_beside, 0,
                      (int)(sizeof beside_cases / sizeof *beside_cases));
  tcase_add_loop_test(boxes, test_use_device, 0,
                      (int)(sizeof use_device_cases / sizeof *use_device_cases));
#endif
  tcase_add_loop_test(boxes, test_copy_threads_default, 0, (int)(sizeof threads_cases / sizeof *threads_cases));
  tcase_add_loop_test(boxes, test_staging_ramp, 0, (int)(sizeof ramp_cases / sizeof *ramp_cases));
  tcase_add_loop_test(boxes, test_copy_threads, 0, 9);
  tcase_add_test(boxes, test_copy_bytes_counted);
  tcase_add_loop_test(pool, test_pool_reuse, 0, npool);
  tcase_add_test(pool, test_pool_no_malloc_per_entry);
  tcase_add_test(pool, test_pool_off);
  tcase_add_test(threads, test_threads);
  tcase_add_test(threads, test_threads_share_a_copy);
  tcase_add_loop_test(threads, test_update_device_other_thread, 0,
                      (int)(sizeof update_settled / sizeof *update_settled));
  tcase_add_test(timing, test_repeated_copy_advice);
#ifdef S2S_EMULATE
  tcase_add_test(boxes, test_create_fills_signalling_pattern);
  tcase_add_test(errors, test_kernel_errors_name_kernel);
  tcase_add_test(pool, test_pool_releases_when_short);
  tcase_add_test(pool, test_pool_out_of_memory_message);
  tcase_add_test(async, test_emulation_defers_async_copies);
  tcase_add_test(async, test_copies_queued_not_waited);
  tcase_add_test(async, test_timing_waits);
  tcase_add_test(async, test_async_errors_name_kernel);
  tcase_add_test(pool, test_register_always);
  tcase_add_test(pool, test_register_auto_and_fallback);
  tcase_add_loop_test(pool, test_register_by_bytes, 0,
                      (int)(sizeof register_cases / sizeof *register_cases));
#endif
  tcase_add_test(update, test_update_device_and_host);
  tcase_add_exit_test(errors, test_present_absent_exits, 1);
  tcase_add_exit_test(errors, test_update_absent_exits, 1);
  tcase_add_test(errors, test_error_messages);
  tcase_add_test(errors, test_use_device_errors);
  tcase_add_test(errors, test_mpi_device_aware);
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
  suite_add_tcase(s, pool);
  suite_add_tcase(s, async);
  tcase_add_loop_test(hostpass, test_autocompare_tolerance, 0, ncompare);
  tcase_add_test(hostpass, test_autocompare_scalar);
  tcase_add_test(hostpass, test_autocompare_off);
  tcase_add_test(threads, test_local_rank_from_launcher);
  tcase_add_test(threads, test_local_rank_from_program);
  tcase_add_test(threads, test_local_rank_too_late);
  tcase_add_test(hostpass, test_host_pass_settings_checked);
#ifdef S2S_EMULATE
  tcase_add_test(hostpass, test_host_fallback);  /* a GPU build would select the GPU */
#endif
  suite_add_tcase(s, threads);
  suite_add_tcase(s, hostpass);
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
