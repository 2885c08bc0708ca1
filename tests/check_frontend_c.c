/* check_frontend_c.c — unit tests of the C front end (fe_c).
 *
 * Each test registers a small C source, runs fe_c and looks at the IR: the
 * routine's symbols (parameters with ranks and bounds reversed to fastest
 * first, locals, file-scope constants), the regions (lines, names, body),
 * and the lowered statements, compared through ir_dump's text where that
 * reads best.  Table-driven where cases repeat: `for` headers and the DO
 * loop they normalize to; expressions and the conversions C's rules put in
 * them; refused constructs and the exact `line:col: error: message` the
 * user must see.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"

/* ---- helpers ------------------------------------------------------------- */

static char *captured;
static size_t captured_len;
static FILE *capture;

static void setup(void)
{
  diag_reset();
  captured = NULL;
  capture = open_memstream(&captured, &captured_len);
  diag_set_stream(capture);
}

/* The arena owns the IR and, through ir_arena_on_free, the directives. */
static void teardown(void)
{
  diag_set_stream(NULL);
  fclose(capture);
  free(captured);
  ir_arena_free();
  diag_reset();
}

/* Everything printed so far (owned by the capture; valid until teardown). */
static const char *output(void)
{
  fflush(capture);
  return captured ? captured : "";
}

/* Parse `src` as t.c; NULL when fe_c reported errors. */
static Program *parse(const char *src)
{
  int file = diag_add_source(xstrdup("t.c"), xstrdup(src), strlen(src));
  return fe_c(file);
}

static Program *parse_ok(const char *src)
{
  Program *p = parse(src);
  ck_assert_msg(p != NULL, "fe_c failed on:\n%s\nwith:\n%s", src, output());
  ck_assert_str_eq(output(), "");
  return p;
}

static IrRoutine *routine(Program *p, const char *name)
{
  for (int i = 0; i < p->nroutines; i++)
    if (strcmp(p->routines[i]->name, name) == 0)
      return p->routines[i];
  ck_abort_msg("no routine %s", name);
  return NULL;
}

static IrSym *sym(IrRoutine *r, const char *name)
{
  IrSym *s = ir_lookup(r, name);
  ck_assert_msg(s != NULL, "no symbol %s", name);
  return s;
}

/* An expression as ir_dump prints it (arena string). */
static const char *text_of(const IrExpr *e)
{
  if (!e)
    return "NULL";
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  ir_dump_expr(e, f);
  fclose(f);
  char *s = ir_strdup(buf);
  free(buf);
  return s;
}

/* A statement list as ir_dump prints it, without the line-number column
 * (arena string). */
static const char *stmts_text(const IrStmtList *l)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  ir_dump_stmts(l, 0, f);
  fclose(f);
  char *out = ir_alloc(len + 1), *o = out;
  for (char *line = buf; *line;) {
    char *nl = strchr(line, '\n');
    size_t n = nl ? (size_t)(nl - line) : strlen(line);
    if (n > 7) {
      memcpy(o, line + 7, n - 7);
      o += n - 7;
    }
    *o++ = '\n';
    line += n + (nl ? 1 : 0);
  }
  *o = '\0';
  free(buf);
  return out;
}

/* The bounds of a symbol as "lo:hi,lo:hi" (hi "*" when unknown). */
static const char *shape_of(const IrSym *s)
{
  char buf[512] = "";
  for (int d = 0; d < s->rank; d++) {
    size_t n = strlen(buf);
    snprintf(buf + n, sizeof buf - n, "%s%s:%s", d ? "," : "", text_of(s->lo[d]),
             s->hi[d] ? text_of(s->hi[d]) : "*");
  }
  return ir_strdup(buf);
}

/* ---- program, routines, parameters ---------------------------------------- */

START_TEST(test_program_and_routine)
{
  Program *p = parse_ok("#include <math.h>\n"
                        "\n"
                        "static double helper(double x) { return x; }\n"
                        "\n"
                        "void\n"
                        "laplace(int n, double *a)\n"
                        "{\n"
                        "  int i;\n"
                        "  double s = 0;\n"
                        "  s = helper(s);\n"
                        "#pragma stencil region\n"
                        "  for (i = 0; i < n; i++)\n"
                        "    a[i] = s;\n"
                        "}\n");
  ck_assert_int_eq(p->lang, IR_C);
  ck_assert_int_eq(p->nroutines, 2);
  ck_assert_int_eq(p->nmodules, 1);
  ck_assert_str_eq(p->modules[0]->name, "");
  IrRoutine *h = routine(p, "helper");
  ck_assert(h->is_function);
  ck_assert_int_eq(h->nregions, 0);
  IrRoutine *r = routine(p, "laplace");
  ck_assert(!r->is_function);
  ck_assert_int_eq(r->first_line, 5);
  ck_assert_int_eq(r->last_line, 14);
  ck_assert_int_eq(r->spec_end_line, 5);
  ck_assert_int_eq(r->body_start_line, 10);
  ck_assert_int_eq(r->loc.line, 5);
  ck_assert_ptr_eq(r->module, p->modules[0]);
  ck_assert_int_eq(r->nregions, 1);
  IrRegion *g = r->regions[0];
  ck_assert_str_eq(g->name, "laplace_r1");
  ck_assert_str_eq(g->launcher, "s2s_laplace_r1");
  ck_assert_int_eq(g->index, 1);
  ck_assert_int_eq(g->first_line, 11);
  ck_assert_int_eq(g->last_line, 13);
  ck_assert_ptr_eq(g->routine, r);
  ck_assert_int_eq(g->dir->kind, DIR_REGION);
}
END_TEST

static const struct {
  const char *name;
  IrType type;
  int rank, index;
  bool pointer, by_value, restrict_;
  const char *shape;
} param_cases[] = {
  { "n", IR_T_INT, 0, 0, false, true, false, "" },
  { "q", IR_T_INT8, 0, 1, false, true, false, "" },
  { "x", IR_T_REAL4, 0, 2, false, true, false, "" },
  { "y", IR_T_REAL8, 0, 3, false, true, false, "" },
  { "m", IR_T_INT, 0, 4, false, true, false, "" },
  { "l", IR_T_INT, 0, 5, false, true, false, "" },
  { "A", IR_T_REAL8, 3, 6, false, false, false, "0:(l - 1),0:(m - 1),0:(n - 1)" },
  { "B", IR_T_REAL8, 1, 7, true, false, true, "0:*" },
  { "C", IR_T_REAL4, 2, 8, false, false, false, "0:(m - 1),0:*" },
  { "D", IR_T_REAL8, 3, 9, false, false, true, "0:(l - 1),0:(m - 1),0:*" },
  { "E", IR_T_INT, 2, 10, false, false, false, "0:19,0:9" },
  { "F", IR_T_REAL8, 1, 11, false, false, true, "0:(n + 1)" },
  { "z", IR_T_INT8, 0, 13, false, true, false, "" },
  { "r", IR_T_REAL8, 1, 14, true, false, false, "0:*" },
  { "G", IR_T_REAL8, 2, 17, false, false, true, "0:(n - 1),0:*" },
};

START_TEST(test_parameters)
{
  Program *p = parse_ok("typedef double real;\n"
                        "void f(int n, long q, float x, const double y, int m, int l,\n"
                        "       double A[n][m][l], const double *restrict B, float C[][m],\n"
                        "       double (*restrict D)[m][l], int E[10][20], double F[restrict n + 2],\n"
                        "       double **pp, long long int z, real *r, struct s *ps, unsigned u,\n"
                        "       double G[restrict][n])\n"
                        "{\n"
                        "}\n");
  IrRoutine *r = routine(p, "f");
  int count = (int)(sizeof param_cases / sizeof *param_cases);
  ck_assert_int_eq(r->ndummies, count);
  for (int i = 0; i < count; i++) {
    IrSym *s = r->dummies[i];
    ck_assert_str_eq(s->name, param_cases[i].name);
    ck_assert_ptr_eq(sym(r, s->name), s);
    ck_assert_msg(s->type == param_cases[i].type, "%s: type %d", s->name, s->type);
    ck_assert_int_eq(s->rank, param_cases[i].rank);
    ck_assert_int_eq(s->dummy_index, param_cases[i].index);
    ck_assert(s->is_dummy);
    ck_assert(!s->is_module);
    ck_assert_int_eq(s->is_pointer, param_cases[i].pointer);
    ck_assert_int_eq(s->by_value, param_cases[i].by_value);
    ck_assert_int_eq(s->is_restrict, param_cases[i].restrict_);
    ck_assert_str_eq(shape_of(s), param_cases[i].shape);
    ck_assert_int_eq(s->kind, IR_SYM_VAR);
  }
  /* pointer to pointer, struct and unsigned parameters are not symbols */
  ck_assert_ptr_null(ir_lookup(r, "pp"));
  ck_assert_ptr_null(ir_lookup(r, "ps"));
  ck_assert_ptr_null(ir_lookup(r, "u"));
}
END_TEST

