/* Driver of c-delinearize: fills the inputs from the grid index, runs each
 * routine once and dumps every output (the reference build and the
 * translation must agree element for element). */
#include <stdio.h>
#include <stdlib.h>
#include "s2s_dump.h"

#define NI 37
#define NJ 11
#define NK 7

struct field { int nx, ny, nz; float *t; float *dt; };

void flux3d(int ni, int nj, int nk, const float *u, float *flux);
void smooth_down(int ni, int nj, int nk, const double *a, double *b);
void scale2d(size_t n, size_t m, float s, float *x);
void vla3d(int nx, int ny, int nz, const float (*restrict u)[ny][nx], float (*restrict v)[ny][nx]);
void heat(struct field *f, float c);
void twice(int ni, int nj, const float *restrict in, float *restrict mid, float *restrict out);

static float value(int i, int j, int k)
{
  return (float)((i * 37 + j * 11 + k * 5) % 101) / 101.0f - 0.5f;
}

int main(int argc, char **argv)
{
  if (argc < 2) {
    fprintf(stderr, "usage: %s OUT.dat\n", argv[0]);
    return 2;
  }
  long n = (long)NI * NJ * NK;
  float *u = malloc(sizeof *u * n), *flux = malloc(sizeof *flux * n);
  float *v = malloc(sizeof *v * n), *t = malloc(sizeof *t * n), *dt = malloc(sizeof *dt * n);
  double *a = malloc(sizeof *a * n), *b = malloc(sizeof *b * n);
  for (int k = 0; k < NK; k++)
    for (int j = 0; j < NJ; j++)
      for (int i = 0; i < NI; i++) {
        long at = ((long)k * NJ + j) * NI + i;
        u[at] = value(i, j, k);
        t[at] = value(j, k, i);
        a[at] = (double)value(k, i, j);
        flux[at] = v[at] = dt[at] = -7.0f;     /* what the regions do not write stays */
        b[at] = -7.0;
      }
  s2s_dump_open(argv[1]);

  flux3d(NI, NJ, NK, u, flux);
  s2s_dump_f32("flux", flux, n);

  smooth_down(NI, NJ, NK, a, b);
  s2s_dump_f64("b", b, n);

  scale2d(NI, NJ * NK, 1.5f, u);
  s2s_dump_f32("u", u, n);

  vla3d(NI, NJ, NK, (const float (*)[NJ][NI])u, (float (*)[NJ][NI])v);
  s2s_dump_f32("v", v, n);

  struct field f = { NI, NJ, NK, t, dt };
  heat(&f, 0.3f);
  s2s_dump_f32("dt", dt, n);

  twice(NI, NJ * NK, t, v, flux);          /* rows of NI, NJ*NK of them */
  s2s_dump_f32("twice", flux, n);

  s2s_dump_close();
  return 0;
}
