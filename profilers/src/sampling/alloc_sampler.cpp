// SPDX-License-Identifier: MIT
// AllocationSampler: the allocator's hook, _Unwind_Backtrace into a mapped arena, and the
// stacks scaled to the exact bytes (see alloc_sampler.hpp).
#include "sampling/alloc_sampler.hpp"

#include "alloc_api.hpp"
#include "sampling/code_map.hpp"
#include "sampling/profile_builder.hpp"

#include <sys/mman.h>
#include <unwind.h>

#include <cstring>
#include <string_view>
#include <thread>

namespace cmh::profilers::sampling {
namespace {

constexpr std::size_t kArenaBytes = std::size_t{64} << 20;
constexpr std::size_t kMaxFrames = 128;

/// One record: [u32 frames][u32 unused][u64 bytes][frames x u64 ip].
struct Header {
  std::uint32_t frames;
  std::uint32_t unused;
  std::uint64_t bytes;
};

struct Capture {
  std::uint64_t ips[kMaxFrames];
  std::size_t n = 0;
};

_Unwind_Reason_Code on_unwind_frame(_Unwind_Context* context, void* arg) {
  auto& c = *static_cast<Capture*>(arg);
  if (c.n >= kMaxFrames) return _URC_END_OF_STACK;
  c.ips[c.n++] = _Unwind_GetIP(context);
  return _URC_NO_REASON;
}

}  // namespace

AllocationSampler::AllocationSampler(std::uint64_t every_bytes) : every_(every_bytes) {
  void* p = ::mmap(nullptr, kArenaBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p != MAP_FAILED) {
    arena_ = static_cast<std::byte*>(p);
    capacity_ = kArenaBytes;
  }
}

AllocationSampler::~AllocationSampler() {
  stop();
  if (arena_ != nullptr) ::munmap(arena_, capacity_);
}

std::optional<std::string> AllocationSampler::unavailable_reason() {
  const AllocatorApi& api = linked_allocator();
  if (cmh_alloc_set_sample_hook == nullptr || api.total_allocated_bytes == nullptr)
    return std::string("allocation sampling needs cmh's bundled allocator: ") + kAllocatorNotLinked;
  if (const char* foreign = foreign_allocator(api))
    return std::string("allocation sampling needs cmh's bundled allocator; this process runs on ") + foreign +
           " (-XX:Allocator)";
  return std::nullopt;
}

void AllocationSampler::on_sample(std::size_t, std::uint64_t bytes, void* self_arg) {
  auto& self = *static_cast<AllocationSampler*>(self_arg);
  self.inside_.fetch_add(1, std::memory_order_acq_rel);
  Capture c;
  _Unwind_Backtrace(&on_unwind_frame, &c);
  // The first frame is this function's own: the stack starts at its caller.
  const std::size_t skip = c.n > 0 ? 1 : 0;
  const std::size_t frames = c.n - skip;
  const std::size_t need = sizeof(Header) + frames * sizeof(std::uint64_t);
  const std::size_t at = self.used_.fetch_add(need, std::memory_order_relaxed);
  if (self.arena_ == nullptr || at + need > self.capacity_) {
    self.dropped_.fetch_add(1, std::memory_order_relaxed);
  } else {
    const Header h{static_cast<std::uint32_t>(frames), 0, bytes};
    std::memcpy(self.arena_ + at, &h, sizeof h);
    std::memcpy(self.arena_ + at + sizeof h, c.ips + skip, frames * sizeof(std::uint64_t));
  }
  self.inside_.fetch_sub(1, std::memory_order_acq_rel);
}

void AllocationSampler::start() {
  if (running_) return;
  running_ = true;
  window_start_bytes_ = linked_allocator().total_allocated_bytes();
  cmh_alloc_set_sample_hook(&AllocationSampler::on_sample, every_, this);
}

void AllocationSampler::stop() {
  if (!running_) return;
  cmh_alloc_set_sample_hook(nullptr, 0, nullptr);
  exact_bytes_ += linked_allocator().total_allocated_bytes() - window_start_bytes_;
  running_ = false;
  // A thread may still be inside the hook it entered before the hook was removed.
  while (inside_.load(std::memory_order_acquire) != 0) std::this_thread::yield();
}

void AllocationSampler::add_to(Profile& profile, ForkProfile& fork) const {
  fork.events.resize(1);
  EventSamples& into = fork.events[0];
  CodeMap map(profile);
  const std::size_t end = std::min(used_.load(std::memory_order_acquire), capacity_);
  std::uint64_t sampled = 0;
  struct Entry {
    Stack stack;
    std::uint64_t bytes;
  };
  std::vector<Entry> entries;
  for (std::size_t at = 0; at + sizeof(Header) <= end;) {
    Header h;
    std::memcpy(&h, arena_ + at, sizeof h);
    at += sizeof h;
    if (at + h.frames * sizeof(std::uint64_t) > end) break;
    Entry e{{}, h.bytes};
    for (std::uint32_t i = 0; i < h.frames && i < kMaxStackDepth; ++i) {
      std::uint64_t ip;
      std::memcpy(&ip, arena_ + at + i * sizeof ip, sizeof ip);
      e.stack.push_back(map.locate(ip - 1, false));  // return addresses: inside their call
    }
    at += h.frames * sizeof(std::uint64_t);
    sampled += h.bytes;
    entries.push_back(std::move(e));
  }
  // Scale to the exact total: the bytes before a thread's first sample and after its last
  // one in a window are counted by the allocator but carried by no stack.
  const double scale = sampled > 0 ? static_cast<double>(exact_bytes_) / static_cast<double>(sampled) : 0.0;
  for (const auto& e : entries) {
    const auto bytes = static_cast<std::uint64_t>(static_cast<double>(e.bytes) * scale + 0.5);
    into.stacks[e.stack].samples += 1;
    into.stacks[e.stack].period += bytes;
    if (!e.stack.empty()) {
      into.addresses[e.stack.front()].samples += 1;
      into.addresses[e.stack.front()].period += bytes;
    }
  }
  fork.dropped += dropped_.load();
}

}  // namespace cmh::profilers::sampling
