"""The ``host``, ``join``, ``bot`` and ``audit`` subcommands.

``uno_tui.cli`` registers them with :func:`add_net_subcommands`, passing the
TUI's own functions for the interactive host table and the join screen. The
headless host and the bot client work here on their own:
``python -m net host --headless ...`` and ``python -m net bot ADDRESS``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import sys
from typing import Any, Callable, Sequence, TextIO

from core.events import counted

from .address import DEFAULT_PORT, listen_error, parse_address
from .botclient import BotClient
from .host import Host
from .messages import clean_text
from .runtime import tune_gc
from .save import default_save_path
from .seats import DEFAULTS, RUNTIME_SETTINGS, HostConfig


def number(kind: type, words: str, ok: Callable[[Any], bool], rule: str) -> Callable[[str], Any]:
    """An argparse type: ``kind(text)``, refused with ``rule`` unless ``ok(value)`` (a bad number on
    the command line is an argument error: status 2 and what is wrong, never a traceback)."""
    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {words}") from None
        if not ok(value):
            raise argparse.ArgumentTypeError(f"{rule}, not {text}")
        return value
    return parse


positive_int = number(int, "a whole number", lambda v: v >= 1, "must be 1 or more")
"""An argument that counts something (rounds, games, sessions)."""
pause_seconds = number(float, "a number of seconds", lambda v: v >= 0, "must be 0 or more")
"""An argument that is a pause (0: none)."""


HostHook = Callable[..., int]
"""``interactive_host(**host_options, bell=bool) -> exit status``; keywords as :func:`run_headless_host` takes."""
JoinHook = Callable[..., int]
"""``join(address=None | str, name=str, password=None | str, spectate=bool, bell=bool) -> exit status``."""


def parse_port(text: str) -> int:
    """A TCP port for ``--port``: 0 (any free one) to 65535; anything else is an argument error."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port: use 1 to 65535 (or 0 for any free one)")
    return port


def parse_option(text: str) -> tuple[str, Any]:
    """``KEY=VALUE`` for a variant option; the value is read as a bool, an int or kept a string."""
    key, sep, raw = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"{text!r}: options are KEY=VALUE, e.g. target_score=200")
    low = raw.lower()
    value: Any = raw
    if low in ("true", "yes", "on"):
        value = True
    elif low in ("false", "no", "off"):
        value = False
    elif raw.lstrip("-").isdigit():
        value = int(raw)
    return key.strip().replace("-", "_"), value


