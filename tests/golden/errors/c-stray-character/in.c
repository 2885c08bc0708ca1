/* A stray ';' at the end of a C region pragma: error at the ';'. */
void virtual_temp(int n, const float *t, const float *q, float *tv)
{
#pragma stencil region copyin(t[0:n], q[0:n]) copyout(tv[0:n]) ;
  for (int i = 0; i < n; i++)
    tv[i] = t[i] * (1.0f + 0.608f * q[i]);
}
