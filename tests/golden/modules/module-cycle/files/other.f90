! The other half of a cycle of modules: b uses a.
module b
  use a
  real, parameter :: y = 2.0
end module b
