//! What the whole program holds, counted as it allocates, so that a script that fills the
//! memory by a way no store of the game counts (variables kept at the prompt or by a batch,
//! a map grown by index) is stopped before it takes the machine, and told so.
//!
//! The `sandtable` binary allocates through [`Counting`]; an embedder may do the same. Where
//! no program counts, [`in_use`] is `None` and nothing is refused on its account. The check
//! is made where the scripts' other limits are: as a call runs (the session's watch, which
//! `script::engine`'s progress callback asks) and when it ends (`Session::run_guarded`).
//!
//! Below every layer but `limits`, so that any layer may ask.

use std::alloc::{GlobalAlloc, Layout};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::limits::MAX_MEMORY_BYTES;

static IN_USE: AtomicUsize = AtomicUsize::new(0);

/// An allocator that counts the bytes in use of the one it wraps.
pub struct Counting<A>(pub A);

// SAFETY: every call is passed on unchanged to the allocator wrapped; the counts are only
// read, never used to allocate.
unsafe impl<A: GlobalAlloc> GlobalAlloc for Counting<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's layout is passed on unchanged.
        let ptr = unsafe { self.0.alloc(layout) };
        if !ptr.is_null() {
            IN_USE.fetch_add(layout.size(), Ordering::Relaxed);
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's layout is passed on unchanged.
        let ptr = unsafe { self.0.alloc_zeroed(layout) };
        if !ptr.is_null() {
            IN_USE.fetch_add(layout.size(), Ordering::Relaxed);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator with this layout.
        unsafe { self.0.dealloc(ptr, layout) };
        IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's pointer, layout and size are passed on unchanged.
        let new = unsafe { self.0.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            IN_USE.fetch_add(new_size, Ordering::Relaxed);
            IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
        }
        new
    }
}

/// The bytes the program holds, if it allocates through [`Counting`]: a program that does
/// holds something (its session, at least) whenever it asks, so nothing counted means
/// nothing counts.
pub fn in_use() -> Option<usize> {
    let held = IN_USE.load(Ordering::Relaxed);
    (held > 0).then_some(held)
}

/// Why a script must stop for the memory the program holds, if it must: past
/// [`MAX_MEMORY_BYTES`].
pub fn over_limit() -> Option<String> {
    let held = in_use()?;
    (held > MAX_MEMORY_BYTES).then(|| {
        format!(
            "the program holds more than {} MiB (`MAX_MEMORY_BYTES`): the scripts' values \
             (variables kept at the prompt, the maps and arrays they fill) took it there",
            MAX_MEMORY_BYTES >> 20
        )
    })
}
