/* check_options.c — unit tests of the command line (options.c) and of the
 * input helpers in source.c (fixed-form detection, preprocessor markers).
 *
 * Usage errors must end the program with status 2: those tests run in the
 * forked child that check gives each test and exit with the status main()
 * would use, checked with tcase_add_exit_test.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream, mkdtemp */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "options.h"
#include "source.h"

/* ---- helpers ------------------------------------------------------------- */

static char *out_text, *err_text;
static size_t out_len, err_len;
static FILE *out, *err;
static Options opts;

static void setup(void) {
  out = open_memstream(&out_text, &out_len);
  err = open_memstream(&err_text, &err_len);
  memset(&opts, 0, sizeof opts);
}

static void teardown(void) {
  options_free(&opts);
  fclose(out);
  fclose(err);
  free(out_text);
  free(err_text);
  out_text = err_text = NULL;
}

/* Parse a NULL-terminated list of arguments (argv[0] is added). */
static OptionsResult parse_v(const char *const *args) {
  static char *argv[64];
  int argc = 0;
  argv[argc++] = "s2s-cuda";
  for (; *args; args++) argv[argc++] = (char *)*args;
  argv[argc] = NULL;
  OptionsResult r = options_parse(&opts, argc, argv, out, err);
  fflush(out);
  fflush(err);
  return r;
}
#define parse(...) parse_v((const char *const[]){ __VA_ARGS__, NULL })

static const char *errors(void) { return err_text ? err_text : ""; }

/* ---- good command lines ------------------------------------------------------ */

START_TEST(test_defaults) {
  ck_assert_int_eq(parse("wsm5.f90"), OPTIONS_OK);
  ck_assert_int_eq(opts.ninputs, 1);
  ck_assert_str_eq(opts.inputs[0].path, "wsm5.f90");
  ck_assert_int_eq(opts.inputs[0].kind, INPUT_FORTRAN);
  ck_assert(!opts.inputs[0].cpp);
  ck_assert(!opts.driver);
  ck_assert(!opts.minfo);
  ck_assert(!opts.relaxed_fp);  /* IEEE unless asked */
  ck_assert_ptr_null(opts.output);
  ck_assert_ptr_null(opts.dump_ir);
  ck_assert_str_eq(errors(), "");
}
END_TEST

/* The language (and the preprocessor) from the extension. */
static const struct {
  const char *name;
  int kind;
  bool cpp;
} extensions[] = {
  { "a.f90", INPUT_FORTRAN, false },  { "a.f95", INPUT_FORTRAN, false },
  { "a.f03", INPUT_FORTRAN, false },  { "a.f08", INPUT_FORTRAN, false },
  { "a.F90", INPUT_FORTRAN, true },   { "a.F95", INPUT_FORTRAN, true },
  { "a.F", INPUT_FORTRAN, true },     { "dir.x/a.c", INPUT_C, false },
  { "a.f", INPUT_FIXED_FORM, false }, { "a.for", INPUT_FIXED_FORM, false },
  { "a.ftn", INPUT_FIXED_FORM, false }, { "a.o", INPUT_LINK, false },
  { "liba.a", INPUT_LINK, false },    { "liba.so", INPUT_LINK, false },
  { "a.txt", -1, false },             { "dir.f90/noext", -1, false },
  { ".f90", -1, false },
};

START_TEST(test_kind_of) {
  bool cpp = true;
  ck_assert_msg(options_kind_of(extensions[_i].name, &cpp) == extensions[_i].kind, "%s",
                extensions[_i].name);
  ck_assert_msg(cpp == extensions[_i].cpp, "%s: cpp", extensions[_i].name);
}
END_TEST

START_TEST(test_preprocessor_options) {
  ck_assert_int_eq(parse("-D", "A", "-DB=2", "-I", "inc", "-Iother", "-U", "C", "x.F90"), OPTIONS_OK);
  ck_assert_int_eq(opts.cpp_args.n, 5);
  ck_assert_str_eq(opts.cpp_args.v[0], "-DA");
  ck_assert_str_eq(opts.cpp_args.v[1], "-DB=2");
  ck_assert_str_eq(opts.cpp_args.v[2], "-Iinc");
  ck_assert_str_eq(opts.cpp_args.v[3], "-Iother");
  ck_assert_str_eq(opts.cpp_args.v[4], "-UC");
  ck_assert(opts.inputs[0].cpp);
}
END_TEST

