/* Driver of c-struct-arrays: fills the struct's fields from the grid
 * index, runs each routine once and dumps every field (the reference build
 * and the translation must agree element for element).  It checks one
 * interior point of smooth itself, so that a broken reference cannot pass. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include "s2s_dump.h"

#define NX 37
#define NY 11
#define NZ 7

typedef struct {
  int nx, ny, nz;
  float c;
  float (*u)[NY][NX];
  float (*v)[NY][NX];
  double *t;
  double *dt;
  float w[NZ][NY][NX];
} state_t;

typedef struct {
  state_t *state;
  float gain;
} model_t;

void smooth(state_t *restrict s);
void relax(state_t *restrict s, float alpha);
void tend(state_t *s);
void scale(state_t st, float a);
void update(int nx, int ny, int nz, const double *t, double *dt);
void amplify(model_t *m);

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
  long n = (long)NX * NY * NZ;
  state_t *s = malloc(sizeof *s);
  s->nx = NX;
  s->ny = NY;
  s->nz = NZ;
  s->c = 0.125f;
  s->u = malloc(sizeof(float) * n);
  s->v = malloc(sizeof(float) * n);
  s->t = malloc(sizeof(double) * n);
  s->dt = malloc(sizeof(double) * n);
  for (int k = 0; k < NZ; k++)
    for (int j = 0; j < NY; j++)
      for (int i = 0; i < NX; i++) {
        long at = ((long)k * NY + j) * NX + i;
        s->u[k][j][i] = value(i, j, k);
        s->w[k][j][i] = value(k, i, j);
        s->v[k][j][i] = -7.0f;            /* what the regions do not write stays */
        s->t[at] = (double)value(j, k, i);
        s->dt[at] = -7.0;
      }
  s2s_dump_open(argv[1]);

  smooth(s);
  float want = s->c * (s->u[3][4][4] + s->u[3][4][6] + s->u[3][3][5] + s->u[3][5][5]
                       + s->u[2][4][5] + s->u[4][4][5]) + s->w[3][4][5];
  if (fabsf(s->v[3][4][5] - want) > 1e-6f || s->v[0][4][5] != -7.0f) {
    fprintf(stderr, "smooth: v[3][4][5] = %g, expected %g\n", s->v[3][4][5], want);
    return 1;
  }
  s2s_dump_f32("v", &s->v[0][0][0], n);

  relax(s, 0.3f);
  s2s_dump_f32("w", &s->w[0][0][0], n);

  tend(s);
  s2s_dump_f64("dt", s->dt, n);

  scale(*s, 1.5f);
  s2s_dump_f32("u", &s->u[0][0][0], n);

  update(NX, NY, NZ, s->t, s->dt);
  s2s_dump_f64("dt2", s->dt, n);

  model_t m = { s, 2.5f };
  amplify(&m);
  s2s_dump_f32("v2", &s->v[0][0][0], n);

  s2s_dump_close();
  return 0;
}
