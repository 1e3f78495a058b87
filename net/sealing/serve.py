"""``uno-tui host --headless`` and ``uno-tui bot``: a sealed table from the command line (the default;
``--trusted-host`` is the open host of :mod:`net.commands`).

A headless sealed host seats its bots and waits for its players (``uno-tui join``, ``uno-tui bot``);
it prints who is waiting, the chat, each round's verdicts and the scores, and exits 0 when every
round audited clean, 1 on an alarm (printed with its culprit), a round whose verdicts name a false
claim, or a round voided because a participant left for good.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any, Callable, TextIO

import core

from ..address import DEFAULT_PORT, connect_error, listen_error, parse_address, split_fingerprint
from ..errors import NetError
from ..identity import Identity, fingerprint
from ..messages import clean_text
from ..runtime import tune_gc
from ..transcript import default_transcript_dir
from .lockstep import SealedPeer
from .signed import Alarm, Voided
from .client import SealedClient
from .relay import SealedHost
from .resume import ResumableHost
from .room import heard, lobby_text
from .transcript import SealedTranscript


def check_table(variant: str, seats: int, bots: int) -> str | None:
    """What is wrong with these settings for a sealed table (None: nothing)."""
    cls = core.variant_class(variant)
    if not cls.sealable:
        return f"{variant} cannot be played sealed yet (sealable variants: {', '.join(sealable_variants())})"
    if not cls.min_players <= seats <= cls.max_players:
        return f"{variant} is for {cls.min_players} to {cls.max_players} players"
    if not 0 <= bots <= seats:
        return "--bots must be between 0 and the number of seats"
    return None


def table_settings(variant: str, seats: int, bots: int, options: dict[str, Any] | None,
                   host_plays: bool = False) -> dict[str, Any] | None:
    """The variant's checked options for a sealed table; None (with the reason printed, for an exit
    status of 2) when a setting is wrong. ``host_plays``: the host's person takes a seat."""
    try:
        problem = check_table(variant, seats, bots)
        if problem is None and host_plays and bots >= seats:
            problem = "the host plays a seat: --bots must leave it one"
        if problem is None:
            return core.variant_class(variant).check_options(dict(options or {}))
    except ValueError as e:
        problem = str(e)
    print(f"uno-tui host: {problem}", file=sys.stderr)
    return None


OPEN_HOST_ONLY = {
    "seed": "--seed (a sealed deal's order is made by every participant's shuffle in turn, each from its own "
            "secret randomness: no seed of the host's can fix it, and one that fixed the host's own part would "
            "only hand its secrets to whoever knows the seed)",
}
"""The host options the sealed table does not have, in words: refused (exit 2) unless the open
host is asked for, rather than quietly ignored."""


def check_record(record: str | None) -> str | None:
    """What is wrong with ``--record PATH`` (None: nothing): its folder must be there to write in."""
    if record is None:
        return None
    folder = Path(record).expanduser().resolve().parent
    if not folder.is_dir():
        return f"--record {record}: the folder {folder} does not exist"
    if Path(record).is_dir():
        return f"--record {record}: that is a folder; give the path of a file to write"
    return None


def write_record(host: SealedHost, record: str | None) -> str | None:
    """``--record PATH`` at a sealed table: the match's log, as its transcript holds it (signed by every
    author: ``uno-tui audit PATH`` verifies it), copied to PATH; the line saying so (None: nothing to say)."""
    if record is None:
        return None
    if host.transcript is None:
        return f"--record: nothing written to {record}: the table never started"
    import shutil

    try:
        host.transcript.close()
        shutil.copyfile(host.transcript.path, Path(record).expanduser())
    except OSError as e:
        return f"--record: cannot write {record}: {e.strerror or e}"
    return f"the match's log is written to {record}   (check it with: uno-tui audit {record})"


def open_host_only(opts: dict[str, Any]) -> str | None:
    """What is wrong with asking a sealed table for ``opts`` (None: nothing)."""
    from ..seats import DEFAULTS

    given = [words for key, words in OPEN_HOST_ONLY.items()
             if opts.get(key) not in (None, False, getattr(DEFAULTS, key, None))]
    if not given:
        return None
    return (f"{', '.join(given)}: only the open host has {'it' if len(given) == 1 else 'them'}. Add "
            "--trusted-host for it (then the host can see every hand), or leave the option out.")


def sealable_variants() -> list[str]:
    return [v for v in sorted(core.VARIANTS) if core.variant_class(v).sealable]


