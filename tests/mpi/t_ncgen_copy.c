/* ncp-test: RANKS 1 2 4 */
/* t_ncgen_copy -- files that ncgen (netcdf-bin) wrote read back exactly.
 *
 * Usage: t_ncgen_copy OUT.nc [FIXTURE_DIR]
 *
 * Every .nc file in the fixture directory (the build turns each CDL file of
 * tests/fixtures/ into <build>/tests/fixtures/<name>.cdf<k>.nc) is opened
 * read-only and copied, in its own format, to <dir of OUT.nc>/<fixture
 * name>; OUT.nc itself is a second copy of the first fixture, so the harness always finds
 * its main file.  The copy defines the same dimensions and variables in the
 * same order, copies every attribute with ncmpi_copy_att, then moves the
 * data with the typed get and put that match each variable's external type,
 * each rank taking a block of the first dimension (of the records, for
 * record variables).  Finally the copy is reopened and its header and every
 * value are compared with the fixture byte for byte, each rank reading whole
 * variables so that every rank checks what every other rank wrote.
 *
 * The fixture directory is FIXTURE_DIR when given; otherwise, in order,
 * fixtures/ beside the program as argv[0] names it, fixtures/ beside the
 * running executable (/proc/self/exe), and the directory the build compiled
 * in: the first holding at least one .nc file wins.  None is a failure.
 * Rank 0 lists the directory and broadcasts the sorted names, so all ranks
 * walk the same files in the same order.
 */
/* opendir, readlink and strdup are POSIX, not C11. */
#define _POSIX_C_SOURCE 200809L

#include "testutil.h"

#include <dirent.h>
#include <unistd.h>

#define PATHLEN 4096
#define MAXFIX 256
#define MAXFIXNAME 256 /* bytes, with the '\0' */
/* pnetcdf.h's NC_MAX_VAR_DIMS is INT_MAX, no size for a stack array; the
 * fixtures stay far below this. */
#define MAXRANK 32

/* External type, the C type of its matching memory buffer, and the suffix of
 * its typed get/put functions. */
#define XTYPES(X)                                                           \
    X(NC_BYTE, signed char, schar) X(NC_CHAR, char, text)                   \
    X(NC_SHORT, short, short) X(NC_INT, int, int)                           \
    X(NC_FLOAT, float, float) X(NC_DOUBLE, double, double)                  \
    X(NC_UBYTE, unsigned char, uchar) X(NC_USHORT, unsigned short, ushort)  \
    X(NC_UINT, unsigned int, uint) X(NC_INT64, long long, longlong)         \
    X(NC_UINT64, unsigned long long, ulonglong)

static int get_part(int nc, int v, nc_type t, const MPI_Offset *st,
                    const MPI_Offset *ct, void *buf)
{
    int err = NC_EBADTYPE;
    switch (t) {
#define X(nt, ct_, sfx)                                                     \
    case nt: err = ncmpi_get_vara_##sfx##_all(nc, v, st, ct, (ct_ *)buf); break;
        XTYPES(X)
#undef X
    }
    return err;
}

static int put_part(int nc, int v, nc_type t, const MPI_Offset *st,
                    const MPI_Offset *ct, const void *buf)
{
    int err = NC_EBADTYPE;
    switch (t) {
#define X(nt, ct_, sfx)                                                     \
    case nt:                                                                \
        err = ncmpi_put_vara_##sfx##_all(nc, v, st, ct, (const ct_ *)buf);  \
        break;
        XTYPES(X)
#undef X
    }
    return err;
}

static int get_whole(int nc, int v, nc_type t, void *buf)
{
    int err = NC_EBADTYPE;
    switch (t) {
#define X(nt, ct_, sfx)                                                     \
    case nt: err = ncmpi_get_var_##sfx##_all(nc, v, (ct_ *)buf); break;
        XTYPES(X)
#undef X
    }
    return err;
}

