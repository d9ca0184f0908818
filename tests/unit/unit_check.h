/*
 * unit_check.h -- the pass/fail tally of a unit test: check() counts a
 * condition and prints "FAIL what" when it does not hold.  Included by
 * one test file each, so the counters are that test's own.
 */
#ifndef UNIT_CHECK_H
#define UNIT_CHECK_H

#include <stdio.h>

static long passed, failed;

static void check(int ok, const char *what)
{
    if (ok) {
        passed++;
    } else {
        failed++;
        printf("FAIL %s\n", what);
    }
}

#endif
