/* c-openacc-enter-exit-data: openacc-enter-exit-data in C.  device_init
 * puts t, tend and q on the device (`#pragma acc enter data copyin`),
 * integrate runs a time loop of two regions with an `update self(t)` every
 * 7th step (the host averages t) and an `update device(q)` after the host
 * halves q every 10th step, and device_finish brings t and tend back (`exit
 * data copyout`) and drops q (`delete`).  The regions must find the arrays
 * present and move nothing (the case's `timing` file checks the S2S_TIME
 * report), and the results must be the original program's. */
void device_init(int nj, int ni, float t[restrict nj][ni], float tend[restrict nj][ni],
                 float q[restrict nj][ni])
{
#pragma acc enter data copyin(t[0:nj][0:ni], tend[0:nj][0:ni]) copyin(q[0:nj][0:ni])
}

void device_finish(int nj, int ni, float t[restrict nj][ni], float tend[restrict nj][ni],
                   float q[restrict nj][ni])
{
#pragma acc exit data copyout(t[0:nj][0:ni], tend[0:nj][0:ni]) delete(q[0:nj][0:ni])
}

void integrate(int nj, int ni, float t[restrict nj][ni], float tend[restrict nj][ni],
               float q[restrict nj][ni], float tmean[], int nsteps)
{
  for (int step = 1; step <= nsteps; step++) {
#pragma acc parallel loop
    for (int j = 1; j < nj - 1; j++)
      for (int i = 1; i < ni - 1; i++)
        tend[j][i] = 0.2f * ((t[j][i + 1] - t[j][i]) - (t[j][i] - t[j][i - 1]))
                   + 0.1f * ((t[j + 1][i] - t[j][i]) - (t[j][i] - t[j - 1][i]));
#pragma acc kernels
    for (int j = 1; j < nj - 1; j++)
      for (int i = 1; i < ni - 1; i++)
        t[j][i] = t[j][i] + tend[j][i] + 0.01f * q[j][i];
    if (step % 7 == 0) {
#pragma acc update self(t[0:nj][0:ni])
      double sum = 0;
      for (int j = 1; j < nj - 1; j++)
        for (int i = 1; i < ni - 1; i++)
          sum += t[j][i];
      tmean[step / 7 - 1] = (float)(sum / ((nj - 2) * (ni - 2)));
    }
    if (step % 10 == 0) {
      for (int j = 0; j < nj; j++)
        for (int i = 0; i < ni; i++)
          q[j][i] = 0.5f * q[j][i];
#pragma acc update device(q[0:nj][0:ni])
    }
  }
}
