"""No Mercy, house rules, Wild Rawz and the new-game screen, driven by key presses.

As in test_tui.py, the tests read the session to decide which key to press
but act only through ``pilot.press``, as a person would.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

import core
from core import Action
from uno_tui import cli
from uno_tui.app import UnoApp
from uno_tui.faces.classic.pile import PileView
from uno_tui.faces.classic.players import PlayersView
from uno_tui.faces.classic.words import status_line
from uno_tui.faces.wildrawz.table import TrickTableScreen
from uno_tui.faces.wildrawz.widgets import RowView, SeatsView, TrickView
from uno_tui.narration import between_rounds, log_line, logged
from uno_tui.screens import ColorPicker, HelpScreen, NewGameScreen, RoundOverScreen, TableScreen, TargetPicker
from uno_tui.session import LocalSession, TableConfig, with_match_length
from uno_tui.widgets import HandView, StatusLine
from tui_support import card_id, log_text, run_cli, select, settle_when, table_of, text_of, wait_for


# -- helpers ----------------------------------------------------------------------
async def settle(pilot: Pilot, app: UnoApp, timeout: float = 10.0) -> dict[str, Any]:
    """Let the bots play until the human must act (the table or a picker is up) or the round is over."""
    return await settle_when(pilot, app, lambda obs: obs["over"] or (obs["current"] == obs["me"] and obs["legal"]),
                             timeout)


async def take_turn(pilot: Pilot, app: UnoApp) -> None:
    """A sensible UNO move for the human (any variant but Wild Rawz), with keys only."""
    obs = app.session.observation()
    legal = obs["legal"]
    kinds = {a["kind"] for a in legal}
    if obs["phase"] == "choose":
        await wait_for(pilot, app, ColorPicker)
        await pilot.press("b")
        return
    if "catch" in kinds:
        await pilot.press("x")
        return
    plays = [a for a in legal if a["kind"] == "play"]
    if not plays:
        await pilot.press("d" if "draw" in kinds else "p")
        return
    play = next((a for a in plays if a.get("color") is None and a.get("target") is None), plays[0])
    if "uno" in kinds:
        await pilot.press("u")
    await select(pilot, app, play["card"])
    await pilot.press("enter")
    if play.get("color") is not None:
        await wait_for(pilot, app, ColorPicker)
        await pilot.press(play["color"][0])
    elif play.get("target") is not None:
        await wait_for(pilot, app, TargetPicker)
        await pilot.press("enter")


async def play_out(pilot: Pilot, app: UnoApp, turns: int = 600) -> dict[str, Any]:
    for _ in range(turns):
        obs = await settle(pilot, app)
        if obs["over"]:
            return obs
        await take_turn(pilot, app)
    raise AssertionError("the round did not end")


# -- No Mercy: a whole round with the 7, a stack and a Color Roulette ---------------------------
NOMERCY_SETUP = {
    # You swap your 7 with Cleo; Ada and Ben each have one red card to play; Cleo (now holding your
    # R+2) stacks +2 on you; you answer with her old Y+4; Ada has nothing to stack and takes 6;
    # Ben and Cleo draw until playable, and Cleo turns up the Color Roulette, which she plays on you.
    "hands": [["R7", "R+2", "G9"], ["R3", "B1", "B2", "B4"], ["R1", "B5", "B6", "B8"], ["Y+4", "G5", "G6", "Y2"]],
    "discard": ["R5"], "current": 0,
    "draw": ["B3", "B7", "B9", "R2", "R4", "R6", "Y3", "WCR", "B7", "G1"],
}


async def test_a_whole_no_mercy_round_with_the_seven_a_stack_and_the_roulette() -> None:
    app = UnoApp(LocalSession(TableConfig(variant="nomercy", seed=5, setup=NOMERCY_SETUP)), pacing=(0.0, 0.0))
    async with app.run_test(size=(100, 32)) as pilot:
        obs = await settle(pilot, app)
        table = table_of(app)
        assert "R+2" in text_of(table.query_one(HandView))

        # The 7: a target picker lists the other players with their card counts.
        await select(pilot, app, card_id(obs, "R7"))
        await pilot.press("enter")
        await wait_for(pilot, app, TargetPicker)
        rows = [text_of(r) for r in app.screen.query(".target")]
        assert [r.split()[1] for r in rows] == ["Ada", "Ben", "Cleo"]
        assert all("4 cards" in r for r in rows)
        await pilot.press("3")  # Cleo
        obs = await settle(pilot, app)
        assert "You swap hands with Cleo." in log_text(app)
        assert sorted(core.notation(c["color"], c["rank"]) for c in obs["hand"]) == ["G5", "G6", "Y+4", "Y2"]

        # Cleo stacked +2 on you: the table says so and enter stacks the Y+4.
        assert obs["phase"] == "stack" and obs["pending"]["total"] == 2
        assert "Stack +2 → you" in text_of(table.query_one(PileView))
        assert "+2?" in text_of(table.query_one(PlayersView))
        assert "+2 is coming to you" in text_of(table.query_one(StatusLine))
        await select(pilot, app, card_id(obs, "Y+4"))
        await pilot.press("enter")

        # The Color Roulette played on you opens the colour picker by itself.
        obs = await settle(pilot, app)
        assert obs["phase"] == "choose"
        await wait_for(pilot, app, ColorPicker)
        assert "Color Roulette" in text_of(app.screen.query_one("#picker-title"))
        await pilot.press("g")
        await pilot.pause(0.05)
        log = log_text(app)
        assert "You play yellow Draw Four." in log
        assert "Ada draws 6 cards as a penalty." in log
        assert "You name green for the Color Roulette." in log
        assert "You draw blue 7, green 1 turned up by the Color Roulette." in log
        hand = table.query_one(HandView)
        assert {core.notation(c["color"], c["rank"]) for c in hand.cards if c["id"] in hand.fresh} == {"B7", "G1"}
        assert "new" in text_of(hand)

        # And on to the end of the round.
        obs = await play_out(pilot, app)
        await wait_for(pilot, app, RoundOverScreen)
        game = app.session.game
        assert obs["winner"] == game.winner and game.last_points > 0


async def test_escaping_the_roulette_picker_and_enter_reopens_it() -> None:
    setup = {"hands": [["R1", "B2"], ["WCR", "G1", "G2"]], "discard": ["R5"], "current": 1,
             "draw": ["B3", "Y1", "G4"]}
    app = UnoApp(LocalSession(TableConfig(variant="nomercy", players=2, seed=2, setup=setup)), pacing=(0.0, 0.0))
    async with app.run_test(size=(100, 32)) as pilot:
        obs = await settle(pilot, app)
        assert obs["phase"] == "choose"
        await wait_for(pilot, app, ColorPicker)
        await pilot.press("escape")
        await pilot.pause(0.05)
        assert isinstance(app.screen, TableScreen)
        assert app.session.observation()["phase"] == "choose"
        await pilot.press("enter")
        await wait_for(pilot, app, ColorPicker)
        await pilot.press("y")
        await pilot.pause(0.05)
        assert "You draw blue 3, yellow 1 turned up by the Color Roulette." in log_text(app)


async def test_no_mercy_cards_show_their_notation_and_knockouts_show_as_out() -> None:
    ada = [f"{c}{n}" for c in "GY" for n in range(1, 10) for _ in range(2)][:24]  # 24 cards, no draw card
    setup = {"hands": [["W+6", "W+10", "WR+4", "WCR", "R+4", "RSA", "RDA", "R3"], ada, ["B1", "B2"]],
             "discard": ["R5"], "current": 0}
    app = UnoApp(LocalSession(TableConfig(variant="nomercy", players=3, seed=2, setup=setup)), pacing=(0.0, 0.0))
    async with app.run_test(size=(100, 32)) as pilot:
        obs = await settle(pilot, app)
        shown = text_of(table_of(app).query_one(HandView))
        for notation in ("W+6", "W+10", "WR+4", "WCR", "R+4", "RSA", "RDA"):
            assert notation in shown
        # A Wild Draw Ten on Ada (24 cards) knocks her out by the Mercy rule.
        await select(pilot, app, card_id(obs, "W+10"))
        await pilot.press("enter")
        await wait_for(pilot, app, ColorPicker)
        assert "Wild Draw Ten" in text_of(app.screen.query_one("#picker-title"))
        await pilot.press("r")
        obs = await settle(pilot, app)  # Ada holds no draw card to stack: she takes 10 and is out
        assert obs["players"][1]["out"]
        assert "OUT" in text_of(table_of(app).query_one(PlayersView))
        assert "Ada holds" in log_text(app) and "knocked out" in log_text(app)


# -- classic house rules: jump-in, force play, the key that is not there ---------------------------
async def test_jump_in_out_of_turn_with_enter() -> None:
    # Ben is to play on a green 5 and you hold the other green 5: enter jumps in.
    setup = {"hands": [["G5", "B7", "B1"], ["Y1", "Y2", "Y3"], ["R1", "R2"], ["R3", "R4"]],
             "discard": ["G5"], "current": 2}
    app = UnoApp(LocalSession(TableConfig(seed=1, setup=setup, options={"jump_in": True})), pacing=(5.0, 5.0))
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause(0.05)
        table = table_of(app)
        obs = app.session.observation()
        assert obs["current"] == 2 and any(a["kind"] == "play" for a in obs["legal"])
        assert "Jump in!" in text_of(table.query_one(StatusLine))
        assert table.query_one(HandView).selected_card["rank"] == "5"  # the card that can jump in
        await pilot.press("enter")
        await pilot.pause(0.05)
        obs = app.session.observation()
        assert len(obs["hand"]) == 2 and obs["current"] == 1  # play goes on from you
        assert "You jump in!" in log_text(app)
        assert any(n.message == "Jump in!" for n in app._notifications)


async def test_force_play_leaves_no_keeping_a_drawn_card() -> None:
    setup = {"hands": [["B1", "B2"], ["Y2", "Y3"], ["R1", "R2"], ["R3", "R4"]],
             "discard": ["G2"], "current": 0, "draw": ["G7"]}
    app = UnoApp(LocalSession(TableConfig(seed=1, setup=setup, options={"force_play": True})), pacing=(5.0, 5.0))
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        await pilot.press("d")
        await pilot.pause(0.05)
        obs = app.session.observation()
        assert obs["phase"] == "drawn" and not any(a["kind"] == "pass" for a in obs["legal"])
        assert "must play it" in text_of(table_of(app).query_one(StatusLine))
        hand = table_of(app).query_one(HandView)
        assert hand.selected_card["id"] in hand.fresh  # the drawn card is new, and chosen
        await pilot.press("p")
        await pilot.pause(0.05)
        assert any("must be" in n.message for n in app._notifications)
        await pilot.press("enter")
        await pilot.pause(0.05)
        assert app.session.observation()["top"]["rank"] == "7"


# -- Wild Rawz ---------------------------------------------------------------------------------------
async def test_a_whole_wild_rawz_round_by_keys_draft_play_and_leave() -> None:
    app = UnoApp(LocalSession(TableConfig(variant="wildrawz", players=4, seed=4)), pacing=(0.0, 0.0))
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause(0.05)
        table = table_of(app)
        assert isinstance(table, TrickTableScreen)
        keys = TrickTableScreen._merge_bindings().key_to_bindings
        assert "v" in keys and not {"d", "u", "c", "x", "p"} & set(keys)  # no UNO keys at this table
        took = left = played = mid_trick_seen = 0
        for _ in range(200):
            obs = await settle(pilot, app)
            if obs["over"]:
                break
            kinds = {a["kind"] for a in obs["legal"]}
            if obs["phase"] == "draft":
                assert table.query_one(RowView).display
                target = obs["legal"][-1]["card"]
                await select(pilot, app, target, "#row")
                await pilot.press("enter")
                took += 1
                continue
            if obs["trick"] and not mid_trick_seen:
                trick = text_of(table.query_one(TrickView))
                first_player, first_card = obs["trick"][0]
                assert core.notation(first_card["color"], first_card["rank"]) in trick
                assert "Trump" in trick
                mid_trick_seen = 1
            if "leave" in kinds and not left:
                await pilot.press("v")  # leave with the chosen card
                left += 1
                continue
            play = next(a for a in obs["legal"] if a["kind"] == "play")
            await select(pilot, app, play["card"])
            await pilot.press("enter")
            played += 1
        else:
            pytest.fail("the round did not end")
        assert took >= 2 and left == 1 and played >= 10 and mid_trick_seen
        await wait_for(pilot, app, RoundOverScreen)
        obs = app.session.observation()
        shown = text_of(app.screen.query_one("BreakdownTable"))
        for p, row in enumerate(obs["breakdown"]):
            name = "You" if p == 0 else app.session.names[p]
            line = next(l for l in shown.splitlines() if l.split() and l.split()[0] == name)
            numbers = [w for w in line.replace("✓", "").replace("+", "").split()[1:] if w != "–"]
            assert numbers[:3] == [str(row["tricks"]), str(row["left"]), str(row["target"])]
            assert numbers[-2:] == [str(row["total"]), str(obs["scores"][p])]
        log = log_text(app)
        assert "You take" in log and "You leave the trick with" in log and "points this round" in log
        assert "wins the round" not in log
        assert app.screen.query_one("#round-over").border_title == "Round 1 of 8 is over"
        await pilot.press("n")
        await pilot.pause(0.05)
        assert app.session.observation()["round"] == 1 and app.session.observation()["phase"] == "draft"


async def test_wild_rawz_seats_show_targets_and_leaving_cards() -> None:
    setup = {"hands": [["R1", "G2"], ["R3", "B4"], ["G5", "B6"]], "trump": "B3",
             "trick": [[1, "R4"]], "leaver": [2, "Y2"], "left": [[], [], ["Y1"]], "won": [3, 4, 3],
             "leader": 1}
    app = UnoApp(LocalSession(TableConfig(variant="wildrawz", players=3, seed=1, setup=setup)),
                 pacing=(5.0, 5.0))
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause(0.05)
        table = table_of(app)
        seats = text_of(table.query_one(SeatsView))
        # Ben left Y1 earlier and Y2 in this trick: his target is 8 - 1 - 2.
        assert "3/8" in seats and "4/8" in seats and "3/5" in seats
        assert app.session.observation()["current"] == 0
        trick = text_of(table.query_one(TrickView))
        assert "R4" in trick and "Y2" in trick and "left" in trick
        status = text_of(table.query_one(StatusLine))
        assert "Follow red" in status and "v leave" not in status  # someone has left already
        await pilot.press("v")
        await pilot.pause(0.05)
        assert any("already left" in n.message for n in app._notifications)
        await pilot.press("question_mark")
        await wait_for(pilot, app, HelpScreen)
        assert "Wild Rawz" in text_of(app.screen.query_one("#help-rules"))
        assert "leave the trick" in text_of(app.screen.query_one("#help-keys"))


# -- the new-game screen ----------------------------------------------------------------------------
async def test_new_game_screen_returns_the_chosen_classic_house_rules() -> None:
    app = UnoApp(pacing=(0.0, 0.0), config=TableConfig(seed=3))
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, app, NewGameScreen)
        keys = ["down", "left",  # players: 3
                "down", "down",  # stacking
                "right", "right",  # progressive
                "down", "space",  # 7-0
                "down", "space",  # jump-in
                "down", "space",  # force play
                "down", "space",  # no bluffing
                "down", "space",  # draw until playable
                "down", "right",  # UNO penalty 3
                "down", "right",  # target score 750
                "enter"]
        await pilot.press(*keys)
        await wait_for(pilot, app, TableScreen)
        cfg = app.session.config
        assert (cfg.variant, cfg.players, cfg.bots, cfg.seed) == ("classic", 3, "normal", 3)
        assert cfg.options == {"stacking": "progressive", "seven_o": True, "jump_in": True, "force_play": True,
                               "no_bluff": True, "draw_until_playable": True, "uno_penalty": 3,
                               "target_score": 750}
        assert app.session.game.options == cfg.options
        assert "stacking: progressive" in text_of(app.screen.query_one("MatchBar"))


async def test_new_game_screen_seats_hard_bots() -> None:
    """The bots line offers the levels weakest first; choosing hard seats searching bots, which
    play the table on the session's short budget."""
    from core.bots.hard import HardBot

    app = UnoApp(pacing=(0.0, 0.0), config=TableConfig(seed=3, players=2, think=0.01))
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await wait_for(pilot, app, NewGameScreen)
        assert screen.levels[:4] == ["random", "easy", "normal", "hard"]
        await pilot.press("down", "down")  # the bots line: normal
        assert "how well" not in text_of(screen.query_one("#new-game-doc")) and \
            "normal" in text_of(screen.query_one("#new-game-doc"))
        await pilot.press("right")
        assert screen.values["bots"] == "hard" and "searches" in text_of(screen.query_one("#new-game-doc"))
        await pilot.press("right", "enter")  # hard is the last: it stays
        await wait_for(pilot, app, TableScreen)
        session = app.session
        assert session.config.bots == "hard" and session.labels[1] == "hard bot"
        hard = session.bots[1].strategy("classic")
        assert isinstance(hard, HardBot)
        # The bot thinks off the app's loop and plays: keep handing it the turn until it has moved.
        def bot_moved(obs: dict[str, Any]) -> bool:
            if session.game.decision is not None and session.game.decision.player == 0:
                kinds = {a["kind"] for a in obs["legal"]}
                kind = "pass" if "pass" in kinds else "draw" if "draw" in kinds else obs["legal"][0]["kind"]
                session.send(Action.from_dict(next(a for a in obs["legal"] if a["kind"] == kind)))
            return any(e.player == 1 and e.kind in ("play", "draw", "pass") for e in session.round_events)

        await settle_when(pilot, app, bot_moved, grace=0)


