/* build_driver.c — compiler-driver mode (build_driver.h).
 *
 * The commands, for a source x.f90 with directives and a work directory W:
 *
 *   translate x.f90             -> W/1/x.s2s.f90, W/1/x.s2s.cu, and M.s2smod for each
 *                                  module M of x.f90 in the -J directory or here
 *   $S2S_FC|$FC FLAGS -I<dir of x.f90> -D.. -I.. -c W/1/x.s2s.f90 -o W/1/host.o
 *   $NVCC -arch=sm_90 -O3 [--use_fast_math | STRICT] [-Xptxas -v] -I<rt include> $NVCCFLAGS
 *         -c W/1/x.s2s.cu -o W/1/cuda.o
 *     (--use_fast_math with -Mfprelaxed; STRICT with -Kieee: --fmad=false
 *      --prec-div=true --prec-sqrt=true --ftz=false; -Xptxas -v with -Minfo or
 *      --report=json or --report=sarif: ptxas's lines become the report's resource lines,
 *      resources.h)
 *     or, for emulation: $CXX -x c++ -std=c++14 -O2 [-ffp-contract=off] -DS2S_EMULATE
 *     -I<rt include> -c ...  (-ffp-contract=off with -Kieee)
 *   ld -r -o x.o W/1/host.o W/1/cuda.o       (-c; otherwise into W, then linked)
 *   $FC|$CC FLAGS -o prog OBJECTS -l.. -L.. <libdir>/libs2srt[_emu].a LIBS
 *
 * `ld -r` (a relocatable link) keeps one object per source, as Makefiles
 * expect; nvcc's objects (whole-program compilation, no -rdc) carry their
 * fat binary and its registration constructor, which survive it.  The host
 * file is compiled with -I<the source's directory> first, so that its
 * `#include "..."` and Fortran `include '...'` lines still find the files
 * next to the user's source although the host file lives in W.
 *
 * The host compilers are $S2S_FC and $S2S_CC when set (mpif90, nvfortran:
 * the compilers the build would use without s2s-cuda), else $FC and $CC
 * (unless they name s2s-cuda itself, as in `make FC=s2s-cuda`), else
 * gfortran and gcc; the program is linked by the same.  The module
 * directory (-J DIR) is passed to the Fortran compiler as it spells it
 * (-J for gfortran, -module for nvfortran, pgfortran, ifort, ifx).
 *
 * Several sources of one command are built in an order where the file of a
 * module comes first (build_input_order); the objects are linked in the
 * command line's order.
 *
 * The runtime (headers and libraries) is taken from the build tree when
 * this executable is the one in the build tree (S2S_BUILD_TOPDIR), else
 * from the installation directories; S2S_RT_INCLUDEDIR and S2S_RT_LIBDIR
 * override both.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* POSIX.1-2008 and realpath, also when built outside the Makefile */
#endif
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "build_driver.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "diag.h"
#include "modules.h"
#include "report.h"
#include "source.h"

extern char **environ;

/* Fallbacks so that this file also compiles outside the build system. */
#ifndef S2S_NVCC
#define S2S_NVCC ""
#endif
#ifndef S2S_CUDA_LIBDIR
#define S2S_CUDA_LIBDIR ""
#endif
#ifndef S2S_SANITIZE_FLAGS
#define S2S_SANITIZE_FLAGS ""
#endif
#ifndef S2S_PKGINCLUDEDIR
#define S2S_PKGINCLUDEDIR "/usr/local/include/s2s-cuda"
#endif
#ifndef S2S_LIBDIR
#define S2S_LIBDIR "/usr/local/lib"
#endif
#ifndef S2S_BUILD_TOPDIR
#define S2S_BUILD_TOPDIR ""
#endif
#ifndef S2S_BUILD_RT_INCLUDEDIR
#define S2S_BUILD_RT_INCLUDEDIR ""
#endif
#ifndef S2S_BUILD_RT_LIBDIR
#define S2S_BUILD_RT_LIBDIR ""
#endif

#define DEFAULT_CUDA_ARCH "sm_90"

/* ---- running commands ------------------------------------------------------ */

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* Quote a word for a POSIX shell when it needs it. */
static void print_word(FILE *f, const char *w) {
  bool plain = *w != '\0';
  for (const char *p = w; *p && plain; p++)
    plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+@%", *p);
  if (plain) {
    fputs(w, f);
    return;
  }
  fputc('\'', f);
  for (const char *p = w; *p; p++) {
    if (*p == '\'') fputs("'\\''", f);
    else fputc(*p, f);
  }
  fputc('\'', f);
}

static void echo_command(char *const argv[]) {
  for (int i = 0; argv[i]; i++) {
    if (i) fputc(' ', stderr);
    print_word(stderr, argv[i]);
  }
  fputc('\n', stderr);
  fflush(stderr);
}

/* Read all of fd into a malloc'ed, NUL-terminated buffer. */
static char *read_all(int fd, size_t *len) {
  size_t cap = 1 << 16, n = 0;
  char *buf = xmalloc(cap);
  for (;;) {
    if (cap - n < 2) buf = xrealloc(buf, cap *= 2);
    ssize_t got = read(fd, buf + n, cap - n - 1);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    n += (size_t)got;
  }
  buf[n] = '\0';
  *len = n;
  return buf;
}