class _Printer:
    """Turns host events into the headless host's stdout lines."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self._last_lobby = ""

    def line(self, text: str) -> None:
        # Names, chat, reasons and verdicts came from peers: cleaned again right before the terminal.
        print(clean_text(text, 2000), file=self.out, flush=True)

    def __call__(self, kind: str, data: dict[str, Any]) -> None:
        if kind == "lobby":
            parts = []
            for s in data["seats"]:
                if s["kind"] == "open":
                    parts.append(f"{s['seat'] + 1}: open")
                else:
                    state = "bot" if s["kind"] == "bot" else (
                        "away" + (", bot plays" if s["bot_plays"] else "") if s["away"]
                        else ("ready" if s["ready"] else "not ready"))
                    parts.append(f"{s['seat'] + 1}: {s['name']} ({state})")
            text = f"{data['phase']}: " + " | ".join(parts)
            if data["spectators"]:
                text += f" | {data['spectators']} watching"
            if text != self._last_lobby:
                self._last_lobby = text
                self.line(text)
        elif kind == "start":
            self.line("the game starts: " + ", ".join(data["names"]))
        elif kind == "round_over":
            names = data["names"]
            won = counted(data['points'], 'point')
            self.line(f"round {data['round'] + 1} over: {names[data['winner']]} wins {won}; "
                      "scores " + ", ".join(f"{n} {s}" for n, s in zip(names, data["scores"])))
        elif kind == "end":
            who = data["names"][data["winner"]] if data["winner"] is not None else None
            self.line(f"game over ({data['reason']})" + (f": {who} wins the match" if who else ""))
        elif kind == "chat":
            self.line(f"<{data['from']}> {data['text']}")
        elif kind == "stand_in":
            self.line(f"{data['name']} is away: a bot plays for them until they return")
        elif kind == "timeout":
            self.line(f"{data['name']} ran out of time: a bot played the turn")
        elif kind == "audit":
            self.line(f"round {data['round'] + 1} audit by the host: "
                      + ("verified" if data["ok"] else f"FAILED ({data['code']}: {data['reason']})"))
        elif kind == "verdict":
            r = data.get("round")
            self.line(f"round {(r or 0) + 1} audit by {data['name']}: "
                      + ("verified" if data["ok"] else f"FAILED ({data['code']}: {data['reason']})"))
        elif kind == "strike":
            what = data.get("why") or f"missed the {data['stage']} deadline of the deal"
            self.line(f"{data['name']}: {what} (strike {data['strikes']})")
        elif kind == "password":
            self.line(f"a wrong password from {data['addr']} ({data['failures']} in a row)"
                      + (f": its next try waits {data['wait']:.0f} s" if data["wait"] >= 1 else ""))
        elif kind == "bench":
            self.line(f"{data['name']} missed two deadlines: a bot plays their seat from now on")


def run_headless_host(
    *,
    port: int | None = None,
    bind: str = "0.0.0.0",
    record: str | None = None,
    resume: bool = False,
    save: str | None = None,
    mdns: bool = True,
    out: TextIO | None = None,
    **settings: Any,
) -> int:
    """``uno-tui host --headless``: serve one match without a screen; 0 when it ends.

    ``settings`` are :class:`HostConfig`'s (``variant``, ``seats``, ``bots``,
    ``rounds``, ``grace``, ...; those not given keep its defaults). Prints the
    address and the lobby to ``out`` (stdout), starts when every seat is taken
    and every person is ready, plays ``rounds`` rounds (or the whole match),
    writes the moves record (JSON, :mod:`net.record`) to ``record`` if given.
    The signed transcript, which ``uno-tui audit`` checks, is written anyway
    (see :mod:`net.transcript`); its path is printed at the end.
    """
    out = out or sys.stdout
    save_path = save or str(default_save_path())
    printer = _Printer(out)
    try:
        if resume:
            host = Host.resume(save_path, **HostConfig.given(settings, RUNTIME_SETTINGS),
                               auto_start=True, auto_next=True)
            if settings.get("rounds") is not None:
                host.config.rounds = settings["rounds"]
            if port is None:
                port = host.saved_port or DEFAULT_PORT
        else:
            host = Host(HostConfig.from_options(settings, auto_start=True, auto_next=True, save_path=save_path))
    except (ValueError, TypeError) as e:
        print(f"uno-tui host: {e}", file=sys.stderr)
        return 2
    host.listeners.append(printer)
    try:
        return asyncio.run(_serve_headless(host, bind, DEFAULT_PORT if port is None else port,
                                           record, mdns, printer))
    except KeyboardInterrupt:
        printer.line("interrupted; the game is saved: continue it with --resume")
        return 130


async def _serve_headless(host: Host, bind: str, port: int, record: str | None, mdns: bool,
                          printer: _Printer) -> int:
    from . import discovery

    try:
        _, port = await host.start(bind, port)
    except OSError as e:
        print(f"uno-tui host: {listen_error(bind, port, e)}", file=sys.stderr)
        return 1
    tune_gc()
    printer.line(TRUSTED_HOST_LINE)
    printer.line(f"listening on {bind}:{port}")
    shown = discovery.local_ip() if bind in discovery.WILDCARDS else bind
    printer.line(f"players join with: uno-tui join --trusted-host {host.address(shown)}"
                 + f"   (on this machine: uno-tui join --trusted-host {host.address('localhost')})")
    printer.line(f"host key fingerprint: {host.fingerprint}")
    if host.game is not None:
        printer.line(f"resumed the saved game (round {host.game.round + 1}); waiting for players to reconnect")
    printer(("lobby"), host.lobby_message())
    ad = None
    lan_ip, why_not = discovery.lan_address(bind)
    if mdns and lan_ip is None:
        printer.line(why_not)
    elif mdns:
        ad, note = await discovery.advertise(host.config.name, port, ip=lan_ip,
                                             properties={"variant": host.config.variant,
                                                         "seats": str(host.config.seats)})
        printer.line(note)
    try:
        await host.wait_finished()
        await asyncio.sleep(0.2)  # let the last updates and 'end' reach everyone
    finally:
        if ad is not None:
            await ad.close()
        if record and host.record is not None and host.game is not None:
            host.record.write_json(record, list(host.game.scores), host.game.match_winner)
            printer.line(f"moves record written to {record}")
        signed = host.transcript_path
        await host.close("the game is over")
        if signed:
            printer.line(f"signed transcript: {signed}   (check it with: uno-tui audit {signed})")
    return 0


def run_audit(path: str, out: TextIO | None = None) -> int:
    """``uno-tui audit FILE``: check a transcript offline.

    Exit status: 0 verified, 1 a fraud or a broken record (with the reason),
    2 not a transcript to audit (a missing file, a moves record), 3
    incomplete (cut short, or no round closed in it). See :mod:`net.transcript`.
    """
    from .sealing import transcript as sealed
    from .transcript import VERIFIED, audit_path

    with contextlib.suppress(OSError):
        with open(path, "rb") as f:
            if sealed.is_sealed(f.read(len(sealed.MAGIC))):
                audit_path = sealed.audit_path  # noqa: F811  (a sealed table's transcript)
    result = audit_path(path)
    print(f"{path}: {result.text}", file=out or (sys.stdout if result.status == VERIFIED else sys.stderr))
    return result.status


def run_bot_client(address: str, *, name: str = "Bot", level: str = "normal",
                   password: str | None = None, think: float | None = None) -> int:
    """``uno-tui bot ADDRESS``: a headless bot takes a seat and plays; 0 when the game ends."""
    try:
        parse_address(address)
        bot = BotClient(address, name, level, password=password, think=think)
    except ValueError as e:
        print(f"uno-tui bot: {e}", file=sys.stderr)
        return 2
    bot.report = lambda text: print(f"uno-tui bot: {text}", flush=True)
    tune_gc()
    try:
        return asyncio.run(bot.run())
    except KeyboardInterrupt:
        return 130


# -- argparse --------------------------------------------------------------------------------
def _host_options(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "port": args.port, "bind": args.bind, "variant": args.variant, "seats": args.seats, "bots": args.bots,
        "name": args.name, "password": args.password, "rounds": args.rounds, "record": args.record,
        "resume": args.resume, "save": args.save, "turn_timer": args.turn_timer, "grace": args.grace,
        "bot_level": args.bot_level, "bot_delay": args.bot_delay, "seed": args.seed,
        "options": dict(args.option or []), "mdns": not args.no_mdns, "heartbeat": args.heartbeat,
        "round_pause": args.round_pause, "bot_think": args.think,
    }


def think_seconds(text: str) -> float:
    """``--think SECONDS``: how long a ``hard`` bot thinks per decision (more than 0, at most 60)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < value <= 60:
        raise argparse.ArgumentTypeError(f"must be more than 0 and at most 60 seconds, not {text}")
    return value