START_TEST(test_declarations)
{
  Program *p = parse_ok("static const double c0 = 0.1;\n"
                        "const int NG = 4 * 2;\n"
                        "double g[10][20];\n"
                        "enum { NX = 8, NY };\n"
                        "int counter;\n"
                        "void f(int n)\n"
                        "{\n"
                        "  const int N = 64;\n"
                        "  const double dx = 1.0 / n;\n"
                        "  double t = 1, u[3], v[N][n];\n"
                        "  float w[NX];\n"
                        "  for (int k = 0; k < n; k++) { long h = k; }\n"
                        "}\n");
  IrModule *m = p->modules[0];
  IrSym *c0, *ng, *g, *nx, *ny, *counter;
  HASH_FIND_STR(m->symbols, "c0", c0);
  HASH_FIND_STR(m->symbols, "NG", ng);
  HASH_FIND_STR(m->symbols, "g", g);
  HASH_FIND_STR(m->symbols, "NX", nx);
  HASH_FIND_STR(m->symbols, "NY", ny);
  HASH_FIND_STR(m->symbols, "counter", counter);
  ck_assert(c0 && ng && g && nx && ny && counter);
  ck_assert(c0->is_module && g->is_module);
  ck_assert_int_eq(c0->kind, IR_SYM_PARAM);
  ck_assert_int_eq(c0->type, IR_T_REAL8);
  ck_assert_str_eq(text_of(c0->init), "0.1_8");
  long v;
  ck_assert(ir_eval_const(ir_var(ng, ng->loc), &v));
  ck_assert_int_eq(v, 8);
  ck_assert(ir_eval_const(ir_var(ny, ny->loc), &v));
  ck_assert_int_eq(v, 9);
  ck_assert_str_eq(shape_of(g), "0:19,0:9");
  ck_assert_int_eq(counter->kind, IR_SYM_VAR);

  IrRoutine *r = routine(p, "f");
  ck_assert_ptr_eq(ir_lookup(r, "c0"), c0);        /* routine, then module */
  IrSym *N = sym(r, "N");
  ck_assert_int_eq(N->kind, IR_SYM_PARAM);
  ck_assert_str_eq(text_of(N->init), "64");
  ck_assert_int_eq(sym(r, "dx")->kind, IR_SYM_VAR); /* const, but not constant */
  ck_assert_int_eq(sym(r, "t")->rank, 0);
  ck_assert_str_eq(shape_of(sym(r, "u")), "0:2");
  ck_assert_str_eq(shape_of(sym(r, "v")), "0:(n - 1),0:(N - 1)");
  ck_assert_str_eq(shape_of(sym(r, "w")), "0:(NX - 1)");
  ck_assert_int_eq(sym(r, "k")->type, IR_T_INT);
  ck_assert_int_eq(sym(r, "h")->type, IR_T_INT8);
  ck_assert(!sym(r, "t")->is_dummy);
  ck_assert_int_eq(sym(r, "t")->dummy_index, -1);
}
END_TEST

/* ---- loops ------------------------------------------------------------------ */

static const struct { const char *header, *loop; } loop_cases[] = {
  { "i = 0; i < n; i++", "do i = 0, (n - 1)" },
  { "i = 1; i <= n; ++i", "do i = 1, n" },
  { "i = n; i > 0; i--", "do i = n, 1, -1" },
  { "i = n - 1; i >= 0; --i", "do i = (n - 1), 0, -1" },
  { "i = 0; n > i; i += 2", "do i = 0, (n - 1), 2" },
  { "i = 0; n >= i; i = i + 3", "do i = 0, n, 3" },
  { "i = 10; 0 <= i; i -= 2", "do i = 10, 0, -2" },
  { "i = 0; i < n + 1; i = 1 + i", "do i = 0, n" },
  { "i = 1; i < n - 1; i++", "do i = 1, (n - 2)" },
  { "i = 2; i < 10; i = i - -1", "do i = 2, 9" },
  { "i = n; i > m + 2; i = i - 1", "do i = n, (m + 3), -1" },
  { "i = 0; (i < n); i++", "do i = 0, (n - 1)" },
  { "i = 0; i < 2 * S; i += S", "do i = 0, ((2 * S) - 1), 4" },
  { "int j = 0; j < n; j++", "do j = 0, (n - 1)" },
  { "long j = 0; j < q; j++", "do j = 0, (q - 1)" },
  { "long j = n; j < m; j++", "do j = integer(8)(n), (integer(8)(m) - 1)" },
  /* != counts like < (step 1) or > (step -1) */
  { "i = 0; i != n; i++", "do i = 0, (n - 1)" },
  { "i = n; m != i; --i", "do i = n, (m + 1), -1" },
  /* size_t: a signed 64-bit index */
  { "size_t j = 0; j < q; j++", "do j = 0, (q - 1)" },
};

START_TEST(test_loop_forms)
{
  char src[512];
  snprintf(src, sizeof src,
           "void f(int n, int m, long q, double *a)\n"
           "{\n"
           "  const int S = 4;\n"
           "  int i;\n"
           "#pragma stencil region\n"
           "  for (%s) a[0] = 0;\n"
           "}\n", loop_cases[_i].header);
  Program *p = parse_ok(src);
  IrRegion *g = routine(p, "f")->regions[0];
  ck_assert_int_eq(g->body.n, 1);
  IrStmt *s = g->body.v[0];
  ck_assert_int_eq(s->kind, IR_S_DO);
  const char *text = stmts_text(&g->body);
  size_t n = strcspn(text, "\n");
  ck_assert_msg(strlen(loop_cases[_i].loop) == n && !strncmp(text, loop_cases[_i].loop, n),
                "%s: got '%.*s', expected '%s'", loop_cases[_i].header, (int)n, text,
                loop_cases[_i].loop);
  ck_assert_int_eq(s->loc.line, 6);
  ck_assert_int_eq(s->loc.col, 3);
  ck_assert(ir_type_is_integer(s->u.loop.iv->type));
  ck_assert_int_eq(s->u.loop.lo->type, s->u.loop.iv->type);
  ck_assert_int_eq(s->u.loop.hi->type, s->u.loop.iv->type);
  ck_assert_ptr_null(s->u.loop.advice);
  long step;
  if (s->u.loop.step)
    ck_assert(ir_eval_const(s->u.loop.step, &step) && step != 1);
}
END_TEST

START_TEST(test_loop_bounds_evaluate)
{
  Program *p = parse_ok("void f(double *a)\n"
                        "{\n"
                        "  const int N = 64;\n"
                        "#pragma stencil region\n"
                        "  for (int i = N - 1; i >= 2; i -= 3) a[i] = 0;\n"
                        "}\n");
  IrStmt *s = routine(p, "f")->regions[0]->body.v[0];
  long lo, hi, step;
  ck_assert(ir_eval_const(s->u.loop.lo, &lo));
  ck_assert(ir_eval_const(s->u.loop.hi, &hi));
  ck_assert(ir_eval_const(s->u.loop.step, &step));
  ck_assert_int_eq(lo, 63);
  ck_assert_int_eq(hi, 2);
  ck_assert_int_eq(step, -3);
  /* a loop declared `int i` gets its own symbol, named as written */
  ck_assert_str_eq(s->u.loop.iv->name, "i");
  ck_assert_int_eq(s->u.loop.end_loc.line, 5);
}
END_TEST

