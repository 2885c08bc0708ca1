/* check_resources.c — unit tests of the resource feedback (resources.c):
 * parsing ptxas -v, naming the kernel instances, the occupancy table and
 * the report lines.
 *
 * The ptxas texts are real: captured from CUDA 13.0's
 * `nvcc -O3 -Xptxas -v -c` on generated files of the golden and sample
 * inputs (what build_driver.c reads in compiler-driver mode).
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "resources.h"

/* ---- captured ptxas output -------------------------------------------------- */

/* tests/golden/gen/fortran-privatize with NVCCFLAGS=-maxrregcount=24 for
 * sm_90: the long instance spills, the int one does not. */
static const char spill_text[] =
    "ptxas info    : Overriding maximum register limit 256 for '_Z8micro_r1IlEvPKfT_S2_S2_S2_S2_PfS2_S2_S2_S3_S2_S2_S2_S2_S2_iiiiS2_S2_S2_' with  24 of maxrregcount option\n"
    "ptxas info    : Overriding maximum register limit 256 for '_Z8micro_r1IiEvPKfT_S2_S2_S2_S2_PfS2_S2_S2_S3_S2_S2_S2_S2_S2_iiiiS2_S2_S2_' with  24 of maxrregcount option\n"
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function '_Z8micro_r1IlEvPKfT_S2_S2_S2_S2_PfS2_S2_S2_S3_S2_S2_S2_S2_S2_iiiiS2_S2_S2_' for 'sm_90'\n"
    "ptxas info    : Function properties for _Z8micro_r1IlEvPKfT_S2_S2_S2_S2_PfS2_S2_S2_S3_S2_S2_S2_S2_S2_iiiiS2_S2_S2_\n"
    "    8 bytes stack frame, 8 bytes spill stores, 24 bytes spill loads\n"
    "ptxas info    : Used 24 registers, used 0 barriers, 8 bytes cumulative stack size\n"
    "ptxas info    : Compile time = 35.410 ms\n"
    "ptxas info    : Compiling entry function '_Z8micro_r1IiEvPKfT_S2_S2_S2_S2_PfS2_S2_S2_S3_S2_S2_S2_S2_S2_iiiiS2_S2_S2_' for 'sm_90'\n"
    "ptxas info    : Function properties for _Z8micro_r1IiEvPKfT_S2_S2_S2_S2_PfS2_S2_S2_S3_S2_S2_S2_S2_S2_iiiiS2_S2_S2_\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 24 registers, used 0 barriers\n"
    "ptxas info    : Compile time = 25.002 ms\n";

/* tests/diff/reduction-used-in-region (golden fortran-reduction), sm_90:
 * kernel k1 reduces through shared memory (a barrier, 512 bytes); nvcc's
 * own warning about the source comes first. */
static const char reduction_text[] =
    "in.s2s.cu(25): warning #177-D: variable \"mean\" was declared but never referenced\n"
    "      double mean;\n"
    "             ^\n"
    "Remark: The warnings can be suppressed with \"-diag-suppress <warning-number>\"\n"
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function '_Z17remove_mean_r1_k2IlEvPKdT_S2_S2_PdS2_S2_S2_iiiiddS2_S2_S2_' for 'sm_90'\n"
    "ptxas info    : Function properties for _Z17remove_mean_r1_k2IlEvPKdT_S2_S2_PdS2_S2_S2_iiiiddS2_S2_S2_\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 28 registers, used 0 barriers\n"
    "ptxas info    : Compile time = 18.873 ms\n"
    "ptxas info    : Compiling entry function '_Z17remove_mean_r1_k2IiEvPKdT_S2_S2_PdS2_S2_S2_iiiiddS2_S2_S2_' for 'sm_90'\n"
    "ptxas info    : Function properties for _Z17remove_mean_r1_k2IiEvPKdT_S2_S2_PdS2_S2_S2_iiiiddS2_S2_S2_\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 26 registers, used 0 barriers\n"
    "ptxas info    : Compile time = 16.079 ms\n"
    "ptxas info    : Compiling entry function '_Z17remove_mean_r1_k1IlEvPKdT_S2_S2_S1_S2_S2_S2_iiPdS3_S2_S2_S2_' for 'sm_90'\n"
    "ptxas info    : Function properties for _Z17remove_mean_r1_k1IlEvPKdT_S2_S2_S1_S2_S2_S2_iiPdS3_S2_S2_S2_\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 21 registers, used 1 barriers, 512 bytes smem\n"
    "ptxas info    : Compile time = 28.772 ms\n"
    "ptxas info    : Compiling entry function '_Z17remove_mean_r1_k1IiEvPKdT_S2_S2_S1_S2_S2_S2_iiPdS3_S2_S2_S2_' for 'sm_90'\n"
    "ptxas info    : Function properties for _Z17remove_mean_r1_k1IiEvPKdT_S2_S2_S1_S2_S2_S2_iiPdS3_S2_S2_S2_\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 22 registers, used 1 barriers, 512 bytes smem\n"
    "ptxas info    : Compile time = 17.106 ms\n";

