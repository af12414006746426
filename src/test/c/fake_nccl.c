/*
 * A fake libnccl.so.2 for the bench nccl tests: exactly the functions FfmNccl looks up, computing the real results
 * over host buffers (fake_cudart.c's "device" memory) in one process.
 *   Communicators: ncclCommInitAll gives N comms of one clique; ncclCommInitRank joins the clique named by the unique
 *   id (all ranks must be in this process, so in practice nranks = 1).
 *   Launches: a call on a comm of more than one rank must be inside ncclGroupStart/End (as NCCL requires of one
 *   thread driving several GPUs); calls are queued and run at the outermost ncclGroupEnd, where the i-th collective of
 *   every rank of a clique is run together and each recv is paired with its sender's send. A 1-rank comm runs at once
 *   outside a group. Every input is copied before any output is written, so in-place calls are right.
 *   Time: each call advances its stream's clock by FAKE_LAUNCH_NS + count ns (fake_cudart.h).
 *   Wrong results: FAKE_NCCL_WRONG=<function> (e.g. ncclAllReduce) or fake_nccl_set_wrong(name) makes every group
 *   (or ungrouped call) that runs that function write one wrong element: the last element of the last rank's output
 *   (the root's for ncclReduce; the first recv's for ncclRecv).
 *   Failure: fake_nccl_fail_after(n) makes every launch after the next n return ncclUnhandledCudaError.
 *   fake_nccl_reset() undoes both and drops an open group.
 */
#include "fake_cudart.h"
#include "fake_nccl_reduce.h"

#include <stdint.h>

#define FAKE_LAUNCH_NS 10000ULL
#define MAX_RANKS 16
#define UNIQUE_ID_BYTES 128
#define COMM_MAGIC 0x4e43434cU /* "NCCL" */

typedef int ncclResult_t;
enum {
    ncclSuccess = 0, ncclUnhandledCudaError = 1, ncclSystemError = 2, ncclInternalError = 3, ncclInvalidArgument = 4,
    ncclInvalidUsage = 5
};

typedef struct { char internal[UNIQUE_ID_BYTES]; } ncclUniqueId;

struct clique {
    int nranks;
    int members;
    char id[UNIQUE_ID_BYTES];
    struct clique *next;
};

typedef struct ncclComm {
    unsigned magic;
    struct clique *clique;
    int rank;
    int device; /* -1 when unknown (ncclCommInitRank) */
} *ncclComm_t;

enum kind { ALL_REDUCE, ALL_GATHER, REDUCE_SCATTER, BROADCAST, REDUCE, SEND, RECV };
static const char *const FN[] = {"ncclAllReduce", "ncclAllGather", "ncclReduceScatter", "ncclBroadcast",
                                 "ncclReduce", "ncclSend", "ncclRecv"};

struct op {
    enum kind kind;
    const void *send;
    void *recv;
    size_t count;
    int type;
    int redop;
    int peer; /* root for broadcast/reduce, peer for send/recv */
    ncclComm_t comm;
    int done;
};

static struct clique *cliques;
static struct op *queue;
static size_t queued, queue_cap;
static int group_depth;
static int unique_ids;
static char wrong_fn[32];
static long long fail_after = -1;

__attribute__((constructor)) static void wrong_from_env(void) {
    const char *w = getenv("FAKE_NCCL_WRONG");
    if (w) snprintf(wrong_fn, sizeof wrong_fn, "%s", w);
}

/* Test controls (not NCCL). */
void fake_nccl_trace(const char *path) { fake_trace_open(path); }
void fake_nccl_set_wrong(const char *fn) { snprintf(wrong_fn, sizeof wrong_fn, "%s", fn ? fn : ""); }
void fake_nccl_fail_after(long long launches) { fail_after = launches; }
void fake_nccl_reset(void) {
    wrong_fn[0] = 0;
    fail_after = -1;
    group_depth = 0; /* a test whose launch failed inside a group leaves it open */
    queued = 0;
}

const char *ncclGetErrorString(ncclResult_t r) {
    fake_trace("ncclGetErrorString");
    switch (r) {
        case ncclSuccess: return "no error";
        case ncclUnhandledCudaError: return "unhandled cuda error (run with NCCL_DEBUG=INFO for details)";
        case ncclSystemError: return "unhandled system error (run with NCCL_DEBUG=INFO for details)";
        case ncclInternalError: return "internal error - please report this issue to the NCCL developers";
        case ncclInvalidArgument: return "invalid argument (run with NCCL_DEBUG=WARN for details)";
        case ncclInvalidUsage: return "invalid usage (run with NCCL_DEBUG=WARN for details)";
        default: return "unknown result code";
    }
}

