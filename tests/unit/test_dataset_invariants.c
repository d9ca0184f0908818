/*
 * test_dataset_invariants.c -- ncp_dataset_broken (src/dataset/mode.c):
 * the mode state machine's invariants as code.  Each state the drawing in
 * ncp_dataset.h allows passes; each one it rules out is named.  The Debug
 * and sanitizer builds run the same check at every call that looks a
 * dataset up, over the whole test suite.
 */
#include <stdio.h>
#include <string.h>

#include "dataset/ncp_dataset.h"

static int failures;

static void expect(int flags, int snapshot, long long numrecs, int broken,
                   const char *what)
{
    ncp_dataset ds;
    ncp_header snap;
    const char *got;

    memset(&ds, 0, sizeof ds);
    ds.flags = flags;
    ds.on_disk = snapshot ? &snap : NULL;
    ds.hdr.numrecs = numrecs;
    got = ncp_dataset_broken(&ds);
    if ((got != NULL) != broken) {
        printf("FAIL: %s: %s\n", what, got ? got : "no invariant broken");
        failures++;
    }
}

int main(void)
{
    const int W = NCP_F_WRITE, D = NCP_F_DEFINE, C = NCP_F_CREATED;
    const int I = NCP_F_INDEP;

    /* what the drawing allows */
    expect(D | C | W, 0, 0, 0, "after create");
    expect(W, 0, 3, 0, "collective data mode, writable");
    expect(0, 0, 3, 0, "opened read-only");
    expect(W | I, 0, 5, 0, "independent data mode");
    expect(D | W, 1, 2, 0, "redef keeps a snapshot");
    expect(C | W, 0, 0, 0, "a first enddef that failed");
    /* what it rules out */
    expect(D | I | W, 1, 0, 1, "independent inside define mode");
    expect(D, 1, 0, 1, "define mode read-only");
    expect(C, 0, 0, 1, "a new file read-only");
    expect(W, 1, 0, 1, "a snapshot left in data mode");
    expect(D | W, 0, 0, 1, "redef without a snapshot");
    expect(D | C | W, 1, 0, 1, "a snapshot of a new file");
    expect(W, 0, -1, 1, "a negative record count");
    if (failures == 0) printf("test_dataset_invariants: all passed\n");
    return failures != 0;
}
