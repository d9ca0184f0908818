/*
 * ncp_group.h -- I/O groups: application-level two-phase I/O (ASCEM-IO),
 * a driver (ncp_io_group_driver) stacked over the file's own driver, which
 * it calls for every byte it moves.  The ranks of a file form groups;
 * the lowest rank of each is its aggregator.  A collective transfer
 * ships every member's extents and bytes to its aggregator (the
 * communication phase, io/agg's rounds on the group's communicator), and
 * the aggregators alone move them (the I/O phase): on their own where
 * the inner driver moves each rank's bytes alone, else with one
 * collective driver call among themselves a round; reads run the other
 * way.  group.c owns the hints, the communicators and the aggregators'
 * file; group_agg.c the transfers.  Groups are on when
 * nc_io_group_size or nc_io_group_per_node is set.
 */
#ifndef NCP_GROUP_H
#define NCP_GROUP_H

#include "../ncp_io_driver.h"

/* The hints, agreed over every rank before anything is opened. */
typedef struct ncp_group_conf {
    int64_t size;     /* nc_io_group_size: ranks per group, 0 = unset,
                         NCP_GROUP_ALL = every rank in one group */
    int64_t per_node; /* nc_io_group_per_node: groups per node, 0 = unset */
    int64_t cap;      /* nc_io_group_buffer_size: staging bytes per round */
} ncp_group_conf;

#define NCP_GROUP_ALL (-1)

typedef struct ncp_group {
    const ncp_io_driver *inner; /* the driver wrapped: mpiio or posix */
    ncp_group_conf conf;
    MPI_Comm comm;      /* my group; its rank 0 is the aggregator */
    int size, rank;
    MPI_Comm acomm;     /* the aggregators; MPI_COMM_NULL on members */
    ncp_file *afile;    /* the file opened over acomm; NULL on members */
    int64_t cap;
    /* the group's aggregator (group_agg.c; NULL in a group of one) and
     * the runs its sink holds for the aggregators' file */
    struct ncp_agg *agg;
    ncp_extents run_ext, run_mem;
} ncp_group;

/* Collective: one transfer through the aggregators (group_agg.c).
 * Returns the code agreed over f->comm. */
int ncp_group_xferv(ncp_file *f, int is_write, const ncp_extents *ext,
                    const ncp_extents *mem);

/* Collective over the group, after the aggregators' file is open: the
 * group's aggregator.  Agreed over the group. */
int ncp_group_agg_open(ncp_file *f);
void ncp_group_agg_close(ncp_group *g);

#endif
