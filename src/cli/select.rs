//! `arbiter select [PATH...] [-o FILE.pgn] [--where EXPR] [--position FEN]... [--dedup moves|game]
//! [--eco] [--fix-result] [--rejected FILE] [--duplicates FILE] [--no-comments [--keep-commands]]
//! [--no-variations] [--no-nags]`: keep the games an expression, a position or deduplication
//! picks, name their openings, and write them back as clean PGN (docs/select.md).
//!
//! The expression and the positions are checked before any input is read (a mistake is a usage
//! error naming its column). `-o`, `--rejected` and `--duplicates` are written as every `-o` is
//! (see [`crate::cli::output`]), and none may be another. The summary goes to stderr unless
//! `--quiet`; the exit status is [`Exit::of`] the run.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{anyhow, bail};
use arbiter::io::sink::{Sink, clash};
use arbiter::report::pgn_writer::WriteOptions;
use arbiter::select::{Chooser, DedupMode, KeptGames, Router, SelectOptions, SelectPlan};
use clap::{Args, ValueEnum};

use crate::cli::exit::Exit;
use crate::cli::games::{GameRun, counted};
use crate::cli::output;

/// Arguments of `arbiter select`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  \
    arbiter select games.pgn --where 'white_elo >= 2500 and speed == \"blitz\"' -o strong.pgn\n  \
    arbiter select archive/ --where 'tag(\"WhiteTitle\") == \"GM\"' --rejected others.pgn -o gm.pgn\n  \
    arbiter select games.pgn --where 'outcome in [\"time_forfeit\", \"dead_position\"]'\n  \
    arbiter select games.pgn --where 'not valid' -o broken.pgn\n  \
    arbiter select games.pgn --position 'rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -'\n  \
    arbiter select archive.pgn --dedup game --duplicates dups.pgn -o unique.pgn\n  \
    arbiter select lichess.pgn.zst --eco --fix-result -o named.pgn\n  \
    arbiter select lichess.pgn --no-comments --keep-commands --no-variations --no-nags -o lean.pgn.zst\n  \
    arbiter select big.pgn.zst --where valid --dedup moves --jobs 2 -q -o unique.pgn.zst")]
pub(crate) struct SelectArgs {
    /// The inputs, the output (the games kept, as PGN), jobs and progress.
    #[command(flatten)]
    pub(crate) run: GameRun,
    /// Keep the games that pass EXPR, a test over export's fields and the tags, e.g.
    /// `white_elo >= 2500 and speed == "blitz"`, `not valid`, `tag("WhiteTitle") == "GM"`,
    /// `opening ~ "^Sicilian"` (arbiter help where; the fields: arbiter help columns).
    #[arg(long = "where", value_name = "EXPR")]
    pub(crate) filter: Option<String>,
    /// Keep the games whose main line reaches this position (placement, side to move, castling
    /// rights, en passant square when a capture there is legal; move counters may be left out).
    /// Repeatable: a game reaching any of them is kept.
    #[arg(long, value_name = "FEN")]
    pub(crate) position: Vec<String>,
    /// Drop a game when a game kept before it has the same main line from the same start
    /// (`moves`), or also the same White, Black, Date, Round and Result (`game`). Memory: about
    /// 40 bytes per game kept (the keys go to a temporary file), every match checked in full.
    #[arg(long, value_enum, value_name = "MODE")]
    pub(crate) dedup: Option<DedupArg>,
    /// Name each game's opening from the opening table built in (lichess's, by position: the
    /// deepest named position within the first 40 plies) in its ECO and Opening tags.
    #[arg(long)]
    pub(crate) eco: bool,
    /// Where the board decides the result (mate, stalemate, insufficient material, dead
    /// position, fivefold repetition, 75-move rule) and the Result says otherwise, write the
    /// board's result, with a warning naming the game.
    #[arg(long)]
    pub(crate) fix_result: bool,
    /// Write the games --where or --position turn down to FILE, as they were.
    #[arg(long, value_name = "FILE")]
    pub(crate) rejected: Option<PathBuf>,
    /// Write the games --dedup drops to FILE, as they were.
    #[arg(long, value_name = "FILE")]
    pub(crate) duplicates: Option<PathBuf>,
    /// Leave out the comments.
    #[arg(long)]
    pub(crate) no_comments: bool,
    /// With --no-comments: keep each comment's [%clk], [%emt] and [%eval] commands.
    #[arg(long, requires = "no_comments")]
    pub(crate) keep_commands: bool,
    /// Leave out the variations.
    #[arg(long)]
    pub(crate) no_variations: bool,
    /// Leave out the NAGs ($1, !, ?...).
    #[arg(long)]
    pub(crate) no_nags: bool,
}

