/* check_directive.c — unit tests of the directive reader and parser.
 *
 * Table-driven: each good case is a source text and the parsed directive
 * written back in a canonical form (dump() below), so a table row shows at
 * a glance what the parser made of it; each bad case is a source text and
 * the exact `line:col`, caret width and message the user must see.  A few
 * tests look at the Directive fields directly (locations, the shared lo/hi of
 * an index, dir_parse called without maps).
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "directive.h"

/* ---- helpers ------------------------------------------------------------- */

static char *captured;
static size_t captured_len;
static FILE *capture;

static void setup(void) {
  diag_reset();
  captured = NULL;
  capture = open_memstream(&captured, &captured_len);
  diag_set_stream(capture);
}

static void teardown(void) {
  diag_set_stream(NULL);
  fclose(capture);
  free(captured);
  diag_reset();
}

/* Everything printed so far (owned by the capture; valid until teardown). */
static const char *output(void) {
  fflush(capture);
  return captured ? captured : "";
}

static int add_source(const char *name, const char *text) {
  return diag_add_source(xstrdup(name), xstrdup(text), strlen(text));
}

static const char *file_name(DirLang lang) { return lang == DIR_FORTRAN ? "t.f90" : "t.c"; }

/* Register `src` and read the directive on its first line. */
static Directive *read_first(DirLang lang, const char *src, int *last_line) {
  int file = add_source(file_name(lang), src);
  ck_assert_msg(dir_is_directive_line(file, 1, lang), "not a directive line: %s", src);
  return dir_read(file, 1, lang, last_line);
}

typedef struct Str {
  char buf[1024];
  size_t n;
} Str;

static void put(Str *s, const char *text) {
  size_t k = strlen(text);
  ck_assert_uint_lt(s->n + k, sizeof s->buf);
  memcpy(s->buf + s->n, text, k + 1);
  s->n += k;
}

static void put_expr(Str *s, const DirExpr *e) {
  char b[128];
  dir_expr_print(e, b, sizeof b);
  put(s, b);
}

/* Fortran a(lo:hi, k) with omitted bounds left empty; C a[start:len]. */
static void dump_item(Str *s, const DirItem *it) {
  put(s, it->name);
  for (int i = 0; i < it->nsections; i++) {
    const DirSection *sec = &it->sections[i];
    if (sec->len) {
      put(s, "[");
      put_expr(s, sec->lo);
      put(s, ":");
      put_expr(s, sec->len);
      put(s, "]");
      continue;
    }
    put(s, i ? "," : "(");
    if (sec->is_index) {
      ck_assert_ptr_eq(sec->lo, sec->hi);
      put_expr(s, sec->lo);
    } else {
      put_expr(s, sec->lo);
      put(s, ":");
      put_expr(s, sec->hi);
    }
    if (i == it->nsections - 1) put(s, ")");
  }
}

/* "kind flags vector(N) clause(item,item) ..." */
static const char *dump(const Directive *d) {
  static Str s;
  s.n = 0;
  s.buf[0] = '\0';
  put(&s, dir_kind_name(d->kind));
  if (d->parallel) put(&s, " parallel");
  if (d->seq) put(&s, " seq");
  if (d->kernel) put(&s, " kernel");
  if (d->independent) put(&s, " independent");
  if (d->finalize) put(&s, " finalize");
  if (d->if_present) put(&s, " if_present");
  if (d->async) put(&s, " async");
  if (d->vector) {
    char b[32];
    snprintf(b, sizeof b, " vector(%d)", d->vector);
    put(&s, b);
  }
  for (int c = 0; c < d->nclauses; c++) {
    put(&s, " ");
    put(&s, dir_clause_name(d->clauses[c].kind));
    put(&s, "(");
    for (int i = 0; i < d->clauses[c].nitems; i++) {
      if (i) put(&s, ",");
      dump_item(&s, &d->clauses[c].items[i]);
    }
    put(&s, ")");
  }
  return s.buf;
}

/* ---- good directives ------------------------------------------------------- */

typedef struct Good {
  DirLang lang;
  const char *src;
  int last_line;
  const char *expect;
} Good;

#define F DIR_FORTRAN
#define C DIR_C

