! A Fortran program annotated for LIKWID's marker API through LIKWID's
! Fortran module (likwid.mod), as LIKWID's F-markerAPI.F90 is: built with
! `gfortran -DLIKWID_PERFMON -I/usr/include likwid_f.F90 -llikwid`, never
! built for rlprof. It imports likwid_markerstartregion_, not the C name.
program likwid_f
#ifdef LIKWID_PERFMON
  use likwid
#endif
  implicit none
  integer :: k, i
  double precision :: s
  s = 0
#ifdef LIKWID_PERFMON
  call likwid_markerInit()
#endif
  do k = 1, 3
#ifdef LIKWID_PERFMON
    call likwid_markerStartRegion("f_compute")
#endif
    do i = 1, 100000
      s = s + i * 0.5d0
    end do
#ifdef LIKWID_PERFMON
    call likwid_markerStopRegion("f_compute")
#endif
  end do
#ifdef LIKWID_PERFMON
  call likwid_markerClose()
#endif
  print *, 'sum', s
end program likwid_f
