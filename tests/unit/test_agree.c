/*
 * test_agree.c -- ncp_agree_verdict (src/base/agree.c): what a rank
 * makes of the minimum of the codes every rank gave.  An agreement of
 * NC_* codes passes through; a minimum above the rank's own code, or a
 * value no code has (a rank in another collective reduced something
 * else), becomes NC_EMULTIDEFINE_FNC_ARGS, so every code a collective
 * call returns has a name and a text.
 */
#include <limits.h>
#include <stdio.h>

#include "pnetcdf.h"
#include "base/ncp_agree.h"

static int failures;

static void expect(int mine, int all, int want)
{
    int got = ncp_agree_verdict(mine, all);

    if (got != want) {
        printf("FAIL: verdict(%d, %d) = %d, want %d\n", mine, all, got,
               want);
        failures++;
    }
}

int main(void)
{
    expect(NC_NOERR, NC_NOERR, NC_NOERR);
    expect(NC_NOERR, NC_EINVALCOORDS, NC_EINVALCOORDS);
    expect(NC_EINVALCOORDS, NC_EEDGE, NC_EEDGE);
    expect(NC_NOERR, NC_EMULTIDEFINE_DIM_NUM, NC_EMULTIDEFINE_DIM_NUM);
    expect(NC_EEDGE, NC_EINVALCOORDS, NC_EMULTIDEFINE_FNC_ARGS); /* above */
    expect(NC_NOERR, -512, NC_EMULTIDEFINE_FNC_ARGS);      /* no such code */
    expect(NC_NOERR, INT_MIN, NC_EMULTIDEFINE_FNC_ARGS);
    expect(NC_EEDGE, -100000, NC_EMULTIDEFINE_FNC_ARGS);
    if (failures == 0) printf("test_agree: all passed\n");
    return failures != 0;
}