def think_processes() -> int:
    """Processes a table's hard bots search in: the machine's cores (a pool of up to 4)."""
    import os

    return max(1, min(os.cpu_count() or 1, 4))


TRUSTED_HOST_HELP = ("the open host instead of the sealed deal: THIS HOST CAN SEE EVERY HAND and the next "
                     "draws (its save file holds them); players join with `join --trusted-host`. Without it "
                     "nobody, this host included, sees a card before the rules show it")
TRUSTED_HOST_LINE = ("open host (--trusted-host): this host can see every hand and the next draws; "
                     "players join with --trusted-host. Leave the flag out for the sealed deal.")
"""The line an open host prints when it starts (headless), or shows first in its lobby's log."""


def add_deal_flags(parser: argparse.ArgumentParser, trusted_help: str) -> None:
    """``--trusted-host`` (the open host, who sees every hand) and ``--sealed`` (the default now, kept
    so that old scripts still run)."""
    parser.add_argument("--trusted-host", action="store_true", help=trusted_help)
    parser.add_argument("--sealed", action="store_true",
                        help="the sealed deal (the default: accepted so that older commands still run)")


def _missing_tui(what: str) -> int:
    print(f"uno-tui: {what} needs the terminal UI; use `host --headless` or `bot ADDRESS` without it",
          file=sys.stderr)
    return 2


