/* Driver of c-host-data-exchange: 17 steps on a 53 x 29 grid (halo rows 0
 * and 28, columns 0 and 52 fixed); the host computes the same steps itself
 * and checks t (1e-5 relative); t is dumped. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "s2s_dump.h"

enum { NI = 53, NJ = 29, NSTEPS = 17 };

void steps(int nj, int ni, float t[restrict nj][ni], float tend[restrict nj][ni],
           float f[restrict ni], int nsteps);

static float t[NJ][NI], tend[NJ][NI], f[NI], r[NJ][NI], rtend[NJ][NI];

int main(int argc, char **argv)
{
  if (argc < 2) {
    fprintf(stderr, "usage: %s OUT.dat\n", argv[0]);
    return 2;
  }
  for (int j = 0; j < NJ; j++)
    for (int i = 0; i < NI; i++)
      r[j][i] = t[j][i] = 280.0f + 0.37f * (float)((7 * i + 13 * j) % 23);
  steps(NJ, NI, t, tend, f, NSTEPS);

  for (int step = 1; step <= NSTEPS; step++) {
    for (int j = 1; j < NJ - 1; j++)
      for (int i = 1; i < NI - 1; i++)
        rtend[j][i] = 0.2f * ((r[j][i + 1] - r[j][i]) - (r[j][i] - r[j][i - 1]))
                    + 0.1f * ((r[j + 1][i] - r[j][i]) - (r[j][i] - r[j - 1][i]));
    for (int j = 1; j < NJ - 1; j++)
      for (int i = 1; i < NI - 1; i++)
        r[j][i] = r[j][i] + rtend[j][i];
    for (int i = 0; i < NI; i++) {
      f[i] = 0.01f * (float)(step * ((3 * i) % 7));
      r[0][i] = r[NJ - 2][i] + f[i];
      r[NJ - 1][i] = r[1][i] + f[i];
    }
  }
  double err = 0, big = 0;
  for (int j = 0; j < NJ; j++)
    for (int i = 0; i < NI; i++) {
      if (fabs(t[j][i] - r[j][i]) > err) err = fabs(t[j][i] - r[j][i]);
      if (fabs(r[j][i]) > big) big = fabs(r[j][i]);
    }
  printf("c-host-data-exchange: max relative error of t %.3e (tolerance 1e-5)\n", err / big);
  if (err / big > 1e-5) {
    fprintf(stderr, "c-host-data-exchange: t differs from the host reference\n");
    return 1;
  }
  s2s_dump_open(argv[1]);
  s2s_dump_f32("t", &t[0][0], (long)NJ * NI);
  s2s_dump_close();
  return 0;
}