START_TEST(test_do_advice)
{
  Program *p = parse_ok("void f(int n, int m, double a[n][m], double *b)\n"
                        "{\n"
                        "#pragma stencil region copyin(b[0:n*m]) copy(a)\n"
                        "#pragma stencil do parallel\n"
                        "  for (int i = 0; i < n; i++)\n"
                        "#pragma stencil do vector(128)\n"
                        "    for (int j = 0; j < m; j++)\n"
                        "      a[i][j] = b[i*m + j];\n"
                        "  for (int t = 0; t < 10; t++) {\n"
                        "#pragma stencil region\n"
                        "    {\n"
                        "      for (int i = 0; i < n; i++) {\n"
                        "#pragma stencil do seq\n"
                        "        for (int j = 1; j < m; j++)\n"
                        "          a[i][j] = a[i][j-1];\n"
                        "      }\n"
                        "    }\n"
                        "  }\n"
                        "}\n");
  IrRoutine *r = routine(p, "f");
  ck_assert_int_eq(r->nregions, 2);
  IrRegion *g = r->regions[0];
  ck_assert_int_eq(g->first_line, 3);
  ck_assert_int_eq(g->last_line, 8);
  ck_assert_int_eq(g->dir->nclauses, 2);
  IrStmt *outer = g->body.v[0];
  ck_assert_ptr_nonnull(outer->u.loop.advice);
  ck_assert(outer->u.loop.advice->parallel);
  ck_assert_int_eq(outer->u.loop.advice->loc.line, 4);
  IrStmt *inner = outer->u.loop.body.v[0];
  ck_assert_int_eq(inner->kind, IR_S_DO);
  ck_assert_ptr_nonnull(inner->u.loop.advice);
  ck_assert_int_eq(inner->u.loop.advice->vector, 128);
  ck_assert_int_eq(inner->u.loop.end_loc.line, 8);
  ck_assert_str_eq(stmts_text(&g->body),
                   "do i = 0, (n - 1)\n"
                   "  do j = 0, (m - 1)\n"
                   "    a(j,i) = b(((i * m) + j))\n"
                   "  end do\n"
                   "end do\n");
  g = r->regions[1];
  ck_assert_str_eq(g->name, "f_r2");
  ck_assert_int_eq(g->index, 2);
  ck_assert_int_eq(g->first_line, 10);
  ck_assert_int_eq(g->last_line, 17);
  outer = g->body.v[0];
  ck_assert_ptr_null(outer->u.loop.advice);
  ck_assert(outer->u.loop.body.v[0]->u.loop.advice->seq);
}
END_TEST

/* ---- expressions and conversions -------------------------------------------- */

static const struct { const char *lhs, *rhs, *ir; IrType type; } expr_cases[] = {
  /* usual arithmetic conversions */
  { "b[i]", "x + k", "(x + real(4)(k))", IR_T_REAL4 },
  { "a[i]", "x + y", "(real(8)(x) + y)", IR_T_REAL8 },
  { "a[i]", "y * k", "(y * real(8)(k))", IR_T_REAL8 },
  { "m[i]", "k + q", "integer((integer(8)(k) + q))", IR_T_INT },
  { "b[i]", "x * 2", "(x * 2.0_4)", IR_T_REAL4 },
  { "a[i]", "k / 2 * 0.5", "(real(8)((k / 2)) * 0.5_8)", IR_T_REAL8 },
  { "b[i]", "x + 1.0", "real(4)((real(8)(x) + 1.0_8))", IR_T_REAL4 },
  { "m[i]", "k % 3 - -k", "((k % 3) - (-k))", IR_T_INT },
  { "a[i]", "-3 + 2.5e-1", "(real(8)(-3) + 2.5e-1_8)", IR_T_REAL8 },
  { "b[i]", "1.5f - 2L", "(1.5_4 - 2.0_4)", IR_T_REAL4 },
  /* comparisons and logic are logical; as values they convert to int */
  { "m[i]", "x > y", "integer((real(8)(x) > y))", IR_T_INT },
  { "m[i]", "k && !x", "integer(((k != 0) && (!(x != 0.0_4))))", IR_T_INT },
  { "m[i]", "(k > 1) + 1", "(integer((k > 1)) + 1)", IR_T_INT },
  { "a[i]", "k ? x : y", "merge(real(8)(x),y,(k != 0))", IR_T_REAL8 },
  { "b[i]", "x < 1 ? 2 : x", "merge(2.0_4,x,(x < 1.0_4))", IR_T_REAL4 },
  /* casts */
  { "b[i]", "(float)y", "real(4)(y)", IR_T_REAL4 },
  { "m[i]", "(int)y % 3", "(integer(y) % 3)", IR_T_INT },
  { "a[i]", "(double)k / 2", "(real(8)(k) / 2.0_8)", IR_T_REAL8 },
  { "a[i]", "(const double)x", "real(8)(x)", IR_T_REAL8 },
  /* math functions: double versions compute in double, f versions in float */
  { "a[i]", "sqrt(x)", "sqrt(real(8)(x))", IR_T_REAL8 },
  { "b[i]", "sqrtf(x)", "sqrt(x)", IR_T_REAL4 },
  { "b[i]", "fmaxf(x, 1)", "max(x,1.0_4)", IR_T_REAL4 },
  { "a[i]", "fmin(y, k)", "min(y,real(8)(k))", IR_T_REAL8 },
  { "a[i]", "pow(x, 2)", "pow(real(8)(x),2.0_8)", IR_T_REAL8 },
  { "b[i]", "powf(x, 0.5f)", "pow(x,0.5_4)", IR_T_REAL4 },
  { "m[i]", "abs(k - 3)", "abs((k - 3))", IR_T_INT },
  { "a[i]", "fabs(y) + exp(y) + log(y)", "((abs(y) + exp(y)) + log(y))", IR_T_REAL8 },
  { "a[i]", "fmod(y, 2.0)", "mod(y,2.0_8)", IR_T_REAL8 },
  { "a[i]", "copysign(y, x)", "sign(y,real(8)(x))", IR_T_REAL8 },
  { "a[i]", "floor(y) + ceil(y)", "(floor(y) + ceiling(y))", IR_T_REAL8 },
  { "a[i]", "log10(y) * tanh(y)", "(log10(y) * tanh(y))", IR_T_REAL8 },
  { "b[i]", "sinf(x) + cosf(x) + tanf(x) + atanf(x)", "(((sin(x) + cos(x)) + tan(x)) + atan(x))",
    IR_T_REAL4 },
  /* named constants and globals */
  { "a[i]", "c0 * N", "(c0 * real(8)(N))", IR_T_REAL8 },
  /* what index macros expand to: `(k) + ...`, `(k) - ...` and `(k) * ...` read as casts
   * to a type named k by C's grammar, lowered as the sums and products they are */
  { "m[i]", "(k) + n * (i)", "(k + (n * i))", IR_T_INT },
  { "m[i]", "(k) - 1", "(k - 1)", IR_T_INT },
  { "m[i]", "(k) * n + (i)", "((k * n) + i)", IR_T_INT },
  { "m[i]", "(k) + n * 2 / 3", "(k + ((n * 2) / 3))", IR_T_INT },
};

START_TEST(test_expressions)
{
  char src[1024];
  snprintf(src, sizeof src,
           "static const double c0 = 0.1;\n"
           "void f(int n, int k, long q, float x, double y, double *a, float *b, int *m)\n"
           "{\n"
           "  const int N = 64;\n"
           "  int i;\n"
           "#pragma stencil region\n"
           "  for (i = 0; i < n; i++)\n"
           "    %s = %s;\n"
           "}\n", expr_cases[_i].lhs, expr_cases[_i].rhs);
  Program *p = parse_ok(src);
  IrStmt *loop = routine(p, "f")->regions[0]->body.v[0];
  IrStmt *s = loop->u.loop.body.v[0];
  ck_assert_int_eq(s->kind, IR_S_ASSIGN);
  ck_assert_int_eq(s->loc.line, 8);
  ck_assert_int_eq(s->loc.col, 5);
  ck_assert_int_eq(s->u.assign.lhs->kind, IR_E_ELEM);
  ck_assert_msg(strcmp(text_of(s->u.assign.rhs), expr_cases[_i].ir) == 0,
                "%s: got %s, expected %s", expr_cases[_i].rhs, text_of(s->u.assign.rhs),
                expr_cases[_i].ir);
  ck_assert_int_eq(s->u.assign.rhs->type, expr_cases[_i].type);
  ck_assert_int_eq(s->u.assign.rhs->type, s->u.assign.lhs->type);
}
END_TEST

