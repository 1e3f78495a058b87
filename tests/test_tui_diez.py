"""The Diez table, driven by key presses: a whole round against bots, every prompt kind, the help page.

As in test_tui_variants.py, the tests read the session to decide which key to
press but act only through ``pilot.press``, as a person would.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

import core
from uno_tui import cli
from uno_tui.app import UnoApp
from uno_tui.screens import ColorPicker, RoundOverScreen, table_screen_for
from uno_tui.faces.diez.pickers import SearchPicker
from uno_tui.faces.diez.table import DiezTableScreen
from uno_tui.faces.diez.widgets import DiezPilesView, DiezPlayersView
from uno_tui.faces.diez.words import CARDS, TOKENS, action_words, status_line
from uno_tui.screens import HelpScreen
from uno_tui.screens.pickers import ChoicePicker
from uno_tui.session import LocalSession, TableConfig
from tui_support import card_id, log_text, select, settle_when, table_of, text_of, wait_for

SIZE = (100, 32)


# -- helpers ----------------------------------------------------------------------
def make_app(setup: dict[str, Any] | None = None, *, players: int = 3, seed: int = 1,
             options: dict[str, Any] | None = None) -> UnoApp:
    if setup is not None:
        players = len(setup["hands"])
    options = {"uno_calls": False, **(options or {})}
    return UnoApp(LocalSession(TableConfig(variant="diez", players=players, seed=seed, setup=setup,
                                           options=options)), pacing=(0.0, 0.0))


def obs_of(app: UnoApp) -> dict[str, Any]:
    return app.session.observation()


def mine(obs: dict[str, Any]) -> bool:
    return obs["current"] == obs["me"] and bool(obs["legal"])


async def settle(pilot: Pilot, app: UnoApp, timeout: float = 10.0) -> dict[str, Any]:
    """Let the bots play until you may act (your turn, a decision or a jump-in) or the round is over."""
    return await settle_when(pilot, app, lambda obs: obs["over"] or mine(obs) or any(
        a["kind"] in ("play", "catch") for a in obs["legal"]), timeout)


async def pick(pilot: Pilot, app: UnoApp, kind: str, want: str | None = None) -> list[str]:
    """In the list that is open (of ``kind``), choose the line containing ``want`` (or the first)."""
    picker = await wait_for(pilot, app, ChoicePicker)
    assert picker.kind == kind, (picker.kind, kind)
    labels = [label for label, _ in picker.options]
    i = 0 if want is None else next(k for k, label in enumerate(labels) if want in label)
    for _ in range(i):
        await pilot.press("down")
    await pilot.press("enter")
    await pilot.pause(0.02)
    return labels


async def take_turn(pilot: Pilot, app: UnoApp, seen: set[str]) -> None:
    """A sensible Diez move for the human, with the table's own keys (never the action list)."""
    obs = obs_of(app)
    legal = obs["legal"]
    kinds = {a["kind"] for a in legal}
    step = (obs.get("step") or {}).get("op")
    screen = app.screen
    if isinstance(screen, ColorPicker):
        seen.add("color")
        await pilot.press("b")
        return
    if isinstance(screen, SearchPicker):
        seen.add("search")
        await pilot.press("enter")
        return
    if isinstance(screen, ChoicePicker):
        seen.add(screen.kind)
        await pilot.press("enter")
        return
    if "catch" in kinds:
        await pilot.press("x")
        return
    if obs["current"] != obs["me"]:
        seen.add("jump")
        await pilot.press("j")
        await pilot.pause(0.02)
        if isinstance(app.screen, ChoicePicker):
            await pilot.press("enter")
        return
    if step in ("discard", "link", "give_card", "magnet"):
        seen.add(step)
        await pilot.press("p")
        return
    if step == "needle":
        seen.add("needle")
        await pilot.press("s")
        return
    if step == "challenge":
        seen.add("challenge")
        await pilot.press("p" if "pass" in kinds else "d")
        return
    if step is not None:  # a list closed by mistake: enter opens it again
        await pilot.press("enter")
        return
    plays = [a for a in legal if a["kind"] == "play"]
    if not plays:
        await pilot.press("d" if "draw" in kinds else "p")
        return
    if obs["phase"] == "stack":
        seen.add("stack")
    if "uno" in kinds:
        await pilot.press("u")
    await select(pilot, app, plays[0]["card"])
    await pilot.press("enter")
    await pilot.pause(0.02)
    if isinstance(app.screen, ChoicePicker) and app.screen.kind == "pile":
        seen.add("pile")
        await pilot.press("1")