def add_net_subcommands(subparsers: Any, interactive_host: HostHook | None = None,
                        join: JoinHook | None = None) -> None:
    """Register ``host``, ``join`` and ``bot`` on an argparse ``subparsers`` object.

    Each parser's ``func`` default takes the parsed namespace and returns an
    exit status. ``interactive_host`` receives the host options as keywords
    (those of :func:`run_headless_host`); ``join`` receives ``address``,
    ``name``, ``password`` and ``spectate``.
    """
    import core
    from core.bots import LEVELS

    levels = sorted(LEVELS)
    host_help = "host a network table (the host plays too unless --headless)"
    h = subparsers.add_parser("host", help=host_help, description=(
        host_help + ". Players on the LAN find the table with `uno-tui join`; others type the address it "
        "shows (uno://HOST:PORT#FINGERPRINT: the fingerprint proves they reached this host)."))
    h.add_argument("--port", type=parse_port, default=None,
                   help=f"TCP port, 1 to 65535 (default {DEFAULT_PORT}; 0 picks a free one)")
    h.add_argument("--bind", default="0.0.0.0", metavar="ADDR", help="address to listen on (default all)")
    h.add_argument("--variant", default=DEFAULTS.variant, choices=sorted(core.VARIANTS),
                   help="the game to play (default: %(default)s)")
    h.add_argument("--seats", type=int, default=DEFAULTS.seats, metavar="N",
                   help="players in all, the host's own seat included when it plays (default %(default)s)")
    h.add_argument("--bots", type=int, default=DEFAULTS.bots, metavar="K", help="seats given to bots from the start")
    h.add_argument("--name", default=DEFAULTS.name, metavar="NAME",
                   help="your name at the table, and the table's name on the LAN (default: %(default)s)")
    h.add_argument("--password", default=DEFAULTS.password, metavar="PW", help="players must give it to join")
    h.add_argument("--headless", action="store_true", help="no screen: print the lobby, play, exit when done")
    h.add_argument("--rounds", type=positive_int, default=DEFAULTS.rounds, metavar="R", help="stop after R rounds (default: the match)")
    h.add_argument("--record", default=None, metavar="PATH",
                   help="write the match's record here when it ends: at a sealed table, a copy of its signed "
                        "log (`audit` verifies it); at an open host's, the moves record (JSON, for replaying; the "
                        "signed transcript that `audit` checks is written anyway)")
    # The old name of --record: it wrote the JSON moves record, which `audit` cannot read; refused
    # with the new name rather than kept as an alias, so nobody takes its file for the transcript.
    h.add_argument("--transcript", dest="old_transcript", default=None, help=argparse.SUPPRESS)
    h.add_argument("--resume", action="store_true",
                   help="continue the saved game after a host crash (a sealed table's too: its players' clients "
                        "connect again by themselves)")
    h.add_argument("--save", default=None, metavar="PATH", help=f"save file (default {default_save_path()})")
    h.add_argument("--turn-timer", type=float, default=DEFAULTS.turn_timer, metavar="SECONDS",
                   help="a bot plays the turn of a person who takes longer")
    h.add_argument("--grace", type=float, default=DEFAULTS.grace, metavar="SECONDS",
                   help="how long an away player's seat waits before a bot plays it (default %(default)s)")
    h.add_argument("--bot-level", default=DEFAULTS.bot_level, choices=levels,
                   help="how well the host's bots play (default: %(default)s)")
    h.add_argument("--think", type=think_seconds, default=None, metavar="SECONDS",
                   help="how long a hard bot thinks per move (default 0.3)")
    h.add_argument("--bot-delay", type=pause_seconds, default=DEFAULTS.bot_delay, metavar="SECONDS", help="pause before a bot moves")
    h.add_argument("--seed", default=DEFAULTS.seed,
                   help="deck seed, open host only (default: fresh randomness); a sealed deal is shuffled by "
                        "every participant from its own secret randomness, which no seed may fix")
    h.add_argument("--option", action="append", type=parse_option, metavar="KEY=VALUE",
                   help="a variant rule option, e.g. target_score=200 (repeatable)")
    h.add_argument("--no-mdns", action="store_true", help="do not advertise the table on the LAN")
    h.add_argument("--english", action="store_true",
                   help="extended rules: name the cards in English on the chips and in the log (not in Chinese)")
    h.add_argument("--no-bell", action="store_true",
                   help="no bell (nor terminal title) when it becomes your turn (interactive host only)")
    add_deal_flags(h, TRUSTED_HOST_HELP)
    h.add_argument("--heartbeat", type=float, default=DEFAULTS.heartbeat, help=argparse.SUPPRESS)
    h.add_argument("--round-pause", type=pause_seconds, default=DEFAULTS.round_pause, metavar="SECONDS",
                   help="pause between rounds when headless (default %(default)s)")

    def host_cmd(args: argparse.Namespace) -> int:
        if args.old_transcript is not None:
            print("uno-tui host: --transcript is now --record (it writes the JSON moves record, for replaying). "
                  "The signed transcript that `uno-tui audit` checks is written on its own; the host prints "
                  "its path when the game ends.", file=sys.stderr)
            return 2
        opts = _host_options(args)
        if not args.trusted_host:
            from .sealing.serve import open_host_only, run_sealed_host

            problem = open_host_only(opts)
            if problem is not None:
                print(f"uno-tui host: {problem}", file=sys.stderr)
                return 2
            if args.headless:
                return run_sealed_host(**opts)
            if interactive_host is None:
                return _missing_tui("the interactive host")
            return interactive_host(**opts, english=args.english, sealed=True)
        if args.headless:
            return run_headless_host(**opts)
        if interactive_host is None:
            return _missing_tui("the interactive host")
        return interactive_host(**opts, bell=not args.no_bell, english=args.english)

    h.set_defaults(func=host_cmd)

    join_help = "join a network table (found on the LAN when no address is given)"
    j = subparsers.add_parser("join", help=join_help, description=(
        join_help + ". Without ADDRESS, tables on the LAN are listed; pick one or type an address. A seat you "
        "held at that table is taken back by itself."))
    j.add_argument("address", nargs="?", default=None, metavar="ADDRESS",
                   help="host[:port], or uno://host:port#fingerprint as the host shows it")
    j.add_argument("--name", default=None, metavar="NAME",
                   help="your name at the table (default: your login name)")
    j.add_argument("--password", default=None, metavar="PW", help="the table's password, if it has one")
    j.add_argument("--spectate", action="store_true", help="watch the public table, take no seat")
    add_deal_flags(j, "join an open host's table (`host --trusted-host`), whose host sees every hand; "
                      "without it you join a sealed table, where nobody, the host included, sees your cards")
    j.add_argument("--english", action="store_true",
                   help="extended rules: name the cards in English on the chips and in the log (not in Chinese)")
    j.add_argument("--no-bell", action="store_true",
                   help="no bell (nor terminal title) when it becomes your turn or a decision waits for you")

    def join_cmd(args: argparse.Namespace) -> int:
        if join is None:
            return _missing_tui("join")
        if not args.trusted_host:
            return join(address=args.address, name=args.name, password=args.password, spectate=args.spectate,
                        bell=not args.no_bell, english=args.english, sealed=True)
        return join(address=args.address, name=args.name, password=args.password, spectate=args.spectate,
                    bell=not args.no_bell, english=args.english)

    j.set_defaults(func=join_cmd)

    bot_help = "a headless bot that takes a seat at ADDRESS and plays"
    b = subparsers.add_parser("bot", help=bot_help, description=(
        bot_help + ". It prints the seat it took and, when the game ends, the result."))
    b.add_argument("address", nargs="?", default=None, metavar="ADDRESS",
                   help="host[:port], or uno://host:port#fingerprint (a sealed table: left out, the one sealed "
                        "table on the LAN)")
    b.add_argument("--name", default="Bot", metavar="NAME", help="the bot's name at the table (default: %(default)s)")
    b.add_argument("--level", default="normal", choices=levels, help="how well it plays (default: %(default)s)")
    b.add_argument("--think", type=think_seconds, default=None, metavar="SECONDS",
                   help="how long a hard bot thinks per move (default 0.3)")
    b.add_argument("--password", default=None, metavar="PW", help="the table's password, if it has one")
    add_deal_flags(b, "play at an open host's table (`host --trusted-host`), whose host sees every hand")

    def bot_cmd(args: argparse.Namespace) -> int:
        if not args.trusted_host:
            from .sealing.serve import run_sealed_bot

            return run_sealed_bot(args.address, level=args.level, name=args.name, password=args.password)
        if args.address is None:
            print("uno-tui bot: --trusted-host needs the table's ADDRESS", file=sys.stderr)
            return 2
        return run_bot_client(args.address, name=args.name, level=args.level, password=args.password,
                              think=args.think)

    b.set_defaults(func=bot_cmd)

    a = subparsers.add_parser(
        "audit", help="check a game transcript offline",
        description="Check a signed game transcript (.unotx) offline: every signature, the log's hash chain, "
                    "every round's deal and moves replayed, and that the file is whole.",
        epilog="Exit status: 0 verified; 1 a fraud or a broken record (the reason is printed); 2 not a "
               "transcript (a missing file, or the JSON moves record of `host --record`); 3 incomplete (the "
               "file ends without its seal, as after a crash or a cut, or no round was closed in it).")
    a.add_argument("file", metavar="FILE", help="a transcript (.unotx) written by a player or the host")
    a.set_defaults(func=lambda args: run_audit(args.file))


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m net host --headless ...`` / ``python -m net bot ADDRESS``."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    parser = argparse.ArgumentParser(prog="python -m net", description="uno-tui network commands")
    sub = parser.add_subparsers(dest="command", required=True)
    add_net_subcommands(sub)
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