START_TEST(test_cpp_flags) {
  ck_assert_int_eq(parse("a.f90", "-cpp", "b.F90", "c.c"), OPTIONS_OK);
  ck_assert(opts.inputs[0].cpp && opts.inputs[1].cpp && opts.inputs[2].cpp);
  options_free(&opts);
  ck_assert_int_eq(parse("-nocpp", "b.F90"), OPTIONS_OK);
  ck_assert(!opts.inputs[0].cpp);
}
END_TEST

/* -Minfo categories as NVHPC spells them: a comma list; a bare -Minfo is all. */
static const struct {
  const char *arg;
  unsigned categories;
} minfo_cases[] = {
  { "-Minfo", MINFO_ALL },
  { "-Minfo=all", MINFO_ALL },
  { "-Minfo=accel", MINFO_ACCEL },
  { "-Minfo=inline", MINFO_INLINE },
  { "-Minfo=loop", MINFO_LOOP },
  { "-Minfo=accel,loop", MINFO_ACCEL | MINFO_LOOP },
  { "-Minfo=inline,accel,inline", MINFO_ACCEL | MINFO_INLINE },
  { "-Minfo=accel,ccff", MINFO_ACCEL },   /* NVHPC's others select nothing */
  { "-Minfo=ftn", 0 },
};

START_TEST(test_minfo_categories) {
  ck_assert_int_eq(parse(minfo_cases[_i].arg, "x.f90"), OPTIONS_OK);
  ck_assert_uint_eq(opts.minfo_categories, minfo_cases[_i].categories);
  ck_assert(opts.minfo == (minfo_cases[_i].categories != 0));
  options_free(&opts);
}
END_TEST

START_TEST(test_report_options) {
  ck_assert_int_eq(parse("-Minfo", "--report=json", "r.json", "--dump-ir=plan", "x.c"), OPTIONS_OK);
  ck_assert(opts.minfo);
  ck_assert_str_eq(opts.report_json, "r.json");
  ck_assert_str_eq(opts.dump_ir, "plan");
  ck_assert_int_eq(opts.ninputs, 1);
  options_free(&opts);
  ck_assert_int_eq(parse("-Minfo=accel", "--report-json=-", "--dump-ir=parse", "x.c"), OPTIONS_OK);
  ck_assert(opts.minfo);
  ck_assert_str_eq(opts.report_json, "-");
  ck_assert_str_eq(opts.dump_ir, "parse");
  ck_assert_ptr_null(opts.report_sarif);
  options_free(&opts);
  ck_assert_int_eq(parse("--report=sarif", "r.sarif", "--report=json", "r.json", "x.c"), OPTIONS_OK);
  ck_assert_str_eq(opts.report_sarif, "r.sarif");
  ck_assert_str_eq(opts.report_json, "r.json");
  ck_assert(!opts.minfo);
  options_free(&opts);
  ck_assert_int_eq(parse("--report-sarif=-", "x.c"), OPTIONS_OK);
  ck_assert_str_eq(opts.report_sarif, "-");
  options_free(&opts);
  /* -Werror is ours and the host compilers'; --no-line-directives */
  ck_assert_int_eq(parse("-Werror", "--no-line-directives", "x.c"), OPTIONS_OK);
  ck_assert(opts.werror && opts.no_line_directives);
  ck_assert_int_eq(opts.compiler_args.n, 1);
  ck_assert_str_eq(opts.compiler_args.v[0], "-Werror");
  options_free(&opts);
  ck_assert_int_eq(parse("-Werror", "-Wno-error", "x.c"), OPTIONS_OK);
  ck_assert(!opts.werror && !opts.no_line_directives);
  options_free(&opts);
  /* every pass of the table can be dumped after */
  static const char *const pass[] = { "parse", "inline", "accesses", "group", "columnize", "fuse",
                                      "map", "storage", "emit-cuda", "emit-host" };
  for (size_t i = 0; i < sizeof pass / sizeof *pass; i++) {
    options_free(&opts);
    char *arg = xasprintf("--dump-ir=%s", pass[i]);
    ck_assert_int_eq(parse(arg, "x.c"), OPTIONS_OK);
    ck_assert_str_eq(opts.dump_ir, pass[i]);
    free(arg);
  }
}
END_TEST

/* --lang wins over the extension, wherever it is on the line. */
START_TEST(test_lang) {
  ck_assert_int_eq(parse("k.inc", "--lang=fortran", "k.c"), OPTIONS_OK);
  ck_assert_int_eq(opts.inputs[0].kind, INPUT_FORTRAN);
  ck_assert_int_eq(opts.inputs[1].kind, INPUT_FORTRAN);
  options_free(&opts);
  ck_assert_int_eq(parse("--lang=c", "k.f90", "z.o", "-o", "prog"), OPTIONS_OK);
  ck_assert_int_eq(opts.inputs[0].kind, INPUT_C);
  ck_assert_int_eq(opts.inputs[1].kind, INPUT_LINK);
}
END_TEST