START_TEST(test_expression_types)
{
  Program *p = parse_ok("void f(int n, int k, float x, double y, double *a)\n"
                        "{\n"
                        "#pragma stencil region\n"
                        "  for (int i = 0; i < n; i++)\n"
                        "    a[i] = (x + k) * (y > 0) + sqrtf(x);\n"
                        "}\n");
  IrStmt *s = routine(p, "f")->regions[0]->body.v[0]->u.loop.body.v[0];
  /* (double)((x + (float)k) * (float)(y > 0) + sqrtf(x)) */
  IrExpr *e = s->u.assign.rhs;
  ck_assert_int_eq(e->kind, IR_E_CONVERT);
  ck_assert_int_eq(e->type, IR_T_REAL8);
  IrExpr *sum = e->u.operand;
  ck_assert_int_eq(sum->type, IR_T_REAL4);
  IrExpr *prod = sum->u.binary.lhs;
  ck_assert_int_eq(prod->u.binary.op, IR_OP_MUL);
  ck_assert_int_eq(prod->type, IR_T_REAL4);
  IrExpr *cmp = prod->u.binary.rhs;
  ck_assert_int_eq(cmp->kind, IR_E_CONVERT);
  ck_assert_int_eq(cmp->u.operand->type, IR_T_LOGICAL);
  ck_assert_int_eq(cmp->u.operand->u.binary.op, IR_OP_GT);
  IrExpr *call = sum->u.binary.rhs;
  ck_assert_int_eq(call->kind, IR_E_CALL);
  ck_assert_int_eq(call->u.call.fn, IR_FN_SQRT);
  ck_assert_int_eq(call->type, IR_T_REAL4);
  /* locations: first token of each node */
  ck_assert_int_eq(prod->loc.line, 5);
  ck_assert_int_eq(prod->loc.col, 12);
  ck_assert_int_eq(call->loc.col, 32);
}
END_TEST

START_TEST(test_subscripts)
{
  Program *p = parse_ok("void f(int n, int m, int l, double A[n][m][l], const double *restrict B,\n"
                        "       double (*C)[m])\n"
                        "{\n"
                        "#pragma stencil region\n"
                        "  for (int i = 1; i < n; i++)\n"
                        "    for (int j = 0; j < m; j++)\n"
                        "      for (int k = 0; k < l; k++)\n"
                        "        A[i][j][k] = A[i-1][j][k] + B[i*m + j] + C[i][j];\n"
                        "}\n");
  IrRoutine *r = routine(p, "f");
  IrStmt *s = r->regions[0]->body.v[0]->u.loop.body.v[0]->u.loop.body.v[0]->u.loop.body.v[0];
  ck_assert_str_eq(text_of(s->u.assign.lhs), "A(k,j,i)");
  ck_assert_str_eq(text_of(s->u.assign.rhs), "((A(k,j,(i - 1)) + B(((i * m) + j))) + C(j,i))");
  IrExpr *lhs = s->u.assign.lhs;
  ck_assert_ptr_eq(lhs->u.elem.sym, sym(r, "A"));
  ck_assert_int_eq(lhs->u.elem.n, 3);
  ck_assert_int_eq(lhs->u.elem.sub[0]->u.var->name[0], 'k');
  ck_assert_int_eq(lhs->type, IR_T_REAL8);
}
END_TEST

/* ---- statements ------------------------------------------------------------- */

START_TEST(test_statements)
{
  Program *p = parse_ok("void f(int n, double *a, int *c)\n"
                        "{\n"
                        "  int i;\n"
                        "  double t;\n"
                        "#pragma stencil region\n"
                        "  {\n"
                        "    for (i = 0; i < n; i++) {\n"
                        "      double t = a[i], u;\n"
                        "      int k = 0;\n"
                        "      if (t > 1) t -= 1; else if (t < 0) { t = 0; } else t *= 2;\n"
                        "      a[i] += t; a[i] /= 2; c[i] %= 3;\n"
                        "      c[i]++; --c[i]; k++;\n"
                        "      for (int j = 0; j < 4; j++) {\n"
                        "        if (j == 2) continue;\n"
                        "        if (j == k) break;\n"
                        "        ;\n"
                        "      }\n"
                        "      u = t;\n"
                        "    }\n"
                        "    a[0] = 1;\n"
                        "  }\n"
                        "}\n");
  IrRoutine *r = routine(p, "f");
  IrRegion *g = r->regions[0];
  ck_assert_int_eq(g->first_line, 5);
  ck_assert_int_eq(g->last_line, 21);
  ck_assert_str_eq(stmts_text(&g->body),
                   "do i = 0, (n - 1)\n"
                   "  t_2 = a(i)\n"
                   "  k = 0\n"
                   "  if ((t_2 > 1.0_8)) then\n"
                   "    t_2 = (t_2 - 1.0_8)\n"
                   "  else\n"
                   "    if ((t_2 < 0.0_8)) then\n"
                   "      t_2 = 0.0_8\n"
                   "    else\n"
                   "      t_2 = (t_2 * 2.0_8)\n"
                   "    end if\n"
                   "  end if\n"
                   "  a(i) = (a(i) + t_2)\n"
                   "  a(i) = (a(i) / 2.0_8)\n"
                   "  c(i) = (c(i) % 3)\n"
                   "  c(i) = (c(i) + 1)\n"
                   "  c(i) = (c(i) - 1)\n"
                   "  k = (k + 1)\n"
                   "  do j = 0, 3\n"
                   "    if ((j == 2)) then\n"
                   "      cycle\n"
                   "    end if\n"
                   "    if ((j == k)) then\n"
                   "      exit\n"
                   "    end if\n"
                   "  end do\n"
                   "  u = t_2\n"
                   "end do\n"
                   "a(0) = 1.0_8\n");
  /* the region's `double t` shadows the host's: a kernel-only symbol with a fresh name */
  IrSym *t2 = sym(r, "t_2");
  ck_assert_int_eq(t2->type, IR_T_REAL8);
  ck_assert_int_eq(t2->loc.line, 8);
  ck_assert_ptr_ne(t2, sym(r, "t"));
  ck_assert_int_eq(sym(r, "u")->loc.line, 8);
}
END_TEST

START_TEST(test_region_locals_reused)
{
  Program *p = parse_ok("void f(int n, double *a)\n"
                        "{\n"
                        "  for (int i = 0; i < n; i++) a[i] = 0;\n"
                        "#pragma stencil region\n"
                        "  {\n"
                        "    for (int i = 0; i < n; i++) { double t = 1; a[i] = t; }\n"
                        "    for (int i = 0; i < n; i++) { double t = 2; a[i] += t; }\n"
                        "  }\n"
                        "#pragma stencil region\n"
                        "  for (int i = 0; i < n; i++) { double t = 3; a[i] = t; }\n"
                        "}\n");
  IrRoutine *r = routine(p, "f");
  /* sibling loops of one region share their closed-scope locals; the host's
   * `i` (another scope) keeps its name, so the kernels' get fresh ones */
  ck_assert_str_eq(stmts_text(&r->regions[0]->body),
                   "do i_2 = 0, (n - 1)\n"
                   "  t = 1.0_8\n"
                   "  a(i_2) = t\n"
                   "end do\n"
                   "do i_2 = 0, (n - 1)\n"
                   "  t = 2.0_8\n"
                   "  a(i_2) = (a(i_2) + t)\n"
                   "end do\n");
  ck_assert_str_eq(stmts_text(&r->regions[1]->body),
                   "do i_3 = 0, (n - 1)\n"
                   "  t_2 = 3.0_8\n"
                   "  a(i_3) = t_2\n"
                   "end do\n");
  ck_assert_int_eq(sym(r, "i")->loc.line, 3);
}
END_TEST