/// `--dedup`.
#[derive(Copy, Clone, Debug, Eq, PartialEq, ValueEnum)]
pub(crate) enum DedupArg {
    /// The same main line from the same start position.
    Moves,
    /// The same main line, White, Black, Date, Round and Result.
    Game,
}

/// The files the run writes, with their options' names: none may be standard output but `-o`,
/// nor an input, nor another ([`clash::check`]).
fn check_outputs(args: &SelectArgs) -> anyhow::Result<()> {
    let named = [
        ("-o", output::path(args.run.output.as_deref())),
        ("--rejected", args.rejected.as_deref()),
        ("--duplicates", args.duplicates.as_deref()),
    ];
    for (name, path) in &named[1..] {
        if path.is_some_and(|path| path.as_os_str() == "-") {
            bail!("{name} -: only the selected games go to standard output; give a file");
        }
    }
    clash::check(&named, &args.run.paths)?;
    Ok(())
}

/// Runs `arbiter select`: the games kept to `-o` (or standard output), the others to
/// `--rejected` and `--duplicates`, then the summary on stderr. Returns the exit status, every
/// output committed (status 0 or 1) or left as it was (2).
pub(crate) fn run(args: &SelectArgs) -> anyhow::Result<Exit> {
    let started = Instant::now();
    let plan = SelectPlan::new(SelectOptions {
        filter: args.filter.clone(),
        positions: args.position.clone(),
        dedup: args.dedup.map(|mode| match mode {
            DedupArg::Moves => DedupMode::Moves,
            DedupArg::Game => DedupMode::Game,
        }),
        eco: args.eco,
        fix_result: args.fix_result,
        write: WriteOptions {
            comments: !args.no_comments,
            keep_commands: args.keep_commands,
            variations: !args.no_variations,
            nags: !args.no_nags,
        },
        keep_source: args.rejected.is_some() || args.duplicates.is_some(),
    })
    .map_err(|err| anyhow!("--{err}"))?;
    check_outputs(args)?;
    let out = output::open_checked(args.run.output.as_deref())?;
    let side = |path: &Option<PathBuf>| -> anyhow::Result<Option<Sink>> {
        path.as_deref()
            .map(|path| output::open_checked(Some(path)))
            .transpose()
    };
    let rejected = side(&args.rejected)?;
    let duplicates = side(&args.duplicates)?;
    let kept = plan.dedup().map(|_| KeptGames::new()).transpose()?;
    let warn = Box::new(|warning: &str| crate::cli::stderr::report(format_args!("{warning}")));
    let mut router = Router::new(out, rejected, duplicates, kept, warn);
    let totals = args.run.run_on(
        plan.jobs(args.run.jobs()),
        &plan.replay_options(),
        || Chooser::new(&plan),
        &mut router,
    )?;
    let counts = router.counts();
    let (out, rejected, duplicates) = router.into_outputs();
    let sinks = [Some(out), rejected, duplicates].into_iter().flatten();
    let exit = Exit::of(&totals);
    let commit = output::commits(exit, args.run.keep_going);
    output::close_all(sinks.collect(), commit)?;
    output::report_unread(&totals, commit);
    if !args.run.quiet && commit {
        let elapsed = started.elapsed().as_secs_f64();
        let rate = if elapsed > 0.0 {
            totals.counts.games as f64 / elapsed
        } else {
            0.0
        };
        let mut notes = Vec::new();
        if counts.unchanged > 0 {
            notes.push(format!("{} unchanged", counts.unchanged));
        }
        if counts.fixed > 0 {
            notes.push(counted(counts.fixed, "result") + " fixed");
        }
        let notes = if notes.is_empty() {
            String::new()
        } else {
            format!(" ({})", notes.join(", "))
        };
        let input_errors = if totals.input_errors > 0 {
            format!(", {}", counted(totals.input_errors, "input error"))
        } else {
            String::new()
        };
        let _ = writeln!(
            std::io::stderr().lock(),
            "arbiter: {} read, {} written{notes}, {} rejected, {}, {} invalid{input_errors} in \
             {elapsed:.3} s ({rate:.0} games/s)",
            counted(totals.counts.games, "game"),
            counts.written,
            counts.rejected,
            counted(counts.duplicates, "duplicate"),
            totals.counts.invalid,
        );
    }
    Ok(exit)
}
