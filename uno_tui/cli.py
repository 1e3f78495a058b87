"""The ``uno-tui`` command: play at the terminal table, or simulate bot games.

Textual is imported only when a table is opened, so ``uno-tui simulate`` and
``--help`` start fast.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from typing import Callable, Iterator, Sequence

DEFAULT_PLAYERS = 4
DEFAULT_BOTS = "normal"

PLAY_HELP = "play against bots at the terminal table (the default command)"
SIMULATE_HELP = "play bot-only games without a screen and print each seat's win share"
COMPLETION_HELP = "print a shell completion script (bash, zsh or fish)"
SHELLS = ("bash", "zsh", "fish")
PROGRESS_FROM = 200
"""Simulations of this many games or more show a progress bar (on a terminal)."""


def version() -> str:
    """The installed package's version (the source tree's when run uninstalled)."""
    from importlib.metadata import PackageNotFoundError, version as dist_version

    try:
        return dist_version("uno-tui")
    except PackageNotFoundError:
        return "unknown"


def parse_rules(text: str) -> dict[str, object]:
    """``stacking=progressive,seven_o,uno_penalty=3`` -> options; a bare name means true.

    Values read as true/false (yes/no, on/off), whole numbers, or else words. Whether the
    names and values are rules of the variant is the engine's to say (``check_options``).
    """
    options: dict[str, object] = {}
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        name, eq, raw = item.partition("=")
        name, raw = name.strip().replace("-", "_"), raw.strip()
        if not name:
            raise ValueError(f"{item!r} has no rule name")
        value: object
        if not eq:
            value = True
        elif raw.lower() in ("true", "yes", "on"):
            value = True
        elif raw.lower() in ("false", "no", "off"):
            value = False
        else:
            try:
                value = int(raw)
            except ValueError:
                value = raw
        options[name] = value
    return options


def _seed(text: str) -> int | str:
    """Numbers stay numbers (so --seed 3 and seed=3 in code agree); anything else is a string seed."""
    try:
        return int(text)
    except ValueError:
        return text


def build_parser() -> argparse.ArgumentParser:
    import core  # cheap: pure Python, no Textual
    from core.bots import LEVELS, easy, normal  # noqa: F401  (importing a level registers it)
    from net.commands import positive_int, think_seconds

    from .faces import TABLE_VARIANTS  # the games the tables can draw (no Textual); simulate takes any

    levels = sorted(LEVELS)

    parser = argparse.ArgumentParser(
        prog="uno-tui",
        description="UNO in the terminal. With no command, choose a game on the new-game screen and play it "
                    "against bots.",
        epilog="Run 'uno-tui COMMAND --help' for the options of each command.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser("play", help=PLAY_HELP, description=PLAY_HELP + ". Without --variant, --rules, "
                          "--players, --bots or --target-score a new-game screen asks first; --quick skips it.")
    play.add_argument("--variant", default=None, choices=[v for v in TABLE_VARIANTS if v in core.VARIANTS],
                      help="the game: classic, nomercy (No Mercy), wildrawz (Wild Rawz), diez (Diez) or "
                           "extended (UNO 扩展规则) (default: classic)")
    play.add_argument("--rules", type=_rules, default=None, metavar="RULES",
                      help="house rules, comma-separated, e.g. stacking=progressive,seven_o,jump_in,force_play,"
                           "no_bluff,uno_penalty=3,draw_until_playable (a bare name switches a rule on)")
    play.add_argument("--players", type=int, default=None, metavar="N",
                      help="players at the table, you included: classic 2 to 10, nomercy 2 to 6, "
                           f"wildrawz 3 or 4, diez and extended 2 to 10 (default: {DEFAULT_PLAYERS})")
    play.add_argument("--bots", default=None, choices=levels, metavar="LEVEL",
                      help=f"how well the bots play: {' or '.join(levels)} (default: {DEFAULT_BOTS})")
    play.add_argument("--think", type=think_seconds, default=None, metavar="SECONDS",
                      help="how long a hard bot thinks per move (default 0.3)")
    play.add_argument("--seed", type=_seed, default=None, metavar="S",
                      help="deal the same cards every time (and let the bots decide the same way)")
    play.add_argument("--name", default="You", metavar="NAME",
                      help="your name at the table and in the log (default: %(default)s)")
    play.add_argument("--target-score", type=int, default=None, metavar="T",
                      help="points that win the match, 1 or more (default: 500 classic, 1000 nomercy; "
                           "wildrawz plays a fixed number of rounds instead)")
    play.add_argument("--draw-until-playable", action="store_true",
                      help="when you draw, keep drawing until a playable card turns up (same as "
                           "--rules draw_until_playable)")
    play.add_argument("--quick", action="store_true",
                      help="skip the new-game screen: deal at once with the options given (or the defaults)")
    play.add_argument("--fast", action="store_true",
                      help="no pause between the bots' moves (they still play every turn)")
    play.add_argument("--english", action="store_true",
                      help="extended: name the cards in English on the chips and in the log (not in Chinese)")
    play.add_argument("--resume", action="store_true",
                      help="go on with the match saved when you last left a game (every local game is saved "
                           "as it goes)")
    play.add_argument("--save", default=None, metavar="PATH",
                      help="the save file (default: $XDG_STATE_HOME/uno-tui/local.save)")

    play.set_defaults(command_parser=play)  # errors then print this command's usage

    sim = sub.add_parser("simulate", help=SIMULATE_HELP, description=SIMULATE_HELP + ".")
    sim.set_defaults(command_parser=sim)
    sim.add_argument("--variant", default="classic", choices=core.VARIANTS,
                     help="the rules to play (default: %(default)s)")
    sim.add_argument("--players", type=int, default=4, metavar="N",
                     help="seats at the table: 2 to 10 (default: %(default)s)")
    sim.add_argument("--games", type=positive_int, default=100, metavar="N",
                     help="how many single-round games to play (default: %(default)s)")
    sim.add_argument("--bots", default="normal", metavar="LEVELS",
                     help=f"comma-separated bot level per seat, e.g. normal,easy,easy,easy; "
                          f"a single level fills every seat (levels: {', '.join(levels)}; default: %(default)s)")
    sim.add_argument("--think", type=think_seconds, default=None, metavar="SECONDS",
                     help="how long each hard bot thinks per move (default 0.3)")
    sim.add_argument("--seed", type=int, default=0, metavar="S",
                     help="seed of the first game; the same seed gives the same results (default: %(default)s)")
    sim.add_argument("--rules", type=_rules, default=None, metavar="RULES",
                     help="house rules, comma-separated, e.g. stacking=progressive,seven_o,uno_penalty=3 "
                          "(a bare name switches a rule on)")

    from net.commands import add_net_subcommands

    add_net_subcommands(sub, interactive_host=_interactive_host, join=_join)

    from .serve.command import add_serve_subcommand

    add_serve_subcommand(sub)

    comp = sub.add_parser("completion", help=COMPLETION_HELP, description=(
        COMPLETION_HELP + ". Load it in your shell's start-up file; the README shows how for each shell."))
    comp.add_argument("shell", choices=SHELLS, help="the shell to complete in")
    comp.set_defaults(command_parser=comp)
    return parser


def _interactive_host(**options: object) -> int:
    """``uno-tui host`` (not headless): serve the table from this screen and play at it."""
    if options.pop("sealed", False):
        from .sealed_commands import run_sealed_host_screen

        return run_sealed_host_screen(**options)  # type: ignore[arg-type]
    from .netplay.app import run_interactive_host  # Textual loads here, not for --help

    return run_interactive_host(**options)


def _join(**options: object) -> int:
    """``uno-tui join [ADDRESS]``: the lobby, then the table (``--sealed``: a sealed table's)."""
    if options.pop("sealed", False):
        from .sealed_commands import run_sealed_join

        return run_sealed_join(**options)  # type: ignore[arg-type]
    from .netplay.app import run_join

    return run_join(**options)  # type: ignore[arg-type]


def _rules(text: str) -> dict[str, object]:
    try:
        return parse_rules(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _options(parser: argparse.ArgumentParser, variant: str, options: dict[str, object]) -> dict[str, object]:
    """The variant's own check of the options (exit 2 with its message when one is bad)."""
    from core import variant_class

    try:
        variant_class(variant).check_options(dict(options))
    except ValueError as e:
        parser.error(f"--rules: {e}")
    return options


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
    if args.command == "completion":
        return _completion(parser, args.shell)
    if getattr(args, "func", None) is not None:  # host, join, bot (net.commands)
        return int(args.func(args))
    return _play(args.command_parser, args)


def _simulate(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from core.bots import LEVELS, simulate

    _check_players(parser, args.variant, args.players)
    options = _options(parser, args.variant, args.rules or {})
    levels = [lv.strip() for lv in args.bots.split(",")]
    unknown = [lv for lv in levels if lv not in LEVELS]
    if unknown:
        parser.error(f"--bots: unknown bot level {unknown[0]!r} (known: {', '.join(sorted(LEVELS))})")
    if len(levels) == 1:
        levels *= args.players
    if len(levels) != args.players:
        parser.error(f"--bots lists {len(levels)} levels but --players is {args.players}: "
                     "give one level per seat, or a single level for all")
    settings = {}
    if "hard" in levels:
        from net.thinking import bot_settings

        settings = bot_settings(args.think)
    with _progress(args.games) as progress:
        result = simulate(args.variant, levels, args.games, seed=args.seed, options=options, progress=progress,
                          **settings)
    rules = ",".join(k if v is True else f"{k}={v}" for k, v in options.items())
    print(f"{args.variant} · {args.players} players · {result.games} games · seed {args.seed}"
          + (f" · rules {rules}" if rules else ""))
    print(f"{'seat':>4}  {'level':<8}{'wins':>6}  {'share':>6}")
    for seat, (level, wins, share) in enumerate(zip(result.levels, result.wins, result.shares), start=1):
        print(f"{seat:>4}  {level:<8}{wins:>6g}  {share * 100:>5.1f}%")
    per_game = result.moves / result.games if result.games else 0.0
    print(f"moves: {result.moves} ({per_game:.1f} per game)")
    print(f"speed: {result.games_per_second:.1f} games/s")
    return 0


@contextlib.contextmanager
def _progress(games: int) -> Iterator[Callable[[int], None] | None]:
    """Rich's progress bar on stderr for a long run on a terminal; nothing otherwise (a pipe, a short run)."""
    if games < PROGRESS_FROM or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("games", total=games)
        yield lambda done: bar.update(task, completed=done)


def _completion(parser: argparse.ArgumentParser, shell: str) -> int:
    """The completion script for ``shell``, made from the parser itself (so it never falls behind)."""
    import shtab

    print(shtab.complete(parser, shell=shell))
    return 0


def _play(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from core import variant_class

    from .session import LocalSession, SaveError, default_save_path

    save_path = args.save or str(default_save_path())
    pacing = (0.0, 0.0) if args.fast else (0.6, 0.9)
    if args.resume:
        chosen = [flag for flag, value in (("--variant", args.variant), ("--rules", args.rules),
                                           ("--players", args.players), ("--bots", args.bots),
                                           ("--target-score", args.target_score)) if value is not None]
        if chosen:
            parser.error(f"--resume goes on with the saved match as it was: drop {', '.join(chosen)}")
        try:
            session = LocalSession.resume(save_path)
        except SaveError as e:
            print(f"uno-tui play: {e}", file=sys.stderr)
            return 2
        session.config.english = session.config.english or args.english
        from .app import UnoApp

        UnoApp(session, pacing=pacing).run()
        return 0

    variant = args.variant or "classic"
    cls = variant_class(variant)
    options: dict[str, object] = dict(args.rules or {})
    if args.draw_until_playable:
        options["draw_until_playable"] = True
    if args.target_score is not None:
        if "target_score" not in cls.OPTIONS:
            parser.error(f"--target-score: {variant} has no target score "
                         "(the match lasts two turns of the start marker round the table)")
        if args.target_score < 1:
            parser.error(f"--target-score must be 1 or more, not {args.target_score}")
        options["target_score"] = args.target_score
    _options(parser, variant, options)
    players = args.players if args.players is not None else max(cls.min_players, min(cls.max_players,
                                                                                      DEFAULT_PLAYERS))
    _check_players(parser, variant, players)

    from net.commands import think_processes

    from .session import TableConfig

    config = TableConfig(players=players, bots=args.bots or DEFAULT_BOTS, variant=variant, seed=args.seed,
                         name=args.name, options=options, save_path=save_path, english=args.english,
                         think=args.think, think_processes=think_processes())
    # Flags that choose the game skip the new-game screen; --seed, --name and --fast do not.
    chosen = (args.variant, args.rules, args.players, args.bots, args.target_score)
    ask = not args.quick and all(v is None for v in chosen) and not args.draw_until_playable
    from .app import UnoApp  # Textual loads here, after the arguments are known to be good

    if ask:
        UnoApp(pacing=pacing, config=config).run()
    else:
        UnoApp(LocalSession(config), pacing=pacing).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
