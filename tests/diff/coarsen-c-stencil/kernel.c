/* coarsen-c-stencil: the 4th-order diffusion of hdiff in C on restrict VLA
 * parameters [k][j][i], written with scalar temporaries (the Laplacian at
 * the point and its four neighbours, the limited fluxes), u with a halo of
 * 2 around out's points in memory.  u is read at 13 points around
 * (i, j), 6 of them along j: s2s-cuda makes one kernel over (i, j, k) whose
 * threads compute 4 points of j each (thread coarsening); nj = 13, so the
 * last threads along j compute 1. */

void diffuse(int ni, int nj, int nk, const float u[restrict nk][nj + 4][ni + 4],
             float out[restrict nk][nj][ni], float coef)
{
#pragma stencil region
  for (int k = 0; k < nk; k++)
    for (int j = 0; j < nj; j++)
      for (int i = 0; i < ni; i++) {
        const int y = j + 2, x = i + 2;
        float lc = 4.0f * u[k][y][x] - u[k][y][x + 1] - u[k][y][x - 1] - u[k][y + 1][x] -
                   u[k][y - 1][x];
        float ln = 4.0f * u[k][y + 1][x] - u[k][y + 1][x + 1] - u[k][y + 1][x - 1] -
                   u[k][y + 2][x] - u[k][y][x];
        float ls = 4.0f * u[k][y - 1][x] - u[k][y - 1][x + 1] - u[k][y - 1][x - 1] -
                   u[k][y][x] - u[k][y - 2][x];
        float le = 4.0f * u[k][y][x + 1] - u[k][y][x + 2] - u[k][y][x] - u[k][y + 1][x + 1] -
                   u[k][y - 1][x + 1];
        float lw = 4.0f * u[k][y][x - 1] - u[k][y][x] - u[k][y][x - 2] - u[k][y + 1][x - 1] -
                   u[k][y - 1][x - 1];
        float fx = le - 2.0f * lc + lw;
        float fy = ln - 2.0f * lc + ls;
        if (fy * (u[k][y + 1][x] - u[k][y - 1][x]) > 0.0f)
          fy = 0.0f;
        out[k][j][i] = u[k][y][x] - coef * (fx + fy);
      }
}
