/* Driver of c-openacc-enter-exit-data: 33 steps on a 63 x 39 grid whose
 * border stays fixed, between device_init and device_finish; the host
 * computes the same steps itself and checks t, tend and the means of t
 * taken every 7th step (1e-5 relative); t, tend, q and the means are
 * dumped (tend on the border keeps its sentinel).  33 is no multiple of 7:
 * the last t comes back only through the exit data's copyout. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "s2s_dump.h"

enum { NI = 63, NJ = 39, NSTEPS = 33, NMEANS = NSTEPS / 7 };

void device_init(int nj, int ni, float t[restrict nj][ni], float tend[restrict nj][ni],
                 float q[restrict nj][ni]);
void device_finish(int nj, int ni, float t[restrict nj][ni], float tend[restrict nj][ni],
                   float q[restrict nj][ni]);
void integrate(int nj, int ni, float t[restrict nj][ni], float tend[restrict nj][ni],
               float q[restrict nj][ni], float tmean[], int nsteps);

static float t[NJ][NI], tend[NJ][NI], q[NJ][NI], t0[NJ][NI], tend0[NJ][NI], q0[NJ][NI];

static double max_rel(const float *x, const float *y, long n)
{
  double err = 0, big = 0;
  for (long k = 0; k < n; k++) {
    if (fabs(x[k] - y[k]) > err) err = fabs(x[k] - y[k]);
    if (fabs(y[k]) > big) big = fabs(y[k]);
  }
  return big > 0 ? err / big : err;
}

int main(int argc, char **argv)
{
  float tmean[NMEANS], tmean0[NMEANS];
  if (argc < 2) {
    fprintf(stderr, "usage: %s OUT.dat\n", argv[0]);
    return 2;
  }
  for (int j = 0; j < NJ; j++)
    for (int i = 0; i < NI; i++) {
      t[j][i] = t0[j][i] = 280.0f + 10.0f * (float)(((i * 37 + j * 11) % 101) - 50) / 100.0f;
      q[j][i] = q0[j][i] = (float)(((i * 13 + j * 29) % 67) - 33) / 66.0f;
      tend[j][i] = tend0[j][i] = -7.0f;
    }
  device_init(NJ, NI, t, tend, q);
  integrate(NJ, NI, t, tend, q, tmean, NSTEPS);
  device_finish(NJ, NI, t, tend, q);

  for (int step = 1; step <= NSTEPS; step++) {   /* the same steps on the host */
    for (int j = 1; j < NJ - 1; j++)
      for (int i = 1; i < NI - 1; i++)
        tend0[j][i] = 0.2f * ((t0[j][i + 1] - t0[j][i]) - (t0[j][i] - t0[j][i - 1]))
                    + 0.1f * ((t0[j + 1][i] - t0[j][i]) - (t0[j][i] - t0[j - 1][i]));
    for (int j = 1; j < NJ - 1; j++)
      for (int i = 1; i < NI - 1; i++)
        t0[j][i] = t0[j][i] + tend0[j][i] + 0.01f * q0[j][i];
    if (step % 7 == 0) {
      double sum = 0;
      for (int j = 1; j < NJ - 1; j++)
        for (int i = 1; i < NI - 1; i++)
          sum += t0[j][i];
      tmean0[step / 7 - 1] = (float)(sum / ((NJ - 2) * (NI - 2)));
    }
    if (step % 10 == 0)
      for (int j = 0; j < NJ; j++)
        for (int i = 0; i < NI; i++)
          q0[j][i] = 0.5f * q0[j][i];
  }
  double et = max_rel(&t[0][0], &t0[0][0], (long)NI * NJ);
  double ed = max_rel(&tend[0][0], &tend0[0][0], (long)NI * NJ);
  double em = max_rel(tmean, tmean0, NMEANS);
  printf("c-openacc-enter-exit-data: relative errors t %.3e, tend %.3e, means %.3e\n", et, ed, em);
  if (!(et < 1e-5 && ed < 1e-5 && em < 1e-5)) {
    fprintf(stderr, "c-openacc-enter-exit-data: the results differ from the host computation\n");
    return 1;
  }
  s2s_dump_open(argv[1]);
  s2s_dump_f32("t", &t[0][0], (long)NI * NJ);
  s2s_dump_f32("tend", &tend[0][0], (long)NI * NJ);
  s2s_dump_f32("q", &q[0][0], (long)NI * NJ);
  s2s_dump_f32("tmean", tmean, NMEANS);
  s2s_dump_close();
  return 0;
}
