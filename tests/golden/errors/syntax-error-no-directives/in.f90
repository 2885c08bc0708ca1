! A syntax error in a file without any directive, translated: an error (exit 1), no module or procedure summary written from the broken parse.
subroutine scale_host(a, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n)
  a(1) = (2.0 * a(1)
end subroutine scale_host
