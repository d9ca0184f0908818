! ncpf_nf90 -- the nf90mpi_* functions that are not type-generic; module
! pnetcdf re-exports them beside the generated generics.  They take
! Fortran-ordered, 1-based ids like the nfmpi_* functions they call.
module ncpf_nf90
  use mpi, only: ncpf_ok => MPI_OFFSET_KIND
  use ncpf_consts
  implicit none
  private
  public :: nf90mpi_create, nf90mpi_open, nf90mpi_close, nf90mpi_enddef
  public :: nf90mpi_redef, nf90mpi_def_dim, nf90mpi_def_var, nf90mpi_inquire
  public :: nf90mpi_inquire_dimension, nf90mpi_inquire_variable
  public :: nf90mpi_inq_varid, nf90mpi_inq_dimid, nf90mpi_strerror
  public :: nf90mpi_sync, nf90mpi_begin_indep_data, nf90mpi_end_indep_data
  public :: nf90mpi_wait_all, nf90mpi_wait, nf90mpi_inq_libvers
  public :: nf90mpi_coords, nf90mpi_cancel, nf90mpi_delete
  public :: nf90mpi_get_file_info, nf90mpi_inq_file_info, nf90mpi_inq_path
  public :: nf90mpi_strerrno, nf90mpi_issyserr, nf90mpi_inquire_attribute

  integer, external :: nfmpi_create, nfmpi_open, nfmpi_close, nfmpi_enddef
  integer, external :: nfmpi__enddef
  integer, external :: nfmpi_redef, nfmpi_def_dim, nfmpi_def_var, nfmpi_inq
  integer, external :: nfmpi_inq_format, nfmpi_inq_dim, nfmpi_inq_varname
  integer, external :: nfmpi_inq_vartype, nfmpi_inq_varndims
  integer, external :: nfmpi_inq_vardimid, nfmpi_inq_varnatts
  integer, external :: nfmpi_inq_varid, nfmpi_inq_dimid, nfmpi_sync
  integer, external :: nfmpi_begin_indep_data, nfmpi_end_indep_data
  integer, external :: nfmpi_wait_all, nfmpi_wait
  integer, external :: nfmpi_cancel, nfmpi_delete, nfmpi_get_file_info
  integer, external :: nfmpi_inq_file_info, nfmpi_inq_path, nfmpi_inq_att
  integer, external :: nfmpi_inq_attid
  character(len=80), external :: nfmpi_strerror, nfmpi_inq_libvers
  character(len=80), external :: nfmpi_strerrno
  logical, external :: nfmpi_issyserr

  interface nf90mpi_def_var
    module procedure nf90mpi_def_var_scalar, nf90mpi_def_var_onedim, &
                     nf90mpi_def_var_manydims
  end interface

