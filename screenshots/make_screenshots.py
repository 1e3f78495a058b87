"""Write the README screenshots from seeded games, driving the app by key presses.

    python screenshots/make_screenshots.py [--size 80x24] [--out screenshots]

Every shot is taken at the size a new user's terminal has (80x24 by default), and table-wide.svg
once more at 120x40, to show what a larger terminal gains. Writes table.svg (a few moves into a
game), log.svg (the whole log, searched), color-picker.svg, help.svg,
round-over.svg, nomercy.svg (a stack of draw cards coming at you),
nomercy-seven.svg (the 7's target picker), wildrawz.svg (mid-trick),
new-game.svg, extended.svg (UNO 扩展规则 at your judgement) and diez.svg (piles, tokens, a stack). Bots run in fast mode; the human's moves are chosen here from
the observation and made with ``pilot.press`` like a person would.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from textual.app import App

from uno_tui.app import UnoApp
from uno_tui.screens import ColorPicker, NewGameScreen, RoundOverScreen, TableScreen, TargetPicker
from uno_tui.session import LocalSession, TableConfig
from uno_tui.widgets import HandView

HERE = Path(__file__).parent
WIDE = (120, 40)
"""The larger terminal of table-wide.svg."""


CJK_FONTS = '"Noto Sans Mono CJK SC", "Noto Sans CJK SC", "Sarasa Mono SC", "Source Han Mono SC", ' \
            '"WenQuanYi Zen Hei Mono", "Microsoft YaHei", "PingFang SC"'
"""Fonts that have Chinese, named after Fira Code (which has none), so UNO 扩展规则's cards render."""


def save(app: App, name: str, out: Path) -> None:
    """Save the screen as SVG. Text runs start with a no-break space where a style changes;
    ``xml:space="preserve"`` keeps librsvg (rsvg-convert) from dropping it ("yellowSkip"). The font
    list gains CJK fallbacks, so a viewer without Fira Code's missing glyphs still draws Chinese."""
    app.save_screenshot(name, str(out))
    path = out / name
    svg = path.read_text(encoding="utf-8")
    if 'xml:space="preserve"' not in svg[:300]:
        svg = svg.replace("<svg ", '<svg xml:space="preserve" ', 1)
    svg = svg.replace("font-family: Fira Code, monospace;", f'font-family: "Fira Code", {CJK_FONTS}, monospace;')
    path.write_text(svg, encoding="utf-8")


def make_app(seed: int, **config: Any) -> UnoApp:
    return UnoApp(LocalSession(TableConfig(seed=seed, **config)), pacing=(0.0, 0.0))


async def settle(pilot: Pilot, app: UnoApp, timeout: float = 10.0) -> dict[str, Any]:
    """Wait until the human must act (or the round is over); return the observation."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while loop.time() < end:
        await pilot.pause(0.01)
        obs = app.session.observation()
        if obs["over"] or (obs["current"] == obs["me"] and isinstance(app.screen, TableScreen)):
            return obs
    raise TimeoutError("the bots did not hand the turn back")


async def select_card(pilot: Pilot, app: UnoApp, card_id: int) -> None:
    hand = app.screen.query_one("#hand", HandView)
    ids = [c["id"] for c in hand.cards]
    steps = (ids.index(card_id) - hand.selected) % len(ids)
    for _ in range(steps):
        await pilot.press("right")


async def take_turn(pilot: Pilot, app: UnoApp, *, wilds: bool = True) -> None:
    """One sensible move for the human, by keys."""
    obs = app.session.observation()
    legal = obs["legal"]
    kinds = {a["kind"] for a in legal}
    if "catch" in kinds:
        await pilot.press("x")
        return
    if obs["phase"] == "challenge":
        await pilot.press("d")
        return
    hand = {c["id"]: c for c in obs["hand"]}
    plays = [a for a in legal if a["kind"] == "play"]
    plain = [a for a in plays if a.get("color") is None]
    choice = (plain or (plays if wilds else []) or [None])[0]
    if choice is None:
        await pilot.press("d" if "draw" in kinds else "p")
        return
    if "uno" in kinds:
        await pilot.press("u")
    await select_card(pilot, app, choice["card"])
    await pilot.press("enter")
    if hand[choice["card"]]["color"] is None:
        await pilot.pause()
        await pilot.press("r")


async def play_turns(pilot: Pilot, app: UnoApp, turns: int) -> None:
    """``turns`` of the human's moves (and the bots' between them), then wait for the human's turn."""
    for _ in range(turns):
        await settle(pilot, app)
        await take_turn(pilot, app, wilds=False)
    await settle(pilot, app)


async def table(size: tuple[int, int], out: Path, name: str = "table.svg") -> None:
    app = make_app(seed=3)
    async with app.run_test(size=size) as pilot:
        await play_turns(pilot, app, 4)
        await pilot.press("right")
        await pilot.pause(0.1)
        save(app, name, out)


