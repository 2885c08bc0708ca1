/* A member of a struct whose type the file never defines (only `struct
 * st;`): its layout is unknown, so the member is refused, saying why. */
struct st;

void f(struct st *s, float *a, int n)
{
#pragma stencil region
  for (int i = 0; i < n; i++)
    a[i] = s->x;
}