# -- a whole round ------------------------------------------------------------------
async def test_a_whole_diez_round_against_bots_by_keys() -> None:
    app = make_app(players=4, seed=4, options={"uno_calls": True})
    seen: set[str] = set()
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, DiezTableScreen)
        for _ in range(400):
            obs = await settle(pilot, app)
            if obs["over"]:
                break
            await take_turn(pilot, app, seen)
        else:
            raise AssertionError("the round did not end")
        obs = obs_of(app)
        assert obs["over"] and obs["winner"] is not None
        await wait_for(pilot, app, RoundOverScreen)
        assert "the round" in text_of(app.screen.query_one("#round-headline"))
        await pilot.press("n")
        await pilot.pause(0.05)
        assert obs_of(app)["round"] == 1 and not obs_of(app)["over"]
        assert "Round 2" in log_text(app)
    assert {"color"} <= seen, seen


# -- scripted positions: every prompt kind --------------------------------------------------
async def test_colour_and_pile_choice_with_several_piles() -> None:
    # Two piles; your Wild can go on either, so a list asks which; then the colour picker.
    app = make_app({"hands": [["W", "R1", "G2"], ["B7", "B8"], ["Y7", "Y8"]], "piles": [["R5"], ["G3"]],
                    "current": 0})
    async with app.run_test(size=SIZE) as pilot:
        obs = await settle(pilot, app)
        piles = text_of(table_of(app).query_one(DiezPilesView))
        assert "1·1" in piles and "2·1" in piles and "red" in piles and "green" in piles
        await select(pilot, app, card_id(obs, "W"))
        await pilot.press("enter")
        labels = await pick(pilot, app, "pile", "Pile 2")
        assert any("Pile 1: red 5" in label for label in labels)
        await wait_for(pilot, app, ColorPicker)
        await pilot.press("y")
        await pilot.pause(0.05)
        obs = obs_of(app)
        assert obs["piles"][1]["top"]["rank"] == "W" and obs["piles"][1]["color"] == "yellow"
        assert "You name yellow (pile 2)." in log_text(app)


async def test_token_card_draw_and_give_then_remove() -> None:
    app = make_app({"hands": [["RTK", "RTK", "R1", "G9"], ["B7", "B8"], ["Y7", "Y8"]], "discard": ["R5"],
                    "tokens": [[], ["hex"], []], "current": 0, "draw": ["B1"] * 0})
    async with app.run_test(size=SIZE) as pilot:
        obs = await settle(pilot, app)
        await select(pilot, app, card_id(obs, "RTK"))
        await pilot.press("enter")
        labels = await pick(pilot, app, "token", "Draw a token")
        assert "Remove Ada's Hex token" in labels
        picker = await wait_for(pilot, app, ChoicePicker)
        token = obs_of(app)["step"]["token"]
        assert text_of(picker.query_one("#choice-note")).startswith(f"{token.title()}: {TOKENS[token][2][:20]}")
        labels = await pick(pilot, app, "give", "Ben")
        assert any("Ada" in label for label in labels)
        obs = obs_of(app)
        assert len(obs["players"][2]["tokens"]) == 1
        players = text_of(table_of(app).query_one(DiezPlayersView))
        assert "Hex" in players


async def test_tag_yourself_then_drop_all() -> None:
    app = make_app({"hands": [["RTG", "WDA", "R1", "G1"], ["B7", "B8", "B9"], ["Y7", "Y8", "Y9"]],
                    "discard": ["R5"], "tokens": [[], ["silence", "hex"], ["mirror"]], "current": 0})
    async with app.run_test(size=SIZE) as pilot:
        obs = await settle(pilot, app)
        await select(pilot, app, card_id(obs, "RTG"))
        await pilot.press("enter")
        await pick(pilot, app, "target", "Tag you")
        obs = await settle(pilot, app)
        assert obs["current"] == 0 and obs["phase"] == "play"
        await select(pilot, app, card_id(obs, "WDA"))
        await pilot.press("enter")
        labels = await pick(pilot, app, "drop", "Ben")
        assert any("Ada" in label and "Silence" in label for label in labels)
        await wait_for(pilot, app, ColorPicker)
        await pilot.press("g")
        await pilot.pause(0.05)
        assert obs_of(app)["players"][2]["tokens"] == []
        assert "You drop all of Ben's tokens." in log_text(app)