/* golden fortran-device-function for sm_80: ptxas of sm_80 prints cmem[0]. */
static const char cmem_text[] =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function '_Z15count_digits_r1IlEvPKiT_PiS2_S2_S2_S2_' for 'sm_80'\n"
    "ptxas info    : Function properties for _Z15count_digits_r1IlEvPKiT_PiS2_S2_S2_S2_\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 12 registers, used 0 barriers, 408 bytes cmem[0]\n"
    "ptxas info    : Compile time = 2.759 ms\n"
    "ptxas info    : Compiling entry function '_Z15count_digits_r1IiEvPKiT_PiS2_S2_S2_S2_' for 'sm_80'\n"
    "ptxas info    : Function properties for _Z15count_digits_r1IiEvPKiT_PiS2_S2_S2_S2_\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 10 registers, used 0 barriers, 392 bytes cmem[0]\n"
    "ptxas info    : Compile time = 2.662 ms\n";

/* samples/wsm5, variant 1 of its region, sm_90: entry names of 800
 * characters, 156 registers in the long instance. */
static const char wsm5_text[] =
    "ptxas info    : Compiling entry function '_Z10wsm5_r1_v1IlEvPKfT_S2_S2_S2_S2_PfS2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S1_S2_S2_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S1_S2_S2_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S3_S2_S3_S2_S3_S2_S3_S2_S3_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_iiiiiiiiffffffffffffffffffffffS2_S2_S2_' for 'sm_90'\n"
    "ptxas info    : Function properties for _Z10wsm5_r1_v1IlEvPKfT_S2_S2_S2_S2_PfS2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S1_S2_S2_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S1_S2_S2_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S3_S2_S3_S2_S3_S2_S3_S2_S3_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_iiiiiiiiffffffffffffffffffffffS2_S2_S2_\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 156 registers, used 0 barriers\n"
    "ptxas info    : Compile time = 1348.568 ms\n"
    "ptxas info    : Compiling entry function '_Z10wsm5_r1_v1IiEvPKfT_S2_S2_S2_S2_PfS2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S1_S2_S2_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S1_S2_S2_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S3_S2_S3_S2_S3_S2_S3_S2_S3_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_iiiiiiiiffffffffffffffffffffffS2_S2_S2_' for 'sm_90'\n"
    "ptxas info    : Function properties for _Z10wsm5_r1_v1IiEvPKfT_S2_S2_S2_S2_PfS2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S1_S2_S2_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S1_S2_S2_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S3_S2_S3_S2_S3_S2_S3_S2_S3_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_S3_S2_S2_S2_iiiiiiiiffffffffffffffffffffffS2_S2_S2_\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 96 registers, used 0 barriers\n"
    "ptxas info    : Compile time = 572.954 ms\n";

/* ---- parsing --------------------------------------------------------------------- */

static const struct {
  const char *text;
  int index;                /* which entry of the text */
  const char *kernel, *type, *arch;
  int registers, barriers;
  long smem, cmem0, stack, spill_stores, spill_loads;
} parsed[] = {
  { spill_text, 0, "micro_r1", "long", "sm_90", 24, 0, 0, 0, 8, 8, 24 },
  { spill_text, 1, "micro_r1", "int", "sm_90", 24, 0, 0, 0, 0, 0, 0 },
  { reduction_text, 0, "remove_mean_r1_k2", "long", "sm_90", 28, 0, 0, 0, 0, 0, 0 },
  { reduction_text, 1, "remove_mean_r1_k2", "int", "sm_90", 26, 0, 0, 0, 0, 0, 0 },
  { reduction_text, 2, "remove_mean_r1_k1", "long", "sm_90", 21, 1, 512, 0, 0, 0, 0 },
  { reduction_text, 3, "remove_mean_r1_k1", "int", "sm_90", 22, 1, 512, 0, 0, 0, 0 },
  { cmem_text, 0, "count_digits_r1", "long", "sm_80", 12, 0, 0, 408, 0, 0, 0 },
  { cmem_text, 1, "count_digits_r1", "int", "sm_80", 10, 0, 0, 392, 0, 0, 0 },
  { wsm5_text, 0, "wsm5_r1_v1", "long", "sm_90", 156, 0, 0, 0, 0, 0, 0 },
  { wsm5_text, 1, "wsm5_r1_v1", "int", "sm_90", 96, 0, 0, 0, 0, 0, 0 },
};

