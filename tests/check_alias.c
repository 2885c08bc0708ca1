/* check_alias.c — the aliasing rule of C regions (transforms/map.c,
 * check_c_aliasing; xf_c_no_alias): a region that writes one array reached
 * through a pointer and uses another of the same type is translated only
 * when they cannot overlap.
 *
 * Table-driven: each case is one region, in
 *
 *   void f(int n, float *p, st_t *s, st_t *restrict q, st_t *g2, st_t v)
 *
 * of a struct with pointer members (u, v; r declared restrict), array
 * members (w, w2), a double pointer member (t), a pointer to another
 * such struct (down) and a struct member (in), planned by the real
 * front end and planner with or without -Msafeptr; the case gives the
 * start of the error the planner must print, or "" when the region is
 * translated.  Struct members follow the rule of pointer parameters:
 * pointer members may overlap anything unless declared restrict or under
 * -Msafeptr; array members of one struct never overlap each other, and
 * those of a restrict struct pointer overlap nothing else.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "report.h"
#include "transforms.h"

static void setup(void) { diag_reset(); }

static void teardown(void)
{
  xf_config.assume_no_alias = false;
  report_clear();
  ir_arena_free();
  diag_reset();
}

typedef struct AliasCase {
  const char *name;
  const char *stmt;     /* the loop body over i */
  bool safeptr;
  const char *error;    /* start of the error after "t.c:L:C: error: ", "" when translated */
} AliasCase;

static const AliasCase cases[] = {
  { "pointer members", "s->v[i] = s->u[i];", false,
    "the region writes 's->v' and uses 's->u', arrays reached through pointers that may "
    "overlap; if they never do, declare the member restrict (as in 'float *restrict v;' in the "
    "struct) or translate with -Msafeptr" },
  { "pointer members under -Msafeptr", "s->v[i] = s->u[i];", true, "" },
  { "a restrict member written", "s->r[i] = s->u[i];", false, "" },
  { "a restrict member read", "s->v[i] = s->r[i];", false, "" },
  { "two array members of one struct", "s->w2[i] = s->w[i];", false, "" },
  { "an array member and a pointer member", "s->w[i] = s->u[i];", false,
    "the region writes 's->w' and uses 's->u', arrays reached through pointers that may "
    "overlap; if they never do, declare 's' as a restrict pointer or translate with -Msafeptr" },
  { "... through a restrict struct pointer", "q->w[i] = q->u[i];", false, "" },
  { "... under -Msafeptr", "s->w[i] = s->u[i];", true, "" },
  { "a pointer member and a pointer parameter", "s->v[i] = p[i];", false,
    "the region writes 's->v' and uses 'p', arrays reached through pointers that may overlap" },
  { "a pointer parameter and a pointer member", "p[i] = s->u[i];", false,
    "the region writes 'p' and uses 's->u', arrays reached through pointers that may overlap; "
    "if they never do, declare them restrict (as in 'float *restrict p')" },
  { "members of another type", "s->t[i] = s->u[i];", false, "" },
  { "array members of two structs", "s->w[i] = g2->w[i];", false,
    "the region writes 's->w' and uses 'g2->w'" },
  { "array members of two structs, one restrict", "s->w[i] = q->w[i];", false, "" },
  { "a struct variable's members", "v.w[i] = v.u[i];", false,
    "the region writes 'v.w' and uses 'v.u'" },
  { "one member only", "s->u[i] = 2.0f * s->u[i];", false, "" },
  /* structs inside structs: a member struct lies in its struct; one a member
   * points to may be anywhere */
  { "array members of a member struct", "s->in.w2[i] = s->in.w[i];", false, "" },
  { "array members of a struct a member points to", "s->down->w2[i] = s->down->w[i];", false,
    "" },
  { "array members of a struct and of the one it points to", "s->w[i] = s->down->w[i];", false,
    "the region writes 's->w' and uses 's->down->w'" },
  { "a member struct of a restrict struct pointer", "q->in.w[i] = q->u[i];", false, "" },
  { "a struct a member of a restrict struct pointer points to", "q->down->w[i] = q->u[i];",
    false, "the region writes 'q->down->w' and uses 'q->u', arrays reached through pointers "
    "that may overlap; if they never do, copy 'q->down' into a restrict pointer before the "
    "region or translate with -Msafeptr" },
};

START_TEST(test_aliasing)
{
  const AliasCase *c = &cases[_i];
  char *src = ir_printf("typedef struct st { int n; float *u; float *v; float *restrict r;\n"
                        "  float w[64]; float w2[64]; double *t; struct st *down;\n"
                        "  struct { float w[64]; float w2[64]; } in; } st_t;\n"
                        "void f(int n, float *p, st_t *s, st_t *restrict q, st_t *g2, st_t v)\n"
                        "{\n"
                        "#pragma stencil region\n"
                        "  for (int i = 0; i < n; i++) { %s }\n"
                        "}\n", c->stmt);
  char *msgs = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&msgs, &len);
  diag_set_stream(f);
  xf_config.assume_no_alias = c->safeptr;
  int file = diag_add_source(xstrdup("t.c"), xstrdup(src), strlen(src));
  Program *p = fe_c(file);
  bool ok = p && xf_plan_program(p);
  fclose(f);
  diag_set_stream(NULL);
  ck_assert_msg(p != NULL, "%s: does not parse:\n%s", c->name, msgs);
  if (!*c->error) {
    ck_assert_msg(ok, "%s: refused:\n%s", c->name, msgs);
  } else {
    const char *e = strstr(msgs, "error: ");
    ck_assert_msg(!ok && e && strncmp(e + 7, c->error, strlen(c->error)) == 0,
                  "%s:\n  expected '%s'\n  got      '%s'", c->name, c->error, msgs);
  }
  free(msgs);
}
END_TEST

static Suite *alias_suite(void)
{
  Suite *s = suite_create("alias");
  TCase *tc = tcase_create("core");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_loop_test(tc, test_aliasing, 0, (int)(sizeof cases / sizeof *cases));
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(alias_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
