/* k-outermost Thomas solver in C, arrays [k][j][i] */
void tri(int ni, int nj, int nk, const float a[restrict nk][nj][ni], const float b[restrict nk][nj][ni],
         const float c[restrict nk][nj][ni], const float d[restrict nk][nj][ni],
         float cp[restrict nk][nj][ni], float dp[restrict nk][nj][ni], float x[restrict nk][nj][ni])
{
#pragma stencil region
  {
    for (int j = 0; j < nj; j++)
      for (int i = 0; i < ni; i++) {
        cp[0][j][i] = c[0][j][i] / b[0][j][i];
        dp[0][j][i] = d[0][j][i] / b[0][j][i];
      }
    for (int k = 1; k < nk; k++)
      for (int j = 0; j < nj; j++)
        for (int i = 0; i < ni; i++) {
          float m = 1.0f / (b[k][j][i] - a[k][j][i] * cp[k - 1][j][i]);
          cp[k][j][i] = c[k][j][i] * m;
          dp[k][j][i] = (d[k][j][i] - a[k][j][i] * dp[k - 1][j][i]) * m;
        }
    for (int j = 0; j < nj; j++)
      for (int i = 0; i < ni; i++)
        x[nk - 1][j][i] = dp[nk - 1][j][i];
    for (int k = nk - 2; k >= 0; k--)
      for (int j = 0; j < nj; j++)
        for (int i = 0; i < ni; i++)
          x[k][j][i] = dp[k][j][i] - cp[k][j][i] * x[k + 1][j][i];
  }
}