START_TEST(test_fixed_form_flag) {
  ck_assert_int_eq(parse("-ffixed-form", "k.f90"), OPTIONS_OK);
  ck_assert_int_eq(opts.inputs[0].kind, INPUT_FIXED_FORM);
}
END_TEST

/* Flags for the compilers are kept, in order; -l/-L go to the link. */
START_TEST(test_passthrough) {
  ck_assert_int_eq(parse("-O2", "-g", "-Wall", "-fopenmp", "-march=native", "-std=f2008", "-J",
                         "mods", "-lfoo", "-L", "/opt/lib", "-l", "bar", "-pthread", "-MD", "-MP",
                         "-MF", ".deps/x.Tpo", "-MTx.o", "x.f90", "-o", "prog"),
                   OPTIONS_OK);
  /* the dependency options are the driver's own (options.h: deps) */
  const char *want[] = { "-O2", "-g", "-Wall", "-fopenmp", "-march=native", "-std=f2008",
                         "-Jmods", "-pthread" };
  int nwant = (int)(sizeof want / sizeof *want);
  ck_assert_int_eq(opts.compiler_args.n, nwant);
  for (int i = 0; i < nwant; i++) ck_assert_str_eq(opts.compiler_args.v[i], want[i]);
  ck_assert_int_eq(opts.link_args.n, 3);
  ck_assert_str_eq(opts.link_args.v[0], "-lfoo");
  ck_assert_str_eq(opts.link_args.v[1], "-L/opt/lib");
  ck_assert_str_eq(opts.link_args.v[2], "-lbar");
  ck_assert(opts.driver);
}
END_TEST

/* -Munroll: 4 copies; -Munroll=N: N (1: none). */
START_TEST(test_unroll) {
  ck_assert_int_eq(parse("-Munroll", "x.f90"), OPTIONS_OK);
  ck_assert_int_eq(opts.unroll, 4);
  options_free(&opts);
  ck_assert_int_eq(parse("-Munroll=8", "x.f90"), OPTIONS_OK);
  ck_assert_int_eq(opts.unroll, 8);
  options_free(&opts);
  ck_assert_int_eq(parse("-Munroll=1", "x.f90"), OPTIONS_OK);
  ck_assert_int_eq(opts.unroll, 0);
  options_free(&opts);
  ck_assert_int_eq(parse("x.f90"), OPTIONS_OK);
  ck_assert_int_eq(opts.unroll, 0);
}
END_TEST

/* -Mcoarsen=N: N points per thread forced; -Mnocoarsen and -Mcoarsen=1: off;
 * -Mcoarsen: the cost rule (the default), also after either. */
START_TEST(test_coarsen) {
  ck_assert_int_eq(parse("x.f90"), OPTIONS_OK);
  ck_assert_int_eq(opts.coarsen, 0);
  options_free(&opts);
  ck_assert_int_eq(parse("-Mcoarsen=4", "x.f90"), OPTIONS_OK);
  ck_assert_int_eq(opts.coarsen, 4);
  options_free(&opts);
  ck_assert_int_eq(parse("-Mnocoarsen", "x.f90"), OPTIONS_OK);
  ck_assert_int_eq(opts.coarsen, 1);
  options_free(&opts);
  ck_assert_int_eq(parse("-Mcoarsen=1", "x.f90"), OPTIONS_OK);
  ck_assert_int_eq(opts.coarsen, 1);
  options_free(&opts);
  ck_assert_int_eq(parse("-Mcoarsen=2", "-Mcoarsen", "x.f90"), OPTIONS_OK);
  ck_assert_int_eq(opts.coarsen, 0);
}
END_TEST

/* gcc's dependency options: -MD/-MMD while compiling, -M/-MM (and -E)
 * make the command a passthrough to the host compiler. */
static const struct {
  const char *args[7];
  bool md, mmd, m, mm, mp, e;
  const char *mf, *targets; /* targets: glued, joined by ' ' */
} dep_lines[] = {
  { { "-c", "-MD", "x.f90" }, true, false, false, false, false, false, NULL, "" },
  { { "-c", "-MMD", "-MP", "-MF", "d/x.d", "x.f90" }, false, true, false, false, true, false, "d/x.d", "" },
  { { "-c", "-MD", "-MT", "a b", "-MQcost$", "x.f90" }, true, false, false, false, false, false, NULL,
    "-MTa b -MQcost$" },
  { { "-M", "x.F90" }, false, false, true, false, false, false, NULL, "" },
  { { "-MM", "-MTo.o", "x.c" }, false, false, false, true, false, false, NULL, "-MTo.o" },
  { { "-cpp", "-E", "x.f90", "-o", "x-pp.f90" }, false, false, false, false, false, true, NULL, "" },
};

