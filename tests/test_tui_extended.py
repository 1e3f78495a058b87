"""The extended table (UNO 扩展规则), driven by key presses: a whole round against bots, duel and
chain prompts answered by keys, the help page, the move list, and the words of every event.

As in test_tui.py, the tests read the session to decide which key to press but act only
through ``pilot.press``, as a person would.
"""

from __future__ import annotations

import asyncio
from typing import Any

from rich.cells import cell_len
from textual.pilot import Pilot

import core
from core.bots import make_bot
from core.events import describe
from core.variants.extended.cards import TABLE
from uno_tui import cli
from uno_tui.app import UnoApp
from uno_tui.screens import ColorPicker, NewGameScreen, TargetPicker, table_screen_for
from uno_tui.faces.extended.table import ExtendedTableScreen
from uno_tui.screens import ActionMenu, HelpScreen, RoundOverScreen
from uno_tui.session import LocalSession, TableConfig
from uno_tui.widgets import GameLog, StatusLine
from uno_tui.faces.extended.cards import CHIP_WIDTH, ext_chip, label
from uno_tui.faces.extended.widgets import ExtHandView, ExtPlayersView, ExtPromptView, ExtTableView
from uno_tui.faces.extended.words import action_words, key_hints, situation
from tui_support import card_id, log_text, select, settle_when, table_of, text_of, wait_for
from net_support import GAME_BOUND


# -- helpers ---------------------------------------------------------------------------------
def ext_app(setup: dict[str, Any] | None = None, players: int = 3, seed: int = 1, **options: Any) -> UnoApp:
    return UnoApp(LocalSession(TableConfig(variant="extended", players=players, seed=seed, setup=setup,
                                           options=options)), pacing=(0.0, 0.0))


async def settle(pilot: Pilot, app: UnoApp, timeout: float = 10.0) -> dict[str, Any]:
    """Let the bots play until the human must act (the engine's ``actor``) or the round is over."""
    return await settle_when(pilot, app, lambda obs: obs["over"] or any(
        a["kind"] in ("uno", "catch") for a in obs["legal"]) or (obs["actor"] == obs["me"] and obs["legal"]),
        timeout, grace=0.01)


async def use_card(pilot: Pilot, app: UnoApp, action: dict[str, Any]) -> None:
    """Select the action's card, press enter, and answer the picker it opens."""
    same_card = sum(1 for a in app.session.observation()["legal"] if a.get("card") == action["card"]
                    and a["kind"] == action["kind"])
    await select(pilot, app, action["card"])
    await pilot.press("enter")
    if action.get("target") is not None and same_card > 1:  # one target: the table aims it at once
        await wait_for(pilot, app, TargetPicker)
        await pilot.press("enter")
    elif action.get("color") is not None and action["kind"] == "play":
        obs = app.session.observation()
        if sum(1 for a in obs["legal"] if a.get("card") == action["card"] and a["kind"] == "play") > 1:
            await wait_for(pilot, app, ColorPicker)
            await pilot.press(action["color"][0])


async def take_move(pilot: Pilot, app: UnoApp, obs: dict[str, Any]) -> None:
    """A sensible move for the human in any phase, with keys only."""
    legal = obs["legal"]
    kinds = {a["kind"] for a in legal}
    phase = obs["phase"]
    if "uno" in kinds:
        await pilot.press("u")
        return
    if "catch" in kinds:
        await pilot.press("x")
        return
    if phase == "direction":
        await wait_for(pilot, app, TargetPicker)
        await pilot.press("enter")
        return
    if phase == "duel":
        await wait_for(pilot, app, ActionMenu)
        await pilot.press({"red": "r", "yellow": "y", "green": "g", "blue": "b", "black": "k"}[
            next(a["color"] for a in legal if a["kind"] == "choose")])
        return
    if phase in ("judge", "react"):
        await pilot.press("a")
        return
    if phase == "attach":
        await pilot.press("s")
        return
    if kinds == {"camo"}:  # only 迷彩 is left: the card it plays, c, and the colour it names
        await select(pilot, app, legal[0]["card"])
        await pilot.press("c")
        await pilot.pause(0.02)
        if isinstance(app.screen, ColorPicker):
            await pilot.press(legal[0]["color"][0])
        return
    cards = [a for a in legal if a["kind"] in ("play", "discard", "keep")]
    if phase in ("discard", "keep", "grenade", "c4", "argue") and cards:
        await use_card(pilot, app, cards[0])
        return
    if phase in ("grenade", "c4"):
        await pilot.press("e")
        return
    if phase == "argue":
        await pilot.press("f")
        return
    if cards and not obs["turn"]["played"]:
        await use_card(pilot, app, cards[0])
        return
    await pilot.press("d" if "draw" in kinds else "p")


