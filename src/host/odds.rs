//! Exact odds: the probability distribution of a dice expression, a contest or a card draw,
//! computed by counting rather than by listing outcomes.
//!
//! A distribution is a map from value to the number of equally likely outcomes giving it, over
//! a common denominator, all in `u128` with checked arithmetic: the answer is an exact fraction
//! or a clear error, never a rounded guess. Every algorithm is polynomial in the number of
//! dice and sides:
//!
//! - a plain group (`20d6`, `5d6>=5`) convolves one die's distribution with itself;
//! - keep highest/lowest (`30d10kh3`) walks the faces from best to worst, tracking how many
//!   dice have been placed and the sum of those kept, with binomial coefficients for how many
//!   dice show each face;
//! - exploding dice (`3d6!3`) treat each die and its bonus dice as one chain whose
//!   distribution is written down directly, to the stated depth;
//! - a contest by highest die (`3d6 vs 2d6`) uses `P(max <= m) = (m/s)^n`.
//!
//! Primitives only: nothing here knows of Rhai.

use std::collections::BTreeMap;

use crate::host::dice::{DiceGroupSpec, Keep, Node};

pub use crate::limits::MAX_VALUES;

pub use crate::limits::MAX_WORK;

/// Why odds could not be worked out exactly.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OddsError {
    /// The number of outcomes does not fit in 128 bits: it is 2^128 or more (`128d2` has
    /// exactly 2^128).
    #[error(
        "too many outcomes to count exactly: 2^128 or more, and the most it counts is 2^128 - 1"
    )]
    Overflow,
    /// The distribution has too many distinct values.
    #[error("the result takes more than {MAX_VALUES} distinct values (the limit `MAX_VALUES`)")]
    TooManyValues,
    /// Counting would take too long.
    #[error("counting it would take more than {MAX_WORK} steps (the limit `MAX_WORK`)")]
    TooMuchWork,
    /// A value (a total, a product) does not fit in a 64-bit whole number.
    #[error("a value does not fit in a 64-bit whole number")]
    ValueOverflow,
    /// The expression uses something the exact method does not cover.
    #[error("{0}")]
    Unsupported(String),
}

/// An exact probability distribution over whole numbers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dist {
    counts: BTreeMap<i64, u128>,
    denom: u128,
}

impl Dist {
    /// The distribution that is always `v`.
    pub fn point(v: i64) -> Dist {
        Dist {
            counts: BTreeMap::from([(v, 1)]),
            denom: 1,
        }
    }

    /// A distribution from `(value, count)` pairs; the denominator is the sum of the counts.
    pub fn from_counts(pairs: impl IntoIterator<Item = (i64, u128)>) -> Result<Dist, OddsError> {
        let mut counts = BTreeMap::new();
        let mut denom: u128 = 0;
        for (v, c) in pairs {
            if c == 0 {
                continue;
            }
            let slot = counts.entry(v).or_insert(0u128);
            *slot = slot.checked_add(c).ok_or(OddsError::Overflow)?;
            denom = denom.checked_add(c).ok_or(OddsError::Overflow)?;
        }
        let mut d = Dist { counts, denom };
        d.reduce();
        Ok(d)
    }

    /// The denominator of every probability.
    pub fn denominator(&self) -> u128 {
        self.denom
    }