START_TEST(test_dependency_options) {
  const char *argv[8];
  int n = 0;
  for (; n < 7 && dep_lines[_i].args[n]; n++) argv[n] = dep_lines[_i].args[n];
  argv[n] = NULL;
  ck_assert_int_eq(parse_v(argv), OPTIONS_OK);
  ck_assert_int_eq(opts.deps.md, dep_lines[_i].md);
  ck_assert_int_eq(opts.deps.mmd, dep_lines[_i].mmd);
  ck_assert_int_eq(opts.deps.m, dep_lines[_i].m);
  ck_assert_int_eq(opts.deps.mm, dep_lines[_i].mm);
  ck_assert_int_eq(opts.deps.mp, dep_lines[_i].mp);
  ck_assert_int_eq(opts.preprocess_only, dep_lines[_i].e);
  ck_assert_int_eq(options_passthrough(&opts), dep_lines[_i].m || dep_lines[_i].mm || dep_lines[_i].e);
  ck_assert(opts.driver); /* -c, or a passthrough (whose -o is a file, never a directory) */
  if (dep_lines[_i].mf) ck_assert_str_eq(opts.deps.mf, dep_lines[_i].mf);
  else ck_assert_ptr_null(opts.deps.mf);
  char joined[128] = "";
  for (int i = 0; i < opts.deps.targets.n; i++)
    snprintf(joined + strlen(joined), sizeof joined - strlen(joined), "%s%s", i ? " " : "",
             opts.deps.targets.v[i]);
  ck_assert_str_eq(joined, dep_lines[_i].targets);
  ck_assert_int_eq(opts.compiler_args.n, 0); /* none of them reaches the compile commands */
  ck_assert_str_eq(errors(), "");
}
END_TEST

/* The precision of the defaults: gfortran's flags and NVHPC's -r8 (both);
 * kept for the host compiler, which build_driver.c spells for it. */
static const struct {
  const char *args[4];
  bool real8, double8;
  int ncompiler_args;
} precision_lines[] = {
  { { "-fdefault-real-8", "x.f90" }, true, false, 1 },
  { { "-fdefault-real-8", "-fdefault-double-8", "x.f90" }, true, true, 2 },
  { { "-fdefault-double-8", "x.f90" }, false, true, 1 },
  { { "-r8", "-c", "x.f90" }, true, true, 1 },
  { { "-r4", "-i4", "x.f90" }, false, false, 0 },
  { { "-O2", "x.f90" }, false, false, 1 },
};

START_TEST(test_precision_options) {
  const char *argv[5];
  int n = 0;
  for (; n < 4 && precision_lines[_i].args[n]; n++) argv[n] = precision_lines[_i].args[n];
  argv[n] = NULL;
  ck_assert_int_eq(parse_v(argv), OPTIONS_OK);
  ck_assert_int_eq(opts.default_real8, precision_lines[_i].real8);
  ck_assert_int_eq(opts.default_double8, precision_lines[_i].double8);
  ck_assert_int_eq(opts.compiler_args.n, precision_lines[_i].ncompiler_args);
  ck_assert_str_eq(errors(), "");
}
END_TEST

/* A one-dash option s2s-cuda does not know goes to the host compiler with
 * a note (NVHPC's -Mfree, Intel's -traceback); its value, if any, is not
 * mistaken for an input. */
START_TEST(test_vendor_options) {
  ck_assert_int_eq(parse("-Mfree", "-traceback", "-c", "x.f90", "-isystem", "/opt/inc"), OPTIONS_OK);
  ck_assert_int_eq(opts.compiler_args.n, 2);
  ck_assert_str_eq(opts.compiler_args.v[0], "-Mfree");
  ck_assert_str_eq(opts.compiler_args.v[1], "-traceback");
  ck_assert_int_eq(opts.cpp_args.n, 1);
  ck_assert_str_eq(opts.cpp_args.v[0], "-isystem/opt/inc");
  ck_assert_int_eq(opts.ninputs, 1);
  ck_assert_str_eq(errors(),
                   "s2s-cuda: note: '-Mfree' is not an s2s-cuda option; it is passed to the host compiler as it is\n"
                   "s2s-cuda: note: '-traceback' is not an s2s-cuda option; it is passed to the host compiler as it is\n");
}
END_TEST