static const Good good[] = {
    /* constructs */
    {F, "!$stencil region", 1, "region"},
    {F, "!$stencil end region", 1, "end region"},
    {F, "!$stencil endregion", 1, "end region"},
    {F, "!$stencil data", 1, "data"},
    {F, "!$stencil end data", 1, "end data"},
    {F, "!$stencil ENDDATA", 1, "end data"},
    {F, "!$stencil do", 1, "do"},
    {F, "!$stencil update host(a)", 1, "update host(a)"},
    {F, "!$stencil update device(b)", 1, "update device(b)"},
    {F, "!$stencil update host(a) device(b(1:n), c)", 1, "update host(a) device(b(1:n),c)"},
    {F, "!$stencil update host(a), host(b)", 1, "update host(a) host(b)"},
    {F, "!$stencil update host(t(:,:,1:3)) async", 1, "update async host(t(:,:,1:3))"},
    {F, "!$stencil update async device(b)", 1, "update async device(b)"},
    {F, "!$stencil wait", 1, "wait"},
    {F, "!$STENCIL WAIT", 1, "wait"},
    {F, "!$stencil enter data copyin(t, q) create(w(1:n))", 1, "enter data copyin(t,q) create(w(1:n))"},
    {F, "!$stencil exit data copyout(t) delete(q, w) finalize", 1,
     "exit data finalize copyout(t) delete(q,w)"},
    {C, "#pragma stencil exit data delete(a[0:n])", 1, "exit data delete(a[0:n])"},
    {F, "!$stencil host_data use_device(t, q)", 1, "host_data use_device(t,q)"},
    {F, "!$STENCIL HOST_DATA USE_DEVICE(T) IF_PRESENT", 1, "host_data if_present use_device(t)"},
    {F, "!$stencil end host_data", 1, "end host_data"},
    {C, "#pragma stencil host_data use_device(a, b)", 1, "host_data use_device(a,b)"},
    /* do clauses */
    {F, "!$stencil do parallel", 1, "do parallel"},
    {F, "!$stencil do seq", 1, "do seq"},
    {F, "!$stencil do kernel", 1, "do kernel"},
    {F, "!$stencil do independent", 1, "do independent"},
    {F, "!$stencil do vector(128)", 1, "do vector(128)"},
    {F, "!$stencil do vector(1)", 1, "do vector(1)"},
    {F, "!$stencil do vector(1024)", 1, "do vector(1024)"},
    {F, "!$stencil do parallel, vector(128)", 1, "do parallel vector(128)"},
    {F, "!$stencil do private(t1, T2)", 1, "do private(t1,t2)"},
    {F, "!$stencil do private(a) private(b)", 1, "do private(a) private(b)"},
    {F, "!$stencil do parallel vector(256) independent kernel private(x)", 1,
     "do parallel kernel independent vector(256) private(x)"},
    {F, "!$stencil do seq kernel private(x)", 1, "do seq kernel private(x)"},
    /* data clauses */
    {F, "!$stencil region copyin(a)", 1, "region copyin(a)"},
    {F, "!$stencil region copyout(a)", 1, "region copyout(a)"},
    {F, "!$stencil region copy(a)", 1, "region copy(a)"},
    {F, "!$stencil region create(a)", 1, "region create(a)"},
    {F, "!$stencil region local(a)", 1, "region create(a)"},
    {F, "!$stencil region present(a)", 1, "region present(a)"},
    {F, "!$stencil data copyin(a) copyout(b) copy(c) create(d) local(e) present(f)", 1,
     "data copyin(a) copyout(b) copy(c) create(d) create(e) present(f)"},
    {F, "!$stencil region copyin(a, b, c) copyout(d)", 1, "region copyin(a,b,c) copyout(d)"},
    {F, "!$stencil region copyin(a),copyout(b) , create(c)", 1,
     "region copyin(a) copyout(b) create(c)"},
    /* Fortran sub-arrays of each form */
    {F, "!$stencil region copyin(a(:))", 1, "region copyin(a(:))"},
    {F, "!$stencil region copyin(a(:,:,:))", 1, "region copyin(a(:,:,:))"},
    {F, "!$stencil region copyin(a(its:ite,kts:kte,jts:jte))", 1,
     "region copyin(a(its:ite,kts:kte,jts:jte))"},
    {F, "!$stencil region copyin(a(lo:))", 1, "region copyin(a(lo:))"},
    {F, "!$stencil region copyin(a(:hi))", 1, "region copyin(a(:hi))"},
    {F, "!$stencil region copyin(a(k))", 1, "region copyin(a(k))"},
    {F, "!$stencil region copyin(a(its:ite, k, :))", 1, "region copyin(a(its:ite,k,:))"},
    {F, "!$stencil region copyin(a(1:2,1:2,1:2,1:2,1:2,1:2,1:2))", 1,
     "region copyin(a(1:2,1:2,1:2,1:2,1:2,1:2,1:2))"},
    {F, "!$stencil region copyin(delz(its-1:ite+1, kts:kte))", 1,
     "region copyin(delz(its-1:ite+1,kts:kte))"},
    /* bound expressions: precedence, unary minus, parentheses kept where needed */
    {F, "!$stencil region copy(a(2*n+1:n*(m-1)))", 1, "region copy(a(2*n+1:n*(m-1)))"},
    {F, "!$stencil region copy(a(-1:n/2))", 1, "region copy(a(-1:n/2))"},
    {F, "!$stencil region copy(a((n+1)/2:n))", 1, "region copy(a((n+1)/2:n))"},
    {F, "!$stencil region copy(a(((n)):(((1)))))", 1, "region copy(a(n:1))"},
    {F, "!$stencil region copy(a(-(a+b):-n*2))", 1, "region copy(a(-(a+b):-n*2))"},
    {F, "!$stencil region copy(a(n-(m-1):a*(b/c)))", 1, "region copy(a(n-(m-1):a*(b/c)))"},
    {F, "!$stencil region copy(a(a*b/c:a+b-c))", 1, "region copy(a(a*b/c:a+b-c))"},
    {F, "!$stencil region copy(a((a*b)/c:(a+b)-c))", 1, "region copy(a(a*b/c:a+b-c))"},
    {F, "!$stencil region copy(a(-(-x):n-(-1)))", 1, "region copy(a(-(-x):n-(-1)))"},
    {F, "!$stencil region copy(a(+1:n*(-2)))", 1, "region copy(a(1:n*(-2)))"},
    {F, "!$stencil region copy(a(a+(b+c):a*(b*c)))", 1, "region copy(a(a+(b+c):a*(b*c)))"},
    /* case, blanks, comments */
    {F, "!$STENCIL Region CopyIn(QV(ITS:ITE))", 1, "region copyin(qv(its:ite))"},
    {F, "!$Stencil DO Parallel Vector(64) PRIVATE(Tmp)", 1, "do parallel vector(64) private(tmp)"},
    {F, "   \t!$stencil\tregion\tcopyin( a ( 1 : n ) )", 1, "region copyin(a(1:n))"},
    {F, "!$stencil region copyin(a) ! a comment (with parens", 1, "region copyin(a)"},
    {F, "!$stencil end region ! of the physics", 1, "end region"},
    {F, "!$stencil region copyin(a)\r\n", 1, "region copyin(a)"},
    /* continuations */
    {F, "!$stencil region copyin(a) &\n!$stencil copyout(b)", 2, "region copyin(a) copyout(b)"},
    {F, "!$stencil region copyin(a) &\n   !$stencil& copyout(b)\nx = 1", 2,
     "region copyin(a) copyout(b)"},
    {F, "!$stencil region copyin(a, &\n!$stencil   b) &  ! more\n!$stencil copyout(c(1:n))", 3,
     "region copyin(a,b) copyout(c(1:n))"},
    {F, "!$stencil region copyin(a) &\r\n!$stencil copyout(b)\r\n", 2, "region copyin(a) copyout(b)"},
    {F, "!$stencil region cop&\n!$stencil&yin(a)", 2, "region copyin(a)"},
    {F, "!$stencil region &\n!$stencil &\n!$stencil copyin(a)", 3, "region copyin(a)"},
    {F, "!$stencil do parallel, &\n  !$STENCIL   &  vector(32)", 2, "do parallel vector(32)"},
    /* C */
    {C, "#pragma stencil region", 1, "region"},
    {C, "#pragma stencil region copyin(a[0:n])", 1, "region copyin(a[0:n])"},
    {C, "#pragma stencil region copyin(a[0:n]) copyout(b[0:n][0:m])", 1,
     "region copyin(a[0:n]) copyout(b[0:n][0:m])"},
    {C, "#pragma stencil region copyin(Alpha[0:N], b)", 1, "region copyin(Alpha[0:N],b)"},
    {C, "#pragma stencil region copyin(a[:n])", 1, "region copyin(a[0:n])"},
    {C, "#pragma stencil region copy(a[i-1:n+2][(k)*2:m*n+1])", 1,
     "region copy(a[i-1:n+2][k*2:m*n+1])"},
    {C, "  #  pragma  stencil DO Parallel VECTOR(128)", 1, "do parallel vector(128)"},
    {C, "#pragma stencil\tdo seq", 1, "do seq"},
    {C, "#pragma stencil data copy(a[0:n]) create(t) present(p[0:1])", 1,
     "data copy(a[0:n]) create(t) present(p[0:1])"},
    {C, "#pragma stencil update host(a[0:n]) device(b)", 1, "update host(a[0:n]) device(b)"},
    {C, "#pragma stencil update host(a[0:1]) async", 1, "update async host(a[0:1])"},
    {C, "#pragma stencil wait", 1, "wait"},
    {C, "#pragma stencil region /* c */ copyin(a[0:n]) // trailing", 1, "region copyin(a[0:n])"},
    {C, "#pragma stencil region copyin(a[0:n]) \\\n    copyout(b[0:n])", 2,
     "region copyin(a[0:n]) copyout(b[0:n])"},
    {C, "#pragma stencil region copyin(a[0:n]) \\  \r\n  create(t) \\\n  copyout(b[0:n])\nx();", 3,
     "region copyin(a[0:n]) create(t) copyout(b[0:n])"},
    {C, "#pragma stencil do private(i_x, j_y) kernel", 1, "do kernel private(i_x,j_y)"},
};

START_TEST(test_good) {
  const Good *g = &good[_i];
  int last = -1;
  Directive *d = read_first(g->lang, g->src, &last);
  ck_assert_msg(d != NULL, "%s\nfailed with:\n%s", g->src, output());
  ck_assert_str_eq(dump(d), g->expect);
  ck_assert_int_eq(last, g->last_line);
  ck_assert_str_eq(output(), "");
  ck_assert_int_eq(diag_error_count(), 0);
  dir_free(d);
}
END_TEST

/* ---- bad directives --------------------------------------------------------- */

typedef struct Bad {
  DirLang lang;
  const char *src;
  const char *where; /* "line:col" */
  int width;         /* of the caret and tildes */
  const char *msg;
} Bad;

#define REGION_CLAUSES "copyin, copyout, copy, create, local, present"
#define DO_CLAUSES "parallel, seq, kernel, independent, vector, private"
#define DIRS "region, end region, data, end data, do, update, enter data, exit data, wait, " \
             "host_data, end host_data"
#define VEC "'vector' needs a positive integer length, as in vector(128)"