static int wait_status(pid_t pid) {
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) return -1;
  if (WIFEXITED(st)) return WEXITSTATUS(st);
  if (WIFSIGNALED(st)) return 128 + WTERMSIG(st);
  return -1;
}

/* Run argv, capturing file descriptor `fd` (standard output or error) into
 * *output when output is not NULL. */
static int spawn(char *const argv[], bool echo, int fd, char **output, size_t *output_len) {
  if (echo) echo_command(argv);
  fflush(stdout);
  fflush(stderr);
  int fds[2] = { -1, -1 };
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (output) {
    if (pipe(fds) != 0) S2S_BUG("pipe: %s", strerror(errno));
    posix_spawn_file_actions_adddup2(&fa, fds[1], fd);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    posix_spawn_file_actions_addclose(&fa, fds[1]);
  }
  pid_t pid;
  int err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (output) close(fds[1]);
  if (err) {
    if (output) close(fds[0]);
    diag_plain(DIAG_ERROR, "cannot run '%s': %s", argv[0], strerror(err));
    return -1;
  }
  if (output) {
    *output = read_all(fds[0], output_len);
    close(fds[0]);
  }
  return wait_status(pid);
}

int build_run(char *const argv[], bool echo, char **output, size_t *output_len) {
  return spawn(argv, echo, STDOUT_FILENO, output, output_len);
}

int build_run_stderr(char *const argv[], bool echo, char **err, size_t *err_len) {
  return spawn(argv, echo, STDERR_FILENO, err, err_len);
}

/* ---- tools ------------------------------------------------------------------- */

static void push_words(ArgList *l, const char *s) {
  while (*s) {
    while (*s == ' ' || *s == '\t' || *s == '\n') s++;
    size_t n = strcspn(s, " \t\n");
    if (n) {
      char *w = xstrndup(s, n);
      arglist_push(l, w);
      free(w);
    }
    s += n;
  }
}

/* Is `cmd` this very program (FC=s2s-cuda exported into the environment)? */
static bool is_self(const char *cmd) {
  if (strcmp(base_name(cmd), "s2s-cuda") == 0) return true;
  if (!strchr(cmd, '/')) return false;
  char a[PATH_MAX], b[PATH_MAX];
  return realpath(cmd, a) && realpath("/proc/self/exe", b) && strcmp(a, b) == 0;
}

void build_tool_words(ArgList *l, const char *env, const char *fallback) {
  const char *v = env ? getenv(env) : NULL;
  if (v) {
    ArgList w = { 0 };
    push_words(&w, v);
    bool use = w.n > 0 && !is_self(w.v[0]);
    for (int i = 0; use && i < w.n; i++) arglist_push(l, w.v[i]);
    arglist_free(&w);
    if (use) return;
  }
  push_words(l, fallback);
}

static void push_all(ArgList *l, const ArgList *from) {
  for (int i = 0; i < from->n; i++) arglist_push(l, from->v[i]);
}

/* The host compiler: $S2S_FC / $S2S_CC, else $FC / $CC, else the default. */
static void push_host_compiler(ArgList *l, bool fortran) {
  ArgList chosen = { 0 };
  build_tool_words(&chosen, fortran ? "S2S_FC" : "S2S_CC", "");
  if (chosen.n) push_all(l, &chosen);
  else if (fortran) build_tool_words(l, "FC", S2S_DEFAULT_FC);
  else build_tool_words(l, "CC", S2S_DEFAULT_CC);
  arglist_free(&chosen);
}

/* Does the compiler spell the module directory `-module DIR` (NVHPC, Intel)? */
static bool module_flag_compiler(const char *cmd) {
  static const char *const names[] = { "nvfortran", "pgfortran", "pgf90", "pgf95", "ifort", "ifx" };
  const char *base = base_name(cmd);
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (strncmp(base, names[i], strlen(names[i])) == 0) return true;
  return false;
}

/* The precision flags (options.c, precision_option) in the spelling of the
 * Fortran compiler: NVHPC's -r8 is gfortran's -fdefault-real-8
 * -fdefault-double-8, and nvfortran knows only -r8; a C compiler gets none
 * (gcc warns about Fortran-only flags).  Returns false if `a` is none. */
static bool push_precision_flag(ArgList *cmd, const char *a, bool fortran, bool nvhpc) {
  bool r8 = strcmp(a, "-r8") == 0, real8 = strcmp(a, "-fdefault-real-8") == 0;
  bool double8 = strcmp(a, "-fdefault-double-8") == 0;
  if (!r8 && !real8 && !double8) return false;
  if (!fortran) return true;
  if (nvhpc && (r8 || real8)) {
    arglist_push(cmd, "-r8");
  } else if (!nvhpc && r8) {
    arglist_push(cmd, "-fdefault-real-8");
    arglist_push(cmd, "-fdefault-double-8");
  } else if (!nvhpc) {
    arglist_push(cmd, a);
  }
  return true;
}

