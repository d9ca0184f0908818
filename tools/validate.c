/*
 * validate.c -- `ncpario validate`: the library's verdict on a file.  The
 * header is decoded by the same hardened codec the library opens files
 * with (src/format/header_codec.c), which names the field holding the
 * first defect and where it starts; then the file's size is held against
 * what the header promises (every fixed variable, numrecs records).
 * Reading the header needs no MPI, so rank 0 does the work alone.
 */
#include <inttypes.h>
#include <string.h>

#include <pnetcdf.h>

#include "ncpario_tool.h"

static void validate_usage(FILE *out)
{
    fprintf(out,
        "usage: ncpario validate [-q] FILE...\n"
        "Check each FILE's header with ncpario's decoder and its size "
        "against the header.\n"
        "On a defect, print the reason, the field and its byte offset.\n"
        "  -q   print nothing, only set the exit status\n"
        "Exit: 0 all valid, 1 a defect found, 2 usage error, 3 a file "
        "cannot be read.\n");
}

/* The smallest size a file with header h may have: the end of its last
 * fixed variable and of its last record. */
static int64_t expected_size(const ncp_header *h)
{
    int64_t end = h->xsz, last_rec = nt_record_end(h);
    int i;
    for (i = 0; i < h->nvars; i++) {
        const ncp_var *v = &h->vars[i];
        int64_t bytes = v->nelems_per_rec * nt_xsize(v->xtype);
        if (!v->is_record && v->begin + bytes > end) end = v->begin + bytes;
    }
    if (h->num_rec_vars > 0 && h->numrecs > 0 &&
        h->begin_rec + (h->numrecs - 1) * h->recsize + last_rec > end)
        end = h->begin_rec + (h->numrecs - 1) * h->recsize + last_rec;
    return end;
}

/* "field (where)": which dimension, attribute or variable the field is
 * of, from the codec's indexes. */
static void describe(const ncp_hdr_defect *d, char *out, size_t cap)
{
    const char *f = d->field ? d->field : "header";
    char owner[48] = "global";
    if (d->var >= 0) snprintf(owner, sizeof owner, "variable %" PRId64, d->var);
    if (strncmp(f, "attribute", 9) == 0 && d->entry >= 0 && d->var < 0)
        snprintf(out, cap, "%s (global attribute %" PRId64 ")", f, d->entry);
    else if (strncmp(f, "attribute", 9) == 0 && d->entry >= 0)
        snprintf(out, cap, "%s (attribute %" PRId64 " of %s)", f, d->entry,
                 owner);
    else if (strncmp(f, "attribute", 9) == 0)
        snprintf(out, cap, "%s (%s)", f, owner);
    else if (strncmp(f, "dimension", 9) == 0 && d->entry >= 0)
        snprintf(out, cap, "%s (dimension %" PRId64 ")", f, d->entry);
    else if (d->var >= 0 && strncmp(f, "variable list", 13) != 0)
        snprintf(out, cap, "%s (%s)", f, owner);
    else
        snprintf(out, cap, "%s", f);
}

int nt_judge(const char *path, int err, const ncp_header *h,
             const ncp_hdr_defect *d, int64_t fsize, char *out, size_t cap)
{
    char what[160];
    int64_t want;
    int rc = NT_FOUND;
    if (err != NC_NOERR) {
        describe(d, what, sizeof what);
        if (d->offset >= 0)
            snprintf(out, cap, "%s: invalid: %s at byte %" PRId64 " (0x%" PRIx64
                     "): %s: %s", path, what, d->offset, (uint64_t)d->offset,
                     ncmpi_strerrno(err), ncmpi_strerror(err));
        else
            snprintf(out, cap, "%s: invalid: %s: %s: %s", path, what,
                     ncmpi_strerrno(err), ncmpi_strerror(err));
        goto done;
    }
    want = expected_size(h);
    if (fsize < want) {
        snprintf(out, cap, "%s: invalid: file is %" PRId64 " bytes, the "
                 "header promises %" PRId64 " (%" PRId64 " records)", path,
                 fsize, want, h->numrecs);
        goto done;
    }
    snprintf(out, cap, "%s: valid CDF-%d file: header %" PRId64 " bytes, %d "
             "dimensions, %d variables, %" PRId64 " records", path, h->format,
             h->xsz, h->ndims, h->nvars, h->numrecs);
    rc = NT_OK;
done:
    return rc;
}

/* One file: NT_OK, NT_FOUND or NT_FAIL, with a line on stdout. */
static int validate_one(const char *path, int quiet)
{
    ncp_header h;
    ncp_hdr_defect d;
    int64_t fsize = 0;
    int err, rc;
    char line[1024];

    memset(&d, 0, sizeof d);
    err = nt_read_header(path, &h, &fsize, &d);
    if (err == NC_ENOENT || err == NC_EFILE || err == NC_ENOMEM) {
        nt_err("validate", "%s: cannot read: %s", path, ncmpi_strerror(err));
        rc = NT_FAIL;
    } else {
        rc = nt_judge(path, err, &h, &d, fsize, line, sizeof line);
        if (!quiet) printf("%s\n", line);
    }
    if (err == NC_NOERR) ncp_header_free(&h);
    return rc;
}

int nt_validate(int argc, char **argv)
{
    int i, quiet = 0, nfiles = 0, rc = NT_OK, r, help = 0;
    for (i = 1; i < argc; i++) {
        if (nt_is_help(argv[i])) help = 1;
        else if (strcmp(argv[i], "-q") == 0) quiet = 1;
        else if (argv[i][0] == '-') rc = NT_USAGE;
        else nfiles++;
    }
    if (help) {
        if (nt_rank() == 0) validate_usage(stdout);
        rc = NT_OK;
        goto done;
    }
    if (rc != NT_OK || nfiles == 0) {
        nt_err("validate", "bad arguments (see 'ncpario validate --help')");
        rc = NT_USAGE;
        goto done;
    }
    for (i = 1; i < argc && nt_rank() == 0; i++) {
        if (argv[i][0] == '-') continue;
        r = validate_one(argv[i], quiet);
        if (r > rc) rc = r;
    }
    fflush(stdout);
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
done:
    return rc;
}
