// SPDX-License-Identifier: MIT
// WindowSampler: opening the sampling events per thread, their ring buffers, the
// drain thread, and switching them on and off (see sampler.hpp).
#include "sampling/sampler.hpp"

#include <cmh/profilers/perf_events.hpp>

#include <linux/perf_event.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <asm/perf_regs.h>
#endif

#include <dirent.h>
#include <fcntl.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace cmh::profilers::sampling {
namespace {

constexpr std::uint64_t kBaseSampleType =
    PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD;

/// Every thread's buffer: 2^n data pages. A dwarf sample is ~8.5 KiB, an ip-only one 40 bytes.
constexpr std::size_t kDataPagesPlain = 16;
constexpr std::size_t kDataPagesStacks = 64;

/// The user registers libdw needs to start unwinding on x86-64 (DWARF 0..16).
std::uint64_t user_regs_mask() {
#if defined(__x86_64__)
  std::uint64_t mask = 0;
  for (int r : {PERF_REG_X86_AX, PERF_REG_X86_BX, PERF_REG_X86_CX, PERF_REG_X86_DX, PERF_REG_X86_SI,
                PERF_REG_X86_DI, PERF_REG_X86_BP, PERF_REG_X86_SP, PERF_REG_X86_IP, PERF_REG_X86_R8,
                PERF_REG_X86_R9, PERF_REG_X86_R10, PERF_REG_X86_R11, PERF_REG_X86_R12, PERF_REG_X86_R13,
                PERF_REG_X86_R14, PERF_REG_X86_R15})
    mask |= std::uint64_t{1} << r;
  return mask;
#else
  return 0;
#endif
}

long page_size() { return ::sysconf(_SC_PAGESIZE); }

int gettid_() { return static_cast<int>(::syscall(SYS_gettid)); }

perf_event_attr make_attr(const SampledEvent& event, const SamplerConfig& config, std::uint64_t sample_type,
                          std::uint64_t regs_mask, bool exclude_kernel, int precise, std::size_t data_bytes) {
  perf_event_attr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.type = event.type;
  attr.config = event.config;
  attr.sample_freq = static_cast<std::uint64_t>(config.frequency);
  attr.freq = 1;
  attr.sample_type = sample_type;
  attr.disabled = 1;
  attr.exclude_hv = 1;
  attr.exclude_kernel = exclude_kernel ? 1 : 0;
  attr.exclude_callchain_kernel = 1;  // the user stack is what is folded; a kernel leaf is one frame
  attr.precise_ip = static_cast<std::uint64_t>(precise);
  attr.watermark = 1;
  attr.wakeup_watermark = static_cast<std::uint32_t>(data_bytes / 2);
  if (config.stacks == StackMode::dwarf) {
    attr.sample_regs_user = regs_mask;
    attr.sample_stack_user = config.stack_bytes;
  }
  return attr;
}

int perf_open(perf_event_attr& attr, int tid) {
  return static_cast<int>(::syscall(SYS_perf_event_open, &attr, tid, -1, -1, PERF_FLAG_FD_CLOEXEC));
}

/// Calls `visit(tid)` for every thread of the process but `skip`, the calling thread
/// first. getdents64 into a buffer on the stack: no allocation (sampler.hpp says why).
template <class Visit>
void for_each_thread(int skip, Visit&& visit) {
  const int self = gettid_();
  visit(self);
  const int dir = ::open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return;
  alignas(8) char buf[4096];
  for (;;) {
    const long n = ::syscall(SYS_getdents64, dir, buf, sizeof buf);
    if (n <= 0) break;
    for (long at = 0; at < n;) {
      const auto* entry = reinterpret_cast<const dirent64*>(buf + at);
      at += entry->d_reclen;
      const int tid = std::atoi(entry->d_name);
      if (tid > 0 && tid != self && tid != skip) visit(tid);
    }
  }
  ::close(dir);
}

}  // namespace