    /// Each value with its count of outcomes, lowest value first.
    pub fn iter(&self) -> impl Iterator<Item = (i64, u128)> + '_ {
        self.counts.iter().map(|(&v, &c)| (v, c))
    }

    /// The probability of exactly `v`, as a reduced fraction.
    pub fn prob(&self, v: i64) -> Fraction {
        Fraction::new(self.counts.get(&v).copied().unwrap_or(0), self.denom)
    }

    /// The probability that the value satisfies `pred`, as a reduced fraction.
    pub fn prob_where(&self, pred: impl Fn(i64) -> bool) -> Fraction {
        let n = self
            .counts
            .iter()
            .filter(|&(&v, _)| pred(v))
            .map(|(_, &c)| c)
            .sum();
        Fraction::new(n, self.denom)
    }

    /// Each value with the probability of at least that value, lowest value first: the
    /// counts from it up, summed exactly (together they are the denominator, which fits).
    pub fn at_least(&self) -> Vec<(i64, Fraction)> {
        let mut above = 0u128;
        let mut rows: Vec<(i64, Fraction)> = self
            .counts
            .iter()
            .rev()
            .map(|(&v, &c)| {
                above += c;
                (v, Fraction::new(above, self.denom))
            })
            .collect();
        rows.reverse();
        rows
    }

    /// The mean value: the exact fraction `sum(value * count) / denominator`, rounded once to
    /// the nearest `f64` (summing in floating point rounded at every value: `127d2` gave
    /// 190.49999999999997 for 190.5).
    pub fn mean(&self) -> f64 {
        let d = self.denom;
        if d == 0 {
            return 0.0;
        }
        // The sum is kept as `q * d + r` with `0 <= r < d`: each value's share `|v| * c / d`
        // is under `|v|`, so `q` stays far inside 128 bits.
        let (mut q, mut r) = (0i128, 0u128);
        for (&v, &c) in &self.counts {
            let (vq, vr) = mul_div(v.unsigned_abs(), c, d);
            if v >= 0 {
                let (sum, carry) = add_mod(r, vr, d);
                q += vq as i128 + carry as i128;
                r = sum;
            } else {
                q -= vq as i128;
                if r >= vr {
                    r -= vr;
                } else {
                    r += d - vr;
                    q -= 1;
                }
            }
        }
        ratio_to_f64(q, r, d)
    }

    /// The lowest and highest values.
    pub fn range(&self) -> (i64, i64) {
        let lo = self.counts.keys().next().copied().unwrap_or(0);
        let hi = self.counts.keys().next_back().copied().unwrap_or(0);
        (lo, hi)
    }

    /// The distribution of `op(a, b)` for independent `a` from `self` and `b` from `other`;
    /// `op` gives `None` when the value overflows.
    pub fn combine(
        &self,
        other: &Dist,
        op: impl Fn(i64, i64) -> Option<i64>,
    ) -> Result<Dist, OddsError> {
        let steps = (self.counts.len() as u64).saturating_mul(other.counts.len() as u64);
        if steps > MAX_WORK {
            return Err(OddsError::TooMuchWork);
        }
        let mut counts: BTreeMap<i64, u128> = BTreeMap::new();
        for (&a, &ca) in &self.counts {
            for (&b, &cb) in &other.counts {
                let c = ca.checked_mul(cb).ok_or(OddsError::Overflow)?;
                let v = op(a, b).ok_or(OddsError::ValueOverflow)?;
                let slot = counts.entry(v).or_insert(0);
                *slot = slot.checked_add(c).ok_or(OddsError::Overflow)?;
            }
            if counts.len() > MAX_VALUES {
                return Err(OddsError::TooManyValues);
            }
        }
        let denom = self
            .denom
            .checked_mul(other.denom)
            .ok_or(OddsError::Overflow)?;
        let mut d = Dist { counts, denom };
        d.reduce();
        Ok(d)
    }

    /// The distribution of `f(a)`; `f` gives `None` when the value overflows.
    pub fn map(&self, f: impl Fn(i64) -> Option<i64>) -> Result<Dist, OddsError> {
        let mut counts: BTreeMap<i64, u128> = BTreeMap::new();
        for (&v, &c) in &self.counts {
            // The counts of one distribution sum to its denominator, so this cannot overflow.
            *counts
                .entry(f(v).ok_or(OddsError::ValueOverflow)?)
                .or_insert(0) += c;
        }
        Ok(Dist {
            counts,
            denom: self.denom,
        })
    }

    /// The sum of `n` independent copies, by repeated squaring.
    fn sum_of(&self, n: u32) -> Result<Dist, OddsError> {
        let mut result = Dist::point(0);
        let mut base = self.clone();
        let mut n = n;
        while n > 0 {
            if n & 1 == 1 {
                result = result.combine(&base, i64::checked_add)?;
            }
            n >>= 1;
            if n > 0 {
                base = base.combine(&base, i64::checked_add)?;
            }
        }
        Ok(result)
    }

    /// Divides counts and denominator by their greatest common divisor.
    fn reduce(&mut self) {
        let g = self.counts.values().fold(self.denom, |g, &c| gcd(g, c));
        if g > 1 {
            for c in self.counts.values_mut() {
                *c /= g;
            }
            self.denom /= g;
        }
    }
}

