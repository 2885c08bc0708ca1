/* s2s_compare.c — compare two output dumps element by element.
 *
 *   s2s_compare REF OUT [--rtol [NAME=]R] [--atol [NAME=]A] [--scale [NAME=]MAG] [--exact]
 *
 * REF is the dump of the original program, OUT the dump of its translation
 * (samples/common/s2s_dump.h writes them).  Format, no file header; one
 * record per array:
 *
 *   offset  size  field
 *        0    32  name, ASCII, padded with blanks
 *       32     4  int32 type code: 1 real(4), 2 real(8), 3 int32
 *       36     8  int64 element count n
 *       44     *  the n elements, raw, in the machine's byte order
 *
 * Both dumps must hold the same arrays in the same order with the same types
 * and counts.  Every element is compared:
 *
 *   ok  when  out == ref, both NaN, or |ref - out| <= atol + rtol * max(|ref|, m)
 *
 * Tolerances, for real arrays (integer arrays must match exactly):
 *   rtol  --rtol NAME=R for array NAME, else --rtol R, else $S2S_RTOL,
 *         else 1e-5 for real(4) and 1e-12 for real(8);
 *   atol  --atol NAME=A, else --atol A, else $S2S_ATOL,
 *         else rtol * max|ref| over the array;
 *   m     the magnitude of the values that entered the element (cancellation,
 *         below): --scale NAME=MAG, else --scale MAG, else 0.  MAG is a
 *         number, or the name of an array of REF with as many elements,
 *         whose |element| at the same index is m.
 * The scaled default atol is there because rounding errors follow the size
 * of the operands, not of the result: a tendency that is the small
 * difference of 300 K temperatures can be off by far more than rtol times
 * itself while being right to the last bit of its inputs.  That default
 * fails a field that is small everywhere: tend = kappa * (t(i+1) - 2 t(i) +
 * t(i-1)) of temperatures near 300 K is off by about 1e-16 * 300 * kappa
 * under FMA contraction while the whole field is of the order of 1e-5 *
 * kappa, so rtol times its own maximum is far below the rounding of its
 * operands.  --scale names those operands' size: the error of a difference
 * is judged against the magnitude of the terms that cancelled, a number
 * (--scale tend=300 for products of 300 K temperatures with a coefficient
 * near 1) or, element by element, an array of the dump (--scale tend=t, or
 * better a companion array the program writes with sum |term| per element,
 * tend_mag).  A real error is still one beyond rtol of the operands.
 * --exact sets
 * both to 0 (emulation of a translation that keeps the order of operations
 * should reproduce the original bit for bit).  NaN on one side only is a
 * mismatch wherever it is.
 *
 * Prints one line per array, up to 5 offending elements per differing array
 * (0-based element index in memory order), and a final verdict line
 * "VERIFICATION PASSED: ..." or "VERIFICATION FAILED: ...".
 * Exit status: 0 passed, 1 failed, 2 usage error or malformed/unreadable file.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* fileno, fstat */
#endif
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { NAME_LEN = 32, HEADER_LEN = NAME_LEN + 4 + 8, SHOW_MAX = 5 };
enum { TYPE_REAL4 = 1, TYPE_REAL8 = 2, TYPE_INT32 = 3 };

/* One open dump, read record by record. */
typedef struct Dump {
  const char *path;
  FILE *f;
  long long size, pos; /* bytes in the file, bytes consumed */
  long long record;    /* where the current record starts */
} Dump;

/* One record's header. */
typedef struct Record {
  char name[NAME_LEN + 1]; /* trailing blanks removed */
  int32_t type;
  int64_t count;
} Record;

/* A tolerance given by option or environment; for one array when name is set. */
typedef struct TolSetting {
  const char *name;     /* NULL: every array */
  bool rtol_set, atol_set;
  double rtol, atol;
  const char *scale;    /* --scale: a number or the name of an array of REF; NULL if not set */
} TolSetting;

enum { TOL_MAX = 64 };

/* Every tolerance setting: [0] from the environment, [1] from --rtol/--atol
 * without a name, then one per array named in an option.  --exact wins. */
typedef struct Tolerance {
  bool exact;
  int n;
  TolSetting set[TOL_MAX];
} Tolerance;

