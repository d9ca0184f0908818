/*
 * shm_counter.c -- counters in shared memory that ranks wait on.
 *
 * A wait polls, then yields the core between polls, then sleeps.  Why
 * not sleep at once: waking a sleeper is a system call on the critical
 * path of the rank that adds (the aggregator, round after round).  Why
 * not only yield: a rank that waits long
 * (an aggregator's write to a slow file system) should leave its core to
 * whatever else runs on the node.  Why not MPI_Allreduce rounds: every
 * rank then waits for every other, where the staging needs only "the
 * aggregator waits for the ranks" and "a rank waits for the aggregator".
 *
 * Lost wake-ups: a sleeper counts itself in sleepers and then reads the
 * value; an adder stores the value and then reads sleepers; all four
 * sequentially consistent, so at least one of them sees the other.  The
 * kernel sleeps only while the value is still the one the sleeper read.
 */
#ifdef __linux__
#define _GNU_SOURCE /* syscall() */
#endif
#include "ncp_shm_counter.h"

#include <limits.h>
#include <sched.h>
#include <time.h>

#ifdef __linux__
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

/* Polls before the first yield: the add often comes within a
 * microsecond or two when the adder runs on another core. */
#define NCP_SHM_POLLS 200
/* Time spent yielding before the first sleep, in nanoseconds: longer
 * than a round takes.  Time, not a count of yields: a yield returns at
 * once on an otherwise idle core, so a count can run out long before a
 * round ends. */
#define NCP_SHM_YIELD_NS 2000000

static int reached(uint32_t value, uint32_t want)
{
    return (int32_t)(value - want) >= 0;
}

static int has_reached(ncp_shm_counter *c, uint32_t want)
{
    return reached(__atomic_load_n(&c->value, __ATOMIC_ACQUIRE), want);
}

void ncp_shm_counter_clear(ncp_shm_counter *c)
{
    c->value = 0;
    c->sleepers = 0;
}

/* Sleep while c->value is still seen (a shared futex, not a
 * process-private one: the waker is another process).  Without futexes,
 * give the core away. */
static void sleep_while(ncp_shm_counter *c, uint32_t seen)
{
#ifdef __linux__
    syscall(SYS_futex, &c->value, FUTEX_WAIT, seen, NULL, NULL, 0);
#else
    (void)c;
    (void)seen;
    sched_yield();
#endif
}

static void wake_all(ncp_shm_counter *c)
{
#ifdef __linux__
    syscall(SYS_futex, &c->value, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
#else
    (void)c;
#endif
}

/* Nanoseconds since *t; sets *t on the first call (tv_sec < 0). */
static int64_t elapsed_ns(struct timespec *t)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (t->tv_sec < 0) *t = now;
    return (int64_t)(now.tv_sec - t->tv_sec) * 1000000000 +
           (now.tv_nsec - t->tv_nsec);
}

void ncp_shm_counter_wait(ncp_shm_counter *c, uint32_t want)
{
    struct timespec since = {-1, 0};
    int i;
    for (i = 0; i < NCP_SHM_POLLS; i++)
        if (has_reached(c, want)) return;
    for (i = 0; !has_reached(c, want); i++) {
        if (i % 16 == 0 && elapsed_ns(&since) > NCP_SHM_YIELD_NS) break;
        sched_yield();
    }
    while (!has_reached(c, want)) {
        uint32_t seen;
        __atomic_fetch_add(&c->sleepers, 1, __ATOMIC_SEQ_CST);
        seen = __atomic_load_n(&c->value, __ATOMIC_SEQ_CST);
        if (!reached(seen, want)) sleep_while(c, seen);
        __atomic_fetch_sub(&c->sleepers, 1, __ATOMIC_SEQ_CST);
    }
}

void ncp_shm_counter_add(ncp_shm_counter *c, uint32_t n, uint32_t wake_at)
{
    uint32_t now = __atomic_add_fetch(&c->value, n, __ATOMIC_SEQ_CST);
    if (reached(now, wake_at) &&
        __atomic_load_n(&c->sleepers, __ATOMIC_SEQ_CST) > 0)
        wake_all(c);
}
