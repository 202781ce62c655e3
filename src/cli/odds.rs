//! `sandtable odds EXPR`: the exact distribution of a dice expression, a contest or a card
//! check, as fractions, percentages, the mean and a bar chart.

use serde_json::json;

use super::Common;
use crate::error::Error;
use crate::host::dice::{DiceError, DiceExpr, Node};
use crate::host::odds::{self, CardCheck, Contest, Dist, FaceCards, Fraction, OddsError};

/// How a contest compares the two rolls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum By {
    /// The highest single die of each side (Playmobil); ties go to the attacker
    #[default]
    Highest,
    /// The totals of each side; ties go to the attacker
    Total,
}

/// How face cards count in a card check (`card<=N`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Faces {
    /// Jack, Queen and King always pass (Soldiers in Time's activation checks)
    #[default]
    Pass,
    /// Jack, Queen and King always fail
    Fail,
    /// Jack, Queen and King count as 11, 12 and 13
    Rank,
}

/// The options of `sandtable odds`.
#[derive(Debug, Clone, clap::Args)]
pub struct OddsArgs {
    /// A dice expression (`3d6`, `4d6kh3`, `3d6!3`, `5d6>=5`), a contest (`3d6 vs 2d6`) or a
    /// card check (`card<=6`, `3cards<=6`); one that starts with `-` goes after `--`:
    /// `sandtable odds -- -1d6+3`
    #[arg(required_unless_present = "action", conflicts_with = "action", num_args = 1.., value_name = "EXPR")]
    pub expr: Vec<String>,
    /// Instead of an expression, the odds of a rules action in a scenario, e.g.
    /// `--action "melee viking_1 legionary_1"`: the real scripts over every outcome
    #[arg(long, value_name = "LINE")]
    pub action: Option<String>,
    /// The scenario for `--action` (default: the default scenario)
    #[arg(long, requires = "action")]
    pub scenario: Option<std::path::PathBuf>,
    /// For `--action`: start from a game saved with `:save` instead of a scenario's start
    /// (the save knows its scenario and house rules)
    #[arg(
        long,
        value_name = "SAVE",
        requires = "action",
        conflicts_with = "scenario"
    )]
    pub open: Option<std::path::PathBuf>,
    /// For `--action`: the side that acts (default: the side whose turn it is)
    #[arg(long = "as", value_name = "SIDE", requires = "action")]
    pub side: Option<String>,
    /// How a contest compares the rolls [default: highest]
    #[arg(long, value_enum)]
    pub by: Option<By>,
    /// How face cards count in a card check [default: pass]
    #[arg(long, value_enum)]
    pub faces: Option<Faces>,
    /// Jokers in the deck for a card check: 0, 1 or 2 (they always fail) [default: 0]
    #[arg(long, value_name = "0-2", value_parser = jokers)]
    pub jokers: Option<u32>,
}

/// `--jokers N`: a deck has two jokers at most.
fn jokers(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(n) if n <= 2 => Ok(n),
        _ => Err(format!(
            "a deck holds 0, 1 or 2 jokers, not `{text}` (a standard deck has two)"
        )),
    }
}

impl OddsArgs {
    /// Refuses the options that mean nothing for what is asked (`--by` outside a contest,
    /// `--faces` and `--jokers` outside a card check), rather than ignore them.
    fn check_options(&self, contest: bool, cards: bool) -> Result<(), Error> {
        let misplaced = [
            (
                "--by",
                self.by.is_some() && !contest,
                "a contest (`3d6 vs 2d6`)",
            ),
            (
                "--faces",
                self.faces.is_some() && !cards,
                "a card check (`card<=6`)",
            ),
            (
                "--jokers",
                self.jokers.is_some() && !cards,
                "a card check (`card<=6`)",
            ),
        ];
        match misplaced.into_iter().find(|(_, given, _)| *given) {
            Some((option, _, for_what)) => Err(Error::Usage(format!(
                "`{option}` is for {for_what}; it means nothing here"
            ))),
            None => Ok(()),
        }
    }
}

