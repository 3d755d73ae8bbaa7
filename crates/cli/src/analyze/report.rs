// Long because the report writes every analysis as text and as JSON side by side; split, each shape would be written twice.
//! What `snl analyze` prints: the numbers as tables for people, or as one JSON object (SPEC §7).

use std::{io::Write, path::Path};

use serde_json::Value;
use snl_analysis::{
    exact::{Analysis, EffectWorth, QUANTILES, RaceOutcomes, SeatOutcomes},
    strategy::Strategy,
};
use snl_engine::{Board, Choice, Finish, Seat};

use crate::{
    format::{Align, Table, percent},
    plot::PlotSummary,
};

/// Turns listed at most in `--json`'s `p_finish_by` past the propagated ones: a longer
/// distribution is the geometric tail's law from there on (`p_finish_by_tail`).
const MAX_LISTED_TURNS: usize = 1 << 16;

/// Cells listed in the "most landed on" table.
const TOP_CELLS: usize = 10;

/// What stops an analysis short: the time given, or the fixed work limit of huge boards (whose
/// message must not blame a `--max-seconds` nobody gave).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum StoppedBy {
    /// `--max-seconds S` ran out.
    MaxSeconds(f64),
    /// The distribution's work limit (`exact::Options::max_work`).
    WorkLimit,
}

impl std::fmt::Display for StoppedBy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoppedBy::MaxSeconds(s) => write!(f, "--max-seconds {s}"),
            StoppedBy::WorkLimit => write!(f, "its work limit ({MAX_WORK_SHOWN} multiply-adds)"),
        }
    }
}

/// The distribution's work limit, as told (`exact::Options::default().max_work`).
const MAX_WORK_SHOWN: &str = "10,000,000,000";

/// Everything printed.
pub(super) struct Report<'a> {
    pub(super) board_name: &'a str,
    pub(super) board: &'a Board,
    pub(super) analysis: &'a Analysis,
    pub(super) seats: &'a [Seat],
    pub(super) outcomes: Option<&'a SeatOutcomes>,
    /// The strategy of the one-player numbers, when asked for or when the rules offer a choice.
    pub(super) policy: Option<Strategy>,
    /// Every strategy's headline numbers, when the rules offer a choice and no --policy was given.
    pub(super) comparison: Option<&'a [(Strategy, Summary)]>,
    /// Under race mode with seats: each seat's chance and expected rank after the rounds.
    pub(super) race: Option<&'a RaceOutcomes>,
    /// Per effect cell, what it is worth (empty without effects).
    pub(super) worth: &'a [EffectWorth],
    /// Whether every effect cell was weighed (false when the time ran out first).
    pub(super) worth_complete: bool,
    /// What stopped any part of the work short.
    pub(super) stopped_by: StoppedBy,
    /// Seats playing to win (`--policy win` or a seat of kind `win`).
    pub(super) to_win: Option<&'a ToWin>,
}

/// Seats playing to win, solved on the joint chain.
#[derive(Clone, Debug)]
pub(super) struct ToWin {
    /// Per seat: `win`, or the strategy it plays.
    pub(super) plays: Vec<&'static str>,
    /// Per seat: its chance to finish first.
    pub(super) win_probability: Vec<f64>,
    /// Whether best responses settled (no choice changed in the last sweep).
    pub(super) settled: bool,
    /// `--max-seconds S` when it stopped the sweeps before they settled.
    pub(super) stopped_by: Option<f64>,
    pub(super) sweeps: usize,
    /// The most a chance moved in the last sweep.
    pub(super) last_change: f64,
    pub(super) seconds: f64,
}

impl ToWin {
    fn json(&self, as_kinds: Option<&[f64]>) -> Value {
        serde_json::json!({
            "plays": self.plays,
            "win_probability": self.win_probability,
            "win_probability_as_kinds": as_kinds,
            "settled": self.settled,
            "stopped": self.stopped_by.is_some(),
            "sweeps": self.sweeps,
            "last_change": self.last_change,
            "seconds": self.seconds,
        })
    }

