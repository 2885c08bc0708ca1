/* 17 nested loops in a C region: one error at the 17th loop. */
void deep(int m, float *restrict a)
{
#pragma stencil region
  {
    for (int i0 = 0; i0 < m; i0++)
      for (int i1 = 0; i1 < m; i1++)
        for (int i2 = 0; i2 < m; i2++)
          for (int i3 = 0; i3 < m; i3++)
            for (int i4 = 0; i4 < m; i4++)
              for (int i5 = 0; i5 < m; i5++)
                for (int i6 = 0; i6 < m; i6++)
                  for (int i7 = 0; i7 < m; i7++)
                    for (int i8 = 0; i8 < m; i8++)
                      for (int i9 = 0; i9 < m; i9++)
                        for (int i10 = 0; i10 < m; i10++)
                          for (int i11 = 0; i11 < m; i11++)
                            for (int i12 = 0; i12 < m; i12++)
                              for (int i13 = 0; i13 < m; i13++)
                                for (int i14 = 0; i14 < m; i14++)
                                  for (int i15 = 0; i15 < m; i15++)
                                    for (int i16 = 0; i16 < m; i16++)
                                      a[i16] += 1.0f;
  }
}
