#pragma once
// Vectors whose resize(n) does not zero the new elements, for large arrays that are filled right
// after, in parallel. A value-initialising resize writes every byte on one thread first; with it the
// workers that fill the array also take its first-touch page faults, in parallel, and the
// sequential pass is gone. Only for arrays whose every element is written before it is read;
// assign(n, value) and resize(n, value) still fill as usual.
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace interflow {

template <class T>
struct DefaultInitAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() = default;
  template <class U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}  // NOLINT: allocators convert implicitly

  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

template <class T>
using FillLaterVector = std::vector<T, DefaultInitAllocator<T>>;

}  // namespace interflow
