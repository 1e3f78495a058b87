"""Write the README screenshots from seeded games, driving the app by key presses.

    python screenshots/make_screenshots.py [--size 100x32] [--out screenshots]

Writes table.svg (a few moves into a game), color-picker.svg, help.svg and
round-over.svg. Bots run in fast mode; the human's moves are chosen here
from the observation and made with ``pilot.press`` like a person would.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from uno_tui.app import UnoApp
from uno_tui.screens import ColorPicker, RoundOverScreen, TableScreen
from uno_tui.session import LocalSession, TableConfig
from uno_tui.widgets import HandView

HERE = Path(__file__).parent


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
    hand = app.screen.query_one(HandView)
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


async def table(size: tuple[int, int], out: Path) -> None:
    app = make_app(seed=3)
    async with app.run_test(size=size) as pilot:
        for _ in range(4):
            await settle(pilot, app)
            await take_turn(pilot, app, wilds=False)
        await settle(pilot, app)
        await pilot.press("right")
        await pilot.pause(0.1)
        app.save_screenshot("table.svg", str(out))


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
                app.save_screenshot("color-picker.svg", str(out))
                return
            await take_turn(pilot, app, wilds=False)
        raise RuntimeError("no wild card came up; pick another seed")


async def help_screen(size: tuple[int, int], out: Path) -> None:
    app = make_app(seed=3)
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        await pilot.press("question_mark")
        await pilot.pause(0.1)
        app.save_screenshot("help.svg", str(out))


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
        app.save_screenshot("round-over.svg", str(out))


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", default="100x32", help="terminal size, COLSxROWS (default: %(default)s)")
    parser.add_argument("--out", type=Path, default=HERE, help="output folder (default: this folder)")
    args = parser.parse_args()
    cols, rows = (int(v) for v in args.size.lower().split("x"))
    args.out.mkdir(parents=True, exist_ok=True)
    for shot in (table, color_picker, help_screen, round_over):
        await shot((cols, rows), args.out)
        print(f"wrote {args.out / shot.__name__.replace('_screen', '').replace('_', '-')}.svg")


if __name__ == "__main__":
    asyncio.run(main())
