/*
 * layout_probe.c -- print where a netCDF library places the header and the
 * variables for a fixed set of schemas, alignment hints, ncmpi__enddef
 * arguments and redef sequences.
 *
 * It uses only the public PnetCDF API, so the same source builds against
 * PnetCDF (mpicc layout_probe.c -lpnetcdf) and against ncpario (-lncpario);
 * running both and diffing the output checks that the two lay files out
 * identically.  The expectations in tests/unit/test_layout.c were taken
 * from this program's output under Debian's PnetCDF 1.12.3.
 *
 * Usage: mpirun -np 1 layout_probe [directory]   (default: /tmp)
 *
 * Each case is a short script of steps, one per string:
 *   create CMODE [key=value ...]   create with these MPI_Info hints
 *   reopen [key=value ...]         close and open read-write with hints
 *   dim NAME LEN                   LEN 0 means NC_UNLIMITED
 *   var NAME TYPE [DIM ...]        TYPE is byte/char/short/int/double
 *   gatt NAME N                    a global text attribute of N bytes
 *   enddef | redef | close
 *   _enddef HMIN VALIGN VMIN RALIGN
 *   report                         print the layout as the library sees it
 * A report line reads "NAME: hsize=H ext=E recsize=R v1=O1 v2=O2 ...".
 * A failed call prints "NAME: STEP -> error CODE" and ends the case.
 */
#define _POSIX_C_SOURCE 200809L /* strtok_r, setenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>
#include <pnetcdf.h>

#define MAX_STEPS 16
#define MAX_TOKENS 16

typedef struct probe_case {
    const char *name;
    const char *steps[MAX_STEPS];
} probe_case;

/* Schema A: three fixed variables of mixed sizes, two record variables. */
#define SCHEMA_A                                                          \
    "dim t 0", "dim x 3", "var a byte x", "var b double x",               \
        "var c short x", "var r1 byte t x", "var r2 int t"

