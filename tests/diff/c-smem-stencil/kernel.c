/* c-smem-stencil: a 9-point 4th-order Laplacian in C on restrict VLA
 * parameters [k][j][i], u with a halo of 2 around w's points in memory
 * (the halo of the reads, so the device copy ends where they do), the
 * outer points under a test.  The tool stages u in shared memory: one
 * kernel over (i, j, k), a tile (bx+4) x (by+4) per block and level. */
void lap4(int ni, int nj, int nk, const float u[restrict nk][nj + 4][ni + 4],
          float w[restrict nk][nj][ni], float limit)
{
#pragma stencil region
  for (int k = 0; k < nk; k++)
    for (int j = 0; j < nj; j++)
      for (int i = 0; i < ni; i++) {
        float near = u[k][j + 2][i + 3] + u[k][j + 2][i + 1] + u[k][j + 3][i + 2] +
                     u[k][j + 1][i + 2] - 4.0f * u[k][j + 2][i + 2];
        float far = u[k][j + 2][i + 4] + u[k][j + 2][i] + u[k][j + 4][i + 2] + u[k][j][i + 2] -
                    4.0f * u[k][j + 2][i + 2];
        w[k][j][i] = near;
        if (u[k][j + 2][i + 2] < limit)
          w[k][j][i] = (16.0f * near - far) / 12.0f;
      }
}