static const Bad bad[] = {
    /* directive names */
    {F, "!$stencil regoin", "1:11", 6, "unknown directive 'regoin'; expected " DIRS},
    {F, "!$stencil copyin(a)", "1:11", 6, "unknown directive 'copyin'; expected " DIRS},
    {F, "!$stencil", "1:1", 9, "empty directive; expected " DIRS},
    {F, "  !$STENCIL   ! just a comment", "1:3", 9, "empty directive; expected " DIRS},
    {F, "!$stencil (a)", "1:11", 1, "expected a directive name (" DIRS "), found '('"},
    {F, "!$stencil end", "1:14", 1, "'end' needs 'region', 'data' or 'host_data', as in 'end region'"},
    {F, "!$stencil end regoin", "1:15", 6,
     "expected 'region', 'data' or 'host_data' after 'end', found 'regoin'"},
    {F, "!$stencil end do", "1:15", 2,
     "'end do' is not needed: '!$stencil do' applies only to the loop that follows it"},
    {F, "!$stencil end region copyout(t)", "1:22", 10, "garbage after 'end region'"},
    {F, "!$stencil enddata x", "1:19", 1, "garbage after 'end data'"},
    {F, "!$stencil update", "1:11", 6, "'update' needs host(list) or device(list)"},
    {F, "!$stencil update async", "1:11", 6, "'update' needs host(list) or device(list)"},
    {F, "!$stencil wait(1)", "1:15", 3, "garbage after 'wait'"},
    {F, "!$stencil host_data", "1:11", 9, "'host_data' needs use_device(list)"},
    {F, "!$stencil host_data if_present", "1:11", 9, "'host_data' needs use_device(list)"},
    {F, "!$stencil host_data use_device(t(1:n))", "1:33", 1,
     "'use_device' takes whole-array names, not sub-arrays"},
    {F, "!$stencil host_data copyin(t)", "1:21", 6, "clause 'copyin' is not allowed on 'host_data'"},
    {F, "!$stencil update host(t) if_present", "1:26", 10,
     "clause 'if_present' is not allowed on 'update'"},
    {F, "!$stencil end host_data x", "1:25", 1, "garbage after 'end host_data'"},
    {C, "#pragma stencil end host_data", "1:17", 13,
     "'end host_data' is not used in C: '#pragma stencil host_data' applies to the statement or "
     "{ } block that follows it"},
    {F, "!$stencil data copy(a) async", "1:24", 5, "clause 'async' is not allowed on 'data'"},
    {F, "!$stencil enter data", "1:11", 10, "'enter data' needs copyin(list) or create(list)"},
    {F, "!$stencil exit data finalize", "1:11", 18, "'exit data' needs copyout(list) or delete(list)"},
    {F, "!$stencil enter copyin(a)", "1:17", 6, "expected 'data' after 'enter', found 'copyin'"},
    {F, "!$stencil exit data copyin(a)", "1:21", 6, "clause 'copyin' is not allowed on 'exit data'"},
    {F, "!$stencil enter data delete(a)", "1:22", 6, "clause 'delete' is not allowed on 'enter data'"},
    {F, "!$stencil enter data copy(a)", "1:22", 4, "clause 'copy' is not allowed on 'enter data'"},
    {F, "!$stencil exit data delete(a) finalize finalize", "1:40", 8, "duplicate clause 'finalize'"},
    /* clause names */
    {F, "!$stencil region copyinn(a)", "1:18", 7,
     "unknown clause 'copyinn' in !$stencil region; expected one of " REGION_CLAUSES},
    {F, "!$stencil data copyinn(a)", "1:16", 7,
     "unknown clause 'copyinn' in !$stencil data; expected one of " REGION_CLAUSES},
    {F, "!$stencil do paralel", "1:14", 7,
     "unknown clause 'paralel' in !$stencil do; expected one of " DO_CLAUSES},
    {F, "!$stencil update hots(a)", "1:18", 4,
     "unknown clause 'hots' in !$stencil update; expected one of host, device, async"},
    {F, "!$stencil region private(x)", "1:18", 7, "clause 'private' is not allowed on 'region'"},
    {F, "!$stencil data parallel", "1:16", 8, "clause 'parallel' is not allowed on 'data'"},
    {F, "!$stencil do copyin(a)", "1:14", 6, "clause 'copyin' is not allowed on 'do'"},
    {F, "!$stencil update copyin(a)", "1:18", 6, "clause 'copyin' is not allowed on 'update'"},
    {F, "!$stencil region host(a)", "1:18", 4, "clause 'host' is not allowed on 'region'"},
    {F, "!$stencil region copyin(a) 7", "1:28", 1,
     "expected a clause of 'region' (" REGION_CLAUSES "), found '7'"},
    {F, "!$stencil region , copyin(a)", "1:18", 1,
     "expected a clause of 'region' (" REGION_CLAUSES "), found ','"},
    {F, "!$stencil region copyin(a),", "1:28", 1, "expected a clause after ','"},
    {F, "!$stencil region copyin(a))", "1:27", 1, "unmatched ')'"},
    /* lists */
    {F, "!$stencil region copyin a", "1:25", 1, "expected '(' after 'copyin', found 'a'"},
    {F, "!$stencil region copyin", "1:24", 1, "expected '(' after 'copyin', found end of directive"},
    {F, "!$stencil update host", "1:22", 1, "expected '(' after 'host', found end of directive"},
    {F, "!$stencil region copyin()", "1:25", 1, "empty list in 'copyin'; name at least one array"},
    {F, "!$stencil update device()", "1:25", 1, "empty list in 'device'; name at least one array"},
    {F, "!$stencil do private()", "1:22", 1, "empty list in 'private'; name at least one variable"},
    {F, "!$stencil region copyin(a", "1:26", 1, "expected ')' to close the list of 'copyin'"},
    {F, "!$stencil region copyin(a ! forgot", "1:26", 1, "expected ')' to close the list of 'copyin'"},
    {F, "!$stencil region copyin(a b)", "1:27", 1,
     "expected ',' or ')' in the list of 'copyin', found 'b'"},
    {F, "!$stencil region copyin(a,)", "1:27", 1,
     "expected an array name in the list of 'copyin', found ')'"},
    {F, "!$stencil region copyin(3)", "1:25", 1,
     "expected an array name in the list of 'copyin', found '3'"},
    {F, "!$stencil do private(1)", "1:22", 1, "expected a variable name in 'private', found '1'"},
    {F, "!$stencil do private(a(1))", "1:23", 1, "'private' takes variable names, not sub-arrays"},
    {F, "!$stencil region copyin(a) copy(a)", "1:33", 1, "duplicate array 'a' in data clauses"},
    {F, "!$stencil region copyin(qv, QV)", "1:29", 2, "duplicate array 'qv' in data clauses"},
    {F, "!$stencil region create(w) local(w(1:n))", "1:34", 1, "duplicate array 'w' in data clauses"},
    {F, "!$stencil update host(a) device(a)", "1:33", 1, "duplicate array 'a' in 'update'"},
    {F, "!$stencil do private(x, x)", "1:25", 1, "duplicate name 'x' in 'private'"},
    {F, "!$stencil do private(x) private(x)", "1:33", 1, "duplicate name 'x' in 'private'"},
    /* do clauses */
    {F, "!$stencil do vector", "1:20", 1, VEC},
    {F, "!$stencil do vector 128", "1:21", 3, VEC},
    {F, "!$stencil do vector(n)", "1:21", 1, VEC},
    {F, "!$stencil do vector()", "1:21", 1, VEC},
    {F, "!$stencil do vector(-1)", "1:21", 1, VEC},
    {F, "!$stencil do vector(1.5)", "1:22", 1, VEC},
    {F, "!$stencil do vector(", "1:21", 1, VEC},
    {F, "!$stencil do vector(0)", "1:21", 1,
     "'vector' length must be positive, not 0; use a multiple of 32 such as 128"},
    {F, "!$stencil do vector(2048)", "1:21", 4,
     "'vector' length 2048 exceeds 1024, the most threads a CUDA block can have"},
    {F, "!$stencil do vector(99999999999999999999999)", "1:21", 23,
     "'vector' length 99999999999999999999999 exceeds 1024, the most threads a CUDA block can have"},
    {F, "!$stencil do vector(128", "1:24", 1,
     "expected ')' after the length of 'vector', found end of directive"},
    {F, "!$stencil do vector(128 64)", "1:25", 2, "expected ')' after the length of 'vector', found '64'"},
    {F, "!$stencil do vector(128) vector(64)", "1:26", 6, "duplicate clause 'vector'"},
    {F, "!$stencil do parallel parallel", "1:23", 8, "duplicate clause 'parallel'"},
    {F, "!$stencil do seq parallel", "1:18", 8, "'seq' and 'parallel' contradict each other"},
    {F, "!$stencil do parallel seq", "1:23", 3, "'parallel' and 'seq' contradict each other"},
    {F, "!$stencil do vector(128) seq", "1:26", 3, "'vector' and 'seq' contradict each other"},
    {F, "!$stencil do seq vector(32)", "1:18", 6, "'seq' and 'vector' contradict each other"},
    {F, "!$stencil do seq independent", "1:18", 11, "'seq' and 'independent' contradict each other"},
    {F, "!$stencil do parallel(4)", "1:22", 1, "'parallel' takes no argument"},
    /* Fortran sub-arrays and bounds */
    {F, "!$stencil region copyin(a(1::))", "1:29", 1,
     "unexpected ':' in dimension 1 of 'a'; a section is lo:hi, lo:, :hi or :, without a stride"},
    {F, "!$stencil region copyin(a(:, 1:n:2))", "1:33", 1,
     "unexpected ':' in dimension 2 of 'a'; a section is lo:hi, lo:, :hi or :, without a stride"},
    {F, "!$stencil region copyin(a())", "1:27", 1,
     "empty subscript list in 'a()'; write 'a' for the whole array"},
    {F, "!$stencil region copyin(a(1:n,,k))", "1:31", 1,
     "expected a section (lo:hi, lo:, :hi, : or an index) in dimension 2 of 'a', found ','"},
    {F, "!$stencil region copyin(a(1:n,", "1:31", 1,
     "expected a section (lo:hi, lo:, :hi, : or an index) in dimension 2 of 'a', found end of directive"},
    {F, "!$stencil region copyin(a(1:n", "1:30", 1, "expected ')' to close the subscripts of 'a'"},
    {F, "!$stencil region copyin(a(1:n k))", "1:31", 1,
     "expected ',' or ')' in the subscripts of 'a', found 'k'"},
    {F, "!$stencil region copyin(a(its:(ite+1))", "1:39", 1,
     "expected ')' to close the list of 'copyin'"},
    {F, "!$stencil region copyin(a((n+1:m))", "1:31", 1, "expected ')' in a bound of 'a', found ':'"},
    {F, "!$stencil region copyin(t(its:(ite+1, kts:kte))", "1:37", 1,
     "expected ')' in a bound of 't', found ','"},
    {F, "!$stencil region copyin(a(n+:m))", "1:29", 1, "expected an operand after '+', found ':'"},
    {F, "!$stencil region copyin(a(1:n*))", "1:31", 1, "expected an operand after '*', found ')'"},
    {F, "!$stencil region copyin(a(*:m))", "1:27", 1, "expected a bound expression in 'a', found '*'"},
    {F, "!$stencil region copyin(a(f(1):m))", "1:28", 1,
     "bounds cannot call functions or index arrays ('f' is followed by '(')"},
    {F, "!$stencil region copyin(a(1:n%2))", "1:30", 1,
     "stray '%' in a bound of 'a'; bounds use names, integers, + - * / and parentheses"},
    {F, "!$stencil region copyin(a(1:2**n))", "1:31", 1, "expected an operand after '*', found '*'"},
    {F, "!$stencil region copyin(grid%t)", "1:29", 1,
     "derived-type components such as 'grid%...' cannot be named in a directive; name a plain array"},
    {F, "!$stencil region copyin(a[0:n])", "1:26", 1,
     "Fortran sub-arrays are written a(lo:hi), not with '['"},
    {F, "!$stencil region copyin(a(1:2,1:2,1:2,1:2,1:2,1:2,1:2,1:2))", "1:55", 1,
     "sub-array 'a' has more than 7 dimensions"},
    {F, "!$stencil region copyin(a(1:99999999999999999999))", "1:29", 20,
     "integer '99999999999999999999' is too large"},
    {F, "!$stencil&region", "1:10", 1,
     "'&' after '!$stencil' starts a continuation line, but no directive is being continued"},
    {F, "!$stencil region & copyin(a)", "1:18", 1, "'&' continues a directive only at the end of a line"},
    {F, "!$stencil region copyin(a) @", "1:28", 1, "stray '@' in directive"},
    {F, "!$stencil region copyin(\xc3\xa9)", "1:25", 1, "stray '\xc3\xa9' in directive"},
    /* continuations */
    {F, "!$stencil region copyin(a) &\n  x = 1", "1:28", 1,
     "continued directive must continue on a '!$stencil' line"},
    {F, "!$stencil region copyin(a) & ! see below\n! plain comment", "1:28", 1,
     "continued directive must continue on a '!$stencil' line"},
    {F, "!$stencil region copyin(a) &\n!$stencilx copyout(b)", "1:28", 1,
     "continued directive must continue on a '!$stencil' line"},
    {F, "!$stencil region copyin(a) &", "1:28", 1, "directive continued with '&' but the file ends"},
    {F, "!$stencil region copyin(a) &\n!$stencil copyotu(b)", "2:11", 7,
     "unknown clause 'copyotu' in !$stencil region; expected one of " REGION_CLAUSES},
    {F, "!$stencil region copyin(a, &\n!$stencil )", "2:11", 1,
     "expected an array name in the list of 'copyin', found ')'"},
    {F, "!$stencil region &\n  !$stencil& copyin(a) &\n  !$stencil&   copyout(b c)", "3:26", 1,
     "expected ',' or ')' in the list of 'copyout', found 'c'"},
    {F, "!$stencil region copyin(a, &\n!$stencil b &\n!$stencil ", "2:12", 1,
     "expected ')' to close the list of 'copyin'"},
    {F, "!$stencil region cop&\n!$stencil&yinn(a)", "1:18", 3,
     "unknown clause 'copyinn' in !$stencil region; expected one of " REGION_CLAUSES},
    {F, "!$stencil &\n!$stencil", "1:1", 9, "empty directive; expected " DIRS},
    /* C */
    {C, "#pragma stencil region copyin(a[i])", "1:33", 1,
     "bare index in 'a[i]'; a C sub-array needs the start:length form, as in a[i:1]"},
    {C, "#pragma stencil region copyin(a[ i + 1 ])", "1:34", 5,
     "bare index in 'a[i+1]'; a C sub-array needs the start:length form, as in a[i+1:1]"},
    {C, "#pragma stencil region copyin(a[0:n][j])", "1:38", 1,
     "bare index in 'a[j]'; a C sub-array needs the start:length form, as in a[j:1]"},
    {C, "#pragma stencil region copyin(a[0:])", "1:35", 1,
     "missing length in 'a[0:]'; a C sub-array is [start:length]"},
    {C, "#pragma stencil region copyin(a[:])", "1:34", 1,
     "missing length in 'a[:]'; a C sub-array is [start:length]"},
    {C, "#pragma stencil region copyin(a[])", "1:33", 1, "empty brackets after 'a'; write a[start:length]"},
    {C, "#pragma stencil region copyin(a(0:n))", "1:32", 1,
     "C sub-arrays are written a[start:length], not with '('"},
    {C, "#pragma stencil region copyin(a[0:n)", "1:36", 1,
     "expected ']' to close dimension 1 of 'a', found ')'"},
    {C, "#pragma stencil region copyin(a[0:n", "1:36", 1, "expected ']' to close dimension 1 of 'a'"},
    {C, "#pragma stencil region copyin(a[0:n:2])", "1:36", 1,
     "unexpected ':' after the length in 'a[...]'; a C sub-array is [start:length], without a stride"},
    {C, "#pragma stencil region copyin(a[0 n])", "1:35", 1,
     "expected ':' after the start in 'a[...]', found 'n'"},
    {C, "#pragma stencil region copyin(a[0:1][0:1][0:1][0:1][0:1][0:1][0:1][0:1])", "1:67", 1,
     "sub-array 'a' has more than 7 dimensions"},
    {C, "#pragma stencil region copyin(a[0:n], A[0:n], a[1:2])", "1:47", 1,
     "duplicate array 'a' in data clauses"},
    {C, "#pragma stencil end region", "1:17", 10,
     "'end region' is not used in C: '#pragma stencil region' applies to the statement or { } block "
     "that follows it"},
    {C, "#pragma stencil enddata", "1:17", 7,
     "'end data' is not used in C: '#pragma stencil data' applies to the statement or { } block "
     "that follows it"},
    {C, "#pragma stencil", "1:1", 15, "empty directive; expected " DIRS},
    {C, "  # pragma stencil // nothing", "1:3", 16, "empty directive; expected " DIRS},
    {C, "#pragma stencil region copyinn(a[0:n])", "1:24", 7,
     "unknown clause 'copyinn' in #pragma stencil region; expected one of " REGION_CLAUSES},
    {C, "#pragma stencil region copyin(a[0:n]) & b", "1:39", 1, "stray '&' in directive"},
    {C, "#pragma stencil region copyin(a[0:n]) \\\n    copyotu(b[0:n])", "2:5", 7,
     "unknown clause 'copyotu' in #pragma stencil region; expected one of " REGION_CLAUSES},
    {C, "#pragma stencil region copyin(a[0:n]) \\", "1:39", 1,
     "directive continued with '\\' but the file ends"},
    {C, "#pragma stencil region copyin(a[0:n]) /* unclosed", "1:39", 2, "unterminated comment in directive"},
};

