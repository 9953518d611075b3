// SPDX-License-Identifier: MIT
// Linux implementation of the OS primitives (see prim.hpp). Memory and NUMA calls go
// straight to the kernel through syscall(2) where libc would allocate or where libnuma
// would be needed; everything restores errno so that malloc never disturbs it.
#include "prim.hpp"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/mempolicy.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cstring>

extern char** environ;

namespace cmh::allocator::prim {
namespace {

// The kernel's node masks: 1024 bits is enough for any configured kernel (MAX_NUMNODES).
constexpr unsigned long kKernelNodeBits = 1024;
struct KernelNodeMask {
  unsigned long words[kKernelNodeBits / (8 * sizeof(unsigned long))] = {};
};

NodeMask fold(const KernelNodeMask& m) { return m.words[0]; }

class ErrnoGuard {
 public:
  ErrnoGuard() : saved_(errno) {}
  ~ErrnoGuard() { errno = saved_; }
  ErrnoGuard(const ErrnoGuard&) = delete;
  ErrnoGuard& operator=(const ErrnoGuard&) = delete;

 private:
  int saved_;
};

}  // namespace

void* reserve(size_t size, size_t align) {
  ErrnoGuard guard;
  size_t total = size + align;
  void* raw = mmap(nullptr, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  uintptr_t start = reinterpret_cast<uintptr_t>(raw);
  uintptr_t aligned = (start + align - 1) & ~(uintptr_t{align} - 1);
  if (aligned > start) munmap(raw, aligned - start);
  uintptr_t end = start + total, aligned_end = aligned + size;
  if (end > aligned_end) munmap(reinterpret_cast<void*>(aligned_end), end - aligned_end);
  return reinterpret_cast<void*>(aligned);
}

int commit(void* p, size_t size) {
  ErrnoGuard guard;
  return mprotect(p, size, PROT_READ | PROT_WRITE) == 0 ? 0 : errno;
}

int purge(void* p, size_t size) {
  ErrnoGuard guard;
  return madvise(p, size, MADV_DONTNEED) == 0 ? 0 : errno;
}

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14; older headers lack the name
#endif

int populate(void* p, size_t size) {
  ErrnoGuard guard;
  if (madvise(p, size, MADV_POPULATE_WRITE) == 0) return 0;
  if (errno != EINVAL) return errno;
  // A kernel before 5.14: write-fault every page with an atomic add of zero, which backs
  // it without changing a byte another thread may be reading or writing (a plain store of
  // zero would overwrite live blocks: the -Xms heap serves allocations from the start).
  const size_t page = os_page_size();
  auto* first = static_cast<char*>(p);
  for (size_t off = 0; off < size; off += page)
    __atomic_fetch_add(reinterpret_cast<uint64_t*>(first + off), 0, __ATOMIC_RELAXED);
  return 0;
}

void* map_zeroed(size_t size) {
  ErrnoGuard guard;
  void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                 -1, 0);
  return p == MAP_FAILED ? nullptr : p;
}

size_t resident_bytes(void* p, size_t size) {
  ErrnoGuard guard;
  const size_t page = os_page_size();
  unsigned char vec[512];
  size_t resident = 0;
  char* at = static_cast<char*>(p);
  while (size > 0) {
    size_t chunk = size < sizeof(vec) * page ? size : sizeof(vec) * page;
    if (mincore(at, chunk, vec) == 0) {
      size_t pages = (chunk + page - 1) / page;
      for (size_t i = 0; i < pages; ++i) resident += (vec[i] & 1) ? page : 0;
    }
    at += chunk;
    size -= chunk;
  }
  return resident;
}

size_t os_page_size() {
  static size_t cached = 0;
  if (cached == 0) {
    long v = sysconf(_SC_PAGESIZE);
    cached = v > 0 ? static_cast<size_t>(v) : 4096;
  }
  return cached;
}

int bind_to_node(void* p, size_t size, int node) {
  ErrnoGuard guard;
  KernelNodeMask mask;
  mask.words[node / 64] |= 1ul << (node % 64);
  // The kernel drops the last bit of maxnode (a historical off-by-one libnuma also works
  // around), hence + 1.
  long r = syscall(SYS_mbind, p, size, MPOL_BIND, mask.words, kKernelNodeBits + 1, 0u);
  return r == 0 ? 0 : errno;
}

int process_mempolicy(int* mode, NodeMask* nodes) {
  ErrnoGuard guard;
  KernelNodeMask mask;
  int m = 0;
  long r = syscall(SYS_get_mempolicy, &m, mask.words, kKernelNodeBits, nullptr, 0ul);
  if (r != 0) return errno;
  *mode = m;
  *nodes = fold(mask);
  return 0;
}

int mems_allowed(NodeMask* nodes) {
  ErrnoGuard guard;
  KernelNodeMask mask;
  long r = syscall(SYS_get_mempolicy, nullptr, mask.words, kKernelNodeBits, nullptr,
                   static_cast<unsigned long>(MPOL_F_MEMS_ALLOWED));
  if (r != 0) return errno;
  *nodes = fold(mask);
  return 0;
}

int range_policy(const void* p, int* mode, NodeMask* nodes) {
  ErrnoGuard guard;
  KernelNodeMask mask;
  int m = 0;
  long r = syscall(SYS_get_mempolicy, &m, mask.words, kKernelNodeBits, p,
                   static_cast<unsigned long>(MPOL_F_ADDR));
  if (r != 0) return errno;
  *mode = m;
  *nodes = fold(mask);
  return 0;
}

int node_of_page(const void* p, int* node) {
  ErrnoGuard guard;
  int n = -1;
  long r = syscall(SYS_get_mempolicy, &n, nullptr, 0ul, p,
                   static_cast<unsigned long>(MPOL_F_NODE | MPOL_F_ADDR));
  if (r != 0) return errno;
  *node = n;
  return 0;
}

int affinity(CpuSet* cpus) {
  ErrnoGuard guard;
  static_assert(sizeof(cpus->words) >= sizeof(cpu_set_t));
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return errno;
  *cpus = CpuSet{};
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) cpus->set(c);
  return 0;
}