static const probe_case cases[] = {
    /* 1. defaults, each format */
    {"A_cdf1", {"create 0", SCHEMA_A, "enddef", "report"}},
    {"A_cdf2", {"create 0x200", SCHEMA_A, "enddef", "report"}},
    {"A_cdf5", {"create 0x20", SCHEMA_A, "enddef", "report"}},
    {"empty", {"create 0", "enddef", "report"}},
    {"dims_only", {"create 0", "dim x 3", "enddef", "report"}},
    {"rec_only", {"create 0", "dim t 0", "var r int t", "enddef", "report"}},
    {"hdr_512", {"create 0", "gatt g 380", "dim x 3", "var a byte x",
                 "var d double x", "enddef", "report"}},
    {"hdr_516", {"create 0", "gatt g 381", "dim x 3", "var a byte x",
                 "var d double x", "enddef", "report"}},
    {"one_rec_short", {"create 0", "dim t 0", "dim x 3",
                       "var r short t x", "enddef", "report"}},
    {"one_rec_byte", {"create 0x20", "dim t 0", "dim x 3",
                      "var r byte t x", "enddef", "report"}},
    {"cdf5_no_8align", {"create 0x20", "dim x 3", "var a byte x",
                        "var d double x", "var e short x", "enddef",
                        "report"}},
    /* 2. hints */
    {"H1024", {"create 0 nc_header_align_size=1024", SCHEMA_A, "enddef",
               "report"}},
    {"H100", {"create 0 nc_header_align_size=100", SCHEMA_A, "enddef",
              "report"}},
    {"V1024", {"create 0 nc_var_align_size=1024", SCHEMA_A, "enddef",
               "report"}},
    {"V100", {"create 0 nc_var_align_size=100", SCHEMA_A, "enddef",
              "report"}},
    {"V6", {"create 0 nc_var_align_size=6", SCHEMA_A, "enddef", "report"}},
    {"R1024", {"create 0 nc_record_align_size=1024", SCHEMA_A, "enddef",
               "report"}},
    {"V100_R64", {"create 0 nc_var_align_size=100 nc_record_align_size=64",
                  SCHEMA_A, "enddef", "report"}},
    {"V64_R100", {"create 0 nc_var_align_size=64 nc_record_align_size=100",
                  SCHEMA_A, "enddef", "report"}},
    {"H1000_V64", {"create 0 nc_header_align_size=1000 nc_var_align_size=64",
                   SCHEMA_A, "enddef", "report"}},
    {"H0_bad", {"create 0 nc_header_align_size=0", SCHEMA_A, "enddef",
                "report"}},
    /* 3. ncmpi__enddef arguments, alone and with hints */
    {"E_4_4", {"create 0", SCHEMA_A, "_enddef 0 4 0 4", "report"}},
    {"E_hmin101", {"create 0", SCHEMA_A, "_enddef 101 4 101 4", "report"}},
    {"E_hmin1000", {"create 0", SCHEMA_A, "_enddef 1000 0 0 0", "report"}},
    {"E_valign100", {"create 0", SCHEMA_A, "_enddef 0 100 0 4", "report"}},
    {"E_ralign100", {"create 0", SCHEMA_A, "_enddef 0 4 0 100", "report"}},
    {"E_vmin1000", {"create 0", SCHEMA_A, "_enddef 0 4 1000 4", "report"}},
    {"E_ralign_only", {"create 0", SCHEMA_A, "_enddef 0 0 0 100", "report"}},
    {"E_6_6", {"create 0", SCHEMA_A, "_enddef 0 6 0 6", "report"}},
    {"E_H1024_hint", {"create 0 nc_header_align_size=1024", SCHEMA_A,
                      "_enddef 0 100 0 0", "report"}},
    {"E_V64_vmin50", {"create 0 nc_var_align_size=64", SCHEMA_A,
                      "_enddef 0 4 50 0", "report"}},
    {"E_V64_R100_vmin50",
     {"create 0 nc_var_align_size=64 nc_record_align_size=100", SCHEMA_A,
      "_enddef 0 4 50 0", "report"}},
    {"E_rec_only_V64",
     {"create 0 nc_var_align_size=64", "dim t 0", "dim x 3",
      "var r1 byte t x", "var r2 int t", "_enddef 0 4 10 4", "report"}},
    {"E_none_vmin100", {"create 0", "dim x 3", "_enddef 100 1024 100 4",
                        "report"}},
    /* 4. redef */
    {"D_att_fits", {"create 0", SCHEMA_A, "enddef", "redef", "gatt g 5",
                    "enddef", "report"}},
    {"D_att_grows", {"create 0", SCHEMA_A, "enddef", "redef", "gatt g 360",
                     "enddef", "report"}},
    {"D_add_fixed", {"create 0", SCHEMA_A, "enddef", "redef",
                     "var d int x", "enddef", "report"}},
    {"D_add_rec", {"create 0", SCHEMA_A, "enddef", "redef",
                   "var r3 short t", "enddef", "report"}},
    {"D_hmin1000", {"create 0", SCHEMA_A, "enddef", "redef",
                    "_enddef 1000 0 0 0", "report"}},
    {"D_valign_ignored", {"create 0", SCHEMA_A, "enddef", "redef",
                          "gatt g 400", "_enddef 0 300 0 1024", "report"}},
    {"D_vmin100", {"create 0", SCHEMA_A, "enddef", "redef",
                   "_enddef 0 0 100 0", "report"}},
    {"D_keep_gap", {"create 0", SCHEMA_A, "_enddef 1000 0 500 0", "redef",
                    "var d int x", "enddef", "report"}},
    {"D_grow_past_gap", {"create 0", SCHEMA_A, "_enddef 1000 0 500 0",
                         "redef", "gatt g 1400", "enddef", "report"}},
    {"D_keep_rec_gap", {"create 0", SCHEMA_A, "_enddef 0 0 5000 0", "redef",
                        "gatt g 400", "enddef", "report"}},
    {"D_rec_only_add_fixed",
     {"create 0", "dim t 0", "dim x 3", "var r1 int t x",
      "_enddef 0 0 5000 0", "redef", "var f int x", "enddef", "report"}},
    {"O_reopen_H300", {"create 0", SCHEMA_A, "_enddef 0 300 0 300", "reopen",
                       "redef", "enddef", "report"}},
    {"O_reopen_V2048", {"create 0 nc_var_align_size=2048", SCHEMA_A,
                        "enddef", "reopen", "redef", "gatt g 1850", "enddef",
                        "report"}},
    {"O_reopen_V64_hint", {"create 0 nc_var_align_size=64", SCHEMA_A,
                           "enddef", "reopen", "redef", "var d int x",
                           "enddef", "report"}},
    {"O_reopen_H4_V64", {"create 0", SCHEMA_A, "_enddef 0 100 0 0",
                         "reopen nc_var_align_size=64", "redef",
                         "_enddef 0 4 0 0", "report"}},
    {"O_reopen_R64", {"create 0", SCHEMA_A, "_enddef 0 0 5000 0",
                      "reopen nc_record_align_size=64", "redef", "enddef",
                      "report"}},
    {"O_reopen_novars", {"create 0", "dim x 3", "gatt g 10", "enddef",
                         "reopen", "report"}},
    {"O_reopen_novars_grow", {"create 0", "dim x 3", "enddef", "reopen",
                              "redef", "var a int x", "enddef", "report"}},
    /* 4b. PNETCDF_HINTS: spaces around entries, bad values, precedence */
    {"P_env_V64", {"create 0", SCHEMA_A, "enddef", "report"}},
    {"P_env_spaces", {"create 0", SCHEMA_A, "enddef", "report"}},
    {"P_env_eq_spaces", {"create 0", SCHEMA_A, "enddef", "report"}},
    {"P_env_bad", {"create 0", SCHEMA_A, "enddef", "report"}},
    {"P_env_over_info", {"create 0 nc_header_align_size=1024", SCHEMA_A,
                         "_enddef 0 100 0 0", "report"}},
    {"P_env_reopen", {"create 0", SCHEMA_A, "enddef", "reopen", "redef",
                      "gatt g 400", "enddef", "report"}},
    /* 5. size limits (no data is written, so the files stay small) */
    {"L_cdf2_last_4G", {"create 0x200", "dim x 3", "dim y 1073741824",
                        "var a byte x", "var b int y", "enddef", "report"}},
    {"L_cdf2_notlast_4G", {"create 0x200", "dim x 3", "dim y 1073741824",
                           "var b int y", "var a byte x", "enddef",
                           "report"}},
    {"L_cdf2_notlast_max", {"create 0x200", "dim x 3", "dim y 1073741823",
                            "var b int y", "var a byte x", "enddef",
                            "report"}},
    {"L_cdf1_begin_max", {"create 0", "dim x 3", "dim y 2147483132",
                          "var v byte y", "var a byte x", "enddef",
                          "report"}},
    {"L_cdf1_begin_over", {"create 0", "dim x 3", "dim y 2147483133",
                           "var v byte y", "var a byte x", "enddef",
                           "report"}},
    /* CDF-1 bounds the offset a variable is placed from, not its aligned
     * begin: 2^31 - 4 aligned to 512 begins a fixed variable at 2^31, and
     * a record section that alignment moves to 2^31 is too far */
    {"L_cdf1_begin_2G_aligned",
     {"create 0 nc_header_align_size=512 nc_var_align_size=512", "dim x 3",
      "dim y 2147483132", "var v byte y", "var a byte x", "enddef",
      "report"}},
    {"L_cdf1_rec_2G_aligned",
     {"create 0 nc_header_align_size=512 nc_var_align_size=512", "dim t 0",
      "dim x 3", "dim y 2147483132", "var v byte y", "var r byte t x",
      "enddef", "report"}},
    {"L_cdf1_last_3G", {"create 0", "dim x 3", "dim y 750000000",
                        "var a byte x", "var b int y", "enddef", "report"}},
    {"L_cdf2_fixed_4G_then_rec",
     {"create 0x200", "dim t 0", "dim x 3", "dim y 1073741824",
      "var b int y", "var a byte t x", "enddef", "report"}},
    {"L_cdf5_big", {"create 0x20", "dim t 0", "dim x 3", "dim y 100000",
                    "dim z 30000", "var b double y z", "var a byte t x",
                    "enddef", "report"}},
};