    fn text(
        &self,
        out: &mut dyn Write,
        seats: &[Seat],
        kinds: Option<&[f64]>,
    ) -> std::io::Result<()> {
        writeln!(
            out,
            "\nPlaying to win: a seat playing win chooses to maximise its own chance to finish \
             first, the others doing the same or playing their kinds"
        )?;
        let mut table = Table::new(&[
            ("seat", Align::Left),
            ("plays", Align::Left),
            ("win chance", Align::Right),
            ("win as hard", Align::Right),
        ]);
        for (i, seat) in seats.iter().enumerate() {
            let hard = kinds.and_then(|k| k.get(i)).map_or_else(|| "-".to_owned(), |&p| percent(p));
            table.row([
                seat.name.clone(),
                self.plays[i].to_owned(),
                percent(self.win_probability[i]),
                hard,
            ]);
        }
        table.write(out)?;
        if self.settled {
            writeln!(
                out,
                "  settled after {} sweeps ({:.1} s): no seat's choice changes",
                self.sweeps, self.seconds
            )
        } else if let Some(s) = self.stopped_by {
            writeln!(
                out,
                "  Partial: --max-seconds {s} stopped the sweeps after {} ({:.1} s), before they \
                 settled: the chances last moved by {:.1e}",
                self.sweeps, self.seconds, self.last_change
            )
        } else {
            writeln!(
                out,
                "  did not settle after {} sweeps ({:.1} s): the chances last moved by {:.1e}",
                self.sweeps, self.seconds, self.last_change
            )
        }
    }
}

/// The headline numbers of one strategy, for the comparison table.
#[derive(Clone, Copy, Debug)]
pub(super) struct Summary {
    expected_turns: f64,
    expected_rolls: f64,
    std_dev_turns: f64,
    min_turns: Option<u32>,
    median_turns: Option<u32>,
}

impl Summary {
    pub(super) fn of(a: &Analysis) -> Summary {
        Summary {
            expected_turns: a.expected_turns,
            expected_rolls: a.expected_rolls,
            std_dev_turns: a.std_dev_turns,
            min_turns: a.min_turns(),
            median_turns: a.median_turns(),
        }
    }

    /// Infinite values (a token that can be stuck) are null, as in the rest of the report.
    fn json(&self) -> Value {
        let finite = |x: f64| if x.is_finite() { serde_json::json!(x) } else { Value::Null };
        serde_json::json!({
            "expected_turns": finite(self.expected_turns),
            "expected_rolls": finite(self.expected_rolls),
            "std_dev_turns": finite(self.std_dev_turns),
            "min_turns": self.min_turns,
            "median_turns": self.median_turns,
        })
    }
}

