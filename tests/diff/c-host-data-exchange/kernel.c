/* c-host-data-exchange: host-data-exchange in C.  A field t[nj][ni] that
 * is periodic in j: each step diffuses and updates the rows 1..nj-2 on
 * the device, then fills the halo rows 0 and nj-1 from rows nj-2 and 1
 * plus a forcing f, on the device: inside `host_data use_device(t, f)` the
 * names t and f are the device copies (t keeps its type, float (*)[ni]),
 * and copy_row (host code standing for a CUDA-aware MPI) reads and writes
 * them there.  The host sets f every step and sends it with `update
 * device` just before the construct; the emulation performs that queued
 * copy only when something waits for it, so a host_data that did not wait
 * would read the forcing of the step before. */
static void copy_row(float *restrict dst, const float *restrict src, const float *restrict f,
                     int n)
{
  for (int i = 0; i < n; i++)
    dst[i] = src[i] + f[i];
}

void steps(int nj, int ni, float t[restrict nj][ni], float tend[restrict nj][ni],
           float f[restrict ni], int nsteps)
{
#pragma stencil data copy(t[0:nj][0:ni]) create(tend[0:nj][0:ni]) copyin(f[0:ni])
  for (int step = 1; step <= nsteps; step++) {
#pragma stencil region
    for (int j = 1; j < nj - 1; j++)
      for (int i = 1; i < ni - 1; i++)
        tend[j][i] = 0.2f * ((t[j][i + 1] - t[j][i]) - (t[j][i] - t[j][i - 1]))
                   + 0.1f * ((t[j + 1][i] - t[j][i]) - (t[j][i] - t[j - 1][i]));
#pragma stencil region
    for (int j = 1; j < nj - 1; j++)
      for (int i = 1; i < ni - 1; i++)
        t[j][i] = t[j][i] + tend[j][i];
    for (int i = 0; i < ni; i++)
      f[i] = 0.01f * (float)(step * ((3 * i) % 7));
#pragma stencil update device(f[0:ni])
#pragma stencil host_data use_device(t, f)
    {
      copy_row(t[0], t[nj - 2], f, ni);
      copy_row(t[nj - 1], t[1], f, ni);
    }
  }
}