/// Prints the exact odds of an expression.
pub fn odds(common: &Common, args: &OddsArgs) -> Result<u8, Error> {
    if let Some(action) = &args.action {
        args.check_options(false, false)?;
        return action_odds(
            common,
            Start {
                scenario: args.scenario.clone(),
                open: args.open.clone(),
            },
            action.trim(),
            args.side.as_deref(),
        );
    }
    let joined = args.expr.join(" ");
    let expr = joined.trim();
    if let Some(check) = parse_card_check(expr, args)? {
        args.check_options(false, true)?;
        let dist = odds::card_check(&check).map_err(|e| odds_error(expr, e))?;
        let what = if check.draws == 1 {
            "cards passing (1 drawn)".to_string()
        } else {
            format!("cards passing ({} drawn without replacement)", check.draws)
        };
        print_dist(common, expr, &what, &dist);
        return Ok(0);
    }
    if let Some((a, b)) = split_contest(expr)? {
        args.check_options(true, false)?;
        let by = args.by.unwrap_or_default();
        let (left, right) = (&expr[..a.end], &expr[b.start..]);
        let pa = parse_side(expr, left, 0)?;
        let pb = parse_side(expr, right, b.start)?;
        let (da, db) = match by {
            By::Highest => (highest(expr, &pa)?, highest(expr, &pb)?),
            By::Total => (
                odds::distribution(pa.node()).map_err(|e| odds_error(expr, e))?,
                odds::distribution(pb.node()).map_err(|e| odds_error(expr, e))?,
            ),
        };
        let contest = odds::compare(&da, &db).map_err(|e| odds_error(expr, e))?;
        print_contest(common, expr, by, &contest);
        return Ok(0);
    }
    args.check_options(false, false)?;
    let parsed = DiceExpr::parse(expr).map_err(|e| super::roll::dice_error(expr, &e))?;
    let dist = odds::distribution(parsed.node()).map_err(|e| odds_error(expr, e))?;
    let what = match parsed.node() {
        Node::Dice(spec) if spec.target.is_some() => "successes",
        _ => "total",
    };
    print_dist(common, expr, what, &dist);
    Ok(0)
}

/// The byte ranges of a contest's two sides.
type Sides = (std::ops::Range<usize>, std::ops::Range<usize>);

/// Where `vs` splits a contest: the byte ranges of the text before and after it; `None`
/// when there is no `vs`. No dice expression holds a `v`, so any `vs` is the contest's word
/// (`3d6vs2d6` is `3d6 vs 2d6`). A contest that stops short says what it lacks.
fn split_contest(expr: &str) -> Result<Option<Sides>, Error> {
    let lower = expr.to_ascii_lowercase();
    let found: Vec<usize> = lower.match_indices("vs").map(|(at, _)| at).collect();
    let Some(&at) = found.first() else {
        return Ok(None);
    };
    let example = Some("a contest is two pools with `vs` between them, e.g. `3d6 vs 2d6`".into());
    if found.len() > 1 {
        return Err(Error::other(
            format!(
                "`{expr}` has {} `vs`: a contest takes one `vs`, between two pools",
                found.len()
            ),
            example,
        ));
    }
    let (left, right) = (0..at, at + 2..expr.len());
    if expr[left.clone()].trim().is_empty() {
        return Err(Error::other(
            format!("`vs` needs a pool before it, the attacker's: `{expr}` has none"),
            example,
        ));
    }
    if expr[right.clone()].trim().is_empty() {
        return Err(Error::other(
            format!("`vs` needs a second pool after it, the defender's: `{expr}` has none"),
            Some(format!("e.g. `{} vs 2d6`", expr[left].trim())),
        ));
    }
    Ok(Some((left, right)))
}

fn parse_side(whole: &str, side: &str, byte_start: usize) -> Result<DiceExpr, Error> {
    DiceExpr::parse(side).map_err(|e| {
        let shift = whole[..byte_start].chars().count();
        let moved = DiceError {
            offset: e.offset + shift,
            ..e
        };
        super::roll::dice_error(whole, &moved)
    })
}