/* The compiler flags for the command begun in `cmd` (its compiler first):
 * the module directory (kept as -JDIR) only for a Fortran compiler, in its
 * spelling. */
static void push_compiler_args(ArgList *cmd, const ArgList *args, bool fortran) {
  bool module_flag = module_flag_compiler(cmd->v[0]);
  for (int i = 0; i < args->n; i++) {
    const char *a = args->v[i];
    if (push_precision_flag(cmd, a, fortran, module_flag)) {
      continue;
    } else if (strncmp(a, "-J", 2) != 0) {
      arglist_push(cmd, a);
    } else if (fortran && module_flag) {
      arglist_push(cmd, "-module");
      arglist_push(cmd, a + 2);
    } else if (fortran) {
      arglist_push(cmd, a);
    }
  }
}

/* Push the word a followed by b ("-I" "dir"). */
static void push_cat(ArgList *l, const char *a, const char *b) {
  char *s = xasprintf("%s%s", a, b);
  arglist_push(l, s);
  free(s);
}

/* ---- the driver ----------------------------------------------------------------- */

typedef struct Driver {
  const Options *o;
  TranslateFn translate;
  char *work;          /* work directory, created on first use */
  bool gpu;            /* nvcc build (else CPU emulation) */
  ArgList nvcc;        /* the nvcc command words (empty: none) */
  char *rt_include;    /* directory of s2s_rt.h */
  char *rt_lib;        /* directory of libs2srt*.a */
  ArgList objects;     /* objects and libraries to link, in command-line order */
  bool fortran;        /* link with $FC */
} Driver;

static bool is_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool same_dir(const char *a, const char *b) {
  char ra[PATH_MAX], rb[PATH_MAX];
  return realpath(a, ra) && realpath(b, rb) && strcmp(ra, rb) == 0;
}

/* Where the runtime is: the environment's S2S_RT_INCLUDEDIR/S2S_RT_LIBDIR;
 * else the build tree's, when this executable is the build tree's own; else
 * the installed one, found next to this executable (PREFIX/bin/s2s-cuda ->
 * PREFIX/include/s2s-cuda, PREFIX/lib), so an installed tree still works
 * when moved or installed with `make install prefix=DIR`; else the
 * configured installation directories. */
static void find_runtime(Driver *d) {
  char exe[PATH_MAX];
  bool in_build_tree = false, beside = false;
  char *inc_beside = NULL, *lib_beside = NULL;
  if (realpath("/proc/self/exe", exe)) {
    *strrchr(exe, '/') = '\0';
    in_build_tree = *S2S_BUILD_TOPDIR && same_dir(exe, S2S_BUILD_TOPDIR) &&
                    is_file(S2S_BUILD_RT_LIBDIR "/libs2srt_emu.a");
    inc_beside = xasprintf("%s/../include/s2s-cuda", exe);
    lib_beside = xasprintf("%s/../lib", exe);
    char *probe = xasprintf("%s/s2s_rt.h", inc_beside);
    char *lprobe = xasprintf("%s/libs2srt_emu.a", lib_beside);
    beside = is_file(probe) && is_file(lprobe);
    free(probe);
    free(lprobe);
  }
  const char *inc = getenv("S2S_RT_INCLUDEDIR"), *lib = getenv("S2S_RT_LIBDIR");
  d->rt_include = xstrdup(inc && *inc ? inc : in_build_tree ? S2S_BUILD_RT_INCLUDEDIR
                          : beside ? inc_beside : S2S_PKGINCLUDEDIR);
  d->rt_lib = xstrdup(lib && *lib ? lib : in_build_tree ? S2S_BUILD_RT_LIBDIR
                      : beside ? lib_beside : S2S_LIBDIR);
  free(inc_beside);
  free(lib_beside);
}

static bool make_work_dir(Driver *d) {
  if (d->work) return true;
  const char *tmp = getenv("TMPDIR");
  char *templ = xasprintf("%s/s2s-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(templ)) {
    diag_plain(DIAG_ERROR, "cannot create a work directory '%s': %s", templ, strerror(errno));
    free(templ);
    return false;
  }
  d->work = templ;
  return true;
}

/* Remove what the driver put under its work directory (files and the
 * per-input directories; symbolic links are removed, never followed). */
static void remove_tree(const char *path) {
  DIR *dir = opendir(path);
  if (dir) {
    struct dirent *e;
    while ((e = readdir(dir))) {
      if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
      char *child = xasprintf("%s/%s", path, e->d_name);
      struct stat st;
      if (lstat(child, &st) == 0 && S_ISDIR(st.st_mode)) remove_tree(child);
      else unlink(child);
      free(child);
    }
    closedir(dir);
  }
  rmdir(path);
}

/* A failure is reported as `<tool> failed with status N`. */
static bool check_status(const char *tool, int status) {
  if (status > 128 && status < 128 + 65)
    diag_plain(DIAG_ERROR, "%s was killed by signal %d", base_name(tool), status - 128);
  else if (status > 0)
    diag_plain(DIAG_ERROR, "%s failed with status %d", base_name(tool), status);
  return status == 0;
}