START_TEST(test_host_directives)
{
  Program *p = parse_ok("void f(int n, double *a)\n"
                        "{\n"
                        "#pragma stencil data copy(a[0:n]) \\\n"
                        "                     create(b)\n"
                        "  for (int t = 0; t < 10; t++) {\n"
                        "#pragma stencil region\n"
                        "    for (int i = 0; i < n; i++) a[i] += 1;\n"
                        "#pragma stencil update host(a[0:n])\n"
                        "  }  // end of time loop\n"
                        "#pragma stencil data copyin(a)\n"
                        "#pragma stencil region\n"
                        "  for (int i = 0; i < n; i++)\n"
                        "    a[i] = 0;\n"
                        "}\n");
  IrRoutine *r = routine(p, "f");
  ck_assert_int_eq(r->nhost_dirs, 3);
  IrHostDirective *d = r->host_dirs[0];
  ck_assert_int_eq(d->dir->kind, DIR_DATA);
  ck_assert_int_eq(d->first_line, 3);
  ck_assert_int_eq(d->last_line, 4);
  ck_assert_int_eq(d->stmt_last_line, 9);
  ck_assert_int_eq(d->index, 1);
  d = r->host_dirs[1];
  ck_assert_int_eq(d->dir->kind, DIR_UPDATE);
  ck_assert_int_eq(d->first_line, 8);
  ck_assert_int_eq(d->last_line, 8);
  ck_assert_int_eq(d->stmt_last_line, 0);
  d = r->host_dirs[2];
  ck_assert_int_eq(d->dir->kind, DIR_DATA);
  ck_assert_int_eq(d->first_line, 10);
  ck_assert_int_eq(d->stmt_last_line, 13);
  ck_assert_int_eq(r->nregions, 2);
  ck_assert_int_eq(r->regions[0]->first_line, 6);
  ck_assert_int_eq(r->regions[0]->last_line, 7);
  ck_assert_int_eq(r->regions[1]->first_line, 11);
  ck_assert_int_eq(r->regions[1]->last_line, 13);
}
END_TEST

START_TEST(test_host_code_is_free)
{
  /* host code may use anything; only regions are checked */
  Program *p = parse_ok("#include <stdlib.h>\n"
                        "struct s { int a; };\n"
                        "void f(int n, double **pp, struct s *ps, unsigned u)\n"
                        "{\n"
                        "  double *a = malloc(n * sizeof *a);\n"
                        "  while (u--) ps->a += pp[0][0] > 1;\n"
                        "  { int x; } { double x; }\n"
                        "#pragma omp parallel for\n"
                        "  for (int i = 0; i < n; i++) a[i] = foo(i);\n"
                        "#pragma stencil region\n"
                        "  for (int i = 0; i < n; i++) a[i] = 0;\n"
                        "  free(a);\n"
                        "}\n");
  IrRoutine *r = routine(p, "f");
  ck_assert_int_eq(r->nregions, 1);
  IrSym *a = sym(r, "a");
  ck_assert(a->is_pointer);
  ck_assert_int_eq(a->rank, 1);
}
END_TEST

/* ... but it must parse: a syntax error anywhere is refused, as in Fortran
 * (an unreadable function can change how the parser reads the rest). */
START_TEST(test_syntax_error_in_host_code)
{
  ck_assert_ptr_null(parse("void g(int n) { if (n) { n = 2 } }\n"
                           "void f(int n, double *a)\n"
                           "{\n"
                           "#pragma stencil region\n"
                           "  for (int i = 0; i < n; i++) a[i] = 0;\n"
                           "}\n"));
  ck_assert_str_eq(output(), "t.c:1:26: error: syntax error: the parser cannot read this construct\n"
                             "    1 | void g(int n) { if (n) { n = 2 } }\n"
                             "      |                          ^~~~~\n");
}
END_TEST

/* Struct members a region uses (`s->u`, `s.w`, `s->nx`): each access path
 * is a symbol of its own, named `base_member`, with the user's spelling as
 * source_name (what the host passes) and what the aliasing rule needs:
 * restrict for a pointer member declared so, and for an array member of a
 * restrict struct pointer (which overlaps nothing else); array members of
 * one struct never overlap each other. */
static const struct {
  const char *use;          /* an expression statement of the region, in the loop over i */
  const char *name, *source_name, *base, *shape;
  IrType type;
  bool restrict_, array, pointer;
} member_cases[] = {
  { "s->u[2][1][i] = 0;", "s_u", "s->u", "s", "0:4,0:3,0:*", IR_T_REAL4, false, false, false },
  { "s->w[2][1][i] = 0;", "s_w", "s->w", "s", "0:4,0:3,0:2", IR_T_REAL4, true, true, false },
  { "s->t[i] = 0;", "s_t_2", "s->t", "s", "0:*", IR_T_REAL8, false, false, true },
  { "s->r[i] = 0;", "s_r", "s->r", "s", "0:*", IR_T_REAL8, true, false, true },
  { "x = s->nx;", "s_nx", "s->nx", "s", "", IR_T_INT, false, false, false },
  { "v.t[i] = 0;", "v_t", "v.t", "v", "0:*", IR_T_REAL8, false, false, true },
  { "v.w[2][1][i] = 0;", "v_w", "v.w", "v", "0:4,0:3,0:2", IR_T_REAL4, false, true, false },
  { "q->w[2][1][i] = 0;", "q_w", "q->w", "q", "0:4,0:3,0:2", IR_T_REAL4, false, true, false },
  { "g.w[2][1][i] = 0;", "g_w", "g.w", "g", "0:4,0:3,0:2", IR_T_REAL4, false, true, false },
  { "x = (s)->nx + s->nx;", "s_nx", "s->nx", "s", "", IR_T_INT, false, false, false },
  { "x = v.nx;", "v_nx", "v.nx", "v", "", IR_T_INT, false, false, false },
  { "s->in.w[2][1][i] = 0;", "s_in_w", "s->in.w", "s->in", "0:4,0:3,0:2", IR_T_REAL4, true, true,
    false },
  { "s->next->w[2][1][i] = 0;", "s_next_w", "s->next->w", "s->next", "0:4,0:3,0:2", IR_T_REAL4,
    false, true, false },
  { "x = s->next->next->nx;", "s_next_next_nx", "s->next->next->nx", "s->next->next", "",
    IR_T_INT, false, false, false },
  { "v.in.t[i] = 0;", "v_in_t", "v.in.t", "v.in", "0:*", IR_T_REAL8, false, false, true },
};

START_TEST(test_struct_members)
{
  char src[1024];
  snprintf(src, sizeof src,
           "typedef struct st { int nx, ny; float (*u)[4][5]; double *t; double *restrict r;\n"
           "  float w[3][4][5]; struct st *next; struct { double *t; float w[3][4][5]; } in;\n"
           "} state_t;\n"
           "state_t g;\n"
           "void f(int n, double *s_t, state_t *restrict s, state_t v, state_t *q)\n"
           "{\n"
           "  int x;\n"
           "#pragma stencil region\n"
           "  for (int i = 0; i < n; i++) { %s }\n"
           "}\n", member_cases[_i].use);
  Program *p = parse_ok(src);
  IrRoutine *r = routine(p, "f");
  IrSym *m = ir_lookup(r, member_cases[_i].name);
  ck_assert_msg(m != NULL, "%s: no symbol %s", member_cases[_i].use, member_cases[_i].name);
  ck_assert_str_eq(m->source_name, member_cases[_i].source_name);
  ck_assert_str_eq(ir_sym_user_name(m), member_cases[_i].source_name);
  ck_assert_str_eq(m->member_base, member_cases[_i].base);
  ck_assert_str_eq(shape_of(m), member_cases[_i].shape);
  ck_assert_msg(m->type == member_cases[_i].type, "%s: type %d", m->name, m->type);
  ck_assert_int_eq(m->is_restrict, member_cases[_i].restrict_);
  ck_assert_int_eq(m->member_array, member_cases[_i].array);
  ck_assert_int_eq(m->is_pointer, member_cases[_i].pointer);
  ck_assert(!m->is_dummy && !m->region_local);
}
END_TEST