typedef struct probe_state {
    int ncid;
    int open;
    int rank;
    const char *path;
} probe_state;

static int type_of(const char *s)
{
    static const struct {
        const char *name;
        nc_type type;
    } types[] = {{"byte", NC_BYTE},   {"char", NC_CHAR},
                 {"short", NC_SHORT}, {"int", NC_INT},
                 {"float", NC_FLOAT}, {"double", NC_DOUBLE}};
    size_t i;
    for (i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strcmp(s, types[i].name) == 0) return types[i].type;
    return NC_NAT;
}

/* An MPI_Info from "key=value" tokens, or MPI_INFO_NULL when none. */
static MPI_Info make_info(char **tok, int ntok)
{
    MPI_Info info = MPI_INFO_NULL;
    int i;
    for (i = 0; i < ntok; i++) {
        char *eq = strchr(tok[i], '=');
        if (!eq) continue;
        if (info == MPI_INFO_NULL) MPI_Info_create(&info);
        *eq = '\0';
        MPI_Info_set(info, tok[i], eq + 1);
    }
    return info;
}

static void report(const probe_state *st, const char *name)
{
    MPI_Offset hsize = 0, ext = 0, recsize = 0, off;
    int nvars = 0, i;
    char vname[NC_MAX_NAME + 1];
    ncmpi_inq_header_size(st->ncid, &hsize);
    ncmpi_inq_header_extent(st->ncid, &ext);
    ncmpi_inq_recsize(st->ncid, &recsize);
    ncmpi_inq_nvars(st->ncid, &nvars);
    if (st->rank) return;
    printf("%s: hsize=%lld ext=%lld recsize=%lld", name, (long long)hsize,
           (long long)ext, (long long)recsize);
    for (i = 0; i < nvars; i++) {
        ncmpi_inq_varname(st->ncid, i, vname);
        off = -1;
        ncmpi_inq_varoffset(st->ncid, i, &off);
        printf(" %s=%lld", vname, (long long)off);
    }
    printf("\n");
}

