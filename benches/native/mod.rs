//! The default battle (Romans against Vikings) written in plain Rust: the same rules and the
//! same policy as `scripts/rulesets/playmobil` (rules, missiles, routing, `policy.rhai`) and
//! the abilities the scenario uses (Testudo, Berserker, Charge), on the same host primitives
//! (the `Battlefield`, its geometry and line of sight, and `GameRng`). It exists only to
//! state what the scripting costs: the benchmark compares one battle played by the scripts
//! with one played by this.
//!
//! Left out, because the default scenario never needs them: mounts and dismounting, thrown
//! weapons, artillery, siege, the other abilities, narration and the event log (a native
//! engine would not build text it does not show), a routing figure fighting its way
//! out when cut off (he stays put instead), and group A moving on after a call for a rout
//! (the policy never does).

use sandtable::game::scenario::Scenario;
use sandtable::host::battlefield::{Battlefield, Sight};
use sandtable::host::geometry::{Point, angle_off, at_least, at_most, in_arc, scatter};
use sandtable::host::rng::GameRng;
use sandtable::host::unit::Stat;

const REACH: f64 = 2.0;
/// `data.rout_gap`: the narrowest gap a routing man runs through.
const ROUT_GAP: f64 = 2.0;

/// What the rules need of a figure, read from its stats once.
#[derive(Clone)]
struct Figure {
    side: usize,
    attack: i64,
    defend: i64,
    moves: f64,
    wall: bool,
    /// Archery: range and shots a turn.
    bow: Option<(f64, i64)>,
    /// The Charge: its move, and the turn it was last used.
    charge: Option<(f64, Option<i64>)>,
    /// Index of its formation, if any.
    formation: Option<usize>,
    testudo: Option<bool>,
    /// Berserker: uses left, and the turn it was used.
    berserker: Option<(i64, Option<i64>)>,
    /// Flaming Arrows: the turn they were last lit (one arrow a turn, a hit kills two).
    flaming: Option<Option<i64>>,
    // The turn's tags.
    moved: bool,
    attacked: bool,
    blocked: bool,
    routed: bool,
    called_rout: bool,
    shots: i64,
    missed: Option<(usize, i64)>,
    /// After a kill he must step forward before the next attack ("may step").
    may_step: bool,
    /// Where he stood when he killed, once he has stepped: the next man is measured from it.
    stepped_from: Option<Point>,
    /// Formations (by index; figures alone count as `FORMATIONS + figure`) it fought.
    fought: Vec<usize>,
}

/// A battle in progress.
pub struct Battle {
    field: Battlefield,
    figs: Vec<Figure>,
    rng: GameRng,
    turn: i64,
    active: usize,
    first: usize,
    formations: usize,
}

/// The result: the winning side's index (or none), and the turn it ended on.
pub struct Outcome {
    pub winner: Option<usize>,
    pub turn: i64,
    /// Which figures are still in play, in the scenario's order.
    pub in_play: Vec<bool>,
}

fn int(u: &sandtable::host::unit::Unit, stat: &str) -> i64 {
    u.stat(stat).and_then(|s| s.as_i64()).unwrap_or(0)
}

fn num(u: &sandtable::host::unit::Unit, stat: &str) -> f64 {
    u.stat(stat).and_then(|s| s.as_f64()).unwrap_or(0.0)
}

/// The battle's starting state, read once; each battle clones it.
#[derive(Clone)]
pub struct Start {
    field: Battlefield,
    figs: Vec<Figure>,
    first: usize,
    formations: usize,
}