/* Split the first diagnostic into its `line:col`, message and caret width. */
static void check_first_diagnostic(const Bad *b, const char *out) {
  char head[64];
  snprintf(head, sizeof head, "%s:%s: error: ", file_name(b->lang), b->where);
  ck_assert_msg(strncmp(out, head, strlen(head)) == 0, "%s\nexpected %s%s\ngot:\n%s", b->src, head,
                b->msg, out);
  const char *msg = out + strlen(head);
  const char *eol = strchr(msg, '\n');
  ck_assert_ptr_nonnull(eol);
  ck_assert_msg((size_t)(eol - msg) == strlen(b->msg) && strncmp(msg, b->msg, strlen(b->msg)) == 0,
                "%s\nexpected message: %s\ngot:\n%s", b->src, b->msg, out);
  const char *caret_line = strchr(eol + 1, '\n');
  ck_assert_ptr_nonnull(caret_line);
  const char *caret = strchr(caret_line, '^');
  ck_assert_ptr_nonnull(caret);
  int width = (int)strspn(caret + 1, "~") + 1;
  ck_assert_msg(width == b->width, "%s\nexpected width %d, got:\n%s", b->src, b->width, out);
}

START_TEST(test_bad) {
  const Bad *b = &bad[_i];
  int last = -1;
  Directive *d = read_first(b->lang, b->src, &last);
  ck_assert_msg(d == NULL, "%s\nshould fail but gave %s", b->src, d ? dump(d) : "");
  ck_assert_int_eq(diag_error_count(), 1);
  check_first_diagnostic(b, output());
}
END_TEST