async def test_steal_a_token() -> None:
    app = make_app({"hands": [["GSL", "R1"], ["B7", "B8"], ["Y7", "Y8"]], "discard": ["G5"],
                    "tokens": [[], ["silence", "hex"], []], "current": 0})
    async with app.run_test(size=SIZE) as pilot:
        obs = await settle(pilot, app)
        await select(pilot, app, card_id(obs, "GSL"))
        await pilot.press("enter")
        labels = await pick(pilot, app, "steal", "Hex")
        assert labels == ["Take Ada's Hex token", "Take Ada's Silence token"]
        assert obs_of(app)["players"][0]["tokens"] == ["hex"]
        assert "Hex" in (table_of(app).query_one("#hand-panel").border_title or "")


async def test_revive_search_and_stitch() -> None:
    app = make_app({"hands": [["GRV", "BSD", "G1", "B1"], ["R7", "R8"], ["Y7", "Y8"]],
                    "piles": [["G3", "W", "G5"], ["B3"], ["Y3"]], "colors": ["green", "blue", "yellow"],
                    "current": 0})
    async with app.run_test(size=SIZE) as pilot:
        obs = await settle(pilot, app)
        await select(pilot, app, card_id(obs, "GRV"))
        await pilot.press("enter")
        picker = await wait_for(pilot, app, SearchPicker)
        assert {core.notation(c["color"], c["rank"]) for c in picker.cards} == {"G3", "W", "G5"}
        assert len(picker.takeable) == 2  # not the Wild
        await pilot.press("enter")
        await pilot.pause(0.05)
        assert any(c["rank"] in ("3", "5") and c["color"] == "green" for c in obs_of(app)["hand"])
        obs = await settle(pilot, app)
        if obs["current"] == 0:
            plays = [a for a in obs["legal"] if a.get("card") == card_id(obs, "BSD")]
            if plays:
                await select(pilot, app, card_id(obs, "BSD"))
                await pilot.press("enter")
                await pick(pilot, app, "stitch")
                assert len(obs_of(app)["piles"]) == 2


async def test_proc_block_replace_then_magnet_proc_gives_from_the_hand() -> None:
    app = make_app({"hands": [["YPR", "Y1", "G4", "B6"], ["R7", "R8"], ["G7", "G8"]], "discard": ["Y5"],
                    "tokens": [[], ["block"], ["magnet"]], "current": 0})
    async with app.run_test(size=SIZE) as pilot:
        obs = await settle(pilot, app)
        await select(pilot, app, card_id(obs, "YPR"))
        await pilot.press("enter")
        labels = await pick(pilot, app, "proc", "Block")
        assert any(label.startswith("Proc Magnet") for label in labels) and "Use no token" in labels
        await pick(pilot, app, "replace", "Do not")
        assert "block" not in obs_of(app)["players"][1]["tokens"]
        # Ada might play on; come back to the second Proc when it is your turn again.
        obs = await settle(pilot, app)
        assert obs["current"] == 0


async def test_magnet_proc_gift_and_link_from_the_hand() -> None:
    app = make_app({"hands": [["YPR", "R6", "G4", "B9"], ["R7", "R8"], ["G7", "G8"]], "discard": ["Y5"],
                    "tokens": [["link"], [], ["magnet"]], "current": 0})
    async with app.run_test(size=SIZE) as pilot:
        obs = await settle(pilot, app)
        await select(pilot, app, card_id(obs, "YPR"))
        await pilot.press("enter")
        await pick(pilot, app, "proc", "Magnet")
        assert obs_of(app)["step"]["op"] == "give_card"
        assert "Give a card" in text_of(table_of(app).query_one("#status"))
        obs = obs_of(app)
        await select(pilot, app, card_id(obs, "G4"))
        await pilot.press("enter")
        await pilot.pause(0.05)
        assert all(c["rank"] != "4" for c in obs_of(app)["hand"])
        assert "You give Ada green 4." in log_text(app)


async def test_link_proc_plays_a_six_from_the_hand() -> None:
    app = make_app({"hands": [["YPR", "R6", "G4"], ["R7", "R8"], ["G7", "G8"]], "discard": ["Y5"],
                    "tokens": [["link"], [], []], "current": 0})
    async with app.run_test(size=SIZE) as pilot:
        obs = await settle(pilot, app)
        await select(pilot, app, card_id(obs, "YPR"))
        await pilot.press("enter")
        await pick(pilot, app, "proc", "Link")
        assert obs_of(app)["step"]["op"] == "link"
        obs = obs_of(app)
        await select(pilot, app, card_id(obs, "R6"))
        await pilot.press("enter")
        await pilot.pause(0.05)
        assert "You play red 6." in log_text(app)