/* One element beyond tolerance, kept to be shown. */
typedef struct Offender {
  long long index;
  double ref, out, abs_err;
} Offender;

/* What comparing one array found. */
typedef struct ArrayResult {
  double max_abs, max_rel;
  long long bad;              /* elements beyond tolerance */
  double rtol, atol;          /* the tolerance applied */
  const char *scale;          /* --scale applied (a number or an array of REF), or NULL */
  Offender shown[SHOW_MAX];   /* the first min(bad, SHOW_MAX) of them */
} ArrayResult;

static void malformed(const Dump *d, const char *what)
{
  fprintf(stderr, "s2s_compare: %s: malformed dump, record at byte %lld: %s\n", d->path, d->record,
          what);
  exit(2);
}

static void dump_open(Dump *d, const char *path)
{
  struct stat st;
  d->path = path;
  d->pos = d->record = 0;
  d->f = fopen(path, "rb");
  if (!d->f || fstat(fileno(d->f), &st) != 0) {
    fprintf(stderr, "s2s_compare: cannot read %s: %s\n", path, strerror(errno));
    exit(2);
  }
  d->size = (long long)st.st_size;
  if (d->size == 0)
    malformed(d, "empty file (the program wrote no arrays)");
}

static void dump_read(Dump *d, void *buf, size_t bytes, const char *what)
{
  if (bytes && fread(buf, 1, bytes, d->f) != bytes)
    malformed(d, what);
  d->pos += (long long)bytes;
}

static const char *type_name(int32_t type)
{
  switch (type) {
  case TYPE_REAL4: return "real4";
  case TYPE_REAL8: return "real8";
  case TYPE_INT32: return "int32";
  default: return "?";
  }
}

static size_t type_size(int32_t type)
{
  return type == TYPE_REAL8 ? 8 : 4;
}

/* Read the next record header into *r; false at a clean end of file. */
static bool record_next(Dump *d, Record *r)
{
  d->record = d->pos;
  if (d->pos == d->size)
    return false;
  if (d->size - d->pos < HEADER_LEN)
    malformed(d, "truncated record header");
  dump_read(d, r->name, NAME_LEN, "truncated name");
  r->name[NAME_LEN] = '\0';
  for (int i = NAME_LEN - 1; i >= 0 && (r->name[i] == ' ' || r->name[i] == '\0'); i--)
    r->name[i] = '\0';
  dump_read(d, &r->type, sizeof r->type, "truncated type code");
  dump_read(d, &r->count, sizeof r->count, "truncated element count");
  if (r->type != TYPE_REAL4 && r->type != TYPE_REAL8 && r->type != TYPE_INT32)
    malformed(d, "unknown type code (want 1 real4, 2 real8, 3 int32)");
  if (r->count < 0 || (unsigned long long)r->count > (unsigned long long)(d->size - d->pos) / type_size(r->type))
    malformed(d, "element count runs past the end of the file");
  return true;
}

/* The record's data, malloc'ed; the caller frees it. */
static void *record_data(Dump *d, const Record *r)
{
  size_t bytes = (size_t)r->count * type_size(r->type);
  void *p = malloc(bytes ? bytes : 1);
  if (!p) {
    fprintf(stderr, "s2s_compare: out of memory for array '%s' (%zu bytes)\n", r->name, bytes);
    exit(2);
  }
  dump_read(d, p, bytes, "truncated data");
  return p;
}

static double element(const void *a, int32_t type, int64_t i)
{
  switch (type) {
  case TYPE_REAL4: return ((const float *)a)[i];
  case TYPE_REAL8: return ((const double *)a)[i];
  default: return ((const int32_t *)a)[i];
  }
}

static void print_value(int32_t type, double v)
{
  if (type == TYPE_INT32)
    printf("%.0f", v);
  else
    printf(type == TYPE_REAL4 ? "%.9g" : "%.17g", v);
}

/* The tolerance for array `name` of `type` whose largest finite |ref| is
 * `scale`: the last setting that applies wins (they are stored from the
 * most general to the most specific). */
