/* A C global maximum in the IF form and a sum (+=) over a 2-D array, both host scalars read after the region: GPU reductions, the launcher passed their addresses. */
void stats(int n, int m, const double a[m][n], double *out)
{
  double amax = -1.0e300, tot = 0.0;
#pragma stencil region
  for (int j = 0; j < m; j++)
    for (int i = 0; i < n; i++) {
      if (a[j][i] > amax) amax = a[j][i];
      tot += a[j][i];
    }
  out[0] = amax;
  out[1] = tot;
}