START_TEST(test_parse) {
  ResUsageList l = { 0 };
  int n = res_parse_ptxas(parsed[_i].text, &l);
  ck_assert_int_eq(n, parsed[_i].text == reduction_text ? 4 : 2);
  ck_assert_int_lt(parsed[_i].index, l.n);
  const ResUsage *u = &l.v[parsed[_i].index];
  char name[256];
  const char *type;
  ck_assert_msg(res_demangle_kernel(u->function, name, sizeof name, &type), "%s", u->function);
  ck_assert_str_eq(name, parsed[_i].kernel);
  ck_assert_str_eq(type, parsed[_i].type);
  ck_assert_str_eq(u->arch, parsed[_i].arch);
  ck_assert_int_eq(u->registers, parsed[_i].registers);
  ck_assert_int_eq(u->barriers, parsed[_i].barriers);
  ck_assert_int_eq(u->smem, parsed[_i].smem);
  ck_assert_int_eq(u->cmem0, parsed[_i].cmem0);
  ck_assert_int_eq(u->stack_frame, parsed[_i].stack);
  ck_assert_int_eq(u->spill_stores, parsed[_i].spill_stores);
  ck_assert_int_eq(u->spill_loads, parsed[_i].spill_loads);
  res_usage_free(&l);
}
END_TEST

/* Older ptxas releases: cmem and lmem on the Used line; a __device__
 * function's own properties line is not the entry's. */
START_TEST(test_parse_older_format) {
  static const char text[] =
      "ptxas info    : Compiling entry function '_Z4k_r1IiEvPf' for 'sm_80'\n"
      "ptxas info    : Function properties for _Z10s2s_dev_fi\n"
      "    48 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Function properties for _Z4k_r1IiEvPf\n"
      "    16 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads\n"
      "ptxas info    : Used 18 registers, 16 bytes lmem, 360 bytes cmem[0]\n";
  ResUsageList l = { 0 };
  ck_assert_int_eq(res_parse_ptxas(text, &l), 1);
  ck_assert_int_eq(l.v[0].registers, 18);
  ck_assert_int_eq(l.v[0].stack_frame, 16);
  ck_assert_int_eq(l.v[0].spill_stores, 4);
  ck_assert_int_eq(l.v[0].lmem, 16);
  ck_assert_int_eq(l.v[0].cmem0, 360);
  res_usage_free(&l);
  ck_assert_int_eq(res_parse_ptxas("", &l), 0);
  ck_assert_int_eq(res_parse_ptxas("nvcc fatal   : Unknown option '-foo'\n", &l), 0);
  res_usage_free(&l);
}
END_TEST

/* ---- names ------------------------------------------------------------------------ */

static const struct {
  const char *mangled, *kernel, *type; /* kernel NULL: not one of ours */
} names[] = {
  { "_Z10physics_r1IiEvPKfT_PfS2_S1_S2_PdS2_iS2_S2_S2_", "physics_r1", "int" },
  { "_Z10physics_r1IlEvPKfT_PfS2_S1_S2_PdS2_iS2_S2_S2_", "physics_r1", "long" },
  { "_Z4k_r1IxEvv", "k_r1", "long long" },
  { "_Z10s2s_dev_fi", NULL, NULL },           /* a __device__ function, no template */
  { "_ZN3s2s6reduceEPf", NULL, NULL },        /* a nested name */
  { "_Z10physics_r1IfEvv", NULL, NULL },      /* not an index type */
  { "_Z99short", NULL, NULL },
  { "main", NULL, NULL },
};

START_TEST(test_demangle) {
  char name[64];
  const char *type = NULL;
  bool ok = res_demangle_kernel(names[_i].mangled, name, sizeof name, &type);
  ck_assert_int_eq(ok, names[_i].kernel != NULL);
  if (!ok) return;
  ck_assert_str_eq(name, names[_i].kernel);
  ck_assert_str_eq(type, names[_i].type);
}
END_TEST