/* Member uses a region cannot have: one error per region (every use of the
 * same form is the same mistake), saying what to do instead. */
static const struct { const char *code, *message; } member_errors[] = {
  { "a[i] = s->t->n + s->t->n;",
    "t.c:6:40: error: 's->t' is not a struct or a pointer to one, so 's->t->n' cannot be read "
    "(line 6)\n" },
  { "a[i] = s->g.n;",
    "t.c:6:40: error: 's->g' is a pointer to a struct: write 's->g->n' (line 6)\n" },
  { "a[i] = s->g->m;",
    "t.c:6:40: error: 's->g->m': the struct has no member 'm' (line 6)\n" },
  { "a[i] = s->g;",
    "t.c:6:40: error: 's->g' is a struct: a region uses its members, not the struct itself "
    "(line 6)\n" },
  { "s->g->n = 1;",
    "t.c:6:33: error: 's->g->n' is assigned inside the stencil region (line 6): writes to struct "
    "members are not supported inside a region" },
  { "s->n = i;",
    "t.c:6:33: error: 's->n' is assigned inside the stencil region (line 6): writes to struct "
    "members are not supported inside a region; assign a local variable and copy it into "
    "'s->n' after the region\n" },
  { "s->t = a;",
    "t.c:6:33: error: 's->t' is assigned inside the stencil region (line 6): the region uses the "
    "array it points to where the region starts; assign it before the region\n" },
  { "s = s + 1;",
    "t.c:6:33: error: the struct pointer 's' is assigned inside the stencil region (line 6): the "
    "region reads its members where it starts; assign it before the region\n" },
  { "s++;",
    "t.c:6:33: error: the struct pointer 's' is assigned inside the stencil region (line 6): the "
    "region reads its members where it starts; assign it before the region\n" },
  { "a[i] = s.n;",
    "t.c:6:40: error: 's' is a pointer to a struct: write 's->n' (line 6)\n" },
  { "a[i] = s->m;",
    "t.c:6:40: error: 's->m': the struct has no member 'm' (line 6)\n" },
  { "a[i] = s->c;",
    "t.c:6:40: error: 's->c': member 'c' has type 'unsigned', which s2s-cuda does not support "
    "inside a stencil region (line 6)\n" },
  { "a[i] = a[i].n;",
    "t.c:6:40: error: 'a[i].n' is not supported inside a stencil region (line 6): only members "
    "of a named struct variable or pointer ('s.n', 's->n') are\n" },
  { "a[i] = n->x;",
    "t.c:6:40: error: 'n' is not a struct or a pointer to one (line 6)\n" },
  { "a[i] = s->f;",
    "t.c:6:40: error: 's->f': member 'f' is a function pointer, which s2s-cuda does not support "
    "inside a stencil region (line 6)\n" },
  { "a[i] = s->t;",
    "t.c:6:40: error: array 's->t' cannot be used without subscripts inside a stencil region "
    "(line 6)\n" },
};

START_TEST(test_struct_member_errors)
{
  char src[1024];
  snprintf(src, sizeof src,
           "struct inner { int n; };\n"
           "struct outer { int n; double *t; unsigned c; struct inner *g; void (*f)(int); };\n"
           "void f(int n, double *a, struct outer *s)\n"
           "{\n"
           "#pragma stencil region\n"
           "  for (int i = 0; i < n; i++) { %s }\n"
           "}\n", member_errors[_i].code);
  ck_assert_ptr_null(parse(src));
  const char *out = output();
  ck_assert_msg(strncmp(out, member_errors[_i].message, strlen(member_errors[_i].message)) == 0,
                "for:\n%s\ngot:\n%s\nexpected:\n%s", src, out, member_errors[_i].message);
  /* one error: the caret excerpt follows, and nothing after it */
  ck_assert_msg(strstr(strstr(out, "error:") + 1, "error:") == NULL, "more than one error:\n%s",
                out);
}
END_TEST

START_TEST(test_regions_in_nested_host_code)
{
  Program *p = parse_ok("void f(int n, double *a)\n"
                        "{\n"
                        "  if (n > 2)\n"
                        "#pragma stencil region\n"
                        "    for (int i = 0; i < n; i++) a[i] = 0;\n"
                        "#ifdef X\n"
                        "#pragma stencil region\n"
                        "  for (int i = 0; i < n; i++) a[i] = 1;\n"
                        "#endif\n"
                        "  switch (n) {\n"
                        "  case 1:\n"
                        "#pragma stencil region\n"
                        "    for (int i = 0; i < n; i++) a[i] = 2;\n"
                        "    break;\n"
                        "  }\n"
                        "  for (;;)\n"
                        "    if (n)\n"
                        "#pragma stencil region\n"
                        "      for (int i = 0; i < n; i++)\n"
                        "#pragma stencil do parallel\n"
                        "        for (int j = 0; j < n; j++)\n"
                        "          a[i*n + j] = 3;\n"
                        "}\n");
  IrRoutine *r = routine(p, "f");
  static const int lines[][2] = { { 4, 5 }, { 7, 8 }, { 12, 13 }, { 18, 22 } };
  ck_assert_int_eq(r->nregions, 4);
  for (int i = 0; i < 4; i++) {
    ck_assert_int_eq(r->regions[i]->index, i + 1);
    ck_assert_int_eq(r->regions[i]->first_line, lines[i][0]);
    ck_assert_int_eq(r->regions[i]->last_line, lines[i][1]);
    ck_assert_int_eq(r->regions[i]->body.n, 1);
  }
  IrStmt *inner = r->regions[3]->body.v[0]->u.loop.body.v[0];
  ck_assert_int_eq(inner->kind, IR_S_DO);
  ck_assert(inner->u.loop.advice && inner->u.loop.advice->parallel);
}
END_TEST

START_TEST(test_else_after_pragma_body)
{
  ck_assert_ptr_null(parse("void f(int n, double *a)\n"
                           "{\n"
                           "  if (n > 2)\n"
                           "#pragma stencil region\n"
                           "    for (int i = 0; i < n; i++) a[i] = 0;\n"
                           "  else\n"
                           "    n = 3;\n"
                           "}\n"));
  ck_assert_str_eq(output(),
                   "t.c:6:3: error: syntax error: 'else' cannot follow here; a body that starts "
                   "with a '#pragma' needs braces\n"
                   "    6 |   else\n"
                   "      |   ^~~~\n");
}
END_TEST

/* ---- errors ----------------------------------------------------------------- */

