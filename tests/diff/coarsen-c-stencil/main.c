/* Driver of coarsen-c-stencil: u smooth plus noise on a 37 x 13 x 3 tile
 * with a halo of 2.  The host recomputes out point by point (1e-5
 * relative).  Dumps out. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "s2s_dump.h"

void diffuse(int ni, int nj, int nk, const float u[restrict nk][nj + 4][ni + 4],
             float out[restrict nk][nj][ni], float coef);

enum { ni = 37, nj = 13, nk = 3, mi = ni + 4, mj = nj + 4 };
static float *u;
#define U(k, j, i) u[((k) * mj + (j)) * mi + (i)]

static float lap(int k, int y, int x)
{
  return 4.0f * U(k, y, x) - U(k, y, x + 1) - U(k, y, x - 1) - U(k, y + 1, x) - U(k, y - 1, x);
}

int main(int argc, char **argv)
{
  if (argc < 2) {
    fprintf(stderr, "usage: %s OUT.dat\n", argv[0]);
    return 2;
  }
  u = malloc(sizeof *u * nk * mj * mi);
  float *out = malloc(sizeof *out * nk * nj * ni);
  for (int k = 0; k < nk; k++)
    for (int j = 0; j < mj; j++)
      for (int i = 0; i < mi; i++)
        U(k, j, i) = 10.0f + 3.0f * sinf(0.4f * (float)i) * cosf(0.3f * (float)j) + (float)k +
                     0.2f * (float)(((i * 7 + j * 13 + k * 5) % 11) - 5);
  const float coef = 0.05f;
  diffuse(ni, nj, nk, (void *)u, (void *)out, coef);
  double worst = 0;
  for (int k = 0; k < nk; k++)
    for (int j = 0; j < nj; j++)
      for (int i = 0; i < ni; i++) {
        int y = j + 2, x = i + 2;
        float fx = lap(k, y, x + 1) - 2.0f * lap(k, y, x) + lap(k, y, x - 1);
        float fy = lap(k, y + 1, x) - 2.0f * lap(k, y, x) + lap(k, y - 1, x);
        if (fy * (U(k, y + 1, x) - U(k, y - 1, x)) > 0.0f)
          fy = 0.0f;
        float want = U(k, y, x) - coef * (fx + fy);
        double e = fabs((double)out[(k * nj + j) * ni + i] - want) / fabs((double)want);
        if (e > worst) worst = e;
      }
  printf("coarsen-c-stencil: max relative error of out = %.3e\n", worst);
  if (!(worst < 1e-5)) {
    fprintf(stderr, "coarsen-c-stencil: wrong out\n");
    return 1;
  }
  s2s_dump_open(argv[1]);
  s2s_dump_f32("out", out, (long)nk * nj * ni);
  s2s_dump_close();
  return 0;
}