impl Start {
    pub fn new(scenario: &Scenario) -> Start {
        let sides: Vec<&str> = scenario.sides.iter().map(|s| s.id.as_str()).collect();
        let mut formations: Vec<(usize, String)> = Vec::new();
        let figs = scenario
            .battlefield
            .units()
            .iter()
            .map(|u| {
                let side = sides.iter().position(|s| *s == u.side).unwrap();
                let formation = u.groups.get("formation").map(|f| {
                    let key = (side, f.clone());
                    formations
                        .iter()
                        .position(|k| *k == key)
                        .unwrap_or_else(|| {
                            formations.push(key);
                            formations.len() - 1
                        })
                });
                let has = |a: &str| u.abilities.iter().any(|x| x == a);
                Figure {
                    side,
                    attack: int(u, "attack"),
                    defend: int(u, "defend"),
                    moves: num(u, "move"),
                    wall: matches!(u.stat("class"), Some(Stat::Text(c)) if c == "wall"),
                    bow: u
                        .stat("missile_range")
                        .map(|_| (num(u, "missile_range"), int(u, "shots"))),
                    charge: has("charge").then(|| (num(u, "charge_move"), None)),
                    formation,
                    testudo: has("testudo").then_some(false),
                    berserker: has("berserker").then_some((1, None)),
                    flaming: has("flaming_arrows").then_some(None),
                    moved: false,
                    attacked: false,
                    blocked: false,
                    routed: false,
                    called_rout: false,
                    shots: 0,
                    missed: None,
                    may_step: false,
                    stepped_from: None,
                    fought: Vec::new(),
                }
            })
            .collect();
        let first = scenario
            .first
            .as_ref()
            .and_then(|f| sides.iter().position(|s| s == f))
            .unwrap_or(0);
        Start {
            field: scenario.battlefield.clone(),
            figs,
            first,
            formations: formations.len(),
        }
    }

    pub fn battle(&self, rng: GameRng) -> Battle {
        Battle {
            field: self.field.clone(),
            figs: self.figs.clone(),
            rng,
            turn: 1,
            active: self.first,
            first: self.first,
            formations: self.formations,
        }
    }
}

impl Battle {
    /// Plays to victory, as `Session::play_battle` does with the policy.
    pub fn play(mut self) -> Outcome {
        loop {
            if let Some((winner, turn)) = self.victory() {
                let in_play = self.field.units().iter().map(|u| u.in_play).collect();
                return Outcome {
                    winner,
                    turn,
                    in_play,
                };
            }
            for i in 0..self.figs.len() {
                if self.figs[i].side == self.active && self.in_play(i) && !self.figs[i].routed {
                    self.act(i);
                }
            }
            self.end_turn();
        }
    }

    fn in_play(&self, i: usize) -> bool {
        self.field.units()[i].in_play
    }

    fn pos(&self, i: usize) -> Point {
        self.field.units()[i].pos
    }

    fn best_die(&mut self, n: i64) -> u32 {
        (0..n).map(|_| self.rng.die(6)).max().unwrap_or(0)
    }

    /// The winner (or none: a draw) and the turn, once the battle is over.
    fn victory(&self) -> Option<(Option<usize>, i64)> {
        let mut all = [0usize; 2];
        let mut standing = [0usize; 2];
        for (i, f) in self.figs.iter().enumerate() {
            if !f.wall {
                all[f.side] += 1;
                standing[f.side] += usize::from(self.in_play(i));
            }
        }
        let left: Vec<f64> = (0..2)
            .map(|s| {
                if all[s] == 0 {
                    0.0
                } else {
                    standing[s] as f64 / all[s] as f64
                }
            })
            .collect();
        let broken: Vec<bool> = left.iter().map(|l| at_most(*l, 1.0 - 0.67)).collect();
        let turn = self.turn;
        match (broken[0], broken[1]) {
            (true, true) => Some((None, turn)),
            (true, false) => Some((Some(1), turn)),
            (false, true) => Some((Some(0), turn)),
            _ if turn > 15 => Some((
                (left[0] != left[1]).then(|| if left[0] > left[1] { 0 } else { 1 }),
                turn,
            )),
            _ => None,
        }
    }

    fn act(&mut self, f: usize) {
        self.take_up_testudo(f);
        self.light_arrows(f);
        if self.fight(f) {
            return;
        }
        if self.figs[f].charge.is_some()
            && let Some(t) = self.field.nearest_enemy(f)
            && self.charge(f, t)
        {
            self.fight(f);
            return;
        }
        if self.figs[f].bow.is_some() && self.shoot_all(f) {
            return;
        }
        self.advance(f);
        self.fight(f);
    }