static const struct { const char *code, *message; } error_cases[] = {
  { "  for (i = 0; i < n; i++) {\n"
    "    while (a[i] > 0) a[i] -= 1;\n"
    "  }\n",
    "t.c:6:5: error: 'while' loops are not supported inside a stencil region (line 6)\n"
    "    6 |     while (a[i] > 0) a[i] -= 1;\n"
    "      |     ^~~~~~~~~~~~~~~~~~~~~~~~~~~\n" },
  { "  for (i = 0; i < n; i++) a[i] = N;\n",
    "t.c:5:34: error: 'N' is not declared; if 'N' is a macro, run without -nocpp\n" },
  { "  for (i = 0; i < n; i += k) a[i] = 0;\n",
    "t.c:5:27: error: the step 'k' of a 'for' loop inside a stencil region must be an "
    "integer constant (line 5)\n" },
  { "  for (i = 0; i < n; i++) {\n"
    "    a[i] = 0;\n"
    "    i = i + 1;\n"
    "  }\n",
    "t.c:7:5: error: the loop variable 'i' of the 'for' loop at line 5 is assigned inside the "
    "loop (line 7)\n" },
  { "  for (i = 0; i < n; i++) { if (a[i] > 0) i++; }\n",
    "t.c:5:43: error: the loop variable 'i' of the 'for' loop at line 5 is assigned inside the "
    "loop (line 5)\n" },
  { "  for (i = 0; i < n; i++) a[i] = 0; a[0] = 1;\n",
    "t.c:5:37: error: the statement after '#pragma stencil region' must end its line: move this "
    "code to the next line (line 5)\n"
    "    5 |   for (i = 0; i < n; i++) a[i] = 0; a[0] = 1;\n"
    "      |                                     ^~~~~~~~~\n" },
  { "  {\n"
    "#pragma stencil do parallel\n"
    "    a[0] = 1;\n"
    "  }\n",
    "t.c:7:5: error: '#pragma stencil do' must be followed by a 'for' loop, not an expression "
    "statement (line 7)\n" },
  { "  {\n"
    "    for (i = 0; i < n; i++) a[i] = 0;\n"
    "#pragma stencil do\n"
    "  }\n",
    "t.c:7:1: error: '#pragma stencil do' must be followed by a 'for' loop\n" },
  { "  for (i = 0; i < n; i++) a[i] = 0;\n"
    "#pragma stencil do\n"
    "  for (i = 0; i < n; i++) a[i] = 0;\n",
    "t.c:6:1: error: '#pragma stencil do' outside a stencil region has no effect; put it inside "
    "a '#pragma stencil region' (line 6)\n" },
  { "  double x = 1;\n",
    "t.c:5:3: error: '#pragma stencil region' must be followed by a 'for' loop or a '{ }' "
    "block, not a declaration (line 5)\n" },
  { "  if (n > 0) a[0] = 1;\n",
    "t.c:5:3: error: '#pragma stencil region' must be followed by a 'for' loop or a '{ }' "
    "block, not an 'if' statement (line 5)\n" },
  { "",
    "t.c:4:1: error: '#pragma stencil region' must be followed by a 'for' loop or a '{ }' "
    "block\n" },
  { "  {\n"
    "#pragma stencil region\n"
    "    for (i = 0; i < n; i++) a[i] = 0;\n"
    "  }\n",
    "t.c:6:1: error: stencil regions cannot be nested: this one is inside the region starting "
    "at line 4\n" },
  { "  for (i = 0; i < n; i--) a[i] = 0;\n",
    "t.c:5:3: error: the 'for' loop at line 5 counts down but its condition 'i < ...' needs it "
    "to count up\n" },
  { "  for (i = 0; i != n; i += 2) a[i] = 0;\n",
    "t.c:5:3: error: the 'for' loop at line 5 tests 'i != ...' but steps by 2: it ends only if "
    "the step lands on the bound; write the condition with < or >\n" },
  { "  for (i = 0; i == n; i++) a[i] = 0;\n",
    "t.c:5:15: error: the condition of a 'for' loop inside a stencil region must compare 'i' "
    "with <, <=, >, >= or != to a bound that does not depend on it (line 5)\n" },
  { "  for (i = 0; i < n; i++) { a[i] = 0; n = n - 1; }\n",
    "t.c:5:3: error: the condition of the 'for' loop at line 5 reads 'n', which the loop "
    "assigns at line 5; s2s-cuda needs loop bounds that do not change inside the loop\n" },
  { "  for (i = 0; i < n; i++) a[i] = ps[i];\n",
    "t.c:5:34: error: 'ps' has type 'struct s', which s2s-cuda does not support inside a "
    "stencil region (declared at line 1)\n" },
  { "  for (i = 0; i < n; i++) a[i] = pp[i][0];\n",
    "t.c:5:34: error: 'pp' is a pointer to pointer, so it cannot be used inside a stencil "
    "region (declared at line 1)\n" },
  { "  for (i = 0; i < n; i++) a[i] = ps->x;\n",
    "t.c:5:34: error: the members of 'ps' cannot be read: its struct type is not defined in this "
    "file (line 5); with -nocpp the headers that declare it are not read\n" },
  { "  for (i = 0; i < n; i++) ps->a[i] = 0;\n",
    "t.c:5:27: error: the members of 'ps' cannot be read: its struct type is not defined in this "
    "file (line 5); with -nocpp the headers that declare it are not read\n" },
  { "  for (i = 0; i < n; i++) a[i] = foo(i);\n",
    "t.c:5:34: error: call to 'foo' is not supported inside a stencil region (line 5): only "
    "math functions such as sqrt, exp, pow and fmax can be called; write what 'foo' computes "
    "into the loop; if 'foo' is a macro, run without -nocpp\n" },
  { "  for (i = 0; i < n; i++) a2[i] = 0;\n",
    "t.c:5:27: error: 'a2' has 2 dimensions but 1 subscript here (line 5)\n" },
  { "  for (i = 0; i < n; i++) a[i][0] = 0;\n",
    "t.c:5:27: error: pointer 'a' must be used with exactly one subscript inside a stencil "
    "region, as in a[i*m + j] (line 5)\n" },
  { "  for (i = 0; i < n; i++) { a[i] = 0; return; }\n",
    "t.c:5:39: error: 'return' statements are not supported inside a stencil region (line 5)\n" },
  { "  for (i = 0; i < n; i++) { do a[i] = 0; while (0); }\n",
    "t.c:5:29: error: 'do'-'while' loops are not supported inside a stencil region (line 5)\n" },
  { "  for (i = 0; i < n; i++) { switch (i) { default: a[i] = 0; } }\n",
    "t.c:5:29: error: 'switch' statements are not supported inside a stencil region (line 5)\n" },
  { "  for (i = 0; i < n; i++) { goto out; }\n",
    "t.c:5:29: error: 'goto' statements are not supported inside a stencil region (line 5)\n" },
  { "  { break; }\n",
    "t.c:5:5: error: 'break' outside a loop of the stencil region (line 5)\n" },
  { "  for (i = 0; i < n; i++) a[i] = a[i] << 1;\n",
    "t.c:5:34: error: bitwise operator '<<' is not supported inside a stencil region (line 5)\n" },
  { "  for (i = 0; i < n; i++) a[i] = *a;\n",
    "t.c:5:34: error: pointer dereferences ('*p') are not supported inside a stencil region "
    "(line 5)\n" },
  { "  for (i = 0; i < n; i++) a[i] = fmod(k, 2) + k % 2.0;\n",
    "t.c:5:47: error: '%' needs integer operands; use fmod() for reals (line 5)\n" },
  { "  for (i = 0; i < n; i++) a[i] = sqrt(a[i], 2);\n",
    "t.c:5:34: error: 'sqrt' takes 1 argument, not 2 (line 5)\n" },
  { "  for (i = 0; i < n; i++) a[i] = a[a[i]];\n",
    "t.c:5:36: error: array subscript is not an integer (line 5)\n" },
  { "  for (i = 0; i < n; i++) a[i] = a;\n",
    "t.c:5:34: error: array 'a' cannot be used without subscripts inside a stencil region "
    "(line 5)\n" },
  { "  for (i = 0; i < n; i++) { k = 1u; }\n",
    "t.c:5:33: error: unsigned literals are not supported inside a stencil region (line 5)\n" },
  { "  for (i = 0; i < n; i++) { int *p; a[i] = 0; }\n",
    "t.c:5:34: error: 'p' is a pointer; declare arrays inside a region with a constant size "
    "(line 5)\n" },
  { "  for (i = 0; i < n; i++) { double w[n]; a[i] = 0; }\n",
    "t.c:5:38: error: arrays declared inside a stencil region need a constant size (line 5)\n" },
  { "  for (i = 0; i < n; i++) { K = 2; }\n",
    "t.c:5:29: error: 'K' is a constant and cannot be assigned (line 5)\n" },
  { "  for (i = 0; i < n; i++) { a[i] = 0; f(n, a, a2, pp, ps); }\n",
    "t.c:5:39: error: call to 'f' is not supported inside a stencil region (line 5): only math "
    "functions such as sqrt, exp, pow and fmax can be called; write what 'f' computes into the "
    "loop; if 'f' is a macro, run without -nocpp\n" },
  { "  for (i = 0; i < n; i++) { a[i] = 0; printf(\"%g\", a[i]); }\n",
    "t.c:5:39: error: call to 'printf' is not supported inside a stencil region (line 5): a "
    "kernel thread cannot do input/output, allocate or stop the program; move it before or "
    "after the region\n" },

  { "  for (i = 0; i < n; i++) for (i = 0; i < 2; i++) a[i] = 0;\n",
    "t.c:5:32: error: 'i' is already the variable of the enclosing loop at line 5 (line 5)\n" },
  { "  for (i = 0; i < n; i++)\n"
    "#pragma stencil update host(a)\n"
    "    a[i] = 0;\n",
    "t.c:6:1: error: '#pragma stencil update' is not allowed inside a stencil region (line 6)\n" },
  { "  for (i = 0; i < n; i++) { a[i] = 0 }\n",
    "t.c:5:29: error: syntax error: the parser cannot read this construct\n" },
  { "  for (i = 0; i < n; i++) a[i] = 0\n",
    "t.c:5:35: error: syntax error: expected ';' here\n" },
};

