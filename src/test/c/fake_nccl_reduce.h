/* What fake_nccl.c needs from fake_nccl_reduce.c. */
#ifndef FAKE_NCCL_REDUCE_H
#define FAKE_NCCL_REDUCE_H

#include <stddef.h>
#include <stdint.h>

/* Bytes per element of an ncclDataType_t. */
size_t fake_type_size(int type);

/* out[i] = in[0][i] op in[1][i] op ... for count elements; avg is the sum divided by n. */
void fake_reduce_into(void *out, void *const *in, int n, size_t count, int type, int redop);

#endif