async def test_choice_effect_and_mulligan_discards_one_at_a_time() -> None:
    app = make_app({"hands": [["WC", "WM", "R1", "G2", "B3", "Y4"], ["R7", "R8"], ["G7", "G8"]], "discard": ["R5"],
                    "current": 0})
    async with app.run_test(size=SIZE) as pilot:
        obs = await settle(pilot, app)
        await select(pilot, app, card_id(obs, "WC"))
        await pilot.press("enter")
        labels = await pick(pilot, app, "pile", "Pile 1")
        assert "A new pile beside the others" in labels  # a Choice may open a pile, as a Cut Deck
        await wait_for(pilot, app, ColorPicker)
        await pilot.press("r")
        labels = await pick(pilot, app, "choice", "Skip")
        assert "Effect: Trade" in labels and "No effect" in labels
        obs = await settle(pilot, app)
        assert obs["current"] == 0
        await select(pilot, app, card_id(obs, "WM"))
        await pilot.press("enter")
        await wait_for(pilot, app, ColorPicker)
        await pilot.press("g")
        await pilot.pause(0.05)
        obs = obs_of(app)
        assert obs["step"]["op"] == "discard"
        assert "Discard face down" in text_of(table_of(app).query_one("#status"))
        before = len(obs["hand"])
        await select(pilot, app, card_id(obs, "B3"))
        await pilot.press("enter")
        await pilot.pause(0.02)
        await select(pilot, app, card_id(obs_of(app), "Y4"))
        await pilot.press("enter")
        await pilot.pause(0.02)
        assert len(obs_of(app)["hand"]) == before - 2
        await pilot.press("p")
        await pilot.pause(0.05)
        assert len(obs_of(app)["hand"]) == before
        assert "after the Mulligan" in log_text(app)


async def test_flush_discards_then_pass() -> None:
    app = make_app({"hands": [["WF", "R1", "R2", "G3"], ["B7", "B8"], ["G7", "G8"]], "discard": ["Y5"],
                    "current": 0})
    async with app.run_test(size=SIZE) as pilot:
        obs = await settle(pilot, app)
        await select(pilot, app, card_id(obs, "WF"))
        await pilot.press("enter")
        await wait_for(pilot, app, ColorPicker)
        await pilot.press("r")
        await pilot.pause(0.05)
        obs = obs_of(app)
        assert obs["step"]["op"] == "discard"
        await select(pilot, app, card_id(obs, "R1"))
        await pilot.press("enter")
        await pilot.pause(0.02)
        await pilot.press("p")
        await pilot.pause(0.05)
        assert "You discard red 1" in log_text(app)


async def test_needle_stop_and_dagger_challenge_and_sub() -> None:
    # Ben's Dagger hits you: c challenges (he holds no red: innocent, you draw 9). Later a natural draw
    # of yours turns up the Needle.
    app = make_app({"hands": [["G1", "G2", "Y3"], ["R7", "B8"], ["RDG", "G8"]], "discard": ["R5"],
                    "current": 2, "draw": ["Y1", "Y2", "Y4", "Y5", "Y6", "Y7", "Y8", "Y9", "YX", "BN", "G7"]})
    async with app.run_test(size=SIZE) as pilot:
        seen: set[str] = set()
        obs = await settle(pilot, app)
        assert obs["step"]["op"] == "challenge" and obs["step"]["card"] == "DG"
        assert "c challenges" in text_of(table_of(app).query_one("#status"))
        assert "challenge the Dagger" in text_of(table_of(app).query_one(DiezPilesView))
        await pilot.press("c")
        await pilot.pause(0.05)
        assert "You challenge Ben's Dagger: innocent." in log_text(app)
        for _ in range(40):
            obs = await settle(pilot, app)
            step = (obs.get("step") or {}).get("op")
            if obs["over"] or step == "needle":
                break
            if obs["phase"] == "play" and obs["current"] == 0 and not any(
                    a["kind"] == "play" for a in obs["legal"]):
                await pilot.press("d")
                continue
            await take_turn(pilot, app, seen)
        if (obs.get("step") or {}).get("op") == "needle":
            assert "The Needle" in text_of(table_of(app).query_one("#status"))
            await pilot.press("s")
            await pilot.pause(0.05)
            assert "You stop drawing (the Needle)." in log_text(app)


