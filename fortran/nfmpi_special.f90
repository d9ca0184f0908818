! nfmpi_special.f90 -- the nfmpi_* functions that fit no generated family:
! MPI handles, dimension id lists, strings returned by value.

module ncpf_special_c
  use iso_c_binding
  implicit none
  interface
    integer(kind=c_int) function ncpf_create(comm, path, cmode, info, ncid) &
        bind(C, name='ncpf_create')
      import
      integer(kind=c_int), value :: comm, cmode, info
      character(kind=c_char) :: path(*)
      integer(kind=c_int) :: ncid
    end function
    integer(kind=c_int) function ncpf_open(comm, path, omode, info, ncid) &
        bind(C, name='ncpf_open')
      import
      integer(kind=c_int), value :: comm, omode, info
      character(kind=c_char) :: path(*)
      integer(kind=c_int) :: ncid
    end function
    integer(kind=c_int) function ncpf_delete(path, info) &
        bind(C, name='ncpf_delete')
      import
      character(kind=c_char) :: path(*)
      integer(kind=c_int), value :: info
    end function
    integer(kind=c_int) function ncpf_file_info(ncid, get, info) &
        bind(C, name='ncpf_file_info')
      import
      integer(kind=c_int), value :: ncid, get
      integer(kind=c_int) :: info
    end function
    integer(kind=c_int) function ncpf_inq_path(ncid, pathlen, path, buflen) &
        bind(C, name='ncpf_inq_path')
      import
      integer(kind=c_int), value :: ncid, buflen
      integer(kind=c_int) :: pathlen
      character(kind=c_char) :: path(*)
    end function
    integer(kind=c_int) function ncmpi_def_var(ncid, name, xtype, ndims, &
        dimids, varid) bind(C, name='ncmpi_def_var')
      import
      integer(kind=c_int), value :: ncid, xtype, ndims
      character(kind=c_char) :: name(*)
      integer(kind=c_int) :: dimids(*), varid
    end function
    integer(kind=c_int) function ncmpi_inq_vardimid(ncid, varid, dimids) &
        bind(C, name='ncmpi_inq_vardimid')
      import
      integer(kind=c_int), value :: ncid, varid
      integer(kind=c_int) :: dimids(*)
    end function
    integer(kind=c_int) function ncmpi_def_var_fill(ncid, varid, no_fill, &
        fill) bind(C, name='ncmpi_def_var_fill')
      import
      integer(kind=c_int), value :: ncid, varid, no_fill
      type(*) :: fill(*)
    end function
    integer(kind=c_int) function ncmpi_inq_var_fill(ncid, varid, no_fill, &
        fill) bind(C, name='ncmpi_inq_var_fill')
      import
      integer(kind=c_int), value :: ncid, varid
      integer(kind=c_int) :: no_fill
      type(*) :: fill(*)
    end function
    integer(kind=c_int) function ncmpi_put_att(ncid, varid, name, xtype, &
        nelems, buf) bind(C, name='ncmpi_put_att')
      import
      integer(kind=c_int), value :: ncid, varid, xtype
      character(kind=c_char) :: name(*)
      integer(kind=c_long_long), value :: nelems
      type(*) :: buf(*)
    end function
    integer(kind=c_int) function ncmpi_get_att(ncid, varid, name, buf) &
        bind(C, name='ncmpi_get_att')
      import
      integer(kind=c_int), value :: ncid, varid
      character(kind=c_char) :: name(*)
      type(*) :: buf(*)
    end function
    integer(kind=c_int) function ncmpi_wait(ncid, num, reqs, statuses) &
        bind(C, name='ncmpi_wait')
      import
      integer(kind=c_int), value :: ncid, num
      integer(kind=c_int) :: reqs(*), statuses(*)
    end function
    integer(kind=c_int) function ncmpi_wait_all(ncid, num, reqs, statuses) &
        bind(C, name='ncmpi_wait_all')
      import
      integer(kind=c_int), value :: ncid, num
      integer(kind=c_int) :: reqs(*), statuses(*)
    end function
    integer(kind=c_int) function ncmpi_cancel(ncid, num, reqs, statuses) &
        bind(C, name='ncmpi_cancel')
      import
      integer(kind=c_int), value :: ncid, num
      integer(kind=c_int) :: reqs(*), statuses(*)
    end function
    type(c_ptr) function ncmpi_strerror(err) bind(C, name='ncmpi_strerror')
      import
      integer(kind=c_int), value :: err
    end function
    type(c_ptr) function ncpf_strerrno(err) bind(C, name='ncpf_strerrno')
      import
      integer(kind=c_int), value :: err
    end function
    type(c_ptr) function ncmpi_inq_libvers() bind(C, name='ncmpi_inq_libvers')
      import
    end function
    integer(kind=c_int) function ncmpi_inq_version(ncid, nc_mode) &
        bind(C, name='ncmpi_inq_version')
      import
      integer(kind=c_int), value :: ncid
      integer(kind=c_int) :: nc_mode
    end function
    integer(kind=c_int) function ncmpi_inq_files_opened(num, ncids) &
        bind(C, name='ncmpi_inq_files_opened')
      import
      integer(kind=c_int) :: num, ncids(*)
    end function
    integer(kind=c_int) function ncmpi_inq_malloc_size(size) &
        bind(C, name='ncmpi_inq_malloc_size')
      import
      integer(kind=c_long_long) :: size
    end function
    integer(kind=c_int) function ncmpi_inq_malloc_max_size(size) &
        bind(C, name='ncmpi_inq_malloc_max_size')
      import
      integer(kind=c_long_long) :: size
    end function
    integer(kind=c_int) function ncmpi_inq_malloc_list() &
        bind(C, name='ncmpi_inq_malloc_list')
      import
    end function
    ! fortran/ncpf_shim.c: the vard family, whose file and buffer types
    ! are Fortran MPI datatype handles.
    integer(kind=c_int) function ncpf_vard(get, coll, ncid, varid, &
        filetype, buf, bufcount, buftype) bind(C, name='ncpf_vard')
      import
      integer(kind=c_int), value :: get, coll, ncid, varid, filetype
      type(*) :: buf(*)
      integer(kind=c_long_long), value :: bufcount
      integer(kind=c_int), value :: buftype
    end function
  end interface
