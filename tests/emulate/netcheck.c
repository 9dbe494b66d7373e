/*
 * netcheck.c - plain TCP measurements between emulated nodes, the reference
 * that MPI's figures are held against.
 *
 *   netcheck serve PORT                 answers one client, then exits
 *   netcheck pingpong HOST PORT COUNT   8-byte round trips: prints "rtt_min_us rtt_median_us"
 *   netcheck stream HOST PORT BYTES     one-way transfer: prints "bytes_per_s seconds"
 *
 * The transfer is timed from the first byte sent to the receiver's
 * acknowledgement of the last, so the figure is the link's, not the
 * sender's socket buffer's.  The ping-pong polls its socket, as MPI
 * libraries poll theirs, so the two are compared like for like (a blocking
 * read adds the scheduler's wake-up to every message).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void die(const char *what)
{
    fprintf(stderr, "netcheck: %s: %s\n", what, strerror(errno));
    exit(1);
}

static void io_all(int fd, void *buf, size_t n, int reading)
{
    char *p = buf;
    while (n > 0) {
        ssize_t k = reading ? read(fd, p, n) : write(fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) {
            if (k == 0) errno = ECONNRESET;
            die(reading ? "read" : "write");
        }
        p += k;
        n -= (size_t)k;
    }
}

/* Reads n bytes by polling (MSG_DONTWAIT): no sleep between messages. */
static void poll_read(int fd, void *buf, size_t n)
{
    char *p = buf;
    while (n > 0) {
        ssize_t k = recv(fd, p, n, MSG_DONTWAIT);
        if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) continue;
        if (k <= 0) {
            if (k == 0) errno = ECONNRESET;
            die("recv");
        }
        p += k;
        n -= (size_t)k;
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int connect_to(const char *host, const char *port)
{
    struct addrinfo hints = {.ai_family = AF_INET, .ai_socktype = SOCK_STREAM}, *ai;
    if (getaddrinfo(host, port, &hints, &ai) != 0) {
        fprintf(stderr, "netcheck: cannot resolve %s\n", host);
        exit(1);
    }
    /* the server may not listen yet: retry for up to 10 s */
    for (int tries = 0;; tries++) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0) die("socket");
        if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) {
            freeaddrinfo(ai);
            int one = 1;
            setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            return fd;
        }
        close(fd);
        if (tries > 1000) die("connect");
        usleep(10000);
    }
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "serve")) {
        int s = socket(AF_INET, SOCK_STREAM, 0), one = 1;
        if (s < 0) die("socket");
        setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(argv[2]))};
        if (bind(s, (struct sockaddr *)&a, sizeof a) != 0) die("bind");
        if (listen(s, 1) != 0) die("listen");
        int fd = accept(s, NULL, NULL);
        if (fd < 0) die("accept");
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        /* the client says what it wants: 'p' COUNT or 's' BYTES */
        char mode;
        uint64_t n;
        io_all(fd, &mode, 1, 1);
        io_all(fd, &n, sizeof n, 1);
        if (mode == 'p') {
            char b[8];
            for (uint64_t i = 0; i < n; i++) {
                poll_read(fd, b, 8);
                io_all(fd, b, 8, 0);
            }
        } else {
            static char buf[1 << 16];
            uint64_t got = 0;
            while (got < n) {
                ssize_t k = read(fd, buf, sizeof buf);
                if (k < 0 && errno == EINTR) continue;
                if (k <= 0) die("read");
                got += (uint64_t)k;
            }
            io_all(fd, &mode, 1, 0);
        }
        close(fd);
        return 0;
    }
    if (argc == 5 && !strcmp(argv[1], "pingpong")) {
        long count = atol(argv[4]);
        if (count < 1) count = 1;
        int fd = connect_to(argv[2], argv[3]);
        char mode = 'p', b[8] = {0};
        uint64_t n = (uint64_t)count;
        io_all(fd, &mode, 1, 0);
        io_all(fd, &n, sizeof n, 0);
        double *t = calloc((size_t)count, sizeof *t);
        for (long i = 0; i < count; i++) {
            double t0 = now();
            io_all(fd, b, 8, 0);
            poll_read(fd, b, 8);
            t[i] = now() - t0;
        }
        qsort(t, (size_t)count, sizeof *t, cmp_double);
        printf("%.2f %.2f\n", t[0] * 1e6, t[count / 2] * 1e6);
        free(t);
        return 0;
    }
    if (argc == 5 && !strcmp(argv[1], "stream")) {
        uint64_t n = strtoull(argv[4], NULL, 10);
        int fd = connect_to(argv[2], argv[3]);
        char mode = 's';
        io_all(fd, &mode, 1, 0);
        io_all(fd, &n, sizeof n, 0);
        static char buf[1 << 16];
        double t0 = now();
        for (uint64_t sent = 0; sent < n;) {
            size_t k = n - sent < sizeof buf ? (size_t)(n - sent) : sizeof buf;
            io_all(fd, buf, k, 0);
            sent += k;
        }
        io_all(fd, &mode, 1, 1);
        double dt = now() - t0;
        printf("%.0f %.4f\n", (double)n / dt, dt);
        return 0;
    }
    fprintf(stderr, "usage: netcheck serve PORT | pingpong HOST PORT COUNT | stream HOST PORT BYTES\n");
    return 2;
}
