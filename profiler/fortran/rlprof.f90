! rlprof.f90 - the Fortran module of the rlprof roofline profiler.
!
!   use rlprof
!   call rl_region_begin("triad")
!   do i = 1, n
!     a(i) = b(i) + s * c(i)
!   end do
!   call rl_region_end("triad")
!   call rl_region_expect("triad", 2.0d0 * n, 24.0d0 * n)  ! flops, bytes
!
! Build: gfortran app.f90 $(pkg-config --cflags --libs rlprof-fortran)
! Run:   rlprof run ./app
!
! Names are ordinary Fortran character values: the module passes them to
! librlprof (rlprof.h) with trailing blanks removed and a C NUL added, so
! a blank-padded character(len=32) variable names the same region as its
! trimmed value. The semantics are librlprof's: regions nest, repeat and
! may be used from any thread (OpenMP included); see `man 3 rlprof`.
!
! License: MIT (see LICENSE), so any program may use and link it.
module rlprof
  use, intrinsic :: iso_c_binding, only: c_char, c_double, c_null_char, &
                                         c_int, c_int64_t
  implicit none
  private

  public :: rl_region_begin, rl_region_end, rl_region_expect

  ! The expected flops and bytes may be given as real(8), default real,
  ! integer(8) or default integer values (both of the same kind).
  interface rl_region_expect
    module procedure expect_r8, expect_r4, expect_i8, expect_i4
  end interface rl_region_expect

  interface
    subroutine c_region_begin(name) bind(C, name="rl_region_begin")
      import :: c_char
      character(kind=c_char), dimension(*), intent(in) :: name
    end subroutine c_region_begin

    subroutine c_region_end(name) bind(C, name="rl_region_end")
      import :: c_char
      character(kind=c_char), dimension(*), intent(in) :: name
    end subroutine c_region_end

    subroutine c_region_expect(name, flops, bytes) &
        bind(C, name="rl_region_expect")
      import :: c_char, c_double
      character(kind=c_char), dimension(*), intent(in) :: name
      real(c_double), value, intent(in) :: flops, bytes
    end subroutine c_region_expect
  end interface

contains

  subroutine rl_region_begin(name)
    character(len=*), intent(in) :: name
    call c_region_begin(trim(name) // c_null_char)
  end subroutine rl_region_begin

  subroutine rl_region_end(name)
    character(len=*), intent(in) :: name
    call c_region_end(trim(name) // c_null_char)
  end subroutine rl_region_end

  subroutine expect_r8(name, flops, bytes)
    character(len=*), intent(in) :: name
    real(c_double), intent(in) :: flops, bytes
    call c_region_expect(trim(name) // c_null_char, flops, bytes)
  end subroutine expect_r8

  subroutine expect_r4(name, flops, bytes)
    character(len=*), intent(in) :: name
    real, intent(in) :: flops, bytes
    call c_region_expect(trim(name) // c_null_char, real(flops, c_double), &
                         real(bytes, c_double))
  end subroutine expect_r4

  subroutine expect_i8(name, flops, bytes)
    character(len=*), intent(in) :: name
    integer(c_int64_t), intent(in) :: flops, bytes
    call c_region_expect(trim(name) // c_null_char, real(flops, c_double), &
                         real(bytes, c_double))
  end subroutine expect_i8

  subroutine expect_i4(name, flops, bytes)
    character(len=*), intent(in) :: name
    integer(c_int), intent(in) :: flops, bytes
    call c_region_expect(trim(name) // c_null_char, real(flops, c_double), &
                         real(bytes, c_double))
  end subroutine expect_i4

end module rlprof