const std::vector<SampledEvent>& sampled_event_table() {
  static const std::vector<SampledEvent> table = [] {
    std::vector<SampledEvent> out;
    for (const auto& e : perf_event_table()) {
      const std::string name = e.name;
      const std::string unit = name == "cycles" ? "cycles" : name == "task-clock" ? "ns" : "events";
      out.push_back({name, e.type, e.config, e.hardware, unit});
    }
    out.push_back({"cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, false, "ns"});
    return out;
  }();
  return table;
}

const SampledEvent* find_sampled_event(std::string_view name) {
  for (const auto& e : sampled_event_table())
    if (e.name == name) return &e;
  return nullptr;
}

RecordArena::RecordArena(std::size_t capacity) : capacity_(capacity) {
  // Reserved, not committed: pages are backed as records are written.
  void* base = ::mmap(nullptr, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (base == MAP_FAILED) {
    capacity_ = 0;
  } else {
    base_ = static_cast<std::byte*>(base);
  }
}

RecordArena::~RecordArena() {
  if (base_ != nullptr) ::munmap(base_, capacity_);
}

std::byte* RecordArena::append(std::size_t n) {
  if (base_ == nullptr || used_ + n > capacity_) return nullptr;
  std::byte* at = base_ + used_;
  used_ += n;
  return at;
}

WindowSampler::WindowSampler(SamplerConfig config) : config_(std::move(config)), arena_(config_.max_bytes) {
  if (config_.events.size() > kMaxEvents) config_.events.resize(kMaxEvents);
  sample_type_ = kBaseSampleType;
  if (config_.stacks == StackMode::frame_pointers) sample_type_ |= PERF_SAMPLE_CALLCHAIN;
  if (config_.stacks == StackMode::dwarf) {
    regs_mask_ = user_regs_mask();
    sample_type_ |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
  }
  data_pages_ = config_.stacks == StackMode::dwarf            ? kDataPagesStacks
                : config_.stacks == StackMode::frame_pointers ? kDataPagesStacks / 2
                                                              : kDataPagesPlain;
  rings_.resize(kMaxThreads);
  wake_fd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  drainer_ = std::thread([this] { drain_loop(); });
  // attach_threads() must know the drain thread's id to leave it without events.
  while (drainer_tid_.load() == 0) std::this_thread::yield();
}

WindowSampler::~WindowSampler() {
  stop();
  {
    std::lock_guard lock(park_mutex_);
    exit_ = true;
  }
  park_cv_.notify_all();
  if (drainer_.joinable()) drainer_.join();
  for (std::size_t i = 0; i < ring_count_; ++i) close_ring(rings_[i]);
  if (wake_fd_ >= 0) ::close(wake_fd_);
}

void WindowSampler::close_ring(Ring& ring) {
  if (ring.base != nullptr) ::munmap(ring.base, ring.map_bytes);
  for (std::size_t i = 0; i < ring.fd_count; ++i) ::close(ring.fds[i]);
  ring.fd_count = 0;
  ring.base = nullptr;
}

std::optional<std::string> WindowSampler::open_ring(int tid, Ring& ring) {
  ring = Ring{};
  ring.tid = tid;
  const auto page = static_cast<std::size_t>(page_size());
  std::array<std::uint64_t, kMaxEvents> ids{};
  for (std::size_t e = 0; e < config_.events.size(); ++e) {
    const SampledEvent& event = config_.events[e];
    std::size_t pages = data_pages_;
    // Hardware events try precise_ip 2 (PEBS, IBS: little skid) first; the kernel says
    // EINVAL/EOPNOTSUPP where there is none.
    int precise = event.hardware ? (id_count_ == 0 || precise_ ? 2 : 0) : 0;
    int fd = -1;
    for (;;) {
      perf_event_attr attr = make_attr(event, config_, sample_type_, regs_mask_, user_only_, precise, pages * page);
      fd = perf_open(attr, tid);
      if (fd >= 0) break;
      const int err = errno;
      if ((err == EACCES || err == EPERM) && !user_only_) {
        user_only_ = true;  // kernel.perf_event_paranoid >= 2: user space only, for every thread
        continue;
      }
      if ((err == EINVAL || err == EOPNOTSUPP) && precise > 0) {
        --precise;
        continue;
      }
      close_ring(ring);
      return explain_perf_open_error(err, event.hardware);
    }
    if (event.hardware && precise > 0) precise_ = true;
    ring.fds[ring.fd_count++] = fd;
    if (e == 0) {
      // The buffer counts against perf_event_mlock_kb (and RLIMIT_MEMLOCK beyond it):
      // a smaller one is better than none.
      for (;;) {
        const std::size_t bytes = (pages + 1) * page;
        void* base = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (base != MAP_FAILED) {
          ring.base = base;
          ring.map_bytes = bytes;
          ring.data_bytes = pages * page;
          break;
        }
        const int err = errno;
        if ((err == EPERM || err == ENOMEM) && pages > 1) {
          pages /= 2;
          continue;
        }
        close_ring(ring);
        return std::string("cannot map a sampling buffer: ") + std::strerror(err) +
               " (kernel.perf_event_mlock_kb and ulimit -l limit it)";
      }
    } else if (::ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, ring.fds[0]) != 0) {
      const int err = errno;
      close_ring(ring);
      return std::string("cannot share a sampling buffer between events: ") + std::strerror(err);
    }
    if (::ioctl(fd, PERF_EVENT_IOC_ID, &ids[e]) != 0) {
      const int err = errno;
      close_ring(ring);
      return std::string("cannot identify a sampling event: ") + std::strerror(err);
    }
  }
  for (std::size_t e = 0; e < config_.events.size() && id_count_ < ids_.size(); ++e) {
    ids_[id_count_] = ids[e];
    id_events_[id_count_++] = static_cast<std::uint8_t>(e);
  }
  return std::nullopt;
}

std::optional<std::string> WindowSampler::probe(const SamplerConfig& config) {
  SamplerConfig small = config;
  small.max_bytes = 1 << 16;
  WindowSampler sampler(small);
  Ring ring;
  auto reason = sampler.open_ring(0, ring);
  close_ring(ring);
  return reason;
}

std::optional<std::string> WindowSampler::attach_threads() {
  std::optional<std::string> refused;
  bool calling_thread = true;
  for_each_thread(drainer_tid_.load(), [&](int tid) {
    const bool first = calling_thread;
    calling_thread = false;
    if (refused || ring_count_ >= rings_.size()) return;
    for (std::size_t i = 0; i < ring_count_; ++i)
      if (rings_[i].tid == tid) return;
    if (auto reason = open_ring(tid, rings_[ring_count_])) {
      // The calling thread comes first: if it cannot be sampled, nothing can. Another
      // thread may have ended since /proc/self/task was read (ESRCH): skip it.
      if (first && ring_count_ == 0) refused = std::move(reason);
      return;
    }
    ++ring_count_;
  });
  return refused;
}

int WindowSampler::event_of_id(std::uint64_t id) const {
  for (std::size_t i = 0; i < id_count_; ++i)
    if (ids_[i] == id) return id_events_[i];
  return -1;
}

void WindowSampler::start() {
  {
    std::lock_guard lock(park_mutex_);
    if (want_polling_) return;
    want_polling_ = true;
    keep_polling_.store(true);
  }
  park_cv_.notify_all();
  for (std::size_t i = 0; i < ring_count_; ++i)
    for (std::size_t e = 0; e < rings_[i].fd_count; ++e) ::ioctl(rings_[i].fds[e], PERF_EVENT_IOC_ENABLE, 0);
}

void WindowSampler::stop() {
  for (std::size_t i = 0; i < ring_count_; ++i)
    for (std::size_t e = 0; e < rings_[i].fd_count; ++e) ::ioctl(rings_[i].fds[e], PERF_EVENT_IOC_DISABLE, 0);
  {
    std::unique_lock lock(park_mutex_);
    if (!want_polling_) return;
    want_polling_ = false;
    keep_polling_.store(false);
    const std::uint64_t one = 1;
    [[maybe_unused]] const auto written = ::write(wake_fd_, &one, sizeof one);
    park_cv_.wait(lock, [this] { return !polling_; });
  }
  std::lock_guard lock(mutex_);
  for (std::size_t i = 0; i < ring_count_; ++i) drain(rings_[i], i);
}

void WindowSampler::drain_loop() {
  drainer_tid_.store(gettid_());
  std::array<pollfd, kMaxThreads + 1> fds{};
  std::unique_lock park(park_mutex_);
  for (;;) {
    park_cv_.wait(park, [this] { return want_polling_ || exit_; });
    if (exit_) return;
    polling_ = true;
    const std::size_t rings = ring_count_;
    park.unlock();
    fds[0] = {wake_fd_, POLLIN, 0};
    for (std::size_t i = 0; i < rings; ++i) fds[i + 1] = {rings_[i].ended ? -1 : rings_[i].fds[0], POLLIN, 0};
    while (keep_polling_.load()) {
      if (::poll(fds.data(), rings + 1, -1) < 0) {
        if (errno == EINTR) continue;
        break;
      }
      if (fds[0].revents != 0) {  // stop(), or a write left from an earlier one
        std::uint64_t count = 0;
        while (::read(wake_fd_, &count, sizeof count) > 0) {
        }
        continue;
      }
      std::lock_guard lock(mutex_);
      for (std::size_t i = 0; i < rings; ++i) {
        if (fds[i + 1].revents == 0) continue;
        drain(rings_[i], i);
        if (fds[i + 1].revents & (POLLHUP | POLLERR)) {
          rings_[i].ended = true;
          fds[i + 1].fd = -1;
        }
      }
    }
    park.lock();
    polling_ = false;
    park_cv_.notify_all();
  }
}

void WindowSampler::drain(Ring& ring, std::size_t index) {
  if (ring.base == nullptr) return;
  auto* meta = static_cast<perf_event_mmap_page*>(ring.base);
  const std::uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
  std::uint64_t tail = meta->data_tail;
  const std::size_t offset = meta->data_offset != 0 ? meta->data_offset : static_cast<std::size_t>(page_size());
  const std::size_t size = meta->data_size != 0 ? meta->data_size : ring.data_bytes;
  const auto* data = static_cast<const std::byte*>(ring.base) + offset;
  while (tail < head) {
    const std::size_t at = tail % size;
    perf_event_header header;
    std::memcpy(&header, data + at, sizeof header);  // records are 8-aligned: a header never wraps
    if (header.size < sizeof header) break;          // corrupt: leave the rest
    const std::byte* record = data + at;
    if (at + header.size > size) {  // the body wraps around the end of the buffer
      const std::size_t first = size - at;
      std::memcpy(wrap_.data(), data + at, first);
      std::memcpy(wrap_.data() + first, data, header.size - first);
      record = wrap_.data();
    }
    if (header.type == PERF_RECORD_SAMPLE) {
      const std::size_t slot = (header.size + 8 + 7) & ~std::size_t{7};
      if (std::byte* out = arena_.append(slot)) {
        const std::uint32_t prefix[2] = {static_cast<std::uint32_t>(index), header.size};
        std::memcpy(out, prefix, sizeof prefix);
        std::memcpy(out + sizeof prefix, record, header.size);
      } else {
        ++dropped_;
      }
    } else if (header.type == PERF_RECORD_LOST) {
      std::uint64_t words[2] = {0, 0};  // id, lost
      if (header.size >= sizeof header + sizeof words) {
        std::memcpy(words, record + sizeof header, sizeof words);
        lost_ += words[1];
      }
    } else if (header.type == PERF_RECORD_THROTTLE) {
      ++throttled_;
    }
    tail += header.size;
  }
  __atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
}

}  // namespace cmh::profilers::sampling