static void tolerance_for(const Tolerance *tol, const char *name, int32_t type, double scale,
                          ArrayResult *res)
{
  bool rtol_set = false, atol_set = false;
  res->rtol = res->atol = 0.0;
  res->scale = NULL;
  if (tol->exact || type == TYPE_INT32)
    return;
  for (int i = 0; i < tol->n; i++) {
    const TolSetting *t = &tol->set[i];
    if (t->name && strcmp(t->name, name))
      continue;
    if (t->rtol_set)
      res->rtol = t->rtol, rtol_set = true;
    if (t->atol_set)
      res->atol = t->atol, atol_set = true;
  }
  if (!rtol_set)
    res->rtol = type == TYPE_REAL4 ? 1e-5 : 1e-12;
  for (int i = 0; i < tol->n; i++)
    if (tol->set[i].scale && (!tol->set[i].name || !strcmp(tol->set[i].name, name)))
      res->scale = tol->set[i].scale;
  if (!atol_set)
    res->atol = res->rtol * scale;
}

static double max_abs_finite(const void *a, int32_t type, int64_t n)
{
  double m = 0.0;
  for (int64_t i = 0; i < n; i++) {
    double v = fabs(element(a, type, i));
    if (isfinite(v) && v > m)
      m = v;
  }
  return m;
}

/* Compare element i, whose operands had magnitude `mag`; returns true when it
 * is within tolerance. */
static bool element_ok(double r, double o, double mag, const ArrayResult *res, double *abs_err)
{
  *abs_err = 0.0;
  if (r == o || (isnan(r) && isnan(o)))
    return true;
  *abs_err = fabs(r - o);
  if (!isfinite(r) || !isfinite(o)) /* NaN on one side, inf against another value */
    return false;
  return *abs_err <= res->atol + res->rtol * fmax(fabs(r), mag);
}

/* The magnitudes of --scale MAG for an array of `count` elements: *number set
 * and NULL returned when MAG is a number, else array MAG of REF (malloc'ed,
 * its type in *type; the caller frees it).  A missing array, or one of
 * another size, is a usage error. */
static void *scale_values(const char *ref_path, const char *mag, int64_t count, double *number,
                          int32_t *type)
{
  char *end;
  errno = 0;
  *number = strtod(mag, &end);
  if (!errno && end != mag && !*end && *number >= 0.0 && isfinite(*number))
    return NULL;
  *number = 0.0;
  Dump d;
  Record r;
  dump_open(&d, ref_path);
  while (record_next(&d, &r)) {
    if (strcmp(r.name, mag)) {
      if (fseek(d.f, (long)(r.count * (int64_t)type_size(r.type)), SEEK_CUR) != 0)
        malformed(&d, "truncated data");
      d.pos += r.count * (int64_t)type_size(r.type);
      continue;
    }
    if (r.count != count) {
      fprintf(stderr, "s2s_compare: --scale %s: %s has %lld elements, the array judged %lld\n", mag,
              mag, (long long)r.count, (long long)count);
      exit(2);
    }
    *type = r.type;
    void *v = record_data(&d, &r);
    fclose(d.f);
    return v;
  }
  fprintf(stderr, "s2s_compare: --scale %s: no array '%s' in %s (and not a number >= 0)\n", mag, mag,
          ref_path);
  exit(2);
}

static void compare_array(const Record *rec, const void *ref, const void *out, const Tolerance *tol,
                          const char *ref_path, ArrayResult *res)
{
  res->max_abs = res->max_rel = 0.0;
  res->bad = 0;
  tolerance_for(tol, rec->name, rec->type, max_abs_finite(ref, rec->type, rec->count), res);
  double mag = 0.0;
  int32_t mag_type = TYPE_REAL8;
  void *mags = res->scale ? scale_values(ref_path, res->scale, rec->count, &mag, &mag_type) : NULL;
  for (int64_t i = 0; i < rec->count; i++) {
    double r = element(ref, rec->type, i), o = element(out, rec->type, i), err;
    if (mags)
      mag = fabs(element(mags, mag_type, i));
    bool ok = element_ok(r, o, isfinite(mag) ? mag : 0.0, res, &err);
    if (!ok && !isfinite(err))
      err = INFINITY;
    if (err > res->max_abs)
      res->max_abs = err;
    if (r != 0.0 && err / fabs(r) > res->max_rel)
      res->max_rel = err / fabs(r);
    if (!ok && res->bad < SHOW_MAX)
      res->shown[res->bad] = (Offender){(long long)i, r, o, err};
    res->bad += !ok;
  }
  free(mags);
}

