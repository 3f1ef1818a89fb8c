! e2e: the Fortran module (profiler/fortran/rlprof.f90), built by
! tests/compat/test_fortran.c with $(pkg-config --cflags --libs rlprof-fortran).
program f_regions
  use rlprof
  implicit none
  integer, parameter :: n = 100000
  real(8), allocatable :: a(:), b(:), c(:)
  character(len=24) :: padded
  integer :: i, k

  allocate(a(n), b(n), c(n))
  b = 1.0d0
  c = 2.0d0

  call rl_region_begin("f_outer")
  do k = 1, 3
    call rl_region_begin("f_triad")
    do i = 1, n
      a(i) = b(i) + 3.0d0 * c(i)
    end do
    call rl_region_end("f_triad")
  end do
  call rl_region_expect("f_triad", 2.0d0 * n * 3, 24.0d0 * n * 3)

  ! a blank-padded variable names the region of its trimmed value
  padded = "f_padded"
  call rl_region_begin(padded)
  a = a * 0.5d0
  call rl_region_end(padded)
  call rl_region_expect("f_padded", n, 16 * n)
  call rl_region_end("f_outer")

  if (a(1) < 0.0d0) print *, a(1)
  deallocate(a, b, c)
end program f_regions
