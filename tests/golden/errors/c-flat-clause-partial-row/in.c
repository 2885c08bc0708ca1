/* A flat data clause on an array the region indexes as u[j][i] of a [][ni]
 * array (delinearized): a range of whole rows is fine (first region), one
 * starting inside a row cannot be a box of rows: error at the item. */
void rows(int ni, int nj, const float *restrict u, float *restrict v)
{
#pragma stencil region copyin(u[ni:(nj-1)*ni])
  for (int j = 1; j < nj; j++)
    for (int i = 0; i < ni; i++)
      v[j * ni + i] = u[j * ni + i];
#pragma stencil region copyin(u[1:nj*ni-1])
  for (int j = 1; j < nj; j++)
    for (int i = 0; i < ni; i++)
      v[j * ni + i] = u[j * ni + i];
}
