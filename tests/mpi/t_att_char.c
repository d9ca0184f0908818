/* ncp-test: RANKS 1 2 4 */
/* t_att_char -- text and numbers in attributes, with PnetCDF 1.12.3's
 * precedence: a numeric put to NC_CHAR is NC_ECHAR whatever its length or
 * buffer (after the name and type checks, before the length and buffer
 * checks), and an empty attribute reads as NC_NOERR through every API,
 * text or numeric, since there is nothing to convert.  Refused puts leave
 * the header as it was (checked by the .cdl).
 */
#include "testutil.h"

static void put_errors(int nc)
{
    signed char sc[3] = {1, 2, 3};
    int iv[2] = {1, 2};
    EXPECT_ERR(ncmpi_put_att_schar(nc, NC_GLOBAL, "a", NC_CHAR, -999, NULL),
               NC_ECHAR);
    EXPECT_ERR(ncmpi_put_att_schar(nc, NC_GLOBAL, "a", NC_CHAR, 3, NULL),
               NC_ECHAR);
    EXPECT_ERR(ncmpi_put_att_schar(nc, NC_GLOBAL, "a", NC_CHAR, 3, sc),
               NC_ECHAR);
    EXPECT_ERR(ncmpi_put_att_int(nc, NC_GLOBAL, "a", NC_CHAR, 0, NULL),
               NC_ECHAR);
    EXPECT_ERR(ncmpi_put_att_int(nc, NC_GLOBAL, "a", NC_CHAR, 2, iv),
               NC_ECHAR);
    /* the type and the name are checked first */
    EXPECT_ERR(ncmpi_put_att_schar(nc, NC_GLOBAL, "a", (nc_type)77, -999,
                                   NULL),
               NC_EBADTYPE);
    EXPECT_ERR(ncmpi_put_att_int(nc, NC_GLOBAL, "", NC_CHAR, -1, NULL),
               NC_EBADNAME);
    /* numeric types: the length and the buffer */
    EXPECT_ERR(ncmpi_put_att_schar(nc, NC_GLOBAL, "a", NC_BYTE, -999, NULL),
               NC_EINVAL);
    EXPECT_ERR(ncmpi_put_att_schar(nc, NC_GLOBAL, "a", NC_BYTE, 3, NULL),
               NC_EINVAL);
    EXPECT_ERR(ncmpi_put_att_text(nc, NC_GLOBAL, "a", -1, NULL), NC_EINVAL);
    EXPECT_ERR(ncmpi_put_att(nc, NC_GLOBAL, "a", NC_CHAR, -1, NULL),
               NC_EINVAL);
}

static void get_empty(int nc, const char *name)
{
    int iv[2] = {5, 5};
    double dv[2] = {5, 5};
    signed char sc[2] = {5, 5};
    unsigned char uc[2] = {5, 5};
    char tx[2] = {'q', 'q'};
    EXPECT_ERR(ncmpi_get_att_int(nc, NC_GLOBAL, name, iv), NC_NOERR);
    EXPECT_ERR(ncmpi_get_att_int(nc, NC_GLOBAL, name, NULL), NC_NOERR);
    EXPECT_ERR(ncmpi_get_att_double(nc, NC_GLOBAL, name, dv), NC_NOERR);
    EXPECT_ERR(ncmpi_get_att_schar(nc, NC_GLOBAL, name, sc), NC_NOERR);
    EXPECT_ERR(ncmpi_get_att_uchar(nc, NC_GLOBAL, name, uc), NC_NOERR);
    EXPECT_ERR(ncmpi_get_att_text(nc, NC_GLOBAL, name, tx), NC_NOERR);
    EXPECT_ERR(ncmpi_get_att(nc, NC_GLOBAL, name, NULL), NC_NOERR);
    CHECK(iv[0] == 5 && dv[0] == 5 && sc[0] == 5 && uc[0] == 5 &&
          tx[0] == 'q');
}

static void get_mismatch(int nc)
{
    int iv[2];
    signed char sc[2];
    unsigned char uc[2];
    char tx[2];
    EXPECT_ERR(ncmpi_get_att_int(nc, NC_GLOBAL, "t", iv), NC_ECHAR);
    EXPECT_ERR(ncmpi_get_att_schar(nc, NC_GLOBAL, "t", sc), NC_ECHAR);
    EXPECT_ERR(ncmpi_get_att_uchar(nc, NC_GLOBAL, "t", uc), NC_ECHAR);
    EXPECT_ERR(ncmpi_get_att_text(nc, NC_GLOBAL, "i", tx), NC_ECHAR);
}

int main(int argc, char **argv)
{
    const char *path;
    int nc = -1, iv[2] = {7, 8};
    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    CHECK(path != NULL);
    if (!path) return tu_finish("t_att_char");

    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL,
                           &nc));
    CHECK_ERR(ncmpi_put_att_text(nc, NC_GLOBAL, "empty_text", 0, NULL));
    CHECK_ERR(ncmpi_put_att_int(nc, NC_GLOBAL, "empty_int", NC_INT, 0, NULL));
    CHECK_ERR(ncmpi_put_att_text(nc, NC_GLOBAL, "t", 2, "ab"));
    CHECK_ERR(ncmpi_put_att_int(nc, NC_GLOBAL, "i", NC_INT, 2, iv));
    put_errors(nc);
    get_empty(nc, "empty_text");
    get_empty(nc, "empty_int");
    get_mismatch(nc);
    CHECK_ERR(ncmpi_enddef(nc));
    put_errors(nc);
    get_empty(nc, "empty_text");
    CHECK_ERR(ncmpi_close(nc));

    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL,
                         &nc));
    get_empty(nc, "empty_text");
    get_empty(nc, "empty_int");
    get_mismatch(nc);
    CHECK_ERR(ncmpi_close(nc));
    return tu_finish("t_att_char");
}
