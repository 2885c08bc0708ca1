/* resources.h — kernel resource feedback: what ptxas allocated to each
 * kernel and the occupancy that allows (issue 12, item 6).
 *
 * In compiler-driver mode with nvcc and -Minfo, build_driver.c passes
 * `-Xptxas -v` to nvcc and hands its standard error here.  ptxas prints,
 * for each entry function and architecture (CUDA 13):
 *
 *   ptxas info    : Compiling entry function '_Z10physics_r1IiEvPKfT_...' for 'sm_90'
 *   ptxas info    : Function properties for _Z10physics_r1IiEvPKfT_...
 *       0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
 *   ptxas info    : Used 19 registers, used 0 barriers, 512 bytes smem, 408 bytes cmem[0]
 *
 * (smem and cmem only when not zero; older releases also print `lmem`).
 * res_parse_ptxas turns that into ResUsage records, res_demangle_kernel
 * maps each entry back to the generated kernel template and its index type
 * (every kernel has an `int` and a `long` instance, emit_cuda.c), and
 * res_occupancy computes the theoretical occupancy from the per-architecture
 * limits of res_arch, the one table of them.  The translator records each
 * kernel's name, source line and default block (ResKernelSite) while it
 * writes the .cu, so nothing here reads the generated code back.
 *
 * Everything but res_report is a pure function of its arguments
 * (tests/check_resources.c); res_report adds the report lines.
 */
#ifndef S2S_RESOURCES_H
#define S2S_RESOURCES_H

#include <stdbool.h>
#include <stddef.h>

/* One kernel of the generated file, as the translator wrote it. */
typedef struct ResKernelSite {
  char *name;        /* the __global__ template's name, e.g. "physics_r1" (owned) */
  char *routine;     /* the user's routine that holds the region (owned): report group */
  char *file;        /* the user's file (owned) */
  int line;          /* the user's line of the kernel's loop nest */
  int block[3];      /* the launcher's default block (x, y, z) */
  bool block_fixed;  /* vector(N) given: S2S_TUNE keeps this block */
  long tile_bytes;   /* dynamic shared memory of its tiles at that block (pass smem), which
                        ptxas does not see: added to its static shared memory */
} ResKernelSite;

typedef struct ResKernelSites {
  int n, cap;
  ResKernelSite *v;
} ResKernelSites;

/* Append a kernel (the strings are copied). */
void res_sites_add(ResKernelSites *l, const char *name, const char *routine, const char *file,
                   int line, const int block[3], bool block_fixed);
void res_sites_free(ResKernelSites *l);
const ResKernelSite *res_sites_find(const ResKernelSites *l, const char *name);

/* What ptxas reported for one entry function on one architecture. */
typedef struct ResUsage {
  char *function;      /* the mangled entry name, as ptxas prints it (owned; a WSM5 kernel's
                          runs to 1,400 characters) */
  char arch[16];       /* "sm_90" */
  int registers;       /* per thread */
  int barriers;
  long smem;           /* static shared memory per block, bytes */
  long cmem0;          /* constant bank 0 (the parameters), bytes; 0 when not printed */
  long stack_frame;    /* local memory per thread, bytes */
  long spill_stores, spill_loads;
  long lmem;           /* `N bytes lmem` of older ptxas releases; 0 otherwise */
} ResUsage;

typedef struct ResUsageList {
  int n, cap;
  ResUsage *v;         /* owned */
} ResUsageList;

/* Parse ptxas's -v output (any other lines are skipped).  Appends one record
 * per `Compiling entry function` line, filled from the lines that follow it.
 * Returns the number appended. */
int res_parse_ptxas(const char *text, ResUsageList *out);
void res_usage_free(ResUsageList *l);

/* Is this line (without its newline) one that -Xptxas -v adds: a `ptxas
 * info` line or the indented properties line after `Function properties`? */
bool res_is_ptxas_info(const char *line);

/* The kernel template and index type of a mangled entry of a generated
 * file: `_Z10physics_r1IiEv...` -> "physics_r1", "int" (`l` -> "long",
 * `x` -> "long long").  False for any other shape (then nothing is set). */
bool res_demangle_kernel(const char *mangled, char *name, size_t size, const char **index_type);

/* The limits of one architecture that decide occupancy (CUDA C Programming
 * Guide, "Compute capabilities", and cuda_occupancy.h). */
typedef struct ResArch {
  const char *name;          /* "sm_90" */
  int max_warps;             /* resident warps per SM */
  int max_blocks;            /* resident blocks per SM */
  int regs_per_sm;           /* 32-bit registers per SM */
  int reg_alloc_unit;        /* registers are allocated per warp in units of this many */
  int sub_partitions;        /* the register file is split between this many schedulers */
  int max_regs_per_block;
  long smem_per_sm;          /* shared memory per SM, bytes (largest carve-out) */
  long smem_per_block;       /* the most one block may use, bytes */
  long smem_reserved;        /* reserved by the system per block, bytes */
  int smem_alloc_unit;       /* shared memory is allocated in units of this many bytes */
} ResArch;

/* The limits of `arch` ("sm_90", "sm_90a", "compute_90" all mean sm_90), or
 * NULL when the table does not know it. */
const ResArch *res_arch(const char *arch);

/* What keeps more warps from being resident. */
typedef enum ResLimit {
  RES_LIMIT_WARPS,      /* the SM's warp slots: full occupancy for this block */
  RES_LIMIT_BLOCKS,     /* the SM's block slots (small blocks) */
  RES_LIMIT_REGISTERS,
  RES_LIMIT_SHARED,
  RES_LIMIT_NO_FIT,     /* one block does not fit at all: the launch fails */
} ResLimit;

typedef struct ResOccupancy {
  int blocks;           /* resident blocks per SM */
  int warps;            /* resident warps per SM */
  int max_warps;        /* the SM's warp slots */
  int percent;          /* 100 * warps / max_warps, rounded down */
  ResLimit limit;
  const char *why;      /* for RES_LIMIT_NO_FIT: which resource, as text */
} ResOccupancy;

/* Theoretical occupancy of a kernel using `registers` per thread and `smem`
 * bytes of shared memory per block, launched with `threads` threads per
 * block, on `a`. */
ResOccupancy res_occupancy(const ResArch *a, int threads, int registers, long smem);

/* The words for a limit, e.g. "limited by registers". */
const char *res_limit_text(ResLimit limit);

/* The report text for one kernel instance (malloc'ed):
 *   Kernel physics_r1 (sm_90, int index): 19 registers, 0 bytes shared, 0 bytes local
 *   (stack 0, spills 0/0); theoretical occupancy 100% (64 of 64 warps per SM at block 128,
 *   limited by warps)
 * and, when it spills or uses local memory, the text of a warning (*warning,
 * malloc'ed; NULL otherwise). */
char *res_kernel_text(const ResUsage *u, const char *kernel, const char *index_type,
                      const int block[3], char **warning);

/* Add the report lines (report.h) for each kernel of `sites` that `ptxas`
 * (the captured output) describes, at the kernel's line.  Entries that are
 * not kernels of `sites` (a __device__ function, another file's) are
 * skipped.  Returns the number of kernel instances reported. */
int res_report(const char *ptxas, const ResKernelSites *sites);

#endif
