/* `#pragma stencil update host(...) async` and `#pragma stencil wait` in C:
 * s2s_update_host_async, then the region's kernel, then s2s_wait_updates. */
void exchange_steps(int ni, int nk, int nj, int nsteps, float t[nj][nk][ni])
{
#pragma stencil data copy(t[0:nj][0:nk][0:ni])
  {
    for (int step = 0; step < nsteps; step++) {
#pragma stencil update host(t[0:1][0:nk][0:ni]) async
#pragma stencil region
      for (int j = 1; j < nj - 1; j++)
        for (int k = 0; k < nk; k++)
          for (int i = 0; i < ni; i++)
            t[j][k][i] += 0.5f;
#pragma stencil wait
      for (int k = 0; k < nk; k++)
        for (int i = 0; i < ni; i++)
          t[nj - 1][k][i] = t[0][k][i];
#pragma stencil update device(t[nj - 1:1][0:nk][0:ni])
    }
  }
}