START_TEST(test_errors)
{
  char src[1024];
  snprintf(src, sizeof src,
           "void f(int n, int k, double *a, double a2[n][n], double **pp, struct s *ps)\n"
           "{\n"
           "  int i; const int K = 1;\n"
           "#pragma stencil region\n"
           "%s}\n", error_cases[_i].code);
  ck_assert_ptr_null(parse(src));
  const char *out = output();
  ck_assert_msg(strncmp(out, error_cases[_i].message, strlen(error_cases[_i].message)) == 0,
                "for:\n%s\ngot:\n%s\nexpected:\n%s", src, out, error_cases[_i].message);
}
END_TEST

START_TEST(test_shadowed_name)
{
  ck_assert_ptr_null(parse("void f(int n, double *a)\n"
                           "{\n"
                           "  double x = 1;\n"
                           "  {\n"
                           "    int x = 2;\n"
                           "#pragma stencil region\n"
                           "    for (int i = 0; i < n; i++) a[i] = x;\n"
                           "  }\n"
                           "}\n"));
  ck_assert_str_eq(output(),
                   "t.c:7:40: error: s2s-cuda does not support shadowed name 'x' around a region "
                   "(declared at line 3, and at line 5 with another type or shape)\n"
                   "    7 |     for (int i = 0; i < n; i++) a[i] = x;\n"
                   "      |                                        ^\n");
}
END_TEST

START_TEST(test_shadowing_same_type_is_fine)
{
  Program *p = parse_ok("double x;\n"
                        "void f(int n, double *a)\n"
                        "{\n"
                        "  { double x = 1; }\n"
                        "  {\n"
                        "    double x = 2;\n"
                        "#pragma stencil region\n"
                        "    for (int i = 0; i < n; i++) a[i] = x;\n"
                        "  }\n"
                        "}\n");
  IrRoutine *r = routine(p, "f");
  IrSym *x = r->regions[0]->body.v[0]->u.loop.body.v[0]->u.assign.rhs->u.var;
  ck_assert_ptr_eq(x, sym(r, "x"));
  ck_assert(!x->is_module);
}
END_TEST

START_TEST(test_errors_keep_going)
{
  /* every refused construct of a region is reported, not just the first */
  ck_assert_ptr_null(parse("void f(int n, double *a)\n"
                           "{\n"
                           "#pragma stencil region\n"
                           "  for (int i = 0; i < n; i++) {\n"
                           "    while (n) n--;\n"
                           "    a[i] = M;\n"
                           "  }\n"
                           "#pragma stencil region\n"
                           "  for (double x = 0; x < n; x++) a[0] = x + Q;\n"
                           "}\n"));
  ck_assert_int_eq(diag_error_count(), 4);
  ck_assert_ptr_nonnull(strstr(output(), "t.c:5:5: error: 'while' loops"));
  ck_assert_ptr_nonnull(strstr(output(), "t.c:6:12: error: 'M' is not declared"));
  ck_assert_ptr_nonnull(strstr(output(), "t.c:9:8: error: the variable of a 'for' loop must be "
                                         "an int or long (line 9)"));
  ck_assert_ptr_nonnull(strstr(output(), "t.c:9:45: error: 'Q' is not declared"));
  ck_assert_ptr_null(strstr(output(), "'x' is not declared"));
}
END_TEST

START_TEST(test_end_region_refused)
{
  ck_assert_ptr_null(parse("void f(int n, double *a)\n"
                           "{\n"
                           "#pragma stencil region\n"
                           "  for (int i = 0; i < n; i++) a[i] = 0;\n"
                           "#pragma stencil end region\n"
                           "}\n"));
  ck_assert_ptr_nonnull(strstr(output(), "t.c:5:"));
  ck_assert_ptr_nonnull(strstr(output(), "end region"));
}
END_TEST

START_TEST(test_pragma_outside_function)
{
  ck_assert_ptr_null(parse("#pragma stencil region\n"
                           "int x;\n"));
  ck_assert_ptr_nonnull(strstr(output(), "t.c:1:1: error: '#pragma stencil' belongs inside a "
                                         "function"));
}
END_TEST

START_TEST(test_data_needs_braces)
{
  ck_assert_ptr_null(parse("void f(int n, double *a)\n"
                           "{\n"
                           "  for (int t = 0; t < 9; t++)\n"
                           "#pragma stencil data copy(a[0:n])\n"
                           "    n++;\n"
                           "}\n"));
  ck_assert_str_eq(output(),
                   "t.c:4:1: error: '#pragma stencil data' cannot be the body of the statement "
                   "at line 3: put the body in braces\n"
                   "    4 | #pragma stencil data copy(a[0:n])\n"
                   "      | ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n");
}
END_TEST

START_TEST(test_foreign_pragma_in_region_warns)
{
  Program *p = parse("void f(int n, double *a)\n"
                     "{\n"
                     "#pragma stencil region\n"
                     "  for (int i = 0; i < n; i++) {\n"
                     "#pragma unroll\n"
                     "    for (int j = 0; j < 4; j++) a[i] = j;\n"
                     "  }\n"
                     "}\n");
  ck_assert_ptr_nonnull(p);
  ck_assert_ptr_nonnull(strstr(output(), "t.c:5:1: warning: ignoring this pragma inside a "
                                         "stencil region"));
}
END_TEST

/* ---- suite --------------------------------------------------------------------- */

static Suite *frontend_c_suite(void)
{
  Suite *s = suite_create("frontend_c");
  TCase *tc = tcase_create("core");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_program_and_routine);
  tcase_add_test(tc, test_parameters);
  tcase_add_test(tc, test_declarations);
  tcase_add_loop_test(tc, test_loop_forms, 0, (int)(sizeof loop_cases / sizeof *loop_cases));
  tcase_add_test(tc, test_loop_bounds_evaluate);
  tcase_add_test(tc, test_syntax_error_in_host_code);
  tcase_add_loop_test(tc, test_struct_members, 0,
                      (int)(sizeof member_cases / sizeof *member_cases));
  tcase_add_loop_test(tc, test_struct_member_errors, 0,
                      (int)(sizeof member_errors / sizeof *member_errors));
  tcase_add_test(tc, test_do_advice);
  tcase_add_loop_test(tc, test_expressions, 0, (int)(sizeof expr_cases / sizeof *expr_cases));
  tcase_add_test(tc, test_expression_types);
  tcase_add_test(tc, test_subscripts);
  tcase_add_test(tc, test_statements);
  tcase_add_test(tc, test_region_locals_reused);
  tcase_add_test(tc, test_host_directives);
  tcase_add_test(tc, test_host_code_is_free);
  tcase_add_test(tc, test_regions_in_nested_host_code);
  tcase_add_test(tc, test_else_after_pragma_body);
  tcase_add_loop_test(tc, test_errors, 0, (int)(sizeof error_cases / sizeof *error_cases));
  tcase_add_test(tc, test_shadowed_name);
  tcase_add_test(tc, test_shadowing_same_type_is_fine);
  tcase_add_test(tc, test_errors_keep_going);
  tcase_add_test(tc, test_end_region_refused);
  tcase_add_test(tc, test_pragma_outside_function);
  tcase_add_test(tc, test_data_needs_braces);
  tcase_add_test(tc, test_foreign_pragma_in_region_warns);
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(frontend_c_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
