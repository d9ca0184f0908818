/*
 * ncp_eof.h -- a read clipped to the end of the file (eof.c): the bytes
 * past it read as zeros, on every driver and I/O group path.
 */
#ifndef NCP_EOF_H
#define NCP_EOF_H

#include <stdint.h>

#include "ncp_io.h"

typedef struct ncp_eof_clip {
    int clipped;         /* 0: the read lies inside the file, use it as is */
    ncp_extents ext;     /* the extents inside the file */
    ncp_extents mem;     /* the memory holding their bytes */
    MPI_Offset *ext_len; /* owned arrays behind ext and mem */
    MPI_Offset *mem_off, *mem_len;
    unsigned char *mem_swap;
    MPI_Offset fix_addr; /* an element the end of the file cuts, */
    int fix_width;       /* to be byte-reversed after the read (0: none) */
} ncp_eof_clip;

/* For a read of ext into mem from a file of size bytes: zero the memory
 * of every byte past the end and set c up with the lists of the bytes
 * before it.  Free c with ncp_eof_clip_free whatever the outcome. */
int ncp_eof_clip_read(const ncp_extents *ext, const ncp_extents *mem,
                      MPI_Offset size, ncp_eof_clip *c);
/* After the clipped read: reverse the element the end of the file cut,
 * whose missing bytes read as zero. */
void ncp_eof_clip_finish(const ncp_eof_clip *c);
void ncp_eof_clip_free(ncp_eof_clip *c);

#endif