_HARD_IN_PROCESSES = """
import asyncio, time
from uno_tui.app import UnoApp
from uno_tui.screens import NewGameScreen, TableScreen
from uno_tui.session import TableConfig

async def until(pilot, ready):
    end = time.monotonic() + 60
    while not ready():
        assert time.monotonic() < end, "the screen never came"
        await pilot.pause(0.02)

async def main():
    app = UnoApp(pacing=(0.0, 0.0), config=TableConfig(seed=3, players=2, think=0.05, think_processes=2))
    async with app.run_test(size=(100, 32)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, NewGameScreen))
        await pilot.press("down", "down", "right", "enter")  # the bots line: normal, then hard; deal
        await until(pilot, lambda: isinstance(app.screen, TableScreen))
        searcher = app.session.bots[1].strategy("classic").searcher
        searcher.warm_up()
        print("workers ready:", len(searcher._started))

asyncio.run(main())
"""


def test_hard_bots_chosen_on_the_new_game_screen_search_in_worker_processes() -> None:
    """As the command line sets it up (a worker per core): inside the app ``sys.stderr`` has no
    descriptor, which multiprocessing's resource tracker hands on, and the deal died with
    "bad value(s) in fds_to_keep". A fresh interpreter, so that no tracker is running already."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _HARD_IN_PROCESSES], capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "workers ready: 1" in done.stdout


async def test_new_game_screen_switches_variants_and_player_ranges() -> None:
    app = UnoApp(pacing=(0.0, 0.0), config=TableConfig(seed=3, players=6))
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, app, NewGameScreen)
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        await pilot.press("right", "right")  # wildrawz: 3 or 4 players, no options
        assert screen.values["players"] == 4
        assert [line.key for line in screen.lines()] == ["variant", "players", "bots"]
        await pilot.press("left")  # nomercy: 2 to 6, target 1000 by default
        choice = screen.choice()
        assert choice.variant == "nomercy" and choice.options == {"target_score": 1000, "uno_penalty": 2}
        await pilot.press("right", "enter")
        await wait_for(pilot, app, TrickTableScreen)
        assert app.session.observation()["variant"] == "wildrawz" and len(app.session.names) == 4


async def test_escape_on_the_new_game_screen_quits() -> None:
    app = UnoApp(pacing=(0.0, 0.0))
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, app, NewGameScreen)
        await pilot.press("escape")
        await pilot.pause(0.05)
    assert app.session is None and app.return_code == 0


# -- narration ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("event", "line"), [
    (core.Event("swap", player=0, target=2), "You swap hands with Ben."),
    (core.Event("swap", player=2, target=0), "Ben swaps hands with you."),
    (core.Event("rotate", player=0), "Every hand passes to the next player."),
    (core.Event("skip_all", player=0), "You skip everyone and play again."),
    (core.Event("discard_all", player=0, count=2, color="red"), "You discard every red card too: 2 cards."),
    (core.Event("knockout", player=0, count=25), "You hold 25 cards and are knocked out (Mercy)!"),
    (core.Event("choose", player=0, color="blue"), "You name blue for the Color Roulette."),
    (core.Event("jump_in", player=0), "You jump in!"),
    (core.Event("trick", player=1, target=0), "Ada wins the trick; you left it and lead next."),
])
def test_log_lines_for_the_new_events(event: core.Event, line: str) -> None:
    assert log_line(event, ["Sam", "Ada", "Ben"], 0) == line


@pytest.mark.parametrize(("event", "line"), [
    (core.Event("token_remove", player=1, target=0, reason="mirror"), "A Mirror token of yours goes back to the bag."),
    (core.Event("token_remove", player=0, target=1, reason="mirror"), "A Mirror token of Ada's goes back to the bag."),
    (core.Event("token_steal", player=1, target=0, reason="mirror"), "Ada steals your Mirror token."),
    (core.Event("token_trigger", player=0, reason="mirror"), "Your Mirror token acts and is spent."),
])
def test_diez_token_lines_address_you(event: core.Event, line: str) -> None:
    assert log_line(event, ["Sam", "Ada", "Ben"], 0, "diez") == line


@pytest.mark.parametrize(("variant", "event", "line"), [
    ("diez", core.Event("mirror_armed", player=0),
     "You hold a Mirror's effect: the next power card used on you turns back."),
    ("diez", core.Event("mirror_armed", player=1),
     "Ada holds a Mirror's effect: the next power card used on them turns back."),
    ("extended", core.Event("withdraw", player=0, reason="draw"),
     "Your drawn card goes to the bottom of the pile; you draw another."),
    ("extended", core.Event("bomb", player=0, count=3),
     "Your 炸弹 Bomb goes off: 3 cards for you, one fewer a seat away."),
    ("extended", core.Event("regret", player=1, target=0, reason="draw"),
     "Ada takes 后悔药 Regret Pill: you take back your draw."),
    ("extended", core.Event("regret", player=0, target=1, reason="draw"),
     "You take 后悔药 Regret Pill: Ada takes back their draw."),
    # A Choice's effect by its card's name, not its code ("TG").
    ("diez", core.Event("choice", player=1, reason="TG"), "Ada chooses the Choice's effect: Tag."),
    ("diez", core.Event("choice", player=0, reason=None), "You choose no effect for the Choice."),
    ("diez", core.Event("proc", player=1, reason="mirror"), "Ada procs Mirror."),
    # Your trick, another's lead: the second clause keeps its own subject's verb.
    ("wildrawz", core.Event("trick", player=0, target=2), "You win the trick; Ben left it and leads next."),
    ("wildrawz", core.Event("trick", player=1, target=0), "Ada wins the trick; you left it and lead next."),
    ("wildrawz", core.Event("trick", player=0), "You win the trick and lead next."),
])
def test_lines_whose_words_say_they_say_you_when_it_is_you(variant: str, event: core.Event, line: str) -> None:
    assert log_line(event, ["Sam", "Ada", "Ben"], 0, variant) == line


@pytest.mark.parametrize(("event", "line"), [
    (core.Event("claim", player=0, reason="refuse is legal with the cards Sam holds", count=9),
     "You claim: refuse is legal with the cards you hold."),
    (core.Event("claim", player=1, reason="draw is legal with the cards Ada holds", count=9),
     "Ada claims: draw is legal with the cards Ada holds."),
    (core.Event("claim", player=1, reason="Sam's hand held no red card", count=7),
     "Ada claims: your hand held no red card."),
    (core.Event("claim", player=1, reason="Samuel's hand held no red card", count=7),
     "Ada claims: Samuel's hand held no red card."),
])
def test_a_sealed_tables_claims_say_you(event: core.Event, line: str) -> None:
    """Seen at a sealed table: "You claims: refuse is legal with the cards Ann holds." (Ann was you)."""
    assert log_line(event, ["Sam", "Ada", "Ben"], 0) == line


def test_a_claim_that_the_draw_after_it_says_already_takes_no_line_of_the_log() -> None:
    """Drawing until a card can be played at a sealed table is a move a card, each after the claim that
    the card drawn before cannot be played: the log told both, two lines a card. The draw says it."""
    claim = core.Event("claim", player=1, reason="the card drawn cannot be played", count=1)
    draw_on = core.Event("draw", player=1, count=1, reason="turn", visible_to=(1,))
    assert logged([claim, draw_on]) == [draw_on]
    lines = [log_line(e, ["Sam", "Ada", "Ben"], 0) for e in logged([claim, draw_on])]
    assert lines == ["Ada draws 1 card."]
    # Claims no draw of that player's turn says stay: a bluff's, one followed by a penalty or by
    # another's draw, one ending its move.
    bluff = core.Event("claim", player=1, reason="holds no red card", count=5)
    play = core.Event("play", player=1, cards=(core.Card(3, None, "W+4"),), color="blue")
    ruling = core.Event("claim", player=2, reason="Ada's hand held no red card", count=5)
    penalty = core.Event("draw", player=2, count=6, reason="penalty", visible_to=(2,))
    other = core.Event("draw", player=2, count=1, reason="turn", visible_to=(2,))
    for events in ([bluff, play], [ruling, penalty], [claim, other], [claim]):
        assert logged(events) == events
    dealt = core.Event("draw", player=0, count=7, reason="deal", visible_to=(0,))
    assert logged([dealt, play]) == [play]


@pytest.mark.parametrize("variant", ["classic", "diez"])
def test_a_forgotten_uno_does_not_hide_that_it_is_your_turn(variant: str) -> None:
    from uno_tui.faces.diez.words import status_line as diez_status

    line = diez_status if variant == "diez" else status_line
    game = core.new_game(variant, ["Sam", "Ada", "Ben"], seed=1, setup={
        "hands": [["R1", "R2"], ["R5", "G1"], ["B1", "B2"]], "discard": ["R7"], "current": 0})
    game.apply(0, core.Action("play", next(c.id for c in game.hands[0] if c.rank == "1")))  # no UNO called
    mine = line(game.observation(1), game.names)
    assert mine.startswith("Sam forgot to call UNO: press x to catch them!") and mine.endswith("your turn."), mine
    theirs = line(game.observation(2), game.names)
    assert theirs == "Sam forgot to call UNO: press x to catch them!"


def test_status_line_for_a_stack_on_someone_else() -> None:
    game = core.new_game("nomercy", ["Sam", "Ada", "Ben"], seed=1, setup={
        "hands": [["R+2", "R1", "R2"], ["G1", "G2"], ["B1"]], "discard": ["R5"], "current": 0})
    game.apply(0, core.Action("play", next(c.id for c in game.hands[0] if c.rank == "+2")))
    assert status_line(game.observation(0), game.names).startswith("Ada must answer +2")


# -- the command line ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "options"), [
    ("stacking=progressive,seven_o,jump_in,force_play,no_bluff,uno_penalty=3,draw_until_playable",
     {"stacking": "progressive", "seven_o": True, "jump_in": True, "force_play": True, "no_bluff": True,
      "uno_penalty": 3, "draw_until_playable": True}),
    ("seven_o=false, jump-in=yes", {"seven_o": False, "jump_in": True}),
    ("", {}),
])
def test_rules_parse_into_options(text: str, options: dict[str, Any]) -> None:
    assert cli.parse_rules(text) == options
    core.variant_class("classic").check_options(options)


@pytest.mark.parametrize(("args", "complaint"), [
    (["play", "--rules", "stacking=sideways"], "option 'stacking': bad value 'sideways'"),
    (["play", "--rules", "uno_penalty=11"], "option 'uno_penalty': bad value 11"),
    (["play", "--rules", "seven_o=3"], "option 'seven_o' must be bool"),
    (["play", "--rules", "teleport"], "unknown option 'teleport' for classic"),
    (["play", "--variant", "nomercy", "--rules", "jump_in"], "unknown option 'jump_in' for nomercy"),
    (["play", "--variant", "nomercy", "--players", "7"], "nomercy is for 2 to 6 players, not 7"),
    (["play", "--variant", "wildrawz", "--players", "2"], "wildrawz is for 3 to 4 players, not 2"),
    (["play", "--variant", "wildrawz", "--target-score", "100"], "wildrawz has no target score"),
    (["simulate", "--variant", "nomercy", "--rules", "stacking=same"], "unknown option 'stacking' for nomercy"),
])
def test_cli_bad_rules_exit_2_with_a_message(args: list[str], complaint: str) -> None:
    result = run_cli(*args)
    assert result.returncode == 2, result.stderr
    assert complaint in result.stderr
    assert "usage:" in result.stderr


def test_cli_simulate_takes_rules() -> None:
    result = run_cli("simulate", "--variant", "nomercy", "--games", "3", "--rules", "uno_penalty=4")
    assert result.returncode == 0, result.stderr
    assert "rules uno_penalty=4" in result.stdout


@pytest.mark.parametrize(("args", "asks", "variant", "players", "options"), [
    ([], True, "classic", 4, {}),
    (["play"], True, "classic", 4, {}),
    (["play", "--seed", "3", "--fast"], True, "classic", 4, {}),
    (["play", "--quick"], False, "classic", 4, {}),
    (["play", "--variant", "nomercy"], False, "nomercy", 4, {}),
    (["play", "--variant", "wildrawz", "--players", "3"], False, "wildrawz", 3, {}),
    (["play", "--rules", "seven_o,stacking=same"], False, "classic", 4, {"seven_o": True, "stacking": "same"}),
    (["play", "--variant", "nomercy", "--target-score", "300"], False, "nomercy", 4, {"target_score": 300}),
])
def test_cli_play_asks_first_unless_the_game_is_chosen(monkeypatch: pytest.MonkeyPatch, args: list[str],
                                                       asks: bool, variant: str, players: int,
                                                       options: dict[str, Any]) -> None:
    seen: list[UnoApp] = []
    monkeypatch.setattr(UnoApp, "run", lambda self, *a, **k: seen.append(self))
    assert cli.main(args) == 0
    (app,) = seen
    assert (app.session is None) == asks
    cfg = app.config if asks else app.session.config
    assert (cfg.variant, cfg.players, cfg.options) == (variant, players, options)
    if "--fast" in args:
        assert app.pacing == (0.0, 0.0) and cfg.seed == 3


def test_the_keys_after_the_last_round_of_a_hosts_rounds_offer_no_next_round() -> None:
    """Seen at a sealed table of ``--rounds 1``: the joiner's status said the host would deal the next round."""
    last = {"match_over": False, "round": 0, "rounds_in_match": 1}
    assert between_rounds(last, deals=False) == "the host decides on a rematch · ctrl+q: leave"
    assert between_rounds(last) == "n: rematch · ctrl+q: quit"
    assert between_rounds({**last, "rounds_in_match": 2}, deals=False) == "the host deals the next round"
    assert between_rounds({"match_over": False, "round": 3}) == "n: next round"


