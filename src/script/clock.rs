//! The clock a script's time budget is kept by: the processor time of the thread running
//! it, with a wall-clock backstop.
//!
//! Wall-clock time depends on how busy the machine is: with nine programs sharing two cores,
//! two seconds by the clock gave a spinning thread 0.85 s of processor time, so a script an
//! idle machine accepts was refused on a loaded one. Processor time is what the script
//! itself used. A thread can use no more processor time than time passes, so the wall clock
//! (cheap to read) is read first, and the thread's processor time (a system call, about
//! 0.4 us here) only once the budget has passed by the clock. A call that has taken
//! [`WALL_CLOCK_FACTOR`] times its budget by the clock stops however little processor time
//! it used, so that a thread that is blocked, or starved of the processor, still ends.
//!
//! Where the system has no per-thread processor clock, the wall clock stands in for it.

use std::time::{Duration, Instant};

pub use crate::limits::WALL_CLOCK_FACTOR;

/// Why a clock has run out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Out {
    /// The thread used its budget of processor time.
    Processor,
    /// [`WALL_CLOCK_FACTOR`] times the budget passed by the clock.
    WallClock,
}

/// A budget of processor time started on this thread (check it on the same thread).
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    started: Instant,
    /// The thread's processor time when the clock started, if the system keeps one.
    processor_started: Option<Duration>,
    budget: Duration,
    /// Wall-clock time given besides (a player typing in real dice uses none of the budget).
    waited: Duration,
}

impl Clock {
    /// Starts a budget of `budget` of processor time.
    pub fn start(budget: Duration) -> Clock {
        Clock {
            started: Instant::now(),
            processor_started: thread_processor_time(),
            budget,
            waited: Duration::ZERO,
        }
    }

    /// Gives wall-clock time besides, time the call spent waiting rather than working.
    pub fn wait(&mut self, by: Duration) {
        self.waited = self.waited.saturating_add(by);
    }

    /// Whether the budget has run out, and which way.
    pub fn out(&self) -> Option<Out> {
        let wall = self.started.elapsed().saturating_sub(self.waited);
        if wall < self.budget {
            // No thread uses more processor time than passes: nothing else to read.
            return None;
        }
        if wall >= self.budget.saturating_mul(WALL_CLOCK_FACTOR) {
            return Some(Out::WallClock);
        }
        let used = match (self.processor_started, thread_processor_time()) {
            (Some(start), Some(now)) => now.saturating_sub(start),
            _ => wall,
        };
        (used >= self.budget).then_some(Out::Processor)
    }
}

/// The processor time this thread has used, where the system keeps it.
#[cfg(any(
    target_os = "linux",
    target_os = "android",
    target_os = "macos",
    target_os = "freebsd"
))]
pub fn thread_processor_time() -> Option<Duration> {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `clock_gettime` writes one `timespec` through the pointer, which points at a
    // live, writable `timespec` on this stack frame; it reads nothing else.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    (status == 0).then(|| {
        Duration::new(
            u64::try_from(now.tv_sec).unwrap_or(0),
            u32::try_from(now.tv_nsec).unwrap_or(0),
        )
    })
}

/// The processor time this thread has used, where the system keeps it (not here).
#[cfg(not(any(
    target_os = "linux",
    target_os = "android",
    target_os = "macos",
    target_os = "freebsd"
)))]
pub fn thread_processor_time() -> Option<Duration> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    // No timing is asserted: only that the clock reads and that a blocked thread's clock
    // runs out by the wall clock, not the processor's.
    #[test]
    fn a_thread_that_waits_uses_no_processor_time_and_is_stopped_by_the_wall_clock() {
        let clock = Clock::start(Duration::from_millis(5));
        assert_eq!(clock.out(), None);
        std::thread::sleep(Duration::from_millis(5) * WALL_CLOCK_FACTOR);
        // Sleeping, the thread used almost no processor time: only the backstop stops it.
        assert_eq!(clock.out(), Some(Out::WallClock));
        #[cfg(target_os = "linux")]
        assert!(thread_processor_time().is_some());
    }

    #[test]
    fn a_thread_that_works_runs_out() {
        let clock = Clock::start(Duration::from_millis(5));
        let mut spins = 0_u64;
        while clock.out().is_none() {
            spins = std::hint::black_box(spins + 1);
        }
        assert!(spins > 0);
    }

    #[test]
    fn time_spent_waiting_is_not_counted() {
        let mut clock = Clock::start(Duration::from_millis(5));
        std::thread::sleep(Duration::from_millis(5) * WALL_CLOCK_FACTOR);
        clock.wait(Duration::from_secs(3600));
        assert_eq!(clock.out(), None);
    }
}
