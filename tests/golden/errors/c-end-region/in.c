/* '#pragma stencil end region' in C: error; the region covers the next statement or block. */
void water_path(int n, int nz, const float *qc, const float *rho, const float *dz, float *lwp)
{
#pragma stencil region copyin(qc[0:n*nz], rho[0:n*nz], dz[0:n*nz]) copyout(lwp[0:n])
  for (int i = 0; i < n; i++) {
    float s = 0.0f;
    for (int k = 0; k < nz; k++)
      s += qc[k*n + i] * rho[k*n + i] * dz[k*n + i];
    lwp[i] = s;
  }
#pragma stencil end region
}