/// An exact probability `num/den`, reduced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fraction {
    /// The numerator.
    pub num: u128,
    /// The denominator.
    pub den: u128,
}

impl Fraction {
    /// `num/den` in lowest terms.
    pub fn new(num: u128, den: u128) -> Fraction {
        let g = gcd(num, den).max(1);
        Fraction {
            num: num / g,
            den: den / g,
        }
    }

    /// `self + other`, reduced; `None` when it does not fit in 128 bits.
    pub fn checked_add(self, other: Fraction) -> Option<Fraction> {
        let g = gcd(self.den, other.den).max(1);
        let den = (self.den / g).checked_mul(other.den)?;
        let num = self
            .num
            .checked_mul(den / self.den)?
            .checked_add(other.num.checked_mul(den / other.den)?)?;
        Some(Fraction::new(num, den))
    }

    /// The probability as a float, the fraction rounded once.
    pub fn value(&self) -> f64 {
        if self.den == 0 {
            0.0
        } else if self.den <= 1 << 53 {
            // Both exact as floats: one division is the one rounding.
            self.num as f64 / self.den as f64
        } else {
            ratio_to_f64((self.num / self.den) as i128, self.num % self.den, self.den)
        }
    }
}

impl std::fmt::Display for Fraction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.num, self.den)
    }
}

/// `(a + b) mod d` and whether it wrapped, for `a, b < d`.
fn add_mod(a: u128, b: u128, d: u128) -> (u128, bool) {
    let (sum, carry) = a.overflowing_add(b);
    if carry || sum >= d {
        (sum.wrapping_sub(d), true)
    } else {
        (sum, false)
    }
}

/// `a * c = q * d + r` with `0 <= r < d`, for `c <= d`: by doubling and adding modulo `d`,
/// so that no product wider than 128 bits is formed.
fn mul_div(a: u64, c: u128, d: u128) -> (u128, u128) {
    let (cq, cr) = (c / d, c % d);
    let (mut q, mut r) = (u128::from(a) * cq, 0u128);
    let mut q_part = 0u128;
    for bit in (0..64).rev() {
        let (doubled, carry) = add_mod(r, r, d);
        q_part = 2 * q_part + u128::from(carry);
        r = doubled;
        if a >> bit & 1 == 1 {
            let (sum, carry) = add_mod(r, cr, d);
            q_part += u128::from(carry);
            r = sum;
        }
    }
    q += q_part;
    (q, r)
}