/* The array's line, then its first offending elements. */
static void report_array(const Record *rec, const ArrayResult *res)
{
  printf("%s: %lld elements, max abs err %.3g, max rel err %.3g: ", rec->name, (long long)rec->count,
         res->max_abs, res->max_rel);
  if (!res->bad) {
    printf("ok\n");
    return;
  }
  printf("MISMATCH, %lld of %lld elements beyond tolerance (rtol %g, atol %g%s%s); first ones, "
         "0-based:\n", res->bad, (long long)rec->count, res->rtol, res->atol,
         res->scale ? ", scale " : "", res->scale ? res->scale : "");
  for (long long k = 0; k < res->bad && k < SHOW_MAX; k++) {
    const Offender *e = &res->shown[k];
    printf("  %s[%lld]: ref ", rec->name, e->index);
    print_value(rec->type, e->ref);
    printf(", out ");
    print_value(rec->type, e->out);
    printf(", abs err %.3g\n", e->abs_err);
  }
}

/* Same name, type and count in both dumps?  Says what differs if not. */
static bool same_shape(const Record *r, const Record *o, int index)
{
  if (!strcmp(r->name, o->name) && r->type == o->type && r->count == o->count)
    return true;
  printf("array %d: REF has '%s' (%s, %lld elements), OUT has '%s' (%s, %lld elements)\n", index + 1,
         r->name, type_name(r->type), (long long)r->count, o->name, type_name(o->type),
         (long long)o->count);
  return false;
}

static double parse_tol(const char *what, const char *s)
{
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (errno || end == s || *end || !(v >= 0.0) || isinf(v)) {
    fprintf(stderr, "s2s_compare: bad %s '%s' (want a number >= 0)\n", what, s);
    exit(2);
  }
  return v;
}

static void usage(void)
{
  fprintf(stderr,
          "usage: s2s_compare REF OUT [--rtol [NAME=]R] [--atol [NAME=]A] [--scale [NAME=]MAG]\n"
          "                   [--exact]\n"
          "  element ok when |ref-out| <= atol + rtol*max(|ref|, m) (or both NaN)\n"
          "  rtol: --rtol NAME=R, --rtol R, $S2S_RTOL, else 1e-5 (real4) / 1e-12 (real8)\n"
          "  atol: --atol NAME=A, --atol A, $S2S_ATOL, else rtol * max|ref| of the array\n"
          "  m: the magnitude of the operands (cancellation): --scale NAME=MAG, --scale MAG,\n"
          "     else 0; MAG a number, or an array of REF of the same size (|MAG[i]|)\n"
          "  integer arrays are compared exactly; --exact compares everything exactly\n"
          "  exit 0 passed, 1 failed, 2 usage or malformed file\n");
  exit(2);
}

/* The setting an option `[NAME=]VALUE` changes: [1] without a name, else
 * the one of that array (added at the end, so that it is the most specific). */
static TolSetting *setting_for(Tolerance *tol, char *arg, char **value)
{
  char *eq = strchr(arg, '=');
  if (!eq) {
    *value = arg;
    return &tol->set[1];
  }
  if (tol->n == TOL_MAX) {
    fprintf(stderr, "s2s_compare: more than %d tolerance options\n", TOL_MAX - 2);
    exit(2);
  }
  *eq = '\0';
  *value = eq + 1;
  tol->set[tol->n].name = arg;
  return &tol->set[tol->n++];
}

/* `--scale [NAME=]MAG`: checked when an array uses it (MAG may name an array). */
static void scale_option(Tolerance *tol, char *arg)
{
  char *value;
  TolSetting *t = setting_for(tol, arg, &value);
  if (!*value) {
    fprintf(stderr, "s2s_compare: --scale needs a number or an array name\n");
    exit(2);
  }
  t->scale = value;
}

