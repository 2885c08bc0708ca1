/* Driver of c-smem-stencil: u smooth plus noise on a 29 x 11 x 3 tile with
 * a halo of 2; about half the points below the limit.  The host checks w
 * point by point.  Dumps w. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "s2s_dump.h"

void lap4(int ni, int nj, int nk, const float u[restrict nk][nj + 4][ni + 4],
          float w[restrict nk][nj][ni], float limit);

int main(int argc, char **argv)
{
  if (argc < 2) {
    fprintf(stderr, "usage: %s OUT.dat\n", argv[0]);
    return 2;
  }
  enum { ni = 29, nj = 11, nk = 3 };
  const int mi = ni + 4, mj = nj + 4;
  float *u = malloc(sizeof *u * nk * mj * mi), *w = malloc(sizeof *w * nk * nj * ni);
  for (int k = 0; k < nk; k++)
    for (int j = 0; j < mj; j++)
      for (int i = 0; i < mi; i++)
        u[(k * mj + j) * mi + i] = 1.0f + 0.02f * (float)(i * i) - 0.03f * (float)(j * k) +
                                   0.1f * (float)(((i * 7 + j * 13 + k * 5) % 11) - 5);
  const float limit = 2.0f;
  lap4(ni, nj, nk, (void *)u, (void *)w, limit);
  double worst = 0;
#define U(k, j, i) u[((k) * mj + (j)) * mi + (i)]
  for (int k = 0; k < nk; k++)
    for (int j = 0; j < nj; j++)
      for (int i = 0; i < ni; i++) {
        float near = U(k, j + 2, i + 3) + U(k, j + 2, i + 1) + U(k, j + 3, i + 2) +
                     U(k, j + 1, i + 2) - 4.0f * U(k, j + 2, i + 2);
        float far = U(k, j + 2, i + 4) + U(k, j + 2, i) + U(k, j + 4, i + 2) + U(k, j, i + 2) -
                    4.0f * U(k, j + 2, i + 2);
        float want = U(k, j + 2, i + 2) < limit ? (16.0f * near - far) / 12.0f : near;
        double e = fabs((double)w[(k * nj + j) * ni + i] - want);
        if (e > worst) worst = e;
      }
  printf("c-smem-stencil: max error of w = %.3e\n", worst);
  if (!(worst < 1e-5)) {
    fprintf(stderr, "c-smem-stencil: wrong w\n");
    return 1;
  }
  s2s_dump_open(argv[1]);
  s2s_dump_f32("w", w, (long)nk * nj * ni);
  s2s_dump_close();
  return 0;
}
