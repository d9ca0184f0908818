/*
 * validate.c -- `ncpario validate`: the library's verdict on a file
 * (judge.c), and what a journal beside it means.  Reading the header
 * needs no MPI, so rank 0 does the work alone.
 */
#include <string.h>

#include <pnetcdf.h>

#include "ncpario_tool.h"
#include "io/ncp_journal.h"

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

/* An enddef killed midway leaves a journal beside the file: say what it
 * means (io/ncp_journal.h). */
static void journal_note(const char *path, char *line, size_t cap)
{
    int exists = 0, sealed = 0;
    if (ncp_journal_probe(path, &exists, &sealed) != NC_NOERR || !exists)
        return;
    if (sealed)
        nt_append(line, cap, "; warning: an interrupted enddef left its "
               "journal: opening the file with ncpario, or `ncpario "
               "recover`, rolls the file back to before that enddef");
    else
        nt_append(line, cap, "; warning: an unsealed journal of an enddef "
               "interrupted before it changed the file: `ncpario recover` "
               "removes it");
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
        journal_note(path, line, sizeof line);
        if (!quiet) printf("%s\n", line);
    }
    if (err == NC_NOERR) ncp_header_free(&h);
    return rc;
}

int nt_validate(int argc, char **argv)
{
    return nt_each_file(argc, argv, "validate", validate_usage,
                        validate_one);
}
