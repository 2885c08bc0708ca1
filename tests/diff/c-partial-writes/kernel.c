/* c-partial-writes: C regions that write an array they never read, but not
 * every element of the box their loops span: a j loop with `j += 2`, a
 * `break` and a `continue` before the store.  copyout would bring the
 * skipped elements back from uninitialised device memory; the translator
 * must use copy.  The last region writes every element: copyout. */
void every_other_row(int ni, int nj, const float b[restrict nj][ni], float a[restrict nj][ni])
{
#pragma stencil region
  for (int j = 0; j < nj; j += 2)
    for (int i = 0; i < ni; i++)
      a[j][i] = 2.0f * b[j][i];
}

void stop_at_negative(int ni, int nj, const float b[restrict nj][ni], float a[restrict nj][ni])
{
#pragma stencil region
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nj; j++) {
      if (b[j][i] < -0.3f)
        break;
      a[j][i] = b[j][i] + 10.0f;
    }
}

void skip_negative(int ni, int nj, const float b[restrict nj][ni], float a[restrict nj][ni])
{
#pragma stencil region
  for (int j = 0; j < nj; j++)
    for (int i = 0; i < ni; i++) {
      if (b[j][i] < 0.0f)
        continue;
      a[j][i] = b[j][i] + 20.0f;
    }
}

void whole(int ni, int nj, const float b[restrict nj][ni], float a[restrict nj][ni])
{
#pragma stencil region
  for (int j = nj - 1; j >= 0; j--)
    for (int i = 0; i < ni; i++)
      a[j][i] = b[j][i] + 50.0f;
}