contains
  ! nfmpi_wait (how 0), nfmpi_wait_all (1) and nfmpi_cancel (2) on a copy
  ! of the request ids: as in PnetCDF's binding, the caller's ids are only
  ! read, where the C call sets each finished one to NC_REQ_NULL.  A
  ! negative count (NF_REQ_ALL, ...) passes no ids.
  integer function ncpf_requests(ncid, count, req, status, how)
    integer, intent(in) :: ncid, count, how
    integer, intent(in) :: req(*)
    integer, intent(out) :: status(*)
    integer(kind=c_int), allocatable :: c(:)
    integer :: n
    n = max(count, 0)
    allocate(c(max(n, 1)))
    c = 0
    c(1:n) = req(1:n)
    select case (how)
    case (0)
      ncpf_requests = ncmpi_wait(ncid, count, c, status)
    case (1)
      ncpf_requests = ncmpi_wait_all(ncid, count, c, status)
    case default
      ncpf_requests = ncmpi_cancel(ncid, count, c, status)
    end select
  end function

  ! A C string returned by pointer into an 80-character Fortran string.
  function ncpf_str80(p) result(s)
    type(c_ptr), intent(in) :: p
    character(len=80) :: s
    character(kind=c_char), pointer :: c(:)
    integer :: i
    s = ' '
    if (.not. c_associated(p)) return
    call c_f_pointer(p, c, [80])
    do i = 1, 80
      if (c(i) == c_null_char) exit
      s(i:i) = c(i)
    end do
  end function
end module ncpf_special_c

integer function nfmpi_create(mpi_comm, path, cmode, mpi_info, ncid)
  use ncpf_special_c
  use ncpf_util
  implicit none
  integer, intent(in) :: mpi_comm, cmode, mpi_info
  character(len=*), intent(in) :: path
  integer, intent(out) :: ncid
  nfmpi_create = ncpf_create(mpi_comm, ncpf_cstr(path), cmode, mpi_info, ncid)
