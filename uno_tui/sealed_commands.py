"""``uno-tui host`` and ``uno-tui join`` at a sealed table: the waiting room, then the table, on this screen.

The table itself is :class:`uno_tui.sealed_session.SealedSession` over a peer; the waiting room is
:class:`uno_tui.sealed_lobby.SealedApp`; the host and the client are :mod:`net.sealing`'s.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, Any

from .sealed_session import ScreenPeer

if TYPE_CHECKING:
    from net.identity import Identity


def _close_on_error(app: Any, playing: "asyncio.Future[Any]") -> None:
    """The table stopping on an error (an alarm, a void round, a refused join) closes the screen, and
    the command says why on the terminal."""
    def stopped(task: "asyncio.Future[Any]") -> None:
        if not task.cancelled() and task.exception() is not None:
            with contextlib.suppress(Exception):
                app.exit()

    playing.add_done_callback(stopped)


async def _on_screen(app: Any, playing: "asyncio.Future[Any]") -> None:
    """Run ``app`` (a :class:`~uno_tui.sealed_lobby.SealedApp`: the waiting room, then the table) while
    ``playing`` runs the table."""
    _close_on_error(app, playing)
    await app.run_async()


def identity_at(host_fp: str | None) -> Identity:
    """The key this account joins a sealed table with: its own, or, at a table this account hosts
    (``host`` in one terminal, ``join`` in another), a second key of its own kept for that. A
    sealed table's participants are its keys, and the host's is there already."""
    from net.identity import Identity, config_dir, fingerprint

    mine = Identity.load()
    if host_fp and fingerprint(mine.public).startswith(host_fp.lower()):
        return Identity.load(config_dir() / "own-tables")
    return mine


def run_sealed_join(address: str | None, *, spectate: bool = False, english: bool = False, name: str | None = None,
                    password: str | None = None, _door: list[BaseException] | None = None,
                    **_ignored: object) -> int:
    """``uno-tui join ADDRESS``: take a seat at a sealed table (the default; ``--trusted-host`` joins an
    open host's) and play it on this screen (the waiting room first, then the table; it stays for the
    host's rematches); 0 when the match ends with every audit clean."""
    import sys

    from net.address import connect_error
    from net.errors import NetError
    from net.identity import KnownHosts
    from net.sealing import Alarm, SealedClient
    from net.sealing.restart import SecretsLost
    from net.sealing.serve import alarm_text, table_address, transcript_line
    from net.transcript import default_transcript_dir

    from .netplay.app import default_name
    from .sealed_lobby import SealedApp, SealedRoom
    from .session import TableConfig

    if not address:
        return _join_from_lan(spectate=spectate, english=english, name=name, password=password)
    found = table_address(address, "join")
    if found is None:
        return 2
    where, port, fp = found
    # The user's own key and a folder of round secrets: a player who closed the terminal and joins
    # again is let back into its seat and catches up from the log (tests/test_net_sealed_crash.py).
    keep = default_transcript_dir().parent / "sealed-secrets"
    keep.mkdir(parents=True, exist_ok=True)
    client = SealedClient(identity_at(fp), peer_class=ScreenPeer, spectator=spectate, name=name or default_name(),
                          password=password, transcript_dir=default_transcript_dir(), save_path=keep, matches=None,
                          known_hosts=KnownHosts())
    room = SealedRoom(where=f"at {address}", say=client.say, spectator=spectate)
    room.note("Connecting to the sealed table: nobody, its host included, sees a card before the rules show it.")
    client.listeners.append(room.heard)

    async def main() -> int:
        playing = asyncio.ensure_future(client.run(where, port, fp))
        await _on_screen(SealedApp(room, lambda: client.peer, config=TableConfig(english=english)), playing)
        if not playing.done():
            playing.cancel()
            if not client.played or client.played[-1] is not client.peer:
                print("uno-tui join: you left the sealed table (once the host's grace is over, a round under "
                      "way is void: your keys left with you)", file=sys.stderr)
                return 1
            peer = client.played[-1]  # left between matches: the last one is whole
        else:
            peer = playing.result()
        bad = [v for v in peer.verdicts if not v["ok"]]
        print(f"every audit of {len({v['r'] for v in peer.verdicts})} round(s): " + ("clean" if not bad else
              "; ".join(f"seat {s}: {w}" for v in bad for s, w in v["false"])))
        return 1 if bad else 0

    try:
        return asyncio.run(main())
    except Alarm as a:
        print(f"uno-tui join: {alarm_text(a)}", file=sys.stderr)
        return 1
    except SecretsLost as e:
        print(f"uno-tui join: {e}", file=sys.stderr)
        return 1
    except (OSError, NetError) as e:
        if _door is not None and client.peer is None:  # refused at the door: the LAN list says why
            _door.append(e)
            return 1
        why = f"cannot join {address}: {e}" if isinstance(e, NetError) else connect_error(address, e)
        print(f"uno-tui join: {why}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    finally:
        if client.transcript is not None:
            print(transcript_line(client.transcript))


def _join_from_lan(*, password: str | None, **options: Any) -> int:
    """``uno-tui join`` without an address: pick a sealed table on the LAN (or type an address), then join
    it; a join refused at the door (a fingerprint that does not match, a wrong password, a full table,
    nobody listening) comes back to the list with the reason, typing going to the address box."""
    from net.address import connect_error
    from net.errors import NetError
    from net.identity import KnownHosts
    from net.secure import HandshakeError

    from .sealed_picker import PickerApp, sealed_browse

    browse, address, error, ask = sealed_browse(KnownHosts()), "", "", False
    while True:
        picked = PickerApp(browse, address=address, error=error, ask_password=ask).run()
        if picked is None:
            return 0
        address, typed = picked
        password = typed if typed is not None else password
        door: list[BaseException] = []
        status = run_sealed_join(address, password=password, _door=door, **options)
        if not door:
            return status
        e = door[0]
        code = getattr(e, "code", "")
        ask = code in ("password", "no_password")
        error = f"{e}" if isinstance(e, (HandshakeError, NetError)) else connect_error(address, e)
        browse = None if ask else browse  # a password to type: the list would take the focus from it


def run_sealed_host_screen(*, variant: str, seats: int, bots: int, rounds: int | None = None,
                           options: dict[str, object] | None = None, bot_level: str = "normal",
                           bind: str = "0.0.0.0", port: int | None = None, english: bool = False,
                           name: str | None = None, password: str | None = None, grace: float = 30.0,
                           turn_timer: float | None = None, mdns: bool = False, resume: bool = False,
                           save: str | None = None, record: str | None = None, **_ignored: object) -> int:
    """``uno-tui host``: host a sealed table and play seat 0 at this screen (the host's bots take the
    last ``bots`` seats; people with ``uno-tui join`` or bot clients the rest). Until the deal the
    screen shows the waiting room and the chat; s (or b) deals at once, the open seats to bots; r at
    the match's end deals a rematch."""
    import sys

    from net.sealing import Alarm
    from net.sealing.serve import (alarm_text, check_record, close_table, make_host, open_table, transcript_line,
                                   write_record)

    from .sealed_lobby import SealedApp, SealedRoom
    from .session import TableConfig

    problem = check_record(record)
    if problem is not None:
        print(f"uno-tui host: {problem}", file=sys.stderr)
        return 2
    host = make_host(variant=variant, seats=seats, bots=bots, options=options, host_plays=True, rounds=rounds,
                     bot_level=bot_level, name=name or "Host", password=password, grace=grace, turn_timer=turn_timer,
                     resume=resume, save=save)
    if host is None:
        return 2
    room = SealedRoom(where="", say=host.say, start_now=host.start_now)
    host.listeners.append(room.heard)

    async def main() -> int:
        lines = await open_table(host, bind, port, mdns)
        if lines is None:
            return 1
        room.where = lines[1].split("   (bots")[0]
        room.note(lines[0][:1].upper() + lines[0][1:] + ".")
        for line in lines[2:]:  # the LAN announcement, or why there is none
            room.note(line[:1].upper() + line[1:] + ".")
        room.heard("lobby", host.lobby())
        if host.resumed:
            room.note("Resumed the saved match: the players' clients connect again by themselves, and the "
                      "round goes on where it was.")
        runs = [asyncio.ensure_future(host.run())]
        app = SealedApp(room, lambda: host.peer, config=TableConfig(english=english))

        def again() -> None:  # the host's r at the match's end: the same people, a new match
            host.rematch()
            runs.append(asyncio.ensure_future(host.run()))
            _close_on_error(app, runs[-1])

        app.rematch = again
        try:
            await _on_screen(app, runs[0])
            running = runs[-1]
            if not running.done():
                print("uno-tui host: you left the sealed table; a round under way cannot go on without you",
                      file=sys.stderr)
                return 1
            running.result()
            host.forget()
            return 0
        finally:
            for running in runs:
                running.cancel()
            await close_table(host)
            if host.transcript is not None:
                print(transcript_line(host.transcript))
            wrote = write_record(host, record)
            if wrote is not None:
                print(wrote)

    try:
        return asyncio.run(main())
    except Alarm as a:
        host.forget()  # the match stopped on it: there is nothing to go on with
        print(f"uno-tui host: {alarm_text(a)}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"uno-tui host: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
