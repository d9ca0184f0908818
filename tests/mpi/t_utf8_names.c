/* ncp-test: RANKS 1 2 4 NO_CDL */
/* t_utf8_names -- names are well-formed UTF-8 and kept in Unicode NFC, as
 * PnetCDF 1.12.3 keeps them.
 *
 * Malformed UTF-8 (overlong 2-, 3- and 4-byte forms, UTF-16 surrogates,
 * code points above U+10FFFF, stray or missing continuation bytes) is
 * refused with NC_EBADNAME by every call that stores a name, and by every
 * lookup.  A decomposed name is stored composed: the harness's byte
 * comparison with PnetCDF's file proves the stored form.  Either spelling
 * finds the entry, before and after reopening, and the composed spelling
 * of an existing name is that name (NC_ENAMEINUSE).  Composition can turn
 * a legal first character into ';' (U+037E): the file must still open.
 */
#include "have_ncpario.h"
#include "testutil.h"

static const char *const bad[] = {
    "a\xC0\x80",         /* overlong 2-byte NUL */
    "a\xC1\xBF",         /* overlong 2-byte */
    "a\xE0\x80\x80",     /* overlong 3-byte */
    "a\xE0\x9F\xBF",     /* overlong 3-byte, highest */
    "a\xF0\x80\x80\x80", /* overlong 4-byte */
    "a\xF0\x8F\xBF\xBF", /* overlong 4-byte, highest */
    "a\xED\xA0\x80",     /* high surrogate U+D800 */
    "a\xED\xBF\xBF",     /* low surrogate U+DFFF */
    "a\xF4\x90\x80\x80", /* U+110000 */
    "a\xF5\x80\x80\x80", /* lead byte F5 */
    "a\xF8\x88\x80\x80\x80", /* 5-byte form */
    "a\x80",             /* stray continuation byte */
    "a\xC3",             /* truncated 2-byte */
    "a\xE2\x82",         /* truncated 3-byte */
    "\xED\xA0\x80\xED\xB0\x80", /* a surrogate pair, CESU-8 style */
};
#define NBAD ((int)(sizeof bad / sizeof bad[0]))

#define E_NFD "e\xCC\x81"           /* e + COMBINING ACUTE */
#define E_NFC "\xC3\xA9"            /* U+00E9 */
#define ANGSTROM "\xE2\x84\xAB"     /* U+212B, NFC is U+00C5 */
#define A_RING "\xC3\x85"           /* U+00C5 */
#define U_NFD "u\xCC\x88"           /* u + COMBINING DIAERESIS */
#define U_NFC "\xC3\xBC"            /* U+00FC */
#define GREEK_QM "\xCD\xBE"         /* U+037E, NFC is ';' */

/* def_err: what def_dim and def_var return (in data mode the mode is
 * checked first); every other call refuses the name itself. */
static void refuse_bad(int nc, int dx, int vx, int def_err)
{
    int i, id;
    for (i = 0; i < NBAD; i++) {
        const char *b = bad[i];
        CHECKF(ncmpi_def_dim(nc, b, 1, &id) == def_err, "def_dim bad[%d]", i);
        CHECKF(ncmpi_def_var(nc, b, NC_INT, 1, &dx, &id) == def_err,
               "def_var bad[%d]", i);
        CHECKF(ncmpi_put_att_text(nc, NC_GLOBAL, b, 1, "x") == NC_EBADNAME,
               "put_att bad[%d]", i);
        CHECKF(ncmpi_put_att_text(nc, vx, b, 1, "x") == NC_EBADNAME,
               "put_att var bad[%d]", i);
        CHECKF(ncmpi_rename_dim(nc, dx, b) == NC_EBADNAME, "rename_dim bad[%d]", i);
        CHECKF(ncmpi_rename_var(nc, vx, b) == NC_EBADNAME, "rename_var bad[%d]", i);
        CHECKF(ncmpi_rename_att(nc, vx, "units", b) == NC_EBADNAME,
               "rename_att bad[%d]", i);
        CHECKF(ncmpi_inq_dimid(nc, b, &id) == NC_EBADNAME, "inq_dimid bad[%d]", i);
        CHECKF(ncmpi_inq_varid(nc, b, &id) == NC_EBADNAME, "inq_varid bad[%d]", i);
        CHECKF(ncmpi_inq_attid(nc, vx, b, &id) == NC_EBADNAME, "inq_attid bad[%d]", i);
    }
}

static void expect_name(int got_err, const char *got, const char *want,
                        const char *what)
{
    CHECKF(got_err == NC_NOERR && strcmp(got, want) == 0, "%s: stored name", what);
}

/* Both spellings find the same entries. */
static void lookups(int nc, int dn, int vn, int va)
{
    int id = -1;
    char name[NC_MAX_NAME + 1];
    CHECK_ERR(ncmpi_inq_dimid(nc, E_NFD, &id));
    CHECK(id == dn);
    CHECK_ERR(ncmpi_inq_dimid(nc, E_NFC, &id));
    CHECK(id == dn);
    CHECK_ERR(ncmpi_inq_varid(nc, ANGSTROM, &id));
    CHECK(id == vn);
    CHECK_ERR(ncmpi_inq_varid(nc, A_RING, &id));
    CHECK(id == vn);
    CHECK_ERR(ncmpi_inq_varid(nc, U_NFD, &id));
    CHECK(id == va);
    CHECK_ERR(ncmpi_inq_attid(nc, vn, E_NFD "_att", &id));
    CHECK_ERR(ncmpi_inq_attid(nc, NC_GLOBAL, U_NFD, &id));
    CHECK_ERR(ncmpi_get_att_text(nc, NC_GLOBAL, U_NFC, name));
    CHECK(name[0] == 'g');
    expect_name(ncmpi_inq_dimname(nc, dn, name), name, E_NFC, "dim");
    expect_name(ncmpi_inq_varname(nc, vn, name), name, A_RING, "var");
    expect_name(ncmpi_inq_varname(nc, va, name), name, U_NFC, "renamed var");
    expect_name(ncmpi_inq_attname(nc, NC_GLOBAL, 0, name), name, U_NFC, "gatt");
    CHECK_ERR(ncmpi_inq_varid(nc, ";q", &id));
}