end function

integer function nfmpi_open(mpi_comm, path, mode, mpi_info, ncid)
  use ncpf_special_c
  use ncpf_util
  implicit none
  integer, intent(in) :: mpi_comm, mode, mpi_info
  character(len=*), intent(in) :: path
  integer, intent(out) :: ncid
  nfmpi_open = ncpf_open(mpi_comm, ncpf_cstr(path), mode, mpi_info, ncid)
end function

integer function nfmpi_delete(path, mpi_info)
  use ncpf_special_c
  use ncpf_util
  implicit none
  character(len=*), intent(in) :: path
  integer, intent(in) :: mpi_info
  nfmpi_delete = ncpf_delete(ncpf_cstr(path), mpi_info)
end function

integer function nfmpi_inq_file_info(ncid, mpi_info)
  use ncpf_special_c
  implicit none
  integer, intent(in) :: ncid
  integer, intent(out) :: mpi_info
  nfmpi_inq_file_info = ncpf_file_info(ncid, 0, mpi_info)
end function

integer function nfmpi_get_file_info(ncid, mpi_info)
  use ncpf_special_c
  implicit none
  integer, intent(in) :: ncid
  integer, intent(out) :: mpi_info
  nfmpi_get_file_info = ncpf_file_info(ncid, 1, mpi_info)
end function

integer function nfmpi_inq_path(ncid, pathlen, path)
  use ncpf_special_c
  implicit none
  integer, intent(in) :: ncid
  integer, intent(out) :: pathlen
  character(len=*), intent(out) :: path
  nfmpi_inq_path = ncpf_inq_path(ncid, pathlen, path, len(path))
end function

integer function nfmpi_def_var(ncid, name, datatype, ndims, dimids, varid)
  use ncpf_special_c
  use ncpf_util
  implicit none
  integer, intent(in) :: ncid, datatype, ndims
  character(len=*), intent(in) :: name
  integer, intent(in) :: dimids(*)
  integer, intent(out) :: varid
  integer(kind=c_int), allocatable :: c(:)
  integer :: i, err
  allocate(c(max(ndims, 1)))
  c = 0
  do i = 1, ndims
    c(i) = dimids(ndims + 1 - i) - 1
  end do
  err = ncmpi_def_var(ncid, ncpf_cstr(name), datatype, ndims, c, varid)
  if (err == 0) varid = varid + 1
  nfmpi_def_var = err
end function

integer function nfmpi_inq_vardimid(ncid, varid, dimids)
  use ncpf_special_c
  use ncpf_util
  implicit none
  integer, intent(in) :: ncid, varid
  integer, intent(out) :: dimids(*)
  integer(kind=c_int), allocatable :: c(:)
  integer :: i, nd, err
  nd = ncpf_ndims(ncid, varid)
  allocate(c(max(nd, 1)))
  err = ncmpi_inq_vardimid(ncid, varid - 1, c)
  if (err == 0) then
    do i = 1, nd
      dimids(i) = c(nd + 1 - i) + 1
    end do
  end if
  nfmpi_inq_vardimid = err
end function

integer function nfmpi_inq_var(ncid, varid, name, datatype, ndims, dimids, &
                               natts)
  implicit none
  integer, intent(in) :: ncid, varid
  character(len=*), intent(out) :: name
  integer, intent(out) :: datatype, ndims, dimids(*), natts
  integer, external :: nfmpi_inq_varname, nfmpi_inq_vartype
  integer, external :: nfmpi_inq_varndims, nfmpi_inq_vardimid
  integer, external :: nfmpi_inq_varnatts
  integer :: err
  err = nfmpi_inq_varname(ncid, varid, name)
  if (err == 0) err = nfmpi_inq_vartype(ncid, varid, datatype)
  if (err == 0) err = nfmpi_inq_varndims(ncid, varid, ndims)
  if (err == 0) err = nfmpi_inq_vardimid(ncid, varid, dimids)
  if (err == 0) err = nfmpi_inq_varnatts(ncid, varid, natts)
  nfmpi_inq_var = err
