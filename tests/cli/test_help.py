"""What the help texts promise is what the commands do, and they read well at 80 columns."""

from __future__ import annotations

from sliders.cli import _subparsers, build_parser, main


def help_of(command: str, monkeypatch, capsys, columns: int = 80) -> str:
    monkeypatch.setenv("COLUMNS", str(columns))
    assert main([command, "--help"]) == 0
    return capsys.readouterr().out


def test_no_example_is_cut_across_lines() -> None:
    """argparse breaks a flag's help at spaces, and cuts a word longer than its column (54
    characters at 80 columns) wherever the column ends (``cpu:ha`` / ``nd=low``): no word is that
    long."""
    for name, sub in _subparsers(build_parser()).items():
        for action in sub._actions:
            words = (action.help or "").split()
            longest = max(words, key=len, default="")
            assert len(longest) <= 40, (name, action.dest, longest)


def test_tournament_help_says_a_results_file_holds_one_tournament(monkeypatch, capsys) -> None:
    text = " ".join(help_of("tournament", monkeypatch, capsys).split())
    assert "extend" not in text
    assert "other players, --games or settings need another --results file" in text


def test_score_help_says_what_a_new_game_needs(monkeypatch, capsys) -> None:
    text = " ".join(help_of("score", monkeypatch, capsys).split())
    assert "A new game needs --face and --players (or --boards)" in text
    assert "a new game needs it" in text


def test_batch_help_gives_the_chunk_the_engines_use(monkeypatch, capsys) -> None:
    from sliders.batch.runners import DEFAULT_CHUNK, EXACT_CHUNK

    text = " ".join(help_of("batch", monkeypatch, capsys).split())
    assert f"default: {EXACT_CHUNK:,} in the exact engine, {DEFAULT_CHUNK} in pymunk" in text
