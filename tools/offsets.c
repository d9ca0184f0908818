/*
 * offsets.c -- `ncpario offsets`: where a file's bytes are.  Each
 * variable's begin, size and record stride as the header states them
 * (decoded by the library's codec), the header's size and the free room
 * after it, and for a subarray of one variable the file extents it
 * covers, merged where they touch.  Rank 0 does the work alone.
 */
#include <inttypes.h>
#include <string.h>

#include <pnetcdf.h>

#include "ncpario_tool.h"

static void offsets_usage(FILE *out)
{
    fprintf(out,
        "usage: ncpario offsets [-v VAR [--start S,... --count C,...]] FILE\n"
        "Print the header's size and free space, and each variable's "
        "begin, size,\nend and record stride (byte offsets in FILE).\n"
        "  -v VAR          only this variable; VAR[s:c,s:c] or "
        "--start/--count select\n"
        "                  a subarray, whose file extents are listed "
        "(offset, length)\n"
        "Exit: 0 ok, 2 usage error, 3 the file cannot be read or is "
        "not netCDF.\n");
}

static void print_var(const ncp_header *h, int i)
{
    const ncp_var *v = &h->vars[i];
    int64_t bytes = v->nelems_per_rec * nt_xsize(v->xtype);
    int d;
    printf("%s %s", nt_type_name(v->xtype), v->name);
    for (d = 0; d < v->ndims; d++)
        printf("%s%s", d ? ", " : "(", h->dims[v->dimids[d]].name);
    printf("%s: %s, begin %" PRId64 ", size %" PRId64, v->ndims ? ")" : "",
           v->is_record ? "record" : "fixed", v->begin, bytes);
    if (v->is_record)
        printf(" per record, stride %" PRId64 ", end %" PRId64 " (record 0)\n",
               h->recsize, v->begin + bytes);
    else
        printf(", end %" PRId64 "\n", v->begin + bytes);
}

/* List the extents of v[start:count] in file order, merging runs that
 * touch; every run is the last dimension's count of elements. */
static void print_extents(const ncp_header *h, const ncp_var *v,
                          const int64_t *st, const int64_t *ct)
{
    int64_t idx[NT_MAX_DIMS] = {0}, xs = nt_xsize(v->xtype);
    int64_t run_off = -1, run_len = 0, n = 0, total = 0;
    int nd = v->ndims, d, done = 0;
    /* the dimension whose elements lie side by side; none for a 1-D
       record variable, whose elements are a record apart */
    int inner = v->is_record && nd == 1 ? nd : nd - 1;
    for (d = 0; d < nd; d++)
        if (ct[d] == 0) done = 1;
    while (!done) {
        int64_t lin = 0, off;
        int64_t len = (inner >= 0 && inner < nd ? ct[inner] : 1) * xs;
        for (d = v->is_record ? 1 : 0; d < nd; d++)
            lin = lin * v->shape[d] + st[d] + (d < inner ? idx[d] : 0);
        off = v->begin + lin * xs;
        if (v->is_record) off += (st[0] + idx[0]) * h->recsize;
        if (run_off >= 0 && run_off + run_len == off) {
            run_len += len;
        } else {
            if (run_off >= 0) {
                printf("  %" PRId64 " %" PRId64 "\n", run_off, run_len);
                n++;
            }
            run_off = off;
            run_len = len;
        }
        total += len;
        /* the next index over the dimensions before the inner one */
        for (d = inner - 1; d >= 0; d--) {
            if (++idx[d] < ct[d]) break;
            idx[d] = 0;
        }
        if (d < 0) done = 1;
    }
    if (run_off >= 0) {
        printf("  %" PRId64 " %" PRId64 "\n", run_off, run_len);
        n++;
    }
    printf("%" PRId64 " extents, %" PRId64 " bytes\n", n, total);
}

/* Check and complete a subarray against v's shape (numrecs for records). */
static int fit_subarray(const ncp_header *h, const ncp_var *v, int nsub,
                        int64_t *st, int64_t *ct)
{
    int d, rc = nsub == v->ndims ? 0 : -1;
    for (d = 0; rc == 0 && d < v->ndims; d++) {
        int64_t len = d == 0 && v->is_record ? h->numrecs : v->shape[d];
        if (st[d] < 0) st[d] = 0;
        if (ct[d] < 0) ct[d] = len - st[d];
        if (st[d] > len || ct[d] > len - st[d]) rc = -1;
    }
    return rc;
}

