/* host_data use_device(t) on a { } block in C: the call fills s2s_device, a typed pointer per
 * array (&t[0]'s type, float (*)[ni]), an inner block where t names the device copy, and the
 * end call after it, where t is the host's array again. */
void exchange_rows(float *dst, const float *src, int n);

void relax(int nj, int ni, float t[restrict nj][ni], float u[restrict nj][ni], int nsteps)
{
#pragma stencil data copy(t[0:nj][0:ni]) create(u[0:nj][0:ni])
  for (int step = 0; step < nsteps; step++) {
#pragma stencil host_data use_device(t)
    {
      exchange_rows(t[0], t[nj - 2], ni);
      exchange_rows(t[nj - 1], t[1], ni);
    }
#pragma stencil region
    for (int j = 1; j < nj - 1; j++)
      for (int i = 1; i < ni - 1; i++)
        u[j][i] = 0.25f * (t[j][i - 1] + t[j][i + 1] + t[j - 1][i] + t[j + 1][i]);
#pragma stencil region
    for (int j = 1; j < nj - 1; j++)
      for (int i = 1; i < ni - 1; i++)
        t[j][i] = u[j][i];
  }
}