def test_between_a_sealed_tables_rounds_the_table_deals_not_the_host() -> None:
    """A sealed table deals its next round by itself, once every audit is in: its players were told the
    host would (``deals`` None: nobody at the table deals it)."""
    mid = {"match_over": False, "round": 0, "target_score": 500}
    assert between_rounds(mid, deals=None) == "the table deals the next round once every audit is in"
    assert between_rounds({**mid, "match_over": True}, deals=None) == "the host decides on a rematch · ctrl+q: leave"
    from types import SimpleNamespace

    summary = RoundOverScreen(mid, SimpleNamespace(unit="points"), deals=None)  # type: ignore[arg-type]
    keys = [w for w in summary._compose_match_end() if w.id == "round-keys"]
    assert "the table deals the next round once every audit is in · esc" in str(keys[0].render())


def test_a_hosts_rounds_shorter_than_the_rules_match_is_the_match_shown() -> None:
    """Seen at a Wild Rawz table of ``host --rounds 1``: the header said "round 1 of 6"."""
    wildrawz = {"round": 0, "rounds_in_match": 6, "match_over": False}
    assert with_match_length(wildrawz, 1)["rounds_in_match"] == 1
    assert with_match_length(wildrawz, 10)["rounds_in_match"] == 6
    assert with_match_length(wildrawz, None)["rounds_in_match"] == 6
    assert with_match_length({"round": 0, "match_over": False}, 3)["rounds_in_match"] == 3
