/* 3-D 7-point stencil on C99 VLA parameters. */
void lap(int nx, int ny, int nz, const float u[restrict nz][ny][nx],
         float out[restrict nz][ny][nx])
{
#pragma stencil region
  for (int k = 1; k < nz - 1; k++)
    for (int j = 1; j < ny - 1; j++)
      for (int i = 1; i < nx - 1; i++)
        out[k][j][i] = u[k][j][i - 1] + u[k][j][i + 1] + u[k][j - 1][i] + u[k][j + 1][i]
                     + u[k - 1][j][i] + u[k + 1][j][i] - 6.0f * u[k][j][i];
}
