"""``uno-tui audit``: whole transcripts verify; removed, repeated, foreign or cut records do not.

Every transcript here comes from a real game over loopback sockets, then is
edited as a tamperer would. Each edit is tried twice: as it is (the writer's
seal no longer covers the records: status 1) and sealed again with the
player's own key (so the completeness checks alone must catch it: a player
cannot doctor their own evidence either). A transcript cut short, or one
whose writer crashed, is incomplete (status 3), never a fraud.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import msgpack
import pytest

from net import BotClient, Client
from net.commands import main as net_main
from net.fair import ZERO, entry_hash, unpack
from net.identity import Identity
from net.testing import start_host
from net.transcript import (FAILED, INCOMPLETE, NOT_A_TRANSCRIPT, TAG_SEAL, VERIFIED, AuditResult, audit_path,
                            chain_step, parse, seal_message)


@dataclass
class Played:
    player: Path
    """The player's transcript of a 2-round game."""
    host: Path
    other_game: Path
    """The same player's transcript of another game, played after the first."""
    identity: Identity
    record: Path
    """The host's JSON moves record of the first game."""


async def _game(base: Path, name: str, identity: Identity) -> tuple[Path, Path, Any]:
    host = await start_host(seats=2, bots=1, rounds=2, transcript_dir=str(base / f"{name}-host"),
                            identity=Identity.generate())
    try:
        b = BotClient(("127.0.0.1", host.port), "P", seed=7, identity=identity, config_dir=str(base / "config"),
                      transcript_dir=str(base / name))
        assert await asyncio.wait_for(b.run(), 30) == 0
        hpath = Path(host.transcript_path or "")
        record = host.record
    finally:
        await host.close()
    assert b.client.transcript_path is not None
    return b.client.transcript_path, hpath, record


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """Two real games, once for the module: every test below edits copies of their transcripts."""
    base = tmp_path_factory.mktemp("played")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("UNO_TUI_CONFIG_DIR", str(base / "config"))
        mp.setenv("XDG_STATE_HOME", str(base / "state"))
        identity = Identity.generate()

        async def both() -> Played:
            t1, h1, record = await _game(base, "first", identity)
            t2, _h2, _ = await _game(base, "second", identity)
            moves = base / "moves.json"
            record.write_json(moves)
            return Played(t1, h1, t2, identity, moves)

        return asyncio.run(both())


# -- editing a transcript -------------------------------------------------------------------------
def raws(path: Path) -> list[bytes]:
    return parse(path.read_bytes()).raws


def rec(raw: bytes) -> dict[str, Any]:
    return msgpack.unpackb(raw, raw=False)


def resealed(records: list[bytes], identity: Identity) -> bytes:
    """The records without their seals, sealed again at the end as the writer would: the owner's own edit."""
    kept = [r for r in records if rec(r)["t"] != "seal"]
    chain = ZERO
    for r in kept:
        chain = chain_step(chain, r)
    n = len(kept)
    seal = msgpack.packb({"t": "seal", "why": "left", "n": n, "chain": chain,
                          "sig": identity.sign(TAG_SEAL, seal_message(chain, n, "left"))}, use_bin_type=True)
    return b"".join(kept) + seal


def audit_bytes(tmp_path: Path, data: bytes) -> AuditResult:
    path = tmp_path / "edited.unotx"
    path.write_bytes(data)
    return audit_path(path)


def both_ways(tmp_path: Path, played: Played, records: list[bytes]) -> tuple[AuditResult, AuditResult]:
    """The edited records as they are, and sealed again by the player."""
    return (audit_bytes(tmp_path, b"".join(records)), audit_bytes(tmp_path, resealed(records, played.identity)))


def logged_messages(records: list[bytes]) -> set[bytes]:
    """Every byte string inside the log entries (a signed message copied into the log is one of them)."""
    out: set[bytes] = set()

    def walk(v: Any) -> None:
        if isinstance(v, bytes):
            out.add(v)
        elif isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    for r in records:
        d = rec(r)
        if d["t"] == "log":
            walk(unpack(d["e"]))
    return out


def receipted(records: list[bytes]) -> set[bytes]:
    """The hashes of the deliveries this seat's receipts in the log name."""
    out = set()
    for m in logged_messages(records):
        with contextlib.suppress(Exception):
            md = unpack(m)
            if isinstance(md, dict) and md.get("k") == "rcpt":
                out.add(md["x"])
    return out


def kinds_sent(records: list[bytes]) -> Iterator[tuple[int, str]]:
    for i, r in enumerate(records):
        d = rec(r)
        if d["t"] == "sent":
            yield i, unpack(d["m"])["k"]


# -- honest transcripts ------------------------------------------------------------------------------
def test_an_honest_transcript_is_sealed_and_verifies(played: Played) -> None:
    records = raws(played.player)
    assert rec(records[-1])["t"] == "seal" and rec(records[-1])["why"] in ("over", "left")
    for path in (played.player, played.host, played.other_game):
        result = audit_path(path)
        assert result.status == VERIFIED and result.rounds == 2, result
    assert net_main(["audit", str(played.player)]) == 0


