/*
 * What fake_cudart.c and fake_nccl.c share: the stream and event structs behind cudaStream_t / cudaEvent_t (the fake
 * NCCL advances a stream's clock when a collective is launched on it) and the call trace.
 *
 * Trace: with FAKE_CUDA_TRACE=<path> in the environment at load time, or after fake_cuda_trace(path) /
 * fake_nccl_trace(path), every call appends one line "<function>" to that file; cudaEventRecord appends
 * "cudaEventRecord 0x<event>" so a reader can tell start from end events. Both libraries open the file with O_APPEND
 * and write each line with one write(2), unbuffered, so their lines interleave in call order.
 */
#ifndef FAKE_CUDART_H
#define FAKE_CUDART_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FAKE_STREAM_MAGIC 0x5354524dU /* "STRM" */
#define FAKE_EVENT_MAGIC 0x45564e54U  /* "EVNT" */

struct fake_stream {
    unsigned magic;
    int device;
    unsigned long long clock_ns; /* advanced by every launch on this stream */
    double clock_fraction_ns;    /* what a launch shorter than a nanosecond's rounding left over */
};

struct fake_event {
    unsigned magic;
    int recorded;
    unsigned long long clock_ns;
};

static int fake_trace_fd = -1;

static inline void fake_trace_open(const char *path) {
    if (fake_trace_fd >= 0) close(fake_trace_fd);
    fake_trace_fd = path && *path ? open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644) : -1;
}

__attribute__((constructor)) static void fake_trace_from_env(void) {
    fake_trace_open(getenv("FAKE_CUDA_TRACE"));
}

static inline void fake_trace_write(const char *line, size_t len) {
    if (write(fake_trace_fd, line, len) < 0) {
        close(fake_trace_fd); /* a trace that cannot be written is turned off, not retried on every call */
        fake_trace_fd = -1;
    }
}

static inline void fake_trace(const char *fn) {
    if (fake_trace_fd < 0) return;
    char line[64];
    int n = snprintf(line, sizeof line, "%s\n", fn);
    fake_trace_write(line, (size_t) n);
}

static inline void fake_trace_ptr(const char *fn, const void *p) {
    if (fake_trace_fd < 0) return;
    char line[96];
    int n = snprintf(line, sizeof line, "%s %p\n", fn, p);
    fake_trace_write(line, (size_t) n);
}

#endif
