! Two inputs whose modules use each other (a uses b, b uses a): one error naming the cycle, nothing translated.
module a
  use b
  real, parameter :: x = 1.0
end module a
