/* c-flat-column: the k-outermost Thomas solver of c-thomas-k-outer written
 * on flat pointers behind an index macro, as C codes keep their fields: the
 * subscripts delinearize to [k][j][i], so the column detection sees one
 * column per (i, j) and makes one kernel with both k sweeps in order in
 * each thread.  The j loops test `j != nj`, the forward sweep `k <= nk - 1`. */
#define IDX(i, j, k) (((k) * nj + (j)) * ni + (i))

void tri_flat(int ni, int nj, int nk, const float *restrict a, const float *restrict b,
              const float *restrict c, const float *restrict d, float *restrict cp,
              float *restrict dp, float *restrict x)
{
#pragma stencil region
  {
    for (int j = 0; j != nj; j++)
      for (int i = 0; i < ni; i++) {
        cp[IDX(i, j, 0)] = c[IDX(i, j, 0)] / b[IDX(i, j, 0)];
        dp[IDX(i, j, 0)] = d[IDX(i, j, 0)] / b[IDX(i, j, 0)];
      }
    for (int k = 1; k <= nk - 1; k++)
      for (int j = 0; j != nj; j++)
        for (int i = 0; i < ni; i++) {
          float m = 1.0f / (b[IDX(i, j, k)] - a[IDX(i, j, k)] * cp[IDX(i, j, k - 1)]);
          cp[IDX(i, j, k)] = c[IDX(i, j, k)] * m;
          dp[IDX(i, j, k)] = (d[IDX(i, j, k)] - a[IDX(i, j, k)] * dp[IDX(i, j, k - 1)]) * m;
        }
    for (int j = 0; j != nj; j++)
      for (int i = 0; i < ni; i++)
        x[IDX(i, j, nk - 1)] = dp[IDX(i, j, nk - 1)];
    for (int k = nk - 2; k >= 0; k--)
      for (int j = 0; j != nj; j++)
        for (int i = 0; i < ni; i++)
          x[IDX(i, j, k)] = dp[IDX(i, j, k)] - cp[IDX(i, j, k)] * x[IDX(i, j, k + 1)];
  }
}