fn highest(whole: &str, side: &DiceExpr) -> Result<Dist, Error> {
    match side.node() {
        Node::Dice(spec) => odds::highest_die(spec).map_err(|e| odds_error(whole, e)),
        _ => Err(Error::other(
            format!(
                "`{whole}`: a contest by highest die takes one dice group a side, such as `3d6`"
            ),
            Some("add `--by total` to compare whole expressions by their totals".into()),
        )),
    }
}

/// `card<=N` or `Kcards<=N`; `None` when the expression is not a card check.
fn parse_card_check(expr: &str, args: &OddsArgs) -> Result<Option<CardCheck>, Error> {
    let lower = expr.to_ascii_lowercase().replace(' ', "");
    let digits = lower.chars().take_while(char::is_ascii_digit).count();
    let rest = &lower[digits..];
    let Some(rest) = rest
        .strip_prefix("cards")
        .or_else(|| rest.strip_prefix("card"))
    else {
        return Ok(None);
    };
    let how = "write `card<=N` for one card, or `3cards<=N` for three drawn without replacement (Ace is 1)";
    // Stopping short says what is missing: the `<=`, or the number after it.
    let missing = match rest {
        "" => Some("`<=` and the number a card must be at or under"),
        "<=" => Some("the number a card must be at or under"),
        _ => None,
    };
    if let Some(missing) = missing {
        return Err(Error::other(
            format!("`{expr}` needs {missing}, e.g. `card<=6`"),
            Some(how.into()),
        ));
    }
    let bad = || Error::other(format!("`{expr}` is not a card check"), Some(how.into()));
    let draws = if digits == 0 {
        1
    } else {
        lower[..digits].parse::<u32>().map_err(|_| bad())?
    };
    let at_most = rest
        .strip_prefix("<=")
        .and_then(|n| n.parse::<u32>().ok())
        .ok_or_else(bad)?;
    Ok(Some(CardCheck {
        at_most,
        draws,
        jokers: args.jokers.unwrap_or(0),
        faces: match args.faces.unwrap_or_default() {
            Faces::Pass => FaceCards::Pass,
            Faces::Fail => FaceCards::Fail,
            Faces::Rank => FaceCards::Rank,
        },
    }))
}

fn odds_error(expr: &str, e: OddsError) -> Error {
    let help = match e {
        OddsError::Overflow => Some(
            "fewer dice, or a stated explosion depth such as `3d6!3`, keep the count exact"
                .to_string(),
        ),
        OddsError::TooManyValues | OddsError::TooMuchWork => {
            Some("fewer dice or fewer sides; `sandtable roll` can still roll it".to_string())
        }
        OddsError::ValueOverflow => Some("smaller numbers".to_string()),
        OddsError::Unsupported(_) => None,
    };
    Error::other(format!("no exact odds for `{expr}`: {e}"), help)
}

fn percent(f: Fraction) -> String {
    format!("{:.2}%", f.value() * 100.0)
}