/* ---- full messages, locations and the rest of the API ------------------------ */

START_TEST(test_full_unknown_clause) {
  int last;
  ck_assert_ptr_null(read_first(F, "!$stencil region copyinn(a)\n", &last));
  ck_assert_str_eq(output(),
                   "t.f90:1:18: error: unknown clause 'copyinn' in !$stencil region; expected one of "
                   "copyin, copyout, copy, create, local, present\n"
                   "    1 | !$stencil region copyinn(a)\n"
                   "      |                  ^~~~~~~\n");
}
END_TEST

START_TEST(test_full_duplicate_with_note) {
  int last;
  ck_assert_ptr_null(read_first(F, "!$stencil region copyin(t, &\n!$stencil qv) copy(t)\n", &last));
  ck_assert_int_eq(last, 2);
  ck_assert_str_eq(output(),
                   "t.f90:2:20: error: duplicate array 't' in data clauses\n"
                   "    2 | !$stencil qv) copy(t)\n"
                   "      |                    ^\n"
                   "t.f90:1:25: note: 't' first named here\n"
                   "    1 | !$stencil region copyin(t, &\n"
                   "      |                         ^\n");
}
END_TEST

START_TEST(test_full_unclosed_note_on_earlier_line) {
  int last;
  ck_assert_ptr_null(read_first(F, "!$stencil region copyin(a, &\n!$stencil    b\n", &last));
  ck_assert_str_eq(output(),
                   "t.f90:2:15: error: expected ')' to close the list of 'copyin'\n"
                   "    2 | !$stencil    b\n"
                   "      |               ^\n"
                   "t.f90:1:24: note: to match this '('\n"
                   "    1 | !$stencil region copyin(a, &\n"
                   "      |                        ^\n");
}
END_TEST

START_TEST(test_full_tab_in_directive) {
  int last;
  ck_assert_ptr_null(read_first(F, "\t!$stencil\tregion copyotu(b)\n", &last));
  ck_assert_str_eq(output(),
                   "t.f90:1:19: error: unknown clause 'copyotu' in !$stencil region; expected one of "
                   "copyin, copyout, copy, create, local, present\n"
                   "    1 | \t!$stencil\tregion copyotu(b)\n"
                   "      | \t         \t       ^~~~~~~\n");
}
END_TEST

START_TEST(test_locations) {
  int last;
  Directive *d = read_first(F,
                            "  !$stencil region copyin(a(its:ite), &\n"
                            "  !$stencil&   b) copyout(c)\n",
                            &last);
  ck_assert_ptr_nonnull(d);
  ck_assert_int_eq(d->loc.line, 1);
  ck_assert_int_eq(d->loc.col, 3);
  ck_assert_int_eq(d->nclauses, 2);
  const DirClause *in = &d->clauses[0], *out = &d->clauses[1];
  ck_assert_int_eq(in->loc.line, 1);
  ck_assert_int_eq(in->loc.col, 20);
  ck_assert_int_eq(in->items[0].loc.col, 27);
  ck_assert_int_eq(in->items[0].sections[0].lo->loc.col, 29);
  ck_assert_int_eq(in->items[0].sections[0].hi->loc.col, 33);
  ck_assert_int_eq(in->items[1].loc.line, 2);
  ck_assert_int_eq(in->items[1].loc.col, 16);
  ck_assert_int_eq(out->loc.line, 2);
  ck_assert_int_eq(out->loc.col, 19);
  ck_assert_int_eq(out->items[0].loc.col, 27);
  dir_free(d);
}
END_TEST

START_TEST(test_expression_structure) {
  int last;
  Directive *d = read_first(F, "!$stencil region copy(a(n-m*2:-k))", &last);
  ck_assert_ptr_nonnull(d);
  const DirSection *s = &d->clauses[0].items[0].sections[0];
  ck_assert_int_eq(s->lo->kind, DIR_E_BINARY);
  ck_assert_int_eq(s->lo->u.bin.op, '-');
  ck_assert_int_eq(s->lo->u.bin.lhs->kind, DIR_E_NAME);
  ck_assert_str_eq(s->lo->u.bin.lhs->u.name, "n");
  ck_assert_int_eq(s->lo->u.bin.rhs->kind, DIR_E_BINARY);
  ck_assert_int_eq(s->lo->u.bin.rhs->u.bin.op, '*');
  ck_assert_int_eq(s->lo->u.bin.rhs->u.bin.rhs->kind, DIR_E_INT);
  ck_assert_int_eq(s->lo->u.bin.rhs->u.bin.rhs->u.ival, 2);
  ck_assert_int_eq(s->hi->kind, DIR_E_NEG);
  ck_assert_str_eq(s->hi->u.operand->u.name, "k");
  ck_assert(!s->is_index);
  ck_assert_ptr_null(s->len);
  dir_free(d);
}
END_TEST

START_TEST(test_c_sections_fields) {
  int last;
  Directive *d = read_first(C, "#pragma stencil region copyin(a[1:n][:m])", &last);
  ck_assert_ptr_nonnull(d);
  const DirItem *it = &d->clauses[0].items[0];
  ck_assert_int_eq(it->nsections, 2);
  ck_assert_int_eq(it->sections[0].lo->u.ival, 1);
  ck_assert_str_eq(it->sections[0].len->u.name, "n");
  ck_assert_ptr_null(it->sections[0].hi);
  ck_assert_int_eq(it->sections[1].lo->kind, DIR_E_INT); /* omitted start is 0 */
  ck_assert_int_eq(it->sections[1].lo->u.ival, 0);
  dir_free(d);
}
END_TEST

START_TEST(test_parse_without_maps) {
  /* dir_parse alone: columns count from `loc` */
  add_source("t.f90", "x\nx\nx\nx\n      !$stencil region copyinn(a)\n");
  Loc loc = {0, 5, 16};
  ck_assert_ptr_null(dir_parse(" region copyinn(a)", loc, NULL, NULL, DIR_FORTRAN));
  ck_assert_str_eq(output(),
                   "t.f90:5:24: error: unknown clause 'copyinn' in !$stencil region; expected one of "
                   "copyin, copyout, copy, create, local, present\n"
                   "    5 |       !$stencil region copyinn(a)\n"
                   "      |                        ^~~~~~~\n");
  Directive *d = dir_parse("do vector(32)", loc, NULL, NULL, DIR_FORTRAN);
  ck_assert_ptr_nonnull(d);
  ck_assert_int_eq(d->vector, 32);
  ck_assert_int_eq(d->loc.col, 16);
  dir_free(d);
  ck_assert_ptr_null(dir_parse("", loc, NULL, NULL, DIR_C));
}
END_TEST