START_TEST(test_double_dash) {
  ck_assert_int_eq(parse("-Minfo", "--", "-odd.f90"), OPTIONS_OK);
  ck_assert_int_eq(opts.ninputs, 1);
  ck_assert_str_eq(opts.inputs[0].path, "-odd.f90");
}
END_TEST

/* Relaxed floating point: PGI's spelling and gcc's, in either mode. */
static const struct {
  const char *args[4];
  bool relaxed, driver;
} relaxed_spellings[] = {
  { { "-Mfprelaxed", "x.f90" }, true, false },
  { { "--fast-math", "x.f90" }, true, false },
  { { "-Minfo", "x.f90", "-Mfprelaxed" }, true, false },
  { { "-c", "--fast-math", "x.f90" }, true, true },
  { { "-Minfo", "x.f90" }, false, false },
};

START_TEST(test_relaxed_fp) {
  const char *argv[5];
  int n = 0;
  for (; n < 4 && relaxed_spellings[_i].args[n]; n++) argv[n] = relaxed_spellings[_i].args[n];
  argv[n] = NULL;
  ck_assert_int_eq(parse_v(argv), OPTIONS_OK);
  ck_assert_int_eq(opts.relaxed_fp, relaxed_spellings[_i].relaxed);
  ck_assert_int_eq(opts.driver, relaxed_spellings[_i].driver);
  ck_assert_int_eq(opts.compiler_args.n, 0); /* not mistaken for a host compiler flag */
  ck_assert_str_eq(errors(), "");
}
END_TEST

/* Strict IEEE floating point: PGI's -Kieee and --strict-fp; -Knoieee, the
 * default said explicitly, undoes -Kieee and goes with -Mfprelaxed. */
static const struct {
  const char *args[5];
  bool strict, relaxed, driver;
} strict_spellings[] = {
  { { "-Kieee", "x.f90" }, true, false, false },
  { { "--strict-fp", "x.f90" }, true, false, false },
  { { "-Minfo", "x.f90", "-Kieee" }, true, false, false },
  { { "-c", "--strict-fp", "x.f90" }, true, false, true },
  { { "-Kieee", "--strict-fp", "x.f90" }, true, false, false },
  { { "-Knoieee", "x.f90" }, false, false, false },
  { { "-Kieee", "-Knoieee", "x.f90" }, false, false, false },
  { { "-Knoieee", "-Mfprelaxed", "x.f90" }, false, true, false },
  { { "-Minfo", "x.f90" }, false, false, false },
};

START_TEST(test_strict_fp) {
  const char *argv[6];
  int n = 0;
  for (; n < 5 && strict_spellings[_i].args[n]; n++) argv[n] = strict_spellings[_i].args[n];
  argv[n] = NULL;
  ck_assert_int_eq(parse_v(argv), OPTIONS_OK);
  ck_assert_int_eq(opts.strict_fp, strict_spellings[_i].strict);
  ck_assert_int_eq(opts.relaxed_fp, strict_spellings[_i].relaxed);
  ck_assert_int_eq(opts.driver, strict_spellings[_i].driver);
  ck_assert_int_eq(opts.compiler_args.n, 0); /* not mistaken for a host compiler flag */
  ck_assert_str_eq(errors(), "");
}
END_TEST

/* ---- the mode ------------------------------------------------------------------ */

START_TEST(test_mode) {
  char dir[] = "/tmp/check_options_XXXXXX";
  ck_assert_ptr_nonnull(mkdtemp(dir));
  ck_assert_int_eq(parse("x.f90", "-o", dir), OPTIONS_OK);
  ck_assert_msg(!opts.driver, "-o an existing directory: translation");
  options_free(&opts);
  ck_assert_int_eq(parse("x.f90", "-o", "not/yet/"), OPTIONS_OK);
  ck_assert_msg(!opts.driver, "-o DIR/: translation");
  options_free(&opts);
  ck_assert_int_eq(parse("x.f90", "-o", "prog"), OPTIONS_OK);
  ck_assert_msg(opts.driver, "-o FILE: driver");
  ck_assert_str_eq(opts.output, "prog");
  options_free(&opts);
  ck_assert_int_eq(parse("-c", "x.f90"), OPTIONS_OK);
  ck_assert(opts.driver && opts.compile_only);
  options_free(&opts);
  ck_assert_int_eq(parse("-c", "x.f90", "-ox.o"), OPTIONS_OK);
  ck_assert(opts.driver);
  ck_assert_str_eq(opts.output, "x.o");
  options_free(&opts);
  ck_assert_int_eq(parse("a.o", "b.a"), OPTIONS_OK);
  ck_assert_msg(opts.driver, "objects: driver (a.out)");
  options_free(&opts);
  ck_assert_int_eq(parse("-v", "--emulate", "--keep", "x.c", "-o", "p"), OPTIONS_OK);
  ck_assert(opts.verbose && opts.emulate && opts.keep);
  rmdir(dir);
}
END_TEST

