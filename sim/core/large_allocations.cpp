// The program's operator new and delete (every executable that links frac_sim: the sandbox, the bench, the
// calibrator, the tests): malloc and free as the C++ library's own, and an allocation of 2 MiB or more is advised onto
// transparent huge pages (madvise(MADV_HUGEPAGE) over its whole 2 MiB pages, before anything touches them). Debian,
// as most distributions, gives huge pages only to memory that asks ("madvise" in
// /sys/kernel/mm/transparent_hugepage/enabled), and a solver's arrays are std::vectors of up to gigabytes: a
// million-particle pd block's 5 GB of bonds and family slots cost 1.3 million page faults on 4 KiB pages, and the
// passes that gather from arrays larger than the TLB covers miss it more often. Measured on the 2-core VM (2026-12-07,
// docs/performance.md): bench_pd_block loads in about half the time, bench_bdem_block steps a few per cent faster;
// scenes of a few thousand elements, whose arrays are under 2 MiB, are as before. What is stored, and every bit a
// solver computes, is the same. (glibc's tunable glibc.malloc.hugetlb=1 does the same for every malloc, but only
// from the environment the program starts in.)
//
// Sanitizer builds keep the C++ library's operators: ASan and TSan replace them with their own checked ones.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>

#if defined(__linux__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#include <sys/mman.h>

namespace {

constexpr uintptr_t kHugePage = uintptr_t(2) << 20;  // x86-64's and arm64's transparent huge page (4 KiB base pages)

// The huge pages that lie wholly inside [memory, memory + bytes): the kernel may back them with huge pages from their
// first touch. Advice only: where huge pages are off, the memory stays on 4 KiB pages.
void adviseHugePages(void* memory, size_t bytes) {
  if (bytes < kHugePage) return;
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(memory) + kHugePage - 1) / kHugePage * kHugePage;
  const uintptr_t end = (reinterpret_cast<uintptr_t>(memory) + bytes) / kHugePage * kHugePage;
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

void* allocate(size_t bytes) {
  for (;;) {  // [new.delete.single]: on failure call the new handler and try again, or throw bad_alloc without one
    if (void* memory = std::malloc(bytes ? bytes : 1)) {
      adviseHugePages(memory, bytes);
      return memory;
    }
    const std::new_handler handler = std::get_new_handler();
    if (!handler) throw std::bad_alloc();
    handler();
  }
}

}  // namespace

// The array and nothrow forms are the single object's (as the C++ library's own are).
void* operator new(size_t bytes) { return allocate(bytes); }
void* operator new(size_t bytes, const std::nothrow_t&) noexcept {
  try {
    return allocate(bytes);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](size_t bytes) { return ::operator new(bytes); }
void* operator new[](size_t bytes, const std::nothrow_t& tag) noexcept { return ::operator new(bytes, tag); }
void operator delete(void* memory) noexcept { std::free(memory); }
void operator delete(void* memory, size_t) noexcept { ::operator delete(memory); }
void operator delete(void* memory, const std::nothrow_t&) noexcept { ::operator delete(memory); }
void operator delete[](void* memory) noexcept { ::operator delete(memory); }
void operator delete[](void* memory, size_t) noexcept { ::operator delete(memory); }
void operator delete[](void* memory, const std::nothrow_t&) noexcept { ::operator delete(memory); }

#endif