/* Run a command. */
static bool run(const Driver *d, ArgList *cmd) {
  int status = build_run(arglist_argv(cmd), d->o->verbose, NULL, NULL);
  bool ok = check_status(cmd->v[0], status);
  arglist_free(cmd);
  return ok;
}

/* The directory part of a path, "." when there is none. */
static char *dir_name(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash) return xstrdup(".");
  if (slash == path) return xstrdup("/");
  return xstrndup(path, (size_t)(slash - path));
}

/* NAME.o for NAME.EXT, in the current directory (as gcc -c). */
static char *object_name(const char *path) {
  const char *base = base_name(path);
  const char *dot = strrchr(base, '.');
  size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
  char *stem = xstrndup(base, n);
  char *obj = xasprintf("%s.o", stem);
  free(stem);
  return obj;
}

static void compile_host(const Driver *d, const Input *in, const char *file, bool translated,
                         bool cpp, const char *obj, ArgList *cmd) {
  const Options *o = d->o;
  bool fortran = in->kind != INPUT_C; /* fixed form too, compiled as it is */
  push_host_compiler(cmd, fortran);
  push_compiler_args(cmd, &o->compiler_args, fortran);
  if (fortran && cpp) arglist_push(cmd, "-cpp");
  if (translated) {
    char *dir = dir_name(in->path);
    push_cat(cmd, "-I", dir);
    free(dir);
  }
  push_all(cmd, &o->cpp_args);
  bool implied_cpp;
  if (!translated && options_kind_of(in->path, &implied_cpp) != (int)in->kind) {
    arglist_push(cmd, "-x"); /* --lang on a file named otherwise */
    arglist_push(cmd, fortran ? (cpp ? "f95-cpp-input" : "f95") : "c");
  }
  arglist_push(cmd, "-c");
  push_cat(cmd, file[0] == '-' ? "./" : "", file); /* a name after `--` is no option */
  arglist_push(cmd, "-o");
  arglist_push(cmd, obj);
}

static bool has_arch_flag(const ArgList *flags) {
  for (int i = 0; i < flags->n; i++) {
    const char *f = flags->v[i];
    if (strncmp(f, "-arch", 5) == 0 || strncmp(f, "--gpu-architecture", 18) == 0 ||
        strncmp(f, "-gencode", 8) == 0 || strncmp(f, "--generate-code", 15) == 0)
      return true;
  }
  return false;
}

/* Does NVCCFLAGS ask for ptxas's resource usage itself (-Xptxas -v,
 * --resource-usage)?  Then the lines are the user's to read, as they are. */
static bool user_asks_resource_usage(const ArgList *flags) {
  for (int i = 0; i < flags->n; i++) {
    const char *f = flags->v[i];
    if (!strcmp(f, "--resource-usage") || !strcmp(f, "-res-usage") ||
        !strcmp(f, "-Xptxas=-v") || !strcmp(f, "--ptxas-options=-v") ||
        !strcmp(f, "--ptxas-options=--verbose") || !strcmp(f, "-Xptxas=--verbose"))
      return true;
    if ((!strcmp(f, "-Xptxas") || !strcmp(f, "--ptxas-options")) && i + 1 < flags->n &&
        (!strcmp(flags->v[i + 1], "-v") || !strcmp(flags->v[i + 1], "--verbose")))
      return true;
  }
  return false;
}

/* -Kieee: nvcc's defaults but for --fmad, said explicitly so that the
 * command line shows the strict build (NVCCFLAGS come after them and could
 * still undo them, as --use_fast_math would). */
static void push_strict_nvcc(ArgList *cmd) {
  static const char *const strict[] = { "--fmad=false", "--prec-div=true", "--prec-sqrt=true",
                                        "--ftz=false" };
  for (size_t i = 0; i < sizeof strict / sizeof *strict; i++) arglist_push(cmd, strict[i]);
}

/* The nvcc command for `cu`; returns true when ptxas's resource lines are
 * wanted for the report (-Minfo or --report=json), with *added set when
 * this added -Xptxas -v for them (then the driver keeps them out of what it
 * prints; asked for in NVCCFLAGS, they are printed too). */
