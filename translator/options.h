/* options.h — the command line of s2s-cuda.
 *
 *   s2s-cuda [options] FILE...
 *
 * Two modes share one command line:
 *   - translation (the default): for each source NAME.EXT write
 *     NAME.s2s.EXT (the host file) and NAME.s2s.cu into the output
 *     directory: `-o DIR` or, without -o, the current directory (never the
 *     input's own directory, which may be read-only or a shared tree);
 *   - compiler driver (build_driver.h): entered when -c is given, when any
 *     input is an object or library (.o .a .so), or when -o names something
 *     that is not a directory (an existing directory, or a path ending in
 *     '/', keeps translation mode).  Then -o names the object (-c) or the
 *     program.
 *
 * options_parse never exits and never touches the file system except to ask
 * whether the -o path is a directory; it prints usage errors itself.
 */
#ifndef S2S_OPTIONS_H
#define S2S_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

typedef enum InputKind {
  INPUT_FORTRAN,     /* free-form Fortran */
  INPUT_C,
  INPUT_FIXED_FORM,  /* .f .for .ftn: refused when it is read (exit 1, not a usage error) */
  INPUT_LINK,        /* .o .a .so: handed to the linker (driver mode) */
} InputKind;

typedef struct Input {
  const char *path;  /* as given on the command line (argv storage) */
  InputKind kind;
  bool cpp;          /* run the preprocessor first: -cpp, or a .F .F90 .F95 .F03 .F08 name */
} Input;

/* A growable list of argument strings; the strings are owned. */
typedef struct ArgList {
  int n, cap;
  char **v;
} ArgList;

typedef struct Options {
  int ninputs;
  Input *inputs;           /* owned array */
  const char *output;      /* -o: directory (translation) or file (driver); NULL if not given */
  bool driver;             /* compiler-driver mode (see above) */
  bool compile_only;       /* -c */
  bool cpp_forced;         /* -cpp */
  bool nocpp;              /* -nocpp: never preprocess, not even .F90 */
  ArgList cpp_args;        /* -DNAME[=V] -UNAME -IDIR in command-line order */
  ArgList compiler_args;   /* -O* -g* -W* -f* -m* -std=* -JDIR ...: host compilers and link */
  const char *module_dir;  /* -J DIR, -JDIR, -module DIR: where .mod files and s2s-cuda's
                              module summaries go, searched first for USEd modules; NULL */
  ArgList link_args;       /* -l* -L*: after the objects when linking */
  bool minfo;              /* -Minfo[=...]: feedback report on stderr (minfo_categories != 0) */
  unsigned minfo_categories; /* MINFO_* bits: which info and note lines -Minfo prints
                              (warnings and errors print always) */
  bool werror;             /* -Werror: warnings are errors (exit 1, no outputs); -Wno-error
                              undoes it; still passed to the host compilers */
  bool no_line_directives; /* --no-line-directives: no #line in the .cu, no line markers in
                              the host file */
  const char *dump_ir;     /* --dump-ir=PASS: IR on stdout after that pass (pipeline.h); NULL */
  const char *report_json; /* --report=json FILE / --report-json=FILE ("-": stdout) */
  const char *report_sarif; /* --report=sarif FILE / --report-sarif=FILE ("-": stdout) */
  bool no_recompute;       /* -Mnorecompute: stencil work arrays stay stored (pass recompute off) */
  bool no_kcache;          /* -Mnokcache: no registers across iterations (pass kcache off) */
  bool smem;               /* -Msmem: shared-memory tiles (pass smem; -Mnosmem: off, the default) */
  bool no_contract;        /* -Mnocontract: work arrays stay arrays (pass contract off) */
  int coarsen;             /* -Mcoarsen=N: N points of the y loop per thread wherever legal;
                              -Mnocoarsen (or =1): 1, off; 0: the cost rule (pass coarsen) */
  int unroll;              /* -Munroll[=N]: innermost sequential loops of kernels unrolled N
                              times (-Munroll: 4); 0: left to nvcc */
  bool assume_no_alias;    /* -Msafeptr, --assume-no-alias: C pointer and array parameters
                              never overlap, as if each were restrict */
  bool relaxed_fp;         /* -Mfprelaxed, --fast-math: single-precision math in kernels through
                              CUDA's fast intrinsics (__expf, __fdividef, ...), and nvcc
                              --use_fast_math in compiler-driver mode; default: IEEE */
  bool strict_fp;          /* -Kieee, --strict-fp: products in kernels through __fmul_rn and
                              __dmul_rn (never contracted into FMAs), and nvcc --fmad=false
                              --prec-div=true --prec-sqrt=true --ftz=false in compiler-driver
                              mode; -Knoieee clears it; never together with relaxed_fp */
  bool emulate;            /* --emulate: build the .cu for CPU emulation */
  bool verbose;            /* -v: print every command run */
  bool keep;               /* --keep / -save-temps: keep the driver's work directory */
  /* Dependency output, as gcc and gfortran spell it.  -MD and -MMD while
   * compiling make a dependency file on the user's files (build_driver.c),
   * never on the driver's temporary ones; -M and -MM (and -E) only run the
   * host compiler's preprocessor on the inputs as they are (passthrough). */
  struct {
    bool md, mmd;          /* -MD, -MMD: a .d file beside the object while compiling */
    bool m, mm;            /* -M, -MM: the dependencies instead of compiling */
    bool mp;               /* -MP: a phony target for every prerequisite */
    const char *mf;        /* -MF FILE, or NULL */
    ArgList targets;       /* -MT T and -MQ T, glued ("-MTT", "-MQT"), in order */
  } deps;
  bool preprocess_only;    /* -E: preprocess only, as the host compiler does */
  /* Precision of the Fortran defaults (gfortran's -fdefault-real-8 and
   * -fdefault-double-8, NVHPC's -r8, which is both): default REAL, real
   * literals without a kind and REAL() are real(8).  -fdefault-real-8
   * alone makes DOUBLE PRECISION real(16), as gfortran does, which the
   * translation refuses where it meets one. */
  bool default_real8;
  bool default_double8;
} Options;

