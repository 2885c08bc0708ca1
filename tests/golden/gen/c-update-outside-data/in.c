/* '#pragma stencil update host(...)' after a region, with no data directive around it in the
 * function: translated, with a warning that the update stops the program unless a caller's
 * data directive holds a. */
void scale(int n, float *a)
{
#pragma stencil region copy(a[0:n])
  for (int i = 0; i < n; i++)
    a[i] = 2.0f * a[i];
#pragma stencil update host(a[0:n])
}