async def table_wide(size: tuple[int, int], out: Path) -> None:
    """The same moment as table.svg in a larger terminal (120x40): the log in a column of its own."""
    await table(WIDE, out, "table-wide.svg")


async def log_screen(size: tuple[int, int], out: Path) -> None:
    """The whole log (L), searched for a name."""
    app = make_app(seed=3)
    async with app.run_test(size=size) as pilot:
        await play_turns(pilot, app, 6)
        await pilot.press("L")
        await pilot.pause(0.1)
        await pilot.press(*"ada")
        await pilot.pause(0.1)
        save(app, "log.svg", out)


async def color_picker(size: tuple[int, int], out: Path) -> None:
    # Seed 14 deals the human a Wild and a Wild Draw Four; play on until one may be played.
    app = make_app(seed=14)
    async with app.run_test(size=size) as pilot:
        for _ in range(40):
            obs = await settle(pilot, app)
            wild = next((c for c in obs["hand"] if c["color"] is None
                         and any(a.get("card") == c["id"] for a in obs["legal"])), None)
            if wild is not None:
                await select_card(pilot, app, wild["id"])
                await pilot.press("enter")
                await pilot.pause(0.1)
                assert isinstance(app.screen, ColorPicker)
                await pilot.press("right")
                await pilot.pause(0.1)
                save(app, "color-picker.svg", out)
                return
            await take_turn(pilot, app, wilds=False)
        raise RuntimeError("no wild card came up; pick another seed")


async def help_screen(size: tuple[int, int], out: Path) -> None:
    app = make_app(seed=3)
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        await pilot.press("question_mark")
        await pilot.pause(0.1)
        save(app, "help.svg", out)


async def round_over(size: tuple[int, int], out: Path) -> None:
    app = make_app(seed=11, options={"target_score": 200})
    async with app.run_test(size=size) as pilot:
        for _ in range(300):
            obs = await settle(pilot, app)
            if obs["over"]:
                break
            await take_turn(pilot, app)
        for _ in range(100):
            await pilot.pause(0.02)
            if isinstance(app.screen, RoundOverScreen):
                break
        await pilot.pause(0.1)
        save(app, "round-over.svg", out)


NOMERCY_SETUP = {
    # You swap your 7 with Cleo, whose only play is then your R+2: it stacks on you, and you hold
    # her No Mercy cards to stack back.
    "hands": [["R7", "R+2", "G9", "G8", "B4", "Y6"], ["R3", "B1", "B2", "B4"], ["R1", "B5", "B6", "B8"],
              ["Y+4", "G5", "G6", "Y2", "W+10", "W+6", "BSA", "RDA", "WCR"]],
    "discard": ["R5"], "current": 0,
    "draw": ["B3", "B7", "B9", "R2", "R4", "R6", "Y3", "WCR", "B7", "G1"],
}


async def nomercy(size: tuple[int, int], out: Path) -> None:
    """No Mercy: the 7's target picker, then a stack of draw cards coming at you."""
    app = UnoApp(LocalSession(TableConfig(variant="nomercy", seed=5, setup=NOMERCY_SETUP)), pacing=(0.0, 0.0))
    async with app.run_test(size=size) as pilot:
        obs = await settle(pilot, app)
        seven = next(c for c in obs["hand"] if c["rank"] == "7")
        await select_card(pilot, app, seven["id"])
        await pilot.press("enter")
        await pilot.pause(0.1)
        assert isinstance(app.screen, TargetPicker)
        await pilot.press("down")
        await pilot.pause(0.1)
        save(app, "nomercy-seven.svg", out)
        await pilot.press("escape")  # the 7 goes to Cleo after all
        await pilot.press("enter")
        await pilot.pause(0.1)
        await pilot.press("3")
        for _ in range(200):
            obs = await settle(pilot, app)
            if obs["phase"] == "stack":
                break
        else:
            raise RuntimeError("no stack came; check NOMERCY_SETUP")
        stackable = next(a for a in obs["legal"] if a["kind"] == "play")
        await select_card(pilot, app, stackable["card"])
        await pilot.pause(0.1)
        save(app, "nomercy.svg", out)


async def wildrawz(size: tuple[int, int], out: Path) -> None:
    """Wild Rawz in the middle of a trick (two cards down), after a leave earlier in the round."""
    app = UnoApp(LocalSession(TableConfig(variant="wildrawz", players=4, seed=4)), pacing=(0.0, 0.0))
    async with app.run_test(size=size) as pilot:
        left = False
        for _ in range(200):
            obs = await settle(pilot, app)
            kinds = {a["kind"] for a in obs["legal"]}
            if obs["phase"] == "draft":
                await pilot.press("right", "enter")
                continue
            if left and len(obs["trick"]) >= 2:
                await pilot.pause(0.1)
                save(app, "wildrawz.svg", out)
                return
            if "leave" in kinds and not left:
                await pilot.press("v")
                left = True
                continue
            play = next(a for a in obs["legal"] if a["kind"] == "play")
            await select_card(pilot, app, play["card"])
            await pilot.press("enter")
        raise RuntimeError("no mid-trick moment came up; pick another seed")