end function

integer function nfmpi_def_var_fill(ncid, varid, no_fill, fill_value)
  use ncpf_special_c
  implicit none
  integer, intent(in) :: ncid, varid, no_fill
  type(*) :: fill_value(*)
  nfmpi_def_var_fill = ncmpi_def_var_fill(ncid, varid - 1, no_fill, fill_value)
end function

integer function nfmpi_inq_var_fill(ncid, varid, no_fill, fill_value)
  use ncpf_special_c
  implicit none
  integer, intent(in) :: ncid, varid
  integer, intent(out) :: no_fill
  type(*) :: fill_value(*)
  nfmpi_inq_var_fill = ncmpi_inq_var_fill(ncid, varid - 1, no_fill, fill_value)
end function

integer function nfmpi_put_att(ncid, varid, name, xtype, nelems, buf)
  use ncpf_special_c
  use ncpf_util
  implicit none
  integer, intent(in) :: ncid, varid, xtype
  character(len=*), intent(in) :: name
  integer(kind=ncpf_ok), intent(in) :: nelems
  type(*) :: buf(*)
  nfmpi_put_att = ncmpi_put_att(ncid, varid - 1, ncpf_cstr(name), xtype, &
                                nelems, buf)
end function

integer function nfmpi_get_att(ncid, varid, name, buf)
  use ncpf_special_c
  use ncpf_util
  implicit none
  integer, intent(in) :: ncid, varid
  character(len=*), intent(in) :: name
  type(*) :: buf(*)
  nfmpi_get_att = ncmpi_get_att(ncid, varid - 1, ncpf_cstr(name), buf)
end function

integer function nfmpi_wait(ncid, count, req, status)
  use ncpf_special_c
  implicit none
  integer, intent(in) :: ncid, count
  integer, intent(in) :: req(*)
  integer, intent(out) :: status(*)
  nfmpi_wait = ncpf_requests(ncid, count, req, status, 0)
end function

integer function nfmpi_wait_all(ncid, count, req, status)
  use ncpf_special_c
  implicit none
  integer, intent(in) :: ncid, count
  integer, intent(in) :: req(*)
  integer, intent(out) :: status(*)
  nfmpi_wait_all = ncpf_requests(ncid, count, req, status, 1)
end function

integer function nfmpi_cancel(ncid, count, req, status)
  use ncpf_special_c
  implicit none
  integer, intent(in) :: ncid, count
  integer, intent(in) :: req(*)
  integer, intent(out) :: status(*)
  nfmpi_cancel = ncpf_requests(ncid, count, req, status, 2)
end function

logical function nfmpi_issyserr(ncerr)
  implicit none
  integer, intent(in) :: ncerr
  nfmpi_issyserr = ncerr > 0
end function

character(len=80) function nfmpi_strerror(ncerr)
  use ncpf_special_c
  implicit none
  integer, intent(in) :: ncerr
  nfmpi_strerror = ncpf_str80(ncmpi_strerror(ncerr))
end function

! The Fortran names of the codes: NF_EBADID where C says NC_EBADID, as
! PnetCDF's binding gives them (nfmpi_xstrerrno keeps C's).
character(len=80) function nfmpi_strerrno(ncerr)
  use ncpf_special_c
  implicit none
  integer, intent(in) :: ncerr
  nfmpi_strerrno = ncpf_str80(ncpf_strerrno(ncerr))
  if (nfmpi_strerrno(1:2) == 'NC') nfmpi_strerrno(2:2) = 'F'
end function

character(len=80) function nfmpi_inq_libvers()
  use ncpf_special_c
  implicit none
  nfmpi_inq_libvers = ncpf_str80(ncmpi_inq_libvers())
end function

integer function nfmpi_inq_version(ncid, nc_mode)
  use ncpf_special_c
  implicit none
  integer, intent(in) :: ncid
  integer, intent(out) :: nc_mode
  nfmpi_inq_version = ncmpi_inq_version(ncid, nc_mode)
end function