/* Run one step; returns an NC_* status. */
static int step(probe_state *st, const char *name, char **tok, int ntok)
{
    int err = NC_NOERR, id, dimids[MAX_TOKENS], i;
    const char *cmd = tok[0];
    if (strcmp(cmd, "create") == 0 && ntok >= 2) {
        MPI_Info info = make_info(tok + 2, ntok - 2);
        err = ncmpi_create(MPI_COMM_WORLD, st->path,
                           (int)strtol(tok[1], NULL, 0), info, &st->ncid);
        if (info != MPI_INFO_NULL) MPI_Info_free(&info);
        st->open = err == NC_NOERR;
        if (!err) err = ncmpi_set_fill(st->ncid, NC_NOFILL, NULL);
    } else if (strcmp(cmd, "reopen") == 0) {
        MPI_Info info = make_info(tok + 1, ntok - 1);
        err = ncmpi_close(st->ncid);
        st->open = 0;
        if (!err)
            err = ncmpi_open(MPI_COMM_WORLD, st->path, NC_WRITE, info,
                             &st->ncid);
        if (info != MPI_INFO_NULL) MPI_Info_free(&info);
        st->open = err == NC_NOERR;
    } else if (strcmp(cmd, "dim") == 0 && ntok == 3) {
        err = ncmpi_def_dim(st->ncid, tok[1], strtoll(tok[2], NULL, 10),
                            &id);
    } else if (strcmp(cmd, "var") == 0 && ntok >= 3) {
        for (i = 3; i < ntok && !err; i++)
            err = ncmpi_inq_dimid(st->ncid, tok[i], &dimids[i - 3]);
        if (!err)
            err = ncmpi_def_var(st->ncid, tok[1], type_of(tok[2]), ntok - 3,
                                dimids, &id);
    } else if (strcmp(cmd, "gatt") == 0 && ntok == 3) {
        long n = strtol(tok[2], NULL, 10);
        char *text = malloc((size_t)n + 1);
        if (!text) return NC_ENOMEM;
        memset(text, 'g', (size_t)n);
        err = ncmpi_put_att_text(st->ncid, NC_GLOBAL, tok[1], n, text);
        free(text);
    } else if (strcmp(cmd, "enddef") == 0) {
        err = ncmpi_enddef(st->ncid);
    } else if (strcmp(cmd, "_enddef") == 0 && ntok == 5) {
        err = ncmpi__enddef(st->ncid, strtoll(tok[1], NULL, 10),
                            strtoll(tok[2], NULL, 10),
                            strtoll(tok[3], NULL, 10),
                            strtoll(tok[4], NULL, 10));
    } else if (strcmp(cmd, "redef") == 0) {
        err = ncmpi_redef(st->ncid);
    } else if (strcmp(cmd, "close") == 0) {
        err = ncmpi_close(st->ncid);
        st->open = 0;
    } else if (strcmp(cmd, "report") == 0) {
        report(st, name);
    } else {
        err = NC_EINVAL;
    }
    return err;
}