/* Memory bytes per element of the buffer get_part/put_part use for t. */
static size_t mem_size(nc_type t)
{
    size_t n = 0;
    switch (t) {
#define X(nt, ct_, sfx) case nt: n = sizeof(ct_); break;
        XTYPES(X)
#undef X
    }
    return n;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Lists DIR's *.nc names, sorted, into one '\0'-separated block.  A
 * directory with more than MAXFIX of them, or names too long for the block,
 * counts as none, so that the run fails rather than skips files. */
static int list_fixtures(const char *dir, char *block, size_t blocklen,
                         size_t *used, int *count)
{
    char *names[MAXFIX];
    struct dirent *e;
    size_t off = 0;
    int n = 0, i, too_many = 0;
    DIR *d = opendir(dir);
    *used = 0;
    *count = 0;
    if (d == NULL)
        return 0;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len <= 3 || strcmp(e->d_name + len - 3, ".nc") != 0)
            continue;
        if (n == MAXFIX) {
            too_many = 1;
            break;
        }
        names[n] = strdup(e->d_name);
        if (names[n] != NULL)
            n++;
    }
    closedir(d);
    if (too_many)
        printf("FAIL: more than %d .nc files in %s\n", MAXFIX, dir);
    qsort(names, (size_t)n, sizeof names[0], cmp_names);
    for (i = 0; i < n; i++) {
        size_t len = strlen(names[i]) + 1;
        if (off + len <= blocklen) {
            memcpy(block + off, names[i], len);
            off += len;
            (*count)++;
        }
        free(names[i]);
    }
    if (too_many || *count != n)
        *count = 0;
    *used = *count ? off : 0;
    return *count;
}

/* Writes into out the directory part of path ("." when it has none). */
static void dir_of(char *out, size_t outlen, const char *path)
{
    const char *slash = strrchr(path, '/');
    if (slash == NULL)
        snprintf(out, outlen, ".");
    else if (slash == path)
        snprintf(out, outlen, "/");
    else
        snprintf(out, outlen, "%.*s", (int)(slash - path), path);
}

/* The directories find_fixtures tries, in order (see the file comment). */
static int fixture_dirs(int argc, char **argv, char cand[][PATHLEN])
{
    char self[PATHLEN], where[PATHLEN];
    ssize_t len;
    int n = 0;
    if (argc > 2) {
        snprintf(cand[n++], PATHLEN, "%s", argv[2]);
        return n;
    }
    if (strchr(argv[0], '/') != NULL) {
        dir_of(where, sizeof where, argv[0]);
        snprintf(cand[n++], PATHLEN, "%.4000s/fixtures", where);
    }
    len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len > 0) {
        self[len] = '\0';
        dir_of(where, sizeof where, self);
        snprintf(cand[n++], PATHLEN, "%.4000s/fixtures", where);
    }
#ifdef NCP_FIXTURE_DIR
    snprintf(cand[n++], PATHLEN, "%s", NCP_FIXTURE_DIR);
#endif
    return n;
}

/* Rank 0 picks the fixture directory and lists it; everyone gets the list.
 * Returns the number of fixtures (0 when none was found anywhere). */