# -- words -----------------------------------------------------------------------------------
def test_every_event_kind_the_engine_emits_has_words_of_its_own() -> None:
    seen: dict[str, core.Event] = {}
    for seed in range(24):
        n = 2 + seed % 6
        g = core.new_game("extended", n, seed=seed)
        bots = [make_bot("normal" if seed % 2 else "easy", seed=f"{seed}:{p}") for p in range(n)]
        for _ in range(2500):
            if g.over:
                break
            for p in g.to_act():
                a = bots[p].choose(g.observation(p))
                if a is not None:
                    for e in g.apply(p, a):
                        seen.setdefault(e.kind, e)
                    break
            else:
                break
    names = [f"P{i}" for i in range(10)]
    assert {"effect", "accept", "aim", "handover", "explode", "stack", "win", "duel_over"} <= set(seen)
    for kind, e in seen.items():
        who = names[e.player] if e.player is not None else ""
        text = describe(e, names, "extended")
        assert text != f"{kind} {who}".strip() + ".", kind  # not the generic fallback
        assert "≤" not in text and "≥" not in text and "∞" not in text  # no ambiguous-width characters


def test_log_words_name_cards_in_chinese_and_english() -> None:
    from core.variants.extended.words import card_words

    red_clip = core.Card(1, "red", "CLIP")
    assert card_words(red_clip) == "red 夹子 Clip"
    assert card_words(core.Card(2, None, "WGREN")) == "手榴弹 Grenade"
    assert card_words(core.Card(3, "blue", "T4")) == "blue 转移(0-4) Transfer"
    assert card_words(core.Card(4, "green", "7")) == "green 7"
    e = core.Event("aim", player=1, target=0, reason="clip")
    from uno_tui.narration import log_line

    assert log_line(e, ["Sam", "Ada"], 0, "extended") == "Ada aims 夹子 Clip at you; you may answer first."


def test_chips_are_the_same_width_in_cells_for_every_card() -> None:
    palette = {s: __import__("rich.style", fromlist=["Style"]).Style(bgcolor="red", color="white")
               for s in ("red", "yellow", "green", "blue", "wild", "rim")}
    for card in core.deck("extended"):
        d = card.to_dict()
        assert cell_len(label(d)) <= CHIP_WIDTH - 2, d
        for row in ext_chip(d, palette, playable=True, selected=False):
            assert row.cell_len == CHIP_WIDTH, (d, row.plain)


