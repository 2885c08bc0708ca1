void axpy(int n, float a, const float *x, float *y)
{
#pragma stencil region
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}
