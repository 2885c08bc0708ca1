/* check_storage.c — tests of the storage pass (transforms/storage.c) and of
 * the launcher ABI the two emitters print from it.
 *
 *   array_storage      where an array lives, per privatization shape (a table
 *                      of ArrayPlans: not privatized; every dimension a
 *                      column dimension; few, many or an unknown number of
 *                      elements per thread);
 *   kernel_params      small programs parsed and planned by the real front
 *                      ends and planner: the storage of every array, and
 *                      the parameter lists of a kernel and of the launcher
 *                      (order, roles, C types, restrict);
 *   abi_agrees         the same programs and every golden translation case
 *                      emitted: each extern "C" definition in the .cu and its
 *                      declaration in the host file (C prototype, or Fortran
 *                      bind(C) interface body) are parsed back and must
 *                      declare the same parameter types in the same order.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <check.h>
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "directive.h"
#include "emit.h"
#include "frontend.h"
#include "report.h"
#include "storage.h"
#include "transforms.h"

static void setup(void) { diag_reset(); }

static void teardown(void)
{
  report_clear();
  ir_arena_free();
  diag_reset();
}

/* ---- storage per array shape ----------------------------------------------- */

typedef struct StorageCase {
  const char *name;
  int rank;
  bool privatized;
  bool column_dim[3];
  long private_elems;
  ArrayStorage expect;
} StorageCase;

static const StorageCase storage_cases[] = {
  { "shared 2-d array", 2, false, { false, false }, -1, ARRAY_DEVICE },
  { "not privatized, column dims set", 1, false, { true }, 1, ARRAY_DEVICE },
  { "numdt(i): one value per column", 1, true, { true }, 1, ARRAY_REGISTER },
  { "every dimension a column index", 3, true, { true, true, true }, 1, ARRAY_REGISTER },
  { "tmp(i,4): 4 elements", 2, true, { true, false }, 4, ARRAY_THREAD_LOCAL },
  { "middle dimension kept", 3, true, { true, false, true }, 10, ARRAY_THREAD_LOCAL },
  { "no column dimension, constant size", 2, true, { false, false }, 12, ARRAY_THREAD_LOCAL },
  { "at the thread-local limit", 2, true, { true, false }, XF_THREAD_LOCAL_MAX_ELEMS,
    ARRAY_THREAD_LOCAL },
  { "over the thread-local limit", 2, true, { true, false }, XF_THREAD_LOCAL_MAX_ELEMS + 1,
    ARRAY_SCRATCH_SLICE },
  { "work(i,k): size known at run time", 2, true, { true, false }, -1, ARRAY_SCRATCH_SLICE },
};

START_TEST(test_array_storage)
{
  const StorageCase *c = &storage_cases[_i];
  IrSym s = { .name = "w", .type = IR_T_REAL4, .rank = c->rank };
  ArrayPlan a = { .sym = &s, .privatized = c->privatized, .private_elems = c->private_elems };
  for (int d = 0; d < c->rank; d++)
    a.column_dim[d] = c->column_dim[d];
  ck_assert_msg(xf_array_storage(&a) == c->expect, "%s: storage %d, expected %d", c->name,
                (int)xf_array_storage(&a), (int)c->expect);
}
END_TEST

/* ---- programs through the real pipeline ------------------------------------- */

/* Parse and plan src; the Program is arena-owned. */
static Program *plan(IrLang lang, const char *src)
{
  const char *path = lang == IR_FORTRAN ? "t.f90" : "t.c";
  int file = diag_add_source(xstrdup(path), xstrdup(src), strlen(src));
  Program *p = lang == IR_FORTRAN ? fe_fortran(file) : fe_c(file);
  ck_assert_msg(p != NULL, "%s does not parse", path);
  ck_assert_msg(xf_plan_program(p), "%s is not translated", path);
  return p;
}

/* The .cu and host texts of a planned program (malloc'ed). */
static void emit(Program *p, const char *src, char **cu, char **host)
{
  size_t len;
  HostCalls calls = { 0 };
  FILE *f = open_memstream(cu, &len);
  ck_assert(emit_cuda(p, f, &calls));
  fclose(f);
  f = open_memstream(host, &len);
  ck_assert(emit_host(p, src, strlen(src), &calls, f));
  fclose(f);
}