int current_cpu() {
  ErrnoGuard guard;
  int cpu = sched_getcpu();
  return cpu < 0 ? 0 : cpu;
}

long read_file(const char* path, char* buf, size_t capacity) {
  ErrnoGuard guard;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  size_t length = 0;
  while (length + 1 < capacity) {
    ssize_t n = read(fd, buf + length, capacity - 1 - length);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    length += static_cast<size_t>(n);
  }
  close(fd);
  buf[length] = '\0';
  return static_cast<long>(length);
}

bool path_exists(const char* path) {
  ErrnoGuard guard;
  return access(path, F_OK) == 0;
}

const char* get_env(const char* name) {
  if (environ != nullptr) return getenv(name);
  // Before libc set up environ (a very early malloc from the dynamic loader), read the
  // exec-time environment from /proc. Static storage: this runs once, at start-up.
  static char values[2][4096];
  static int next = 0;
  ErrnoGuard guard;
  int fd = open("/proc/self/environ", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return nullptr;
  const size_t name_length = strlen(name);
  char chunk[4096];
  char entry[4096];
  size_t entry_length = 0;
  const char* found = nullptr;
  for (;;) {
    ssize_t n = read(fd, chunk, sizeof(chunk));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    for (ssize_t i = 0; i < n && !found; ++i) {
      if (chunk[i] != '\0') {
        if (entry_length + 1 < sizeof(entry)) entry[entry_length++] = chunk[i];
        continue;
      }
      entry[entry_length] = '\0';
      if (entry_length > name_length && memcmp(entry, name, name_length) == 0 &&
          entry[name_length] == '=') {
        char* slot = values[next++ % 2];
        memcpy(slot, entry + name_length + 1, entry_length - name_length);
        found = slot;
      }
      entry_length = 0;
    }
    if (found) break;
  }
  close(fd);
  return found;
}

void* find_symbol(const char* name) {
  ErrnoGuard guard;
  return dlsym(RTLD_DEFAULT, name);
}

void* find_next_symbol(const char* name) {
  ErrnoGuard guard;
  return dlsym(RTLD_NEXT, name);
}

const char* library_of(const void* p) {
  ErrnoGuard guard;
  Dl_info info;
  if (dladdr(p, &info) == 0 || info.dli_fname == nullptr) return nullptr;
  return info.dli_fname;
}

bool same_file(const char* a, const char* b) {
  ErrnoGuard guard;
  struct stat sa, sb;
  if (stat(a, &sa) != 0 || stat(b, &sb) != 0) return false;
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

bool regular_file(const char* path) {
  ErrnoGuard guard;
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

uint64_t monotonic_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000u + static_cast<uint64_t>(ts.tv_nsec);
}

void write_stderr(const char* text, size_t length) {
  ErrnoGuard guard;
  while (length > 0) {
    ssize_t n = write(2, text, length);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    text += n;
    length -= static_cast<size_t>(n);
  }
}

void yield() { sched_yield(); }

void abort_process() { abort(); }

const char* errno_name(int error) {
  switch (error) {
    case EPERM: return "EPERM (operation not permitted)";
    case ENOSYS: return "ENOSYS (not implemented by this kernel)";
    case EINVAL: return "EINVAL (invalid argument)";
    case ENOMEM: return "ENOMEM (out of memory)";
    case EFAULT: return "EFAULT (bad address)";
    case EIO: return "EIO (input/output error)";
    default: return "unexpected error";
  }
}

int create_thread_key(unsigned* key, void (*destructor)(void*)) {
  ErrnoGuard guard;
  pthread_key_t k;
  int r = pthread_key_create(&k, destructor);
  if (r == 0) *key = static_cast<unsigned>(k);
  return r;
}

void set_thread_key(unsigned key, void* value) {
  ErrnoGuard guard;
  pthread_setspecific(static_cast<pthread_key_t>(key), value);
}

int register_atfork(void (*prepare)(), void (*parent)(), void (*child)()) {
  ErrnoGuard guard;
  return pthread_atfork(prepare, parent, child);
}

namespace {
struct ThreadCall {
  void (*fn)(void*);
  void* arg;
};
void* thread_trampoline(void* p) {
  auto* call = static_cast<ThreadCall*>(p);
  call->fn(call->arg);
  return nullptr;
}
}  // namespace

int run_on_thread(const CpuSet& cpus, void (*fn)(void*), void* arg) {
  ErrnoGuard guard;
  ThreadCall call{fn, arg};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  if (!cpus.empty()) {
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (cpus.has(c)) CPU_SET(c, &set);
    pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
  }
  pthread_t thread;
  int r = pthread_create(&thread, &attr, thread_trampoline, &call);
  pthread_attr_destroy(&attr);
  if (r != 0) return r;
  return pthread_join(thread, nullptr);
}

}  // namespace cmh::allocator::prim
