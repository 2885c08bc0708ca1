/* The struct pointer assigned inside a region: refused (the launcher
 * reads the members where the region starts), saying to assign it before. */
typedef struct { int n; float *u; } field_t;

void walk(field_t *f, field_t *g)
{
#pragma stencil region
  {
    f = g;
    for (int i = 0; i < f->n; i++)
      f->u[i] = 0.0f;
  }
}
