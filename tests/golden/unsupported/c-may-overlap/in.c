/* x and y, pointer parameters without restrict, may overlap: refused, advising restrict. */
void axpy(int n, float a, const float *x, float *y)
{
#pragma stencil region
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}
