"""The terminal table, driven by key presses through Textual's pilot, and the command line.

The tests may read the session to decide which key to press, but act only
through ``pilot.press`` (or clicks), as a person would.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot

import core
from uno_tui.app import UnoApp
from uno_tui.screens import ColorPicker, HelpScreen, RoundOverScreen, TableScreen
from uno_tui.session import LocalSession, TableConfig
from uno_tui.faces.classic.players import PlayersView
from uno_tui.widgets import HandView, MatchBar
from tui_support import Recorder, log_text, notifications, run_cli, select, settle_when, summary_up, text_of

ROOT = Path(__file__).resolve().parents[1]


# -- helpers ----------------------------------------------------------------------
def make_app(seed: int = 3, **config: Any) -> UnoApp:
    return UnoApp(LocalSession(TableConfig(seed=seed, **config)), pacing=(0.0, 0.0))


async def settle(pilot: Pilot, app: UnoApp, timeout: float = 10.0) -> dict[str, Any]:
    """Let the bots play until the human must act or the round is over."""
    return await settle_when(pilot, app, lambda obs: obs["over"] or (
        obs["current"] == obs["me"] and isinstance(app.screen, TableScreen)), timeout, grace=0)


async def take_turn(pilot: Pilot, app: UnoApp) -> None:
    """A sensible move for the human, made with keys only."""
    obs = app.session.observation()
    legal = obs["legal"]
    kinds = {a["kind"] for a in legal}
    if "catch" in kinds:
        await pilot.press("x")
        return
    if obs["phase"] == "challenge":
        await pilot.press("d")
        return
    plays = [a for a in legal if a["kind"] == "play"]
    if not plays:
        await pilot.press("d" if "draw" in kinds else "p")
        return
    play = next((a for a in plays if a.get("color") is None), plays[0])
    if "uno" in kinds:
        await pilot.press("u")
    await select(pilot, app, play["card"])
    await pilot.press("enter")
    if play.get("color") is not None:
        await pilot.pause()
        assert isinstance(app.screen, ColorPicker)
        await pilot.press(play["color"][0])


# -- the session ---------------------------------------------------------------------
def test_local_session_shows_the_human_only_their_own_cards() -> None:
    session = LocalSession(TableConfig(seed=3, players=3))
    opening = [e for e in session.opening_events() if e.kind == "draw"]
    assert [len(e.cards) for e in opening] == [7, 0, 0] and [e.count for e in opening] == [7, 7, 7]
    table = Recorder()
    session.attach(table)
    for _ in range(300):
        obs = session.observation()
        if obs["over"]:
            break
        if obs["current"] == session.me and obs["legal"]:
            assert session.send(core.Action.from_dict(obs["legal"][0])) is None  # what it did is posted
        else:
            told = len(table.events)
            assert session.bot_step() == table.events[told:]  # a bot always acts on its own turn
            assert table.events[told:]
    seen = table.events
    draws = [e for e in seen if e.kind == "draw" and e.count]
    assert any(e.player != session.me for e in draws) and any(e.player == session.me for e in draws)
    for e in draws:
        assert bool(e.cards) == (e.player == session.me)
    with pytest.raises(core.IllegalAction):
        session.send(core.Action("challenge"))


# -- a whole round --------------------------------------------------------------------
async def test_a_whole_round_by_keys_ends_with_the_right_winner_and_score() -> None:
    app = make_app(seed=11, options={"target_score": 200})
    async with app.run_test(size=(100, 32)) as pilot:
        for _ in range(400):
            obs = await settle(pilot, app)
            if obs["over"]:
                break
            await take_turn(pilot, app)
        else:
            pytest.fail("the round did not end")
        for _ in range(200):
            if summary_up(app):
                break
            await pilot.pause(0.02)
        assert isinstance(app.screen, RoundOverScreen)

        game = app.session.game  # the engine's truth, to check the screen against
        winner = "You" if game.winner == 0 else game.names[game.winner]
        headline = text_of(app.screen.query_one("#round-headline"))
        assert headline.startswith(f"{winner} win")
        assert f"{game.last_points} points" in headline
        assert game.last_points > 0
        table = app.screen_stack[0]
        assert f"You: {game.scores[0]} pts" in text_of(table.query_one(MatchBar))
        players = text_of(table.query_one(PlayersView))
        for seat, name in enumerate(["You", *game.names[1:]]):
            assert re.search(rf"{name}\b.*\b{game.scores[seat]} pts", players)
        assert f"{winner} win" in log_text(app)

        await pilot.press("n")  # deal the next round
        await pilot.pause(0.05)
        assert isinstance(app.screen, TableScreen)
        assert app.session.observation()["round"] == 1
        assert not app.session.observation()["over"]
        assert "Round 2" in log_text(app)


async def test_winning_the_match_offers_a_rematch() -> None:
    app = make_app(seed=1)
    session = app.session
    session.game = core.new_game("classic", session.names, seed=1, options={"target_score": 50}, setup={
        "hands": [["R5"], ["G1", "W+4"], ["B1", "B2"], ["Y1", "Y2"]], "discard": ["R3"], "current": 0,
        "scores": [10, 40, 0, 0],
    })
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        await pilot.press("enter")  # R5 goes out: 1 + 50 + 3 + 3 = 57 points
        for _ in range(100):
            if summary_up(app):
                break
            await pilot.pause(0.02)
        assert isinstance(app.screen, RoundOverScreen)
        assert text_of(app.screen.query_one("#round-headline")) == "You win the round and score 57 points."
        assert text_of(app.screen.query_one("#match-headline")) == "You win the match with 67 points!"
        await pilot.press("r")
        await pilot.pause(0.05)
        assert isinstance(app.screen, TableScreen)
        obs = app.session.observation()
        assert obs["scores"] == [0, 0, 0, 0] and obs["round"] == 0 and len(obs["hand"]) == 7
        assert "New match · Round 1" in log_text(app)


# -- illegal keys explain themselves -------------------------------------------------------
async def test_illegal_keys_notify_and_leave_the_game_alone() -> None:
    app = make_app(seed=3)  # the human starts; B4 is on top; G7 cannot be played
    async with app.run_test(size=(100, 32)) as pilot:
        obs = await settle(pilot, app)
        assert obs["current"] == 0
        before = app.session.game.to_dict()
        shown = text_of(app.screen.query_one(HandView))
        for card in ("R4", "R5", "RR", "YS", "G7", "G+2", "B2"):
            assert card in shown
        assert shown.count("••") + shown.count("▲▲▲▲") == 2  # R4 and B2 can go on B4

        await pilot.press("c")
        await pilot.pause()
        assert any("challenge only a Wild Draw Four" in m for m in notifications(app))

        await pilot.press("x")
        await pilot.pause()
        assert any("nobody can be caught" in m.lower() for m in notifications(app))

        g7 = next(c for c in obs["hand"] if c["color"] == "green" and c["rank"] == "7")
        await select(pilot, app, g7["id"])
        await pilot.press("enter")
        await pilot.pause()
        assert any("G7 does not match B4" in m for m in notifications(app))

        await pilot.press("n")
        await pilot.pause()
        assert any("still being played" in m for m in notifications(app))

        assert app.session.game.to_dict() == before
        assert app.session.observation()["hand"] == obs["hand"]


async def test_keys_out_of_turn_say_whose_turn_it_is() -> None:
    app = UnoApp(LocalSession(TableConfig(seed=3)), pacing=(5.0, 5.0))  # slow bots: time to press
    async with app.run_test(size=(100, 32)) as pilot:
        obs = await settle(pilot, app)
        await pilot.press("d")  # a legal draw: B4 needs blue or 4 and we take a card instead
        await pilot.pause()
        obs = app.session.observation()
        if obs["phase"] == "drawn":
            await pilot.press("p")
            await pilot.pause()
        assert app.session.observation()["current"] == 1
        before = app.session.game.to_dict()
        await pilot.press("d")
        await pilot.pause()
        assert any("it is ada's turn, not yours" in m.lower() for m in notifications(app))
        assert app.session.game.to_dict() == before


# -- UNO: forgetting it gets you caught, calling it does not ------------------------------------
def _scripted(app: UnoApp) -> None:
    """Two cards each way to go out: the human holds R5 and R7 on a red 3."""
    session = app.session
    session.game = core.new_game("classic", session.names, seed=1, setup={
        "hands": [["R5", "R7"], ["G1", "G2", "G3"], ["B1", "B2", "B3"], ["Y1", "Y2", "Y3"]],
        "discard": ["R3"], "current": 0,
    })


@pytest.mark.parametrize("call_uno", [False, True])
async def test_a_bot_catches_a_forgotten_uno(call_uno: bool) -> None:
    app = make_app(seed=1)
    _scripted(app)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        if call_uno:
            await pilot.press("u")
        hand = app.screen.query_one(HandView)
        await select(pilot, app, next(c["id"] for c in hand.cards if c["rank"] == "5"))
        await pilot.press("enter")
        for _ in range(50):
            await pilot.pause(0.02)
        obs = app.session.observation()
        if call_uno:
            assert len(obs["hand"]) == 1 and obs["players"][0]["uno"]
            assert "You call UNO!" in log_text(app)
            assert "catches you" not in log_text(app)
        else:
            assert len(obs["hand"]) == 3  # one card left plus two for the catch
            assert "catches you without UNO" in log_text(app)


# -- the colour picker ----------------------------------------------------------------
async def test_playing_a_wild_asks_for_a_colour_and_names_it() -> None:
    app = make_app(seed=14)  # the human starts holding a Wild and a Wild Draw Four
    async with app.run_test(size=(100, 32)) as pilot:
        obs = await settle(pilot, app)
        wild = next(c for c in obs["hand"] if c["rank"] == "W")
        await select(pilot, app, wild["id"])
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ColorPicker)
        await pilot.press("g")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        obs = app.session.observation()
        assert wild["id"] in [c["id"] for c in obs["discard"]]
        assert wild["id"] not in [c["id"] for c in obs["hand"]]
        assert "You play Wild and name green." in log_text(app)


async def test_escape_in_the_colour_picker_plays_nothing() -> None:
    app = make_app(seed=14)
    async with app.run_test(size=(100, 32)) as pilot:
        obs = await settle(pilot, app)
        wild = next(c for c in obs["hand"] if c["rank"] == "W")
        await select(pilot, app, wild["id"])
        before = app.session.game.to_dict()
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert app.session.game.to_dict() == before


class PickerHost(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.results: list[str | None] = []

    def open(self) -> None:
        hand = [{"id": 1, "color": "blue", "rank": "3"}, {"id": 2, "color": "blue", "rank": "5"}]
        self.push_screen(ColorPicker("Wild", hand), self.results.append)


@pytest.mark.parametrize(("keys", "expected"), [
    (["r"], "red"),
    (["y"], "yellow"),
    (["b"], "blue"),
    (["enter"], "blue"),  # starts on the colour you hold most of
    (["right", "enter"], "red"),  # and wraps around
    (["left", "left", "space"], "yellow"),
    (["escape"], None),
])
async def test_colour_picker_returns_the_chosen_colour(keys: list[str], expected: str | None) -> None:
    app = PickerHost()
    async with app.run_test() as pilot:
        app.open()
        await pilot.pause()
        await pilot.press(*keys)
        await pilot.pause()
        assert app.results == [expected]


# -- help and small terminals ----------------------------------------------------------------
async def test_help_screen_lists_the_keys() -> None:
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        keys = text_of(app.screen.query_one("#help-keys"))
        for word in ("challenge", "catch", "call UNO", "draw", "next round"):
            assert word in keys
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)


async def test_a_too_small_terminal_says_so_and_recovers() -> None:
    app = make_app()
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        screen = app.screen
        message = screen.query_one("#too-small")
        assert message.display and not screen.query_one("#table").display
        assert "too small" in text_of(message) and "60×18" in text_of(message)
        await pilot.resize_terminal(100, 32)
        await pilot.pause()
        assert not message.display and screen.query_one("#table").display


# -- the command line -------------------------------------------------------------------
def test_cli_help_explains_every_flag() -> None:
    top = run_cli("--help")
    assert top.returncode == 0
    assert "play" in top.stdout and "simulate" in top.stdout
    play = run_cli("play", "--help")
    assert play.returncode == 0
    for flag in ("--players", "--bots", "--seed", "--name", "--target-score", "--draw-until-playable", "--fast"):
        assert flag in play.stdout
    sim = run_cli("simulate", "--help")
    assert sim.returncode == 0
    for flag in ("--variant", "--players", "--games", "--bots", "--seed"):
        assert flag in sim.stdout


@pytest.mark.parametrize(("args", "complaint"), [
    (["play", "--players", "11"], "2 to 10 players"),
    (["play", "--players", "1"], "2 to 10 players"),
    (["play", "--bots", "expert"], "invalid choice: 'expert'"),
    (["play", "--target-score", "-5"], "--target-score must be 1 or more"),
    (["simulate", "--players", "4", "--bots", "normal,easy"], "--bots lists 2 levels but --players is 4"),
    (["simulate", "--bots", "normal,clever,easy,easy"], "unknown bot level 'clever'"),
    (["simulate", "--games", "0"], "must be 1 or more"),
])
def test_cli_bad_arguments_exit_2_with_a_message(args: list[str], complaint: str) -> None:
    result = run_cli(*args)
    assert result.returncode == 2
    assert complaint in result.stderr
    assert "usage:" in result.stderr


def test_cli_simulate_prints_shares_and_speed() -> None:
    result = run_cli("simulate", "--variant", "classic", "--players", "4", "--games", "20",
                     "--bots", "normal,easy,easy,easy", "--seed", "1")
    assert result.returncode == 0, result.stderr
    rows = re.findall(r"^\s*(\d+)\s+(normal|easy)\s+(\d+)\s+([\d.]+)%$", result.stdout, re.M)
    assert [(seat, level) for seat, level, _, _ in rows] == [
        ("1", "normal"), ("2", "easy"), ("3", "easy"), ("4", "easy")]
    assert sum(int(wins) for _, _, wins, _ in rows) == 20
    assert abs(sum(float(share) for *_, share in rows) - 100) < 0.5
    assert re.search(r"[\d.]+ games/s", result.stdout)


def test_cli_simulate_does_not_load_textual() -> None:
    code = ("import sys; from uno_tui.cli import main; main(['simulate', '--games', '2']); "
            "assert 'textual' not in sys.modules, 'textual was imported'")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
    assert result.returncode == 0, result.stderr


# -- the log's order --------------------------------------------------------------------
class _SlowTerminal(App[None]):
    """An app whose table tells its deal only when the test says so: a slow terminal, or a network
    host whose bots do not wait for our screen to finish its first layout."""

    def __init__(self, session: LocalSession) -> None:
        super().__init__()
        self.session = session
        self.held: list[Any] = []

    def on_mount(self) -> None:
        from uno_tui.faces import table_screen_for

        table = table_screen_for(self.session, pacing=(600.0, 600.0))
        real = table.call_after_refresh

        def hold(callback: Any, *args: Any, **kwargs: Any) -> bool:
            if getattr(callback, "__name__", "") == "_tell_deal":
                self.held.append(callback)
                return True
            return real(callback, *args, **kwargs)

        table.call_after_refresh = hold  # type: ignore[method-assign]
        self.push_screen(table)


async def test_a_move_made_before_the_deal_is_told_is_logged_after_the_deal() -> None:
    session = LocalSession(TableConfig(seed=3, players=3))
    app = _SlowTerminal(session)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert app.held, "the table should have put off telling the deal"
        obs = session.observation()
        assert obs["current"] == session.me
        session.send(core.Action("draw"))  # a move lands before the log has its heading
        await pilot.pause()
        app.held.pop()()
        await pilot.pause()
        entries = [t.plain for t in app.screen.query_one("GameLog").entries]
        heading = next(i for i, line in enumerate(entries) if "Round 1" in line)
        drew = next(i for i, line in enumerate(entries) if line.startswith("You draw"))
        assert heading < drew, entries
        assert sum(line.startswith("You draw") for line in entries) == 1, entries


async def test_enter_plays_the_card_just_drawn_wherever_the_cursor_is() -> None:
    # "You drew a playable card: enter plays it": the cursor on another card must not turn that into
    # a refusal (at a sealed table the drawn card's face comes after the draw, so the cursor stays).
    setup = {"hands": [["B1", "Y2", "G3"], ["G7", "G8"], ["Y7", "Y8"]], "discard": ["R5"], "draw": ["R9", "B4"],
             "current": 0}
    app = UnoApp(LocalSession(TableConfig(seed=3, players=3, setup=setup)), pacing=(600.0, 600.0))
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        await pilot.press("d")
        await pilot.pause()
        obs = app.session.observation()
        assert obs["phase"] == "drawn"
        r9 = next(c["id"] for c in obs["hand"] if c["rank"] == "9")
        await select(pilot, app, next(c["id"] for c in obs["hand"] if c["rank"] == "1"))
        await pilot.press("enter")
        await pilot.pause()
        after = app.session.observation()
        assert after["discard"][-1]["id"] == r9 and len(after["hand"]) == 3