static const char *storage_name(ArrayStorage s)
{
  static const char *const names[] = {
    [ARRAY_DEVICE] = "device", [ARRAY_REGISTER] = "register",
    [ARRAY_THREAD_LOCAL] = "thread-local", [ARRAY_SCRATCH_SLICE] = "scratch",
  };
  return names[s];
}

/* "lo t 2: long", "array t: float * restrict", "scalar n: const int *" */
static void describe_param(FILE *f, const Param *a)
{
  static const char *const roles[] = {
    [PARAM_ARRAY] = "array", [PARAM_SCRATCH_BASE] = "scratch", [PARAM_LOWER_BOUND] = "lo",
    [PARAM_EXTENT] = "extent", [PARAM_SCALAR] = "scalar", [PARAM_FIRSTPRIVATE] = "firstprivate",
    [PARAM_TRIP] = "trip", [PARAM_HOST_LBOUND] = "lbound", [PARAM_HOST_UBOUND] = "ubound",
  };
  fprintf(f, "%s", roles[a->role]);
  if (a->sym)
    fprintf(f, " %s", a->sym->name);
  if (a->role != PARAM_ARRAY && a->role != PARAM_SCRATCH_BASE && a->role != PARAM_SCALAR &&
      a->role != PARAM_FIRSTPRIVATE)
    fprintf(f, " %d", a->dim);
  fprintf(f, ": %s%s\n", emit_param_ctype(a), a->no_alias ? " restrict" : "");
}

static char *describe_params(const ParamList *l)
{
  char *text = NULL;
  size_t len;
  FILE *f = open_memstream(&text, &len);
  for (int i = 0; i < l->n; i++)
    describe_param(f, &l->v[i]);
  fclose(f);
  return text;
}

/* "t device, work scratch, ..." and the kernel's private arrays. */
static char *describe_storage(const RegionPlan *p, const KernelPlan *k)
{
  char *text = NULL;
  size_t len;
  FILE *f = open_memstream(&text, &len);
  for (int i = 0; i < p->narrays; i++)
    fprintf(f, "%s%s %s", i ? ", " : "", p->arrays[i].sym->name,
            storage_name(p->arrays[i].storage));
  fprintf(f, "; in the thread:");
  for (int i = 0; i < k->nprivate_arrays; i++)
    fprintf(f, " %s", k->private_arrays[i]->sym->name);
  fclose(f);
  return text;
}

typedef struct ProgramCase {
  const char *name;
  IrLang lang;
  const char *src;
  int kernel;              /* which kernel of the first region is checked */
  const char *storage;     /* describe_storage */
  const char *params;      /* describe_params of the kernel */
  const char *launcher;    /* describe_params of the region's launcher */
} ProgramCase;

