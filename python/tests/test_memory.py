"""Memory stays flat: streaming the ply rows of a generated archive of 64 MB (1.8 million rows,
about 300 MB as an Arrow table) holds the process's resident memory within a bound far below
the table's size, sampled at every batch."""

import arbiter

COPIES = 64
# The bound on resident memory above what the process held before the stream: the pipeline's
# bytes in flight (16 MiB), a batch being built, two in the channel and one being read, and the
# allocator's slack. The whole table is about 300 MB.
BOUND_MB = 160


def resident_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS in /proc/self/status")


def test_memory_stays_flat_on_a_large_archive(testdata, tmp_path):
    sample = (testdata / "corpora/samples/lichess_db_1000k.pgn").read_bytes()
    big = tmp_path / "big.pgn"
    with open(big, "wb") as out:
        for _ in range(COPIES):
            out.write(sample)
    before = resident_mb()
    peak, rows, table_bytes = before, 0, 0
    for batch in arbiter.read_games(big, plies=True, fen=True, jobs=2):
        rows += batch.num_rows
        table_bytes += batch.nbytes
        peak = max(peak, resident_mb())
    single = arbiter.read_games(testdata / "corpora/samples/lichess_db_1000k.pgn", plies=True)
    assert rows == COPIES * single.read_all().num_rows
    assert table_bytes > 2 * BOUND_MB * 2**20
    print(f"resident memory peaked {peak - before:.0f} MB above the start")
    assert peak - before < BOUND_MB, f"{peak - before:.0f} MB above the start"
