// SPDX-License-Identifier: MIT
/// @file
/// @brief Lesson 07 contract: a large array goes from host memory through the GPU and back,
///        with the copies and the computation overlapped.
///
/// The student writes one launcher, the pipeline:
///
///     void run_pipeline(const float* host_in, float* host_out, float* dev_in, float* dev_out, size_t n);
///
/// - `host_in`: n floats (n ≥ 0) in pinned host memory, allocated by the grader with
///   cudaHostAlloc; const: the launcher must not modify them.
/// - `host_out`: n floats in pinned host memory. Once the launcher's work has finished,
///   `host_out[i]` holds the work's result for `host_in[i]`, for every i < n. Its contents on
///   entry are garbage (0xFF bytes).
/// - `dev_in`, `dev_out`: n floats each of device memory, allocated by the grader for the
///   launcher to use as it likes (contents on entry: garbage). Device memory of the
///   launcher's own is allowed too, allocated outside any loop over chunks.
/// - The work on the data is done by the grader's kernel only, through launch_work() below:
///   every element goes through exactly one launch_work() per call, from device memory
///   to device memory. Copies between host and device are the launcher's: cudaMemcpyAsync
///   on streams of its choice. Kernels of the student's own do not touch the data, and
///   nothing on the device reads or writes host memory directly (no zero-copy).
/// - The launcher may return before its work has finished, but every part of it must be
///   ordered before work issued later on the default stream: streams made by
///   cudaStreamCreate are (the default stream waits for them); a stream made with
///   cudaStreamNonBlocking must be joined before returning (an event recorded on it and
///   cudaStreamWaitEvent(0, event)). The grader waits for the device before it reads
///   `host_out`.
/// - Free to choose: the number of chunks and their sizes, the number of streams, the
///   order in which the operations are issued, events, CUDA graphs; streams and events
///   may be created once and kept between calls.
///
/// Limits: 0 ≤ n ≤ 2^26 (256 MiB each way, so every index and byte offset fits in an int);
/// the grader checks both ends.
///
/// Graded (exercise 07.1): `host_out` right for every element at every n from 0 to 300 (so
/// that any fixed chunk count up to there meets an n smaller than it and n just above its
/// multiples), sizes around and between powers of two, primes and a large size; then the
/// time of every call (each one verified in full), by the
/// host clock until the device is idle, at up to 2^26 floats (256 MiB each way; each
/// timed call up to 2^19 fewer, a count drawn for it), against the
/// serial time and the best pipelined time measured on this GPU in the same run (the
/// overlap efficiency, theory.md "The contract and how it is graded").
/// Host threads: a launcher may start threads, and must join them before it returns; a thread
/// or process of the submission still running after a call fails the exercise as
/// FAIL [outside] (docs/trust_model.md, "Nothing of the submission runs outside its calls").
/// Theory: lessons/07-streams/theory.md.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

/// @brief Exercise 07.1 — the pipeline: copy `host_in` to the device, run the work on it, copy
///        the results back to `host_out`, with copies and work overlapped.
void run_pipeline(const float* host_in, float* host_out, float* dev_in, float* dev_out, size_t n);

/// @brief The work, defined by the grader: enqueues on `stream` a kernel that sets
///        `out[j]` to the work's result for `in[j]`, for every j < count.
///
/// `in` and `out` must point to device memory (`dev_in`, `dev_out` or memory of the
/// launcher's own); host memory is refused and fails the exercise (theory.md, "Why not
/// zero-copy"). `count` may be 0 (nothing is enqueued). The result for an element depends
/// on its value and on a key the grader draws for each call, never on where the element
/// lies, so any chunking is right; the cost of an element does vary, in a region that
/// moves from call to call. The grader calibrates the kernel so that the work on the whole
/// array takes about as long as copying it one way.
/// (The grader's code is linked sealed, every symbol of it local but those its contract
/// headers declare visible, like this one: docs/trust_model.md.)
__attribute__((visibility("default"))) void launch_work(const float* in, float* out, size_t count, cudaStream_t stream);
