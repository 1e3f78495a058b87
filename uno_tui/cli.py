"""The ``uno-tui`` command: play at the terminal table, or simulate bot games.

Textual is imported only when a table is opened, so ``uno-tui simulate`` and
``--help`` start fast.
"""

from __future__ import annotations

import argparse
import sys
from typing import Sequence

TABLE_VARIANTS: tuple[str, ...] = ("classic",)
"""Variants the table knows how to draw and drive; simulate takes any registered one."""

PLAY_HELP = "play against bots at the terminal table (the default command)"
SIMULATE_HELP = "play bot-only games without a screen and print each seat's win share"


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def _seed(text: str) -> int | str:
    """Numbers stay numbers (so --seed 3 and seed=3 in code agree); anything else is a string seed."""
    try:
        return int(text)
    except ValueError:
        return text


def build_parser() -> argparse.ArgumentParser:
    import core  # cheap: pure Python, no Textual
    from core.bots import LEVELS, easy, normal  # noqa: F401  (importing a level registers it)

    levels = sorted(LEVELS)

    parser = argparse.ArgumentParser(
        prog="uno-tui",
        description="UNO in the terminal. With no command, play classic UNO against three normal bots.",
        epilog="Run 'uno-tui COMMAND --help' for the options of each command.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser("play", help=PLAY_HELP, description=PLAY_HELP + ".")
    play.add_argument("--variant", default="classic", choices=[v for v in TABLE_VARIANTS if v in core.VARIANTS],
                      help="the rules to play (default: %(default)s)")
    play.add_argument("--players", type=int, default=4, metavar="N",
                      help="players at the table, you included: 2 to 10 (default: %(default)s)")
    play.add_argument("--bots", default="normal", choices=levels, metavar="LEVEL",
                      help=f"how well the bots play: {' or '.join(levels)} (default: %(default)s)")
    play.add_argument("--seed", type=_seed, default=None, metavar="S",
                      help="deal the same cards every time (and let the bots decide the same way)")
    play.add_argument("--name", default="You", metavar="NAME",
                      help="your name at the table (default: %(default)s)")
    play.add_argument("--target-score", type=int, default=500, metavar="T",
                      help="points that win the match, 1 or more (default: %(default)s)")
    play.add_argument("--draw-until-playable", action="store_true",
                      help="when you draw, keep drawing until a playable card turns up")
    play.add_argument("--fast", action="store_true",
                      help="no pause between the bots' moves (they still play every turn)")

    play.set_defaults(command_parser=play)  # errors then print this command's usage

    sim = sub.add_parser("simulate", help=SIMULATE_HELP, description=SIMULATE_HELP + ".")
    sim.set_defaults(command_parser=sim)
    sim.add_argument("--variant", default="classic", choices=core.VARIANTS,
                     help="the rules to play (default: %(default)s)")
    sim.add_argument("--players", type=int, default=4, metavar="N",
                     help="seats at the table: 2 to 10 (default: %(default)s)")
    sim.add_argument("--games", type=_positive_int, default=100, metavar="N",
                     help="how many single-round games to play (default: %(default)s)")
    sim.add_argument("--bots", default="normal", metavar="LEVELS",
                     help=f"comma-separated bot level per seat, e.g. normal,easy,easy,easy; "
                          f"a single level fills every seat (levels: {', '.join(levels)}; default: %(default)s)")
    sim.add_argument("--seed", type=int, default=0, metavar="S",
                     help="seed of the first game; the same seed gives the same results (default: %(default)s)")

    from net.commands import add_net_subcommands

    add_net_subcommands(sub)
    return parser


def _check_players(parser: argparse.ArgumentParser, variant: str, players: int) -> None:
    from core import variant_class

    cls = variant_class(variant)
    if not cls.min_players <= players <= cls.max_players:
        parser.error(f"--players: {variant} is for {cls.min_players} to {cls.max_players} players, not {players}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args(["play", *(argv or [])])
    if args.command == "simulate":
        return _simulate(args.command_parser, args)
    if getattr(args, "func", None) is not None:  # host, join, bot (net.commands)
        return int(args.func(args))
    return _play(args.command_parser, args)


def _simulate(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from core.bots import LEVELS, simulate

    _check_players(parser, args.variant, args.players)
    levels = [lv.strip() for lv in args.bots.split(",")]
    unknown = [lv for lv in levels if lv not in LEVELS]
    if unknown:
        parser.error(f"--bots: unknown bot level {unknown[0]!r} (known: {', '.join(sorted(LEVELS))})")
    if len(levels) == 1:
        levels *= args.players
    if len(levels) != args.players:
        parser.error(f"--bots lists {len(levels)} levels but --players is {args.players}: "
                     "give one level per seat, or a single level for all")
    result = simulate(args.variant, levels, args.games, seed=args.seed)
    print(f"{args.variant} · {args.players} players · {result.games} games · seed {args.seed}")
    print(f"{'seat':>4}  {'level':<8}{'wins':>6}  {'share':>6}")
    for seat, (level, wins, share) in enumerate(zip(result.levels, result.wins, result.shares), start=1):
        print(f"{seat:>4}  {level:<8}{wins:>6g}  {share * 100:>5.1f}%")
    per_game = result.moves / result.games if result.games else 0.0
    print(f"moves: {result.moves} ({per_game:.1f} per game)")
    print(f"speed: {result.games_per_second:.1f} games/s")
    return 0


def _play(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from core import variant_class

    _check_players(parser, args.variant, args.players)
    if args.target_score < 1:
        parser.error(f"--target-score must be 1 or more, not {args.target_score}")
    options = {"target_score": args.target_score}
    if args.draw_until_playable:
        options["draw_until_playable"] = True
    try:
        variant_class(args.variant).check_options(options)
    except ValueError as e:
        parser.error(str(e))

    from .session import LocalSession, TableConfig

    session = LocalSession(TableConfig(players=args.players, bots=args.bots, variant=args.variant,
                                       seed=args.seed, name=args.name, options=options))
    from .app import UnoApp  # Textual loads here, after the arguments are known to be good

    UnoApp(session, pacing=(0.0, 0.0) if args.fast else (0.6, 0.9)).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