    fn lit(&self, f: usize) -> bool {
        matches!(self.figs[f].flaming, Some(Some(t)) if t == self.turn)
    }

    /// policy.rhai `light_arrows`: when the nearest enemy in range stands within reach of a
    /// man of his own side, so that a hit kills two.
    fn light_arrows(&mut self, f: usize) {
        if self.figs[f].flaming.is_none() || self.lit(f) {
            return;
        }
        let (Some((range, _)), Some(t)) = (self.figs[f].bow, self.field.nearest_enemy(f)) else {
            return;
        };
        if !at_most(self.field.edge_distance(f, t), range) {
            return;
        }
        let side = self.figs[t].side;
        if self
            .field
            .within_of(t, REACH)
            .into_iter()
            .any(|o| self.figs[o].side == side)
        {
            self.figs[f].flaming = Some(Some(self.turn));
        }
    }

    /// missiles.rhai `next_victim`: the man of the target's side, in play, that the archer
    /// could have shot, nearest the target by base edges (the first in order on a tie).
    fn next_victim(&self, f: usize, t: usize, range: f64) -> Option<usize> {
        let mut best: Option<(f64, usize)> = None;
        for o in 0..self.figs.len() {
            if o == t
                || !self.in_play(o)
                || self.figs[o].side != self.figs[t].side
                || self.figs[o].wall
            {
                continue;
            }
            if !at_most(self.field.edge_distance(f, o), range)
                || self.field.sight(self.pos(f), self.pos(o), false, &[]) != Sight::Clear
            {
                continue;
            }
            let gap = self.field.edge_distance(t, o);
            if best.is_none_or(|(b, _)| !at_least(gap, b)) {
                best = Some((gap, o));
            }
        }
        best.map(|(_, o)| o)
    }

    fn take_up_testudo(&mut self, f: usize) {
        if self.figs[f].testudo != Some(false) {
            return;
        }
        let me = self.figs[f].side;
        let threatened = (0..self.figs.len()).any(|e| {
            self.in_play(e)
                && self.figs[e].side != me
                && self.figs[e]
                    .bow
                    .is_some_and(|(range, _)| at_most(self.field.edge_distance(f, e), range))
        });
        if threatened {
            let formation = self.figs[f].formation;
            for i in 0..self.figs.len() {
                if (i == f || (formation.is_some() && self.figs[i].formation == formation))
                    && self.in_play(i)
                    && self.figs[i].testudo.is_some()
                {
                    self.figs[i].testudo = Some(true);
                }
            }
        }
    }

    fn weakest_in_reach(&self, f: usize) -> Option<usize> {
        let mut best: Option<(i64, usize)> = None;
        for e in self.field.enemies_within(f, REACH) {
            if self.figs[e].wall {
                continue;
            }
            let d = self.figs[e].defend;
            if best.is_none_or(|(b, _)| d < b) {
                best = Some((d, e));
            }
        }
        best.map(|(_, e)| e)
    }

    fn fight(&mut self, f: usize) -> bool {
        let mut fought = false;
        for _ in 0..6 {
            if !self.in_play(f) || self.figs[f].blocked {
                break;
            }
            // After a kill the next man must be within reach of where the killer stands, and
            // he steps forward to reach him (policy.rhai `step_towards`).
            let Some(t) = self.weakest_in_reach(f) else {
                break;
            };
            if self.figs[f].may_step && !self.step_towards(f, t) {
                break;
            }
            if let Some((uses, _)) = self.figs[f].berserker
                && uses > 0
            {
                self.figs[f].berserker = Some((0, Some(self.turn)));
            }
            if !self.melee(f, t) {
                break;
            }
            fought = true;
        }
        if fought {
            for e in self.field.enemies_within(f, REACH) {
                if !self.figs[e].routed && self.below_half(e) {
                    self.rout(f, e);
                }
            }
        }
        fought
    }

