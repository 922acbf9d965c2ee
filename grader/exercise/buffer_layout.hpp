// SPDX-License-Identifier: MIT
/// @file
/// @brief Where the part of a guarded buffer that a call uses lies (pure host code,
///        unit-tested without a GPU): DeviceMemory::use's arithmetic.
///
/// A buffer is a region of guarded memory: guard bytes, the data, guard bytes, and (in the
/// virtual-memory layout) an unmapped page right after the region. A timed call of a size
/// below the capacity (timed_sizes.hpp) uses a part laid out as a buffer of that size would
/// be: its start aligned, and it ends where the capacity rounded up to the alignment ends —
/// in the virtual-memory layout less than the alignment before the unmapped page — so a read
/// or write past the used size meets guard bytes and, soon after, the unmapped page.
#pragma once
#include <cstddef>
#include <stdexcept>

namespace grader {

/// The used part's place, in bytes from the start of the region.
struct UsedPart {
    size_t offset = 0;  ///< where its first byte lies; everything before it is front guard
    size_t back = 0;    ///< guard bytes between its end and the region's end
};

/// A part of `bytes` in a region of `region` bytes whose data, at full capacity, starts at
/// `start` (a multiple of `align`) and holds `capacity` bytes: it ends where a part of the
/// capacity rounded up to `align` would, and starts `align`-aligned. Throws
/// std::logic_error (a grader bug) when bytes exceed the capacity or the capacity the region.
inline UsedPart place_used_part(size_t region, size_t start, size_t capacity, size_t bytes, size_t align) {
    const auto round_up = [align](size_t x) { return (x + align - 1) / align * align; };
    if (bytes > capacity || start + capacity > region || start % align != 0)
        throw std::logic_error("grader bug: a used part that does not fit its buffer");
    const size_t end = start + round_up(capacity);  // where every used part ends, rounded up
    UsedPart p;
    p.offset = end - round_up(bytes);
    p.back = region - (p.offset + bytes);
    return p;
}

}  // namespace grader