static bool compile_cuda(const Driver *d, const char *cu, const char *obj, ArgList *cmd,
                         bool *added) {
  bool resource_lines = false;
  *added = false;
  if (d->gpu) {
    push_all(cmd, &d->nvcc);
    ArgList flags = { 0 };
    build_tool_words(&flags, "NVCCFLAGS", "");
    if (!has_arch_flag(&flags)) {
      const char *arch = getenv("S2S_CUDA_ARCH");
      push_cat(cmd, "-arch=", arch && *arch ? arch : DEFAULT_CUDA_ARCH);
    }
    arglist_push(cmd, "-O3");
    if (d->o->relaxed_fp) arglist_push(cmd, "--use_fast_math");
    if (d->o->strict_fp) push_strict_nvcc(cmd);
    resource_lines = d->o->minfo || d->o->report_json || d->o->report_sarif;
    if (resource_lines && !user_asks_resource_usage(&flags)) {
      arglist_push(cmd, "-Xptxas");
      arglist_push(cmd, "-v");
      *added = true;
    }
    push_cat(cmd, "-I", d->rt_include);
    push_all(cmd, &flags);
    arglist_free(&flags);
  } else {
    build_tool_words(cmd, "CXX", S2S_DEFAULT_CXX);
    arglist_push(cmd, "-x");
    arglist_push(cmd, "c++");
    arglist_push(cmd, "-std=c++14");
    arglist_push(cmd, "-O2");
    if (d->o->strict_fp) arglist_push(cmd, "-ffp-contract=off"); /* also with -march=native */
    arglist_push(cmd, "-DS2S_EMULATE");
    push_cat(cmd, "-I", d->rt_include);
  }
  arglist_push(cmd, "-c");
  arglist_push(cmd, cu);
  arglist_push(cmd, "-o");
  arglist_push(cmd, obj);
  return resource_lines;
}

/* Print nvcc's standard error as it would have come, less the lines that
 * -Xptxas -v added (`drop_info`). */
static void print_filtered(const char *text, bool drop_info) {
  for (const char *p = text; *p;) {
    size_t n = strcspn(p, "\n");
    char *line = xstrndup(p, n);
    if (!drop_info || !res_is_ptxas_info(line)) fprintf(stderr, "%s\n", line);
    free(line);
    p += n + (p[n] == '\n');
  }
  fflush(stderr);
}

/* Compile the .cu.  When the report wants resources, nvcc's standard error
 * is read: the resource lines of the translation's kernels go to the
 * report, the rest (warnings) is printed; the ptxas lines too when the
 * user's NVCCFLAGS asked for them, and all of it after a failure. */
static bool build_cuda(const Driver *d, const Translated *tr, const char *obj) {
  ArgList cmd = { 0 };
  bool added;
  if (!compile_cuda(d, tr->cu_path, obj, &cmd, &added)) return run(d, &cmd);
  char *err = NULL;
  size_t len = 0;
  int status = build_run_stderr(arglist_argv(&cmd), d->o->verbose, &err, &len);
  bool ok = status == 0;
  if (err) {
    print_filtered(err, ok && added);
    if (ok) res_report(err, &tr->kernels);
  }
  ok = check_status(cmd.v[0], status);
  free(err);
  arglist_free(&cmd);
  return ok;
}

/* ---- passthrough and dependency files -------------------------------------------- */

/* The input's name as an argument (a name after `--` is no option). */
static void push_input(ArgList *cmd, const char *path) {
  push_cat(cmd, path[0] == '-' ? "./" : "", path);
}

/* -E, -M, -MM: what the host compiler does with the sources as they are
 * (CMake's Ninja generator preprocesses Fortran with -E before it scans the
 * modules; makedepend-style rules run -M).  One command for the Fortran
 * inputs (fixed form included), one for the C ones. */
static int passthrough(const Options *o) {
  bool ok = true;
  for (int lang = 0; lang < 2 && ok; lang++) {
    bool fortran = lang == 0;
    ArgList cmd = { 0 };
    push_host_compiler(&cmd, fortran);
    push_compiler_args(&cmd, &o->compiler_args, fortran);
    if (fortran && o->cpp_forced) arglist_push(&cmd, "-cpp");
    if (fortran && o->nocpp) arglist_push(&cmd, "-nocpp");
    push_all(&cmd, &o->cpp_args);
    if (o->preprocess_only) arglist_push(&cmd, "-E");
    static const struct { size_t offset; const char *flag; } flags[] = {
      { offsetof(Options, deps.m), "-M" },   { offsetof(Options, deps.mm), "-MM" },
      { offsetof(Options, deps.md), "-MD" }, { offsetof(Options, deps.mmd), "-MMD" },
      { offsetof(Options, deps.mp), "-MP" },
    };
    for (size_t k = 0; k < sizeof flags / sizeof *flags; k++)
      if (*(const bool *)((const char *)o + flags[k].offset)) arglist_push(&cmd, flags[k].flag);
    if (o->deps.mf) push_cat(&cmd, "-MF", o->deps.mf);
    push_all(&cmd, &o->deps.targets);
    int before = cmd.n;
    for (int i = 0; i < o->ninputs; i++)
      if ((o->inputs[i].kind != INPUT_C) == fortran) push_input(&cmd, o->inputs[i].path);
    if (cmd.n == before) {
      arglist_free(&cmd);
      continue;
    }
    if (o->output) {
      arglist_push(&cmd, "-o");
      arglist_push(&cmd, o->output);
    }
    int status = build_run(arglist_argv(&cmd), o->verbose, NULL, NULL);
    ok = check_status(cmd.v[0], status);
    arglist_free(&cmd);
  }
  return ok ? 0 : 1;
}

/* Where -MD writes: -MF FILE, else (as gcc) the object's name with .d for
 * .o when compiling with -c, the source's stem with .d otherwise. */
