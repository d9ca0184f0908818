! ncp-test: RANKS 1 2 4
! Wrong arguments from Fortran come back as NF_* codes, the same as
! PnetCDF's, and every code has a message.  Under NCPARIO_FORTRAN also
! what PnetCDF 1.12.3 does not survive or check: a bad ncid (in a put,
! in redef) and a bad varid in an nf90mpi_* put (it crashes on these),
! and an nf90mpi_* start or count shorter than the variable's rank; and
! NF_COUNT_IGNORE, which PnetCDF 1.12.3 does not name.  A character
! through an nf90mpi_* call on a numeric variable is NF_ECHAR before its
! start is checked, as PnetCDF's text family gives it.
program t_errors
  use mpi
  use futil
  implicit none
  include 'pnetcdf.inc'
  integer :: err, ncid, rank, ierr, dx, dy, vid, a(4, 3), k, i
  integer :: codes(8)
  character(len=80) :: msg

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  a = 7
  err = nfmpi_create(MPI_COMM_WORLD, outpath(), NF_CLOBBER, MPI_INFO_NULL, &
                     ncid)
  call check(err, 'create')
  call check(nfmpi_def_dim(ncid, 'x', 4_8, dx), 'x')
  call check(nfmpi_def_dim(ncid, 'y', 3_8, dy), 'y')
  call check(nfmpi_def_var(ncid, 'v', NF_INT, 2, [dx, dy], vid), 'v')
  call expect(nfmpi_def_var(ncid, 'v', NF_INT, 2, [dx, dy], k), &
              NF_ENAMEINUSE, 'duplicate name')
  call expect(nfmpi_def_var(ncid, 'w', NF_INT, 2, [dx, 9], k), &
              NF_EBADDIM, 'bad dimid')
  call expect(nfmpi_def_dim(ncid, 'x', 2_8, k), NF_ENAMEINUSE, 'dup dim')
  call expect(nfmpi_put_vara_int_all(ncid, vid, [1_8, 1_8], [4_8, 3_8], a), &
              NF_EINDEFINE, 'put in define mode')
  call check(nfmpi_enddef(ncid), 'enddef')
  call expect(nfmpi_put_vara_int_all(ncid, 99, [1_8, 1_8], [4_8, 3_8], a), &
              NF_ENOTVAR, 'bad varid')
  call expect(nfmpi_put_vara_int_all(ncid, vid, [5_8, 1_8], [1_8, 1_8], a), &
              NF_EINVALCOORDS, 'start past the end')
  call expect(nfmpi_put_vara_int_all(ncid, vid, [1_8, 2_8], [4_8, 3_8], a), &
              NF_EEDGE, 'count past the end')
  call expect(nfmpi_put_vars_int_all(ncid, vid, [1_8, 1_8], [2_8, 1_8], &
                                     [0_8, 1_8], a), NF_ESTRIDE, 'stride 0')
  call expect(nfmpi_put_vara_int(ncid, vid, [1_8, 1_8], [4_8, 3_8], a), &
              NF_ENOTINDEP, 'independent call in collective mode')
  call expect(nfmpi_get_att_int(ncid, vid, 'nosuch', k), NF_ENOTATT, &
              'missing attribute')
  call expect(nfmpi_inq_dimid(ncid, 'nosuch', k), NF_EBADDIM, 'bad dim name')
  call expect(nf90_text(ncid, vid, .true.), NF_ECHAR, &
              'nf90 character get on an int variable, start past the end')
  call expect(nf90_text(ncid, vid, .false.), NF_ECHAR, &
              'nf90 character put on an int variable, start past the end')
  ! The file is still fine after all of that.
  call check(nfmpi_put_vara_int_all(ncid, vid, [1_8, 1_8], [4_8, 3_8], a), &
             'good put')

#ifdef NCPARIO_FORTRAN
  ! PnetCDF crashes on these two bad ncids.
  call expect(nfmpi_put_vara_int_all(ncid + 100, vid, [1_8, 1_8], &
                                     [4_8, 3_8], a), NF_EBADID, 'bad ncid')
  call expect(nfmpi_redef(ncid + 100), NF_EBADID, 'redef bad ncid')
  call expect(nf90_put(ncid, vid, a, 1), NF_EINVALCOORDS, 'nf90 short start')
  call expect(nf90_put(ncid, vid, a, 2), NF_EEDGE, 'nf90 short count')
  call expect(nf90_put(ncid, 99, a, 0), NF_ENOTVAR, 'nf90 bad varid')
  ! PnetCDF 1.13's name for bufcount -1: the typed call's meaning, so the
  ! same values again leave the file as PnetCDF's.
  call check(nfmpi_put_vara_all(ncid, vid, [1_8, 1_8], [4_8, 3_8], a, &
                                int(NF_COUNT_IGNORE, 8), MPI_INTEGER), &
             'NF_COUNT_IGNORE put')
  call truth(NF_COUNT_IGNORE == -1, 'NF_COUNT_IGNORE is -1')
#endif
  call check(nfmpi_close(ncid), 'close')

  codes = [NF_EBADID, NF_ENOTVAR, NF_EINVALCOORDS, NF_EEDGE, NF_ESTRIDE, &
           NF_ENOTATT, NF_EBADDIM, NF_NOERR]
  do i = 1, size(codes)
    msg = nfmpi_strerror(codes(i))
    call truth(len_trim(msg) > 0, 'strerror has a message')
  end do
  call finish()

contains
  ! A one-character get or put through the nf90mpi_ generics, at a start
  ! past the end of the variable.
  integer function nf90_text(ncid, varid, get)
    use pnetcdf, only: nf90mpi_get_var_all, nf90mpi_put_var_all
    integer, intent(in) :: ncid, varid
    logical, intent(in) :: get
    character(len=1) :: c
    c = 'a'
    if (get) then
      nf90_text = nf90mpi_get_var_all(ncid, varid, c, start=[9_8, 9_8])
    else
      nf90_text = nf90mpi_put_var_all(ncid, varid, c, start=[9_8, 9_8])
    end if
  end function

#ifdef NCPARIO_FORTRAN
  ! An nf90mpi_put_var_all call with a deliberately short start (how = 1)
  ! or count (how = 2).
  integer function nf90_put(ncid, varid, a, how)
    use pnetcdf, only: nf90mpi_put_var_all
    integer, intent(in) :: ncid, varid, how
    integer, intent(in) :: a(:, :)
    select case (how)
    case (1)
      nf90_put = nf90mpi_put_var_all(ncid, varid, a, start=[1_8])
    case (2)
      nf90_put = nf90mpi_put_var_all(ncid, varid, a, count=[4_8])
    case default
      nf90_put = nf90mpi_put_var_all(ncid, varid, a)
    end select
  end function
#endif
end program t_errors