# -- a whole round by keys -------------------------------------------------------------------------
async def test_a_whole_round_against_bots_by_key_presses() -> None:
    app = ext_app(players=2, seed=7, hand_size=5)
    async with app.run_test(size=(100, 32)) as pilot:
        # The first player (you, after the dealer) chooses the direction in a picker that opens by itself.
        await wait_for(pilot, app, TargetPicker)
        assert "who plays after you" in text_of(app.screen.query_one("#target-title"))
        await pilot.press("enter")
        obs = await settle(pilot, app)
        table = table_of(app)
        assert "You choose the direction" in log_text(app)
        assert "/15" in text_of(table.query_one(ExtPlayersView))  # 5 cards each: the hand cap is 15
        assert "last" in text_of(table.query_one(ExtTableView))
        # The move list names every legal move in words; esc closes it.
        await pilot.press("m")
        await wait_for(pilot, app, ActionMenu)
        rows = [text_of(r) for r in app.screen.query(".move")]
        assert len(rows) == len(obs["legal"]) and any("draw a card" in r for r in rows)
        await pilot.press("escape")
        phases = set()
        for _ in range(800):
            obs = await settle(pilot, app)
            if obs["over"]:
                break
            phases.add(obs["phase"])
            await take_move(pilot, app, obs)
        else:
            raise AssertionError("the round did not end")
        await wait_for(pilot, app, RoundOverScreen)
        assert "went out first" in text_of(app.screen.query_one("#round-headline"))
        game = app.session.game
        assert game.over and len(game.round_winners) == 1 and sum(game.scores) == 1
        assert "main" in phases


# -- duel and chain prompts answered by keys ---------------------------------------------------------
async def test_a_colour_duel_is_answered_by_keys() -> None:
    # You duel Ada with the colour duel: picks alternate (you first) in a picker that opens by itself;
    # the red 9 turned decides. You picked red and win: discard two cards of your choice.
    setup = {"hands": [["RDUELC", "R1", "B2", "G3", "Y4"], ["G7", "G8", "B6"], ["Y1", "Y2", "B7"]],
             "discard": ["R5"], "current": 0, "draw": ["R9"]}
    app = ext_app(setup, players=3)
    async with app.run_test(size=(100, 32)) as pilot:
        obs = await settle(pilot, app)
        await select(pilot, app, card_id(obs, "RDUELC"))
        await pilot.press("enter")
        await wait_for(pilot, app, TargetPicker)
        assert "duel whom" in text_of(app.screen.query_one("#target-title"))
        await pilot.press("1")  # Ada
        obs = await settle(pilot, app)  # Ada accepts the duel
        assert obs["phase"] == "duel" and obs["actor"] == 0
        await wait_for(pilot, app, ActionMenu)
        assert "Colour duel with Ada" in text_of(app.screen.query_one("#moves-title"))
        assert "r y g b k" in text_of(table_of(app).query_one(StatusLine))
        await pilot.press("r")
        obs = await settle(pilot, app)  # Ada picks
        await wait_for(pilot, app, ActionMenu)
        picked = obs["interaction"]["picks"]
        mine = next(c for c in ("green", "blue", "yellow", "black") if c not in picked)
        await pilot.press({"green": "g", "blue": "b", "yellow": "y", "black": "k"}[mine])
        obs = await settle(pilot, app)
        log = log_text(app)
        assert "You pick red for the colour duel." in log
        assert "You turn up red 9." in log and "You win the duel; Ada draws four." in log
        # The winner sheds two cards: enter discards the chosen one, twice.
        assert obs["phase"] == "discard" and "Discard 2 more" in text_of(table_of(app).query_one(ExtPromptView))
        for _ in range(2):
            obs = app.session.observation()
            await select(pilot, app, next(a["card"] for a in obs["legal"] if a["kind"] == "discard"))
            await pilot.press("enter")
            await pilot.pause(0.01)
        assert log_text(app).count("You discard") == 2