static const ProgramCase program_cases[] = {
  /* every storage class in one column kernel over (i,j) */
  { "fortran-privatize", IR_FORTRAN,
    "subroutine micro(t, q, ims, ime, kms, kme, jms, jme, its, ite, kts, kte, jts, jte)\n"
    "  integer, intent(in) :: ims, ime, kms, kme, jms, jme, its, ite, kts, kte, jts, jte\n"
    "  real, intent(in) :: t(ims:ime, kms:kme, jms:jme)\n"
    "  real, intent(inout) :: q(ims:ime, kms:kme, jms:jme)\n"
    "  real :: work(its:ite, kts:kte), numdt(its:ite), tmp(its:ite, 4)\n"
    "  integer :: i, j, k, n\n"
    "!$stencil region\n"
    "  do j = jts, jte\n"
    "    do i = its, ite\n"
    "      numdt(i) = 1.0 + 0.5 * real(j)\n"
    "    end do\n"
    "    do k = kts, kte\n"
    "      do i = its, ite\n"
    "        work(i,k) = t(i,k,j) * 2.0 - numdt(i)\n"
    "      end do\n"
    "    end do\n"
    "    do n = 1, 4\n"
    "      do i = its, ite\n"
    "        tmp(i,n) = real(n) * numdt(i) + work(i,kts)\n"
    "      end do\n"
    "    end do\n"
    "    do k = kts, kte\n"
    "      do i = its, ite\n"
    "        q(i,k,j) = work(i,k) + tmp(i,1) * q(i,k,j)\n"
    "      end do\n"
    "    end do\n"
    "  end do\n"
    "!$stencil end region\n"
    "end subroutine micro\n",
    0, "numdt register, t device, work scratch, tmp thread-local, q device; "
       "in the thread: numdt work tmp",
    "array t: const float * restrict\n"
    "lo t 0: long\nlo t 1: long\nlo t 2: long\nextent t 0: long\nextent t 1: long\n"
    "scratch work: float * restrict\n"
    "lo work 0: long\nlo work 1: long\nextent work 0: long\n"
    "array q: float * restrict\n"
    "lo q 0: long\nlo q 1: long\nlo q 2: long\nextent q 0: long\nextent q 1: long\n"
    "scalar jts: int\nscalar its: int\nscalar kts: int\nscalar kte: int\n"
    "trip 0: long\ntrip 1: long\ntrip 2: long\n",
    "array t: float *\narray q: float *\n"
    "scalar jts: const int *\nscalar jte: const int *\nscalar its: const int *\n"
    "scalar ite: const int *\nscalar kts: const int *\nscalar kte: const int *\n"
    "scalar ims: const int *\nscalar ime: const int *\nscalar kms: const int *\n"
    "scalar kme: const int *\nscalar jms: const int *\nscalar jme: const int *\n" },
  /* a firstprivate scalar: the kernel gets the host's value, the launcher
   * passes it once */
  { "fortran-firstprivate", IR_FORTRAN,
    "subroutine ex(n, a, b)\n"
    "  integer, intent(in) :: n\n"
    "  real, intent(inout) :: a(n), b(n)\n"
    "  integer :: i\n"
    "  real :: s\n"
    "  s = 1.0\n"
    "!$stencil region\n"
    "  do i = 1, n\n"
    "    b(i) = s\n"
    "  end do\n"
    "  s = 2.0\n"
    "  do i = 1, n\n"
    "    a(i) = s\n"
    "  end do\n"
    "!$stencil end region\n"
    "end subroutine ex\n",
    0, "b device, a device; in the thread:",
    "array b: float * restrict\nlo b 0: long\n"
    "array a: float * restrict\nlo a 0: long\n"
    "firstprivate s: float\n"
    "trip 0: long\ntrip 1: long\ntrip 2: long\n",
    "array b: float *\narray a: float *\nscalar n: const int *\nscalar s: const float *\n" },
  /* deferred-shape arrays: their bounds are lbound/ubound on the host */
  { "fortran-allocatable", IR_FORTRAN,
    "program relax\n"
    "  real, allocatable :: u(:,:), v(:,:)\n"
    "  integer :: i, j\n"
    "  allocate(u(0:9, 0:9), v(0:9, 0:9))\n"
    "  u = 1.0\n"
    "!$stencil region\n"
    "  do j = 1, 8\n"
    "    do i = 1, 8\n"
    "      v(i,j) = 0.25 * (u(i-1,j) + u(i+1,j))\n"
    "    end do\n"
    "  end do\n"
    "!$stencil end region\n"
    "  print *, v(1,1)\n"
    "end program relax\n",
    0, "u device, v device; in the thread:",
    "array u: const float * restrict\nlo u 0: long\nlo u 1: long\nextent u 0: long\n"
    "array v: float * restrict\nlo v 0: long\nlo v 1: long\nextent v 0: long\n"
    "trip 0: long\ntrip 1: long\ntrip 2: long\n",
    "array u: float *\narray v: float *\n"
    "lbound s2s_lb1_u 0: const int *\nubound s2s_ub1_u 0: const int *\n"
    "lbound s2s_lb2_u 1: const int *\nubound s2s_ub2_u 1: const int *\n"
    "lbound s2s_lb1_v 0: const int *\nubound s2s_ub1_v 0: const int *\n"
    "lbound s2s_lb2_v 1: const int *\nubound s2s_ub2_v 1: const int *\n" },
  /* C: the user's restrict arrays are restrict (others may alias), scalars by
   * value; the second kernel of a split region reads only its own scalars,
   * and the arrays it does not write are const */
  { "c-two-kernels", IR_C,
    "void f(int n, int m, double w, double *restrict a, const double *restrict b,\n"
    "       float *restrict c)\n"
    "{\n"
    "#pragma stencil region\n"
    "  {\n"
    "    for (int i = 0; i < n; i++)\n"
    "      a[i] = w * b[i];\n"
    "    for (int j = 1; j < m; j++)\n"
    "      c[j] = 2.0f * c[j];\n"
    "  }\n"
    "}\n",
    1, "b device, a device, c device; in the thread:",
    "array b: const double * restrict\nlo b 0: long\n"
    "array a: const double * restrict\nlo a 0: long\n"
    "array c: float * restrict\nlo c 0: long\n"
    "trip 0: long\ntrip 1: long\ntrip 2: long\n",
    "array b: double *\narray a: double *\narray c: float *\n"
    "scalar n: int\nscalar w: double\nscalar m: int\n" },
};

