/* c-flat-column: the k-outermost Thomas solver written in C on flat
 * pointers behind an index macro: the translation must make one kernel over (i, j)
 * with both k sweeps in order inside each thread, and give the original's
 * numbers in any thread order.  The driver checks the residual of A x = d. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "s2s_dump.h"

void tri_flat(int ni, int nj, int nk, const float *restrict a, const float *restrict b,
              const float *restrict c, const float *restrict d, float *restrict cp,
              float *restrict dp, float *restrict x);

int main(int argc, char **argv)
{
  if (argc < 2) {
    fprintf(stderr, "usage: %s OUT.dat\n", argv[0]);
    return 2;
  }
  const int ni = 37, nj = 23, nk = 19;
  const long n = (long)ni * nj * nk;
  float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
  float *d = malloc(n * sizeof *d), *cp = malloc(n * sizeof *cp), *dp = malloc(n * sizeof *dp);
  float *x = malloc(n * sizeof *x);
  for (long t = 0; t < n; t++) {   /* diagonally dominant: |b| > |a| + |c| */
    a[t] = -0.3f - 0.01f * (float)(t % 7);
    c[t] = -0.2f - 0.01f * (float)(t % 5);
    b[t] = 1.5f + 0.1f * (float)(t % 3);
    d[t] = (float)((t * 37) % 101) / 50.0f;
  }
  tri_flat(ni, nj, nk, a, b, c, d, cp, dp, x);
  double worst = 0;   /* max |A x - d| over every row of every column */
  for (int k = 0; k < nk; k++)
    for (long col = 0; col < (long)ni * nj; col++) {
      long t = (long)k * ni * nj + col;
      double r = b[t] * x[t] - d[t];
      if (k > 0) r += a[t] * x[t - (long)ni * nj];
      if (k < nk - 1) r += c[t] * x[t + (long)ni * nj];
      if (fabs(r) > worst) worst = fabs(r);
    }
  printf("c-flat-column: max |A x - d| = %.3e\n", worst);
  if (!(worst < 1e-4)) {
    fprintf(stderr, "c-flat-column: residual too large\n");
    return 1;
  }
  s2s_dump_open(argv[1]);
  s2s_dump_f32("x", x, n);
  s2s_dump_f32("cp", cp, n);
  s2s_dump_f32("dp", dp, n);
  s2s_dump_close();
  return 0;
}
