/*
 * ncp_fault.h -- a driver for tests only: it wraps a file's real driver
 * and makes chosen calls fail, so that a test can force the error paths of
 * everything above the I/O layer (fault.c has the configuration).
 * Compiled in with the CMake option NCP_FAULT_INJECTION; without it both
 * calls do nothing.
 */
#ifndef NCP_FAULT_H
#define NCP_FAULT_H

#include "ncp_io.h"

/* Collective over f->comm, after f->drv is chosen: when rank 0's
 * environment asks for faults, f->drv becomes a wrapper around it that f
 * owns.  Files opened later with f's driver (the I/O groups' aggregators'
 * file) share the wrapper and its call counts. */
int ncp_fault_wrap(ncp_file *f);

/* f->drv back to the real driver; frees the wrapper if f owns it. */
void ncp_fault_release(ncp_file *f);

/* The code a write-behind buffer of f about to be staged is to fail
 * with when written (op=behind), or NC_NOERR. */
int ncp_fault_behind(const ncp_file *f);

#endif
