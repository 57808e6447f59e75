// FRACTURE_THROW_TRACE=1: every C++ exception thrown in the GPU suite first prints where it was thrown (the call
// stack as offsets into each loaded file), so a failure seen only on a GPU machine, where no debugger is installed,
// can be located afterwards with `addr2line -f -C -e FILE OFFSET` against the carried binary. It wraps the C++
// runtime's __cxa_throw (found with dlsym(RTLD_NEXT)); without the variable it only forwards.
#include <dlfcn.h>
#include <execinfo.h>

#include <cstdio>
#include <cstdlib>
#include <typeinfo>

extern "C" [[noreturn]] void __cxa_throw(void* object, std::type_info* type, void (*destroy)(void*)) {
  using Throw = void (*)(void*, std::type_info*, void (*)(void*));
  static const Throw next = reinterpret_cast<Throw>(dlsym(RTLD_NEXT, "__cxa_throw"));
  static const bool trace = std::getenv("FRACTURE_THROW_TRACE") != nullptr;
  if (trace) {
    void* frames[48];
    const int count = backtrace(frames, 48);
    std::fprintf(stderr, "exception thrown (%s), stack:\n", type ? type->name() : "?");
    for (int k = 1; k < count; ++k) {
      Dl_info info{};
      if (dladdr(frames[k], &info) && info.dli_fname)
        std::fprintf(stderr, "  %s +0x%lx\n", info.dli_fname,
                     static_cast<unsigned long>(static_cast<char*>(frames[k]) - static_cast<char*>(info.dli_fbase)));
      else
        std::fprintf(stderr, "  %p\n", frames[k]);
    }
  }
  next(object, type, destroy);
  std::abort();  // not reached
}
