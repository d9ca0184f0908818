! ncp-test: RANKS 1 2 4
! A FLASH-like checkpoint: many double variables over (nxb, nyb, nzb,
! blocks) with every rank owning its own blocks, plus block metadata;
! half the unknowns written by blocking collective puts, the other half by
! buffered bput (attach, wait_all, detach), then all read back.
program t_flash
  use mpi
  use futil
  implicit none
  include 'pnetcdf.inc'
  integer, parameter :: nvar = 24, nxb = 4, nyb = 4, nzb = 2, nblk = 3
  double precision :: unk(nxb, nyb, nzb, nblk, nvar), back(nxb, nyb, nzb, nblk)
  integer :: lref(nblk), glref(nblk)
  real :: bsize(3, nblk), gbsize(3, nblk)
  integer(kind=MPI_OFFSET_KIND) :: st(4), ct(4), usage
  integer :: err, ncid, rank, nprocs, ierr, v, b, i, j, k
  integer :: dims(4), d3, vids(nvar), vlref, vbsize
  integer :: reqs(nvar), sts(nvar), nreq
  character(len=8) :: vname

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  do v = 1, nvar
    do b = 1, nblk
      do k = 1, nzb
        do j = 1, nyb
          do i = 1, nxb
            unk(i, j, k, b, v) = v * 1d6 + (rank * nblk + b) * 1d3 + &
                                 i + 10 * j + 100 * k + 0.25d0
          end do
        end do
      end do
    end do
  end do
  lref = [(rank * nblk + b, b = 1, nblk)]
  bsize = 0.5
  bsize(1, :) = real(lref)

  err = nfmpi_create(MPI_COMM_WORLD, outpath(), &
                     ior(NF_CLOBBER, NF_64BIT_OFFSET), MPI_INFO_NULL, ncid)
  call check(err, 'create')
  call check(nfmpi_def_dim(ncid, 'dim_nxb', int(nxb, 8), dims(1)), 'nxb')
  call check(nfmpi_def_dim(ncid, 'dim_nyb', int(nyb, 8), dims(2)), 'nyb')
  call check(nfmpi_def_dim(ncid, 'dim_nzb', int(nzb, 8), dims(3)), 'nzb')
  call check(nfmpi_def_dim(ncid, 'dim_tot_blocks', int(nblk * nprocs, 8), &
                           dims(4)), 'blocks')
  call check(nfmpi_def_dim(ncid, 'dim_ndim', 3_8, d3), 'ndim')
  call check(nfmpi_put_att_int(ncid, NF_GLOBAL, 'total_blocks', NF_INT, &
                               1_8, [nblk * nprocs]), 'att')
  call check(nfmpi_put_att_double(ncid, NF_GLOBAL, 'time', NF_DOUBLE, 1_8, &
                                  [0.125d0]), 'att time')
  call check(nfmpi_def_var(ncid, 'lrefine', NF_INT, 1, dims(4:4), vlref), &
             'lrefine')
  call check(nfmpi_def_var(ncid, 'bsize', NF_FLOAT, 2, [d3, dims(4)], &
                           vbsize), 'bsize')
  do v = 1, nvar
    write (vname, '("unk", i2.2)') v
    call check(nfmpi_def_var(ncid, vname, NF_DOUBLE, 4, dims, vids(v)), &
               'def unk')
    call check(nfmpi_put_att_text(ncid, vids(v), 'name', 5_8, vname(1:5)), &
               'att name')
  end do
  call check(nfmpi_enddef(ncid), 'enddef')

  call check(nfmpi_put_vara_int_all(ncid, vlref, [int(rank * nblk + 1, 8)], &
                                    [int(nblk, 8)], lref), 'put lrefine')
  call check(nfmpi_put_vara_real_all(ncid, vbsize, &
                                     [1_8, int(rank * nblk + 1, 8)], &
                                     [3_8, int(nblk, 8)], bsize), 'bsize')
  st = [1_8, 1_8, 1_8, int(rank * nblk + 1, 8)]
  ct = [int(nxb, 8), int(nyb, 8), int(nzb, 8), int(nblk, 8)]
  do v = 1, nvar / 2
    call check(nfmpi_put_vara_double_all(ncid, vids(v), st, ct, &
                                         unk(:, :, :, :, v)), 'put unk')
  end do
  call check(nfmpi_buffer_attach(ncid, int(8 * size(back) * nvar, 8)), &
             'attach')
  nreq = 0
  do v = nvar / 2 + 1, nvar
    nreq = nreq + 1
    call check(nfmpi_bput_vara_double(ncid, vids(v), st, ct, &
                                      unk(:, :, :, :, v), reqs(nreq)), 'bput')
  end do
  call check(nfmpi_inq_buffer_usage(ncid, usage), 'usage')
  call truth(usage == 8 * size(back) * nreq, 'buffer usage')
  call check(nfmpi_wait_all(ncid, nreq, reqs, sts), 'wait_all')
  do v = 1, nreq
    call check(sts(v), 'bput status')
  end do
  call check(nfmpi_buffer_detach(ncid), 'detach')
  call check(nfmpi_close(ncid), 'close')

  call check(nfmpi_open(MPI_COMM_WORLD, outpath(), NF_NOWRITE, &
                        MPI_INFO_NULL, ncid), 'open')
  do v = 1, nvar
    write (vname, '("unk", i2.2)') v
    call check(nfmpi_inq_varid(ncid, vname, vids(v)), 'inq_varid')
    call check(nfmpi_get_vara_double_all(ncid, vids(v), st, ct, back), 'get')
    call truth(all(back == unk(:, :, :, :, v)), 'unk read back')
  end do
  call check(nfmpi_get_vara_int_all(ncid, vlref, [int(rank * nblk + 1, 8)], &
                                    [int(nblk, 8)], glref), 'get lrefine')
  call check(nfmpi_get_vara_real_all(ncid, vbsize, &
                                     [1_8, int(rank * nblk + 1, 8)], &
                                     [3_8, int(nblk, 8)], gbsize), 'g bsize')
  call truth(all(glref == lref) .and. all(gbsize == bsize), 'metadata')
  call check(nfmpi_close(ncid), 'close 2')
  call finish()
end program t_flash
