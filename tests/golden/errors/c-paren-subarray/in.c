/* A C sub-array written with parentheses, q(0:n*nz): error at the '('; write q[start:length]. */
void vmix(int n, int nz, float dt, const float *kz, const float *dz, float *q, float *qnew)
{
#pragma stencil region copyin(kz[0:n*nz], dz[0:n*nz], q(0:n*nz)) copyout(qnew[0:n*nz])
  for (int i = 0; i < n; i++)
    for (int k = 1; k < nz - 1; k++) {
      int c = k*n + i;
      qnew[c] = q[c] + dt * kz[c] * (q[c+n] - 2.0f*q[c] + q[c-n]) / (dz[c]*dz[c]);
    }
}