static char *dep_file_name(const Options *o, const Input *in, const char *obj) {
  if (o->deps.mf) return xstrdup(o->deps.mf);
  const char *name = o->compile_only ? obj : base_name(in->path);
  const char *base = base_name(name), *dot = strrchr(base, '.');
  size_t n = dot && dot != base ? (size_t)(dot - name) : strlen(name);
  char *stem = xstrndup(name, n);
  char *dep = xasprintf("%s.d", stem);
  free(stem);
  return dep;
}

/* A file name in a make rule: `$` doubled, blanks and `#` escaped. */
static void put_make_word(FILE *f, const char *s) {
  for (; *s; s++) {
    if (*s == '$') fputc('$', f);
    else if (*s == ' ' || *s == '\t' || *s == '#') fputc('\\', f);
    fputc(*s, f);
  }
}

/* The rule's targets: -MT as given, -MQ quoted for make, else the object. */
static void put_dep_targets(FILE *f, const Options *o, const char *obj) {
  for (int i = 0; i < o->deps.targets.n; i++) {
    const char *t = o->deps.targets.v[i];
    if (i) fputc(' ', f);
    if (strncmp(t, "-MQ", 3) == 0) put_make_word(f, t + 3);
    else fputs(t + 3, f);
  }
  if (!o->deps.targets.n) put_make_word(f, obj);
}

/* With -MD or -MMD, write the dependency file of input `in`, compiled to
 * `obj`.  The host compiler's own -MD would name the translated file in the
 * driver's work directory, deleted at the end, which the next `make` cannot
 * find; so the host compiler's preprocessor lists the dependencies of the
 * user's source as it is (-M or -MM: its includes and, for Fortran, the
 * .mod files of the modules it uses and defines), and the summaries the
 * translation read are added as prerequisites and those it wrote as
 * targets, like gfortran's .mod files.  Fortran is scanned with -cpp, without
 * which gfortran lists nothing.  Written to a temporary name, then renamed:
 * make never reads half a file. */
static bool write_dep_file(const Driver *d, const Input *in, const char *work_obj) {
  const Options *o = d->o;
  FeNames read, written;
  fe_modules_take_files(&read, &written);
  bool ok = true;
  /* compiling and linking at once, the object is the driver's own: the rule
   * names NAME.o, as gcc's does */
  char *obj = o->compile_only ? xstrdup(work_obj) : object_name(in->path);
  if (o->deps.md || o->deps.mmd) {
    bool fortran = in->kind != INPUT_C;
    ArgList cmd = { 0 };
    push_host_compiler(&cmd, fortran);
    push_compiler_args(&cmd, &o->compiler_args, fortran);
    if (fortran) arglist_push(&cmd, "-cpp");
    push_all(&cmd, &o->cpp_args);
    arglist_push(&cmd, o->deps.md ? "-M" : "-MM");
    if (o->deps.mp) arglist_push(&cmd, "-MP");
    if (o->deps.targets.n) push_all(&cmd, &o->deps.targets);
    else push_cat(&cmd, "-MT", obj);
    bool implied_cpp;
    if (options_kind_of(in->path, &implied_cpp) != (int)in->kind) {
      arglist_push(&cmd, "-x"); /* --lang on a file named otherwise */
      arglist_push(&cmd, fortran ? "f95-cpp-input" : "c");
    }
    push_input(&cmd, in->path);
    char *rules = NULL;
    size_t len = 0;
    ok = check_status(cmd.v[0], build_run(arglist_argv(&cmd), o->verbose, &rules, &len));
    arglist_free(&cmd);
    char *path = dep_file_name(o, in, obj);
    char *tmp = xasprintf("%s.s2s-%ld", path, (long)getpid());
    FILE *f = ok ? fopen(tmp, "w") : NULL;
    if (ok && !f) diag_plain(DIAG_ERROR, "cannot write '%s': %s", path, strerror(errno));
    if (f) {
      fwrite(rules, 1, len, f);
      if (read.n || written.n) {
        put_dep_targets(f, o, obj);
        for (int i = 0; i < written.n; i++) fputc(' ', f), put_make_word(f, written.v[i]);
        fputs(": ", f);
        put_make_word(f, in->path);
        for (int i = 0; i < read.n; i++) fputs(" \\\n ", f), put_make_word(f, read.v[i]);
        fputc('\n', f);
        for (int i = 0; o->deps.mp && i < read.n; i++) fputc('\n', f), put_make_word(f, read.v[i]), fputs(":\n", f);
      }
      ok = fclose(f) == 0;
      if (!ok || rename(tmp, path) != 0) {
        diag_plain(DIAG_ERROR, "cannot write '%s': %s", path, strerror(errno));
        unlink(tmp);
        ok = false;
      }
    }
    free(tmp);
    free(path);
    free(rules);
  }
  fe_names_free(&read);
  fe_names_free(&written);
  free(obj);
  return ok;
}

