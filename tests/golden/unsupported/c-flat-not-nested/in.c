/* A flat array whose index runs past its row: i+1 reaches ni at the last i,
 * the first element of the next row, so the subscript does not split into
 * nested ranges.  'a' stays flat (a note says why) and its flat subscripts
 * leave the loops' dependences unknown: refused.  'b', read with the same
 * row overlap, stays flat too but needs no more than its flat range. */
void shift_rows(int ni, int nj, const float *restrict b, float *restrict a)
{
#pragma stencil region
  for (int j = 0; j < nj; j++)
    for (int i = 0; i < ni; i++)
      a[j * ni + i + 1] = 0.5f * (a[j * ni + i] + b[j * ni + i + 1]);
}