contains

  function nf90mpi_create(mpi_comm, path, cmode, mpi_info, ncid) result(st)
    integer, intent(in) :: mpi_comm, cmode, mpi_info
    character(len=*), intent(in) :: path
    integer, intent(out) :: ncid
    integer :: st
    st = nfmpi_create(mpi_comm, path, cmode, mpi_info, ncid)
  end function

  function nf90mpi_open(mpi_comm, path, omode, mpi_info, ncid) result(st)
    integer, intent(in) :: mpi_comm, omode, mpi_info
    character(len=*), intent(in) :: path
    integer, intent(out) :: ncid
    integer :: st
    st = nfmpi_open(mpi_comm, path, omode, mpi_info, ncid)
  end function

  integer function nf90mpi_close(ncid)
    integer, intent(in) :: ncid
    nf90mpi_close = nfmpi_close(ncid)
  end function

  ! With any of the four alignment arguments nfmpi__enddef, the others
  ! taking PnetCDF's defaults (0 free bytes, 4-byte alignment).
  integer function nf90mpi_enddef(ncid, h_minfree, v_align, v_minfree, &
                                  r_align)
    integer, intent(in) :: ncid
    integer(kind=ncpf_ok), intent(in), optional :: h_minfree, v_align
    integer(kind=ncpf_ok), intent(in), optional :: v_minfree, r_align
    integer(kind=ncpf_ok) :: hf, va, vf, ra
    if (.not. (present(h_minfree) .or. present(v_align) .or. &
               present(v_minfree) .or. present(r_align))) then
      nf90mpi_enddef = nfmpi_enddef(ncid)
      return
    end if
    hf = 0
    va = 4
    vf = 0
    ra = 4
    if (present(h_minfree)) hf = h_minfree
    if (present(v_align)) va = v_align
    if (present(v_minfree)) vf = v_minfree
    if (present(r_align)) ra = r_align
    nf90mpi_enddef = nfmpi__enddef(ncid, hf, va, vf, ra)
  end function

  integer function nf90mpi_redef(ncid)
    integer, intent(in) :: ncid
    nf90mpi_redef = nfmpi_redef(ncid)
  end function

  integer function nf90mpi_sync(ncid)
    integer, intent(in) :: ncid
    nf90mpi_sync = nfmpi_sync(ncid)
  end function

  integer function nf90mpi_begin_indep_data(ncid)
    integer, intent(in) :: ncid
    nf90mpi_begin_indep_data = nfmpi_begin_indep_data(ncid)
  end function

  integer function nf90mpi_end_indep_data(ncid)
    integer, intent(in) :: ncid
    nf90mpi_end_indep_data = nfmpi_end_indep_data(ncid)
  end function

  integer function nf90mpi_def_dim(ncid, name, len, dimid)
    integer, intent(in) :: ncid
    character(len=*), intent(in) :: name
    integer(kind=ncpf_ok), intent(in) :: len
    integer, intent(out) :: dimid
    nf90mpi_def_dim = nfmpi_def_dim(ncid, name, len, dimid)
  end function

  integer function nf90mpi_def_var_scalar(ncid, name, xtype, varid)
    integer, intent(in) :: ncid, xtype
    character(len=*), intent(in) :: name
    integer, intent(out) :: varid
    integer :: none(1)
    none = 0
    nf90mpi_def_var_scalar = nfmpi_def_var(ncid, name, xtype, 0, none, varid)
  end function

  integer function nf90mpi_def_var_onedim(ncid, name, xtype, dimids, varid)
    integer, intent(in) :: ncid, xtype, dimids
    character(len=*), intent(in) :: name
    integer, intent(out) :: varid
    nf90mpi_def_var_onedim = nfmpi_def_var(ncid, name, xtype, 1, [dimids], &
                                           varid)
  end function

  integer function nf90mpi_def_var_manydims(ncid, name, xtype, dimids, varid)
    integer, intent(in) :: ncid, xtype
    character(len=*), intent(in) :: name
    integer, intent(in) :: dimids(:)
    integer, intent(out) :: varid
    nf90mpi_def_var_manydims = nfmpi_def_var(ncid, name, xtype, &
                                             size(dimids), dimids, varid)
  end function

  function nf90mpi_inquire(ncid, nDimensions, nVariables, nAttributes, &
                           unlimitedDimId, formatNum) result(st)
    integer, intent(in) :: ncid
    integer, intent(out), optional :: nDimensions, nVariables, nAttributes
    integer, intent(out), optional :: unlimitedDimId, formatNum
    integer :: st, nd, nv, na, ul
    st = nfmpi_inq(ncid, nd, nv, na, ul)
    if (st /= nf_noerr) return
    if (present(nDimensions)) nDimensions = nd
    if (present(nVariables)) nVariables = nv
    if (present(nAttributes)) nAttributes = na
    if (present(unlimitedDimId)) unlimitedDimId = ul
    if (present(formatNum)) st = nfmpi_inq_format(ncid, formatNum)
  end function

  function nf90mpi_inquire_dimension(ncid, dimid, name, len) result(st)
    integer, intent(in) :: ncid, dimid
    character(len=*), intent(out), optional :: name
    integer(kind=ncpf_ok), intent(out), optional :: len
    integer :: st
    character(len=nf_max_name) :: n
    integer(kind=ncpf_ok) :: l
    st = nfmpi_inq_dim(ncid, dimid, n, l)
    if (st /= nf_noerr) return
    if (present(name)) name = n
    if (present(len)) len = l
  end function

  function nf90mpi_inquire_variable(ncid, varid, name, xtype, ndims, &
                                    dimids, nAtts) result(st)
    integer, intent(in) :: ncid, varid
    character(len=*), intent(out), optional :: name
    integer, intent(out), optional :: xtype, ndims, nAtts
    integer, intent(out), optional :: dimids(:)
    integer :: st, nd, i
    integer, allocatable :: d(:)
    if (present(name)) then
      st = nfmpi_inq_varname(ncid, varid, name)
      if (st /= nf_noerr) return
    end if
    if (present(xtype)) then
      st = nfmpi_inq_vartype(ncid, varid, xtype)
      if (st /= nf_noerr) return
    end if
    if (present(nAtts)) then
      st = nfmpi_inq_varnatts(ncid, varid, nAtts)
      if (st /= nf_noerr) return
    end if
    st = nfmpi_inq_varndims(ncid, varid, nd)
    if (st /= nf_noerr) return
    if (present(ndims)) ndims = nd
    if (present(dimids)) then
      if (size(dimids) < nd) then
        st = nf_einval
        return
      end if
      allocate(d(max(nd, 1)))
      st = nfmpi_inq_vardimid(ncid, varid, d)
      if (st /= nf_noerr) return
      do i = 1, nd
        dimids(i) = d(i)
      end do
    end if
  end function

  integer function nf90mpi_inq_varid(ncid, name, varid)
    integer, intent(in) :: ncid
    character(len=*), intent(in) :: name
    integer, intent(out) :: varid
    nf90mpi_inq_varid = nfmpi_inq_varid(ncid, name, varid)
  end function

  integer function nf90mpi_inq_dimid(ncid, name, dimid)
    integer, intent(in) :: ncid
    character(len=*), intent(in) :: name
    integer, intent(out) :: dimid
    nf90mpi_inq_dimid = nfmpi_inq_dimid(ncid, name, dimid)
  end function

  integer function nf90mpi_wait_all(ncid, num, req, st)
    integer, intent(in) :: ncid, num
    integer, intent(in) :: req(:)
    integer, intent(out) :: st(:)
    nf90mpi_wait_all = nfmpi_wait_all(ncid, num, req, st)
  end function

  integer function nf90mpi_wait(ncid, num, req, st)
    integer, intent(in) :: ncid, num
    integer, intent(in) :: req(:)
    integer, intent(out) :: st(:)
    nf90mpi_wait = nfmpi_wait(ncid, num, req, st)
  end function

  integer function nf90mpi_cancel(ncid, num, req, st)
    integer, intent(in) :: ncid, num
    integer, intent(in) :: req(:)
    integer, intent(out) :: st(:)
    nf90mpi_cancel = nfmpi_cancel(ncid, num, req, st)
  end function

  integer function nf90mpi_delete(name, mpi_info)
    character(len=*), intent(in) :: name
    integer, intent(in) :: mpi_info
    nf90mpi_delete = nfmpi_delete(name, mpi_info)
  end function

  integer function nf90mpi_get_file_info(ncid, mpi_info)
    integer, intent(in) :: ncid
    integer, intent(out) :: mpi_info
    nf90mpi_get_file_info = nfmpi_get_file_info(ncid, mpi_info)
  end function

  integer function nf90mpi_inq_file_info(ncid, mpi_info)
    integer, intent(in) :: ncid
    integer, intent(out) :: mpi_info
    nf90mpi_inq_file_info = nfmpi_inq_file_info(ncid, mpi_info)
  end function

  integer function nf90mpi_inq_path(ncid, pathlen, path)
    integer, intent(in) :: ncid
    integer, intent(out) :: pathlen
    character(len=*), intent(out) :: path
    nf90mpi_inq_path = nfmpi_inq_path(ncid, pathlen, path)
  end function

  function nf90mpi_inquire_attribute(ncid, varid, name, xtype, len, &
                                     attnum) result(st)
    integer, intent(in) :: ncid, varid
    character(len=*), intent(in) :: name
    integer, intent(out), optional :: xtype, attnum
    integer(kind=ncpf_ok), intent(out), optional :: len
    integer :: st, t, n
    integer(kind=ncpf_ok) :: l
    st = nfmpi_inq_att(ncid, varid, name, t, l)
    if (st /= nf_noerr) return
    if (present(xtype)) xtype = t
    if (present(len)) len = l
    if (present(attnum)) then
      st = nfmpi_inq_attid(ncid, varid, name, n)
      if (st == nf_noerr) attnum = n
    end if
  end function

  logical function nf90mpi_issyserr(ncerr)
    integer, intent(in) :: ncerr
    nf90mpi_issyserr = nfmpi_issyserr(ncerr)
  end function

  ! NF90_EBADID: the Fortran 77 name with NF90_ for NF_.
  character(len=80) function nf90mpi_strerrno(ncerr)
    integer, intent(in) :: ncerr
    character(len=80) :: f77
    f77 = nfmpi_strerrno(ncerr)
    if (f77(1:3) == 'NF_') then
      nf90mpi_strerrno = 'NF90_' // f77(4:)
    else
      nf90mpi_strerrno = f77
    end if
  end function

  character(len=80) function nf90mpi_strerror(ncerr)
    integer, intent(in) :: ncerr
    nf90mpi_strerror = nfmpi_strerror(ncerr)
  end function

  character(len=80) function nf90mpi_inq_libvers()
    nf90mpi_inq_libvers = nfmpi_inq_libvers()
  end function

  ! The coordinates of an nf90mpi_{put,get}_var call, in Fortran order:
  ! start defaults to 1, count to the shape of the values (then 1), and
  ! form says which access form the given arguments ask for (1 vara,
  ! 2 vars, 3 varm).  Arrays shorter than the variable's rank are errors,
  ! and so are values of higher rank without a count, except on a scalar
  ! variable: any array (or string) there is its one element, as in
  ! PnetCDF.
  function nf90mpi_coords(ncid, varid, shp, form, s, c, st, m, start, &
                          count, stride, map) result(status)
    integer, intent(in) :: ncid, varid
    integer(kind=ncpf_ok), intent(in) :: shp(:)
    integer, intent(out) :: form
    integer(kind=ncpf_ok), allocatable, intent(out) :: s(:), c(:), st(:), m(:)
    integer(kind=ncpf_ok), intent(in), optional :: start(:), count(:)
    integer(kind=ncpf_ok), intent(in), optional :: stride(:), map(:)
    integer :: status, nd, i
    form = 1
    status = nfmpi_inq_varndims(ncid, varid, nd)
    if (status /= nf_noerr) return
    allocate(s(max(nd, 1)), c(max(nd, 1)), st(max(nd, 1)), m(max(nd, 1)))
    s = 1
    c = 1
    st = 1
    m = 1
    if (nd > 0 .and. size(shp) > nd .and. .not. present(count)) then
      status = nf_einvalcoords
      return
    end if
    do i = 1, min(nd, size(shp))
      c(i) = shp(i)
    end do
    if (present(start)) then
      if (size(start) < nd) then
        status = nf_einvalcoords
        return
      end if
      s(1:nd) = start(1:nd)
    end if
    if (present(count)) then
      if (size(count) < nd) then
        status = nf_eedge
        return
      end if
      c(1:nd) = count(1:nd)
    end if
    if (present(stride)) then
      if (size(stride) < nd) then
        status = nf_estride
        return
      end if
      st(1:nd) = stride(1:nd)
      form = 2
    end if
    if (present(map)) then
      if (size(map) < nd) then
        status = nf_einval
        return
      end if
      m(1:nd) = map(1:nd)
      form = 3
    end if
  end function

end module ncpf_nf90