/* Translate and compile input i into object `obj`. */
static bool build_source(Driver *d, int i, const char *obj) {
  const Input *in = &d->o->inputs[i];
  if (!make_work_dir(d)) return false;
  char *dir = xasprintf("%s/%d", d->work, i + 1);
  if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
    diag_plain(DIAG_ERROR, "cannot create '%s': %s", dir, strerror(errno));
    free(dir);
    return false;
  }
  Translated tr = { 0 };
  /* A fixed-form file without a directive line is compiled as it is (as
   * CMake's compiler identification needs); one with a directive line
   * (`c$stencil`, `c$acc`, ...) is translated, and refused saying so. */
  bool as_is = in->kind == INPUT_FIXED_FORM && !source_fixed_form_has_directive(in->path);
  bool ok = as_is || d->translate(d->o, in, dir, &tr) == 0;
  ArgList cmd = { 0 };
  if (ok && !tr.host_path) {
    compile_host(d, in, in->path, false, in->cpp || tr.preprocessed, obj, &cmd);
    ok = run(d, &cmd);
  } else if (ok) {
    char *host_obj = xasprintf("%s/host.o", dir), *cu_obj = xasprintf("%s/cuda.o", dir);
    compile_host(d, in, tr.host_path, true, in->cpp || tr.preprocessed, host_obj, &cmd);
    ok = run(d, &cmd);
    int warnings = report_warning_count();
    if (ok) ok = build_cuda(d, &tr, cu_obj);
    /* -Werror: a resource warning (spills, local memory) leaves no object */
    if (ok && d->o->werror && report_warning_count() > warnings) ok = false;
    if (ok) {
      build_tool_words(&cmd, "LD", "ld");
      arglist_push(&cmd, "-r");
      arglist_push(&cmd, "-o");
      arglist_push(&cmd, obj);
      arglist_push(&cmd, host_obj);
      arglist_push(&cmd, cu_obj);
      ok = run(d, &cmd);
    }
    free(host_obj);
    free(cu_obj);
  }
  if (ok) ok = write_dep_file(d, in, obj);
  free(tr.host_path);
  free(tr.cu_path);
  res_sites_free(&tr.kernels);
  free(dir);
  return ok;
}

/* Does an object or library use the gfortran runtime (then $FC links)? */
static bool mentions_gfortran(const char *path) {
  static const char needle[] = "_gfortran_";
  const size_t m = sizeof needle - 1;
  FILE *f = fopen(path, "rb");
  if (!f) return false;
  char buf[1 << 16];
  size_t kept = 0, n;
  bool found = false;
  while (!found && (n = fread(buf + kept, 1, sizeof buf - kept, f)) > 0) {
    n += kept;
    for (size_t i = 0; i + m <= n && !found; i++) found = memcmp(buf + i, needle, m) == 0;
    /* keep the tail, which may hold the start of a match cut by the read */
    kept = n < m - 1 ? n : m - 1;
    memmove(buf, buf + n - kept, kept);
  }
  fclose(f);
  return found;
}

static void push_runtime(const Driver *d, ArgList *cmd) {
  if (d->gpu) {
    push_cat(cmd, d->rt_lib, "/libs2srt.a");
    const char *env = getenv("CUDA_LIBDIR");
    const char *cudalib = env && *env ? env : *S2S_CUDA_LIBDIR ? S2S_CUDA_LIBDIR : "/usr/local/cuda/lib64";
    push_cat(cmd, "-L", cudalib);
    char *stat_lib = xasprintf("%s/libcudart_static.a", cudalib);
    if (is_file(stat_lib)) {
      arglist_push(cmd, "-lcudart_static");
      arglist_push(cmd, "-ldl");
      arglist_push(cmd, "-lpthread");
      arglist_push(cmd, "-lrt");
    } else {
      arglist_push(cmd, "-lcudart");
      push_cat(cmd, "-Wl,-rpath,", cudalib);
    }
    free(stat_lib);
  } else {
    push_cat(cmd, d->rt_lib, "/libs2srt_emu.a");
  }
  arglist_push(cmd, "-lstdc++");
  arglist_push(cmd, "-lm");
  push_words(cmd, S2S_SANITIZE_FLAGS);
}

static bool check_runtime_lib(const Driver *d) {
  char *lib = xasprintf("%s/%s", d->rt_lib, d->gpu ? "libs2srt.a" : "libs2srt_emu.a");
  bool ok = is_file(lib);
  if (!ok && d->gpu)
    diag_plain(DIAG_ERROR, "the GPU runtime '%s' was not found; build s2s-cuda with CUDA, "
               "set S2S_RT_LIBDIR, or use --emulate", lib);
  else if (!ok)
    diag_plain(DIAG_ERROR, "the runtime '%s' was not found; set S2S_RT_LIBDIR to the "
               "directory of libs2srt_emu.a", lib);
  free(lib);
  return ok;
}

static bool has_link_input(const Options *o) {
  for (int i = 0; i < o->ninputs; i++)
    if (o->inputs[i].kind == INPUT_LINK) return true;
  return false;
}