DIEZ_SETUP = {
    # Three discard piles, tokens all round, Ben's hand open (Reveal); Cleo's Draw 2 lands on you.
    "hands": [["RS", "G2", "WH3", "BLANK", "W+4", "YTK", "BN", "G6", "RX"], ["R1", "G8", "Y9", "B4", "W"],
              ["R7", "B8", "WH2", "GE"], ["R+2", "B8", "B9", "BS"]],
    "piles": [["R2", "R5"], ["G3", "G7"], ["Y4", "YCD"]], "current": 3,
    "tokens": [["ace"], ["hex", "mirror", "snare"], ["reveal"], ["magnet", "silence", "block"]],
}


async def diez(size: tuple[int, int], out: Path) -> None:
    """Diez: three piles, every player's tokens, an open hand and a stack of +2 coming at you."""
    app = UnoApp(LocalSession(TableConfig(variant="diez", seed=2, setup=DIEZ_SETUP, options={"uno_calls": False})),
                 pacing=(0.0, 0.0))
    async with app.run_test(size=size) as pilot:
        obs = await settle(pilot, app)
        if obs["phase"] != "stack":
            raise RuntimeError("no stack came; check DIEZ_SETUP")
        stackable = next(a for a in obs["legal"] if a["kind"] == "play")
        await select_card(pilot, app, stackable["card"])
        await pilot.pause(0.1)
        save(app, "diez.svg", out)


async def new_game(size: tuple[int, int], out: Path) -> None:
    """The new-game screen with a few house rules switched on."""
    app = UnoApp(pacing=(0.0, 0.0), config=TableConfig(seed=3))
    async with app.run_test(size=size) as pilot:
        await pilot.pause(0.1)
        assert isinstance(app.screen, NewGameScreen)
        await pilot.press("down", "down", "down", "right", "right", "down", "space", "down", "space")
        await pilot.pause(0.1)
        save(app, "new-game.svg", out)


EXTENDED_SETUP = {
    # Ada puts 紧箍咒 on Ben, who accepts (bound to 3 cards) and plays; Cleo plays +2 on you. At your
    # judgement you hold a +4 to pass it on with, and 寡妇 / 后悔药 to counter it.
    "hands": [["W+4", "R1", "B5", "G6", "Y7", "RWIDOW", "GREGRET", "WC4", "BT4"],
              ["YCURSE", "R2", "G2", "B2", "B9"], ["Y9", "R4", "G8", "B1", "B3", "GCLIP"],
              ["Y+2", "W+4", "G1", "Y1", "RDUELC"]],
    "discard": ["Y3"], "current": 1,
}


async def extended(size: tuple[int, int], out: Path) -> None:
    """UNO 扩展规则: a +2 on you at your judgement, a cursed player, Chinese card labels."""
    from core import Action

    # The bots wait (a long pause): their moves are made here, so the moment is always the same.
    app = UnoApp(LocalSession(TableConfig(variant="extended", seed=2, setup=EXTENDED_SETUP)), pacing=(600.0, 600.0))
    async with app.run_test(size=size) as pilot:
        await pilot.pause(0.1)
        game = app.session.game

        def card(p: int, text: str) -> int:
            return next(c.id for c in game.hand(p) if str(c) == text)

        for p, action in ((1, Action("play", card(1, "YCURSE"), None, 2)), (2, Action("accept")),
                          (2, Action("play", card(2, "Y9"))), (3, Action("play", card(3, "Y+2")))):
            app.session.move_for(p, action)
        await pilot.pause(0.1)
        stack = next(a for a in app.session.observation()["legal"] if a["kind"] == "play")
        await select_card(pilot, app, stack["card"])
        await pilot.pause(0.1)
        save(app, "extended.svg", out)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", default="80x24", help="terminal size, COLSxROWS (default: %(default)s)")
    parser.add_argument("--out", type=Path, default=HERE, help="output folder (default: this folder)")
    args = parser.parse_args()
    cols, rows = (int(v) for v in args.size.lower().split("x"))
    args.out.mkdir(parents=True, exist_ok=True)
    for shot in (table, table_wide, log_screen, color_picker, help_screen, round_over, nomercy, wildrawz, new_game,
                 extended, diez):
        await shot((cols, rows), args.out)
        print(f"wrote {args.out / shot.__name__.replace('_screen', '').replace('_', '-')}.svg")


if __name__ == "__main__":
    asyncio.run(main())
