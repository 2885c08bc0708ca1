/* With -nocpp an index macro is not expanded: the region calls it, refused
 * with the advice to run without -nocpp (by default C is preprocessed and
 * the macro expands). */
#define IDX(i, j) ((j) * ni + (i))
void f(int ni, int nj, const float *restrict u, float *restrict v)
{
#pragma stencil region
  for (int j = 0; j < nj; j++)
    for (int i = 0; i < ni; i++)
      v[IDX(i, j)] = u[IDX(i, j)];
}