START_TEST(test_kernel_params)
{
  const ProgramCase *c = &program_cases[_i];
  Program *p = plan(c->lang, c->src);
  const RegionPlan *rp = p->routines[0]->regions[0]->analysis;
  ck_assert(rp->storage_planned);
  ck_assert_msg(c->kernel < rp->nkernels, "%s: %d kernels", c->name, rp->nkernels);
  const KernelPlan *k = &rp->kernels[c->kernel];
  char *storage = describe_storage(rp, k);
  char *params = describe_params(&k->params);
  char *launcher = describe_params(&rp->launcher);
  ck_assert_msg(!strcmp(storage, c->storage), "%s storage:\n%s\nexpected:\n%s", c->name, storage,
                c->storage);
  ck_assert_msg(!strcmp(params, c->params), "%s kernel %d:\n%s---\nexpected:\n%s", c->name,
                c->kernel, params, c->params);
  ck_assert_msg(!strcmp(launcher, c->launcher), "%s launcher:\n%s---\nexpected:\n%s", c->name,
                launcher, c->launcher);
  free(storage);
  free(params);
  free(launcher);
}
END_TEST

/* The dump the storage pass adds to --dump-ir. */
START_TEST(test_dump_storage)
{
  Program *p = plan(IR_FORTRAN, program_cases[1].src);
  char *text = NULL;
  size_t len;
  FILE *f = open_memstream(&text, &len);
  xf_dump_storage(p->routines[0]->regions[0], f);
  fclose(f);
  ck_assert_str_eq(text, "  storage of region ex_r1\n"
                         "    array b: device\n"
                         "    array a: device\n"
                         "    kernel ex_r1:\n"
                         "      array b: float * restrict\n"
                         "      lo b 0: long\n"
                         "      array a: float * restrict\n"
                         "      lo a 0: long\n"
                         "      firstprivate s: float\n"
                         "      trip 0: long\n"
                         "      trip 1: long\n"
                         "      trip 2: long\n"
                         "    launcher s2s_ex_r1:\n"
                         "      array b: float *\n"
                         "      array a: float *\n"
                         "      scalar n: const int *\n"
                         "      scalar s: const float *\n");
  free(text);
}
END_TEST

/* ---- both sides of the launcher ABI ------------------------------------------ */

/* Host-callable functions as one side declares them: "NAME: T1, T2, ..." per
 * line, in the order found. */
typedef struct Signatures {
  char *text;
  size_t len;
  FILE *f;
} Signatures;

static void sig_open(Signatures *s)
{
  s->text = NULL;
  s->f = open_memstream(&s->text, &s->len);
}

static char *sig_close(Signatures *s)
{
  fclose(s->f);
  return s->text;
}

static char *trimmed(const char *s, size_t n)
{
  while (n && isspace((unsigned char)*s))
    s++, n--;
  while (n && isspace((unsigned char)s[n - 1]))
    n--;
  return xstrndup(s, n);
}

/* The type of a C parameter declaration: the text before its name. */
static char *decl_type(const char *decl, size_t n)
{
  size_t end = n;
  while (end && (isalnum((unsigned char)decl[end - 1]) || decl[end - 1] == '_'))
    end--;
  return trimmed(decl, end);
}