impl Report<'_> {
    /// The object of SPEC §7 (`expected_turns` … `expected_game_rolls`), with infinite values as
    /// null, plus `p_never_finish`, `distribution_complete`, `expected_landings` (index = cell; null when the
    /// time given ran out before them, `landings_complete` false)
    /// and, with seats, their names, `expected_game_turns`, `seats_unresolved` (the weight of
    /// games left undecided when the distribution stopped; the seat figures are null unless it
    /// is below 1e-9) and, under finish all, `rank_probability` (per seat, index r = P(rank r + 1)).
    /// A distribution longer than [`MAX_LISTED_TURNS`] past its propagated turns is listed that
    /// far, and `p_finish_by_tail` gives its geometric law.
    pub(super) fn json(&self) -> Value {
        let a = self.analysis;
        let d = &a.distribution;
        let (listed, tail) = match d.geometric_tail() {
            Some(law) if d.turns() > law.from + MAX_LISTED_TURNS => {
                let listed = law.from + MAX_LISTED_TURNS;
                let tail = serde_json::json!({
                    "from": law.from,
                    "live": law.live,
                    "ratio": law.ratio,
                    "finishing": law.finishing,
                    "bound": law.bound,
                    "last_turn": d.turns(),
                });
                (listed, Some(tail))
            }
            _ => (d.turns(), None),
        };
        let quantiles: serde_json::Map<String, serde_json::Value> = QUANTILES
            .iter()
            .map(|&q| (q.to_string(), serde_json::json!(a.distribution.quantile(q))))
            .collect();
        let mut v = serde_json::json!({
            "board": self.board_name,
            "size": a.size,
            "reachable": a.never_finish_probability < 1.0,
            "expected_turns": a.expected_turns,
            "expected_rolls": a.expected_rolls,
            "std_dev_turns": a.std_dev_turns,
            "p_never_finish": a.never_finish_probability,
            "min_turns": a.min_turns(),
            "median_turns": a.median_turns(),
            "mode_turns": a.mode_turns(),
            "quantiles": quantiles,
            "p_finish_by": &a.p_finish_by()[..=listed],
            "distribution_complete": a.distribution.is_complete(),
            "complete": a.distribution.is_complete()
                && self.worth_complete
                && !a.landings_cut
                && self.to_win.is_none_or(|w| w.stopped_by.is_none()),
            "expected_landings": a.expected_landings,
            "landings_complete": !a.landings_cut,
        });
        if let Some(tail) = tail {
            v["p_finish_by_tail"] = tail;
        }
        if let Some(policy) = self.policy {
            v["policy"] = serde_json::json!(policy.as_str());
        }
        if let Some(rows) = self.comparison {
            let table: serde_json::Map<String, Value> =
                rows.iter().map(|(s, summary)| (s.as_str().to_owned(), summary.json())).collect();
            v["policies"] = Value::Object(table);
        }
        if let Some(o) = self.outcomes {
            let names: Vec<&str> = self.seats.iter().map(|s| s.name.as_str()).collect();
            v["players"] = serde_json::json!(names);
            // Inexact seat figures (the distribution stopped at its work limit) are null.
            let exact = |value: serde_json::Value| if o.is_exact() { value } else { Value::Null };
            v["win_probability"] = exact(serde_json::json!(o.win_probability));
            v["expected_game_rolls"] = exact(serde_json::json!(o.expected_game_rolls));
            v["expected_game_turns"] = exact(serde_json::json!(o.expected_game_turns));
            if let Some(ranks) = &o.rank_probability {
                v["rank_probability"] = exact(serde_json::json!(ranks));
            }
            v["seats_unresolved"] = serde_json::json!(o.unresolved);
        }
        if let Some(r) = self.race {
            // A race ends after its rounds: its own chances replace the classic game's.
            v["win_probability"] = serde_json::json!(r.win_probability);
            v["expected_rank"] = serde_json::json!(r.expected_rank);
            v["expected_game_rolls"] = Value::Null;
            v["expected_game_turns"] = Value::Null;
            if let Some(obj) = v.as_object_mut() {
                obj.remove("rank_probability");
            }
            v["race"] = serde_json::json!({
                "rounds": r.rounds,
                "p_finish_within": r.finish_within,
                "win_probability": r.win_probability,
                "expected_rank": r.expected_rank,
            });
        }
        if let Some(w) = self.to_win {
            let kinds = self.outcomes.filter(|o| o.is_exact()).map(|o| &o.win_probability[..]);
            v["to_win"] = w.json(kinds);
            v["win_probability"] = serde_json::json!(w.win_probability);
            v["policy"] = serde_json::json!("win");
        }
        if self.board.has_effects() {
            let finite = |x: f64| if x.is_finite() { serde_json::json!(x) } else { Value::Null };
            let rows: Vec<Value> = self
                .worth
                .iter()
                .map(|w| {
                    serde_json::json!({
                        "cell": w.cell,
                        "effect": w.effect,
                        "expected_turns_delta": finite(w.expected_turns_delta),
                        "first_seat_win_delta": w.first_seat_win_delta,
                    })
                })
                .collect();
            v["effect_worth"] = Value::Array(rows);
            v["effect_worth_complete"] = Value::Bool(self.worth_complete);
        }
        v
    }

    pub(super) fn text(
        &self,
        out: &mut dyn Write,
        plotted: Option<(&Path, PlotSummary)>,
    ) -> std::io::Result<()> {
        let a = self.analysis;
        let n = a.size;
        writeln!(out, "Board {} ({n} cells). Rules: {}.", self.board_name, a.rules)?;
        if let Some(rows) = self.comparison {
            writeln!(out, "\nStrategies (one player)")?;
            let mut table = Table::new(&[
                ("strategy", Align::Left),
                ("expected turns", Align::Right),
                ("std deviation", Align::Right),
                ("expected rolls", Align::Right),
                ("fewest", Align::Right),
                ("median", Align::Right),
            ]);
            let count = |t: Option<u32>| t.map_or_else(|| "-".to_owned(), |t| t.to_string());
            for (strategy, s) in rows {
                table.row([
                    strategy.as_str().to_owned(),
                    format!("{:.4}", s.expected_turns),
                    format!("{:.4}", s.std_dev_turns),
                    format!("{:.4}", s.expected_rolls),
                    count(s.min_turns),
                    count(s.median_turns),
                ]);
            }
            table.write(out)?;
            if self.board.has_effects() {
                // Each plays knowing its shield and pending skip, as in games.
                writeln!(
                    out,
                    "  (easy: at random; greedy: highest landing, an extra roll or a shield worth \
                     a mean roll, a skip minus one; hard: least expected turns, over cell, \
                     shield and skip)"
                )?;
            } else {
                writeln!(
                    out,
                    "  (easy: at random; greedy: highest landing; hard: least expected turns)"
                )?;
            }
        }
        if a.rules.choice != Choice::None
            && let Some(policy) = self.policy
        {
            let seats = if self.seats.is_empty() {
                String::new()
            } else {
                " Each seat plays its kind's strategy (a human counts as hard).".to_owned()
            };
            writeln!(out, "\nBelow, one player plays {policy}.{seats}")?;
        }
        if a.never_finish_probability >= 1.0 {
            writeln!(out, "\nCell {n} is unreachable from the start: no one ever finishes.")?;
            return write_plot_note(out, plotted);
        }
        writeln!(out, "\nOne player")?;
        if a.is_finite() {
            writeln!(
                out,
                "  expected turns   {:.4}   (standard deviation {:.4})",
                a.expected_turns, a.std_dev_turns
            )?;
            writeln!(out, "  expected rolls   {:.4}", a.expected_rolls)?;
        } else {
            writeln!(
                out,
                "  expected turns   infinite: with probability {} a token ends up where cell {n} \
                 can no longer be reached, and stays stuck for ever",
                percent(a.never_finish_probability)
            )?;
        }
        let d = &a.distribution;
        // Not reached: never, or beyond the turns followed when the work limit stopped them.
        let unknown =
            if d.is_complete() { "never".to_owned() } else { format!("beyond {}", d.turns()) };
        let show = |t: Option<u32>| t.map_or_else(|| unknown.clone(), |t| t.to_string());
        writeln!(out, "  fewest turns     {}", show(a.min_turns()))?;
        writeln!(out, "  median turns     {}", show(a.median_turns()))?;
        if let Some(mode) = a.mode_turns() {
            let p = d.probability(mode as usize);
            writeln!(out, "  most likely      {mode} turns ({})", percent(p))?;
        }
        if !d.is_complete() {
            writeln!(
                out,
                "  (partial: the distribution was followed for {} turns, then {} stopped it; {} of the \
                 games were still on; the expectations are exact)",
                d.turns(),
                self.stopped_by,
                percent(d.residual())
            )?;
        }
        self.write_distribution(out)?;
        if let Some(r) = self.race {
            self.write_race(out, r)?;
        } else if let Some(o) = self.outcomes {
            self.write_seats(out, o)?;
        }
        if let Some(w) = self.to_win {
            let kinds = self.outcomes.filter(|o| o.is_exact()).map(|o| &o.win_probability[..]);
            w.text(out, self.seats, kinds)?;
        }
        self.write_worth(out)?;
        self.write_landings(out)?;
        write_plot_note(out, plotted)
    }

    fn write_distribution(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let d = &self.analysis.distribution;
        writeln!(out, "\nTurns needed, by quantile")?;
        let cells: Vec<(String, String)> = QUANTILES
            .iter()
            .map(|&q| {
                let label = format!("{}%", q * 100.0);
                let value = d.quantile(q).map_or_else(|| "-".to_owned(), |k| k.to_string());
                (label, value)
            })
            .collect();
        let width = cells.iter().map(|(l, v)| l.len().max(v.len())).max().unwrap_or(0);
        let row = |f: fn(&(String, String)) -> &String| {
            cells.iter().map(|c| format!("{:>width$}", f(c))).collect::<Vec<_>>().join("  ")
        };
        writeln!(out, "  {}", row(|c| &c.0))?;
        writeln!(out, "  {}", row(|c| &c.1))?;

        let (Some(first), Some(last)) = (d.min(), d.quantile(0.99).or(Some(d.turns() as u32)))
        else {
            return Ok(());
        };
        writeln!(out, "\nChance to finish")?;
        let mut table = Table::new(&[
            ("turns k", Align::Right),
            ("on turn k", Align::Right),
            ("within k turns", Align::Right),
        ]);
        for k in table_rows(first, last.max(first)) {
            let k = k as usize;
            table.row([k.to_string(), percent(d.probability(k)), percent(d.cdf(k))]);
        }
        table.write(out)
    }

    fn write_seats(&self, out: &mut dyn Write, o: &SeatOutcomes) -> std::io::Result<()> {
        let finish = self.analysis.rules.finish;
        let heading = match finish {
            Finish::First => "Seats: chance to win (finish first)",
            Finish::All => "Seats: chance to finish first, and of each rank",
        };
        writeln!(out, "\n{heading}")?;
        if !o.is_exact() {
            writeln!(
                out,
                "  not computed: {} of the games are still on after the {} turns followed",
                percent(o.unresolved),
                self.analysis.distribution.turns()
            )?;
            return Ok(());
        }
        if let Some(ranks) = &o.rank_probability {
            let headings: Vec<String> =
                (1..=self.seats.len() as u32).map(snl_words::ordinal).collect();
            let mut columns = vec![("seat", Align::Left)];
            columns.extend(headings.iter().map(|h| (h.as_str(), Align::Right)));
            let mut table = Table::new(&columns);
            for (seat, row) in self.seats.iter().zip(ranks) {
                table.row([seat.name.clone()].into_iter().chain(row.iter().map(|&p| percent(p))));
            }
            table.write(out)?;
        } else {
            let mut table = Table::new(&[("seat", Align::Left), ("win chance", Align::Right)]);
            for (seat, &p) in self.seats.iter().zip(&o.win_probability) {
                table.row([seat.name.clone(), percent(p)]);
            }
            table.write(out)?;
        }
        if o.expected_game_rolls.is_finite() {
            writeln!(
                out,
                "  whole game: {:.4} rolls and {:.4} turns expected",
                o.expected_game_rolls, o.expected_game_turns
            )?;
        } else {
            writeln!(
                out,
                "  whole game: infinite expected length (it never ends with probability {})",
                percent(o.never_ends)
            )?;
        }
        Ok(())
    }

    fn write_race(&self, out: &mut dyn Write, r: &RaceOutcomes) -> std::io::Result<()> {
        let rounds = r.rounds;
        writeln!(
            out,
            "\nRace of {rounds} rounds: chance to win and expected rank (unfinished players ranked \
             by position)"
        )?;
        let mut table = Table::new(&[
            ("seat", Align::Left),
            ("win chance", Align::Right),
            ("expected rank", Align::Right),
        ]);
        for ((seat, &p), &rank) in self.seats.iter().zip(&r.win_probability).zip(&r.expected_rank) {
            table.row([seat.name.clone(), percent(p), format!("{rank:.4}")]);
        }
        table.write(out)?;
        writeln!(
            out,
            "  one player finishes within {rounds} turns with probability {}",
            percent(r.finish_within)
        )
    }

    fn write_worth(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let effects = self.board.effects().len();
        if !self.worth_complete {
            // One line, in the words the other stopped runs use.
            writeln!(
                out,
                "\nPartial: {} stopped the weighing of effect cells after {} of {effects} (each is two \
                 exact analyses, with the cell and without); those weighed are shown",
                self.stopped_by,
                self.worth.len()
            )?;
        }
        if self.worth.is_empty() {
            return Ok(());
        }
        let seats = self.worth.iter().any(|w| w.first_seat_win_delta.is_some());
        let against = "each against the same cell left plain, players moving by the roll";
        writeln!(out, "\nWhat each effect is worth ({against})")?;
        let mut columns = vec![
            ("cell", Align::Right),
            ("effect", Align::Left),
            ("Δ expected turns", Align::Right),
        ];
        let first = self.seats.first().map(|s| format!("Δ {} wins", s.name)).unwrap_or_default();
        if seats {
            columns.push((first.as_str(), Align::Right));
        }
        let mut table = Table::new(&columns);
        for w in self.worth {
            let turns = if w.expected_turns_delta.is_finite() {
                format!("{:+.4}", w.expected_turns_delta)
            } else {
                "-".to_owned()
            };
            let mut row = vec![w.cell.to_string(), w.effect.to_owned(), turns];
            if let Some(d) = w.first_seat_win_delta {
                row.push(format!("{:+.3} points", 100.0 * d));
            }
            table.row(row);
        }
        table.write(out)
    }

    fn write_landings(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let Some(landings) = &self.analysis.expected_landings else {
            if self.analysis.landings_cut {
                writeln!(
                    out,
                    "\nPartial: {} stopped the analysis before the landings (how often each cell is \
                     landed on); the expectations above are exact",
                    self.stopped_by
                )?;
            }
            return Ok(());
        };
        let mut cells: Vec<(usize, f64)> =
            landings.iter().copied().enumerate().skip(1).filter(|&(_, v)| v > 0.0).collect();
        // Every game ends with one landing on the last cell: not news.
        cells.retain(|&(c, _)| c < landings.len() - 1);
        cells.sort_by(|x, y| y.1.total_cmp(&x.1).then(x.0.cmp(&y.0)));
        cells.truncate(TOP_CELLS);
        writeln!(out, "\nMost landed-on cells (expected landings per game, before any jump)")?;
        let mut table = Table::new(&[
            ("cell", Align::Right),
            ("landings", Align::Right),
            (if self.board.has_effects() { "jump or effect" } else { "jump" }, Align::Left),
        ]);
        for (cell, v) in cells {
            let jump = match self.board.jump_at(cell as u32) {
                Some(to) if to < cell as u32 => format!("snake to {to}"),
                Some(to) => format!("ladder to {to}"),
                None => self
                    .board
                    .effect_at(cell as u32)
                    .map_or_else(String::new, |e| e.name().to_owned()),
            };
            table.row([cell.to_string(), format!("{v:.4}"), jump]);
        }
        table.write(out)
    }
}

