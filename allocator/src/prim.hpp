// SPDX-License-Identifier: MIT
// The OS primitives: the only file pair of the allocator that talks to the kernel or
// to libc's OS wrappers (mmap, mprotect, madvise, mincore, mbind, get_mempolicy,
// sched_getaffinity, sysfs reads, clocks, stderr, pthread keys/atfork/threads).
// Nothing here allocates. Results come back through return values or out-parameters;
// failing calls return an errno value and leave the caller's errno unchanged.
#pragma once

#include "bits.hpp"
#include "config.hpp"

namespace cmh::allocator::prim {

// ---- Address space ----
/// Reserves `size` bytes aligned to `align` (a power of two), inaccessible (PROT_NONE, no
/// commit charge). nullptr on failure.
void* reserve(size_t size, size_t align);
/// Makes [p, p+size) readable and writable (commits it). 0 or errno.
int commit(void* p, size_t size);
/// Returns the physical memory behind [p, p+size) to the OS; it reads as zero afterwards.
int purge(void* p, size_t size);
/// Backs committed [p, p+size) with physical memory (write faults) without changing any byte
/// of it, so it is safe while other threads use that memory (MADV_POPULATE_WRITE, or an
/// atomic add of zero per page on kernels before 5.14). 0 or errno.
int populate(void* p, size_t size);
/// Fresh zeroed read-write memory for metadata (never returned). nullptr on failure.
void* map_zeroed(size_t size);
/// Bytes of [p, p+size) resident in RAM (mincore); p and size page-aligned.
size_t resident_bytes(void* p, size_t size);
size_t os_page_size();

// ---- NUMA and CPUs (raw syscalls: libnuma allocates, so it is never called from here) ----
/// Binds [p, p+size) to `node` (mbind MPOL_BIND) before first touch. 0 or errno.
int bind_to_node(void* p, size_t size, int node);
/// The calling process's memory policy (get_mempolicy): mode (MPOL_*) and its nodes. 0 or errno.
int process_mempolicy(int* mode, NodeMask* nodes);
/// Nodes the cpuset allows memory on (get_mempolicy MPOL_F_MEMS_ALLOWED). 0 or errno.
int mems_allowed(NodeMask* nodes);
/// Policy of the mapping that holds p (get_mempolicy MPOL_F_ADDR). 0 or errno.
int range_policy(const void* p, int* mode, NodeMask* nodes);
/// Node that currently backs the page at p (get_mempolicy MPOL_F_NODE|MPOL_F_ADDR). 0 or errno.
int node_of_page(const void* p, int* node);
/// CPUs the calling thread may run on (sched_getaffinity). 0 or errno.
int affinity(CpuSet* cpus);
/// CPU the calling thread runs on now (sched_getcpu, rseq-backed); 0 when unknown.
int current_cpu();

// ---- Files and environment ----
/// Reads a small file (sysfs, /proc) into buf, NUL-terminated. Length, or -1.
long read_file(const char* path, char* buf, size_t capacity);
bool path_exists(const char* path);
/// Value of an environment variable, or nullptr. Works before libc initialised environ
/// (falls back to /proc/self/environ, copied into static storage).
const char* get_env(const char* name);

/// Address of a function exported by a library already loaded in the process (dlsym
/// RTLD_DEFAULT), or nullptr.
void* find_symbol(const char* name);
/// The next definition of `name` after the caller's object (dlsym RTLD_NEXT), or nullptr.
void* find_next_symbol(const char* name);
/// The file name of the loaded object that holds address `p` (dladdr), or nullptr.
const char* library_of(const void* p);
/// True when paths a and b name the same file (device and inode, stat).
bool same_file(const char* a, const char* b);
/// True when `path` names an existing regular file (stat).
bool regular_file(const char* path);

// ---- Time, output, process ----
uint64_t monotonic_ns();
void write_stderr(const char* text, size_t length);
void yield();
[[noreturn]] void abort_process();
const char* errno_name(int error);

// ---- Threads ----
/// Creates the pthread key whose destructor runs at thread exit. 0 or errno.
int create_thread_key(unsigned* key, void (*destructor)(void*));
void set_thread_key(unsigned key, void* value);
/// pthread_atfork. 0 or errno.
int register_atfork(void (*prepare)(), void (*parent)(), void (*child)());
/// Runs fn(arg) on a new thread bound to `cpus` (if not empty) and joins it. 0 or errno.
int run_on_thread(const CpuSet& cpus, void (*fn)(void*), void* arg);

}  // namespace cmh::allocator::prim