/* "void NAME(T1 a, T2 b)" from `open` (the '(') to the matching ')':
 * writes "NAME: T1, T2".  Fortran callers compare without const (a dummy
 * passed by reference is the same address, read only or not). */
static void c_params(Signatures *s, const char *name, size_t name_len, const char *open,
                     bool drop_const)
{
  const char *close = strchr(open, ')');
  ck_assert(close != NULL);
  fprintf(s->f, "%.*s:", (int)name_len, name);
  const char *p = open + 1;
  for (int i = 0; p < close; i++) {
    const char *comma = memchr(p, ',', (size_t)(close - p));
    const char *end = comma ? comma : close;
    char *type = decl_type(p, (size_t)(end - p));
    const char *t = type;
    if (drop_const && !strncmp(t, "const ", 6))
      t += 6;
    /* "(void)": no parameter (decl_type reads the lone word as a name) */
    if (strcmp(t, "void") != 0 && *t)
      fprintf(s->f, "%s %s", i ? "," : "", t);
    free(type);
    p = end + 1;
  }
  fputc('\n', s->f);
}

/* extern "C" void NAME(...) in the .cu */
static char *cu_signatures(const char *cu, bool drop_const)
{
  static const char head[] = "extern \"C\" void ";
  Signatures s;
  sig_open(&s);
  for (const char *l = strstr(cu, head); l; l = strstr(l + 1, head)) {
    const char *name = l + strlen(head), *open = strchr(name, '(');
    c_params(&s, name, (size_t)(open - name), open, drop_const);
  }
  return sig_close(&s);
}

/* C host file: the prototypes "void s2s_NAME(...);" the host emitter wrote */
static char *c_prototypes(const char *host)
{
  Signatures s;
  sig_open(&s);
  for (const char *l = host; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
    if (strncmp(l, "void s2s_", 9) != 0 || !strncmp(l, "void s2s_host_pass", 18))
      continue;   /* the host pass's functions are the runtime's, not the .cu's */
    const char *name = l + 5, *open = strchr(name, '(');
    c_params(&s, name, (size_t)(open - name), open, false);
  }
  return sig_close(&s);
}

/* A Fortran dummy's declaration in an interface body, as the C type the
 * launcher must read through the address Fortran passes:
 * "real(c_double) :: a(*)" -> "double *"; type(*) (a LOGICAL) -> "int *". */
static char *fortran_dummy_ctype(const char *decl)
{
  static const char *const kinds[][2] = {
    { "real(c_float) :: ", "float" }, { "real(c_double) :: ", "double" },
    { "integer(c_int) :: ", "int" }, { "integer(c_long_long) :: ", "long long" },
    { "type(*) :: ", "int" },
  };
  for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
    if (!strncmp(decl, kinds[i][0], strlen(kinds[i][0])))
      return ir_printf("%s *", kinds[i][1]);
  /* host_data's array of device addresses, filled by the function */
  if (!strcmp(decl, "type(c_ptr) :: s2s_device(*)"))
    return ir_printf("void **");
  ck_abort_msg("unexpected dummy declaration '%s'", decl);
  return NULL;
}

/* Line l without its line end and leading blanks (arena). */
static char *line_text(const char *l)
{
  l += strspn(l, " \t");
  return ir_strndup(l, strcspn(l, "\r\n"));
}

static const char *next_line(const char *l)
{
  const char *nl = strchr(l, '\n');
  return nl ? nl + 1 : NULL;
}

typedef struct DummyDecl {
  char *name, *ctype;
} DummyDecl;

/* Fortran host file: each interface body's dummies, in the order of its
 * SUBROUTINE statement (continued with &), typed by their declarations. */