async def test_sub_token_names_the_colour_of_a_bots_wild() -> None:
    app = make_app({"hands": [["G1", "G2", "Y3"], ["W", "B8"], ["R7", "B9"]], "discard": ["R5"],
                    "tokens": [["sub"], [], []], "current": 1})
    async with app.run_test(size=SIZE) as pilot:
        obs = await settle(pilot, app)
        assert obs["phase"] == "sub"
        labels = await pick(pilot, app, "sub", "Name green")
        assert "Let them name the colour" in labels
        assert "You name green (pile 1)." in log_text(app)


async def test_stack_on_you_then_jump_in_with_j() -> None:
    app = make_app({"hands": [["R+2", "G5", "B5"], ["R7", "B8", "G5"], ["R+2", "G9"]], "discard": ["R5"],
                    "current": 2})
    async with app.run_test(size=SIZE) as pilot:
        obs = await settle(pilot, app)
        assert obs["phase"] == "stack" and obs["pending"]["total"] == 2
        assert "Stack +2" in text_of(table_of(app).query_one(DiezPilesView))
        assert "d draws 2" in text_of(table_of(app).query_one("#status"))
        await select(pilot, app, card_id(obs, "R+2"))
        await pilot.press("enter")
        obs = await settle(pilot, app)
        assert "You pass the stack (4 cards) to Ada." in log_text(app)
        # Jump-ins: whenever the top card is one you hold, j plays it out of turn.
        for _ in range(30):
            obs = await settle(pilot, app)
            if obs["over"]:
                break
            if obs["current"] != obs["me"] and any(a["kind"] == "play" for a in obs["legal"]):
                assert "Jump in!" in text_of(table_of(app).query_one("#status"))
                await pilot.press("j")
                await pilot.pause(0.05)
                assert "You jump in!" in log_text(app)
                break
            await take_turn(pilot, app, set())


async def test_reveal_token_shows_a_hand_face_up_and_magnet_gift_on_a_forced_draw() -> None:
    app = make_app({"hands": [["G1", "G2", "Y3"], ["R7", "B8", "WH2"], ["R+2", "G9"]], "discard": ["R5"],
                    "tokens": [[], ["reveal"], ["magnet"]], "current": 2, "draw": ["B1", "B2", "B3"]})
    async with app.run_test(size=SIZE) as pilot:
        players = text_of(table_of(app).query_one(DiezPlayersView))
        assert "Ada's open hand" in players and "WH2" in players and "Rev" in players and "Mag" in players
        obs = await settle(pilot, app)
        assert obs["phase"] == "stack"
        await pilot.press("d")
        await pilot.pause(0.05)
        obs = obs_of(app)
        assert obs["step"]["op"] == "magnet"
        await select(pilot, app, card_id(obs, "B2"))
        await pilot.press("enter")
        await pilot.pause(0.05)
        assert "You give Ben blue 2." in log_text(app)


async def test_the_action_list_offers_everything_and_acts() -> None:
    app = make_app({"hands": [["R1", "G2"], ["B7", "B8"], ["Y7", "Y8"]], "discard": ["R5"], "current": 0})
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("a")
        labels = await pick(pilot, app, "actions", "Draw")
        assert labels == ["Play red 1", "Draw"]
        assert obs_of(app)["players"][0]["cards"] in (2, 3)


def test_every_action_kind_has_words() -> None:
    names = ["You", "Ada", "Ben"]
    obs = {"me": 0, "current": 0, "phase": "play", "step": {"op": "give", "token": "hex"},
           "hand": [{"id": 1, "color": "red", "rank": "7"}], "piles": [{"top": None, "count": 0}],
           "players": [{"tokens": ["hex"]}, {"tokens": []}, {"tokens": []}], "pending": {"total": 4}}
    for a in [{"kind": "give", "target": 1}, {"kind": "remove", "target": 0, "color": "hex"},
              {"kind": "take", "target": 0, "color": "hex"}, {"kind": "take", "card": 1}, {"kind": "drop", "target": 0},
              {"kind": "stitch", "target": 1}, {"kind": "discard", "card": 1}, {"kind": "proc", "color": "block", "target": 1},
              {"kind": "replace"}, {"kind": "effect", "color": "TG"}, {"kind": "stop"}, {"kind": "draw_token"},
              {"kind": "target", "target": 2}, {"kind": "color", "color": "red"}, {"kind": "challenge"}]:
        words = action_words(a, obs, names)
        assert words and "=" not in words, (a, words)
    assert action_words({"kind": "effect", "color": "TG"}, obs, names) == "Effect: Tag"
    assert action_words({"kind": "give", "target": 1}, obs, names) == "Give the Hex token to Ada"