START_TEST(test_arch_names) {
  ck_assert_str_eq(res_arch("sm_90")->name, "sm_90");
  ck_assert_str_eq(res_arch("sm_90a")->name, "sm_90");
  ck_assert_str_eq(res_arch("compute_80")->name, "sm_80");
  ck_assert_str_eq(res_arch("sm_100f")->name, "sm_100");
  ck_assert_str_eq(res_arch("sm_86")->name, "sm_86");
  ck_assert_str_eq(res_arch("sm_89")->name, "sm_89");
  ck_assert_ptr_null(res_arch("sm_9"));
  ck_assert_ptr_null(res_arch("sm_91"));
  ck_assert_ptr_null(res_arch("sm_90ab"));
  ck_assert_ptr_null(res_arch("native"));
}
END_TEST

/* ---- occupancy ------------------------------------------------------------------- */

/* Checked against the CUDA occupancy calculator's rules (cuda_occupancy.h):
 * registers per warp rounded up to 256, four sub-partitions of 16K each. */
static const struct {
  const char *arch;
  int threads, registers;
  long smem;
  int warps, percent;
  ResLimit limit;
} occupancy[] = {
  { "sm_90", 128, 32, 0, 64, 100, RES_LIMIT_WARPS },
  { "sm_90", 128, 64, 0, 32, 50, RES_LIMIT_REGISTERS },
  { "sm_90", 128, 96, 0, 20, 31, RES_LIMIT_REGISTERS },
  { "sm_90", 128, 156, 0, 12, 18, RES_LIMIT_REGISTERS },  /* WSM5's long instance */
  { "sm_90", 256, 40, 0, 48, 75, RES_LIMIT_REGISTERS },
  { "sm_90", 1024, 64, 0, 32, 50, RES_LIMIT_REGISTERS },
  { "sm_90", 32, 16, 0, 32, 50, RES_LIMIT_BLOCKS },        /* one warp per block */
  { "sm_90", 128, 22, 512, 64, 100, RES_LIMIT_WARPS },     /* the reduction kernel */
  { "sm_90", 128, 16, 49152, 16, 25, RES_LIMIT_SHARED },   /* 48 KB + 1 KB reserved */
  { "sm_90", 1024, 255, 0, 0, 0, RES_LIMIT_NO_FIT },       /* 8192 x 32 registers */
  { "sm_90", 2048, 16, 0, 0, 0, RES_LIMIT_NO_FIT },
  { "sm_80", 256, 128, 0, 16, 25, RES_LIMIT_REGISTERS },
  { "sm_80", 128, 32, 200000, 0, 0, RES_LIMIT_NO_FIT },   /* over 163 KB per block */
  { "sm_86", 128, 32, 0, 48, 100, RES_LIMIT_WARPS },      /* 48 warp slots */
  { "sm_86", 64, 32, 0, 32, 66, RES_LIMIT_BLOCKS },       /* 16 block slots */
  { "sm_89", 96, 10, 0, 48, 100, RES_LIMIT_WARPS },
};

START_TEST(test_occupancy) {
  const ResArch *a = res_arch(occupancy[_i].arch);
  ck_assert_ptr_nonnull(a);
  ResOccupancy o = res_occupancy(a, occupancy[_i].threads, occupancy[_i].registers, occupancy[_i].smem);
  ck_assert_int_eq(o.limit, occupancy[_i].limit);
  ck_assert_int_eq(o.warps, occupancy[_i].warps);
  ck_assert_int_eq(o.percent, occupancy[_i].percent);
  ck_assert_int_eq(o.max_warps, a->max_warps);
  if (o.limit == RES_LIMIT_NO_FIT) ck_assert_ptr_nonnull(o.why);
}
END_TEST

/* ---- report text ------------------------------------------------------------------ */

START_TEST(test_kernel_text) {
  ResUsageList l = { 0 };
  res_parse_ptxas(spill_text, &l);
  const int block[3] = { 128, 1, 1 };
  char *warning;
  char *text = res_kernel_text(&l.v[1], "micro_r1", "int", block, &warning);
  ck_assert_str_eq(text, "Kernel micro_r1 (sm_90, int index): 24 registers, 0 bytes shared, "
                         "0 bytes local (stack 0, spill stores 0, spill loads 0); theoretical "
                         "occupancy 100% (64 of 64 warps per SM at block 128, limited by warps)");
  ck_assert_ptr_null(warning);
  free(text);
  const int tile[3] = { 32, 8, 1 };
  text = res_kernel_text(&l.v[0], "micro_r1", "long", tile, &warning);
  ck_assert_str_eq(text, "Kernel micro_r1 (sm_90, long index): 24 registers, 0 bytes shared, "
                         "8 bytes local (stack 8, spill stores 8, spill loads 24); theoretical "
                         "occupancy 100% (64 of 64 warps per SM at block 32x8, limited by warps)");
  ck_assert_ptr_nonnull(warning);
  ck_assert_ptr_nonnull(strstr(warning, "Kernel micro_r1 (sm_90, long index) spills registers to "
                                        "local memory: 8 bytes stored, 24 bytes loaded"));
  ck_assert_ptr_nonnull(strstr(warning, "-maxrregcount"));
  free(text);
  free(warning);
  strcpy(l.v[1].arch, "sm_53");
  text = res_kernel_text(&l.v[1], "micro_r1", "int", block, &warning);
  ck_assert_ptr_nonnull(strstr(text, "; occupancy not computed (no limits known for sm_53)"));
  free(text);
  res_usage_free(&l);
}
END_TEST