static char *fortran_interfaces(const char *host)
{
  Signatures s;
  sig_open(&s);
  for (const char *l = host; l && *l; l = next_line(l)) {
    char *header = line_text(l);
    if (strncmp(header, "subroutine s2s_", 15) != 0 || !strncmp(header, "subroutine s2s_host_pass", 24))
      continue;   /* the host pass's functions are the runtime's, not the .cu's */
    while (header[strlen(header) - 1] == '&') {   /* "subroutine f(a, b, &" */
      header[strlen(header) - 1] = '\0';
      l = next_line(l);
      header = ir_printf("%s%s", header, line_text(l));
    }
    char *name = header + 11, *open = strchr(name, '('), *close = strchr(open, ')');
    *open = *close = '\0';
    /* the declarations, up to END SUBROUTINE: "real(c_float) :: a(*)" */
    int ndecls = 0;
    DummyDecl *decls = NULL;
    for (l = next_line(l); l && strncmp(line_text(l), "end subroutine", 14) != 0; l = next_line(l)) {
      char *d = line_text(l), *colons = strstr(d, " :: ");
      if (!colons || !strncmp(d, "use,", 4))
        continue;
      char *dummy = colons + 4;
      DummyDecl decl = { ir_strndup(dummy, strcspn(dummy, "(")), fortran_dummy_ctype(d) };
      IR_PUSH(decls, ndecls, decl);
    }
    fprintf(s.f, "%s:", name);
    char *dummy = open + 1;
    for (int i = 0; *dummy; i++) {
      size_t n = strcspn(dummy, ",");
      char *d = ir_strndup(dummy + strspn(dummy, " "), n - strspn(dummy, " "));
      int k = 0;
      while (k < ndecls && strcmp(decls[k].name, d) != 0)
        k++;
      ck_assert_msg(k < ndecls, "interface %s: no declaration of dummy '%s'", name, d);
      fprintf(s.f, "%s %s", i ? "," : "", decls[k].ctype);
      dummy += n + (dummy[n] == ',');
    }
    fputc('\n', s.f);
  }
  return sig_close(&s);
}

/* Translate src and compare the two sides; returns the number of
 * host-callable functions compared. */
static int check_abi(IrLang lang, const char *what, const char *src)
{
  Program *p = plan(lang, src);
  char *cu, *host;
  emit(p, src, &cu, &host);
  bool fortran = lang == IR_FORTRAN;
  char *defined = cu_signatures(cu, fortran);
  char *declared = fortran ? fortran_interfaces(host) : c_prototypes(host);
  ck_assert_msg(!strcmp(defined, declared), "%s: the .cu defines\n%sthe host file declares\n%s",
                what, defined, declared);
  int n = 0;
  for (const char *l = defined; (l = strchr(l, '\n')); l++)
    n++;
  free(defined);
  free(declared);
  free(cu);
  free(host);
  return n;
}

START_TEST(test_abi_agrees_programs)
{
  const ProgramCase *c = &program_cases[_i];
  ck_assert_int_gt(check_abi(c->lang, c->name, c->src), 0);
}
END_TEST

/* Data and update functions too, with C scalars in the subscript ranges. */
START_TEST(test_abi_agrees_c_data_update)
{
  static const char src[] =
      "void scale(int n, long long m, double *restrict a, const float *restrict b, double s)\n"
      "{\n"
      "#pragma stencil data copy(a[0:n]) copyin(b[0:m])\n"
      "  {\n"
      "#pragma stencil region\n"
      "    for (int i = 0; i < n; i++)\n"
      "      a[i] = b[i] * s;\n"
      "#pragma stencil update host(a[0:n])\n"
      "  }\n"
      "}\n";
  ck_assert_int_eq(check_abi(IR_C, "c data/update", src), 4);
}
END_TEST

/* Every kind a Fortran dummy can have: LOGICAL (type(*), read as a C int),
 * INTEGER(8), DOUBLE PRECISION, and run-time bounds passed as lbound/ubound
 * with a data and an update directive. */
START_TEST(test_abi_agrees_fortran_kinds)
{
  static const char src[] =
      "subroutine kinds(n, k8, flag, a, d, mask, e)\n"
      "  integer, intent(in) :: n\n"
      "  integer(8), intent(in) :: k8\n"
      "  logical, intent(in) :: flag\n"
      "  real, intent(inout) :: a(n), e(:)\n"
      "  double precision, intent(inout) :: d(n)\n"
      "  logical, intent(in) :: mask(n)\n"
      "  integer :: i\n"
      "!$stencil data copy(e)\n"
      "!$stencil region\n"
      "  do i = 1, n\n"
      "    if (flag .and. mask(i)) a(i) = a(i) + real(k8) + e(i)\n"
      "    d(i) = d(i) * 2.0d0\n"
      "  end do\n"
      "!$stencil end region\n"
      "!$stencil update host(e)\n"
      "!$stencil end data\n"
      "end subroutine kinds\n";
  ck_assert_int_eq(check_abi(IR_FORTRAN, "fortran kinds", src), 4);
}
END_TEST

