/*
 * judge.c -- validate's verdict on a decoded header and a file size, pure
 * (no I/O, no MPI), so the fuzzer drives it too.  The header is decoded by
 * the same hardened codec the library opens files with
 * (src/format/header_codec.c), which names the field holding the first
 * defect and where it starts; then the file's size is held against what
 * the header promises (every fixed variable, numrecs records).  The
 * states a writer stopped mid-record leaves (bytes past the last record,
 * a last record short of whole) are warnings, not defects: the file opens
 * and reads, and `ncpario recover` tidies what can be tidied.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include <pnetcdf.h>

#include "ncpario_tool.h"

int64_t nt_expected_size(const ncp_header *h)
{
    int64_t end = h->xsz, last_rec = nt_record_end(h);
    int i;
    for (i = 0; i < h->nvars; i++) {
        const ncp_var *v = &h->vars[i];
        int64_t bytes = v->nelems_per_rec * nt_xsize(v->xtype);
        if (!v->is_record && v->begin + bytes > end) end = v->begin + bytes;
    }
    if (h->num_rec_vars > 0 && h->numrecs > 0) {
        int64_t recs = h->begin_rec + (h->numrecs - 1) * h->recsize + last_rec;
        if (recs > end) end = recs;
    }
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

void nt_append(char *out, size_t cap, const char *fmt, ...)
{
    size_t n = strlen(out);
    va_list ap;
    if (n + 1 >= cap) return;
    va_start(ap, fmt);
    vsnprintf(out + n, cap - n, fmt, ap);
    va_end(ap);
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
    want = nt_expected_size(h);
    if (fsize < want && nt_records_held(h, fsize) < h->numrecs - 1) {
        snprintf(out, cap, "%s: invalid: file is %" PRId64 " bytes, the "
                 "header promises %" PRId64 " (%" PRId64 " records)", path,
                 fsize, want, h->numrecs);
        goto done;
    }
    snprintf(out, cap, "%s: valid CDF-%d file: header %" PRId64 " bytes, %d "
             "dimensions, %d variables, %" PRId64 " records", path, h->format,
             h->xsz, h->ndims, h->nvars, h->numrecs);
    if (fsize < want)
        nt_append(out, cap, "; warning: the last record is %" PRId64 " bytes "
               "short of whole (a no-fill file's unwritten tail, or a write "
               "cut short): those bytes read as zeros", want - fsize);
    else if (h->num_rec_vars > 0 && fsize > want)
        nt_append(out, cap, "; warning: %" PRId64 " bytes past the last record "
               "(records written but not yet counted when the writer "
               "stopped): `ncpario recover` trims them", fsize - want);
    rc = NT_OK;
done:
    return rc;
}

