/*
 * journal.c -- the rollback journal of ncp_journal.h: creating, filling
 * and sealing it, and rolling a sealed one back into its file.
 *
 * Invariant: a journal is sealed only after every saved byte is in it,
 * and the file is changed only after the seal; so a sealed journal always
 * holds the old contents of every byte the enddef may have changed.
 */
#include "ncp_journal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "transport/ncp_posix_move.h"
#include "pnetcdf.h"

static const unsigned char journal_magic[8] = {'N', 'C', 'P', 'J',
                                               'R', 'N', 'L', 1};

/* Magic, old size, region count, checksum. */
#define SEAL_BYTES 32

/* FNV-1a, 64 bits: enough to tell a torn seal from a whole one. */
static uint64_t fnv1a(uint64_t h, const unsigned char *p, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

/* The seal's checksum: its first 24 bytes, then the region table. */
static uint64_t seal_sum(const unsigned char *seal,
                         const unsigned char *table, uint64_t n)
{
    uint64_t h = fnv1a(0xcbf29ce484222325ULL, seal, 24);
    return fnv1a(h, table, (size_t)(16 * n));
}

static void put_u64(unsigned char *p, uint64_t v)
{
    int i;
    for (i = 7; i >= 0; i--) {
        p[i] = (unsigned char)(v & 0xff);
        v >>= 8;
    }
}

static uint64_t get_u64(const unsigned char *p)
{
    uint64_t v = 0;
    int i;
    for (i = 0; i < 8; i++) v = (v << 8) | p[i];
    return v;
}

/* A ROMIO-style "fstype:" prefix is not part of the file's name. */
static const char *plain_path(const char *path)
{
    const char *colon = strchr(path, ':');
    size_t n = colon ? (size_t)(colon - path) : 0;
    return colon && n >= 2 && strcspn(path, "/") > n ? colon + 1 : path;
}

char *ncp_journal_path_of(const char *file_path)
{
    const char *p = plain_path(file_path);
    size_t n = strlen(p);
    char *j = malloc(n + sizeof "-ncjournal");
    if (j != NULL) {
        memcpy(j, p, n);
        memcpy(j + n, "-ncjournal", sizeof "-ncjournal");
    }
    return j;
}

int64_t ncp_journal_data_start(int64_t nregions)
{
    int64_t end = NCP_JOURNAL_HEAD + 16 * nregions;
    return (end + NCP_JOURNAL_HEAD - 1) / NCP_JOURNAL_HEAD * NCP_JOURNAL_HEAD;
}

static int journal_open_flags(ncp_journal *j, const char *file_path,
                              int durable, int flags)
{
    j->fd = -1;
    j->durable = durable;
    if ((j->path = ncp_journal_path_of(file_path)) == NULL) return NC_ENOMEM;
    j->fd = open(j->path, flags, 0666);
    if (j->fd < 0) {
        int err = ncp_posix_errno(errno, NC_EFILE);
        free(j->path);
        j->path = NULL;
        return err;
    }
    return NC_NOERR;
}

int ncp_journal_create(ncp_journal *j, const char *file_path, int durable)
{
    return journal_open_flags(j, file_path, durable,
                              O_WRONLY | O_CREAT | O_TRUNC);
}

int ncp_journal_open(ncp_journal *j, const char *file_path, int durable)
{
    return journal_open_flags(j, file_path, durable, O_WRONLY);
}

static int write_all(int fd, const void *buf, size_t n, int64_t off)
{
    struct iovec one;
    one.iov_base = (void *)buf;
    one.iov_len = n;
    return ncp_posix_pwritev(fd, &one, 1, off);
}

int ncp_journal_save(ncp_journal *j, int64_t joff, const void *buf,
                     int64_t n)
{
    return n > 0 ? write_all(j->fd, buf, (size_t)n, joff) : NC_NOERR;
}

static int sync_if(const ncp_journal *j)
{
    if (j->durable && fsync(j->fd) != 0)
        return ncp_posix_errno(errno, NC_EWRITE);
    return NC_NOERR;
}

int ncp_journal_seal(ncp_journal *j, int64_t old_size,
                     const ncp_journal_region *r, int64_t n)
{
    unsigned char seal[SEAL_BYTES], *table;
    int64_t i;
    int err;

    if ((table = malloc((size_t)(16 * n + 1))) == NULL) return NC_ENOMEM;
    for (i = 0; i < n; i++) {
        put_u64(table + 16 * i, (uint64_t)r[i].off);
        put_u64(table + 16 * i + 8, (uint64_t)r[i].len);
    }
    memcpy(seal, journal_magic, 8);
    put_u64(seal + 8, (uint64_t)old_size);
    put_u64(seal + 16, (uint64_t)n);
    put_u64(seal + 24, seal_sum(seal, table, (uint64_t)n));
    err = write_all(j->fd, table, (size_t)(16 * n), NCP_JOURNAL_HEAD);
    if (err == NC_NOERR) err = sync_if(j);
    if (err == NC_NOERR) err = write_all(j->fd, seal, SEAL_BYTES, 0);
    if (err == NC_NOERR) err = sync_if(j);
    free(table);
    return err;
}

int ncp_journal_close(ncp_journal *j, int remove)
{
    int err = NC_NOERR;
    if (j->fd >= 0 && !remove) err = sync_if(j);
    if (j->fd >= 0 && close(j->fd) != 0 && err == NC_NOERR)
        err = ncp_posix_errno(errno, NC_EFILE);
    if (remove && j->path != NULL && unlink(j->path) != 0 &&
        errno != ENOENT && err == NC_NOERR)
        err = ncp_posix_errno(errno, NC_EFILE);
    free(j->path);
    j->path = NULL;
    j->fd = -1;
    return err;
}

/* A sealed journal's regions and old size, read from fd; NC_ENOTNC when
 * it is not sealed (torn, unfinished, or not a journal). */
static int read_seal(int fd, int64_t *old_size, ncp_journal_region **r,
                     int64_t *n)
{
    unsigned char seal[SEAL_BYTES], *table = NULL;
    struct stat st;
    uint64_t cnt;
    int64_t got = 0, i;
    int err = NC_ENOTNC;
    struct iovec one = {seal, SEAL_BYTES};

    *r = NULL;
    if (fstat(fd, &st) != 0) return ncp_posix_errno(errno, NC_EFILE);
    if (ncp_posix_move_iov(fd, 0, &one, 1, 0, &got) != NC_NOERR ||
        got < SEAL_BYTES || memcmp(seal, journal_magic, 8) != 0)
        return NC_ENOTNC;
    cnt = get_u64(seal + 16);
    if (cnt > (uint64_t)(st.st_size / 16)) return NC_ENOTNC;
    if ((table = malloc((size_t)(16 * cnt + 1))) == NULL) return NC_ENOMEM;
    one.iov_base = table;
    one.iov_len = (size_t)(16 * cnt);
    if (cnt > 0 && (ncp_posix_move_iov(fd, 0, &one, 1, NCP_JOURNAL_HEAD,
                                       &got) != NC_NOERR ||
                    got < (int64_t)(16 * cnt)))
        goto done;
    if (seal_sum(seal, table, cnt) != get_u64(seal + 24)) goto done;
    if ((*r = malloc((size_t)cnt * sizeof **r + 1)) == NULL) {
        err = NC_ENOMEM;
        goto done;
    }
    for (i = 0; i < (int64_t)cnt; i++) {
        (*r)[i].off = (int64_t)get_u64(table + 16 * i);
        (*r)[i].len = (int64_t)get_u64(table + 16 * i + 8);
    }
    *old_size = (int64_t)get_u64(seal + 8);
    *n = (int64_t)cnt;
    err = NC_NOERR;
done:
    free(table);
    return err;
}

/* Copy each region's saved bytes back into the file, then cut the file
 * to its old size and make it durable. */
static int roll_back(int jfd, int ffd, int64_t old_size,
                     const ncp_journal_region *r, int64_t n)
{
    enum { CHUNK = 1 << 20 };
    char *buf = malloc(CHUNK);
    int64_t i, joff = ncp_journal_data_start(n), done, got;
    int err = buf ? NC_NOERR : NC_ENOMEM;

    for (i = 0; i < n && err == NC_NOERR; i++) {
        for (done = 0; done < r[i].len && err == NC_NOERR; done += got) {
            int64_t want = r[i].len - done < CHUNK ? r[i].len - done : CHUNK;
            struct iovec one = {buf, (size_t)want};
            err = ncp_posix_move_iov(jfd, 0, &one, 1, joff, &got);
            if (err == NC_NOERR && got < want) err = NC_EREAD; /* cut */
            if (err == NC_NOERR) err = write_all(ffd, buf, (size_t)got,
                                                 r[i].off + done);
            joff += got;
        }
    }
    if (err == NC_NOERR && ftruncate(ffd, (off_t)old_size) != 0)
        err = ncp_posix_errno(errno, NC_EWRITE);
    if (err == NC_NOERR && fsync(ffd) != 0)
        err = ncp_posix_errno(errno, NC_EWRITE);
    free(buf);
    return err;
}

int ncp_journal_recover(const char *file_path, int *rolled)
{
    char *jpath = ncp_journal_path_of(file_path);
    ncp_journal_region *r = NULL;
    int64_t old_size = 0, n = 0;
    int jfd = -1, ffd = -1, err = NC_NOERR;

    *rolled = 0;
    if (jpath == NULL) return NC_ENOMEM;
    if ((jfd = open(jpath, O_RDONLY)) < 0) {
        if (errno != ENOENT) err = ncp_posix_errno(errno, NC_EFILE);
        goto done;
    }
    err = read_seal(jfd, &old_size, &r, &n);
    if (err == NC_ENOTNC) { /* not sealed: the file was never touched */
        err = NC_NOERR;
        goto drop;
    }
    if (err != NC_NOERR) goto done;
    if ((ffd = open(plain_path(file_path), O_WRONLY)) < 0) {
        err = ncp_posix_errno(errno, NC_EFILE);
        goto done;
    }
    if ((err = roll_back(jfd, ffd, old_size, r, n)) != NC_NOERR) goto done;
    *rolled = 1;
drop:
    if (unlink(jpath) != 0 && errno != ENOENT)
        err = ncp_posix_errno(errno, NC_EFILE);
done:
    if (jfd >= 0) close(jfd);
    if (ffd >= 0) close(ffd);
    free(r);
    free(jpath);
    return err;
}

void ncp_journal_remove(const char *file_path)
{
    char *jpath = ncp_journal_path_of(file_path);
    if (jpath != NULL) (void)unlink(jpath);
    free(jpath);
}

int ncp_journal_probe(const char *file_path, int *exists, int *sealed)
{
    char *jpath = ncp_journal_path_of(file_path);
    ncp_journal_region *r = NULL;
    int64_t old_size, n;
    int jfd, err = NC_NOERR;

    *exists = *sealed = 0;
    if (jpath == NULL) return NC_ENOMEM;
    if ((jfd = open(jpath, O_RDONLY)) >= 0) {
        *exists = 1;
        err = read_seal(jfd, &old_size, &r, &n);
        *sealed = err == NC_NOERR;
        if (err == NC_ENOTNC) err = NC_NOERR;
        close(jfd);
    } else if (errno != ENOENT) {
        err = ncp_posix_errno(errno, NC_EFILE);
    }
    free(r);
    free(jpath);
    return err;
}
