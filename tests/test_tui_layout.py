"""The table at the default 80x24 and at 120x40: the log has room, the whole log opens, nothing is cut."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from rich.text import Text
from textual.widgets import Static
from textual.widgets._toast import Toast

from tui_support import screen_text, settle_when, table_of, text_of, until
from uno_tui.app import UnoApp
from uno_tui.screens import TableScreen
from uno_tui.screens.confirm import ConfirmScreen
from uno_tui.screens.log_screen import LogScreen
from uno_tui.session import LocalSession, TableConfig
from uno_tui.faces.classic.players import PlayersView
from uno_tui.widgets import GameLog
from uno_tui.widgets.log import WrappingLog

VARIANTS = ("classic", "nomercy", "wildrawz", "diez", "extended")
WAIT = (600.0, 600.0)
"""Bots that wait: the table stays at its first position."""


def log_rows(table: TableScreen) -> int:
    """How many lines of text the log shows at once, its rims whole inside the screen above the status line."""
    log = table.query_one(GameLog)
    status = table.query_one("#status")
    assert log.region.bottom <= status.region.y, "the log runs under the status line"
    return log.scrollable_content_region.height


@pytest.mark.parametrize("variant", VARIANTS)
async def test_every_table_at_80x24_has_room_in_its_log_its_whole_log_and_quit_in_view(variant: str) -> None:
    from textual.widgets import Footer

    from uno_tui.netplay.table import NET_BINDINGS

    app = UnoApp(LocalSession(TableConfig(variant=variant, seed=3)), pacing=WAIT)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = table_of(app)
        assert table.has_class("-short")
        # Bots make five moves or more between two of yours: each is a line, and a round heading.
        assert log_rows(table) >= 7, log_rows(table)
        # The footer's keys, with the app's ^q quit and (at a network table) t chat, fit one line.
        shown = [b for b in table.BINDINGS if b.show]
        keys = " ".join(f"{b.key_display or b.key.split(',')[0]} {b.description}" for b in shown)
        net = " ".join(f"{b.key_display} {b.description}" for b in NET_BINDINGS if b.show)
        assert len(f"{keys} {net} ^q quit") <= 80, variant
        quit_key = next(k for k in table.query_one(Footer).query("FooterKey") if k.description == "quit")
        # (On a busy machine the footer may not be laid out at the first pause: wait for it.)
        await until(pilot, lambda: quit_key.region.width > 0, what="the footer laid out")
        assert quit_key.region.right <= 80, variant
        # L opens the whole log from every table.
        while not isinstance(app.screen, TableScreen):  # the extended rules first ask who plays next
            await pilot.press("escape")
        await pilot.press("L")
        await until(pilot, lambda: isinstance(app.screen, LogScreen), what="the whole log")
        assert [t.plain for t in app.screen.query_one("#log-lines", WrappingLog).entries] == \
            [t.plain for t in table.query_one(GameLog).entries]
        await pilot.press("escape")
        assert app.screen is table


async def test_a_long_no_mercy_hand_leaves_the_log_its_room() -> None:
    hand = ["R1", "R2", "R3", "R4", "Y1", "Y2", "Y3", "Y4", "G1", "G2", "G3", "B1", "B2", "B3"]
    setup = {"hands": [hand, ["R5", "B5"], ["G5", "Y5"], ["R6", "B6"]], "discard": ["R9"], "current": 0}
    app = UnoApp(LocalSession(TableConfig(variant="nomercy", seed=3, setup=setup)), pacing=WAIT)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = table_of(app)
        assert len(table.query_one("#hand").cards) == 14
        assert log_rows(table) >= 5, log_rows(table)


async def test_typing_in_the_whole_log_searches_it() -> None:
    app = UnoApp(LocalSession(TableConfig(seed=3)), pacing=WAIT)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = app.screen
        log = table.query_one(GameLog)
        for i in range(40):
            log.add_heading(f"line {i}")
        await pilot.press("L")
        await until(pilot, lambda: isinstance(app.screen, LogScreen), what="the whole log")
        screen = app.screen
        shown = screen.query_one("#log-lines", WrappingLog)
        assert len(shown.entries) == len(log.entries) >= 41
        await pilot.press(*"line 3")
        await pilot.pause()
        found = [t.plain for t in shown.entries]
        assert found == [f"── line {i} ──" for i in (3, *range(30, 40))]
        assert "11 of" in text_of(screen.query_one("#log-count"))
        await pilot.press("escape")
        assert app.screen is table


async def test_resizing_keeps_the_log_at_its_latest_line_and_wraps_it_again() -> None:
    app = UnoApp(LocalSession(TableConfig(seed=3)), pacing=WAIT)
    long = "a long line that the side log must wrap rather than cut: " + " ".join(f"w{i}" for i in range(30))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        log = table_of(app).query_one(GameLog)
        for i in range(30):
            log.add_heading(f"line {i}")
        log.add(log.entries[-1].__class__(long))
        await pilot.pause()
        assert log.scroll_y == log.max_scroll_y > 0
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        await pilot.pause()
        assert table_of(app).has_class("-wide")
        assert log.scroll_y == log.max_scroll_y > 0  # still at the latest line
        width = log.scrollable_content_region.width
        assert width < 60 and all(strip.cell_length <= width for strip in log.lines)
        text = " ".join(strip.text.strip() for strip in log.lines)
        assert "w28 w29" in text  # wrapped, not cut


async def test_the_players_title_is_never_cut_short_at_120x40() -> None:
    app = UnoApp(LocalSession(TableConfig(seed=3, setup={"hands": [["R1", "R2"], ["B1"], ["G1"], ["Y1"]],
                                                         "discard": ["R5"], "current": 0, "direction": -1})),
                 pacing=WAIT)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        players = table_of(app).query_one(PlayersView)
        title = str(players.border_title)
        assert not title.endswith("…") and len(title) <= players.size.width - 6
        assert title.startswith("Players ↑ ↺")


async def test_a_notification_hides_neither_the_hint_line_nor_the_hand() -> None:
    app = UnoApp(LocalSession(TableConfig(seed=3)), pacing=WAIT)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle_when(pilot, app, lambda o: o["current"] == o["me"])
        table = table_of(app)
        await pilot.press("p")  # nothing to pass: the table says why
        toast = await until(pilot, lambda: list(app.screen.query(Toast)), what="the notification")
        region = toast[0].region
        for needed in ("#status", "#hand-panel"):
            assert not region.overlaps(table.query_one(needed).region), needed
        for cards in ("#pile", "#players"):  # their rims' titles may hide a moment, never their rows
            assert not region.overlaps(table.query_one(cards).content_region), cards


class _Dialog(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("")


async def test_the_quit_dialog_wraps_its_text_at_80x24() -> None:
    detail = ("You are the host: leaving ends the game for the 2 other people connected to it. "
              "It is saved: `uno-tui host --resume` deals it on later.")
    app = _Dialog()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(ConfirmScreen("Close the table for everyone?", detail, yes="close", no="stay"))
        await pilot.pause()
        box = app.screen.query_one("#confirm")
        shown = app.screen.query_one("#confirm-detail")
        assert box.region.right <= 80 and shown.region.right <= box.region.right
        assert shown.region.height >= 2  # wrapped onto a second line
        assert " ".join(text_of(shown).split()) == detail




@pytest.mark.parametrize("size", [(10, 5), (30, 8), (59, 17)])
async def test_a_window_too_small_says_so_in_words_that_fit_it(size: tuple[int, int]) -> None:
    from uno_tui.serve.control import ControlClient
    from uno_tui.serve.menu import MenuApp, Visit

    width, height = size
    table_app = UnoApp(LocalSession(TableConfig(seed=1)), pacing=(600.0, 600.0))
    menu_app = MenuApp(Visit(name="ann", control=ControlClient("/dev/null", "k")))
    for app, notice in ((table_app, "#too-small"), (menu_app, "#window-too-small")):
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.resize_terminal(width, height)
            await until(pilot, lambda: app.screen.query(notice), what="the notice")
            await pilot.pause()
            words = " ".join(screen_text(app).split())
            assert f"{width}×{height}" in words and "60×18" in words, words
            assert "^q quits" in words or "^q leaves" in words or "ctrl+q" in words, words  # the way out, whole


async def test_a_log_made_shorter_at_its_latest_line_stays_there_and_one_read_higher_up_is_left_alone() -> None:
    """A hand that grows a row takes it from the log: its latest lines went out of sight below
    (seen at an extended table: a card drawn, and the log stopped at the move before)."""

    class Page(App[None]):
        def compose(self) -> ComposeResult:
            yield WrappingLog(id="log")

    app = Page()
    async with app.run_test(size=(60, 20)) as pilot:
        log = app.query_one(WrappingLog)
        for i in range(60):
            log.add(Text(f"line {i}"))
        await pilot.pause()
        assert log.scroll_y == log.max_scroll_y > 0
        log.styles.height = 8  # the hand above grew
        await until(pilot, lambda: log.scrollable_content_region.height < 15, what="the log made shorter")
        await until(pilot, lambda: log.scroll_y == log.max_scroll_y, what="the latest line in view")
        log.scroll_to(y=5, animate=False)  # the player reads higher up
        await pilot.pause()
        before = log.scrollable_content_region.height
        log.styles.height = 6
        await until(pilot, lambda: log.scrollable_content_region.height < before, what="shorter again")
        await pilot.pause()
        assert log.scroll_y == 5