static int offsets_run(const char *path, const char *spec, const char *gst,
                       const char *gct)
{
    ncp_header h;
    ncp_hdr_defect d;
    int64_t fsize, st[NT_MAX_DIMS], ct[NT_MAX_DIMS];
    char name[NC_MAX_NAME + 1];
    int err, i, nsub = 0, n2 = 0, vi = -1, rc = NT_OK;

    err = nt_read_header(path, &h, &fsize, &d);
    if (err != NC_NOERR) {
        nt_err("offsets", "%s: %s (ncpario validate tells more)", path,
               ncmpi_strerror(err));
        rc = NT_FAIL;
        goto done;
    }
    if (spec != NULL) {
        for (i = 0; i < NT_MAX_DIMS; i++) st[i] = ct[i] = -1;
        if (nt_parse_subarray(spec, name, sizeof name, st, ct,
                              NT_MAX_DIMS, &nsub) != 0 ||
            (gst && nt_parse_i64s(gst, st, NT_MAX_DIMS, &nsub) != 0) ||
            (gct && nt_parse_i64s(gct, ct, NT_MAX_DIMS, &n2) != 0)) {
            nt_err("offsets", "bad subarray");
            rc = NT_USAGE;
        } else if ((vi = ncp_hdr_find_var(&h, name)) < 0) {
            nt_err("offsets", "no variable '%s'", name);
            rc = NT_USAGE;
        } else if (nsub > 0 &&
                   fit_subarray(&h, &h.vars[vi], nsub, st, ct) != 0) {
            nt_err("offsets", "subarray does not fit '%s'", name);
            rc = NT_USAGE;
        }
    }
    if (rc == NT_OK) {
        int64_t room = h.nvars > 0 ? h.begin_var - h.xsz : 0;
        printf("file %s: CDF-%d, %" PRId64 " bytes\n", path, h.format, fsize);
        printf("header: size %" PRId64 ", extent %" PRId64 ", free %" PRId64
               "\n", h.xsz, h.nvars > 0 ? h.begin_var : h.xsz, room);
        printf("records: %" PRId64 ", begin %" PRId64 ", stride %" PRId64
               "\n", h.numrecs, h.begin_rec, h.recsize);
        for (i = 0; i < h.nvars; i++)
            if (vi < 0 || i == vi) print_var(&h, i);
        if (vi >= 0 && nsub > 0) {
            printf("extents of %s (offset length):\n", name);
            print_extents(&h, &h.vars[vi], st, ct);
        }
    }
    ncp_header_free(&h);
done:
    return rc;
}

int nt_offsets(int argc, char **argv)
{
    const char *path = NULL, *spec = NULL, *gst = NULL, *gct = NULL, *val;
    int i, rc = NT_OK, help = 0;
    for (i = 1; i < argc && rc == NT_OK; i++) {
        val = "";
        if (nt_is_help(argv[i])) {
            help = 1;
        } else if (nt_opt(argc, argv, &i, "--var", "-v", &val)) {
            spec = val;
        } else if (nt_opt(argc, argv, &i, "--start", NULL, &val)) {
            gst = val;
        } else if (nt_opt(argc, argv, &i, "--count", NULL, &val)) {
            gct = val;
        } else if (argv[i][0] != '-' && path == NULL) {
            path = argv[i];
            continue;
        } else {
            rc = NT_USAGE;
        }
        if (val == NULL) rc = NT_USAGE;
    }
    if (help) {
        if (nt_rank() == 0) offsets_usage(stdout);
        rc = NT_OK;
    } else if (rc != NT_OK || path == NULL || ((gst || gct) && !spec) ||
               (spec && strchr(spec, '[') && (gst || gct))) {
        nt_err("offsets", "bad arguments (see 'ncpario offsets --help')");
        rc = NT_USAGE;
    } else {
        if (nt_rank() == 0) rc = offsets_run(path, spec, gst, gct);
        fflush(stdout);
        MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    return rc;
}
