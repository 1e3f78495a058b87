"""The extended rules in English: card names on the chips, in the gloss and in the log, chosen by a key."""

from __future__ import annotations

import random
import re

import pytest

from core import Action
from tui_support import notifications, screen_text, table_of, text_of, wait_for
from uno_tui.app import UnoApp
from uno_tui.screens import NewGameScreen, RoundOverScreen
from uno_tui.session import LocalSession, TableConfig
from uno_tui.widgets import GameLog
from uno_tui.faces.extended.cards import english, label

CJK = re.compile(r"[\u2e80-\u9fff]")
SETUP = {"hands": [["RCLIP", "GREGRET", "R1", "WGREN"], ["YCURSE", "R2"], ["Y9", "R4"], ["Y+2", "G1"]],
         "discard": ["Y3"], "current": 1}


async def _shown(english_cards: bool) -> tuple[str, str]:
    app = UnoApp(LocalSession(TableConfig(variant="extended", seed=2, setup=SETUP, english=english_cards)),
                 pacing=(600.0, 600.0))
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        table = table_of(app)
        game = app.session.game
        curse = next(c.id for c in game.hand(1) if str(c) == "YCURSE")
        from core import Action

        app.session.move_for(1, Action("play", curse, None, 2))
        await pilot.pause()
        hand = text_of(table.query_one("#hand"))
        log = "\n".join(t.plain for t in table.query_one(GameLog).entries)
    assert not english()  # the table puts the Chinese labels back as it closes
    return hand, log


async def test_english_card_names_on_the_chips_and_in_the_log() -> None:
    hand, log = await _shown(True)
    assert "RClip" in hand and "Grenade" in hand and not CJK.search(hand)
    assert "Curse" in log and not CJK.search(log), log


async def test_chinese_card_names_by_default() -> None:
    hand, log = await _shown(False)
    assert "R夹子" in hand and "紧箍咒" in log


def test_the_labels_fit_their_chips() -> None:
    from rich.cells import cell_len

    from uno_tui.faces.extended import cards as extended_cards

    extended_cards.use_english(True)
    try:
        for rank in extended_cards.LABELS:
            assert cell_len(label({"color": None if rank.startswith("W") else "red", "rank": rank})) <= \
                extended_cards.LABEL_CELLS, rank
    finally:
        extended_cards.use_english(False)


async def test_e_on_the_new_game_screen_chooses_english_names() -> None:
    app = UnoApp(pacing=(600.0, 600.0), config=TableConfig(seed=3, variant="extended"))
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        assert "English" not in text_of(app.screen.query_one("#form"))
        await pilot.press("e")
        assert "English" in text_of(app.screen.query_one("#form"))
        await pilot.press("enter")
        await pilot.pause()
        assert app.config.english and app.english_cards
        assert english()


async def _play_in_english(seed: int, players: int, steps: int) -> dict[str, str]:
    """Random legal moves for everyone in an extended round shown in English, reading everything the
    table draws on the way: the panels after every move, the whole screen (pickers and notices on top)
    now and then, the moves menu, the log, the whole log, the help and the round's summary."""
    rng = random.Random(seed)
    app = UnoApp(LocalSession(TableConfig(variant="extended", seed=seed, players=players, english=True)),
                 pacing=(600.0, 600.0))
    seen: dict[str, str] = {}

    def look(where: str, text: str) -> None:
        for line in text.splitlines():
            if CJK.search(line):
                seen.setdefault(where, line.strip())

    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        session = app.session
        table = table_of(app)
        for step in range(steps):
            obs = session.observation()
            if obs["over"]:
                break
            if obs["legal"]:
                if not isinstance(app.screen, type(table)):  # a picker the table opened by itself
                    look(f"picker {type(app.screen).__name__}", screen_text(app))
                    await pilot.press("escape")
                if step % 13 == 0:
                    await pilot.press("m")  # every move in words
                    await pilot.pause()
                    look("moves menu", screen_text(app))
                    await pilot.press("escape")
                if step % 17 == 0:
                    await pilot.press("c")  # 迷彩 out of place: the table explains in a notice
                session.send(Action.from_dict(rng.choice(obs["legal"])))
            else:
                assert session.bot_step() is not None
            await pilot.pause(0)
            for widget in table.query("#matchbar, #players, #ext-table, #prompt, #hand, #status"):
                look(f"#{widget.id}", text_of(widget))
            look("hand title", str(table.query_one("#hand-panel").border_title))
            look("table title", str(table.query_one("#ext-table").border_title))
            look("notices", "\n".join(notifications(app)))
            if step % 30 == 0:
                await pilot.pause()
                look("screen", screen_text(app))
        over = session.observation()["over"]
        if over:
            await wait_for(pilot, app, RoundOverScreen)
            look("round summary", screen_text(app))
            await pilot.press("escape")
        look("log", "\n".join(t.plain for t in table.query_one(GameLog).entries))
        await pilot.press("L")
        await pilot.pause()
        look("whole log", screen_text(app))
        await pilot.press("escape", "question_mark")
        await pilot.pause()
        help_screen = app.screen
        look("help", "\n".join(text_of(w) for w in help_screen.query("Static")))
    assert not english()
    seen["over"] = "yes" if over else ""
    return seen


async def test_a_random_extended_round_in_english_shows_no_chinese() -> None:
    # Three players, a round of about fifty moves through eight phases (judgement, a duel, a transfer's
    # attaching, 天选之子's keep, ...); the soak runs below play longer ones.
    seen = await _play_in_english(7, 3, steps=150)
    assert seen.pop("over") == "yes", "the round did not end: its summary went unread"
    assert not seen, f"Chinese on the table in English: {seen}"


@pytest.mark.soak
@pytest.mark.parametrize("seed, players", [(7, 5), (1, 4), (3, 6), (11, 2), (13, 3)])
async def test_more_random_extended_rounds_in_english_show_no_chinese(seed: int, players: int) -> None:
    seen = await _play_in_english(seed, players, steps=600)
    seen.pop("over")
    assert not seen, f"Chinese on the table in English (seed {seed}, {players} players): {seen}"


def test_english_names_keep_every_word_but_the_chinese() -> None:
    from uno_tui.faces.extended.english import english_names

    assert english_names("play red 夹子 Clip at Ben") == "play red Clip at Ben"
    assert english_names("a 转移(0-4) transfer with 2 cards") == "a Transfer ≤4 with 2 cards"
    assert english_names("red 转移(5-9) Transfer") == "red Transfer ≥5"
    assert english_names("手榴弹 chain") == "Grenade chain"  # not a translation that follows: kept
    assert english_names("Judgement: 紧箍咒 curse from Ada") == "Judgement: Headband Curse from Ada"
    assert english_names("天选之子: keep one number card") == "The Chosen One: keep one number card"
    assert english_names("c 迷彩 · d draw") == "c Camouflage · d draw"
