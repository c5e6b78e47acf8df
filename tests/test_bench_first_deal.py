"""bench/first_deal.py stays runnable: one fresh start of this tree's server, its page's
first deal in Chromium and the edges coming after, every figure printed (the code of
another commit beside it is the bench's own business)."""

from bench_support import run_bench


def test_bench_first_deal_runs_and_prints_its_figures() -> None:
    # the edges are worked out at nice 19: on a busy machine they may take minutes, and
    # only the row's presence is checked here (tests/test_house_edges.py checks the
    # edges themselves): the run reads the suite's analysis cache instead of counting
    # every table again (some 10 CPU s)
    arguments = ["--runs", "1", "--numba", "kept", "--analysis", "kept", "--edges-wait", "60"]
    done = run_bench("first_deal", *arguments)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("load average before: ")
    rows = {line[:34].strip(): line[34:].split() for line in lines}
    for figure in (
        "start to listening",
        "start to page loaded",
        "start to first cards",
        "page loaded to first cards",
        "Deal pressed to cards",
        "the deal's request to its answer",
    ):
        median, spread = rows[figure]
        assert float(median) > 0, (figure, rows[figure])
        assert "-" in spread
    assert rows["runs that dealt"] == ["1", "of", "1"]
    assert rows["requests refused (429)"] == ["0"]
    assert "start to every edge known" in rows
    assert any(line.startswith("load average after: ") for line in lines)
