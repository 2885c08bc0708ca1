/* c-acc-update-async: the same in C: `#pragma acc update self(...) async(1)`
 * is s2s_update_host_async, `#pragma acc wait(1)` s2s_wait_updates,
 * `update device ... async` a plain s2s_update_device (a note). */
void exchange(int ni, int nk, int nj, int nsteps, float t[nj][nk][ni])
{
#pragma acc data copy(t[0:nj][0:nk][0:ni])
  {
    for (int step = 0; step < nsteps; step++) {
#pragma acc update self(t[0:1][0:nk][1:ni-2]) async(1)
#pragma acc parallel loop async(1)
      for (int j = 1; j < nj - 1; j++)
        for (int k = 0; k < nk; k++)
          for (int i = 0; i < ni; i++)
            t[j][k][i] += 0.5f;
#pragma acc wait(1)
      for (int k = 0; k < nk; k++)
        for (int i = 0; i < ni; i++)
          t[nj-1][k][i] = t[0][k][i];
#pragma acc update device(t[nj-1:1][0:nk][0:ni]) async
    }
  }
}
