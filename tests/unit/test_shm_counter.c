/*
 * test_shm_counter.c -- unit test of src/io/shm_counter.c, the counters
 * in shared memory that hand the shared staging's halves between ranks.
 * Two processes (fork) share an anonymous mapping, as ranks share an MPI
 * shared-memory window:
 *   - a wait blocks until the counter reaches its value, through the
 *     sleeping stage (the waiter is seen in sleepers), and an add that
 *     does not reach wake_at leaves it waiting;
 *   - what the adder stored before the add is what the waiter reads;
 *   - counters wrap: values compare by difference across 2^32;
 *   - a ping-pong of many rounds, like an aggregator and a rank handing
 *     a half back and forth, loses no wake-up (a lost one would hang,
 *     and the alarm fails the test) and no byte.
 *
 * Prints "N passed, M failed"; exit status 0 only when M is 0.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "io/agg/ncp_shm_counter.h"
#include "unit_check.h"

enum { PAYLOAD = 1 << 16, PINGPONG = 20000 };

typedef struct shared {
    ncp_shm_counter ping, pong;
    unsigned char payload[PAYLOAD];
} shared;

static void pause_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

static uint32_t sleepers(ncp_shm_counter *c)
{
    return __atomic_load_n(&c->sleepers, __ATOMIC_SEQ_CST);
}

/* Has the child exited (reaping it), within ms milliseconds? */
static int exited_within(pid_t pid, long ms, int *status)
{
    long waited;
    for (waited = 0; waited <= ms; waited += 5) {
        if (waitpid(pid, status, WNOHANG) == pid) return 1;
        pause_ms(5);
    }
    return 0;
}

/* As exited_within, but a child still waiting then is killed: a failed
 * case leaves no process behind. */
static int ended_within(pid_t pid, long ms, int *status)
{
    if (exited_within(pid, ms, status)) return 1;
    kill(pid, SIGKILL);
    waitpid(pid, status, 0);
    return 0;
}

/* fork, the child with its own alarm (alarms are not inherited): a
 * lost wake-up must not leave it asleep for good. */
static pid_t fork_child(void)
{
    pid_t pid = fork();
    if (pid == 0) alarm(60);
    return pid;
}

/* Child: wait for want on c, then check the payload holds byte b. */
static int child_waits(shared *sh, ncp_shm_counter *c, uint32_t want,
                       unsigned char b)
{
    int i;
    ncp_shm_counter_wait(c, want);
    for (i = 0; i < PAYLOAD; i++)
        if (sh->payload[i] != b) return 2;
    return 0;
}

/* The waiter blocks, sleeps, ignores an add short of wake_at, and wakes
 * on the add that reaches it with the payload visible.  Counters start
 * at start, so the wrap case runs through 2^32. */
static void blocking_case(shared *sh, uint32_t start, const char *name)
{
    char what[128];
    int status = -1;
    long waited;
    pid_t pid;
    ncp_shm_counter_clear(&sh->ping);
    sh->ping.value = start;
    memset(sh->payload, 0, PAYLOAD);
    pid = fork_child();
    if (pid == 0) _exit(child_waits(sh, &sh->ping, start + 3, 0xab));
    for (waited = 0; waited < 5000 && sleepers(&sh->ping) == 0; waited += 5)
        pause_ms(5);
    snprintf(what, sizeof what, "%s: the waiter reached its sleep", name);
    check(sleepers(&sh->ping) == 1, what);
    ncp_shm_counter_add(&sh->ping, 2, start + 3);
    snprintf(what, sizeof what, "%s: an add short of the value wakes no one",
             name);
    check(!exited_within(pid, 100, &status), what);
    memset(sh->payload, 0xab, PAYLOAD);
    ncp_shm_counter_add(&sh->ping, 1, start + 3);
    snprintf(what, sizeof what, "%s: the add that reaches it does", name);
    check(ended_within(pid, 5000, &status), what);
    snprintf(what, sizeof what, "%s: the waiter read the payload", name);
    check(WIFEXITED(status) && WEXITSTATUS(status) == 0, what);
    snprintf(what, sizeof what, "%s: no sleeper left", name);
    check(sleepers(&sh->ping) == 0, what);
}

/* Waits for values the counter has reached, also across the wrap,
 * return at once. */
static void reached_case(shared *sh)
{
    int status = -1;
    pid_t pid;
    ncp_shm_counter_clear(&sh->ping);
    sh->ping.value = 5;
    pid = fork_child();
    if (pid == 0) {
        ncp_shm_counter_wait(&sh->ping, 5);
        ncp_shm_counter_wait(&sh->ping, 0xfffffff0u); /* 21 behind 5 */
        ncp_shm_counter_wait(&sh->ping, 0x80000006u); /* 2^31 - 1 behind */
        _exit(0);
    }
    check(ended_within(pid, 5000, &status) && WIFEXITED(status) &&
              WEXITSTATUS(status) == 0,
          "waits for values behind the counter return");
}

/* Round k: the parent fills the payload with k and adds to ping; the
 * child checks it and adds to pong; the parent waits for pong before
 * the next round.  Counters start 100 before the wrap. */
static void pingpong_case(shared *sh)
{
    uint32_t start = 0xffffff9cu, k;
    int status = -1, bad = 0;
    pid_t pid;
    ncp_shm_counter_clear(&sh->ping);
    ncp_shm_counter_clear(&sh->pong);
    sh->ping.value = sh->pong.value = start;
    pid = fork_child();
    if (pid == 0) {
        for (k = 1; k <= PINGPONG; k++) {
            ncp_shm_counter_wait(&sh->ping, start + k);
            if (sh->payload[k % PAYLOAD] != (unsigned char)k ||
                sh->payload[(k * 7919) % PAYLOAD] != (unsigned char)k)
                bad++;
            ncp_shm_counter_add(&sh->pong, 1, start + k);
        }
        _exit(bad ? 2 : 0);
    }
    for (k = 1; k <= PINGPONG; k++) {
        memset(sh->payload, (unsigned char)k, PAYLOAD / 16);
        sh->payload[k % PAYLOAD] = (unsigned char)k;
        sh->payload[(k * 7919) % PAYLOAD] = (unsigned char)k;
        ncp_shm_counter_add(&sh->ping, 1, start + k);
        ncp_shm_counter_wait(&sh->pong, start + k);
    }
    check(ended_within(pid, 10000, &status), "ping-pong: the child ended");
    check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
          "ping-pong: every round's bytes seen after its hand-over");
    check(sh->pong.value == start + PINGPONG, "ping-pong: the count wrapped");
}

int main(void)
{
    shared *sh = mmap(NULL, sizeof(shared), PROT_READ | PROT_WRITE,
                      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sh == MAP_FAILED) {
        printf("FAIL mmap\n");
        return 1;
    }
    alarm(60); /* a lost wake-up hangs: fail instead */
    reached_case(sh);
    blocking_case(sh, 0, "from 0");
    blocking_case(sh, 0xfffffffeu, "across the wrap");
    pingpong_case(sh);
    printf("%ld passed, %ld failed\n", passed, failed);
    munmap(sh, sizeof(shared));
    return failed != 0;
}