def transcript_line(record: SealedTranscript | None) -> str:
    if record is None:
        return "no transcript: the table never started"
    return f"transcript: {record.path}   (check it with: uno-tui audit {record.path})"


def alarm_text(a: Alarm) -> str:
    """An alarm in words; a void (someone left for good) is said as what it is, not as a fraud."""
    if isinstance(a, Voided):
        return f"round {a.round + 1} is void: {a.why} (their keys left with them); no score is kept for it"
    return f"alarm: {a}"


def report(peer: SealedPeer, out: TextIO) -> int:
    """Print each round's verdicts and the scores; the exit status."""
    status = 0
    for r in sorted({v["r"] for v in peer.verdicts}):
        vs = [v for v in peer.verdicts if v["r"] == r]
        bad = [v for v in vs if not v["ok"]]
        print(f"round {r + 1}: {len(vs)} verdicts, " + ("every audit clean" if not bad else
              "false claims named: " + "; ".join(f"seat {s}: {w}" for v in bad for s, w in v["false"])), file=out)
        status |= 1 if bad else 0
    if peer.game is not None:
        print("scores: " + ", ".join(f"{n} {s}" for n, s in zip(peer.game.names, peer.game.scores)), file=out)
    return status


def join_lines(host: SealedHost, bind: str, port: int) -> list[str]:
    """How players reach this table, with the host key's fingerprint in the address."""
    from .. import discovery

    fp = fingerprint(host.identity.public)[:16]
    shown = discovery.local_ip() if bind in discovery.WILDCARDS else bind
    return [f"sealed table listening on {bind}:{port}: nobody, this host included, sees a card before the "
            "rules show it",
            f"players join with: uno-tui join uno://{shown}:{port}#{fp}   (bots: uno-tui bot uno://{shown}:{port}#{fp})"]


def printer(out: TextIO) -> Callable[[str, dict[str, Any]], None]:
    """The host's and a client's waiting room, chat and refusals as lines (cleaned again before the terminal)."""
    last = [""]

    def show(kind: str, data: dict[str, Any]) -> None:
        if kind == "lobby":
            text = lobby_text(data)
            if text == last[0]:
                return
            last[0] = text
        elif kind == "chat":
            who, what = heard(data)
            text = f"<{who}> {what}"
        elif kind == "refused":
            text = f"refused from participant {data['who']}: {data['why']}"
        else:
            return
        print(clean_text(text, 2000), file=out, flush=True)

    return show


def make_host(*, variant: str, seats: int, bots: int, options: dict[str, Any] | None, host_plays: bool = False,
              resume: bool = False, save: str | None = None, **settings: Any) -> ResumableHost | None:
    """The command line's sealed host (the user's key, the transcript in its usual place, a save for
    ``--resume``; ``host_plays``: the host's person at seat 0), or (``resume``) the saved one; None,
    with the reason printed, for an exit status of 2."""
    from .resume import NothingToResume, load

    if resume:
        try:
            return load(Path(save) if save else None)
        except NothingToResume as e:
            print(f"uno-tui host: --resume: {e}", file=sys.stderr)
            return None
    checked = table_settings(variant, seats, bots, options, host_plays=host_plays)
    if checked is None:
        return None
    people = seats - bots - (1 if host_plays else 0)
    try:
        return ResumableHost(identity=Identity.load(), variant=variant, seats=seats, people=people,
                             options=checked or None, transcript_dir=default_transcript_dir(), save_file=save,
                             **({"host_seats": (0,), "host_person": True} if host_plays else {}), **settings)
    except ValueError as e:
        print(f"uno-tui host: {e}", file=sys.stderr)
        return None


async def open_table(host: SealedHost, bind: str, port: int | None, mdns: bool = False) -> list[str] | None:
    """Listen, and (``mdns``) announce the table on the LAN (:meth:`close_table` withdraws it); the lines
    that tell players how to join (None, with the reason printed, if it cannot listen)."""
    want = DEFAULT_PORT if port is None else port
    if isinstance(host, ResumableHost) and host.resumed and port is None:
        want = host.port  # where its players' clients are connecting again
    try:
        got = await host.start(bind, want)
    except OSError as e:
        print(f"uno-tui host: {listen_error(bind, want, e)}", file=sys.stderr)
        return None
    lines = join_lines(host, bind, got)
    if mdns:
        from . import lan

        props = lan.properties(host.identity.public, host.variant, host.seats, host.password is not None)
        host.advertisement, note = await lan.advertise(host.name, got, bind, props)
        lines.append(note + ("; players find it with: uno-tui join" if host.advertisement is not None else ""))
    return lines


