! futil.f90 -- checks shared by the Fortran test programs.  Written against
! the Fortran 77 API only, so it builds with either library's pnetcdf.inc.
module futil
  use mpi
  implicit none
  private
  public :: check, expect, truth, finish, outpath
  include 'pnetcdf.inc'
  integer :: nfail = 0
contains
  ! Aborts the run when a call that must succeed failed.
  subroutine check(err, what)
    integer, intent(in) :: err
    character(len=*), intent(in) :: what
    integer :: ierr
    if (err /= NF_NOERR) then
      print '(a, ": ", a)', what, trim(nfmpi_strerror(err))
      call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end if
  end subroutine

  ! A call that must fail with exactly this code.
  subroutine expect(err, want, what)
    integer, intent(in) :: err, want
    character(len=*), intent(in) :: what
    if (err /= want) then
      print '(a, ": got ", i0, " want ", i0)', what, err, want
      nfail = nfail + 1
    end if
  end subroutine

  subroutine truth(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      print '("check failed: ", a)', what
      nfail = nfail + 1
    end if
  end subroutine

  ! Ends the program: exit status 1 on any rank's failure.
  subroutine finish()
    integer :: ierr, total
    call MPI_Allreduce(nfail, total, 1, MPI_INTEGER, MPI_SUM, &
                       MPI_COMM_WORLD, ierr)
    call MPI_Finalize(ierr)
    if (total /= 0) stop 1
  end subroutine

  ! The output path: the program's first argument.
  function outpath() result(p)
    character(len=1024) :: p
    call get_command_argument(1, p)
    if (len_trim(p) == 0) p = 'out.nc'
  end function
end module futil
