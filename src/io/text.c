/*
 * text.c -- a whole text file read into memory (ncp_text.h).  The file is
 * read to its end whatever its size said at open, so a file that grows or
 * shrinks meanwhile is read as it is.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pnetcdf.h"
#include "ncp_text.h"

int ncp_io_read_text(const char *path, char **text, size_t *len)
{
    int fd, err = NC_NOERR;
    char *buf = NULL, *nb;
    size_t cap = 0, n = 0;
    struct stat st;

    *text = NULL;
    *len = 0;
    fd = open(path, O_RDONLY);
    if (fd < 0) return errno == ENOENT ? NC_ENOENT : NC_EFILE;
    /* Room for the whole file at once, plus one byte to find its end. */
    if (fstat(fd, &st) == 0 && st.st_size > 0 &&
        (uint64_t)st.st_size < SIZE_MAX / 2)
        cap = (size_t)st.st_size + 1;
    else
        cap = 4096;
    for (;;) {
        ssize_t r;
        if (n + 1 >= cap || buf == NULL) {
            if (buf != NULL) {
                if (cap > SIZE_MAX / 2) {
                    err = NC_ENOMEM;
                    goto done;
                }
                cap *= 2;
            }
            if ((nb = realloc(buf, cap)) == NULL) {
                err = NC_ENOMEM;
                goto done;
            }
            buf = nb;
        }
        r = read(fd, buf + n, cap - 1 - n);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) {
            err = NC_EFILE;
            goto done;
        }
        if (r == 0) break;
        n += (size_t)r;
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    buf = NULL;
done:
    free(buf);
    close(fd);
    return err;
}