async def close_table(host: SealedHost) -> None:
    """Withdraw the table's announcement, if it made one, and close it."""
    ad, host.advertisement = host.advertisement, None
    if ad is not None:
        await ad.close()
    await host.close()


def run_sealed_host(*, variant: str, seats: int, bots: int, rounds: int | None = None,
                    options: dict[str, Any] | None = None, bot_level: str = "normal", bind: str = "0.0.0.0",
                    port: int | None = None, out: TextIO | None = None, password: str | None = None,
                    name: str = "Host", grace: float = 30.0, turn_timer: float | None = None,
                    mdns: bool = False, resume: bool = False, save: str | None = None, record: str | None = None,
                    **_ignored: Any) -> int:
    out = out or sys.stdout
    problem = check_record(record)
    if problem is not None:
        print(f"uno-tui host: {problem}", file=sys.stderr)
        return 2
    host = make_host(variant=variant, seats=seats, bots=bots, options=options, rounds=rounds, bot_level=bot_level,
                     password=password, name=name, grace=grace, turn_timer=turn_timer, resume=resume, save=save)
    if host is None:
        return 2
    host.listeners.append(printer(out))

    async def serve() -> int:
        lines = await open_table(host, bind, port, mdns)
        if lines is None:
            return 1
        for line in lines:
            print(line, file=out, flush=True)
        if host.resumed:
            g = host._start or {}
            print(f"resumed the saved sealed match ({len(host.log)} entries of its log); waiting for "
                  f"{', '.join(n for n, o in zip(g.get('names', []), g.get('owners', [])) if o) or 'nobody'} "
                  "to reconnect", file=out, flush=True)
        else:
            print(lobby_text(host.lobby()), file=out, flush=True)
        try:
            peer = await host.run()
        except Alarm as a:
            host.forget()
            print(alarm_text(a), file=out)
            return 1
        finally:
            await close_table(host)
            print(transcript_line(host.transcript), file=out)
            wrote = write_record(host, record)
            if wrote is not None:
                print(wrote, file=out)
        host.forget()
        return report(peer, out)

    tune_gc()  # as the open host does: no collector pass in the middle of a move
    try:
        return asyncio.run(serve())
    except KeyboardInterrupt:
        return 130


def table_address(address: str, command: str) -> tuple[str, int, str | None] | None:
    """``host[:port]`` or ``uno://host:port#FP`` as ``(host, port, fingerprint)``; None, with what is
    wrong printed, for an exit status of 2."""
    try:
        where, port = parse_address(address)
        _, fp = split_fingerprint(address)
    except ValueError as e:
        print(f"uno-tui {command}: {e}", file=sys.stderr)
        return None
    return where, port, fp


def lan_table(command: str, timeout: float = 3.0) -> str | None:
    """The address of the one sealed table on the LAN; None, with why printed (none found, or several:
    the address must be given), for an exit status of 2."""
    from . import lan

    tables, note = asyncio.run(lan.find_tables(timeout))
    if len(tables) == 1:
        print(f"uno-tui {command}: found {tables[0].label()}", flush=True)
        return tables[0].address
    if not tables:
        print(f"uno-tui {command}: {note}", file=sys.stderr)
    else:
        print(f"uno-tui {command}: {len(tables)} sealed tables on the LAN; give the ADDRESS of one:\n"
              + "\n".join(f"  {t.address}   {t.label()}" for t in tables), file=sys.stderr)
    return None


def run_sealed_bot(address: str | None, *, level: str | None = None, name: str = "Bot", out: TextIO | None = None,
                   password: str | None = None) -> int:
    out = out or sys.stdout
    if address is None:
        address = lan_table("bot")
        if address is None:
            return 2
    found = table_address(address, "bot")
    if found is None:
        return 2
    where, port, fp = found
    client = SealedClient(bot_level=level, name=name, password=password, transcript_dir=default_transcript_dir(),
                          matches=None)

    async def play() -> int:
        try:
            peer = await client.run(where, port, fp)
        except Alarm as a:
            print(f"uno-tui bot: {alarm_text(a)}", file=out)
            return 1
        except (OSError, NetError) as e:
            why = f"cannot join {address}: {e}" if isinstance(e, NetError) else connect_error(address, e)
            print(f"uno-tui bot: {why}", file=sys.stderr)
            return 1
        finally:
            if client.transcript is not None:
                print(transcript_line(client.transcript), file=out)
        return report(peer, out)

    tune_gc()  # as the open bot client does
    try:
        return asyncio.run(play())
    except KeyboardInterrupt:
        return 130
