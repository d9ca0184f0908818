/*
 * ncp_shm_counter.h -- a counter in memory shared by the ranks of one
 * node, which ranks wait on until it reaches a value: the hand-over of
 * the shared staging's halves (shm.c).  Counters wrap; a value is
 * reached when the counter is no more than 2^31 - 1 behind it.
 */
#ifndef NCP_SHM_COUNTER_H
#define NCP_SHM_COUNTER_H

#include <stdint.h>

typedef struct ncp_shm_counter {
    uint32_t value;
    uint32_t sleepers; /* ranks asleep on value, or about to be */
} ncp_shm_counter;

/* Zero; before any rank uses c (ordered by a collective). */
void ncp_shm_counter_clear(ncp_shm_counter *c);

/* Return once c has reached want; what was stored before the add that
 * reached it is visible then.  Polls a little, then yields the core
 * between polls for up to 2 ms (ranks may outnumber cores, and the rank
 * that is to add may need this one's), then sleeps until an add reaches
 * the value (Linux; elsewhere it goes on yielding). */
void ncp_shm_counter_wait(ncp_shm_counter *c, uint32_t want);

/* Add n, publishing what this rank stored before; wakes the sleepers
 * when c reaches wake_at. */
void ncp_shm_counter_add(ncp_shm_counter *c, uint32_t n, uint32_t wake_at);

#endif