ncclResult_t ncclGetVersion(int *v) {
    fake_trace("ncclGetVersion");
    if (!v) return ncclInvalidArgument;
    *v = 22807;
    return ncclSuccess;
}

ncclResult_t ncclGetUniqueId(ncclUniqueId *id) {
    fake_trace("ncclGetUniqueId");
    if (!id) return ncclInvalidArgument;
    memset(id, 0, sizeof *id);
    snprintf(id->internal, sizeof id->internal, "fake-nccl-%d-%d", (int) getpid(), ++unique_ids);
    return ncclSuccess;
}

static ncclComm_t new_comm(struct clique *c, int rank, int device) {
    ncclComm_t comm = calloc(1, sizeof *comm);
    if (!comm) return NULL;
    comm->magic = COMM_MAGIC;
    comm->clique = c;
    comm->rank = rank;
    comm->device = device;
    c->members++;
    return comm;
}

ncclResult_t ncclCommInitAll(ncclComm_t *comms, int ndev, const int *devlist) {
    fake_trace("ncclCommInitAll");
    if (!comms || ndev < 1 || ndev > MAX_RANKS) return ncclInvalidArgument;
    struct clique *c = calloc(1, sizeof *c);
    if (!c) return ncclSystemError;
    c->nranks = ndev;
    c->next = cliques;
    cliques = c;
    for (int i = 0; i < ndev; i++) {
        comms[i] = new_comm(c, i, devlist ? devlist[i] : i);
        if (!comms[i]) return ncclSystemError;
    }
    return ncclSuccess;
}

ncclResult_t ncclCommInitRank(ncclComm_t *comm, int nranks, ncclUniqueId id, int rank) {
    fake_trace("ncclCommInitRank");
    if (!comm || nranks < 1 || nranks > MAX_RANKS || rank < 0 || rank >= nranks) return ncclInvalidArgument;
    struct clique *c = cliques;
    while (c && memcmp(c->id, id.internal, UNIQUE_ID_BYTES) != 0) c = c->next;
    if (!c) {
        c = calloc(1, sizeof *c);
        if (!c) return ncclSystemError;
        c->nranks = nranks;
        memcpy(c->id, id.internal, UNIQUE_ID_BYTES);
        c->next = cliques;
        cliques = c;
    } else if (c->nranks != nranks || c->members >= nranks) {
        return ncclInvalidUsage;
    }
    *comm = new_comm(c, rank, -1);
    return *comm ? ncclSuccess : ncclSystemError;
}

ncclResult_t ncclCommDestroy(ncclComm_t comm) {
    fake_trace("ncclCommDestroy");
    if (!comm || comm->magic != COMM_MAGIC) return ncclInvalidArgument;
    struct clique *c = comm->clique;
    comm->magic = 0;
    free(comm);
    if (--c->members > 0) return ncclSuccess;
    struct clique **p = &cliques;
    while (*p != c) p = &(*p)->next;
    *p = c->next;
    free(c);
    return ncclSuccess;
}

/* ---- queue and execution ---- */

static void *copy_of(const void *p, size_t bytes) {
    void *c = malloc(bytes ? bytes : 1);
    if (c) memcpy(c, p, bytes);
    return c;
}

static void corrupt(void *buf, size_t count, int t) {
    if (count > 0) ((unsigned char *) buf)[(count - 1) * fake_type_size(t)] ^= 1;
}

