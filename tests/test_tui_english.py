"""The extended rules in English: card names on the chips, in the gloss and in the log, chosen by a key."""

from __future__ import annotations

import re

from tui_support import table_of, text_of
from uno_tui.app import UnoApp
from uno_tui.screens import NewGameScreen
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
