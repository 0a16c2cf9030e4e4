//! Every output of a run is all or nothing, as `-o FILE` is: `select`'s three outputs never
//! destroy each other and are committed together; `export -o DIR --rows-per-file N` publishes
//! every part and its manifest at once, or nothing; its inputs are hashed as they are read, once
//! (a FIFO, standard input, an input removed mid-run); a run holds one part open however many
//! it writes; `--keep-going` writes what could be read. See: issue 38.

use std::fs;
use std::io::Write;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::util::{Input, Run, command, good_games, run_command, run_in, scratch, write};

/// The names in `dir`, sorted, hidden ones too (a temporary file or staging directory left
/// behind shows).
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Runs `arbiter args` in `dir` with `env` set.
fn run_env(dir: &Path, env: &[(&str, &str)], args: &[&str], input: Input<'_>) -> Run {
    let mut command = command();
    command
        .current_dir(dir)
        .args(args)
        .envs(env.iter().copied());
    run_command(command, input, None)
}

/// The SHA-256 of `bytes` in hexadecimal.
fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The manifest of the parts in `dir`.
fn manifest(dir: &Path) -> Value {
    serde_json::from_slice(&fs::read(dir.join("_manifest.json")).unwrap()).unwrap()
}

/// Two or three outputs of `select` that are one file, by every naming, none of them existing
/// yet: refused before anything is written. Before, `-o a.pgn --rejected ./a.pgn` kept only the
/// rejected games.
#[test]
fn select_outputs_that_are_one_file_are_refused_by_every_naming() {
    let dir = scratch();
    let root = dir.path();
    write(root, "in.pgn", good_games(0, 4).as_bytes());
    fs::create_dir(root.join("x")).unwrap();
    std::os::unix::fs::symlink(".", root.join("x/here")).unwrap();
    let absolute = root.join("a.pgn");
    let absolute = absolute.to_str().unwrap();
    for (option, other) in [
        ("--rejected", "./a.pgn"),
        ("--rejected", "x/../a.pgn"),
        ("--rejected", absolute),
        ("--duplicates", "./a.pgn"),
        ("--duplicates", "x/../a.pgn"),
        ("--rejected", "x/here/../a.pgn"),
    ] {
        let args = [
            "select",
            "in.pgn",
            "--where",
            "plies > 5",
            "-o",
            "a.pgn",
            option,
            other,
        ];
        let run = run_in(root, &args, Input::Null, None);
        run.assert_code(2, other);
        assert!(
            run.stderr
                .contains(&format!("-o and {option} are the same file ({other})")),
            "{other}: {}",
            run.stderr
        );
        assert_eq!(names(root), ["in.pgn", "x"], "{other}");
    }
    // The second and the third.
    let args = [
        "select",
        "in.pgn",
        "--dedup",
        "moves",
        "--where",
        "valid",
        "-o",
        "k.pgn",
        "--rejected",
        "r.pgn",
        "--duplicates",
        "./r.pgn",
    ];
    let run = run_in(root, &args, Input::Null, None);
    run.assert_code(2, "rejected and duplicates");
    assert!(
        run.stderr
            .contains("--rejected and --duplicates are the same file (./r.pgn)"),
        "{}",
        run.stderr
    );
    // Standard output sent to a file is an output too.
    let out = fs::File::create(root.join("r.pgn")).unwrap();
    let args = [
        "select",
        "in.pgn",
        "--where",
        "plies > 5",
        "--rejected",
        "r.pgn",
    ];
    let run = run_command(
        {
            let mut command = command();
            command.current_dir(root).args(args);
            command
        },
        Input::Null,
        Some(Stdio::from(out)),
    );
    run.assert_code(2, "> r.pgn --rejected r.pgn");
    assert!(
        run.stderr
            .contains("standard output and --rejected are the same file (r.pgn)"),
        "{}",
        run.stderr
    );
    fs::remove_file(root.join("r.pgn")).unwrap();
    // An output that is an input is named by its own option.
    std::os::unix::fs::symlink("in.pgn", root.join("inlink.pgn")).unwrap();
    let args = [
        "select",
        "in.pgn",
        "-o",
        "k.pgn",
        "--rejected",
        "inlink.pgn",
    ];
    let run = run_in(root, &args, Input::Null, None);
    run.assert_code(2, "inlink");
    assert!(
        run.stderr.contains(
            "--rejected inlink.pgn is also an input (the same file as in.pgn); choose another"
        ),
        "{}",
        run.stderr
    );
    assert_eq!(names(root), ["in.pgn", "inlink.pgn", "x"]);
}