/* ---- --help, --version ------------------------------------------------------------ */

START_TEST(test_help) {
  ck_assert_int_eq(parse("x.f90", "--help"), OPTIONS_EXIT);
  ck_assert_ptr_nonnull(strstr(out_text, "Usage: s2s-cuda [options] FILE..."));
  ck_assert_ptr_nonnull(strstr(out_text, "-Minfo"));
  ck_assert_ptr_nonnull(strstr(out_text, "--report=json FILE"));
  ck_assert_str_eq(errors(), "");
}
END_TEST

/* --dump-ir=list: the pass table, in order, one name per line, then exit. */
START_TEST(test_dump_list) {
  ck_assert_int_eq(parse("--dump-ir=list"), OPTIONS_EXIT);
  ck_assert_str_eq(out_text, "parse\nnormalize\ninline\ninvariant\ndelinearize\ntripcount\npresent\naccesses\ngroup\nrecompute\ncolumnize\nfuse\ncontract\nmap\nkcache\nsmem\ncoarsen\nstorage\nadvice\n"
                             "emit-cuda\n"
                             "emit-host\n");
  ck_assert_str_eq(errors(), "");
}
END_TEST

START_TEST(test_version) {
  ck_assert_int_eq(parse("--version"), OPTIONS_EXIT);
  char want[64];
  snprintf(want, sizeof want, "s2s-cuda %s\n", options_version());
  ck_assert_str_eq(out_text, want);
  ck_assert_str_eq(options_version(), "0.1.0");
}
END_TEST

/* ---- usage errors: exit status 2 ------------------------------------------------- */

static const struct {
  const char *args[6];
  const char *message;
} usage_errors[] = {
  { { NULL }, "no input files" },
  { { "--bogus", "x.f90" }, "unknown option '--bogus'" },
  { { "-o" }, "missing argument to '-o'" },
  { { "-D" }, "missing argument to '-D'" },
  { { "-D", "=1", "x.f90" }, "'-D' needs a macro name" },
  { { "x.txt" }, "cannot tell the language of 'x.txt' from its name; use --lang=fortran or --lang=c" },
  { { "--lang=cobol", "x.f90" }, "unknown language 'cobol' in --lang (known: fortran, c)" },
  { { "--dump-ir=cuda", "x.f90" }, "unknown pass 'cuda' in --dump-ir (--dump-ir=list prints them)" },
  { { "-Minfo=bogus", "x.f90" }, "unknown -Minfo category 'bogus' (known: accel, inline, loop, all)" },
  { { "-Minfo=accel,,loop", "x.f90" }, "unknown -Minfo category ''" },
  { { "-Minfo=", "x.f90" }, "-Minfo= needs a category" },
  { { "--report=sarif", "x.f90", "--report=sarif" }, "missing file name after '--report=sarif'" },
  { { "-Mfprelaxed=div", "x.f90" }, "-Mfprelaxed takes no sub-options in s2s-cuda" },
  { { "-Munroll=0", "x.f90" }, "-Munroll=N: N is a number of copies from 1 to 32, not '0'" },
  { { "-Munroll=c:4", "x.f90" }, "-Munroll=N: N is a number of copies from 1 to 32, not 'c:4'" },
  { { "-Mcoarsen=0", "x.f90" },
    "-Mcoarsen=N: N is a number of points per thread from 1 to 16, not '0'" },
  { { "-Mcoarsen=17", "x.f90" },
    "-Mcoarsen=N: N is a number of points per thread from 1 to 16, not '17'" },
  { { "-Mcoarsen=", "x.f90" }, "-Mcoarsen=N: N is a number of points per thread from 1 to 16, not ''" },
  { { "-Kieee", "-Mfprelaxed", "x.f90" },
    "-Kieee and -Mfprelaxed contradict each other (relaxed and strict IEEE floating point); give one" },
  { { "--fast-math", "x.f90", "--strict-fp" }, "--fast-math and --strict-fp contradict each other" },
  { { "-Mfprelaxed", "-Knoieee", "-Kieee", "x.f90" }, "-Mfprelaxed and -Kieee contradict each other" },
  { { "--report=xml", "r", "x.f90" }, "unknown report format in '--report=xml'" },
  { { "x.f90", "--report=json" }, "missing file name after '--report=json'" },
  { { "-o", "a", "-o", "b", "x.f90" }, "-o given more than once" },
  { { "-c", "a.f90", "b.f90", "-o", "x.o" }, "-o names one object, but -c was given 2 sources" },
  { { "-c", "a.f90", "b.o" }, "-c compiles sources, but 'b.o' is a link input" },
  { { "-" }, "reading from standard input is not supported" },
  { { "-i8", "x.f90" }, "-i8 (default INTEGER of 8 bytes) is not supported" },
  { { "-fdefault-integer-8", "x.f90" }, "-fdefault-integer-8 (default INTEGER of 8 bytes) is not supported" },
  { { "-fdefault-real-16", "x.f90" }, "-fdefault-real-16 is not supported: CUDA kernels have real kinds 4 and 8" },
  { { "-freal-4-real-8", "x.f90" }, "-freal-4-real-8 is not supported: it changes explicitly declared kinds" },
  { { "-MF", "", "-c", "x.f90" }, "'-MF' needs a file name" },
  { { "-E", "x.f90", "y.o" }, "-E preprocesses sources, but 'y.o' is a link input" },
};