async def test_a_grenade_comes_back_and_is_answered_by_keys() -> None:
    # One on one: you throw the grenade naming blue; Ada answers blue naming a colour; it is back on
    # you, and enter on a card of that colour (then a colour) throws it on again. Then the C4: you
    # let it explode with e.
    setup = {"hands": [["WGREN", "R1", "Y1", "G1", "B1", "WC4", "R9"], ["B2", "B3", "R4", "Y5", "G6"]],
             "discard": ["R5"], "current": 0}
    app = ext_app(setup, players=2)
    async with app.run_test(size=(100, 32)) as pilot:
        obs = await settle(pilot, app)
        await select(pilot, app, card_id(obs, "WGREN"))
        await pilot.press("enter")
        await wait_for(pilot, app, ColorPicker)
        await pilot.press("b")
        obs = await settle(pilot, app)
        assert obs["phase"] == "grenade" and obs["actor"] == 0
        want = obs["interaction"]["color"]
        prompt = text_of(table_of(app).query_one(ExtPromptView))
        assert "Grenade is on you" in prompt and want in prompt
        assert "e explode" not in key_hints(obs)  # you hold the colour: no blowing up
        card = next(c for c in obs["hand"] if c["color"] == want)
        await select(pilot, app, card["id"])
        await pilot.press("enter")
        await wait_for(pilot, app, ColorPicker)
        assert "next colour" in text_of(app.screen.query_one("#picker-title"))
        await pilot.press("g")
        await pilot.pause(0.02)
        log = log_text(app)
        assert "You play 手榴弹 Grenade." in log and "You throw the 手榴弹 Grenade to Ada: play blue" in log
        assert f"You answer the 手榴弹 Grenade with {card['color']} 1." in log
        assert "The 手榴弹 Grenade goes to Ada: green next." in log


async def test_c4_is_passed_on_and_exploded_by_keys() -> None:
    setup = {"hands": [["WC4", "R2", "B3", "G4"], ["Y2", "Y3", "Y7"], ["G7", "G8", "Y6"]],
             "discard": ["R5"], "current": 0}
    app = ext_app(setup, players=3)
    async with app.run_test(size=(100, 32)) as pilot:
        obs = await settle(pilot, app)
        await select(pilot, app, card_id(obs, "WC4"))
        await pilot.press("enter")
        obs = await settle(pilot, app)
        assert obs["phase"] == "c4" and obs["actor"] == 0
        assert "e explode" in text_of(table_of(app).query_one(StatusLine))
        assert "C4 ticking" in text_of(table_of(app).query_one(ExtTableView))
        await select(pilot, app, card_id(obs, "B3"))  # three seats: round the table and back to you
        await pilot.press("enter")
        obs = await settle(pilot, app)
        assert obs["phase"] == "c4" and obs["actor"] == 0
        await pilot.press("e")
        await pilot.pause(0.02)
        log = log_text(app)
        assert "The C4 stays with you." in log or "The C4 moves to you." in log
        assert "The C4 blows up on you: reset!" in log


async def test_a_draw_effect_on_you_shows_its_total_and_is_accepted_with_a() -> None:
    # Ben plays +2 on you: the seat, the table and the prompt show the pending total.
    setup = {"hands": [["R1", "Y2", "B3"], ["G4", "G5"], ["R+2", "B7", "B8"]], "discard": ["R5"], "current": 2}
    app = ext_app(setup, players=3)
    async with app.run_test(size=(100, 32)) as pilot:
        obs = await settle(pilot, app)
        assert obs["phase"] == "judge" and obs["pending"]["total"] == 2
        table = table_of(app)
        assert "+2" in text_of(table.query_one(ExtPlayersView))
        assert "+2 (largest +2)" in text_of(table.query_one(ExtTableView))
        assert "Judgement: +2 (largest +2) from Ben is on you." in text_of(table.query_one(ExtPromptView))
        await pilot.press("a")
        await pilot.pause(0.02)
        assert "You accept the +2." in log_text(app)
        assert len(app.session.observation()["hand"]) == 5


# -- the help page -----------------------------------------------------------------------------------
async def test_the_help_page_lists_every_card_with_chinese_and_english_names() -> None:
    app = ext_app({"hands": [["R1"], ["G4"], ["B8"]], "discard": ["R5"], "current": 0})
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot, app)
        await pilot.press("question_mark")
        await wait_for(pilot, app, HelpScreen)
        cards = text_of(app.screen.query_one("#help-cards"))
        from uno_tui.faces.extended.cards import zh

        for face in TABLE:
            assert zh(face.rank) in cards and face.en.split(" ≤")[0].split(" ≥")[0] in cards, face.rank
        assert "数字牌" in cards
        await pilot.press("escape")
        await wait_for(pilot, app, ExtendedTableScreen)