# -- removed records --------------------------------------------------------------------------------
def test_a_removed_sent_record_is_caught(tmp_path: Path, played: Played) -> None:
    records = raws(played.player)
    in_log = logged_messages(records)
    tried = set()
    for i, kind in kinds_sent(records):
        if kind in tried or rec(records[i])["m"] not in in_log:
            continue  # one of each kind the log holds: seed, ack, reveal, intent, receipt, verdict
        tried.add(kind)
        edited = records[:i] + records[i + 1:]
        raw, sealed = both_ways(tmp_path, played, edited)
        assert raw.status == FAILED, (kind, raw)
        assert sealed.status == FAILED and "no `sent` record" in sealed.text, (kind, sealed)
    assert {"seed", "ack", "reveal", "intent", "rcpt"} <= tried


def test_a_removed_delivery_is_caught(tmp_path: Path, played: Played) -> None:
    records = raws(played.player)
    names = receipted(records)
    found = 0
    for i, r in enumerate(records):
        d = rec(r)
        if d["t"] != "deliver" or entry_hash(d["m"]) not in names:
            continue
        found += 1
        raw, sealed = both_ways(tmp_path, played, records[:i] + records[i + 1:])
        assert raw.status == FAILED, raw
        assert sealed.status == FAILED and "receipt" in sealed.text, sealed
    assert found >= 2  # a deal in each round


# -- repeated records --------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["sent", "deliver", "log"])  # a ruling is checked as a delivery is
def test_a_repeated_record_is_caught(tmp_path: Path, played: Played, kind: str) -> None:
    records = raws(played.player)
    i = next(i for i, r in enumerate(records) if rec(r)["t"] == kind)
    for j in (i + 1, len(records) - 1):  # right after itself, and just before the seal
        edited = records[:j] + [records[i]] + records[j:]
        raw, sealed = both_ways(tmp_path, played, edited)
        assert raw.status == FAILED, raw
        assert sealed.status == FAILED, sealed
        assert "repeat" in sealed.text or "twice" in sealed.text or "chain" in sealed.text, sealed


# -- foreign records ---------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["sent", "deliver"])
def test_another_games_records_spliced_in_are_caught(tmp_path: Path, played: Played, kind: str) -> None:
    records = raws(played.player)
    other = [r for r in raws(played.other_game) if rec(r)["t"] == kind]
    assert other
    for r in (other[0], other[-1]):
        edited = records[:-1] + [r] + records[-1:]  # just before the seal: its counter is the newest
        raw, sealed = both_ways(tmp_path, played, edited)
        assert raw.status == FAILED, raw
        assert sealed.status == FAILED and "belongs to another" in sealed.text, sealed