/* The lines a driver-mode build with -Minfo prints: the kernel's line, int
 * instance first; entries of no kernel of the translation are left out. */
START_TEST(test_report) {
  ResKernelSites sites = { 0 };
  const int block[3] = { 128, 1, 1 };
  res_sites_add(&sites, "micro_r1", "micro", "in.f90", 20, block, false);
  res_sites_add(&sites, "other_r1", "micro", "in.f90", 40, block, false);
  ck_assert_int_eq(res_report(spill_text, &sites), 2);
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  report_print(f);
  fclose(f);
  ck_assert_str_eq(text,
      "in.f90: In routine 'micro':\n"
      "in.f90:20: info: Kernel micro_r1 (sm_90, int index): 24 registers, 0 bytes shared, "
      "0 bytes local (stack 0, spill stores 0, spill loads 0); theoretical occupancy 100% "
      "(64 of 64 warps per SM at block 128, limited by warps)\n"
      "in.f90:20: info: Kernel micro_r1 (sm_90, long index): 24 registers, 0 bytes shared, "
      "8 bytes local (stack 8, spill stores 8, spill loads 24); theoretical occupancy 100% "
      "(64 of 64 warps per SM at block 128, limited by warps)\n"
      "in.f90:20: warning: Kernel micro_r1 (sm_90, long index) spills registers to local "
      "memory: 8 bytes stored, 24 bytes loaded, 8 bytes of local memory per thread; keep fewer "
      "temporaries live across the loop body, or let ptxas use more registers (a larger "
      "NVCCFLAGS=-maxrregcount=N, or none)\n");
  free(text);
  report_clear();
  ck_assert_int_eq(res_report(cmem_text, &sites), 0);
  report_clear();
  res_sites_free(&sites);
}
END_TEST

/* Which lines of nvcc's standard error -Xptxas -v added (the driver prints
 * the others). */
static const struct {
  const char *line;
  bool info;
} lines[] = {
  { "ptxas info    : Used 24 registers, used 0 barriers", true },
  { "ptxas info    : 0 bytes gmem", true },
  { "    8 bytes stack frame, 8 bytes spill stores, 24 bytes spill loads", true },
  { "ptxas warning : For profile sm_90 adjusting per thread register count of 16 to lower bound of 24", false },
  { "in.s2s.cu(25): warning #177-D: variable \"mean\" was declared but never referenced", false },
  { "ptxas fatal   : Unresolved extern function 'foo'", false },
  { "      double mean;", false },
  { "", false },
};

START_TEST(test_info_lines) {
  ck_assert_int_eq(res_is_ptxas_info(lines[_i].line), lines[_i].info);
}
END_TEST

static Suite *resources_suite(void) {
  Suite *s = suite_create("resources");
  TCase *t = tcase_create("ptxas");
  tcase_add_loop_test(t, test_parse, 0, (int)(sizeof parsed / sizeof *parsed));
  tcase_add_test(t, test_parse_older_format);
  tcase_add_loop_test(t, test_demangle, 0, (int)(sizeof names / sizeof *names));
  tcase_add_loop_test(t, test_info_lines, 0, (int)(sizeof lines / sizeof *lines));
  suite_add_tcase(s, t);
  TCase *o = tcase_create("occupancy");
  tcase_add_test(o, test_arch_names);
  tcase_add_loop_test(o, test_occupancy, 0, (int)(sizeof occupancy / sizeof *occupancy));
  suite_add_tcase(s, o);
  TCase *r = tcase_create("report");
  tcase_add_test(r, test_kernel_text);
  tcase_add_test(r, test_report);
  suite_add_tcase(s, r);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(resources_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