/// When `select`'s last output cannot be written (a full disk at its last write), none of its
/// outputs is replaced, and the message names each. Before, `-o` was already replaced.
#[test]
fn select_replaces_none_of_its_outputs_unless_all_are_written() {
    let dir = scratch();
    let root = dir.path();
    write(root, "in.pgn", good_games(0, 6).as_bytes());
    write(root, "kept.pgn", b"old kept\n");
    let full = [("ARBITER_TEST_ONLY_FULL_DISK", "rej.pgn")];
    let args = [
        "select",
        "in.pgn",
        "--where",
        "tag(\"Event\") ~ \"[024]$\"",
        "-o",
        "kept.pgn",
        "--rejected",
        "rej.pgn",
    ];
    let run = run_env(root, &full, &args, Input::Null);
    run.assert_code(2, "full disk at --rejected");
    assert!(
        run.stderr
            .contains("cannot write rej.pgn: No space left on device"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("kept.pgn left unchanged"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("rej.pgn not written"), "{}", run.stderr);
    assert_eq!(
        fs::read_to_string(root.join("kept.pgn")).unwrap(),
        "old kept\n"
    );
    assert_eq!(names(root), ["in.pgn", "kept.pgn"]);
    // The same run with room writes both.
    let run = run_env(root, &[], &args, Input::Null);
    run.assert_code(0, "room");
    let kept = fs::read_to_string(root.join("kept.pgn")).unwrap();
    let rejected = fs::read_to_string(root.join("rej.pgn")).unwrap();
    assert_eq!(
        (
            kept.matches("[Event ").count(),
            rejected.matches("[Event ").count()
        ),
        (3, 3)
    );
}

/// A run whose standard output is closed early (`| head -1`) commits none of its files, and
/// says so. Before, it said nothing.
#[test]
fn a_closed_standard_output_says_which_files_were_not_written() {
    let dir = scratch();
    let root = dir.path();
    write(root, "in.pgn", good_games(0, 20_000).as_bytes());
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let mut command = command();
    command.current_dir(root).args([
        "select",
        "in.pgn",
        "--where",
        "tag(\"Event\") ~ \"0$\"",
        "--rejected",
        "r.pgn",
    ]);
    let run = run_command(command, Input::Null, Some(Stdio::from(writer)));
    run.assert_code(0, "closed pipe");
    assert!(
        run.stderr
            .contains("standard output was closed before the run ended"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("r.pgn not written"), "{}", run.stderr);
    assert_eq!(names(root), ["in.pgn"]);
}

/// A full disk at the manifest leaves no part and no directory; so does a run stopped by a
/// signal while it writes parts. Before, every part was in place and no manifest.
#[test]
fn parts_are_published_whole_or_not_at_all() {
    let dir = scratch();
    let root = dir.path();
    write(root, "in.pgn", good_games(0, 40).as_bytes());
    let args = [
        "export",
        "in.pgn",
        "-o",
        "parts",
        "--rows-per-file",
        "3",
        "--quiet",
    ];
    let full = [("ARBITER_TEST_ONLY_FULL_DISK", "_manifest.json")];
    let run = run_env(root, &full, &args, Input::Null);
    run.assert_code(2, "full disk at the manifest");
    assert!(
        run.stderr.contains("No space left on device"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("parts not written"), "{}", run.stderr);
    assert_eq!(names(root), ["in.pgn"]);
    // A full disk at a part, and an empty directory given: left as it was.
    fs::create_dir(root.join("parts")).unwrap();
    let full = [("ARBITER_TEST_ONLY_FULL_DISK", "part-00005.parquet")];
    let run = run_env(root, &full, &args, Input::Null);
    run.assert_code(2, "full disk at a part");
    assert!(
        run.stderr.contains("parts left unchanged"),
        "{}",
        run.stderr
    );
    assert_eq!(names(root), ["in.pgn", "parts"]);
    assert!(names(&root.join("parts")).is_empty());
    // The current directory is not replaced (a shell in it would be left in a removed one).
    let dot = ["export", "../in.pgn", "-o", ".", "--rows-per-file", "3"];
    let run = run_in(&root.join("parts"), &dot, Input::Null, None);
    run.assert_code(2, "-o .");
    assert!(
        run.stderr.contains("-o .: the current directory"),
        "{}",
        run.stderr
    );
    assert_eq!(names(root), ["in.pgn", "parts"]);
    // With room: every part and the manifest.
    let run = run_env(root, &[], &args, Input::Null);
    run.assert_code(0, "room");
    let manifest = manifest(&root.join("parts"));
    assert_eq!(manifest["parts"].as_array().unwrap().len(), 14);
    assert_eq!(names(&root.join("parts")).len(), 15);

    // A signal while the parts are written, from standard input that stays open.
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        let mut child = command()
            .current_dir(root)
            .args([
                "export",
                "-",
                "-o",
                "fresh",
                "--rows-per-file",
                "1",
                "--quiet",
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(good_games(0, 50).as_bytes()).unwrap();
        stdin.flush().unwrap();
        let started = Instant::now();
        while !names(root).iter().any(|n| n.starts_with(".fresh.arbiter-")) {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "no staging directory"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        // SAFETY: a plain kill(2) of our own child.
        assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
        let status = child.wait().unwrap();
        drop(stdin);
        assert_eq!(status.signal(), Some(signal), "{status:?}");
        assert_eq!(names(root), ["in.pgn", "parts"], "signal {signal}");
    }
}

/// Inputs are hashed as they are read: a FIFO finishes (before, the manifest opened it again and
/// waited forever), standard input as `/dev/stdin` gets its bytes' hash (before, the empty
/// file's), and a FIFO removed mid-run still gets its parts and manifest (before, the parts and
/// no manifest).
#[test]
fn the_manifest_hashes_what_was_read_once() {
    let dir = scratch();
    let root = dir.path();
    let pgn = good_games(0, 30);
    let fifo = root.join("in.pgn");
    let path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo(3) with a valid C string.
    assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o600) }, 0);
    let writer = {
        let (fifo, pgn) = (fifo.clone(), pgn.clone());
        std::thread::spawn(move || {
            let mut file = fs::OpenOptions::new().write(true).open(&fifo).unwrap();
            // Removed while arbiter still reads it.
            fs::remove_file(&fifo).unwrap();
            file.write_all(pgn.as_bytes()).unwrap();
        })
    };
    let args = [
        "export",
        "in.pgn",
        "-o",
        "fifo",
        "--rows-per-file",
        "4",
        "--quiet",
    ];
    let run = run_in(root, &args, Input::Null, None);
    writer.join().unwrap();
    run.assert_code(0, "a FIFO removed mid-run");
    let fifo = manifest(&root.join("fifo"));
    assert_eq!(fifo["inputs"][0]["sha256"], sha256(pgn.as_bytes()).as_str());
    assert_eq!(fifo["inputs"][0]["bytes"], pgn.len());
    assert_eq!(fifo["parts"].as_array().unwrap().len(), 8);

    for (name, jobs) in [("stdin1", "1"), ("stdin2", "2")] {
        let args = [
            "export",
            "/dev/stdin",
            "-o",
            name,
            "--rows-per-file",
            "4",
            "-j",
            jobs,
        ];
        let run = run_in(root, &args, Input::Bytes(pgn.as_bytes()), None);
        run.assert_code(0, "/dev/stdin");
        let manifest = manifest(&root.join(name));
        assert_eq!(
            manifest["inputs"][0]["sha256"],
            sha256(pgn.as_bytes()).as_str()
        );
        assert_eq!(manifest["games"], 30);
    }
    // A gzip file: the compressed bytes' hash, the decoder having read them to their end.
    let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gzip.write_all(pgn.as_bytes()).unwrap();
    let gzip = gzip.finish().unwrap();
    write(root, "in.pgn.gz", &gzip);
    let args = [
        "export",
        "in.pgn.gz",
        "-o",
        "gz",
        "--rows-per-file",
        "4",
        "--quiet",
    ];
    run_in(root, &args, Input::Null, None).assert_code(0, "gzip");
    let gz = manifest(&root.join("gz"));
    assert_eq!(gz["inputs"][0]["sha256"], sha256(&gzip).as_str());
    assert_eq!(gz["inputs"][0]["bytes"], gzip.len());
    // A zstd file of many frames (more than one run of them: over 4 MiB), read on every core:
    // the compressed bytes' hash.
    let big = good_games(0, 60_000);
    let mut frames = Vec::new();
    for chunk in big.as_bytes().chunks(big.len() / 6 + 1) {
        frames.extend(zstd::encode_all(chunk, 1).unwrap());
    }
    write(root, "frames.pgn.zst", &frames);
    let args = [
        "export",
        "frames.pgn.zst",
        "-o",
        "zst",
        "--rows-per-file",
        "100000",
        "-j",
        "4",
    ];
    let run = run_in(root, &args, Input::Null, None);
    run.assert_code(0, "zstd frames");
    let manifest = manifest(&root.join("zst"));
    assert_eq!(manifest["inputs"][0]["sha256"], sha256(&frames).as_str());
    assert_eq!(manifest["inputs"][0]["bytes"], frames.len());
    assert_eq!(manifest["games"], 60_000);
}

/// A run holds one part open however many it writes: 400 parts under `ulimit -n 64` (before,
/// every finished part kept its descriptor until the end, and the run failed at about 60).
#[test]
fn many_parts_hold_one_descriptor() {
    let dir = scratch();
    let root = dir.path();
    write(root, "in.pgn", good_games(0, 400).as_bytes());
    let mut sh = Command::new("sh");
    sh.current_dir(root)
        .arg("-c")
        .arg("ulimit -n 64 && exec \"$@\"")
        .arg("sh")
        .arg(crate::util::binary())
        .args([
            "export",
            "in.pgn",
            "-o",
            "parts",
            "--rows-per-file",
            "1",
            "--quiet",
        ]);
    let run = run_command(sh, Input::Null, None);
    run.assert_code(0, "ulimit -n 64");
    assert_eq!(names(&root.join("parts")).len(), 401);
}

/// `--keep-going`: the records of every game that could be read are written, each input that
/// could not be read whole is named, and the status is still 2. Without it the output is left
/// as it was, and the message says what was read and how to get it.
#[test]
fn keep_going_writes_what_could_be_read() {
    let dir = scratch();
    let root = dir.path();
    write(root, "good.pgn", good_games(0, 20).as_bytes());
    // Several blocks of 128 KiB: those before the cut can be read.
    let whole = zstd::encode_all(good_games(20, 3000).as_bytes(), 3).unwrap();
    write(root, "cut.pgn.zst", &whole[..whole.len() * 2 / 3]);
    let args = [
        "export",
        "good.pgn",
        "cut.pgn.zst",
        "missing.pgn",
        "-o",
        "m.csv",
    ];
    let run = run_in(root, &args, Input::Null, None);
    run.assert_code(2, "without --keep-going");
    assert!(run.stderr.contains("m.csv not written"), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("not read whole: missing.pgn, cut.pgn.zst; ")
            && run
                .stderr
                .contains("could be read: --keep-going writes them"),
        "{}",
        run.stderr
    );
    assert_eq!(names(root), ["cut.pgn.zst", "good.pgn"]);

    let mut keep = args.to_vec();
    keep.push("--keep-going");
    let run = run_in(root, &keep, Input::Null, None);
    run.assert_code(2, "--keep-going");
    let csv = fs::read_to_string(root.join("m.csv")).unwrap();
    let games = csv.lines().count() - 1;
    assert!(games > 20 && games < 3020, "{games} records");
    assert!(
        run.stderr.contains(&format!(
            "not read whole: missing.pgn, cut.pgn.zst; the {games} games read were written \
             (--keep-going)"
        )),
        "{}",
        run.stderr
    );
    // Parts too: the manifest names the inputs not read whole.
    let args = [
        "export",
        "good.pgn",
        "cut.pgn.zst",
        "missing.pgn",
        "-o",
        "p",
        "--rows-per-file",
        "1000",
        "--keep-going",
    ];
    let run = run_in(root, &args, Input::Null, None);
    run.assert_code(2, "parts --keep-going");
    assert!(root.join("p").exists(), "{}", run.stderr);
    let parts = manifest(&root.join("p"));
    assert_eq!(
        parts["unread"],
        serde_json::json!(["missing.pgn", "cut.pgn.zst"])
    );
    assert_eq!(parts["games"], games);
    // select too.
    let args = [
        "select",
        "good.pgn",
        "cut.pgn.zst",
        "-o",
        "s.pgn",
        "--keep-going",
    ];
    let run = run_in(root, &args, Input::Null, None);
    run.assert_code(2, "select --keep-going");
    let kept = fs::read_to_string(root.join("s.pgn")).unwrap();
    assert_eq!(kept.matches("[Event ").count(), games);
}

/// A temporary directory that cannot take `--dedup`'s keys is named in the error (before, only
/// "No such file or directory", or "No space left on device" with no path). See: point 8.
#[test]
fn dedup_names_the_temporary_directory_it_cannot_use() {
    let dir = scratch();
    let root = dir.path();
    write(root, "in.pgn", good_games(0, 3).as_bytes());
    let gone = root.join("no-such-tmp");
    let env = [("TMPDIR", gone.to_str().unwrap())];
    let args = ["select", "in.pgn", "--dedup", "moves", "-o", "out.pgn"];
    let run = run_env(root, &env, &args, Input::Null);
    run.assert_code(2, "TMPDIR missing");
    assert!(
        run.stderr.contains(&format!(
            "--dedup keeps its keys in a temporary file in {} (set TMPDIR",
            gone.display()
        )),
        "{}",
        run.stderr
    );
    assert_eq!(names(root), ["in.pgn"]);
}