START_TEST(test_last_line_on_error) {
  int file = add_source("t.f90", "!$stencil region copyin(a) &\n!$stencil copyotu(b) &\n!$stencil copy(c)\nx = 1\n");
  int last = -1;
  ck_assert_ptr_null(dir_read(file, 1, DIR_FORTRAN, &last));
  ck_assert_int_eq(last, 3);
  int file2 = add_source("t.f90", "!$stencil region copyin(a) &\nx = 1\n");
  ck_assert_ptr_null(dir_read(file2, 1, DIR_FORTRAN, &last));
  ck_assert_int_eq(last, 1); /* the next line is code, not part of the directive */
}
END_TEST

START_TEST(test_directive_in_middle_of_file) {
  int file = add_source("t.f90",
                        "subroutine s(a, n)\n"
                        "  integer n\n"
                        "  real a(n)\n"
                        "  !$stencil region copyin(a(1:n))\n"
                        "  a = 0.\n"
                        "  !$stencil end region\n"
                        "end subroutine\n");
  int found = 0;
  for (int l = 1; l <= diag_source(file)->nlines; l++) {
    if (!dir_is_directive_line(file, l, DIR_FORTRAN)) continue;
    int last;
    Directive *d = dir_read(file, l, DIR_FORTRAN, &last);
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(d->loc.line, l);
    ck_assert_int_eq(d->kind, found ? DIR_END_REGION : DIR_REGION);
    found++;
    dir_free(d);
  }
  ck_assert_int_eq(found, 2);
}
END_TEST

typedef struct LineCase {
  DirLang lang;
  const char *line;
  bool is_directive;
} LineCase;

static const LineCase lines[] = {
    {F, "!$stencil region", true},
    {F, "   !$STENCIL do", true},
    {F, "\t!$stencil", true},
    {F, "!$stencil&", true},
    {F, "!$Stencil\tregion", true},
    {F, "!$stencil\r", true},
    {F, "!$stencilfoo", false},
    {F, "!$stencil_x region", false},
    {F, "! $stencil region", false},
    {F, "x = 1 !$stencil region", false},
    {F, "!$sten", false},
    {F, "", false},
    {F, "!$acc region", true},   /* a file without !$stencil reads !$acc */
    {F, "!$accregion", false},
    {F, "#pragma stencil region", false},
    {C, "#pragma stencil region", true},
    {C, "  #  pragma   stencil do", true},
    {C, "#pragma stencil", true},
    {C, "#pragma\tstencil\tdo", true},
    {C, "#pragma stencil\\", true},
    {C, "#pragma stencils", false},
    {C, "#pragma stencil_x", false},
    {C, "#pragma omp parallel", false},
    {C, "#pragmastencil region", false},
    {C, "#pragma STENCIL region", false},
    {C, "// #pragma stencil", false},
    {C, "!$stencil region", false},
};

/* ---- !$acc and #pragma acc ----------------------------------------------------
 *
 * dump() of the directive (and of its loop part, after " + "), a wait's
 * queues as written, then its origin and each clause as the user wrote it
 * with its fate: later (the passes decide), honoured, ignored, superseded
 * or notneeded. */
static const char *dump_acc(const Directive *d) {
  static char out[2048];
  snprintf(out, sizeof out, "%s", dump(d));
  if (d->queues) {
    strncat(out, " queues", sizeof out - strlen(out) - 1);
    strncat(out, d->queues, sizeof out - strlen(out) - 1);
  }
  if (d->loop) {
    strncat(out, " + ", sizeof out - strlen(out) - 1);
    strncat(out, dump(d->loop), sizeof out - strlen(out) - 1);
  }
  strncat(out, d->origin == DIR_FROM_PGI ? " {pgi" : " {openacc", sizeof out - strlen(out) - 1);
  const Directive *parts[2] = {d, d->loop};
  for (int p = 0; p < 2 && parts[p]; p++)
    for (int a = 0; a < parts[p]->nacc; a++) {
      const DirAccClause *c = &parts[p]->acc[a];
      char b[128];
      snprintf(b, sizeof b, " %s=%s", c->text,
               c->fate == ACC_IGNORED      ? "ignored"
               : c->fate == ACC_SUPERSEDED ? "superseded"
               : c->fate == ACC_HONOURED   ? "honoured"
               : c->fate == ACC_NOT_NEEDED ? "notneeded"
                                           : "later");
      strncat(out, b, sizeof out - strlen(out) - 1);
    }
  strncat(out, "}", sizeof out - strlen(out) - 1);
  return out;
}

static const Good acc_good[] = {
    /* the PGI Accelerator model */
    {F, "!$acc region", 1, "region {pgi}"},
    {F, "!$acc end region", 1, "end region {pgi}"},
    {F, "!$acc region copyin(a(:,:)) local(w) if(n > 1)", 1,
     "region copyin(a(:,:)) create(w) {pgi copyin(a(:,:))=later local(w)=later if(n > 1)=ignored}"},
    {F, "!$acc region copy(a) &\n!$acc& updatein(b)", 2,
     "region copy(a) {pgi copy(a)=later updatein(b)=ignored}"},
    {F, "!$acc region copy(a)\n!$acc& local(b)", 2, "region copy(a) create(b) {pgi copy(a)=later local(b)=later}"},
    {F, "!$acc data region copyin(t)", 1, "data copyin(t) {pgi copyin(t)=later}"},
    {F, "!$acc end data region", 1, "end data {pgi}"},
    {F, "!$acc do parallel, vector(16) private(work, numdt)", 1,
     "do vector(16) private(work,numdt) {pgi parallel=later vector(16)=later private(work,numdt)=later}"},
    {F, "!$acc do kernel unroll(4) cache(a) host", 1,
     "do kernel {pgi kernel=later unroll(4)=ignored cache(a)=superseded host=ignored}"},
    {F, "!$acc do seq", 1, "do seq {pgi seq=later}"},
    {F, "!$acc region do parallel copyin(a)", 1,
     "region copyin(a) + do {pgi copyin(a)=later parallel=later}"},
    {F, "!$acc update host(a, b(1:n))", 1, "update host(a,b(1:n)) {openacc host(a,b(1:n))=later}"},
    /* OpenACC */
    {F, "!$acc parallel loop gang vector(128) collapse(2) async(1) reduction(+:s)", 1,
     "region + do vector(128) {openacc async(1)=ignored gang=later vector(128)=later "
     "collapse(2)=superseded reduction(+:s)=superseded}"},
    {F, "!$acc kernels present(a) pcopyin(b) default(present)", 1,
     "region present(a) copyin(b) {openacc present(a)=later pcopyin(b)=later default(present)=superseded}"},
    {F, "!$acc end kernels", 1, "end region {openacc}"},
    {F, "!$acc end parallel", 1, "end region {openacc}"},
    {F, "!$acc loop independent private(x) vector(length:64)", 1,
     "do vector(64) private(x) {openacc independent=later private(x)=later vector(length:64)=later}"},
    {F, "!$acc data copy(t) create(tend)", 1, "data copy(t) create(tend) {openacc copy(t)=later create(tend)=later}"},
    {F, "!$acc end data", 1, "end data {openacc}"},
    {F, "!$acc update self(t) if(x) async", 1,
     "update async host(t) {openacc self(t)=later if(x)=ignored async=honoured}"},
    /* asynchrony: update host async[(n)] is queued (an unknown queue may be
     * acc_async_sync: done at once); wait waits for every queue */
    {F, "!$acc update host(t(:,:,1:1)) async(1)", 1,
     "update async host(t(:,:,1:1)) {openacc host(t(:,:,1:1))=later async(1)=honoured}"},
    {F, "!$acc update async(7) host(a)", 1, "update async host(a) {openacc async(7)=honoured host(a)=later}"},
    {F, "!$acc update self(a) async( acc_async_noval )", 1,
     "update async host(a) {openacc self(a)=later async(acc_async_noval)=honoured}"},
    {F, "!$acc update host(a) async(ACC_ASYNC_SYNC)", 1,
     "update host(a) {openacc host(a)=later async(ACC_ASYNC_SYNC)=honoured}"},
    {F, "!$acc update host(a) async(q)", 1, "update host(a) {openacc host(a)=later async(q)=ignored}"},
    {F, "!$acc update host(a) async(q + 1)", 1,
     "update host(a) {openacc host(a)=later async(q + 1)=ignored}"},
    {F, "!$acc update host(a) async(-1)", 1, "update host(a) {openacc host(a)=later async(-1)=ignored}"},
    {F, "!$acc update device(b) async(2)", 1,
     "update async device(b) {openacc device(b)=later async(2)=notneeded}"},
    {F, "!$acc update host(a) device(b) async wait(1)", 1,
     "update async host(a) device(b) {openacc host(a)=later device(b)=later async=honoured "
     "wait(1)=ignored}"},
    {F, "!$acc update host(a) &\n!$acc& async(1)", 2,
     "update async host(a) {openacc host(a)=later async(1)=honoured}"},
    {C, "#pragma acc update self(a[0:n]) async(3)", 1,
     "update async host(a[0:n]) {openacc self(a[0:n])=later async(3)=honoured}"},
    {C, "#pragma acc update device(a[0:n]) async", 1,
     "update async device(a[0:n]) {openacc device(a[0:n])=later async=notneeded}"},
    {F, "!$acc wait", 1, "wait {openacc}"},
    {F, "!$ACC WAIT(1)", 1, "wait queues(1) {openacc}"},
    {F, "!$acc wait(1, 2) async(3)", 1, "wait queues(1,2) {openacc async(3)=ignored}"},
    {F, "!$acc wait(devnum:0:queues:q) if(n > 0)", 1,
     "wait queues(devnum:0:queues:q) {openacc if(n > 0)=ignored}"},
    {F, "!$acc wait(1) &\n!$acc& async", 2, "wait queues(1) {openacc async=ignored}"},
    {C, "#pragma acc wait", 1, "wait {openacc}"},
    {C, "#pragma acc wait(q) async(q)", 1, "wait queues(q) {openacc async(q)=ignored}"},
    {F, "!$acc kernels async(1) wait(2)", 1, "region {openacc async(1)=ignored wait(2)=ignored}"},
    {F, "!$acc data copy(a) async wait", 1, "data copy(a) {openacc copy(a)=later async=ignored wait=ignored}"},
    {C, "#pragma acc parallel loop copyin(u[0:n]) vector(32)", 1,
     "region copyin(u[0:n]) + do vector(32) {openacc copyin(u[0:n])=later vector(32)=later}"},
    {C, "#pragma acc kernels copy(a[0:n]) \\\n  copyin(b[0:n])", 2,
     "region copy(a[0:n]) copyin(b[0:n]) {openacc copy(a[0:n])=later copyin(b[0:n])=later}"},
    {C, "#pragma acc loop seq", 1, "do seq {openacc seq=later}"},
    {F, "!$acc enter data copyin(a) create(b) if(n > 1) async(2)", 1,
     "enter data copyin(a) create(b) {openacc copyin(a)=later create(b)=later if(n > 1)=ignored "
     "async(2)=ignored}"},
    {F, "!$acc enter data pcopyin(a) present_or_create(b)", 1,
     "enter data copyin(a) create(b) {openacc pcopyin(a)=later present_or_create(b)=later}"},
    {F, "!$acc exit data copyout(a) &\n!$acc& delete(b) finalize wait", 2,
     "exit data finalize copyout(a) delete(b) {openacc copyout(a)=later delete(b)=later "
     "finalize=honoured wait=ignored}"},
    {C, "#pragma acc exit data delete(a[0:n]) async", 1,
     "exit data delete(a[0:n]) {openacc delete(a[0:n])=later async=ignored}"},
    {F, "!$acc host_data use_device(t, q) if_present", 1,
     "host_data if_present use_device(t,q) {openacc use_device(t,q)=honoured if_present=honoured}"},
    {F, "!$acc end host_data", 1, "end host_data {openacc}"},
    {C, "#pragma acc host_data use_device(a)", 1, "host_data use_device(a) {openacc use_device(a)=honoured}"},
};

