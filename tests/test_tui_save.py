"""A local game: ctrl+q asks first during a round; the match is saved as it goes and resumed where it was."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui_support import log_entries, settle_when, until
from uno_tui.app import UnoApp
from uno_tui.cli import main
from uno_tui.screens import TableScreen
from uno_tui.screens.confirm import ConfirmScreen
from uno_tui.session import LocalSession, SaveError, TableConfig


async def test_ctrl_q_during_a_round_asks_first() -> None:
    app = UnoApp(LocalSession(TableConfig(seed=3)), pacing=(600.0, 600.0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+q")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the question")
        assert "not saved" in str(app.screen.query_one("#confirm-detail").render())
        await pilot.press("n")  # play on
        await until(pilot, lambda: isinstance(app.screen, TableScreen))
        assert app.is_running
        await pilot.press("ctrl+q", "ctrl+q")  # asked, and ctrl+q again says yes
        await until(pilot, lambda: not app.is_running, what="the app to end")


async def test_ctrl_q_after_the_round_leaves_at_once() -> None:
    setup = {"hands": [["R1"], ["B2", "G3"]], "discard": ["R5"], "current": 0}
    app = UnoApp(LocalSession(TableConfig(players=2, seed=3, setup=setup)), pacing=(0.0, 0.0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle_when(pilot, app, lambda o: o["current"] == o["me"])
        await pilot.press("enter")  # the last card: the round is over
        await until(pilot, lambda: app.session.observation()["over"])
        await pilot.press("ctrl+q")
        await until(pilot, lambda: not app.is_running, what="the app to end")


async def test_a_local_match_is_saved_as_it_goes_and_resumed_where_it_was(tmp_path: Path) -> None:
    path = tmp_path / "local.save"
    app = UnoApp(LocalSession(TableConfig(seed=7, save_path=str(path))), pacing=(0.0, 0.0))
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(3):  # a few turns by keys: draw when nothing fits, else play the first card that does
            obs = await settle_when(pilot, app, lambda o: o["current"] == o["me"] or o["over"])
            plays = [a for a in obs["legal"] if a["kind"] == "play" and a.get("color") is None]
            if obs["over"]:
                break
            if plays:
                hand = app.screen.query_one("#hand")
                while hand.selected_card["id"] != plays[0]["card"]:
                    await pilot.press("right")
                await pilot.press("enter")
            else:
                await pilot.press("d")
                await pilot.pause()
                if app.session.observation()["phase"] == "drawn":
                    await pilot.press("p")
        await pilot.pause()
        before = app.session.observation()
        shown = log_entries(app)
        await pilot.press("ctrl+q")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "uno-tui play --resume" in str(app.screen.query_one("#confirm-detail").render())
        await pilot.press("y")
    assert path.exists()

    resumed = LocalSession.resume(path)
    after = resumed.observation()
    assert after["version"] == before["version"] and after["hand"] == before["hand"]
    assert after["discard"] == before["discard"] and resumed.names == app.session.names
    again = UnoApp(resumed, pacing=(600.0, 600.0))
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        # The log tells the round so far: every line the table had shown of it.
        moves = [line for line in shown.splitlines() if not line.startswith("──")]
        told = log_entries(again)
        assert moves and all(line in told for line in moves)


def test_resume_explains_a_missing_or_broken_save(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SaveError, match="no saved game"):
        LocalSession.resume(tmp_path / "none.save")
    (tmp_path / "junk.save").write_bytes(b"not msgpack at all \xff")
    with pytest.raises(SaveError, match="cannot be resumed"):
        LocalSession.resume(tmp_path / "junk.save")
    assert main(["play", "--resume", "--save", str(tmp_path / "none.save")]) == 2
    assert "no saved game" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        main(["play", "--resume", "--variant", "nomercy"])
    assert e.value.code == 2 and "drop --variant" in capsys.readouterr().err


def test_a_finished_match_leaves_no_save(tmp_path: Path) -> None:
    path = tmp_path / "local.save"
    setup = {"hands": [["R1"], ["B2", "G3"]], "discard": ["R5"], "current": 0}
    session = LocalSession(TableConfig(players=2, seed=3, setup=setup, save_path=str(path),
                                       options={"target_score": 1}))
    assert path.exists()
    card = session.observation()["hand"][0]["id"]
    from core import Action

    session.send(Action("play", card))
    assert session.observation()["match_over"] and not path.exists()
