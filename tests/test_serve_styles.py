"""The served apps parse their CSS once per process (``uno_tui.serve.styles``), theme by theme."""

from __future__ import annotations

import os

from uno_tui.serve import styles
from uno_tui.serve.control import ControlClient
from uno_tui.serve.menu import MenuApp, Visit


def menu(theme: str | None = None) -> MenuApp:
    app = MenuApp(Visit(name="ann", control=ControlClient(os.devnull, "k"), info={"fairness": "notice"}))
    if theme is not None:
        app.theme = theme
    return app


async def drawn(app: MenuApp) -> tuple[list[object], str]:
    """The app's parsed rules, and the menu box's background as drawn."""
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        box = app.screen.query_one("#menu-box")
        return list(app.stylesheet.rules), str(box.styles.background)


async def test_a_second_app_reuses_the_first_ones_rules_and_a_theme_gets_its_own() -> None:
    first, dark = await drawn(menu())
    cached = len(styles._PARSED)
    assert cached, "the first app's rules are kept"
    second, again = await drawn(menu())
    assert len(styles._PARSED) == cached, "the second app parsed nothing"
    assert len(second) == len(first) and all(a is b for a, b in zip(first, second))
    assert again == dark
    light_rules, light = await drawn(menu("textual-light"))
    assert len(styles._PARSED) > cached, "another theme's variables are parsed into rules of their own"
    assert light != dark
    assert not any(rule is old for rule in light_rules for old in first)


async def test_the_menus_first_screen_is_styled_in_full_without_textuals_second_pass() -> None:
    # The menu skips the restyle Textual gives a screen as it first comes up (its nodes were styled
    # as they mounted): styling every node again afterwards changes nothing on screen.
    app = menu()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        before = app.export_screenshot()
        app.screen.update_node_styles(animate=False)
        app.screen.refresh(layout=True)
        await pilot.pause()
        assert app.export_screenshot() == before
