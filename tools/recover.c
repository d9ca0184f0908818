/*
 * recover.c -- `ncpario recover`: repair, without guessing, what a writer
 * stopped midway (killed, out of time, a node lost) leaves in a file:
 *   1. the journal of an interrupted enddef (io/ncp_journal.h): a sealed
 *      one is rolled back, so the file holds its old header and data
 *      again; an unsealed one, made before the file was touched, goes;
 *   2. bytes past the last record: records written but not yet counted by
 *      numrecs when the writer stopped, so no completed sync promised
 *      them; the file is cut at the end of its last record.
 * Opening the file with ncpario does the first too.  What it cannot
 * repair (an invalid header, a file shorter than its records) it leaves
 * alone and reports, as validate does.  Rank 0 does the work alone.
 */
#include <string.h>
#include <unistd.h>

#include <pnetcdf.h>

#include "ncpario_tool.h"
#include "io/ncp_journal.h"

static void recover_usage(FILE *out)
{
    fprintf(out,
        "usage: ncpario recover [-q] FILE...\n"
        "Repair what a writer stopped midway left in each FILE: roll back "
        "an\ninterrupted enddef from its journal, and cut off records "
        "written but\nnot yet counted by numrecs.  Prints what it did.\n"
        "  -q   print nothing, only set the exit status\n"
        "Exit: 0 the file is whole (repaired or not), 1 it is invalid in a "
        "way\nrecover does not repair, 2 usage error, 3 a file cannot be "
        "read or\nwritten.\n");
}

/* Step 2: the file cut at the end of its last record, when it is longer. */
static int trim_records(const char *path, char *line, size_t cap)
{
    ncp_header h;
    ncp_hdr_defect d;
    int64_t fsize = 0, want;
    int err, rc = NT_OK;

    memset(&d, 0, sizeof d);
    err = nt_read_header(path, &h, &fsize, &d);
    if (err == NC_ENOENT || err == NC_EFILE || err == NC_ENOMEM) {
        nt_err("recover", "%s: cannot read: %s", path, ncmpi_strerror(err));
        return NT_FAIL;
    }
    rc = nt_judge(path, err, &h, &d, fsize, line, cap);
    if (err != NC_NOERR) return rc;
    want = nt_expected_size(&h);
    if (rc == NT_OK && h.num_rec_vars > 0 && fsize > want) {
        if (truncate(path, (off_t)want) != 0) {
            nt_err("recover", "%s: cannot cut the file", path);
            rc = NT_FAIL;
        } else {
            snprintf(line, cap, "%s: cut %lld bytes past the last of its "
                     "%lld records", path, (long long)(fsize - want),
                     (long long)h.numrecs);
        }
    } else if (rc == NT_OK) {
        snprintf(line, cap, "%s: whole: nothing past its records", path);
    }
    ncp_header_free(&h);
    return rc;
}

static int recover_one(const char *path, int quiet)
{
    char line[1024];
    int rolled = 0, err, rc;

    err = ncp_journal_recover(path, &rolled);
    if (err != NC_NOERR) {
        nt_err("recover", "%s: the journal cannot be rolled back: %s", path,
               ncmpi_strerror(err));
        return NT_FAIL;
    }
    if (rolled && !quiet)
        printf("%s: rolled back an interrupted enddef from its journal\n",
               path);
    rc = trim_records(path, line, sizeof line);
    if (!quiet && rc != NT_FAIL) printf("%s\n", line);
    return rc;
}

int nt_recover(int argc, char **argv)
{
    return nt_each_file(argc, argv, "recover", recover_usage, recover_one);
}
