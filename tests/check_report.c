/* check_report.c — the kinds of feedback line (report.c): every line the
 * passes write has a stable id and a -Minfo category, which --report=json
 * and --report=sarif give tools and -Minfo=CATEGORY selects by.
 *
 * A table of messages and their ids, then a sweep over the feedback
 * reports the golden tests keep (tests/golden/<group>/<case>/expect.stderr):
 * every info, note and warning line there must have a kind of its own, so
 * that a pass that adds a new message without a kind fails here.
 */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"

typedef struct KindCase {
  const char *message, *id;
  unsigned category;
} KindCase;

static const KindCase kinds[] = {
  { "Generating copyin(delz(its:ite,kts:kte,jts:jte))", "accel-data-clause", REPORT_CAT_ACCEL },
  { "Generating copy(t): copied in at line 25 and out at line 50; the regions at lines 27 and 37 "
    "find it present and move nothing", "accel-data-directive", REPORT_CAT_ACCEL },
  { "copyout(t) on '!$stencil exit data': copied out and freed at line 23, once no enter data or "
    "data region holds it any longer (no action where none holds it)", "accel-data-directive",
    REPORT_CAT_ACCEL },
  { "copyout(t) on '!$acc exit data' honoured: copied out and freed at line 23",
    "accel-clause-honoured", REPORT_CAT_ACCEL },
  { "use_device(t) on '!$stencil host_data': the host code at line 136 names the device copy of "
    "t (present there; the construct first waits for the kernels and copies queued before it)",
    "accel-host-data", REPORT_CAT_ACCEL },
  { "use_device(q) on '!$acc host_data' honoured: the host code of the construct passes the "
    "device copies' addresses", "accel-clause-honoured", REPORT_CAT_ACCEL },
  { "Generating reduction(+:tot) over loops 'j', 'i': each thread's partial result",
    "accel-reduction", REPORT_CAT_ACCEL },
  { "Accelerator kernel generated: heat_r1 grid [n/128] block [128]", "accel-kernel",
    REPORT_CAT_ACCEL },
  { "!$stencil do parallel, vector(128) ! blockIdx.x threadIdx.x", "accel-loop-mapping",
    REPORT_CAT_ACCEL },
  { "#pragma stencil do parallel // blockIdx.y", "accel-loop-mapping", REPORT_CAT_ACCEL },
  { "copyin(a) but the region writes 'a' at line 9; the host will not see those values (use copy)",
    "accel-clause-mismatch", REPORT_CAT_ACCEL },
  { "copyout(a) but the region reads 'a' at line 9 and never writes it; the device copy is not "
    "initialized (use copyin)", "accel-clause-uninitialized", REPORT_CAT_ACCEL },
  { "async(1) on '!$acc update' not needed: an update device does not make the host wait",
    "accel-clause-not-needed", REPORT_CAT_ACCEL },
  { "async(1) on '!$acc update' honoured: the copies to the host are queued",
    "accel-clause-honoured", REPORT_CAT_ACCEL },
  { "'!$acc wait(1)' waits for every asynchronous update host of this host thread",
    "accel-wait", REPORT_CAT_ACCEL },
  { "'#pragma acc wait' waits for every asynchronous update host of this host thread",
    "accel-wait", REPORT_CAT_ACCEL },
  { "Kernel wsm5_r1_v1 (sm_90, long index): 156 registers, 0 bytes shared", "accel-resources",
    REPORT_CAT_ACCEL },
  { "Routine 'clip' inlined", "inline-routine", REPORT_CAT_INLINE },
  { "Function 'fact' generated as a __device__ function (recursive: cannot be inlined)",
    "inline-device-function", REPORT_CAT_INLINE },
  { "Loop is parallelizable", "loop-parallel", REPORT_CAT_LOOP },
  { "Loop carried dependence of 'q' (flow dependence, distance (1,0) along k,i) keeps loop 'k' "
    "sequential in each thread", "loop-dependence", REPORT_CAT_LOOP },
  { "Loops at lines 46,52 not fused: a scalar assigned in one loop is used in the other ('last')",
    "loop-not-fused", REPORT_CAT_LOOP },
  { "Loops at lines 33,39 fused (loop k, inside each thread)", "loop-fused", REPORT_CAT_LOOP },
  { "Array 'lap' stored, not recomputed where it is read: its nest reads 'u'", "loop-recompute",
    REPORT_CAT_LOOP },
  { "Kernel hdiff_r1 computes 4 points of 'j' per thread (thread coarsening): 13 loads of 'inp' "
    "per point become 7; grid [(ite-its+1)/128 x (jte-jts+1)/4 x kte-kts+1]", "loop-coarsen",
    REPORT_CAT_LOOP },
  { "Kernel lap4_r1 not coarsened: its reads come from shared-memory tiles (-Msmem)",
    "loop-coarsen", REPORT_CAT_LOOP },
};