/// Prints a distribution, a line per value (or one JSON object), as it goes: a million
/// values make 60 MB of JSON, which is written out rather than built in memory first.
fn print_dist(common: &Common, expr: &str, what: &str, dist: &Dist) {
    let den = dist.denominator();
    if common.json {
        super::write_out_with(|out| {
            // The keys in the order `serde_json` sorts them, as `json!` gave them before.
            write!(
                out,
                "{{\"expr\":{},\"mean\":{},\"of\":{},\"outcomes\":[",
                json!(expr),
                json!(dist.mean()),
                json!(what)
            )?;
            for (i, (v, c)) in dist.iter().enumerate() {
                let f = Fraction::new(c, den);
                let outcome =
                    json!({ "value": v, "fraction": f.to_string(), "probability": f.value() });
                write!(out, "{}{outcome}", if i == 0 { "" } else { "," })?;
            }
            writeln!(out, "]}}")
        });
        return;
    }
    let (lo, hi) = dist.range();
    outln!("{expr}: {what}, mean {:.4}, from {lo} to {hi}", dist.mean());
    let rows = || dist.iter().map(|(v, c)| (v, c, Fraction::new(c, den)));
    let peak = rows().map(|(.., f)| f.value()).fold(0.0, f64::max);
    let vw = rows().map(|(v, ..)| v.to_string().len()).max().unwrap_or(1);
    let fw = rows().map(|(.., f)| f.to_string().len()).max().unwrap_or(1);
    let ew = fw + 9; // the fraction, two spaces and the percentage
    super::write_out_with(|out| {
        writeln!(out, "  {:>vw$}  {:>ew$}  {:>8}", "", "exactly", "at least")?;
        // The share of every value below this one, to give "at least" exactly.
        let mut below = 0u128;
        for (v, c, f) in rows() {
            let at_least = Fraction::new(den - below, den);
            below += c;
            let bar = crate::analysis::action_odds::bar(f.value() / peak, 40);
            writeln!(
                out,
                "  {v:>vw$}  {:>fw$}  {:>7}  {:>8}  {bar}",
                f.to_string(),
                percent(f),
                percent(at_least)
            )?;
        }
        Ok(())
    });
}

fn print_contest(common: &Common, expr: &str, by: By, c: &Contest) {
    let how = match by {
        By::Highest => "highest die",
        By::Total => "total",
    };
    let wins = c.attacker_wins();
    if common.json {
        let f = |x: Fraction| json!({ "fraction": x.to_string(), "probability": x.value() });
        outln!(
            "{}",
            json!({
                "expr": expr, "by": how,
                "attacker_wins": f(wins), "defender_wins": f(c.defender_higher),
                "attacker_higher": f(c.attacker_higher), "tie": f(c.tie),
            })
        );
        return;
    }
    // Every figure is a share of all rolls: the attacker's wins split into the rolls it
    // wins outright and the ties, which it wins too.
    outln!("{expr}: by {how}, ties to the attacker; each line is a share of all rolls");
    let higher = match by {
        By::Highest => "  by a higher die",
        By::Total => "  by a higher total",
    };
    let rows = [
        ("attacker wins", wins),
        (higher, c.attacker_higher),
        ("  by a tie", c.tie),
        ("defender wins", c.defender_higher),
    ];
    let lw = rows.iter().map(|(l, _)| l.len()).max().unwrap_or(1);
    let fw = rows
        .iter()
        .map(|(_, f)| f.to_string().len())
        .max()
        .unwrap_or(1);
    for (label, f) in rows {
        let bar = crate::analysis::action_odds::bar(f.value(), 40);
        outln!(
            "  {label:<lw$}  {:>fw$}  {:>7}  {bar}",
            f.to_string(),
            percent(f)
        );
    }
}

/// Where `--action` starts: a scenario's start, or a saved game.
struct Start {
    scenario: Option<std::path::PathBuf>,
    open: Option<std::path::PathBuf>,
}

/// `--action`: the odds of a rules action at the start of a scenario, or in a saved game.
fn action_odds(
    common: &Common,
    start: Start,
    action: &str,
    side: Option<&str>,
) -> Result<u8, Error> {
    let mut session = match start.open {
        // As `play --open` opens it: the save's scenario, house rules, cards and dice.
        Some(save) => {
            let project = crate::game::project::Project::locate(common.project.as_deref())?;
            crate::session::Session::open(&project, &save)?
        }
        None => super::start_session(common, start.scenario)?.1,
    };
    // What opening or starting said (the scenario's narration) is not the odds.
    let _ = session.take_events();
    let budget = crate::analysis::action_odds::OddsBudget::for_game(&session);
    let odds = crate::analysis::action_odds::action_odds_as(&mut session, action, budget, side)?;
    if common.json {
        outln!("{}", odds.to_json(action));
    } else {
        outln!("{}", odds.render(action));
    }
    Ok(0)
}