/// `q + r/d` (with `0 <= r < d`) rounded once to the nearest `f64`, ties to even.
///
/// The magnitude is written as a whole number of at least 64 significant bits times `2^-k`,
/// with the bits past them folded into its lowest bit (they only decide a tie), and the cast
/// of that whole number is the one rounding.
fn ratio_to_f64(q: i128, r: u128, d: u128) -> f64 {
    let negative = q < 0;
    let (mut whole, mut rest) = if !negative {
        (q as u128, r)
    } else if r == 0 {
        (q.unsigned_abs(), 0)
    } else {
        (q.unsigned_abs() - 1, d - r)
    };
    if whole == 0 && rest == 0 {
        return 0.0;
    }
    let mut k = 0i32;
    while whole < 1 << 63 {
        let (doubled, bit) = add_mod(rest, rest, d);
        whole = 2 * whole + u128::from(bit);
        rest = doubled;
        k += 1;
    }
    let magnitude =
        (whole | u128::from(rest != 0)) as f64 * f64::from_bits(((1023 - k) as u64) << 52);
    if negative { -magnitude } else { magnitude }
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// A share of `count` in `n` trials and the half-width of its 95% interval (the normal
/// approximation, `1.96 * sqrt(p(1-p)/n)`), for Monte Carlo estimates.
pub fn share_with_interval(count: u64, n: u64) -> (f64, f64) {
    let n = n.max(1) as f64;
    let p = count as f64 / n;
    (p, 1.96 * (p * (1.0 - p) / n).sqrt())
}

/// The exact distribution of a parsed dice expression.
///
/// The work it takes is estimated from the expression first ([`plan`]), so that an
/// expression past [`MAX_WORK`] is refused before any part of it is written down
/// (`1d1000000+1d1000000` took 200 MB to be refused).
pub fn distribution(node: &Node) -> Result<Dist, OddsError> {
    plan(node)?;
    evaluate(node)
}

fn evaluate(node: &Node) -> Result<Dist, OddsError> {
    match node {
        Node::Number(n) => Ok(Dist::point(*n)),
        Node::Dice(spec) => group(spec),
        Node::Neg(a) => evaluate(a)?.map(i64::checked_neg),
        Node::Add(a, b) => evaluate(a)?.combine(&evaluate(b)?, i64::checked_add),
        Node::Sub(a, b) => evaluate(a)?.combine(&evaluate(b)?, i64::checked_sub),
        Node::Mul(a, b) => evaluate(a)?.combine(&evaluate(b)?, i64::checked_mul),
    }
}

/// What the expression says of a distribution before it is counted: its lowest and highest
/// values (exact: sums, differences and products take their extremes at the parts'
/// extremes) and at most how many distinct values it takes.
#[derive(Debug, Clone, Copy)]
struct Support {
    lo: i64,
    hi: i64,
    values: u64,
}

impl Support {
    fn new(lo: i64, hi: i64, values: u64) -> Support {
        let width = (i128::from(hi) - i128::from(lo) + 1).clamp(1, i128::from(u64::MAX)) as u64;
        Support {
            lo,
            hi,
            values: values.clamp(1, width),
        }
    }
}

/// Refuses, before anything is counted, an expression whose counting would combine more
/// than [`MAX_WORK`] pairs of values in one step, as [`Dist::combine`] would once the parts
/// were written down; gives the support of the whole.
fn plan(node: &Node) -> Result<Support, OddsError> {
    let pair = |a: &Node, b: &Node| -> Result<(Support, Support), OddsError> {
        let (a, b) = (plan(a)?, plan(b)?);
        if a.values.saturating_mul(b.values) > MAX_WORK {
            return Err(OddsError::TooMuchWork);
        }
        Ok((a, b))
    };
    Ok(match node {
        Node::Number(n) => Support::new(*n, *n, 1),
        Node::Dice(spec) => plan_group(spec)?,
        Node::Neg(a) => {
            let a = plan(a)?;
            Support::new(a.hi.saturating_neg(), a.lo.saturating_neg(), a.values)
        }
        Node::Add(a, b) => {
            let (a, b) = pair(a, b)?;
            Support::new(
                a.lo.saturating_add(b.lo),
                a.hi.saturating_add(b.hi),
                a.values * b.values,
            )
        }
        Node::Sub(a, b) => {
            let (a, b) = pair(a, b)?;
            Support::new(
                a.lo.saturating_sub(b.hi),
                a.hi.saturating_sub(b.lo),
                a.values * b.values,
            )
        }
        Node::Mul(a, b) => {
            let (a, b) = pair(a, b)?;
            let corners = [
                a.lo.saturating_mul(b.lo),
                a.lo.saturating_mul(b.hi),
                a.hi.saturating_mul(b.lo),
                a.hi.saturating_mul(b.hi),
            ];
            let lo = corners.iter().copied().min().unwrap_or(0);
            let hi = corners.iter().copied().max().unwrap_or(0);
            Support::new(lo, hi, a.values * b.values)
        }
    })
}

/// The support of one group, refusing the work its sum by repeated squaring would take.
fn plan_group(spec: &DiceGroupSpec) -> Result<Support, OddsError> {
    let scores = (1..=spec.sides).map(|f| score(spec, f));
    let (min, max) = (scores.clone().min().unwrap_or(0), scores.max().unwrap_or(0));
    // The distinct values of the one thing summed `count` times, and its range.
    let (lo, hi, values, times) = match (spec.explode, spec.keep) {
        (Some(cap), None) if cap > 0 => {
            check_chain(spec, cap)?;
            let top = score(spec, spec.sides);
            let hi = i64::from(cap).saturating_mul(top).saturating_add(max);
            let values = (u64::from(cap) + 1).saturating_mul(u64::from(spec.sides));
            (min, hi, values, spec.count)
        }
        (Some(cap), Some(_)) if cap > 0 => return Ok(Support::new(0, 0, 1)),
        // A keep is counted by its own walk, which checks its steps before it takes them.
        (_, Some(keep)) if keep.count() < spec.count => {
            let k = i64::from(keep.count());
            let (lo, hi) = (min.saturating_mul(k), max.saturating_mul(k));
            return Ok(Support::new(lo, hi, u64::MAX));
        }
        _ => (min, max, u64::from(spec.sides), spec.count),
    };
    let one = Support::new(lo, hi, values);
    let sum_of = |m: u32| {
        Support::new(
            one.lo.saturating_mul(i64::from(m)),
            one.hi.saturating_mul(i64::from(m)),
            if m == 0 { 1 } else { u64::MAX },
        )
    };
    // As `Dist::sum_of` goes: each combine of two sums is refused past the work it takes.
    let (mut result, mut base, mut n) = (0u32, 1u32, times);
    while n > 0 {
        if n & 1 == 1 {
            let work = sum_of(result).values.saturating_mul(sum_of(base).values);
            if result > 0 && work > MAX_WORK {
                return Err(OddsError::TooMuchWork);
            }
            result += base;
        }
        n >>= 1;
        if n > 0 {
            let b = sum_of(base).values;
            if b.saturating_mul(b) > MAX_WORK {
                return Err(OddsError::TooMuchWork);
            }
            base = base.saturating_mul(2);
        }
    }
    Ok(sum_of(times))
}

/// What one die scores: its face, or 1/0 for a success when the group counts successes.
fn score(spec: &DiceGroupSpec, face: u32) -> i64 {
    match &spec.target {
        Some(t) => i64::from(t.hits(i64::from(face))),
        None => i64::from(face),
    }
}

/// One dice group: sum of faces, or count of successes, after explosions and keeping.
fn group(spec: &DiceGroupSpec) -> Result<Dist, OddsError> {
    match (spec.explode, spec.keep) {
        (Some(cap), None) if cap > 0 => exploding_chain(spec, cap)?.sum_of(spec.count),
        (Some(cap), Some(_)) if cap > 0 => Err(OddsError::Unsupported(
            "exact odds cannot keep dice from an exploding group (bonus dice change how many \
             there are); drop the keep or the explosion"
                .into(),
        )),
        (_, Some(keep)) if keep.count() < spec.count => kept(spec, keep),
        _ => one_die(spec)?.sum_of(spec.count),
    }
}

fn one_die(spec: &DiceGroupSpec) -> Result<Dist, OddsError> {
    Dist::from_counts((1..=spec.sides).map(|f| (score(spec, f), 1)))
}

/// As many dice as a roll may throw (`sandtable roll` refuses more), and the chain's values
/// written down one by one.
fn check_chain(spec: &DiceGroupSpec, cap: u32) -> Result<(), OddsError> {
    let dice = u64::from(spec.count).saturating_mul(u64::from(cap) + 1);
    if dice > crate::host::dice::MAX_TOTAL_DICE as u64 {
        return Err(OddsError::Unsupported(format!(
            "{} dice exploding {cap} times could roll {dice} dice; a roll throws at most {} \
             (`MAX_TOTAL_DICE`)",
            spec.count,
            crate::host::dice::MAX_TOTAL_DICE
        )));
    }
    if (u64::from(cap) + 1).saturating_mul(u64::from(spec.sides)) > MAX_WORK {
        return Err(OddsError::TooMuchWork);
    }
    Ok(())
}

/// One die and the bonus dice it explodes into, at most `cap` of them.
///
/// Over the common denominator `s^(cap+1)`: `k < cap` explosions then a face `f < s` has
/// weight `s^(cap-k)`; `cap` explosions then any face has weight 1.
fn exploding_chain(spec: &DiceGroupSpec, cap: u32) -> Result<Dist, OddsError> {
    check_chain(spec, cap)?;
    let s = spec.sides;
    let s128 = u128::from(s);
    let top = score(spec, s);
    let mut pairs = Vec::new();
    for k in 0..=cap {
        let carried = i64::from(k) * top;
        if k < cap {
            let weight = s128.checked_pow(cap - k).ok_or(OddsError::Overflow)?;
            for f in 1..s {
                pairs.push((carried + score(spec, f), weight));
            }
        } else {
            for f in 1..=s {
                pairs.push((carried + score(spec, f), 1));
            }
        }
    }
    Dist::from_counts(pairs)
}

/// Keep the highest or lowest `k` of `n` dice, summing (or counting successes of) those kept.
///
/// Walks the faces from the best to the worst for the kind of keep. State: how many dice have
/// been placed so far (while fewer than `k`) and the kept score. Placing `j` dice on a face
/// multiplies by `C(remaining, j)`; once `k` dice are placed, the rest may show any worse face.
///
/// Every count taken is a number of distinct outcomes, or of partial outcomes that each extend
/// to at least one whole outcome, so none exceeds the `s^n` outcomes of the pool: when those
/// fit in 128 bits, nothing overflows on the way. A partial outcome that can no longer be
/// completed (dice left over and no worse face for them) is dropped before it is counted, as
/// its count could be larger than the pool's outcomes (`126d2kh2` was refused for that).
fn kept(spec: &DiceGroupSpec, keep: Keep) -> Result<Dist, OddsError> {
    let n = spec.count as usize;
    let k = keep.count() as usize;
    let s = spec.sides;
    // One side: one outcome, whatever the count (its binomials would not fit).
    if s == 1 {
        return Ok(Dist::point(k as i64 * score(spec, 1)));
    }
    // The pool's outcomes, the denominator: refused first, as that is the true reason.
    u128::from(s)
        .checked_pow(spec.count)
        .ok_or(OddsError::Overflow)?;
    // Each face advances up to `k` rows of at most `k * best + 1` sums, each in up to `n + 1`
    // ways: a bound on the steps, checked before taking them.
    let best = (1..=s)
        .map(|f| score(spec, f).unsigned_abs())
        .max()
        .unwrap_or(0);
    let width = (k as u64).saturating_mul(best).saturating_add(1);
    let steps = u64::from(s)
        .saturating_mul(k as u64)
        .saturating_mul(width)
        .saturating_mul(n as u64 + 1);
    if steps > MAX_WORK {
        return Err(OddsError::TooMuchWork);
    }
    let width = width as usize;
    let faces: Vec<u32> = match keep {
        Keep::Highest(_) => (1..=s).rev().collect(),
        Keep::Lowest(_) => (1..=s).collect(),
    };
    let binom = binomials(n)?;
    // states[placed][sum] = count, for placed < k; scores are never negative.
    let mut states: Vec<Vec<u128>> = vec![vec![0; width]; k];
    states[0][0] = 1;
    let mut done: Vec<u128> = vec![0; width];
    let add = |slot: &mut u128, c: u128| -> Result<(), OddsError> {
        *slot = slot.checked_add(c).ok_or(OddsError::Overflow)?;
        Ok(())
    };
    for (i, &face) in faces.iter().enumerate() {
        let worse = (faces.len() - i - 1) as u128; // faces left after this one
        let sc = score(spec, face).unsigned_abs() as usize;
        let mut next: Vec<Vec<u128>> = vec![vec![0; width]; k];
        for (placed, row) in states.iter().enumerate() {
            let remaining = n - placed;
            for (sum, &count) in row.iter().enumerate() {
                if count == 0 {
                    continue;
                }
                for (j, &choose) in binom[remaining].iter().enumerate() {
                    let now = placed + j;
                    // Dice left over with no worse face to show: no outcome.
                    if worse == 0 && now < n {
                        continue;
                    }
                    let ways = count.checked_mul(choose).ok_or(OddsError::Overflow)?;
                    let new_sum = sum + j.min(k - placed) * sc;
                    if now >= k {
                        // The rest (n - now dice) show any of the worse faces.
                        let rest = worse
                            .checked_pow((n - now) as u32)
                            .ok_or(OddsError::Overflow)?;
                        add(
                            &mut done[new_sum],
                            ways.checked_mul(rest).ok_or(OddsError::Overflow)?,
                        )?;
                    } else {
                        add(&mut next[now][new_sum], ways)?;
                    }
                }
            }
        }
        states = next;
    }
    Dist::from_counts(done.into_iter().enumerate().map(|(sum, c)| (sum as i64, c)))
}

/// Pascal's triangle up to `n`, checked.
fn binomials(n: usize) -> Result<Vec<Vec<u128>>, OddsError> {
    let mut rows: Vec<Vec<u128>> = Vec::with_capacity(n + 1);
    for i in 0..=n {
        let mut row = vec![1u128; i + 1];
        for j in 1..i {
            row[j] = rows[i - 1][j - 1]
                .checked_add(rows[i - 1][j])
                .ok_or(OddsError::Overflow)?;
        }
        rows.push(row);
    }
    Ok(rows)
}

/// The outcome of a contest: the attacker wins ties unless said otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Contest {
    /// The attacker's score is higher.
    pub attacker_higher: Fraction,
    /// Both scores are equal.
    pub tie: Fraction,
    /// The defender's score is higher.
    pub defender_higher: Fraction,
}