    /// The policy's step after a kill: towards the target, as far as 0.9 of the gap (at most
    /// the reach), else half that, else a quarter; none when the two already touch.
    fn step_towards(&mut self, f: usize, t: usize) -> bool {
        let gap = self.field.edge_distance(f, t);
        if at_most(gap, 0.0) {
            return true;
        }
        let first = (gap * 0.9).min(REACH);
        let (p, tp) = (self.pos(f), self.pos(t));
        for length in [first, first * 0.5, first * 0.25] {
            let to = scatter(p, p.bearing_to(tp), length);
            if self.field.on_table(to) && self.step(f, to) {
                return true;
            }
        }
        false
    }

    /// rules.rhai `step`: within the reach, on the table, onto free ground, and nearer an
    /// enemy within the reach.
    fn step(&mut self, f: usize, to: Point) -> bool {
        let p = self.pos(f);
        if !self.figs[f].may_step || !at_most(p.distance(to), REACH) || !self.field.on_table(to) {
            return false;
        }
        if !self.field.overlapping_at(f, to).is_empty() {
            return false;
        }
        let forward = self
            .field
            .enemies_within(f, REACH)
            .into_iter()
            .any(|e| self.field.edge_distance_at(f, to, e) < self.field.edge_distance(f, e));
        if !forward {
            return false;
        }
        self.figs[f].may_step = false;
        self.figs[f].stepped_from = Some(p);
        self.field.get_mut(f).unwrap().pos = to;
        true
    }

    fn berserk(&self, f: usize) -> bool {
        matches!(self.figs[f].berserker, Some((_, Some(t))) if t == self.turn)
    }

    fn charging(&self, f: usize) -> bool {
        matches!(self.figs[f].charge, Some((_, Some(t))) if t == self.turn)
    }

    fn group(&self, f: usize) -> usize {
        self.figs[f].formation.unwrap_or(self.formations + f)
    }

    fn melee(&mut self, a: usize, d: usize) -> bool {
        let fa = &self.figs[a];
        if fa.blocked || fa.routed || !self.in_play(d) || fa.side == self.figs[d].side {
            return false;
        }
        if fa.missed.is_some_and(|(m, _)| m != d) {
            return false;
        }
        if !at_most(self.field.edge_distance(a, d), REACH) {
            return false;
        }
        if self.figs[a].may_step && !at_most(self.field.edge_distance(a, d), 0.0) {
            return false;
        }
        if let Some(killed_at) = self.figs[a].stepped_from {
            let gap = self.field.edge_distance_at(a, killed_at, d);
            if !at_most(gap, REACH) || self.field.edge_distance(a, d) >= gap {
                return false;
            }
        }
        if self.field.sight(self.pos(a), self.pos(d), true, &[a, d]) != Sight::Clear {
            return false;
        }
        let testudo = self.figs[d].testudo == Some(true);
        let rear_beyond = if testudo { 45.0 } else { 90.0 };
        let (dp, df) = (self.pos(d), self.field.units()[d].facing);
        let rear = !in_arc(df, dp, self.pos(a), rear_beyond);
        let attack = self.figs[a].attack + i64::from(self.charging(a));
        let defend = if rear {
            self.figs[d].defend.min(1)
        } else {
            self.figs[d].defend + i64::from(testudo)
        };
        let facing = self.pos(a).bearing_to(dp);
        self.field.get_mut(a).unwrap().facing = facing;
        self.figs[a].attacked = true;
        let g = self.group(d);
        if !self.figs[a].fought.contains(&g) {
            self.figs[a].fought.push(g);
        }
        let x = self.best_die(attack);
        let y = self.best_die(defend);
        if x >= y {
            if !self.berserk(d) {
                self.field.get_mut(d).unwrap().in_play = false;
                self.figs[a].missed = None;
                self.figs[a].may_step = true;
                self.figs[a].stepped_from = None;
            } else {
                self.figs[a].blocked = true;
            }
        } else if self.figs[d].routed {
            // A routing man who wins stops no one (P-117).
        } else {
            let misses = self.figs[a].missed.map_or(0, |(_, n)| n) + 1;
            let allowed = if self.berserk(a) { 3 } else { 1 };
            if misses >= allowed {
                self.figs[a].missed = None;
                self.figs[a].blocked = true;
            } else {
                self.figs[a].missed = Some((d, misses));
            }
        }
        true
    }