/* PNETCDF_HINTS set for a case (by name); every other case runs without. */
static const struct {
    const char *name, *env;
} case_env[] = {
    {"P_env_V64", "nc_var_align_size=64"},
    {"P_env_spaces", " nc_var_align_size=64 ; nc_record_align_size=1024;"},
    {"P_env_eq_spaces", "nc_var_align_size = 64;nc_record_align_size=256"},
    {"P_env_bad", "nc_var_align_size=abc;nc_header_align_size=-5;junk;=7"},
    {"P_env_over_info", "nc_header_align_size=2048"},
    {"P_env_reopen", "nc_var_align_size=128"},
};

static const char *env_of(const char *name)
{
    size_t i;
    for (i = 0; i < sizeof case_env / sizeof case_env[0]; i++)
        if (strcmp(case_env[i].name, name) == 0) return case_env[i].env;
    return NULL;
}

static void run_case(const probe_case *c, const char *dir, int rank)
{
    char path[4096], buf[256];
    char *tok[MAX_TOKENS], *save = NULL, *t;
    probe_state st;
    int s, ntok, err = NC_NOERR;
    snprintf(path, sizeof path, "%s/layout_probe_%s.nc", dir, c->name);
    st.ncid = -1;
    st.open = 0;
    st.rank = rank;
    st.path = path;
    if (env_of(c->name))
        setenv("PNETCDF_HINTS", env_of(c->name), 1);
    else
        unsetenv("PNETCDF_HINTS");
    for (s = 0; s < MAX_STEPS && c->steps[s] && !err; s++) {
        snprintf(buf, sizeof buf, "%s", c->steps[s]);
        ntok = 0;
        for (t = strtok_r(buf, " ", &save); t && ntok < MAX_TOKENS;
             t = strtok_r(NULL, " ", &save))
            tok[ntok++] = t;
        if (ntok == 0) continue;
        err = step(&st, c->name, tok, ntok);
        if (err && rank == 0)
            printf("%s: %s -> error %d\n", c->name, c->steps[s], err);
    }
    if (st.open) ncmpi_close(st.ncid);
    if (rank == 0) remove(path);
}

int main(int argc, char **argv)
{
    int rank;
    size_t i;
    const char *dir = argc > 1 ? argv[1] : "/tmp";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run_case(&cases[i], dir, rank);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