def test_records_moved_out_of_order_are_caught(tmp_path: Path, played: Played) -> None:
    records = raws(played.player)
    sent = [i for i, _ in kinds_sent(records)]
    i = sent[len(sent) // 2]
    edited = records[:i] + records[i + 1:-1] + [records[i]] + records[-1:]
    raw, sealed = both_ways(tmp_path, played, edited)
    assert raw.status == FAILED and sealed.status == FAILED, (raw, sealed)


# -- cut short -----------------------------------------------------------------------------------------
def test_a_transcript_cut_short_is_incomplete_never_verified(tmp_path: Path, played: Played) -> None:
    records = raws(played.player)
    data = b"".join(records)
    bounds = [k for k in range(1, len(records)) if rec(records[k - 1])["t"] != "seal"]
    for k in bounds[:: max(1, len(bounds) // 25)] + [bounds[-1]]:
        result = audit_bytes(tmp_path, b"".join(records[:k]))
        assert result.status == INCOMPLETE, (k, result)
    assert audit_bytes(tmp_path, data[:-1]).status == INCOMPLETE  # inside the seal
    assert audit_bytes(tmp_path, data[: len(records[0]) // 2]).status == INCOMPLETE  # inside the header
    assert audit_bytes(tmp_path, b"").status == INCOMPLETE
    cut = tmp_path / "cut.unotx"
    cut.write_bytes(b"".join(records[:-1]))
    assert net_main(["audit", str(cut)]) == 3
    # Junk after the seal is not a cut: it is a broken file.
    assert audit_bytes(tmp_path, data + b"\xc1").status == FAILED


def test_a_seal_with_a_wrong_count_or_key_fails(tmp_path: Path, played: Played) -> None:
    records = raws(played.player)
    stranger = Identity.generate()
    assert audit_bytes(tmp_path, resealed(records, stranger)).status == FAILED
    seal = rec(records[-1])
    seal["n"] -= 1
    assert audit_bytes(tmp_path, b"".join(records[:-1]) + msgpack.packb(seal, use_bin_type=True)).status == FAILED


def test_an_older_unsealed_format_is_incomplete(tmp_path: Path, played: Played) -> None:
    records = raws(played.player)
    head = rec(records[0])
    del head["n0"]
    head["v"] = 2
    old = [msgpack.packb(head, use_bin_type=True)] + [r for r in records[1:] if rec(r)["t"] != "seal"]
    result = audit_bytes(tmp_path, b"".join(old))
    assert result.status == INCOMPLETE and "older" in result.text and result.rounds == 2, result


# -- not a transcript ----------------------------------------------------------------------------------
def test_a_moves_record_or_a_missing_file_is_not_a_transcript(tmp_path: Path, played: Played,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    result = audit_path(played.record)
    assert result.status == NOT_A_TRANSCRIPT and "this is a moves record, not a transcript" in result.text
    assert net_main(["audit", str(played.record)]) == 2
    assert "moves record" in capsys.readouterr().err
    assert net_main(["audit", str(tmp_path / "nothing.unotx")]) == 2
    assert net_main(["audit", str(tmp_path)]) == 2  # a directory
    err = capsys.readouterr().err
    assert "cannot read" in err and "Traceback" not in err


# -- honest ends that are not the match's end -------------------------------------------------------
class Crashes(Client):
    """A client whose process dies: no goodbye, no seal, and what was not yet on disk is lost."""

    async def close(self) -> None:
        self._closing = True
        if self._transcript is not None:
            self._transcript._f.close()  # the records of the last frame, still in memory, are lost
        self.kill_link()
        if self._task is not None:
            self._task.cancel()
        self._done.set()


async def test_a_crash_is_incomplete_and_the_rejoined_transcript_verifies(tmp_path: Path) -> None:
    host = await start_host(seats=2, bots=1, rounds=2, bot_delay=0.01, grace=30.0)
    me = Identity.generate()
    applied = 0
    moved = asyncio.Event()

    def count(msg: dict[str, Any]) -> None:  # our own intents, applied
        nonlocal applied
        if msg["type"] == "update" and "seq" in msg:
            applied += 1
            if applied >= 3:
                moved.set()

    try:
        first = BotClient(("127.0.0.1", host.port), "P", seed=3, transcript_dir=False)
        first.client = Crashes(("127.0.0.1", host.port), "P", identity=me, transcript_dir=str(tmp_path / "a"),
                               on_message=count)
        task = asyncio.ensure_future(first.run())
        await asyncio.wait_for(moved.wait(), 20)  # a few signed intents into the first round: the process dies
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        crashed = first.client.transcript_path
        token = first.client.token
        assert crashed is not None and token is not None
        again = BotClient(("127.0.0.1", host.port), "P", seed=3, identity=me, token=token,
                          transcript_dir=str(tmp_path / "b"))
        assert await asyncio.wait_for(again.run(), 30) == 0
    finally:
        await host.close()
    result = audit_path(crashed)
    assert result.status == INCOMPLETE, result  # not a fraud: the crash is the writer's, not the host's
    # The new session's file begins with the whole log, the first session's intents included: those
    # have no `sent` records here, and need none (they were signed before this file began).
    rejoined = audit_path(again.client.transcript_path or "")
    assert rejoined.status == VERIFIED and rejoined.rounds == 2, rejoined
    assert "from an earlier session" in rejoined.text


async def test_leaving_mid_match_verifies_what_was_seen_and_a_round_less_file_is_incomplete(tmp_path: Path) -> None:
    host = await start_host(seats=2, bots=1, rounds=3, bot_delay=0.01)
    watching, second_round = asyncio.Event(), asyncio.Event()
    audited = False

    def on_player(msg: dict[str, Any]) -> None:  # a move of ours applied after round 1's audit
        nonlocal audited
        audited = audited or msg["type"] == "audit"
        if audited and msg["type"] == "update" and "seq" in msg:
            second_round.set()

    try:
        watcher = Client(("127.0.0.1", host.port), "W", spectate=True, identity=Identity.generate(),
                         transcript_dir=str(tmp_path / "w"),
                         on_message=lambda m: watching.set() if m["type"] == "update" else None)
        player = BotClient(("127.0.0.1", host.port), "P", seed=5, identity=Identity.generate(),
                           transcript_dir=str(tmp_path / "p"), on_message=on_player)
        task = asyncio.ensure_future(player.run())
        await watcher.connect()
        await asyncio.wait_for(watching.wait(), 20)
        await watcher.close()  # it saw the match begin, and no round close
        await asyncio.wait_for(second_round.wait(), 20)
        task.cancel()  # the player leaves in round 2: its client says goodbye and seals
        with contextlib.suppress(asyncio.CancelledError):
            await task
    finally:
        await host.close()
    result = audit_path(player.client.transcript_path or "")
    assert result.status == VERIFIED and result.rounds == 1, result
    assert "round 2 was still being played" in result.text and "left" in result.text
    seen = audit_path(watcher.transcript_path or "")
    assert seen.status == INCOMPLETE and "no round" in seen.text, seen


def test_the_hosts_old_transcript_option_names_its_new_name(capsys: pytest.CaptureFixture[str]) -> None:
    from uno_tui.cli import build_parser, main as cli_main

    for run in (net_main, cli_main):
        assert run(["host", "--headless", "--transcript", "game.json"]) == 2
        err = capsys.readouterr().err
        assert "--record" in err and "Traceback" not in err
    assert build_parser().parse_args(["host", "--record", "game.json"]).record == "game.json"
