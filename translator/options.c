/* options.c — parse the command line into Options (options.h).
 *
 * The options follow the compilers s2s-cuda stands in for: gcc/gfortran
 * spellings for the preprocessor (-cpp -D -U -I), the output (-o) and
 * compile-only (-c); NVHPC's -Minfo for the feedback report.  Options meant
 * for the host compilers (-O2 -g -Wall -fopenmp -march=native -std=f2008
 * -J DIR -lfoo -L DIR) are accepted in both modes, so that `FC=s2s-cuda`
 * works in an existing Makefile; translation mode ignores them.
 *
 * A usage error prints `s2s-cuda: error: ...` and a hint to --help and
 * returns OPTIONS_USAGE (exit status 2).
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* POSIX.1-2008 and realpath, also when built outside the Makefile */
#endif
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "options.h"
#include "directive.h"
#include "pipeline.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "diag.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0.1.0"
#endif

const char *options_version(void) { return PACKAGE_VERSION; }

static const char usage_text[] =
    "Usage: s2s-cuda [options] FILE...\n"
    "\n"
    "Translate loop nests of free-form Fortran and C, annotated with !$stencil or\n"
    "#pragma stencil directives, into CUDA.\n"
    "\n"
    "Translation (the default): for each NAME.f90 or NAME.c, write NAME.s2s.f90 or\n"
    "NAME.s2s.c (the input with each region replaced by a call; the input's own\n"
    "extension is kept, .F becomes .F90) and NAME.s2s.cu (kernels and launchers).\n"
    "Files without directives produce no output, but for every module and every\n"
    "procedure outside a module a Fortran file defines, a summary NAME.s2smod or\n"
    "NAME.s2sproc is written, that translations of the files using them read.\n"
    "  -o DIR              write the outputs into DIR (default: the current directory)\n"
    "  -Minfo[=CATS]       print the feedback report on stderr: all of it, or the\n"
    "                      categories in the comma list CATS: accel (data, kernels,\n"
    "                      loop mapping), inline, loop (parallelization, dependences,\n"
    "                      loop transformations), all; warnings print without -Minfo\n"
    "  -Werror             make warnings errors (exit status 1, no outputs)\n"
    "  --no-line-directives\n"
    "                      no #line directives to the user's source in the .cu, and no\n"
    "                      line markers in the host file\n"
    "  -Msafeptr, --assume-no-alias\n"
    "                      C: pointer and array parameters never overlap (as if each\n"
    "                      were restrict); the loops are still checked for dependences\n"
    "  -Mfprelaxed, --fast-math\n"
    "                      relaxed floating point: single-precision exp, log, power,\n"
    "                      sin, cos, tan and division in kernels use CUDA's fast\n"
    "                      intrinsics (__expf, __fdividef, ...); nvcc gets --use_fast_math\n"
    "  --report=json FILE  write every diagnostic and report line as JSON, format\n"
    "                      version 2 (FILE '-': stdout); also --report-json=FILE\n"
    "  --report=sarif FILE the same as SARIF 2.1.0, for editors and CI; also\n"
    "                      --report-sarif=FILE\n"
    "  --dump-ir=PASS      print the IR after PASS on stdout (--dump-ir=list: the passes;\n"
    "                      plan: the state after planning)\n"
    "  --lang=LANG         the inputs are 'fortran' or 'c' (default: by extension:\n"
    "                      .f90 .f95 .f03 .f08 .F .F90 .F95 .F03 .F08 Fortran, .c C)\n"
    "  -cpp, -nocpp        do (not) run the C preprocessor first; C files and .F and\n"
    "                      .F90 imply -cpp\n"
    "  -D NAME[=VALUE], -U NAME, -I DIR\n"
    "                      preprocessor definitions and include directories; USEd\n"
    "                      modules of other files are looked for in the -I directories\n"
    "  -J DIR, -module DIR the module directory: each module a file defines is summarized\n"
    "                      there as MODULE.s2smod (beside gfortran's MODULE.mod), and\n"
    "                      USEd modules are looked for there first (default: the -o\n"
    "                      directory in translation, the current directory as a compiler)\n"
    "\n"
    "Compiler driver (with -c, with .o/.a/.so inputs, or with -o naming a file):\n"
    "translate, then build with $FC or $CC and nvcc, and link the runtime.\n"
    "  -c                  compile each source to NAME.o (or to -o FILE)\n"
    "  -o FILE             the object (with -c) or the program (default a.out)\n"
    "  --directives=SPELLING  read 'stencil' (!$stencil), 'pgi-acc' (the 2009 PGI\n"
    "                      Accelerator !$acc) or 'openacc' directives (default: !$stencil\n"
    "                      if the file has any, else both !$acc models)\n"
    "  --emulate           build the CUDA code for CPU emulation (no GPU needed)\n"
    "  -v                  print every command run\n"
    "  --keep, -save-temps keep the work directory with the generated files\n"
    "  -MD, -MMD           also write a dependency file (-MF FILE, else the object's\n"
    "                      name with .d), on the user's files and the module summaries\n"
    "                      read; -MT T, -MQ T name its target, -MP adds phony targets\n"
    "  -E, -M, -MM         preprocess, or print the dependencies, as the host compiler\n"
    "                      does (the sources as they are; nothing is translated)\n"
    "  -fdefault-real-8, -fdefault-double-8, -r8 (both)\n"
    "                      default REAL, real literals and REAL() are real(8), in the\n"
    "                      kernels and interfaces too; -i8 is refused\n"
    "  -O* -g* -W* -f* -m* -std=* -pthread\n"
    "  -l LIB -L DIR       passed to the host compilers and the linker; other unknown\n"
    "                      one-dash options are too, with a note\n"
    "\n"
    "  --help              print this text\n"
    "  --version           print the version\n"
    "\n"
    "Environment: S2S_FC or FC (the host Fortran compiler, default gfortran; e.g.\n"
    "mpif90), S2S_CC or CC (gcc), CXX (g++), NVCC, NVCCFLAGS,\n"
    "S2S_CUDA_ARCH (sm_90), LD (ld), TMPDIR; CPP and S2S_FPP (the C and Fortran\n"
    "preprocessors: gcc -E, gfortran -E -cpp); S2S_RT_INCLUDEDIR, S2S_RT_LIBDIR\n"
    "(where the runtime's header and libraries are).\n"
    "Exit status: 0 success, 1 errors in the input or a failed build step,\n"
    "2 usage error.\n";