/* What main() does with the result. */
static void exit_like_main(OptionsResult r) {
  options_free(&opts);
  exit(r == OPTIONS_USAGE ? S2S_EXIT_USAGE : r == OPTIONS_EXIT ? 0 : 100);
}

START_TEST(test_usage_error) {
  const char *const *args = usage_errors[_i].args;
  const char *argv[8];
  int n = 0;
  for (; args[n]; n++) argv[n] = args[n];
  argv[n] = NULL;
  OptionsResult r = parse_v(argv);
  ck_assert_msg(strncmp(errors(), "s2s-cuda: error: ", 17) == 0, "%s", errors());
  ck_assert_msg(strstr(errors(), usage_errors[_i].message), "want '%s' in:\n%s",
                usage_errors[_i].message, errors());
  ck_assert_msg(strstr(errors(), "Try 's2s-cuda --help' for more information.\n"), "%s", errors());
  /* one error, not a cascade */
  ck_assert_msg(!strstr(strstr(errors(), "error:") + 1, "error:"), "%s", errors());
  exit_like_main(r);
}
END_TEST

/* Options after --help are not looked at: help is printed, exit status 0. */
START_TEST(test_help_exits_zero) {
  exit_like_main(parse("--help", "--bogus"));
}
END_TEST

/* ---- source.c helpers ------------------------------------------------------------- */

static const struct {
  const char *text;
  int line;
} fixed_form[] = {
  { "C     comment\n      x = 1\n", 1 },
  { "program p\nc\nend\n", 2 },
  { "program p\n* star comment\nend\n", 2 },
  { "program p\nC-----\nend\n", 2 },
  { "      x = a +\n     $    b\n", 2 },
  { "      x = a +\n     &    b\n", 2 },
  { "      call f(a,\n     +       b)\n", 2 },
  /* free form that only looks odd */
  { "program p\nc = 1\nc(2) = 3\nc%x = 1\ncall f()\ncontains\nend\n", 0 },
  { "x = a + &\n* b\n", 0 },                  /* continued line */
  { "x = a + & ! comment\n     & b\n", 0 },   /* & continuation with a comment */
  { "s = 'it''s & fine' // &\n     & 'x'\n", 0 },
  { "! C comment\n   ! * also\n#if X\n      x = 1\n#endif\n", 0 },
  { "", 0 },
  { "\r\nC windows\r\n", 2 },
};

START_TEST(test_fixed_form_line) {
  const char *t = fixed_form[_i].text;
  ck_assert_int_eq(source_fixed_form_line(t, strlen(t)), fixed_form[_i].line);
}
END_TEST

/* Fixed-form directive lines: the driver translates (and so refuses, naming
 * the line) a fixed-form file that has one, instead of compiling it for the
 * CPU without a word. */
static const struct {
  const char *text;
  int line;
  const char *sentinel;
} fixed_directive[] = {
    { "      x = 1\nc$acc region\n", 2, "c$acc" },
    { "C$ACC REGION COPYIN(A)\nC$ACC& LOCAL(W)\n", 1, "C$ACC" },
    { "*$acc do parallel\n", 1, "*$acc" },
    { "      y = 2\n!$acc kernels\n", 2, "!$acc" },
    { "      y = 2\n      !$acc kernels\n", 2, "!$acc" },
    { "c$stencil region\n", 1, "c$stencil" },
    { "c$accel is no directive\n", 0, NULL },
    { "c a comment about $acc\n      x = 1\n", 0, NULL },
    { "      call acc$init\n      s = 'c$acc'\n", 0, NULL },
    { "      c$acc region\n", 0, NULL }, /* 'c' past column 1: a statement, not a comment */
};