/* -Minfo categories, as NVHPC names them: accel (data movement, kernels,
 * the mapping of loops), inline (inlining, __device__ functions), loop
 * (parallelization, dependences, loop transformations). */
enum {
  MINFO_ACCEL = 1u << 0,
  MINFO_INLINE = 1u << 1,
  MINFO_LOOP = 1u << 2,
  MINFO_ALL = MINFO_ACCEL | MINFO_INLINE | MINFO_LOOP,
};

typedef enum OptionsResult {
  OPTIONS_OK,        /* go on */
  OPTIONS_EXIT,      /* --help or --version was printed: exit 0 */
  OPTIONS_USAGE,     /* a usage error was printed: exit 2 */
} OptionsResult;

/* Is the command a passthrough to the host compiler (-E, -M, -MM)? */
bool options_passthrough(const Options *o);

#define S2S_EXIT_USAGE 2

/* Parse argv into *o (which is cleared first).  Messages go to `err`
 * (usage errors) and `out` (--help, --version).  Free with options_free. */
OptionsResult options_parse(Options *o, int argc, char **argv, FILE *out, FILE *err);
void options_free(Options *o);

/* The language an input name implies (by extension), or -1 when it says
 * nothing; sets *cpp for names that imply the preprocessor (.F, .F90...). */
int options_kind_of(const char *path, bool *cpp);

void arglist_push(ArgList *l, const char *s); /* copies s */
void arglist_free(ArgList *l);
/* The list as an argv: v[n] is set to NULL (the list keeps its strings). */
char **arglist_argv(ArgList *l);

const char *options_version(void);

#endif