impl Contest {
    /// The attacker's chance when ties go to the attacker.
    pub fn attacker_wins(&self) -> Fraction {
        // Both reduce fractions of one denominator that fits, so their sum fits too.
        self.attacker_higher
            .checked_add(self.tie)
            .expect("parts of one fitting denominator")
    }
}

/// Compares two independent distributions.
pub fn compare(a: &Dist, b: &Dist) -> Result<Contest, OddsError> {
    let (mut higher, mut tie, mut lower) = (0u128, 0u128, 0u128);
    // Cumulative counts of b below each value, in one sorted sweep.
    let b_vals: Vec<(i64, u128)> = b.iter().collect();
    let mut below: u128 = 0;
    let mut idx = 0;
    for (v, ca) in a.iter() {
        while idx < b_vals.len() && b_vals[idx].0 < v {
            below += b_vals[idx].1;
            idx += 1;
        }
        let equal = b_vals
            .get(idx)
            .filter(|(bv, _)| *bv == v)
            .map_or(0, |&(_, c)| c);
        let above = b.denom - below - equal;
        let m = |x: u128| ca.checked_mul(x).ok_or(OddsError::Overflow);
        higher = higher.checked_add(m(below)?).ok_or(OddsError::Overflow)?;
        tie = tie.checked_add(m(equal)?).ok_or(OddsError::Overflow)?;
        lower = lower.checked_add(m(above)?).ok_or(OddsError::Overflow)?;
    }
    let den = a.denom.checked_mul(b.denom).ok_or(OddsError::Overflow)?;
    Ok(Contest {
        attacker_higher: Fraction::new(higher, den),
        tie: Fraction::new(tie, den),
        defender_higher: Fraction::new(lower, den),
    })
}