! ncids must hold every open file's id; ids are the C library's, as every
! ncid in this binding.
integer function nfmpi_inq_files_opened(nfiles, ncids)
  use ncpf_special_c
  implicit none
  integer, intent(out) :: nfiles
  integer, intent(out) :: ncids(*)
  nfmpi_inq_files_opened = ncmpi_inq_files_opened(nfiles, ncids)
end function

integer function nfmpi_inq_malloc_size(size)
  use ncpf_special_c
  use ncpf_util, only: ncpf_ok
  implicit none
  integer(kind=ncpf_ok), intent(out) :: size
  nfmpi_inq_malloc_size = ncmpi_inq_malloc_size(size)
end function

integer function nfmpi_inq_malloc_max_size(size)
  use ncpf_special_c
  use ncpf_util, only: ncpf_ok
  implicit none
  integer(kind=ncpf_ok), intent(out) :: size
  nfmpi_inq_malloc_max_size = ncmpi_inq_malloc_max_size(size)
end function

integer function nfmpi_inq_malloc_list()
  use ncpf_special_c
  implicit none
  nfmpi_inq_malloc_list = ncmpi_inq_malloc_list()
end function

integer function nfmpi_put_vard(ncid, varid, filetype, buf, bufcount, buftype)
  use ncpf_special_c
  use ncpf_util, only: ncpf_ok
  implicit none
  integer, intent(in) :: ncid, varid, filetype, buftype
  type(*) :: buf(*)
  integer(kind=ncpf_ok), intent(in) :: bufcount
  nfmpi_put_vard = ncpf_vard(0, 0, ncid, varid - 1, filetype, buf, bufcount, &
                             buftype)
end function

integer function nfmpi_put_vard_all(ncid, varid, filetype, buf, bufcount, &
                                    buftype)
  use ncpf_special_c
  use ncpf_util, only: ncpf_ok
  implicit none
  integer, intent(in) :: ncid, varid, filetype, buftype
  type(*) :: buf(*)
  integer(kind=ncpf_ok), intent(in) :: bufcount
  nfmpi_put_vard_all = ncpf_vard(0, 1, ncid, varid - 1, filetype, buf, &
                                 bufcount, buftype)
end function

integer function nfmpi_get_vard(ncid, varid, filetype, buf, bufcount, buftype)
  use ncpf_special_c
  use ncpf_util, only: ncpf_ok
  implicit none
  integer, intent(in) :: ncid, varid, filetype, buftype
  type(*) :: buf(*)
  integer(kind=ncpf_ok), intent(in) :: bufcount
  nfmpi_get_vard = ncpf_vard(1, 0, ncid, varid - 1, filetype, buf, bufcount, &
                             buftype)
end function

integer function nfmpi_get_vard_all(ncid, varid, filetype, buf, bufcount, &
                                    buftype)
  use ncpf_special_c
  use ncpf_util, only: ncpf_ok
  implicit none
  integer, intent(in) :: ncid, varid, filetype, buftype
  type(*) :: buf(*)
  integer(kind=ncpf_ok), intent(in) :: bufcount
  nfmpi_get_vard_all = ncpf_vard(1, 1, ncid, varid - 1, filetype, buf, &
                                 bufcount, buftype)
end function

! PnetCDF's helpers behind its string functions, kept for programs that
! call them: the message, the code's name and the version into msg.
integer function nfmpi_xstrerror(err, msg)
  use ncpf_special_c
  implicit none
  integer, intent(in) :: err
  character(len=*), intent(out) :: msg
  msg = ncpf_str80(ncmpi_strerror(err))
  nfmpi_xstrerror = 0
end function

integer function nfmpi_xstrerrno(err, msg)
  use ncpf_special_c
  implicit none
  integer, intent(in) :: err
  character(len=*), intent(out) :: msg
  msg = ncpf_str80(ncpf_strerrno(err))
  nfmpi_xstrerrno = 0
end function

integer function nfmpi_xinq_libvers(msg)
  use ncpf_special_c
  implicit none
  character(len=*), intent(out) :: msg
  msg = ncpf_str80(ncmpi_inq_libvers())
  nfmpi_xinq_libvers = 0
end function
