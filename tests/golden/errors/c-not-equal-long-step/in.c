/* A loop tested with != that steps by 2: it ends only if the step lands on
 * the bound, which the translator cannot know; refused at the loop, advising
 * < instead.  The same test stepping by 1 is accepted (first region). */
void evens(int n, float *restrict a)
{
#pragma stencil region
  for (int i = 0; i != n; i++)
    a[i] = 1.0f;
#pragma stencil region
  for (int i = 0; i != n; i += 2)
    a[i] = 2.0f;
}