START_TEST(test_acc_good) {
  const Good *g = &acc_good[_i];
  int last = -1;
  Directive *d = read_first(g->lang, g->src, &last);
  ck_assert_msg(d != NULL, "%s\nfailed with:\n%s", g->src, output());
  ck_assert_str_eq(dump_acc(d), g->expect);
  ck_assert_int_eq(last, g->last_line);
  ck_assert_str_eq(output(), "");
  dir_free(d);
}
END_TEST

typedef struct AccBad {
  DirLang lang;
  const char *src;
  const char *expect; /* the first line of the message */
} AccBad;

static const AccBad acc_bad[] = {
    {F, "!$acc parallel loop firstprivate(s)",
     "t.f90:1:21: error: clause 'firstprivate' is not supported: scalars the region reads already "
     "start from the host's value; remove the clause"},
    {F, "!$acc loop seq gang", "t.f90:1:16: error: 'seq' and 'gang' contradict each other"},
    {F, "!$acc loop vector(2000)",
     "t.f90:1:19: error: 'vector' length 2000 exceeds 1024, the most threads a CUDA block can have"},
    {F, "!$acc end region copy(a)", "t.f90:1:18: error: garbage after '!$acc end region'"},
    {F, "!$acc region copyin(a", "t.f90:1:22: error: expected ')' to close the list of 'copyin'"},
    {F, "!$acc update", "t.f90:1:7: error: '!$acc update' needs host(list) or device(list)"},
    {F, "!$acc host_data if_present", "t.f90:1:7: error: '!$acc host_data' needs use_device(list)"},
    {F, "!$acc host_data use_device(a) if(n > 0)",
     "t.f90:1:31: error: clause 'if' is not supported: put the construct inside an IF (the host "
     "code then appears twice, once with device addresses and once without)"},
    {F, "!$acc host_data use_device(a(1:n))",
     "t.f90:1:29: error: 'use_device' takes whole-array names, not sub-arrays"},
    {F, "!$acc enter data", "t.f90:1:7: error: '!$acc enter data' needs copyin(list) or create(list)"},
    {F, "!$acc exit data finalize",
     "t.f90:1:7: error: '!$acc exit data' needs copyout(list) or delete(list)"},
    {F, "!$acc exit data copyin(a)",
     "t.f90:1:17: error: clause 'copyin' is not allowed on '!$acc exit data'"},
    {F, "!$acc enter data attach(p)",
     "t.f90:1:18: error: clause 'attach' is not supported: the analysis infers what each region "
     "moves (its 'Generating' lines)"},
    {F, "!$acc do copyin(a)", "t.f90:1:10: error: clause 'copyin' is not allowed on '!$acc do'"},
    {F, "!$acc", "t.f90:1:1: error: empty directive; expected an accelerator directive (region, "
     "data, do, parallel, kernels, loop, update, enter data, exit data, wait)"},
    {F, "!$acc kernels frob(1)",
     "t.f90:1:15: warning: clause 'frob' of '!$acc kernels' is not understood and is ignored"},
    /* asynchrony */
    {F, "!$acc update host(a) async(", "t.f90:1:28: error: expected ')' to close the argument of 'async'"},
    {F, "!$acc update host(a) async(1", "t.f90:1:29: error: expected ')' to close the argument of 'async'"},
    {F, "!$acc update host(a) async(q+(1)",
     "t.f90:1:33: error: expected ')' to close the argument of 'async'"},
    {F, "!$acc update host(a) async()",
     "t.f90:1:28: error: expected a queue in 'async(...)', found ')'; write async or async(n)"},
    {F, "!$acc update host(a) async async(1)", "t.f90:1:28: error: duplicate clause 'async'"},
    {F, "!$acc update host(a) async 1",
     "t.f90:1:28: error: expected a clause of '!$acc update', found '1'"},
    {F, "!$acc wait(x", "t.f90:1:13: error: expected ')' to close the argument of 'wait'"},
    {F, "!$acc wait(1, (2)", "t.f90:1:18: error: expected ')' to close the argument of 'wait'"},
    {F, "!$acc wait()", "t.f90:1:12: error: expected a queue in 'wait(...)', found ')'; write wait or wait(n)"},
    {F, "!$acc wait(1))", "t.f90:1:14: error: expected a clause of '!$acc wait', found ')'"},
    {F, "!$acc wait copy(a)", "t.f90:1:12: error: clause 'copy' is not allowed on '!$acc wait'"},
    {F, "!$acc wait(1) &\n!$acc& async(", "t.f90:2:14: error: expected ')' to close the argument of 'async'"},
    {C, "#pragma acc wait(1", "t.c:1:19: error: expected ')' to close the argument of 'wait'"},
    {C, "#pragma acc update host(a[0:n]) async(", "t.c:1:39: error: expected ')' to close the argument of 'async'"},
};

