/* Index macros expand to `(i) + ...`, which C's grammar reads as a cast of
 * `+...` to a type named i; the front end takes it as the sum it is when i
 * is a variable, also at the head of a product chain ((k) + nj * ...) and
 * as `(j) * ni`.  The subscripts then delinearize as usual. */
#define IDX(i, j, k) ((i) + ni * ((j) + nj * (k)))
#define DOWN(i) ((i) - 1)

void sweep(int ni, int nj, int nk, const double *restrict a, double *restrict b)
{
#pragma stencil region
  for (int k = 0; k < nk; k++)
    for (int j = 0; j < nj; j++)
      for (int i = 1; i < ni; i++)
        b[IDX(i, j, k)] = a[IDX(DOWN(i), j, k)] + (j) * ni + (k) - 1;
}