static bool link_program(Driver *d) {
  const Options *o = d->o;
  if (!check_runtime_lib(d)) return false;
  ArgList cmd = { 0 };
  push_host_compiler(&cmd, d->fortran);
  push_compiler_args(&cmd, &o->compiler_args, false); /* no module directory when linking */
  arglist_push(&cmd, "-o");
  arglist_push(&cmd, o->output ? o->output : "a.out");
  push_all(&cmd, &d->objects);
  push_all(&cmd, &o->link_args);
  push_runtime(d, &cmd);
  bool ok = run(d, &cmd);
  if (!ok && o->output && !has_link_input(o))
    /* Only -o made this a build (options.c, decide_mode): the user may
     * have meant a directory for the translations, as without -o. */
    diag_plain(DIAG_NOTE, "'-o %s' without -c names the program to build, as for gfortran, "
               "because '%s' is not a directory; to translate into a directory, create it "
               "first or write '-o %s/'", o->output, o->output, o->output);
  return ok;
}

static void choose_mode(Driver *d) {
  build_tool_words(&d->nvcc, "NVCC", S2S_NVCC);
  d->gpu = !d->o->emulate && d->nvcc.n > 0;
  find_runtime(d);
  if (d->o->verbose)
    fprintf(stderr, "s2s-cuda: %s build; runtime headers %s, libraries %s\n",
            d->gpu ? "GPU" : "CPU emulation", d->rt_include, d->rt_lib);
}

static bool build_all(Driver *d) {
  const Options *o = d->o;
  int *order = build_input_order(o);
  if (!order) return false;
  char **objs = xcalloc((size_t)o->ninputs, sizeof *objs);
  bool ok = true;
  for (int k = 0; k < o->ninputs && ok; k++) {
    int i = order[k];
    const Input *in = &o->inputs[i];
    if (in->kind == INPUT_LINK) {
      objs[i] = xstrdup(in->path);
      d->fortran |= mentions_gfortran(in->path);
      continue;
    }
    d->fortran |= in->kind != INPUT_C;
    char *obj = o->compile_only
        ? (o->output ? xstrdup(o->output) : object_name(in->path))
        : NULL;
    if (!obj) {
      ok = make_work_dir(d);
      if (!ok) break;
      char *stem = object_name(in->path);
      obj = xasprintf("%s/%d-%s", d->work, i + 1, stem);
      free(stem);
    }
    ok = build_source(d, i, obj);
    objs[i] = obj;
  }
  for (int i = 0; i < o->ninputs; i++) {
    if (ok && !o->compile_only) arglist_push(&d->objects, objs[i]);
    free(objs[i]);
  }
  free(objs);
  free(order);
  return ok && (o->compile_only || link_program(d));
}

int *build_input_order(const Options *o) {
  int n = o->ninputs;
  FeUnits **units = xcalloc((size_t)n, sizeof *units);
  const char **paths = xcalloc((size_t)n, sizeof *paths);
  for (int i = 0; i < n; i++) {
    paths[i] = o->inputs[i].path;
    if (o->inputs[i].kind != INPUT_FORTRAN) continue;
    FILE *f = fopen(paths[i], "rb");
    if (!f) continue; /* reported when it is translated */
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    char buf[1 << 14];
    size_t got;
    while (mem && (got = fread(buf, 1, sizeof buf, f)) > 0) fwrite(buf, 1, got, mem);
    fclose(f);
    if (!mem) continue;
    fclose(mem);
    units[i] = xcalloc(1, sizeof **units);
    fe_scan_source(text, len, units[i]);
    free(text);
    for (int k = 0; k < units[i]->modules.n; k++)
      fe_modules_expect(FE_UNIT_MODULE, units[i]->modules.v[k], paths[i]);
    for (int k = 0; k < units[i]->procedures.n; k++)
      fe_modules_expect(FE_UNIT_PROCEDURE, units[i]->procedures.v[k], paths[i]);
  }
  int *order = xcalloc((size_t)(n ? n : 1), sizeof *order);
  if (!fe_order_inputs(n, paths, (const FeUnits *const *)units, order)) {
    free(order);
    order = NULL;
  }
  for (int i = 0; i < n; i++) {
    if (units[i]) fe_units_free(units[i]);
    free(units[i]);
  }
  free(units);
  free(paths);
  return order;
}

/* `-o x.f90` must not replace an input with an object or a program. */
static bool output_is_input(const Options *o) {
  struct stat so, si;
  if (!o->output || stat(o->output, &so) != 0) return false;
  for (int i = 0; i < o->ninputs; i++)
    if (stat(o->inputs[i].path, &si) == 0 && si.st_dev == so.st_dev && si.st_ino == so.st_ino) {
      diag_plain(DIAG_ERROR, "the output '%s' is the input '%s'", o->output, o->inputs[i].path);
      return true;
    }
  return false;
}

int build_driver(const Options *o, TranslateFn translate) {
  if (output_is_input(o)) return 1;
  if (options_passthrough(o)) return passthrough(o);
  Driver d = { .o = o, .translate = translate };
  choose_mode(&d);
  bool ok = build_all(&d);
  if (d.work && o->keep) fprintf(stderr, "s2s-cuda: work directory kept: %s\n", d.work);
  else if (d.work) remove_tree(d.work);
  free(d.work);
  free(d.rt_include);
  free(d.rt_lib);
  arglist_free(&d.nvcc);
  arglist_free(&d.objects);
  return ok ? 0 : 1;
}