START_TEST(test_fixed_form_directive_line) {
  const char *t = fixed_directive[_i].text;
  char sentinel[16] = "";
  ck_assert_int_eq(source_fixed_form_directive_line(t, strlen(t), sentinel, sizeof sentinel),
                   fixed_directive[_i].line);
  if (fixed_directive[_i].sentinel) ck_assert_str_eq(sentinel, fixed_directive[_i].sentinel);
}
END_TEST

START_TEST(test_markers) {
  int line;
  char *file;
  const char *m1 = "# 12 \"dir/x.F90\" 2";
  ck_assert(source_parse_marker(m1, strlen(m1), &line, &file));
  ck_assert_int_eq(line, 12);
  ck_assert_str_eq(file, "dir/x.F90");
  free(file);
  const char *m2 = "#line 7 \"a\\\\b \\\"q\\\".h\"";
  ck_assert(source_parse_marker(m2, strlen(m2), &line, &file));
  ck_assert_int_eq(line, 7);
  ck_assert_str_eq(file, "a\\b \"q\".h");
  free(file);
  const char *m3 = "# 3";
  ck_assert(source_parse_marker(m3, strlen(m3), &line, &file));
  ck_assert_int_eq(line, 3);
  ck_assert_ptr_null(file);
  const char *no[] = { "#pragma stencil region", "#define X 1", "# 12 \"unterminated", "#",
                       "  x = 1", "#line x" };
  for (size_t i = 0; i < sizeof no / sizeof *no; i++)
    ck_assert_msg(!source_parse_marker(no[i], strlen(no[i]), &line, &file), "%s", no[i]);
}
END_TEST

static Suite *options_suite(void) {
  Suite *s = suite_create("options");
  TCase *good = tcase_create("good");
  tcase_add_checked_fixture(good, setup, teardown);
  tcase_add_test(good, test_defaults);
  tcase_add_loop_test(good, test_kind_of, 0, (int)(sizeof extensions / sizeof *extensions));
  tcase_add_test(good, test_preprocessor_options);
  tcase_add_test(good, test_cpp_flags);
  tcase_add_test(good, test_report_options);
  tcase_add_loop_test(good, test_minfo_categories, 0,
                      (int)(sizeof minfo_cases / sizeof *minfo_cases));
  tcase_add_test(good, test_lang);
  tcase_add_test(good, test_fixed_form_flag);
  tcase_add_test(good, test_passthrough);
  tcase_add_test(good, test_double_dash);
  tcase_add_test(good, test_unroll);
  tcase_add_test(good, test_coarsen);
  tcase_add_loop_test(good, test_dependency_options, 0, (int)(sizeof dep_lines / sizeof *dep_lines));
  tcase_add_loop_test(good, test_precision_options, 0,
                      (int)(sizeof precision_lines / sizeof *precision_lines));
  tcase_add_test(good, test_vendor_options);
  tcase_add_loop_test(good, test_relaxed_fp, 0,
                      (int)(sizeof relaxed_spellings / sizeof *relaxed_spellings));
  tcase_add_loop_test(good, test_strict_fp, 0,
                      (int)(sizeof strict_spellings / sizeof *strict_spellings));
  tcase_add_test(good, test_mode);
  tcase_add_test(good, test_help);
  tcase_add_test(good, test_dump_list);
  tcase_add_test(good, test_version);
  suite_add_tcase(s, good);
  TCase *usage = tcase_create("usage");
  tcase_add_checked_fixture(usage, setup, teardown);
  tcase_add_loop_exit_test(usage, test_usage_error, S2S_EXIT_USAGE, 0,
                           (int)(sizeof usage_errors / sizeof *usage_errors));
  tcase_add_exit_test(usage, test_help_exits_zero, 0);
  suite_add_tcase(s, usage);
  TCase *src = tcase_create("source");
  tcase_add_loop_test(src, test_fixed_form_line, 0, (int)(sizeof fixed_form / sizeof *fixed_form));
  tcase_add_loop_test(src, test_fixed_form_directive_line, 0,
                      (int)(sizeof fixed_directive / sizeof *fixed_directive));
  tcase_add_test(src, test_markers);
  suite_add_tcase(s, src);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(options_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
