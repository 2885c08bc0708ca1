/* A while loop inside a C stencil region: refused at the while. */
void halve(int n, double *restrict x)
{
#pragma stencil region
  for (int i = 0; i < n; i++) {
    while (x[i] > 1.0)
      x[i] = x[i] / 2.0;
  }
}