/// The distribution of the highest single die of a plain group (`3d6`), the Playmobil way of
/// comparing rolls: `P(max <= m) = m^n / s^n`.
pub fn highest_die(spec: &DiceGroupSpec) -> Result<Dist, OddsError> {
    if spec.explode.is_some_and(|c| c > 0) || spec.target.is_some() {
        return Err(OddsError::Unsupported(
            "a contest by highest die takes plain dice groups such as `3d6` \
             (no exploding or success counting); use `--by total` to compare totals"
                .into(),
        ));
    }
    // Keeping never changes the highest die unless it keeps the lowest of the dice.
    let n = match spec.keep {
        Some(Keep::Lowest(k)) if k < spec.count => {
            return Err(OddsError::Unsupported(
                "a contest by highest die cannot use keep-lowest; use `--by total`".into(),
            ));
        }
        _ => spec.count,
    };
    // No dice: no die to show, so 0 (as a figure with no dice scores in Playmobil).
    if n == 0 {
        return Ok(Dist::point(0));
    }
    let mut pairs = Vec::with_capacity(spec.sides as usize);
    let mut prev: u128 = 0;
    for m in 1..=spec.sides {
        let at_most = u128::from(m).checked_pow(n).ok_or(OddsError::Overflow)?;
        pairs.push((i64::from(m), at_most - prev));
        prev = at_most;
    }
    Dist::from_counts(pairs)
}