static int find_fixtures(int argc, char **argv, char *dir, char *block,
                         size_t blocklen)
{
    char cand[3][PATHLEN];
    int ncand, i, n = 0;
    long long used = 0;
    if (tu_myrank == 0) {
        ncand = fixture_dirs(argc, argv, cand);
        for (i = 0; i < ncand && n == 0; i++) {
            size_t u = 0;
            if (list_fixtures(cand[i], block, blocklen, &u, &n) > 0) {
                snprintf(dir, PATHLEN, "%s", cand[i]);
                used = (long long)u;
            }
        }
        if (n == 0) {
            printf("FAIL: no ncgen fixture (*.nc) found; looked in:\n");
            for (i = 0; i < ncand; i++)
                printf("  %s\n", cand[i]);
        } else {
            printf("t_ncgen_copy: %d fixture(s) in %s\n", n, dir);
        }
        fflush(stdout);
    }
    MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(&used, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    MPI_Bcast(dir, PATHLEN, MPI_CHAR, 0, MPI_COMM_WORLD);
    MPI_Bcast(block, (int)used, MPI_CHAR, 0, MPI_COMM_WORLD);
    return n;
}

static int create_mode(int format)
{
    switch (format) {
    case NC_FORMAT_CDF2: return NC_64BIT_OFFSET;
    case NC_FORMAT_CDF5: return NC_64BIT_DATA;
    default: return 0;
    }
}

/* This rank's block of variable v: the first dimension (records for a
 * record variable) split over the ranks, the others whole.  Returns the
 * number of elements in the block; a scalar is one element on every rank. */
static MPI_Offset var_block(int nc, int v, MPI_Offset *st, MPI_Offset *ct,
                            int *ndimsp, nc_type *tp)
{
    int ndims = 0, dimids[MAXRANK], d;
    MPI_Offset n = 1, len;
    CHECK_ERR(ncmpi_inq_vartype(nc, v, tp));
    CHECK_ERR(ncmpi_inq_varndims(nc, v, &ndims));
    CHECKF(ndims >= 0 && ndims <= MAXRANK, "var %d has %d dims", v, ndims);
    if (ndims < 0 || ndims > MAXRANK)
        ndims = 0;
    CHECK_ERR(ncmpi_inq_vardimid(nc, v, dimids));
    for (d = 0; d < ndims; d++) {
        len = 0;
        CHECK_ERR(ncmpi_inq_dimlen(nc, dimids[d], &len));
        st[d] = 0;
        ct[d] = len;
        if (d == 0)
            tu_part(len, tu_myrank, tu_nranks, &st[0], &ct[0]);
        n *= ct[d];
    }
    *ndimsp = ndims;
    return n;
}

/* Defines in `out` everything `in` has, in the same order, so that every
 * id matches. */
static void copy_header(int in, int out, const char *fix)
{
    int ndims = 0, nvars = 0, natts = 0, unlim = -1, i, a, id;
    char name[NC_MAX_NAME + 1];
    CHECK_ERR(ncmpi_inq(in, &ndims, &nvars, &natts, &unlim));
    for (i = 0; i < ndims; i++) {
        MPI_Offset len = 0;
        id = -1;
        CHECK_ERR(ncmpi_inq_dim(in, i, name, &len));
        CHECK_ERR(ncmpi_def_dim(out, name, i == unlim ? NC_UNLIMITED : len, &id));
        CHECKF(id == i, "%s: dim %s got id %d, want %d", fix, name, id, i);
    }
    for (a = 0; a < natts; a++) {
        CHECK_ERR(ncmpi_inq_attname(in, NC_GLOBAL, a, name));
        CHECK_ERR(ncmpi_copy_att(in, NC_GLOBAL, name, out, NC_GLOBAL));
    }
    for (i = 0; i < nvars; i++) {
        int vd = 0, dimids[MAXRANK], vatts = 0;
        nc_type t = NC_NAT;
        id = -1;
        CHECK_ERR(ncmpi_inq_varndims(in, i, &vd));
        CHECKF(vd <= MAXRANK, "%s: var %d has %d dims", fix, i, vd);
        if (vd > MAXRANK)
            continue;
        CHECK_ERR(ncmpi_inq_var(in, i, name, &t, &vd, dimids, &vatts));
        CHECK_ERR(ncmpi_def_var(out, name, t, vd, dimids, &id));
        CHECKF(id == i, "%s: var %s got id %d, want %d", fix, name, id, i);
        for (a = 0; a < vatts; a++) {
            CHECK_ERR(ncmpi_inq_attname(in, i, a, name));
            CHECK_ERR(ncmpi_copy_att(in, i, name, out, i));
        }
    }
}

/* Copies, before anything else, the element that ends the data: the last
 * element of the variable whose last block (its last record, for a record
 * variable) starts furthest into the file.  Rank 0 moves it; the others
 * join with empty requests (a scalar: the same value from every rank).
 *
 * Why: under OpenMPI 4.1's default OMPIO, write data sieving in fbtl/posix
 * reads the whole span of an aggregated collective write, gaps included,
 * and writes it back; a gap past the end of the file reads short and goes
 * to disk as stale buffer bytes.  Gaps that no variable covers (record
 * padding) keep them, so at 4 ranks the copies differed in padding bytes
 * from those PnetCDF writes on ROMIO (PnetCDF on OMPIO writes the same
 * stale bytes as ncpario; OMPI_MCA_fbtl_posix_write_datasieving=0 avoids
 * them).  With the file at full length first, gaps read back as zeros. */
static void extend_first(int in, int out, const char *fix)
{
    int nvars = 0, v, last = -1, ndims, d, recdim = -1, err;
    int dimids[MAXRANK];
    MPI_Offset off, recsize = 0, numrecs = 0, best = -1;
    MPI_Offset st[MAXRANK], ct[MAXRANK];
    nc_type t = NC_NAT;
    double buf[2]; /* one element of any type */

    CHECK_ERR(ncmpi_inq_nvars(in, &nvars));
    CHECK_ERR(ncmpi_inq_unlimdim(in, &recdim));
    CHECK_ERR(ncmpi_inq_recsize(out, &recsize));
    if (recdim >= 0)
        CHECK_ERR(ncmpi_inq_dimlen(in, recdim, &numrecs));
    for (v = 0; v < nvars; v++) {
        off = -1;
        ndims = 0;
        CHECK_ERR(ncmpi_inq_varoffset(out, v, &off));
        CHECK_ERR(ncmpi_inq_varndims(in, v, &ndims));
        if (ndims < 0 || ndims > MAXRANK)
            continue; /* copy_header has reported it */
        CHECK_ERR(ncmpi_inq_vardimid(in, v, dimids));
        if (ndims > 0 && dimids[0] == recdim) {
            if (numrecs == 0)
                continue;
            off += (numrecs - 1) * recsize;
        }
        if (off > best) {
            best = off;
            last = v;
        }
    }
    if (last < 0)
        return;
    CHECK_ERR(ncmpi_inq_vartype(in, last, &t));
    CHECK_ERR(ncmpi_inq_varndims(in, last, &ndims));
    CHECK_ERR(ncmpi_inq_vardimid(in, last, dimids));
    for (d = 0; d < ndims; d++) {
        MPI_Offset len = 0;
        CHECK_ERR(ncmpi_inq_dimlen(in, dimids[d], &len));
        st[d] = len - 1;
        ct[d] = tu_myrank == 0 ? 1 : 0;
    }
    err = get_part(in, last, t, st, ct, buf);
    CHECKF(err == NC_NOERR, "%s: get last element of var %d: %s", fix, last,
           ncmpi_strerror(err));
    err = put_part(out, last, t, st, ct, buf);
    CHECKF(err == NC_NOERR, "%s: put last element of var %d: %s", fix, last,
           ncmpi_strerror(err));
}

/* Every variable, block by block: read from `in`, written to `out`. */
static void copy_data(int in, int out, const char *fix)
{
    int nvars = 0, v, ndims;
    MPI_Offset st[MAXRANK], ct[MAXRANK], n;
    nc_type t = NC_NAT;
    CHECK_ERR(ncmpi_inq_nvars(in, &nvars));
    extend_first(in, out, fix);
    for (v = 0; v < nvars; v++) {
        int err;
        void *buf;
        n = var_block(in, v, st, ct, &ndims, &t);
        buf = malloc((size_t)n * mem_size(t) + 1);
        CHECK(buf != NULL);
        err = get_part(in, v, t, st, ct, buf);
        CHECKF(err == NC_NOERR, "%s: get var %d (%s): %s", fix, v,
               tu_tname(t), ncmpi_strerror(err));
        err = put_part(out, v, t, st, ct, buf);
        CHECKF(err == NC_NOERR, "%s: put var %d (%s): %s", fix, v,
               tu_tname(t), ncmpi_strerror(err));
        free(buf);
    }
}

/* Attribute `name` of variable v: same type, length and bytes in a and b. */
static void compare_att(int a, int b, int v, const char *name, const char *fix)
{
    nc_type ta = NC_NAT, tb = NC_NAT;
    MPI_Offset la = -1, lb = -1;
    void *ba, *bb;
    size_t bytes;
    CHECK_ERR(ncmpi_inq_att(a, v, name, &ta, &la));
    CHECK_ERR(ncmpi_inq_att(b, v, name, &tb, &lb));
    CHECKF(ta == tb && la == lb, "%s: att %d:%s is %s[%lld], want %s[%lld]",
           fix, v, name, tu_tname(tb), (long long)lb, tu_tname(ta),
           (long long)la);
    if (ta != tb || la != lb || la < 0)
        return;
    bytes = (size_t)la * mem_size(ta) + 1;
    ba = calloc(1, bytes);
    bb = calloc(1, bytes);
    CHECK(ba != NULL && bb != NULL);
    if (ba != NULL && bb != NULL) {
        CHECK_ERR(ncmpi_get_att(a, v, name, ba));
        CHECK_ERR(ncmpi_get_att(b, v, name, bb));
        CHECKF(memcmp(ba, bb, bytes) == 0, "%s: att %d:%s values differ", fix,
               v, name);
    }
    free(ba);
    free(bb);
}

/* Same format, dimensions, variables, attributes and values.  Collective. */
static void compare_files(int a, int b, const char *fix)
{
    int fa = -1, fb = -2, na[4] = {0}, nb[4] = {0}, i, v, k;
    char an[NC_MAX_NAME + 1], bn[NC_MAX_NAME + 1];
    CHECK_ERR(ncmpi_inq_format(a, &fa));
    CHECK_ERR(ncmpi_inq_format(b, &fb));
    CHECKF(fa == fb, "%s: copy has format %d, want %d", fix, fb, fa);
    CHECK_ERR(ncmpi_inq(a, &na[0], &na[1], &na[2], &na[3]));
    CHECK_ERR(ncmpi_inq(b, &nb[0], &nb[1], &nb[2], &nb[3]));
    CHECKF(memcmp(na, nb, sizeof na) == 0,
           "%s: copy has %d dims %d vars %d atts unlim %d, want %d %d %d %d",
           fix, nb[0], nb[1], nb[2], nb[3], na[0], na[1], na[2], na[3]);
    if (memcmp(na, nb, sizeof na) != 0)
        return;
    for (i = 0; i < na[0]; i++) {
        MPI_Offset la = -1, lb = -2;
        CHECK_ERR(ncmpi_inq_dim(a, i, an, &la));
        CHECK_ERR(ncmpi_inq_dim(b, i, bn, &lb));
        CHECKF(strcmp(an, bn) == 0 && la == lb, "%s: dim %d is %s=%lld, want "
               "%s=%lld", fix, i, bn, (long long)lb, an, (long long)la);
    }
    for (i = 0; i < na[2]; i++) {
        CHECK_ERR(ncmpi_inq_attname(a, NC_GLOBAL, i, an));
        CHECK_ERR(ncmpi_inq_attname(b, NC_GLOBAL, i, bn));
        CHECKF(strcmp(an, bn) == 0, "%s: global att %d is %s, want %s", fix,
               i, bn, an);
        compare_att(a, b, NC_GLOBAL, an, fix);
    }
    for (v = 0; v < na[1]; v++) {
        int da = 0, db = 0, ida[MAXRANK], idb[MAXRANK];
        int aa = 0, ab = 0, same;
        nc_type ta = NC_NAT, tb = NC_NAT;
        MPI_Offset n = 1, len;
        void *ba, *bb;
        size_t bytes;
        CHECK_ERR(ncmpi_inq_varndims(a, v, &da));
        CHECK_ERR(ncmpi_inq_varndims(b, v, &db));
        if (da > MAXRANK || db > MAXRANK)
            continue; /* copy_header has reported it */
        CHECK_ERR(ncmpi_inq_var(a, v, an, &ta, &da, ida, &aa));
        CHECK_ERR(ncmpi_inq_var(b, v, bn, &tb, &db, idb, &ab));
        same = strcmp(an, bn) == 0 && ta == tb && da == db && aa == ab &&
               memcmp(ida, idb, sizeof ida[0] * (size_t)da) == 0;
        CHECKF(same, "%s: var %d is %s %s (%d dims, %d atts), want %s %s (%d "
               "dims, %d atts)", fix, v, tu_tname(tb), bn, db, ab,
               tu_tname(ta), an, da, aa);
        if (!same)
            continue;
        for (k = 0; k < aa; k++) {
            CHECK_ERR(ncmpi_inq_attname(a, v, k, an));
            CHECK_ERR(ncmpi_inq_attname(b, v, k, bn));
            CHECKF(strcmp(an, bn) == 0, "%s: var %d att %d is %s, want %s",
                   fix, v, k, bn, an);
            compare_att(a, b, v, an, fix);
        }
        for (k = 0; k < da; k++) {
            len = 0;
            CHECK_ERR(ncmpi_inq_dimlen(a, ida[k], &len));
            n *= len;
        }
        bytes = (size_t)n * mem_size(ta) + 1;
        ba = calloc(1, bytes);
        bb = calloc(1, bytes);
        CHECK(ba != NULL && bb != NULL);
        CHECK_ERR(get_whole(a, v, ta, ba));
        CHECK_ERR(get_whole(b, v, ta, bb));
        if (ba != NULL && bb != NULL) {
            size_t off = 0, esz = mem_size(ta);
            while (off + 1 < bytes && ((char *)ba)[off] == ((char *)bb)[off])
                off++;
            CHECKF(off + 1 >= bytes, "%s: var %s (%s): element %lld of %lld "
                   "differs", fix, an, tu_tname(ta), (long long)(off / esz),
                   (long long)n);
        }
        free(ba);
        free(bb);
    }
}

/* Copies fixture `src` to `dst`, then reopens `dst` and compares. */
static void copy_one(const char *src, const char *dst, const char *fix)
{
    int in = -1, out = -1, err, format = NC_FORMAT_CLASSIC;
    err = ncmpi_open(MPI_COMM_WORLD, src, NC_NOWRITE, MPI_INFO_NULL, &in);
    CHECKF(err == NC_NOERR, "open %s: %s", src, ncmpi_strerror(err));
    if (tu_any(err != NC_NOERR))
        return;
    CHECK_ERR(ncmpi_inq_format(in, &format));
    err = ncmpi_create(MPI_COMM_WORLD, dst, NC_CLOBBER | create_mode(format),
                       MPI_INFO_NULL, &out);
    CHECKF(err == NC_NOERR, "create %s: %s", dst, ncmpi_strerror(err));
    if (!tu_any(err != NC_NOERR)) {
        copy_header(in, out, fix);
        CHECK_ERR(ncmpi_enddef(out));
        copy_data(in, out, fix);
        CHECK_ERR(ncmpi_close(out));
        err = ncmpi_open(MPI_COMM_WORLD, dst, NC_NOWRITE, MPI_INFO_NULL, &out);
        CHECKF(err == NC_NOERR, "reopen %s: %s", dst, ncmpi_strerror(err));
        if (!tu_any(err != NC_NOERR)) {
            compare_files(in, out, fix);
            CHECK_ERR(ncmpi_close(out));
        }
    }
    CHECK_ERR(ncmpi_close(in));
}

int main(int argc, char **argv)
{
    static char block[MAXFIX * MAXFIXNAME];
    char dir[PATHLEN] = "", outdir[PATHLEN], src[PATHLEN], dst[PATHLEN];
    const char *path, *fix;
    int n, i;

    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    CHECK(path != NULL);
    if (!path)
        return tu_finish("t_ncgen_copy");
    n = find_fixtures(argc, argv, dir, block, sizeof block);
    CHECKF(n > 0, "no ncgen fixture found (see above)");
    dir_of(outdir, sizeof outdir, path);
    for (i = 0, fix = block; i < n; i++, fix += strlen(fix) + 1) {
        int ok = (size_t)snprintf(src, sizeof src, "%s/%s", dir, fix) < sizeof src &&
                 (size_t)snprintf(dst, sizeof dst, "%s/%s", outdir, fix) < sizeof dst;
        CHECKF(ok, "path too long for %s", fix);
        if (!ok)
            continue;
        copy_one(src, dst, fix);
        if (i == 0)
            copy_one(src, path, fix);
    }
    return tu_finish("t_ncgen_copy");
}