# -- the command line, the new-game screen, 80x24 ---------------------------------------------------
def test_the_command_line_offers_extended() -> None:
    parser = cli.build_parser()
    args = parser.parse_args(["play", "--variant", "extended", "--rules", "hand_size=5"])
    assert args.variant == "extended" and args.rules == {"hand_size": 5}
    assert cli.main(["simulate", "--variant", "extended", "--players", "3", "--games", "2"]) == 0


async def test_the_new_game_screen_deals_an_extended_table_with_a_hand_size() -> None:
    app = UnoApp(pacing=(0.0, 0.0), config=TableConfig(seed=3, variant="extended"))
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, app, NewGameScreen)
        screen = app.screen
        keys = [line.key for line in screen.lines()]
        assert "hand_size" in keys and "target_score" in keys
        for _ in range(keys.index("hand_size")):
            await pilot.press("down")
        await pilot.press("right")  # 5 cards
        await pilot.press("enter")
        await wait_for(pilot, app, TargetPicker)  # over the extended table: you choose the direction
        assert isinstance(app.screen_stack[-2], ExtendedTableScreen)
        assert app.session.game.hand_size == 5 and app.session.config.options["hand_size"] == 5


async def test_80_by_24_fits_with_a_compact_hand() -> None:
    app = ext_app(players=4, seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app, TargetPicker)
        await pilot.press("enter")
        await settle(pilot, app)
        table = table_of(app)
        hand = table.query_one(ExtHandView)
        assert hand.compact
        for widget in (table.query_one(ExtPlayersView), table.query_one(ExtTableView), hand,
                       table.query_one(StatusLine), table.query_one(GameLog)):
            r = widget.region
            assert r.height > 0 and r.right <= 80 and r.bottom <= 24, (widget, r)
        assert table.query_one(GameLog).region.height >= 3


def test_table_screen_for_picks_the_extended_table() -> None:
    session = LocalSession(TableConfig(variant="extended", players=3, seed=1))
    assert isinstance(table_screen_for(session), ExtendedTableScreen)
    obs = session.observation()
    assert situation(obs, session.names)
    assert all(action_words(a, obs, session.names) for a in obs["legal"])


# -- networked play: a headless extended host and bot clients over loopback ----------------------
async def test_an_extended_host_plays_a_round_with_bot_clients_over_loopback() -> None:
    from net import BotClient
    from net.record import replay
    from net.testing import conserved, start_host

    host = await start_host(seats=3, bots=1, rounds=1, seed=11, variant="extended")
    try:
        bots = [BotClient(("127.0.0.1", host.port), f"B{i}", seed=i) for i in range(2)]
        assert await asyncio.wait_for(asyncio.gather(*(b.run() for b in bots)), GAME_BOUND) == [0, 0]
        assert host.phase == "finished" and host.game is not None and host.game.over
        assert host.game.variant == "extended" and conserved(host.game)
        assert all(b.moves > 0 for b in bots)
        assert replay(host.record.to_dict()).scores == host.game.scores
    finally:
        await host.close()


async def test_a_player_going_out_mid_round_is_no_new_deal_in_the_log() -> None:
    """In the extended rules a player who goes out scores while the others play on. The table took
    the scores' change for another deal and logged a heading mid-round ("New match · Round 1", seen
    at a sealed table); it must not."""
    app = ext_app(players=3, seed=3, hand_size=5)
    async with app.run_test(size=(100, 32)) as pilot:
        scored_mid_round = False
        for _ in range(1500):
            obs = await settle(pilot, app)
            if obs["over"]:
                break
            scored_mid_round = scored_mid_round or sum(obs["scores"]) > 0
            await take_move(pilot, app, obs)
        else:
            raise AssertionError("the round did not end")
        assert scored_mid_round  # the case in question: someone went out before the round's end
        log = log_text(app)
        assert "New match" not in log and log.count("Round 1") == 1, log