    fn charge(&mut self, f: usize, t: usize) -> bool {
        let Some((charge_move, last)) = self.figs[f].charge else {
            return false;
        };
        let fig = &self.figs[f];
        if fig.moved || fig.attacked || last.is_some_and(|l| self.turn < l + 3) {
            return false;
        }
        if !self.field.enemies_within(f, REACH).is_empty() {
            return false;
        }
        let (p, tp) = (self.pos(f), self.pos(t));
        let facing = p.bearing_to(tp);
        let before = self.field.units()[f].facing;
        self.field.get_mut(f).unwrap().facing = facing;
        let gap = self.field.edge_distance(f, t);
        let step = (gap - 0.5).min(charge_move);
        let to = scatter(p, facing, step.max(0.0));
        if !at_most(gap, charge_move + REACH)
            || (step > 0.0 && !self.field.overlapping_at(f, to).is_empty())
        {
            self.field.get_mut(f).unwrap().facing = before;
            return false;
        }
        self.figs[f].charge = Some((charge_move, Some(self.turn)));
        self.field.get_mut(f).unwrap().pos = to;
        self.figs[f].moved = true;
        self.melee(f, t)
    }

    fn shoot_all(&mut self, f: usize) -> bool {
        let (range, shots) = self.figs[f].bow.unwrap();
        let shots = if self.lit(f) { 1 } else { shots };
        let mut shot = false;
        for _ in 0..shots {
            let Some(t) = self.field.nearest_enemy(f) else {
                break;
            };
            if self.figs[f].shots >= shots
                || self.figs[f].blocked
                || self.figs[f].routed
                || !at_most(self.field.edge_distance(f, t), range)
                || self.field.sight(self.pos(f), self.pos(t), false, &[]) != Sight::Clear
            {
                break;
            }
            // A shot is an attack.
            self.figs[f].shots += 1;
            self.figs[f].attacked = true;
            let testudo = self.figs[t].testudo == Some(true);
            let (tp, tf, sp) = (self.pos(t), self.field.units()[t].facing, self.pos(f));
            let rear = !in_arc(tf, tp, sp, if testudo { 45.0 } else { 90.0 });
            let defend = if rear {
                self.figs[t].defend.min(1)
            } else {
                self.figs[t].defend + i64::from(testudo)
            };
            self.field.get_mut(f).unwrap().facing = sp.bearing_to(tp);
            let x = self.best_die(1);
            let y = self.best_die(defend);
            let shielded = testudo && in_arc(tf, tp, sp, 45.0);
            shot = true;
            if x >= y && !shielded && !self.berserk(t) {
                let second = if self.lit(f) {
                    self.next_victim(f, t, range)
                } else {
                    None
                };
                self.field.get_mut(t).unwrap().in_play = false;
                if let Some(o) = second
                    && !self.berserk(o)
                {
                    self.field.get_mut(o).unwrap().in_play = false;
                }
            } else {
                // A miss, or a hit that kills no one, blocks the archer: no second arrow.
                self.figs[f].missed = None;
                self.figs[f].blocked = true;
                break;
            }
        }
        shot
    }

    fn advance(&mut self, f: usize) {
        let Some(t) = self.field.nearest_enemy(f) else {
            return;
        };
        if self.figs[f].moved || self.figs[f].attacked {
            return;
        }
        let gap = self.field.edge_distance(f, t);
        if gap <= 0.5 {
            return;
        }
        let allowance = self.figs[f].moves;
        let step = allowance.min(gap - 0.5);
        let p = self.pos(f);
        let bearing = p.bearing_to(self.pos(t));
        for swerve in [0.0, 20.0, -20.0, 45.0, -45.0] {
            let to = scatter(p, bearing + swerve, step);
            if !self.field.on_table(to) {
                continue;
            }
            let before = self.field.units()[f].facing;
            self.field.get_mut(f).unwrap().facing = p.bearing_to(to);
            if self.field.overlapping_at(f, to).is_empty() {
                self.field.get_mut(f).unwrap().pos = to;
                self.figs[f].moved = true;
                return;
            }
            self.field.get_mut(f).unwrap().facing = before;
        }
    }