/* `--rtol [NAME=]R` or `--atol [NAME=]A`, with `arg` the part after the option. */
static void tol_option(Tolerance *tol, bool is_rtol, char *arg)
{
  char *value;
  TolSetting *t = setting_for(tol, arg, &value);
  double v = parse_tol(is_rtol ? "--rtol" : "--atol", value);
  if (is_rtol)
    t->rtol = v, t->rtol_set = true;
  else
    t->atol = v, t->atol_set = true;
}

/* Options override the environment, which overrides the defaults. */
static void parse_args(int argc, char **argv, const char **paths, Tolerance *tol)
{
  const char *env_r = getenv("S2S_RTOL"), *env_a = getenv("S2S_ATOL");
  int npaths = 0;

  memset(tol, 0, sizeof *tol);
  tol->n = 2;
  if (env_r && *env_r)
    tol->set[0].rtol = parse_tol("S2S_RTOL", env_r), tol->set[0].rtol_set = true;
  if (env_a && *env_a)
    tol->set[0].atol = parse_tol("S2S_ATOL", env_a), tol->set[0].atol_set = true;
  for (int i = 1; i < argc; i++) {
    if ((!strcmp(argv[i], "--rtol") || !strcmp(argv[i], "--atol")) && i + 1 < argc) {
      tol_option(tol, argv[i][2] == 'r', argv[i + 1]);
      i++;
    } else if (!strncmp(argv[i], "--rtol=", 7) || !strncmp(argv[i], "--atol=", 7))
      tol_option(tol, argv[i][2] == 'r', argv[i] + 7);
    else if (!strcmp(argv[i], "--scale") && i + 1 < argc)
      scale_option(tol, argv[++i]);
    else if (!strncmp(argv[i], "--scale=", 8))
      scale_option(tol, argv[i] + 8);
    else if (!strcmp(argv[i], "--exact"))
      tol->exact = true;
    else if (argv[i][0] == '-' && argv[i][1])
      usage();
    else if (npaths < 2)
      paths[npaths++] = argv[i];
    else
      usage();
  }
  if (npaths != 2)
    usage();
}

int main(int argc, char **argv)
{
  const char *paths[2];
  Tolerance tol;
  Dump ref, out;
  Record rr, ro;
  long long arrays = 0, bad_arrays = 0, elements = 0, bad_elements = 0;
  bool shape_ok = true;

  setvbuf(stdout, NULL, _IOLBF, 0); /* keep the report in order with errors on stderr */
  parse_args(argc, argv, paths, &tol);
  dump_open(&ref, paths[0]);
  dump_open(&out, paths[1]);
  for (;;) {
    bool more_ref = record_next(&ref, &rr), more_out = record_next(&out, &ro);
    if (!more_ref && !more_out)
      break;
    if (more_ref != more_out) {
      printf("array %lld: %s has '%s', %s has no more arrays\n", arrays + 1,
             more_ref ? "REF" : "OUT", more_ref ? rr.name : ro.name, more_ref ? "OUT" : "REF");
      shape_ok = false;
      break;
    }
    if (!same_shape(&rr, &ro, (int)arrays)) {
      shape_ok = false;
      break;
    }
    void *a = record_data(&ref, &rr), *b = record_data(&out, &ro);
    ArrayResult res;
    compare_array(&rr, a, b, &tol, paths[0], &res);
    free(a);
    free(b);
    report_array(&rr, &res);
    arrays++;
    elements += rr.count;
    bad_arrays += res.bad != 0;
    bad_elements += res.bad;
  }
  fclose(ref.f);
  fclose(out.f);

  if (shape_ok && bad_arrays == 0) {
    printf("VERIFICATION PASSED: %lld arrays, %lld elements\n", arrays, elements);
    return 0;
  }
  if (!shape_ok)
    printf("VERIFICATION FAILED: %s and %s do not hold the same arrays (%lld compared before that, "
           "%lld differ)\n", paths[0], paths[1], arrays, bad_arrays);
  else
    printf("VERIFICATION FAILED: %lld of %lld arrays differ, %lld of %lld elements beyond tolerance\n",
           bad_arrays, arrays, bad_elements, elements);
  return 1;
}