/* ---- argument lists ------------------------------------------------------ */

void arglist_push(ArgList *l, const char *s) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 8;
    l->v = xrealloc(l->v, sizeof *l->v * (size_t)l->cap);
  }
  l->v[l->n++] = xstrdup(s);
}

char **arglist_argv(ArgList *l) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 8;
    l->v = xrealloc(l->v, sizeof *l->v * (size_t)l->cap);
  }
  l->v[l->n] = NULL;
  return l->v;
}

void arglist_free(ArgList *l) {
  for (int i = 0; i < l->n; i++) free(l->v[i]);
  free(l->v);
  memset(l, 0, sizeof *l);
}

void options_free(Options *o) {
  free(o->inputs);
  arglist_free(&o->cpp_args);
  arglist_free(&o->compiler_args);
  arglist_free(&o->link_args);
  arglist_free(&o->deps.targets);
  memset(o, 0, sizeof *o);
}

/* ---- inputs -------------------------------------------------------------- */

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* The extension of the file name (after the last '.' of the last path
 * component), or "" when there is none. */
static const char *extension(const char *path) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  const char *dot = strrchr(base, '.');
  return dot && dot != base ? dot + 1 : "";
}

int options_kind_of(const char *path, bool *cpp) {
  static const char *const free_form[] = { "f90", "f95", "f03", "f08" };
  static const char *const free_form_cpp[] = { "F", "F90", "F95", "F03", "F08" };
  static const char *const fixed_form[] = { "f", "for", "ftn", "FOR", "FTN", "fpp", "FPP" };
  static const char *const link[] = { "o", "a", "so" };
  const char *ext = extension(path);
  *cpp = false;
  for (size_t i = 0; i < sizeof free_form / sizeof *free_form; i++)
    if (strcmp(ext, free_form[i]) == 0) return INPUT_FORTRAN;
  for (size_t i = 0; i < sizeof free_form_cpp / sizeof *free_form_cpp; i++)
    if (strcmp(ext, free_form_cpp[i]) == 0) return *cpp = true, INPUT_FORTRAN;
  for (size_t i = 0; i < sizeof fixed_form / sizeof *fixed_form; i++)
    if (strcmp(ext, fixed_form[i]) == 0) return INPUT_FIXED_FORM;
  for (size_t i = 0; i < sizeof link / sizeof *link; i++)
    if (strcmp(ext, link[i]) == 0) return INPUT_LINK;
  if (strcmp(ext, "c") == 0) return INPUT_C;
  return -1;
}