async def test_help_page_explains_every_card_and_token() -> None:
    app = make_app(players=3, seed=2)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.05)
        await pilot.press("question_mark")
        help_screen = await wait_for(pilot, app, HelpScreen)
        text = "\n".join(text_of(w) for w in help_screen.query(Static))
        for kind in TOKENS:
            assert kind.title() in text
        for term, _ in CARDS:
            assert term.split()[0] in text
        for word in ("Needle", "Stitch Deck", "Cut Deck", "Draw Color", "Drop All", "jump in", "challenge"):
            assert word in text
        await pilot.press("escape")
        await pilot.pause(0.02)
        assert isinstance(app.screen, DiezTableScreen)


# -- the command line and the new-game screen ------------------------------------------------
def test_cli_play_and_simulate_know_diez(capsys: pytest.CaptureFixture[str]) -> None:
    args = cli.build_parser().parse_args(["play", "--variant", "diez", "--rules", "scoring=rounds"])
    assert args.variant == "diez" and args.rules == {"scoring": "rounds"}
    assert cli.main(["simulate", "--variant", "diez", "--games", "3", "--players", "3"]) == 0
    assert "diez · 3 players · 3 games" in capsys.readouterr().out


def test_table_screen_for_a_diez_session() -> None:
    session = LocalSession(TableConfig(variant="diez", players=3, seed=1))
    assert isinstance(table_screen_for(session, pacing=(0.0, 0.0)), DiezTableScreen)
    assert "Your turn" in status_line(session.observation(), session.names) or session.observation()["current"] != 0


async def test_new_game_screen_offers_diez_with_its_options() -> None:
    from uno_tui.screens import NewGameScreen

    app = UnoApp(pacing=(0.0, 0.0), config=TableConfig(seed=3))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.05)
        screen = await wait_for(pilot, app, NewGameScreen)
        for _ in range(3):
            await pilot.press("right")
        assert screen.values["variant"] == "diez"
        labels = [line.label for line in screen.lines()]
        assert "Scoring" in labels and "UNO calls" in labels and "Target score" in labels
        await pilot.press("enter")
        await wait_for(pilot, app, DiezTableScreen)


async def test_mirror_proc_arms_the_seat_row_and_the_log_says_so() -> None:
    app = make_app({"hands": [["YPR", "Y1", "G4", "B6"], ["R7", "R8"], ["G7", "G8"]], "discard": ["Y5"],
                    "tokens": [[], ["mirror"], []], "current": 0})
    async with app.run_test(size=SIZE) as pilot:
        obs = await settle(pilot, app)
        await select(pilot, app, card_id(obs, "YPR"))
        await pilot.press("enter")
        labels = await pick(pilot, app, "proc", "Mirror")
        assert any("Otherwise you hold a Mirror's effect" in label for label in labels)
        await pilot.pause(0.05)
        assert obs_of(app)["players"][0]["mirror_armed"]
        row = next(line for line in text_of(table_of(app).query_one(DiezPlayersView)).splitlines() if "You" in line)
        assert "[Mir]" in row
        assert "You hold a Mirror's effect" in log_text(app)


async def test_the_log_tells_the_deal_before_a_bot_that_begins_moves() -> None:
    app = make_app({"hands": [["R1", "G2"], ["R7", "R8"], ["R+2", "B9"]], "discard": ["R5"], "current": 2})
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        lines = [line for line in log_text(app).splitlines() if line.strip()]
        assert "Round 1" in lines[0] and any("Ben plays" in line for line in lines[1:]), lines


def test_the_status_line_of_a_sealed_white_card_step_names_no_token() -> None:
    """A sealed table's White-card step says with ``token: True`` that a token comes with the draw
    (a bool, not a token's name): the status line is drawn all the same (it raised once)."""
    g = core.new_game("diez", 3, seed=2)
    obs = g.observation(0)
    obs["step"] = {"op": "white", "who": 0, "seen": [], "card": None, "token": True}
    line = status_line(obs, g.names, True)
    assert isinstance(line, str) and line
