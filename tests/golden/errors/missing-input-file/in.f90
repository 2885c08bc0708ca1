! An input file that does not exist (a typo in the name): error naming it, exit 1.
subroutine s
end subroutine s