/* Every golden translation case (tests/golden/gen/<case>/in.* or the file
 * its `source` names). */
static char *read_file(const char *path)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  char *text = NULL;
  size_t len;
  FILE *m = open_memstream(&text, &len);
  int ch;
  while ((ch = fgetc(f)) != EOF)
    fputc(ch, m);
  fclose(f);
  fclose(m);
  return text;
}

static int check_golden_case(const char *top, const char *name)
{
  char *dir = xasprintf("%s/tests/golden/gen/%s", top, name);
  char *source = xasprintf("%s/source", dir), *rel = read_file(source), *path = NULL;
  if (rel) {
    rel[strcspn(rel, "\n")] = '\0';
    path = xasprintf("%s/%s", top, rel);
  }
  static const char *const inputs[] = { "in.f90", "in.c" };
  for (size_t i = 0; !path && i < 2; i++) {
    char *try = xasprintf("%s/%s", dir, inputs[i]);
    FILE *f = fopen(try, "r");
    if (f) {
      fclose(f);
      path = try;
    } else
      free(try);
  }
  /* The cases translated with options, and inputs with macros (the
   * driver preprocesses C, this test does not), are the goldens' alone. */
  char *args = xasprintf("%s/args", dir), *options = read_file(args);
  char *text = path ? read_file(path) : NULL;
  if (options || (text && strstr(text, "#define"))) {
    free(path);
    path = NULL;
  }
  free(options);
  free(args);
  free(text);
  int n = 0;
  size_t pl = path ? strlen(path) : 0;
  bool fortran = pl > 4 && !strcmp(path + pl - 4, ".f90");
  bool c = pl > 2 && !strcmp(path + pl - 2, ".c");
  if (fortran || c) {
    char *src = read_file(path);
    ck_assert_msg(src != NULL, "cannot read %s", path);
    n = check_abi(fortran ? IR_FORTRAN : IR_C, name, src);
    free(src);
    report_clear();
    ir_arena_free();
    diag_reset();
  }
  free(path);
  free(rel);
  free(source);
  free(dir);
  return n;
}

START_TEST(test_abi_agrees_golden)
{
  const char *top = getenv("top_srcdir") ? getenv("top_srcdir") : "..";
  char *gen = xasprintf("%s/tests/golden/gen", top);
  DIR *d = opendir(gen);
  ck_assert_msg(d != NULL, "no %s (set top_srcdir)", gen);
  int cases = 0, functions = 0;
  for (struct dirent *e; (e = readdir(d));) {
    if (e->d_name[0] == '.')
      continue;
    int n = check_golden_case(top, e->d_name);
    cases += n > 0;
    functions += n;
  }
  closedir(d);
  free(gen);
  ck_assert_int_ge(cases, 15);
  ck_assert_int_ge(functions, cases);
}
END_TEST

static Suite *storage_suite(void)
{
  Suite *s = suite_create("storage");
  TCase *t = tcase_create("array_storage");
  tcase_add_loop_test(t, test_array_storage, 0,
                      (int)(sizeof storage_cases / sizeof *storage_cases));
  suite_add_tcase(s, t);
  int nprograms = (int)(sizeof program_cases / sizeof *program_cases);
  t = tcase_create("kernel_params");
  tcase_add_checked_fixture(t, setup, teardown);
  tcase_add_loop_test(t, test_kernel_params, 0, nprograms);
  tcase_add_test(t, test_dump_storage);
  suite_add_tcase(s, t);
  t = tcase_create("abi_agrees");
  tcase_add_checked_fixture(t, setup, teardown);
  tcase_set_timeout(t, 60);
  tcase_add_loop_test(t, test_abi_agrees_programs, 0, nprograms);
  tcase_add_test(t, test_abi_agrees_c_data_update);
  tcase_add_test(t, test_abi_agrees_fortran_kinds);
  tcase_add_test(t, test_abi_agrees_golden);
  suite_add_tcase(s, t);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(storage_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