START_TEST(test_acc_bad) {
  const AccBad *b = &acc_bad[_i];
  int last = -1;
  int file = add_source(file_name(b->lang), b->src);
  Directive *d = dir_read(file, 1, b->lang, &last);
  const char *out = output();
  const char *nl = strchr(out, '\n');
  ck_assert_msg(nl != NULL, "%s: no message", b->src);
  char *first = xstrndup(out, (size_t)(nl - out));
  ck_assert_str_eq(first, b->expect);
  free(first);
  /* one message, with the source line and a caret (a note may follow) */
  ck_assert_msg(!strstr(nl, "error:") && !strstr(nl, "warning:"), "%s: more than one message:\n%s",
                b->src, out);
  ck_assert_msg(strchr(nl, '^') != NULL, "%s: no caret:\n%s", b->src, out);
  ck_assert(strstr(b->expect, "warning") ? d != NULL : d == NULL);
  dir_free(d);
}
END_TEST

/* Which lines of a file are directives: the spelling is the file's. */
typedef struct FileLines {
  DirLang lang;
  const char *src;
  const char *directive_lines; /* '1' per line that is a directive, else '0' */
} FileLines;

static const FileLines acc_files[] = {
    {F, "!$acc region\n!$acc end region", "11"},
    {F, "!$stencil region\n!$acc region\n!$stencil end region", "101"},
    {F, "!$acc wait\n!$acc routine seq\n!$acc enter data copyin(a) &\n!$acc& create(b)\n!$acc atomic",
     "10110"},
    {F, "!$acc parallel loop\n!$acc end parallel loop\n!$acc cache(a)", "100"},
    {F, "!$acc region copy(a) &\n!$acc   local(b)\n!$acc& local(c)", "111"},
    {C, "#pragma acc parallel loop\n#pragma acc wait\n#pragma acc data copy(a[0:n])", "111"},
    {C, "#pragma stencil region\n#pragma acc kernels", "10"},
};

START_TEST(test_acc_file_lines) {
  const FileLines *f = &acc_files[_i];
  int file = add_source(file_name(f->lang), f->src);
  for (int l = 1; f->directive_lines[l - 1]; l++)
    ck_assert_msg(dir_is_directive_line(file, l, f->lang) == (f->directive_lines[l - 1] == '1'),
                  "line %d of:\n%s", l, f->src);
}
END_TEST

START_TEST(test_is_directive_line) {
  const LineCase *c = &lines[_i];
  int file = add_source("t", c->line);
  ck_assert_msg(dir_is_directive_line(file, 1, c->lang) == c->is_directive, "'%s'", c->line);
  ck_assert(!dir_is_directive_line(file, 2, c->lang));
}
END_TEST

static void check_print(const char *bound, const char *expect) {
  char src[128], buf[64];
  snprintf(src, sizeof src, "!$stencil region copy(a(%s))", bound);
  diag_reset();
  int last;
  Directive *d = read_first(F, src, &last);
  ck_assert_msg(d != NULL, "%s", src);
  dir_expr_print(d->clauses[0].items[0].sections[0].lo, buf, sizeof buf);
  ck_assert_str_eq(buf, expect);
  dir_free(d);
}

START_TEST(test_expr_print) {
  check_print("its - 1", "its-1");
  check_print("(a+b)*c", "(a+b)*c");
  check_print("a+b*c", "a+b*c");
  check_print("(a*b)+c", "a*b+c");
  check_print("a-(b+c)", "a-(b+c)");
  check_print("a-(b-c)", "a-(b-c)");
  check_print("(a-b)-c", "a-b-c");
  check_print("a/(b*c)", "a/(b*c)");
  check_print("a*(b/c)", "a*(b/c)");
  check_print("-a*b", "-a*b");
  check_print("-(a*b)", "-(a*b)");
  check_print("a*(-b)", "a*(-b)");
  check_print("a- -b", "a-(-b)");
  check_print("--a", "-(-a)");
  check_print("((((7))))", "7");
  check_print("Ite+1", "ite+1");
}
END_TEST

START_TEST(test_expr_print_truncates) {
  int last;
  Directive *d = read_first(F, "!$stencil region copy(a(alpha+beta*gamma))", &last);
  ck_assert_ptr_nonnull(d);
  const DirExpr *e = d->clauses[0].items[0].sections[0].lo;
  char buf[8];
  memset(buf, 'x', sizeof buf);
  dir_expr_print(e, buf, sizeof buf);
  ck_assert_str_eq(buf, "alpha+b");
  dir_expr_print(e, buf, 1);
  ck_assert_str_eq(buf, "");
  dir_expr_print(e, buf, 0); /* writes nothing, does not crash */
  dir_expr_print(NULL, buf, sizeof buf);
  ck_assert_str_eq(buf, "");
  dir_free(d);
}
END_TEST

START_TEST(test_names) {
  ck_assert_str_eq(dir_kind_name(DIR_REGION), "region");
  ck_assert_str_eq(dir_kind_name(DIR_END_REGION), "end region");
  ck_assert_str_eq(dir_kind_name(DIR_DATA), "data");
  ck_assert_str_eq(dir_kind_name(DIR_END_DATA), "end data");
  ck_assert_str_eq(dir_kind_name(DIR_DO), "do");
  ck_assert_str_eq(dir_kind_name(DIR_UPDATE), "update");
  ck_assert_str_eq(dir_clause_name(DIR_COPYIN), "copyin");
  ck_assert_str_eq(dir_clause_name(DIR_COPYOUT), "copyout");
  ck_assert_str_eq(dir_clause_name(DIR_COPY), "copy");
  ck_assert_str_eq(dir_clause_name(DIR_CREATE), "create");
  ck_assert_str_eq(dir_clause_name(DIR_PRESENT), "present");
  ck_assert_str_eq(dir_clause_name(DIR_UPDATE_HOST), "host");
  ck_assert_str_eq(dir_clause_name(DIR_UPDATE_DEVICE), "device");
  ck_assert_str_eq(dir_clause_name(DIR_PRIVATE), "private");
  dir_free(NULL);
}
END_TEST

START_TEST(test_read_non_directive_is_a_bug) {
  int file = add_source("t.f90", "x = 1\n");
  int last;
  diag_set_stream(NULL);
  dir_read(file, 1, DIR_FORTRAN, &last);
}
END_TEST

static Suite *directive_suite(void) {
  Suite *s = suite_create("directive");
  TCase *tc = tcase_create("tables");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_loop_test(tc, test_good, 0, (int)(sizeof good / sizeof good[0]));
  tcase_add_loop_test(tc, test_bad, 0, (int)(sizeof bad / sizeof bad[0]));
  tcase_add_loop_test(tc, test_is_directive_line, 0, (int)(sizeof lines / sizeof lines[0]));
  tcase_add_loop_test(tc, test_acc_good, 0, (int)(sizeof acc_good / sizeof acc_good[0]));
  tcase_add_loop_test(tc, test_acc_bad, 0, (int)(sizeof acc_bad / sizeof acc_bad[0]));
  tcase_add_loop_test(tc, test_acc_file_lines, 0, (int)(sizeof acc_files / sizeof acc_files[0]));
  suite_add_tcase(s, tc);
  TCase *api = tcase_create("api");
  tcase_add_checked_fixture(api, setup, teardown);
  tcase_add_test(api, test_full_unknown_clause);
  tcase_add_test(api, test_full_duplicate_with_note);
  tcase_add_test(api, test_full_unclosed_note_on_earlier_line);
  tcase_add_test(api, test_full_tab_in_directive);
  tcase_add_test(api, test_locations);
  tcase_add_test(api, test_expression_structure);
  tcase_add_test(api, test_c_sections_fields);
  tcase_add_test(api, test_parse_without_maps);
  tcase_add_test(api, test_last_line_on_error);
  tcase_add_test(api, test_directive_in_middle_of_file);
  tcase_add_test(api, test_expr_print);
  tcase_add_test(api, test_expr_print_truncates);
  tcase_add_test(api, test_names);
  suite_add_tcase(s, api);
  /* apart, so that CK_FORK=no CK_RUN_CASE=api can run the others under LeakSanitizer */
  TCase *bug = tcase_create("bug");
  tcase_add_checked_fixture(bug, setup, teardown);
  tcase_add_test_raise_signal(bug, test_read_non_directive_is_a_bug, SIGABRT);
  suite_add_tcase(s, bug);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(directive_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