    fn comrades(&self, f: usize) -> Vec<usize> {
        match self.figs[f].formation {
            None => vec![f],
            Some(g) => (0..self.figs.len())
                .filter(|&i| self.figs[i].formation == Some(g) && self.in_play(i))
                .collect(),
        }
    }

    fn below_half(&self, f: usize) -> bool {
        let at_start = match self.figs[f].formation {
            None => 1,
            Some(g) => self.figs.iter().filter(|x| x.formation == Some(g)).count(),
        };
        self.comrades(f).len() * 2 < at_start
    }

    fn rout(&mut self, a: usize, r: usize) {
        let (group_a, group_r) = (self.comrades(a), self.comrades(r));
        let g = self.group(r);
        if !group_a.iter().any(|&x| self.figs[x].fought.contains(&g))
            || group_a.iter().any(|&x| self.figs[x].called_rout)
            || group_r.iter().any(|&x| self.figs[x].routed)
        {
            return;
        }
        self.figs[a].called_rout = true;
        let rs: u32 = (0..group_r.len()).map(|_| self.rng.die(6)).sum();
        let mut total = (0..group_a.len()).map(|_| self.rng.die(6)).sum::<u32>() as f64 / 2.0;
        let flank = group_a.iter().any(|&x| {
            self.figs[x].attacked
                && group_r.iter().any(|&y| {
                    let u = &self.field.units()[y];
                    at_most(self.field.edge_distance(x, y), REACH)
                        && !in_arc(u.facing, u.pos, self.pos(x), 90.0)
                })
        });
        if group_a.iter().any(|&x| self.charging(x)) || flank {
            total += f64::from(self.rng.die(6));
        }
        if total > f64::from(rs) {
            for x in group_r {
                self.figs[x].routed = true;
            }
        }
    }

    fn end_turn(&mut self) {
        let next = (self.active + 1) % 2;
        if next == self.first {
            self.turn += 1;
        }
        self.active = next;
        for f in self.figs.iter_mut().filter(|f| f.side == next) {
            f.moved = false;
            f.attacked = false;
            f.blocked = false;
            f.missed = None;
            f.may_step = false;
            f.stepped_from = None;
            f.fought.clear();
            f.called_rout = false;
            f.shots = 0;
        }
        for f in 0..self.figs.len() {
            if self.figs[f].side == next && self.figs[f].routed && self.in_play(f) {
                self.flee(f);
            }
        }
    }

    fn flee(&mut self, f: usize) {
        let bearing = if self.figs[f].side == 0 { 180.0 } else { 0.0 };
        let p = self.pos(f);
        let moves = self.figs[f].moves;
        if !self.field.on_table(scatter(p, bearing, moves)) {
            self.field.get_mut(f).unwrap().in_play = false;
            return;
        }
        self.field.get_mut(f).unwrap().facing = bearing;
        for swerve in [0.0, 30.0, -30.0, 60.0, -60.0] {
            let way = bearing + swerve;
            let to = scatter(p, way, moves);
            let side = self.figs[f].side;
            // A gap is 2 inches: his line must pass 1 inch from every enemy ahead of him.
            let enemy_in_path = self
                .field
                .enemies_within(f, moves + ROUT_GAP)
                .into_iter()
                .any(|e| {
                    let u = &self.field.units()[e];
                    angle_off(way, p.bearing_to(u.pos)).abs() <= 90.0
                        && !at_least(u.footprint().distance_to_segment(p, to), ROUT_GAP / 2.0)
                });
            let enemy_there = self
                .field
                .overlapping_at(f, to)
                .iter()
                .any(|&u| self.figs[u].side != side);
            if self.field.on_table(to) && !enemy_in_path && !enemy_there {
                self.field.get_mut(f).unwrap().pos = to;
                return;
            }
        }
    }
}
