/* c-delinearize: C as C programmers write it.  Flat arrays behind an index
 * macro (Horner form and i + ni*(j + nj*k) form, and a 2-D one written out),
 * delinearized so the loops run in parallel; loops with <=, != and counting
 * down; a size_t loop; regions that carry the user's OpenMP pragma, below
 * and above the region pragma (the host file, built with -fopenmp, must
 * not keep one above the launcher's call); a pointer-to-VLA parameter;
 * fields reached through a struct, copied into local pointers first; flat
 * data clauses of a data region.  No restrict on the flat pointers of
 * flux3d: the case is translated with -Msafeptr. */
#include <stddef.h>

#define IDX(i, j, k) (((k) * nj + (j)) * ni + (i))

void flux3d(int ni, int nj, int nk, const float *u, float *flux)
{
#pragma stencil region
  for (int k = 0; k < nk; k++)
    for (int j = 0; j <= nj - 1; j++)
      for (int i = 1; i != ni; i++)
        flux[IDX(i, j, k)] = u[IDX(i, j, k)] - u[IDX(i - 1, j, k)];
}

#define AT(i, j, k) ((i) + ni * ((j) + nj * (k)))

void smooth_down(int ni, int nj, int nk, const double *a, double *b)
{
#pragma stencil region
  for (int k = nk - 1; k >= 0; k--)
    for (int j = nj - 2; j > 0; j--)
      for (int i = 1; i < ni - 1; i++)
        b[AT(i, j, k)] = 0.25 * (a[AT(i - 1, j, k)] + a[AT(i + 1, j, k)]
                                 + a[AT(i, j - 1, k)] + a[AT(i, j + 1, k)]);
}

void scale2d(size_t n, size_t m, float s, float *x)
{
#pragma stencil region
#pragma omp parallel for
  for (size_t j = 0; j < m; j++)
    for (size_t i = 0; i < n; i++)
      x[j * n + i] = s * x[j * n + i] + (float)i;
}

void vla3d(int nx, int ny, int nz, const float (*restrict u)[ny][nx], float (*restrict v)[ny][nx])
{
#pragma omp parallel for
#pragma stencil region
  for (int k = 0; k < nz; k++)
    for (int j = ny - 1; j >= 0; --j)
      for (int i = 0; i < nx; ++i)
        v[k][j][i] = 2.0f * u[k][j][i] + (float)(k - j);
}

struct field { int nx, ny, nz; float *t; float *dt; };

void heat(struct field *f, float c)
{
  int nx = f->nx, ny = f->ny, nz = f->nz;
  const float *restrict t = f->t;
  float *restrict dt = f->dt;
#pragma stencil region
  for (int k = 1; k < nz - 1; k++)
    for (int j = 0; j < ny; j++)
      for (int i = 0; i < nx; i++)
        dt[(k * ny + j) * nx + i] = c * (t[((k + 1) * ny + j) * nx + i] - 2.0f * t[(k * ny + j) * nx + i]
                                         + t[((k - 1) * ny + j) * nx + i]);
}

/* Flat clauses of a data region over two regions: the clauses keep naming
 * the flat ranges, read as whole rows of the delinearized arrays. */
void twice(int ni, int nj, const float *restrict in, float *restrict mid, float *restrict out)
{
#pragma stencil data copyin(in[0:nj*ni]) create(mid[0:nj*ni]) copy(out[0:nj*ni])
  {
#pragma stencil region
    for (int j = 0; j < nj; j++)
      for (int i = 0; i < ni; i++)
        mid[j * ni + i] = 2.0f * in[j * ni + i];
#pragma stencil region
    for (int j = 1; j < nj; j++)
      for (int i = 0; i < ni; i++)
        out[j * ni + i] = mid[j * ni + i] - mid[(j - 1) * ni + i];
  }
}
