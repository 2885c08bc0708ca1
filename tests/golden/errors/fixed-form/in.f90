! A fixed-form file named .f90 (a C comment in column 1): error at that line, convert to free form.
C     old style
      subroutine s(a, n)
      end