/// How cards are scored against a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FaceCards {
    /// Jack, Queen and King always pass (Soldiers in Time's activation checks).
    #[default]
    Pass,
    /// Jack, Queen and King always fail.
    Fail,
    /// Jack, Queen and King count as 11, 12 and 13.
    Rank,
}

/// A deck to draw from for a card check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CardCheck {
    /// Pass on a card at or under this number (Ace is 1).
    pub at_most: u32,
    /// How many cards are drawn, without replacement.
    pub draws: u32,
    /// How many jokers the deck holds (jokers fail).
    pub jokers: u32,
    /// How face cards count.
    pub faces: FaceCards,
}

/// The distribution of how many of the drawn cards pass, drawing without replacement from a
/// standard 52-card deck (plus jokers): hypergeometric, `C(pass, x) C(fail, n - x) / C(N, n)`.
pub fn card_check(check: &CardCheck) -> Result<Dist, OddsError> {
    let passing_per_suit = (1..=13u32)
        .filter(|&rank| match (rank > 10, check.faces) {
            (true, FaceCards::Pass) => true,
            (true, FaceCards::Fail) => false,
            _ => rank <= check.at_most,
        })
        .count() as u32;
    let total = 52 + check.jokers;
    if check.draws == 0 || check.draws > total {
        return Err(OddsError::Unsupported(format!(
            "draw between 1 and {total} cards from this deck"
        )));
    }
    let pass = passing_per_suit * 4;
    let fail = total - pass;
    let binom = binomials(total as usize)?;
    let n = check.draws as usize;
    let pairs = (0..=n).filter_map(|x| {
        if x > pass as usize || n - x > fail as usize {
            return None;
        }
        Some((
            x as i64,
            binom[pass as usize][x] * binom[fail as usize][n - x],
        ))
    });
    Dist::from_counts(pairs)
}

#[cfg(test)]
mod tests;
