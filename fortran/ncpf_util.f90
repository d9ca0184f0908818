! ncpf_util -- the conversions every nfmpi_* function shares: Fortran
! names to C strings and back, and dimension-ordered arrays from Fortran's
! order (fastest first, 1-based) to C's (slowest first, 0-based).
module ncpf_util
  use iso_c_binding
  use mpi, only: ncpf_ok => MPI_OFFSET_KIND
  use ncpf_c, only: ncmpi_inq_varndims
  implicit none
  private
  public :: ncpf_ok, ncpf_ndims, ncpf_rev, ncpf_revn, ncpf_cstr, ncpf_fstr
  public :: ncpf_flex, ncpf_flexn, ncpf_text
  public :: NCPF_NAMELEN

  ! NC_MAX_NAME plus the terminating NUL.
  integer, parameter :: NCPF_NAMELEN = 257

  interface
    ! fortran/ncpf_shim.c: the flexible put/get family, which needs the
    ! Fortran MPI datatype handle converted in C.
    integer(kind=c_int) function ncpf_flex(op, form, coll, ncid, varid, &
        start, count, stride, imap, buf, bufcount, buftype, req) &
        bind(C, name='ncpf_flex')
      import
      integer(kind=c_int), value :: op, form, coll, ncid, varid
      integer(kind=c_long_long) :: start(*), count(*), stride(*), imap(*)
      type(*) :: buf(*)
      integer(kind=c_long_long), value :: bufcount
      integer(kind=c_int), value :: buftype
      integer(kind=c_int) :: req
    end function
    ! The text family (ncmpi_*_text), selected as ncpf_flex selects.
    integer(kind=c_int) function ncpf_text(op, form, coll, ncid, varid, &
        start, count, stride, imap, buf, req) bind(C, name='ncpf_text')
      import
      integer(kind=c_int), value :: op, form, coll, ncid, varid
      integer(kind=c_long_long) :: start(*), count(*), stride(*), imap(*)
      type(*) :: buf(*)
      integer(kind=c_int) :: req
    end function
    ! The flexible varn family: starts and counts as C pointer arrays.
    integer(kind=c_int) function ncpf_flexn(op, coll, ncid, varid, num, &
        starts, counts, buf, bufcount, buftype, req) &
        bind(C, name='ncpf_flexn')
      import
      integer(kind=c_int), value :: op, coll, ncid, varid, num
      type(c_ptr) :: starts(*), counts(*)
      type(*) :: buf(*)
      integer(kind=c_long_long), value :: bufcount
      integer(kind=c_int), value :: buftype
      integer(kind=c_int) :: req
    end function
  end interface

contains

  ! Number of dimensions of a variable, 0 where the ids are bad: the C call
  ! that follows then reports the bad id itself, collectively if it is a
  ! collective call.
  integer function ncpf_ndims(ncid, varid)
    integer, intent(in) :: ncid, varid
    integer(kind=c_int) :: nd
    nd = 0
    if (ncmpi_inq_varndims(ncid, varid - 1, nd) /= 0) nd = 0
    ncpf_ndims = nd
  end function

  ! c = reversed f(1:nd) minus shift; at least one element so that a
  ! scalar variable still passes a valid address.
  subroutine ncpf_rev(nd, f, c, shift)
    integer, intent(in) :: nd
    integer(kind=ncpf_ok), intent(in) :: f(*)
    integer(kind=c_long_long), allocatable, intent(out) :: c(:)
    integer(kind=ncpf_ok), intent(in) :: shift
    integer :: i
    allocate(c(max(nd, 1)))
    c = 0
    do i = 1, nd
      c(i) = f(nd + 1 - i) - shift
    end do
  end subroutine

  ! The varn form: f holds num rows of nd coordinates, f(nd, num); c gets
  ! each row reversed minus shift, p a C pointer to each row of c.  c must
  ! be the caller's TARGET, so that p stays valid after the return.
  subroutine ncpf_revn(nd, num, f, c, p, shift)
    integer, intent(in) :: nd, num
    integer(kind=ncpf_ok), intent(in) :: f(*)
    integer(kind=c_long_long), allocatable, target, intent(out) :: c(:, :)
    type(c_ptr), allocatable, intent(out) :: p(:)
    integer(kind=ncpf_ok), intent(in) :: shift
    integer :: i, r
    allocate(c(max(nd, 1), max(num, 1)), p(max(num, 1)))
    c = 0
    do r = 1, max(num, 1)
      if (r <= num) then
        do i = 1, nd
          c(i, r) = f((r - 1) * nd + nd + 1 - i) - shift
        end do
      end if
      p(r) = c_loc(c(1, r))
    end do
  end subroutine

  ! A Fortran name as a NUL-terminated C string, trailing blanks dropped.
  function ncpf_cstr(s) result(c)
    character(len=*), intent(in) :: s
    character(kind=c_char, len=len_trim(s) + 1) :: c
    c = trim(s) // c_null_char
  end function

  ! A C string (up to its NUL) into a blank-padded Fortran string.
  subroutine ncpf_fstr(c, s)
    character(kind=c_char), intent(in) :: c(*)
    character(len=*), intent(out) :: s
    integer :: i
    s = ' '
    do i = 1, len(s)
      if (c(i) == c_null_char) exit
      s(i:i) = c(i)
    end do
  end subroutine

end module ncpf_util
