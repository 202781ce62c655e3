//! The clock a script's time budget is kept by: the processor time of the thread running
//! it, with a backstop for a thread that is blocked.
//!
//! Wall-clock time depends on how busy the machine is: with nine programs sharing two cores,
//! two seconds by the clock gave a spinning thread 0.85 s of processor time, so a script an
//! idle machine accepts was refused on a loaded one. Processor time is what the script
//! itself used. A thread can use no more processor time than time passes, so the wall clock
//! (cheap to read) is read first, and the thread's processor time (a system call, about
//! 0.4 us here) only once the budget has passed by the clock.
//!
//! The backstop stops a thread that is blocked (waiting on something, not for a core) for
//! [`WALL_CLOCK_FACTOR`] times its budget, however little processor time it used. A thread
//! that is runnable but waits its turn for a core is not blocked: on Linux the kernel counts
//! that wait (`/proc/thread-self/schedstat`: time on a core, time waiting on a run queue), and
//! time blocked is the wall clock's time less both. The wait is counted from the first look,
//! when the budget has passed by the clock; before it, all time off a core counts as blocked,
//! so a blocked thread is stopped no later than before. A runnable thread is stopped in any
//! case after [`MAX_WALL_FACTOR`] times its budget by the clock (120 seconds for 2): so a busy
//! machine refuses no script an idle one accepts while the script's thread gets at least a
//! sixtieth of a core, for example 16 busy programs beside it on two cores
//! (`docs/security.md`). Where the system keeps no such count, every moment off a core is
//! taken as blocked, and the backstop is [`WALL_CLOCK_FACTOR`] times the budget by the clock.
//!
//! Where the system has no per-thread processor clock, the wall clock stands in for it.

use std::time::{Duration, Instant};

pub use crate::limits::{MAX_WALL_FACTOR, WALL_CLOCK_FACTOR};

/// Why a clock has run out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Out {
    /// The thread used its budget of processor time.
    Processor,
    /// The thread was blocked [`WALL_CLOCK_FACTOR`] times the budget, or
    /// [`MAX_WALL_FACTOR`] times the budget passed by the clock.
    WallClock,
}

/// What the scheduler says of this thread: time on a core, and time runnable but waiting
/// for one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sched {
    /// Time spent running on a core.
    pub on_cpu: Duration,
    /// Time spent waiting on a run queue for a core.
    pub waiting: Duration,
}

/// The first look at the scheduler's counts, once the budget had passed by the clock.
#[derive(Clone, Copy, Debug)]
struct Look {
    /// Wall-clock time since the start (less the time given), at the look.
    wall: Duration,
    /// Processor time used since the start, at the look.
    used: Duration,
    sched: Sched,
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
    /// The first look at the scheduler, if one was taken and the system keeps its counts.
    look: Option<Look>,
    /// Whether the first look was taken (it may have found no counts).
    looked: bool,
}

impl Clock {
    /// Starts a budget of `budget` of processor time.
    pub fn start(budget: Duration) -> Clock {
        Clock {
            started: Instant::now(),
            processor_started: thread_processor_time(),
            budget,
            waited: Duration::ZERO,
            look: None,
            looked: false,
        }
    }

    /// Gives wall-clock time besides, time the call spent waiting rather than working.
    pub fn wait(&mut self, by: Duration) {
        self.waited = self.waited.saturating_add(by);
    }

    /// Whether the budget has run out, and which way. The first call after the budget has
    /// passed by the clock takes a look at the scheduler's counts, kept for later calls.
    pub fn out(&mut self) -> Option<Out> {
        let wall = self.started.elapsed().saturating_sub(self.waited);
        if wall < self.budget {
            // No thread uses more processor time than passes: nothing else to read.
            return None;
        }
        let used = match (self.processor_started, thread_processor_time()) {
            (Some(start), Some(now)) => now.saturating_sub(start),
            _ => wall,
        };
        if used >= self.budget {
            return Some(Out::Processor);
        }
        if !self.looked {
            self.looked = true;
            self.look = thread_sched().map(|sched| Look { wall, used, sched });
        }
        if wall < self.budget.saturating_mul(WALL_CLOCK_FACTOR) {
            // Not blocked long enough yet, whatever the counts say.
            return None;
        }
        let now = self.look.and_then(|_| thread_sched());
        blocked_out(self.budget, wall, used, self.look.zip(now)).then_some(Out::WallClock)
    }
}

/// Whether a thread whose budget is `budget`, `wall` into its call with `used` of processor
/// time, must stop: blocked [`WALL_CLOCK_FACTOR`] times its budget, or [`MAX_WALL_FACTOR`]
/// times it by the clock. `looks` is the first look at the scheduler's counts and their value
/// now, where the system keeps them; without them, all time off a core is blocked.
fn blocked_out(
    budget: Duration,
    wall: Duration,
    used: Duration,
    looks: Option<(Look, Sched)>,
) -> bool {
    if wall >= budget.saturating_mul(MAX_WALL_FACTOR) {
        return true;
    }
    let blocked = match looks {
        // Before the look, all time off a core; since, what is neither on a core nor
        // waiting for one.
        Some((look, now)) => {
            let before = look.wall.saturating_sub(look.used);
            let since = wall
                .saturating_sub(look.wall)
                .saturating_sub(now.on_cpu.saturating_sub(look.sched.on_cpu))
                .saturating_sub(now.waiting.saturating_sub(look.sched.waiting));
            before.saturating_add(since)
        }
        None => wall.saturating_sub(used),
    };
    blocked >= budget.saturating_mul(WALL_CLOCK_FACTOR)
}