/* Runs one collective whose ops (one per rank, indexed by rank) are in round[]. */
static ncclResult_t run_collective(struct op **round, int n, int *corrupted) {
    struct op *o0 = round[0];
    int t = o0->type;
    size_t es = fake_type_size(t), count = o0->count;
    size_t in_elems = o0->kind == REDUCE_SCATTER ? count * (size_t) n : count;
    void *in[MAX_RANKS];
    for (int r = 0; r < n; r++) {
        struct op *o = round[r];
        if (o->kind != o0->kind || o->count != count || o->type != t || o->redop != o0->redop || o->peer != o0->peer) {
            return ncclInvalidUsage; /* ranks disagree: real NCCL would hang or corrupt */
        }
        in[r] = (o0->kind == BROADCAST && r != o0->peer) ? NULL : copy_of(o->send, in_elems * es);
    }
    void *tmp = NULL;
    int last = n - 1;
    switch (o0->kind) {
        case ALL_REDUCE:
            for (int r = 0; r < n; r++) fake_reduce_into(round[r]->recv, in, n, count, t, o0->redop);
            break;
        case REDUCE:
            fake_reduce_into(round[o0->peer]->recv, in, n, count, t, o0->redop);
            last = o0->peer;
            break;
        case REDUCE_SCATTER:
            tmp = malloc(in_elems * es);
            if (tmp) fake_reduce_into(tmp, in, n, in_elems, t, o0->redop);
            for (int r = 0; tmp && r < n; r++) memcpy(round[r]->recv, (char *) tmp + (size_t) r * count * es, count * es);
            break;
        case ALL_GATHER:
            for (int r = 0; r < n; r++) {
                for (int j = 0; j < n; j++) memcpy((char *) round[r]->recv + (size_t) j * count * es, in[j], count * es);
            }
            break;
        case BROADCAST:
            for (int r = 0; r < n; r++) memcpy(round[r]->recv, in[o0->peer], count * es);
            break;
        default:
            break;
    }
    if (!*corrupted && strcmp(wrong_fn, FN[o0->kind]) == 0) {
        corrupt(round[last]->recv, o0->kind == ALL_GATHER ? count * (size_t) n : count, t);
        *corrupted = 1;
    }
    for (int r = 0; r < n; r++) free(in[r]);
    free(tmp);
    return o0->kind == REDUCE_SCATTER && !tmp ? ncclSystemError : ncclSuccess;
}

/* The k-th op of kind on rank's comm of clique c with the given peer (-1: any), not yet done. */
static struct op *nth(struct clique *c, int rank, enum kind kind, int peer, int k) {
    for (size_t i = 0; i < queued; i++) {
        struct op *o = &queue[i];
        if (o->comm->clique == c && o->comm->rank == rank && o->kind == kind && (peer < 0 || o->peer == peer)
            && !o->done && k-- == 0) {
            return o;
        }
    }
    return NULL;
}

static ncclResult_t run_clique(struct clique *c, int *corrupted) {
    int n = c->nranks;
    ncclResult_t rc = ncclSuccess;
    /* collectives: the first pending one of every rank, together, until none is left */
    while (rc == ncclSuccess) {
        struct op *round[MAX_RANKS];
        int present = 0;
        for (int r = 0; r < n; r++) {
            round[r] = NULL;
            for (size_t i = 0; i < queued && !round[r]; i++) {
                struct op *o = &queue[i];
                if (o->comm->clique == c && o->comm->rank == r && o->kind < SEND && !o->done) round[r] = o;
            }
            present += round[r] != NULL;
        }
        if (present == 0) break;
        if (present < n) return ncclInvalidUsage; /* some ranks never called it: real NCCL would hang */
        rc = run_collective(round, n, corrupted);
        for (int r = 0; r < n; r++) round[r]->done = 1;
    }
    if (rc != ncclSuccess) return rc;
    /* point to point: each recv with the matching send, all inputs copied first */
    size_t pairs = 0;
    struct op *sends[MAX_RANKS * MAX_RANKS], *recvs[MAX_RANKS * MAX_RANKS];
    void *copies[MAX_RANKS * MAX_RANKS];
    for (int dst = 0; dst < n; dst++) {
        for (int src = 0; src < n; src++) {
            for (int k = 0;; k++) {
                struct op *rv = nth(c, dst, RECV, src, k), *sd = nth(c, src, SEND, dst, k);
                if (!rv && !sd) break;
                if (!rv || !sd || rv->count != sd->count || rv->type != sd->type) return ncclInvalidUsage;
                if (pairs == sizeof sends / sizeof sends[0]) return ncclInternalError;
                sends[pairs] = sd;
                recvs[pairs++] = rv;
            }
        }
    }
    for (size_t i = 0; i < pairs; i++) copies[i] = copy_of(sends[i]->send, sends[i]->count * fake_type_size(sends[i]->type));
    for (size_t i = 0; i < pairs; i++) {
        memcpy(recvs[i]->recv, copies[i], recvs[i]->count * fake_type_size(recvs[i]->type));
        if (!*corrupted && (strcmp(wrong_fn, "ncclRecv") == 0 || strcmp(wrong_fn, "ncclSend") == 0)) {
            corrupt(recvs[i]->recv, recvs[i]->count, recvs[i]->type);
            *corrupted = 1;
        }
        sends[i]->done = recvs[i]->done = 1;
        free(copies[i]);
    }
    return ncclSuccess;
}