/* ---- the parser ---------------------------------------------------------- */

typedef struct Parser {
  Options *o;
  int argc, i;
  char **argv;
  FILE *err;
  const char *lang;     /* --lang value, NULL when not given */
  bool fixed_form_flag; /* -ffixed-form among the compiler flags */
  const char *fp_relaxed_arg, *fp_strict_arg; /* how -Mfprelaxed and -Kieee were spelled */
  bool failed;
} Parser;

static void usage_error(Parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void usage_error(Parser *p, const char *fmt, ...) {
  if (p->failed) return; /* the first error is the one worth reading */
  fputs("s2s-cuda: error: ", p->err);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(p->err, fmt, ap);
  va_end(ap);
  fputs("\nTry 's2s-cuda --help' for more information.\n", p->err);
  p->failed = true;
}

/* The value of an option that takes one: glued (`-DX`, `-o`+`x`) or the next
 * argument.  NULL (after an error) when it is missing. */
static const char *option_value(Parser *p, const char *opt) {
  const char *arg = p->argv[p->i];
  size_t n = strlen(opt);
  if (arg[n]) return arg + n;
  if (p->i + 1 >= p->argc) {
    usage_error(p, "missing argument to '%s'", opt);
    return NULL;
  }
  return p->argv[++p->i];
}

/* -D -U -I (and -isystem, -iquote, -idirafter, which CMake writes): stored
 * glued (`-DNAME=V`) in command-line order, since that order matters to the
 * preprocessor. */
static void preprocessor_option(Parser *p, const char *opt) {
  const char *v = option_value(p, opt);
  if (!v) return;
  if (!*v || ((opt[1] == 'D' || opt[1] == 'U') && (*v == '=' || *v == '-'))) {
    usage_error(p, "'%s' needs a %s", opt, opt[1] == 'D' || opt[1] == 'U' ? "macro name" : "directory");
    return;
  }
  char *s = xasprintf("%s%s", opt, v);
  arglist_push(&p->o->cpp_args, s);
  free(s);
}

static void output_option(Parser *p) {
  const char *v = option_value(p, "-o");
  if (!v) return;
  if (p->o->output) usage_error(p, "-o given more than once");
  else if (!*v) usage_error(p, "-o needs a file or directory name");
  p->o->output = v;
}

/* -Minfo, -Minfo=accel,loop: NVHPC's categories.  NVHPC's others
 * (ccff, ftn, mp, par, vect, ...) are accepted so that its makefiles work,
 * and select nothing: s2s-cuda has nothing to say about them. */
static void minfo_option(Parser *p, const char *arg) {
  static const struct { const char *name; unsigned bits; } cats[] = {
    { "accel", MINFO_ACCEL }, { "inline", MINFO_INLINE }, { "loop", MINFO_LOOP },
    { "all", MINFO_ALL }, { "ccff", 0 }, { "ftn", 0 }, { "mp", 0 }, { "par", 0 },
    { "vect", 0 }, { "opt", 0 }, { "lre", 0 }, { "pfo", 0 }, { "intensity", 0 },
    { "stdpar", 0 }, { "unified", 0 },
  };
  if (strcmp(arg, "-Minfo") == 0) {
    p->o->minfo_categories = MINFO_ALL;
    p->o->minfo = true;
    return;
  }
  const char *list = arg + strlen("-Minfo=");
  if (!*list) {
    usage_error(p, "-Minfo= needs a category (accel, inline, loop, all)");
    return;
  }
  for (const char *c = list; *c;) {
    size_t n = strcspn(c, ",");
    size_t k = 0;
    while (k < sizeof cats / sizeof *cats && (strlen(cats[k].name) != n || strncmp(c, cats[k].name, n)))
      k++;
    if (k == sizeof cats / sizeof *cats) {
      usage_error(p, "unknown -Minfo category '%.*s' (known: accel, inline, loop, all)", (int)n, c);
      return;
    }
    p->o->minfo_categories |= cats[k].bits;
    c += n + (c[n] == ',');
  }
  p->o->minfo = p->o->minfo_categories != 0;
}

/* --dump-ir=list prints the passes and exits, like --help. */
static void dump_option(Parser *p, const char *pass, OptionsResult *done, FILE *out) {
  if (strcmp(pass, "list") == 0) {
    pipeline_list(out);
    *done = OPTIONS_EXIT;
  } else if (pipeline_has_pass(pass)) {
    p->o->dump_ir = pass;
  } else {
    usage_error(p, "unknown pass '%s' in --dump-ir (--dump-ir=list prints them)", pass);
  }
}

/* --report=json FILE, --report=sarif FILE, --report-json=FILE,
 * --report-sarif=FILE; both formats may be asked for at once. */
static void report_option(Parser *p, const char *arg) {
  static const char *const formats[] = { "json", "sarif" };
  for (size_t f = 0; f < sizeof formats / sizeof *formats; f++) {
    const char **dest = f == 0 ? &p->o->report_json : &p->o->report_sarif;
    char *glued = xasprintf("--report-%s=", formats[f]);
    char *spaced = xasprintf("--report=%s", formats[f]);
    bool matched = true;
    if (strncmp(arg, glued, strlen(glued)) == 0) {
      *dest = arg + strlen(glued);
    } else if (strcmp(arg, spaced) == 0) {
      if (p->i + 1 >= p->argc) usage_error(p, "missing file name after '%s'", spaced);
      else *dest = p->argv[++p->i];
    } else {
      matched = false;
    }
    if (matched && *dest && !**dest) usage_error(p, "%s needs a file name", spaced);
    free(glued);
    free(spaced);
    if (matched) return;
  }
  usage_error(p, "unknown report format in '%s' (known: --report=json FILE, --report=sarif FILE)",
              arg);
}

/* -Mfprelaxed/--fast-math, -Kieee/--strict-fp and -Knoieee.  Relaxed and
 * strict contradict each other whatever their order (an error naming both);
 * -Knoieee is the default said explicitly, so it only undoes -Kieee.  The
 * same mode twice is no error. */
typedef enum FpMode { FP_DEFAULT, FP_RELAXED, FP_STRICT } FpMode;

/* -Munroll=N: N from 1 (no unrolling) to 32. */
static void unroll_option(Parser *p, const char *arg) {
  char *end;
  long n = strtol(arg + 9, &end, 10);
  if (*end || end == arg + 9 || n < 1 || n > 32)
    usage_error(p, "-Munroll=N: N is a number of copies from 1 to 32, not '%s'", arg + 9);
  else
    p->o->unroll = n > 1 ? (int)n : 0;
}

/* -Mcoarsen=N: N from 1 (off) to 16; -Mcoarsen alone is the default (the cost rule). */
static void coarsen_option(Parser *p, const char *arg) {
  char *end;
  long n = strtol(arg + 10, &end, 10);
  if (*end || end == arg + 10 || n < 1 || n > 16)
    usage_error(p, "-Mcoarsen=N: N is a number of points per thread from 1 to 16, not '%s'",
                arg + 10);
  else
    p->o->coarsen = (int)n;
}

static void fp_mode_option(Parser *p, const char *arg, FpMode mode) {
  Options *o = p->o;
  if ((mode == FP_RELAXED && o->strict_fp) || (mode == FP_STRICT && o->relaxed_fp)) {
    usage_error(p, "%s and %s contradict each other (relaxed and strict IEEE floating point); "
                "give one", mode == FP_STRICT ? p->fp_relaxed_arg : p->fp_strict_arg, arg);
    return;
  }
  if (mode == FP_RELAXED) o->relaxed_fp = true, p->fp_relaxed_arg = arg;
  if (mode == FP_STRICT) o->strict_fp = true, p->fp_strict_arg = arg;
  if (mode == FP_DEFAULT) o->strict_fp = false;
}

/* gcc's dependency options (automake's depcomp, CMake, hand-written
 * makefiles).  Kept apart from the compiler flags: the driver writes the
 * dependency file itself, on the user's files (build_driver.c).  Returns
 * false if `arg` is not one. */
static bool dependency_option(Parser *p, const char *arg) {
  Options *o = p->o;
  if (strcmp(arg, "-MD") == 0) o->deps.md = true;
  else if (strcmp(arg, "-MMD") == 0) o->deps.mmd = true;
  else if (strcmp(arg, "-M") == 0) o->deps.m = true;
  else if (strcmp(arg, "-MM") == 0) o->deps.mm = true;
  else if (strcmp(arg, "-MP") == 0) o->deps.mp = true;
  else if (strncmp(arg, "-MF", 3) == 0 || strncmp(arg, "-MT", 3) == 0 || strncmp(arg, "-MQ", 3) == 0) {
    char opt[4] = { '-', 'M', arg[2], '\0' };
    const char *v = option_value(p, opt);
    if (v && !*v) {
      usage_error(p, "'%s' needs a %s", opt, arg[2] == 'F' ? "file name" : "target");
    } else if (v && arg[2] == 'F') {
      o->deps.mf = v;
    } else if (v) {
      char *s = xasprintf("%s%s", opt, v);
      arglist_push(&o->deps.targets, s);
      free(s);
    }
  } else {
    return false;
  }
  return true;
}

/* The precision of Fortran's defaults.  gfortran's -fdefault-real-8 and
 * -fdefault-double-8 and NVHPC's -r8 change the kinds the translation
 * gives default REAL (options.h); they also go to the host compiler, in
 * its spelling (build_driver.c).  What the translation cannot follow is
 * refused here, naming why, rather than left to make a kernel whose types
 * disagree with the host compiler's.  Returns false if `arg` is none of
 * these. */
static bool precision_option(Parser *p, const char *arg) {
  Options *o = p->o;
  static const char *const refused_prefixes[] = { "-freal-4-real-", "-freal-8-real-",
                                                  "-finteger-4-integer-" };
  if (strcmp(arg, "-fdefault-real-8") == 0) {
    o->default_real8 = true;
  } else if (strcmp(arg, "-fdefault-double-8") == 0) {
    o->default_double8 = true;
  } else if (strcmp(arg, "-r8") == 0) {
    o->default_real8 = o->default_double8 = true;
  } else if (strcmp(arg, "-r4") == 0 || strcmp(arg, "-i4") == 0) {
    return true; /* NVHPC's defaults, said explicitly: nothing to do, nothing gfortran knows */
  } else if (strcmp(arg, "-i8") == 0 || strcmp(arg, "-fdefault-integer-8") == 0) {
    usage_error(p, "%s (default INTEGER of 8 bytes) is not supported: the kernels index arrays "
                "and pass bounds as 4-byte C int; declare the integers that need 8 bytes "
                "integer(8)", arg);
    return true;
  } else if (strncmp(arg, "-fdefault-real-", 15) == 0 || strncmp(arg, "-fdefault-double-", 17) == 0) {
    usage_error(p, "%s is not supported: CUDA kernels have real kinds 4 and 8 only "
                "(-fdefault-real-8 and -fdefault-double-8 are)", arg);
    return true;
  } else {
    for (size_t i = 0; i < sizeof refused_prefixes / sizeof *refused_prefixes; i++)
      if (strncmp(arg, refused_prefixes[i], strlen(refused_prefixes[i])) == 0) {
        usage_error(p, "%s is not supported: it changes explicitly declared kinds, which the "
                    "translation keeps; use -fdefault-real-8 -fdefault-double-8 (or -r8) for "
                    "real(8) defaults", arg);
        return true;
      }
    return false;
  }
  arglist_push(&o->compiler_args, arg);
  return true;
}

/* Flags for the host compilers and the linker.  Returns false if `arg` is
 * not one. */
static bool compiler_option(Parser *p, const char *arg) {
  static const char *const prefixes[] = { "-O", "-g", "-W", "-f", "-m", "-std=" };
  /* The module directory: gfortran's -J, nvfortran's and ifort's -module.
   * Kept for the host compiler as -JDIR (build_driver.c spells it as the
   * compiler wants), and where module summaries are written and looked for. */
  if (strncmp(arg, "-J", 2) == 0 || strcmp(arg, "-module") == 0) {
    const char *v = option_value(p, arg[1] == 'J' ? "-J" : "-module");
    if (v && !*v) {
      usage_error(p, "'%s' needs a directory", arg[1] == 'J' ? "-J" : "-module");
    } else if (v && p->o->module_dir && strcmp(p->o->module_dir, v)) {
      usage_error(p, "two module directories given ('%s' and '%s'); give one", p->o->module_dir, v);
    } else if (v) {
      p->o->module_dir = v;
      char *s = xasprintf("-J%s", v);
      arglist_push(&p->o->compiler_args, s);
      free(s);
    }
    return true;
  }
  for (size_t k = 0; k < sizeof prefixes / sizeof *prefixes; k++) {
    if (strncmp(arg, prefixes[k], strlen(prefixes[k])) == 0) {
      if (strcmp(arg, "-ffixed-form") == 0) p->fixed_form_flag = true;
      if (strcmp(arg, "-Werror") == 0) p->o->werror = true;    /* ours too, as gcc's */
      if (strcmp(arg, "-Wno-error") == 0) p->o->werror = false;
      arglist_push(&p->o->compiler_args, arg);
      return true;
    }
  }
  if (strcmp(arg, "-pthread") == 0 || strcmp(arg, "-static") == 0 ||
      strcmp(arg, "-pie") == 0 || strcmp(arg, "-no-pie") == 0 || strcmp(arg, "-rdynamic") == 0) {
    arglist_push(&p->o->compiler_args, arg);
    return true;
  }
  if (strncmp(arg, "-l", 2) == 0 || strncmp(arg, "-L", 2) == 0) {
    char opt[3] = { '-', arg[1], '\0' };
    const char *v = option_value(p, opt);
    if (v) {
      char *s = xasprintf("%s%s", opt, v);
      arglist_push(&p->o->link_args, s);
      free(s);
    }
    return true;
  }
  return false;
}

/* Returns false when `arg` is not an option s2s-cuda knows. */
static bool long_option(Parser *p, const char *arg, OptionsResult *done, FILE *out) {
  Options *o = p->o;
  if (strcmp(arg, "--help") == 0 || strcmp(arg, "-help") == 0 || strcmp(arg, "-h") == 0) {
    fputs(usage_text, out);
    *done = OPTIONS_EXIT;
  } else if (strcmp(arg, "--version") == 0) {
    fprintf(out, "s2s-cuda %s\n", options_version());
    *done = OPTIONS_EXIT;
  } else if (strncmp(arg, "--lang=", 7) == 0) {
    p->lang = arg + 7;
    if (strcmp(p->lang, "fortran") && strcmp(p->lang, "c"))
      usage_error(p, "unknown language '%s' in --lang (known: fortran, c)", p->lang);
  } else if (strncmp(arg, "--dump-ir=", 10) == 0) {
    dump_option(p, arg + 10, done, out);
  } else if (strncmp(arg, "--report", 8) == 0) {
    report_option(p, arg);
  } else if (strcmp(arg, "--fast-math") == 0) {
    fp_mode_option(p, arg, FP_RELAXED);
  } else if (strcmp(arg, "--strict-fp") == 0) {
    fp_mode_option(p, arg, FP_STRICT);
  } else if (strncmp(arg, "--directives=", 13) == 0) {
    const char *v = arg + 13;
    if (!strcmp(v, "stencil")) dir_dialect_option = DIR_DIALECT_STENCIL;
    else if (!strcmp(v, "pgi-acc")) dir_dialect_option = DIR_DIALECT_PGI;
    else if (!strcmp(v, "openacc")) dir_dialect_option = DIR_DIALECT_OPENACC;
    else usage_error(p, "unknown spelling '%s' in --directives (known: stencil, pgi-acc, openacc)", v);
  } else if (strcmp(arg, "--emulate") == 0) {
    o->emulate = true;
  } else if (strcmp(arg, "--no-line-directives") == 0) {
    o->no_line_directives = true;
  } else if (strcmp(arg, "--keep") == 0 || strcmp(arg, "-save-temps") == 0) {
    o->keep = true;
  } else if (strcmp(arg, "--verbose") == 0) {
    o->verbose = true;
  } else {
    return false;
  }
  return true;
}

/* A one-dash option s2s-cuda does not know is most likely the host
 * compiler's (-Mfree, -Mpreprocess, -acc, -traceback, -qopenmp): it goes to
 * the host compiler as it is, with a note, so that a build that worked with
 * that compiler still does.  (An unknown `--` option is an error: that
 * spelling is s2s-cuda's, and likely a typo.) */
static void unknown_vendor_option(Parser *p, const char *arg) {
  fprintf(p->err, "s2s-cuda: note: '%s' is not an s2s-cuda option; it is passed to the host "
          "compiler as it is\n", arg);
  arglist_push(&p->o->compiler_args, arg);
}

bool options_passthrough(const Options *o) {
  return o->preprocess_only || o->deps.m || o->deps.mm;
}

static void one_option(Parser *p, const char *arg, OptionsResult *done, FILE *out) {
  Options *o = p->o;
  if (strcmp(arg, "-c") == 0) o->compile_only = true;
  else if (strcmp(arg, "-v") == 0) o->verbose = true;
  else if (strcmp(arg, "-cpp") == 0) o->cpp_forced = true;
  else if (strcmp(arg, "-nocpp") == 0) o->nocpp = true;
  else if (strncmp(arg, "-o", 2) == 0) output_option(p);
  else if (strncmp(arg, "-D", 2) == 0) preprocessor_option(p, "-D");
  else if (strncmp(arg, "-U", 2) == 0) preprocessor_option(p, "-U");
  else if (strncmp(arg, "-I", 2) == 0) preprocessor_option(p, "-I");
  else if (strcmp(arg, "-Minfo") == 0 || strncmp(arg, "-Minfo=", 7) == 0) minfo_option(p, arg);
  else if (strcmp(arg, "-Mfprelaxed") == 0) fp_mode_option(p, arg, FP_RELAXED);
  else if (strcmp(arg, "-Kieee") == 0) fp_mode_option(p, arg, FP_STRICT);
  else if (strcmp(arg, "-Knoieee") == 0) fp_mode_option(p, arg, FP_DEFAULT);
  else if (strcmp(arg, "-Mnorecompute") == 0) o->no_recompute = true;
  else if (strcmp(arg, "-Mnokcache") == 0) o->no_kcache = true;
  else if (strcmp(arg, "-Msmem") == 0) o->smem = true;
  else if (strcmp(arg, "-Mnosmem") == 0) o->smem = false;
  else if (strcmp(arg, "-Mnocontract") == 0) o->no_contract = true;
  else if (strcmp(arg, "-Mcoarsen") == 0) o->coarsen = 0;
  else if (strncmp(arg, "-Mcoarsen=", 10) == 0) coarsen_option(p, arg);
  else if (strcmp(arg, "-Mnocoarsen") == 0) o->coarsen = 1;
  else if (strcmp(arg, "-Munroll") == 0) o->unroll = 4;
  else if (strncmp(arg, "-Munroll=", 9) == 0) unroll_option(p, arg);
  else if (strcmp(arg, "-Msafeptr") == 0 || strcmp(arg, "-Msafeptr=dummy") == 0 ||
           strcmp(arg, "-Msafeptr=all") == 0 || strcmp(arg, "--assume-no-alias") == 0)
    o->assume_no_alias = true;
  else if (strncmp(arg, "-Mfprelaxed=", 12) == 0)
    /* PGI's sub-options pick operations (div, rsqrt, ...); here the option is all or nothing */
    usage_error(p, "-Mfprelaxed takes no sub-options in s2s-cuda (it relaxes exp, log, power, "
                "sin, cos, tan and division together)");
  else if (strcmp(arg, "-E") == 0) o->preprocess_only = true;
  else if (strncmp(arg, "-isystem", 8) == 0) preprocessor_option(p, "-isystem");
  else if (strncmp(arg, "-iquote", 7) == 0) preprocessor_option(p, "-iquote");
  else if (strncmp(arg, "-idirafter", 10) == 0) preprocessor_option(p, "-idirafter");
  else if (long_option(p, arg, done, out)) return;
  else if (dependency_option(p, arg)) return;
  else if (precision_option(p, arg)) return;
  else if (compiler_option(p, arg)) return;
  else if (strncmp(arg, "--", 2) == 0) usage_error(p, "unknown option '%s'", arg);
  else unknown_vendor_option(p, arg);
}

static void add_input(Parser *p, const char *path) {
  Options *o = p->o;
  if (strcmp(path, "-") == 0) {
    usage_error(p, "reading from standard input is not supported; name a file");
    return;
  }
  o->inputs = xrealloc(o->inputs, sizeof *o->inputs * (size_t)(o->ninputs + 1));
  o->inputs[o->ninputs++] = (Input){ .path = path };
}

/* Languages are decided once all options are known (--lang and -cpp may
 * come after the file names, as with gcc). */
static void classify_inputs(Parser *p) {
  Options *o = p->o;
  for (int i = 0; i < o->ninputs && !p->failed; i++) {
    Input *in = &o->inputs[i];
    bool cpp;
    int kind = options_kind_of(in->path, &cpp);
    if (kind != INPUT_LINK && p->lang) {
      kind = strcmp(p->lang, "c") == 0 ? INPUT_C : INPUT_FORTRAN;
      cpp = cpp && kind == INPUT_FORTRAN;
    }
    if (kind < 0) {
      usage_error(p, "cannot tell the language of '%s' from its name; use --lang=fortran or --lang=c",
                  in->path);
      return;
    }
    if (kind == INPUT_FORTRAN && p->fixed_form_flag) kind = INPUT_FIXED_FORM;
    in->kind = (InputKind)kind;
    /* C is always preprocessed, as every C compiler does it (-nocpp opts
     * out): index macros and #if in regions are the user's code. */
    in->cpp = !o->nocpp && kind != INPUT_LINK && (cpp || o->cpp_forced || kind == INPUT_C);
  }
}

/* An -o that is an existing directory, or that ends in '/', keeps
 * translation mode. */
static bool names_directory(const char *path) {
  struct stat st;
  return ends_with(path, "/") || (stat(path, &st) == 0 && S_ISDIR(st.st_mode));
}

static void decide_mode(Parser *p) {
  Options *o = p->o;
  int nsources = 0;
  const char *link_input = NULL;
  for (int i = 0; i < o->ninputs; i++) {
    if (o->inputs[i].kind != INPUT_LINK) nsources++;
    else if (!link_input) link_input = o->inputs[i].path;
  }
  o->driver = o->compile_only || link_input || (o->output && !names_directory(o->output)) ||
              options_passthrough(o);
  if (o->ninputs == 0)
    usage_error(p, "no input files");
  else if (options_passthrough(o) && link_input)
    usage_error(p, "%s preprocesses sources, but '%s' is a link input",
                o->preprocess_only ? "-E" : o->deps.m ? "-M" : "-MM", link_input);
  else if (options_passthrough(o))
    return; /* as the host compiler: -o names the output of -E or of -M */
  else if (o->compile_only && link_input)
    usage_error(p, "-c compiles sources, but '%s' is a link input", link_input);
  else if (o->compile_only && o->output && nsources > 1)
    usage_error(p, "-o names one object, but -c was given %d sources", nsources);
  else if (o->compile_only && o->output && names_directory(o->output))
    usage_error(p, "-c -o '%s': that is a directory, not an object file name", o->output);
}

OptionsResult options_parse(Options *o, int argc, char **argv, FILE *out, FILE *err) {
  memset(o, 0, sizeof *o);
  Parser p = { .o = o, .argc = argc, .argv = argv, .err = err };
  OptionsResult done = OPTIONS_OK;
  bool only_files = false;
  for (p.i = 1; p.i < argc && done == OPTIONS_OK && !p.failed; p.i++) {
    const char *arg = argv[p.i];
    if (only_files || arg[0] != '-' || arg[1] == '\0') add_input(&p, arg);
    else if (strcmp(arg, "--") == 0) only_files = true;
    else one_option(&p, arg, &done, out);
  }
  if (done == OPTIONS_EXIT) return OPTIONS_EXIT;
  if (!p.failed) classify_inputs(&p);
  if (!p.failed) decide_mode(&p);
  return p.failed ? OPTIONS_USAGE : OPTIONS_OK;
}