fn write_plot_note(
    out: &mut dyn Write,
    plotted: Option<(&Path, PlotSummary)>,
) -> std::io::Result<()> {
    if let Some((path, summary)) = plotted {
        let bars = if summary.turns_per_bar == 1 {
            String::new()
        } else {
            format!(", {} turns to a bar", summary.turns_per_bar)
        };
        let squares = if summary.block == 1 {
            String::new()
        } else {
            format!(", {0}×{0} cells to a square", summary.block)
        };
        writeln!(
            out,
            "\nPlot of the game length and the landings written to {}{bars}{squares}.",
            path.display()
        )?;
    }
    Ok(())
}

/// About ten turn counts from `first` to `last`, on a round step.
fn table_rows(first: u32, last: u32) -> Vec<u32> {
    let span = last - first;
    let step = (0..10)
        .flat_map(|e| [1, 2, 5].map(|m| m * 10_u32.pow(e)))
        .find(|&s| span / s <= 10)
        .unwrap_or(1);
    let mut rows = vec![first];
    let mut k = (first / step + 1) * step;
    while k < last {
        rows.push(k);
        k += step;
    }
    if last > first {
        rows.push(last);
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_distribution_table_steps_round_numbers() {
        assert_eq!(table_rows(7, 128), [7, 20, 40, 60, 80, 100, 120, 128]);
        assert_eq!(table_rows(1, 4), [1, 2, 3, 4]);
        assert_eq!(table_rows(3, 3), [3]);
    }
}
