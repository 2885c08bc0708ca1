/* c-region-array-shared: the driver checks o = 1.375 a and dumps o. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "s2s_dump.h"

void scratch(int ni, int nk, int nj, const float *a, float *o);

int main(int argc, char **argv)
{
  if (argc < 2) {
    fprintf(stderr, "usage: %s OUT.dat\n", argv[0]);
    return 2;
  }
  const int ni = 37, nk = 11, nj = 5;
  const long n = (long)ni * nk * nj;
  float *a = malloc(n * sizeof *a), *o = malloc(n * sizeof *o);
  for (long t = 0; t < n; t++) {
    a[t] = (float)((t * 37) % 101) / 64.0f - 0.75f;
    o[t] = -9.0f;
  }
  scratch(ni, nk, nj, a, o);
  for (long t = 0; t < n; t++)
    if (fabsf(o[t] - 1.375f * a[t]) > 1e-6f * (1.0f + fabsf(a[t]))) {
      fprintf(stderr, "c-region-array-shared: o[%ld] = %g, expected %g\n", t, o[t], 1.375f * a[t]);
      return 1;
    }
  s2s_dump_open(argv[1]);
  s2s_dump_f32("o", o, n);
  s2s_dump_close();
  return 0;
}