/// What the scheduler says of this thread, where the system keeps it (Linux's
/// `/proc/thread-self/schedstat`: nanoseconds on a core, nanoseconds waiting, time slices).
/// Read at most every few milliseconds: the backstop needs no finer a view.
#[cfg(target_os = "linux")]
pub fn thread_sched() -> Option<Sched> {
    use std::cell::Cell;
    const FRESH: Duration = Duration::from_millis(5);
    thread_local! {
        static LAST: Cell<Option<(Instant, Option<Sched>)>> = const { Cell::new(None) };
    }
    if let Some((at, sched)) = LAST.with(Cell::get)
        && at.elapsed() < FRESH
    {
        return sched;
    }
    let sched = std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|text| parse_schedstat(&text));
    LAST.with(|last| last.set(Some((Instant::now(), sched))));
    sched
}

/// What the scheduler says of this thread (the system keeps nothing here).
#[cfg(not(target_os = "linux"))]
pub fn thread_sched() -> Option<Sched> {
    None
}

/// Reads `/proc/.../schedstat`: on-core and waiting nanoseconds, then the time slices.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn parse_schedstat(text: &str) -> Option<Sched> {
    let mut numbers = text.split_whitespace().map(|n| n.parse::<u64>().ok());
    let on_cpu = numbers.next()??;
    let waiting = numbers.next()??;
    Some(Sched {
        on_cpu: Duration::from_nanos(on_cpu),
        waiting: Duration::from_nanos(waiting),
    })
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
    // runs out by the backstop, not the processor's.
    #[test]
    fn a_thread_that_waits_uses_no_processor_time_and_is_stopped_by_the_wall_clock() {
        let mut clock = Clock::start(Duration::from_millis(5));
        assert_eq!(clock.out(), None);
        std::thread::sleep(Duration::from_millis(5) * WALL_CLOCK_FACTOR);
        // Sleeping, the thread used almost no processor time: only the backstop stops it.
        assert_eq!(clock.out(), Some(Out::WallClock));
        #[cfg(target_os = "linux")]
        assert!(thread_processor_time().is_some());
    }

    // The same, with the first look at the scheduler taken early: the sleep after it is
    // counted as blocked, not as waiting for a core.
    #[test]
    fn a_thread_blocked_after_the_first_look_is_stopped_by_the_backstop() {
        let mut clock = Clock::start(Duration::from_millis(5));
        std::thread::sleep(Duration::from_millis(6));
        // The look (the thread slept, so it used little processor time).
        assert_eq!(clock.out(), None);
        std::thread::sleep(Duration::from_millis(5) * WALL_CLOCK_FACTOR);
        assert_eq!(clock.out(), Some(Out::WallClock));
    }

    #[test]
    fn a_thread_that_works_runs_out() {
        let mut clock = Clock::start(Duration::from_millis(5));
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

    fn look(wall: u64, used: u64, on_cpu: u64, waiting: u64) -> Look {
        Look {
            wall: Duration::from_secs(wall),
            used: Duration::from_secs(used),
            sched: Sched {
                on_cpu: Duration::from_secs(on_cpu),
                waiting: Duration::from_secs(waiting),
            },
        }
    }

    fn sched(on_cpu: u64, waiting: u64) -> Sched {
        Sched {
            on_cpu: Duration::from_secs(on_cpu),
            waiting: Duration::from_secs(waiting),
        }
    }

    // Guards "a busy machine refuses no script an idle one accepts": with 16 busy programs
    // on two cores a script's thread got an eighth of a core, and the backstop (10 s by the
    // clock) stopped a script needing 1.5 s of processor time. Waiting for a core is not
    // being blocked.
    #[test]
    fn a_thread_waiting_for_a_core_is_not_stopped_by_the_backstop() {
        let s = Duration::from_secs;
        let budget = s(2);
        // 2 s in, 0.25 s on a core; at 20 s, 2.5 s on a core and the rest on the run queue.
        let first = look(2, 0, 100, 50);
        assert!(!blocked_out(
            budget,
            s(20),
            s(2),
            Some((first, sched(102, 66)))
        ));
        // The same thread without the scheduler's counts: 18 s off a core, stopped.
        assert!(blocked_out(budget, s(20), s(2), None));
        // Blocked since the look (neither on a core nor waiting): stopped.
        assert!(blocked_out(
            budget,
            s(20),
            s(1),
            Some((first, sched(101, 51)))
        ));
        // However it waits, never past the absolute cap.
        let cap = u64::from(MAX_WALL_FACTOR) * 2;
        let waited = |wall: u64| Some((first, sched(101, 50 + wall - 3)));
        assert!(!blocked_out(budget, s(cap - 1), s(1), waited(cap - 1)));
        assert!(blocked_out(budget, s(cap), s(1), waited(cap)));
    }

    #[test]
    fn schedstat_is_read() {
        assert_eq!(
            parse_schedstat("1500000000 250000000 42\n"),
            Some(Sched {
                on_cpu: Duration::from_millis(1500),
                waiting: Duration::from_millis(250),
            })
        );
        assert_eq!(parse_schedstat("garbage"), None);
        #[cfg(target_os = "linux")]
        if std::path::Path::new("/proc/thread-self/schedstat").exists() {
            assert!(thread_sched().is_some());
        }
    }
}