START_TEST(test_kind)
{
  const KindCase *c = &kinds[_i];
  const ReportKindInfo *k = report_kind_of(c->message);
  ck_assert_msg(k, "'%s' has no kind", c->message);
  ck_assert_str_eq(k->id, c->id);
  ck_assert_uint_eq(k->category, c->category);
  ck_assert_ptr_null(report_kind_of("a message of no known shape"));
}
END_TEST

/* The message of a feedback line `file:line[:col]: kind: message`, or NULL
 * for another line (a diagnostic's source line, a group header). */
static const char *feedback_message(const char *line)
{
  static const char *const kinds_text[] = { ": info: ", ": note: ", ": warning: " };
  for (size_t i = 0; i < sizeof kinds_text / sizeof *kinds_text; i++) {
    const char *k = strstr(line, kinds_text[i]);
    if (k && strncmp(line, "s2s-cuda:", 9) != 0)
      return k + strlen(kinds_text[i]);
  }
  return NULL;
}

static int sweep_file(const char *path, int *lines)
{
  FILE *f = fopen(path, "r");
  if (!f)
    return 0;
  char line[4096], next[4096];
  int unknown = 0;
  bool have = fgets(line, sizeof line, f) != NULL;
  while (have) {
    bool more = fgets(next, sizeof next, f) != NULL;
    line[strcspn(line, "\n")] = '\0';
    const char *m = feedback_message(line);
    /* a diagnostic (diag.c) is followed by its source line: not a feedback line */
    bool diagnostic = more && strstr(next, " | ") && strspn(next, " 0123456789") > 0;
    if (m && !diagnostic) {
      (*lines)++;
      if (!report_kind_of(m)) {
        fprintf(stderr, "%s: no kind for: %s\n", path, m);
        unknown++;
      }
    }
    if (more)
      memcpy(line, next, sizeof line);
    have = more;
  }
  fclose(f);
  return unknown;
}

START_TEST(test_golden_lines_have_kinds)
{
  const char *top = getenv("top_srcdir");
  char groups[512];
  snprintf(groups, sizeof groups, "%s/tests/golden", top && *top ? top : "..");
  DIR *g = opendir(groups);
  ck_assert_msg(g, "cannot open %s (set top_srcdir)", groups);
  int unknown = 0, lines = 0;
  struct dirent *ge;
  while ((ge = readdir(g))) {
    if (ge->d_name[0] == '.')
      continue;
    char group[1024];
    snprintf(group, sizeof group, "%s/%s", groups, ge->d_name);
    DIR *c = opendir(group);
    if (!c)
      continue;
    struct dirent *ce;
    while ((ce = readdir(c))) {
      char path[2048];
      snprintf(path, sizeof path, "%s/%s/expect.stderr", group, ce->d_name);
      if (ce->d_name[0] != '.')
        unknown += sweep_file(path, &lines);
    }
    closedir(c);
  }
  closedir(g);
  ck_assert_msg(lines > 300, "only %d feedback lines found under %s", lines, groups);
  ck_assert_msg(unknown == 0, "%d feedback lines of %d have no kind (see above)", unknown, lines);
}
END_TEST

/* A later pass rewrites an earlier line (pass coarsen the kernel's grid):
 * the line keeps its place among the others, its kind and its kind of
 * message. */
START_TEST(test_set_text)
{
  report_clear();
  report_add_file(REPORT_INFO, "r", "a.f90", 3, "Loop is parallelizable");
  int line = report_count();
  report_add_file(REPORT_INFO, "r", "a.f90", 2, "Accelerator kernel generated: %s",
                  "r_r1 grid [n/128 x m] block [128]");
  report_add_file(REPORT_NOTE, "r", "a.f90", 4, "Kernel r_r1 computes 2 points");
  report_set_text(line, "Accelerator kernel generated: r_r1 grid [n/128 x m/2] block [128]");
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  report_print(out);
  fclose(out);
  ck_assert_str_eq(text, "a.f90: In routine 'r':\n"
                         "a.f90:3: info: Loop is parallelizable\n"
                         "a.f90:2: info: Accelerator kernel generated: r_r1 grid [n/128 x m/2] "
                         "block [128]\n"
                         "a.f90:4: note: Kernel r_r1 computes 2 points\n");
  free(text);
  report_clear();
}
END_TEST

int main(void)
{
  Suite *s = suite_create("report");
  TCase *tc = tcase_create("kinds");
  tcase_add_loop_test(tc, test_kind, 0, (int)(sizeof kinds / sizeof *kinds));
  tcase_add_test(tc, test_golden_lines_have_kinds);
  tcase_add_test(tc, test_set_text);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
