// SPDX-License-Identifier: MIT
// WindowSampler: perf_event_open sampling of this process's threads, one event set
// and ring buffer per thread, switched on and off by the caller around exactly the
// code it wants seen (the measurement iterations: SamplingProfiler).
//
// Why per thread and not inherit: the kernel refuses mmap() of an inherited per-task
// event, so every thread gets its own events (pid = tid, cpu = -1). Threads are listed
// from /proc/self/task each time attach_threads() runs; a thread created and ended
// inside one iteration is not seen (docs/profiling.md says so).
//
// The ring buffers are small (the kernel charges them against perf_event_mlock_kb and
// RLIMIT_MEMLOCK), so while sampling a drain thread copies records out (it wakes when a
// buffer is half full; it has no events of its own). Records are kept raw, in memory
// mapped here rather than taken from the allocator, and decoded after the trial
// (sample_decoder.hpp): between start() and stop(), and in attach_threads() once the
// sampler exists, nothing calls malloc, so -prof alloc next to it counts no byte of it.
#pragma once

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace cmh::profilers::sampling {

/// An event the sampler can sample on, as the user names it.
struct SampledEvent {
  std::string name;  ///< "cycles", "cpu-clock", ...
  std::uint32_t type = 0;
  std::uint64_t config = 0;
  bool hardware = false;
  /// What one unit of the sample period is: "cycles", "ns" (the clocks), or "events".
  std::string period_unit;
};

/// The events sampling knows: every -prof perf event, plus cpu-clock.
const std::vector<SampledEvent>& sampled_event_table();
const SampledEvent* find_sampled_event(std::string_view name);

enum class StackMode {
  none,            ///< the sampled instruction only (perfasm)
  frame_pointers,  ///< the kernel walks the user stack's frame pointers
  dwarf,           ///< a copy of the user stack and registers, unwound later with CFI
};

struct SamplerConfig {
  std::vector<SampledEvent> events;  ///< the first one ranks; 1..kMaxEvents
  int frequency = 1000;              ///< samples per second of each thread's event time
  StackMode stacks = StackMode::none;
  std::uint32_t stack_bytes = 8192;  ///< dwarf: bytes of user stack copied per sample
  /// Raw record bytes kept in all before samples are dropped (counted, reported).
  std::size_t max_bytes = std::size_t{512} << 20;
};

inline constexpr std::size_t kMaxEvents = 8;
inline constexpr std::size_t kMaxThreads = 256;

/// Memory for raw records, mapped (not malloc'ed) and committed as it fills.
class RecordArena {
 public:
  explicit RecordArena(std::size_t capacity);
  ~RecordArena();
  RecordArena(const RecordArena&) = delete;
  RecordArena& operator=(const RecordArena&) = delete;
  /// Room for `n` more bytes, or nullptr when full.
  std::byte* append(std::size_t n);
  const std::byte* data() const { return base_; }
  std::size_t size() const { return used_; }
  void clear() { used_ = 0; }

 private:
  std::byte* base_ = nullptr;
  std::size_t capacity_ = 0;
  std::size_t used_ = 0;
};

class WindowSampler {
 public:
  explicit WindowSampler(SamplerConfig config);
  ~WindowSampler();
  WindowSampler(const WindowSampler&) = delete;
  WindowSampler& operator=(const WindowSampler&) = delete;

  /// Probes whether the events can be sampled on the calling thread with these
  /// settings; nullopt, or one line saying why not (permissions, no PMU, ...).
  static std::optional<std::string> probe(const SamplerConfig& config);

  /// Opens the events (disabled) on every thread of the process that has none yet.
  /// nullopt, or why not when not even the calling thread could be given them. Call
  /// while stopped.
  std::optional<std::string> attach_threads();

  /// Enables every event and lets the drain thread poll / disables them, parks the
  /// drain thread and copies what is left in the buffers.
  void start();
  void stop();

  /// The records: [u32 thread index][u32 size][perf record], 8-aligned.
  const RecordArena& records() const { return arena_; }
  void clear_records() { arena_.clear(); }

  std::uint64_t sample_type() const { return sample_type_; }
  std::uint64_t regs_mask() const { return regs_mask_; }
  /// Which event of config().events a record belongs to, by its PERF_SAMPLE_IDENTIFIER.
  int event_of_id(std::uint64_t id) const;
  const SamplerConfig& config() const { return config_; }
  /// true when the kernel refused kernel-mode samples and only user space is sampled.
  bool user_only() const { return user_only_; }
  /// true when a hardware event was opened with precise_ip (PEBS/IBS: little skid).
  bool precise() const { return precise_; }
  std::size_t thread_count() const { return ring_count_; }
  std::uint64_t lost() const { return lost_; }            ///< PERF_RECORD_LOST totals
  std::uint64_t throttled() const { return throttled_; }  ///< PERF_RECORD_THROTTLE records
  std::uint64_t dropped() const { return dropped_; }      ///< samples past max_bytes

 private:
  struct Ring {
    int tid = 0;
    std::array<int, kMaxEvents> fds{};  ///< fds[0] owns the buffer, the others write into it
    std::size_t fd_count = 0;
    void* base = nullptr;
    std::size_t map_bytes = 0;
    std::size_t data_bytes = 0;
    bool ended = false;  ///< the thread exited: poll reports it forever
  };

  std::optional<std::string> open_ring(int tid, Ring& ring);
  void drain(Ring& ring, std::size_t index);  ///< caller holds mutex_
  void drain_loop();
  static void close_ring(Ring& ring);

  SamplerConfig config_;
  std::uint64_t sample_type_ = 0;
  std::uint64_t regs_mask_ = 0;
  std::size_t data_pages_ = 16;
  bool user_only_ = false;
  bool precise_ = false;
  std::array<std::uint64_t, kMaxEvents * kMaxThreads> ids_{};
  std::array<std::uint8_t, kMaxEvents * kMaxThreads> id_events_{};
  std::size_t id_count_ = 0;
  std::vector<Ring> rings_;  ///< kMaxThreads, reserved at construction
  std::size_t ring_count_ = 0;
  RecordArena arena_;
  std::array<std::byte, 65536> wrap_{};  ///< a record that wraps around a buffer's end
  std::mutex mutex_;                     ///< the arena and the rings' tails while draining
  // The drain thread: parked until start(), polling the rings until stop().
  std::thread drainer_;
  std::mutex park_mutex_;
  std::condition_variable park_cv_;
  bool want_polling_ = false;  ///< guarded by park_mutex_
  bool polling_ = false;       ///< guarded by park_mutex_
  bool exit_ = false;          ///< guarded by park_mutex_
  std::atomic<bool> keep_polling_{false};
  int wake_fd_ = -1;           ///< an eventfd that interrupts the drain thread's poll
  std::atomic<int> drainer_tid_{0};
  std::uint64_t lost_ = 0;
  std::uint64_t throttled_ = 0;
  std::uint64_t dropped_ = 0;
};

}  // namespace cmh::profilers::sampling