static ncclResult_t run_queue(void) {
    ncclResult_t rc = ncclSuccess;
    int corrupted = 0;
    for (struct clique *c = cliques; c && rc == ncclSuccess; c = c->next) rc = run_clique(c, &corrupted);
    for (size_t i = 0; i < queued && rc == ncclSuccess; i++) if (!queue[i].done) rc = ncclInvalidUsage;
    queued = 0;
    return rc;
}

static ncclResult_t enqueue(enum kind kind, const void *send, void *recv, size_t count, int type, int redop,
                            int peer, ncclComm_t comm, struct fake_stream *stream) {
    fake_trace(FN[kind]);
    if (fail_after == 0) return ncclUnhandledCudaError;
    if (fail_after > 0) fail_after--;
    if (!comm || comm->magic != COMM_MAGIC || type < 0 || type > 9 || redop < 0 || redop > 4) return ncclInvalidArgument;
    if (!stream || stream->magic != FAKE_STREAM_MAGIC) return ncclInvalidArgument;
    if (comm->device >= 0 && stream->device != comm->device) return ncclInvalidArgument;
    if (peer < 0 || peer >= comm->clique->nranks) return ncclInvalidArgument;
    if (count && ((kind != RECV && !send) || (kind != SEND && !recv))) return ncclInvalidArgument;
    if (group_depth == 0 && comm->clique->nranks > 1) return ncclInvalidUsage;
    if (queued == queue_cap) {
        size_t cap = queue_cap ? queue_cap * 2 : 64;
        struct op *q = realloc(queue, cap * sizeof *q);
        if (!q) return ncclSystemError;
        queue = q;
        queue_cap = cap;
    }
    queue[queued++] = (struct op) {kind, send, recv, count, type, redop, peer, comm, 0};
    stream->clock_ns += FAKE_LAUNCH_NS + count;
    return group_depth == 0 ? run_queue() : ncclSuccess;
}

ncclResult_t ncclGroupStart(void) {
    fake_trace("ncclGroupStart");
    group_depth++;
    return ncclSuccess;
}

ncclResult_t ncclGroupEnd(void) {
    fake_trace("ncclGroupEnd");
    if (group_depth == 0) return ncclInvalidUsage;
    return --group_depth == 0 ? run_queue() : ncclSuccess;
}

ncclResult_t ncclAllReduce(const void *s, void *r, size_t count, int type, int op, ncclComm_t comm,
                           struct fake_stream *stream) {
    return enqueue(ALL_REDUCE, s, r, count, type, op, 0, comm, stream);
}

ncclResult_t ncclAllGather(const void *s, void *r, size_t count, int type, ncclComm_t comm,
                           struct fake_stream *stream) {
    return enqueue(ALL_GATHER, s, r, count, type, 0, 0, comm, stream);
}

ncclResult_t ncclReduceScatter(const void *s, void *r, size_t count, int type, int op, ncclComm_t comm,
                               struct fake_stream *stream) {
    return enqueue(REDUCE_SCATTER, s, r, count, type, op, 0, comm, stream);
}

ncclResult_t ncclBroadcast(const void *s, void *r, size_t count, int type, int root, ncclComm_t comm,
                           struct fake_stream *stream) {
    return enqueue(BROADCAST, s, r, count, type, 0, root, comm, stream);
}

ncclResult_t ncclReduce(const void *s, void *r, size_t count, int type, int op, int root, ncclComm_t comm,
                        struct fake_stream *stream) {
    return enqueue(REDUCE, s, r, count, type, op, root, comm, stream);
}

ncclResult_t ncclSend(const void *buf, size_t count, int type, int peer, ncclComm_t comm,
                      struct fake_stream *stream) {
    return enqueue(SEND, buf, NULL, count, type, 0, peer, comm, stream);
}

ncclResult_t ncclRecv(void *buf, size_t count, int type, int peer, ncclComm_t comm, struct fake_stream *stream) {
    return enqueue(RECV, NULL, buf, count, type, 0, peer, comm, stream);
}