int main(int argc, char **argv)
{
    const char *path;
    int nc, dx, dn, vx, vn, va, id, i, buf[4] = {1, 2, 3, 4}, rd[4];
    char name[NC_MAX_NAME + 1];

    tu_init(&argc, &argv);
    if (!(path = tu_main_path(argc, argv))) return tu_finish("t_utf8_names");
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "x", 4, &dx));
    CHECK_ERR(ncmpi_def_var(nc, "vx", NC_INT, 1, &dx, &vx));
    CHECK_ERR(ncmpi_put_att_text(nc, vx, "units", 1, "m"));
    refuse_bad(nc, dx, vx, NC_EBADNAME);

    /* decomposed in, composed stored; the composed spelling is in use */
    CHECK_ERR(ncmpi_def_dim(nc, E_NFD, 2, &dn));
    EXPECT_ERR(ncmpi_def_dim(nc, E_NFC, 2, &id), NC_ENAMEINUSE);
    CHECK_ERR(ncmpi_def_var(nc, ANGSTROM, NC_INT, 1, &dx, &vn));
    EXPECT_ERR(ncmpi_def_var(nc, A_RING, NC_INT, 1, &dx, &id), NC_ENAMEINUSE);
    CHECK_ERR(ncmpi_put_att_text(nc, vn, E_NFD "_att", 1, "a"));
    CHECK_ERR(ncmpi_put_att_text(nc, vn, E_NFC "_att", 1, "b")); /* overwrite */
    CHECK_ERR(ncmpi_inq_varnatts(nc, vn, &i));
    CHECK(i == 1);
    CHECK_ERR(ncmpi_put_att_text(nc, NC_GLOBAL, "tmp", 1, "g"));
    CHECK_ERR(ncmpi_rename_att(nc, NC_GLOBAL, "tmp", U_NFD));
    EXPECT_ERR(ncmpi_put_att_text(nc, NC_GLOBAL, "tmp2", 1, "g"), NC_NOERR);
    EXPECT_ERR(ncmpi_rename_att(nc, NC_GLOBAL, "tmp2", U_NFC), NC_ENAMEINUSE);
    CHECK_ERR(ncmpi_del_att(nc, NC_GLOBAL, "tmp2"));
    CHECK_ERR(ncmpi_def_var(nc, "va", NC_INT, 1, &dx, &va));
    CHECK_ERR(ncmpi_rename_var(nc, va, U_NFD));
    EXPECT_ERR(ncmpi_rename_var(nc, vx, U_NFC), NC_ENAMEINUSE);
    /* the rule applies to the name as given; ';' is what is stored */
    CHECK_ERR(ncmpi_def_var(nc, GREEK_QM "q", NC_INT, 0, NULL, &id));
    expect_name(ncmpi_inq_varname(nc, id, name), name, ";q", "U+037E");
    EXPECT_ERR(ncmpi_def_var(nc, ";r", NC_INT, 0, NULL, &id), NC_EBADNAME);
    /* a leading combining mark is a non-ASCII first character */
    CHECK_ERR(ncmpi_def_dim(nc, "\xCC\x81x", 1, &id));
    lookups(nc, dn, vn, va);
#ifdef HAVE_NCPARIO
    {
        /* U+0958 is a composition exclusion: NFC makes 3 bytes 6, so this
           255-byte name would be stored as 258 bytes, more than a file may
           hold (PnetCDF stores it and then cannot open the file). */
        char longname[256];
        memset(longname, 'a', 252);
        memcpy(longname + 252, "\xE0\xA5\x98", 4);
        EXPECT_ERR(ncmpi_def_dim(nc, longname, 1, &id), NC_EMAXNAME);
    }
#endif
    CHECK_ERR(ncmpi_enddef(nc));

    /* data mode: a rename may not grow the stored name; E_NFD is 3 bytes
       as given but 2 stored, as long as "vx" */
    refuse_bad(nc, dx, vx, NC_ENOTINDEFINE);
    for (i = 0; i < 4; i++) /* every variable, so the file is whole */
        CHECK_ERR(ncmpi_put_var_int_all(nc, i, buf));
    CHECK_ERR(ncmpi_rename_var(nc, vx, "o\xCC\x88"));
    expect_name(ncmpi_inq_varname(nc, vx, name), name, "\xC3\xB6", "data-mode rename");
    CHECK_ERR(ncmpi_close(nc));

    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL, &nc));
    lookups(nc, dn, vn, va);
    CHECK_ERR(ncmpi_inq_varid(nc, "o\xCC\x88", &id));
    CHECK(id == vx);
    CHECK_ERR(ncmpi_get_var_int_all(nc, vn, rd));
    CHECK(memcmp(rd, buf, sizeof buf) == 0);
    CHECK_ERR(ncmpi_close(nc));
    return tu_finish("t_utf8_names");
}
