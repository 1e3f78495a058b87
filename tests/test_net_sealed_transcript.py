"""A sealed table's transcript (the host's and each client's copy of the signed log) and ``uno-tui audit``
of one: a clean match verifies, a file altered or cut is found out, a false claim is named."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import msgpack

from net.commands import main as net_main
from net.sealing import SealedClient, SealedHost, SealedPeer
from net.sealing.transcript import MAGIC, audit_path
from net.transcript import FAILED, INCOMPLETE, NOT_A_TRANSCRIPT, VERIFIED


def played(tmp: Path, *, rounds: int = 2, client_class: type[SealedPeer] = SealedPeer,
           **host_kw: Any) -> tuple[SealedHost, list[SealedClient]]:
    async def main() -> tuple[SealedHost, list[SealedClient]]:
        host = SealedHost(variant="classic", seats=3, people=2, rounds=rounds, transcript_dir=tmp / "host", **host_kw)
        port = await host.start()
        clients = [SealedClient(transcript_dir=tmp / "ann", name="Ann", peer_class=client_class),
                   SealedClient(transcript_dir=tmp / "bo", name="Bo")]
        try:
            await asyncio.wait_for(asyncio.gather(host.run(), *[c.run("127.0.0.1", port) for c in clients],
                                                  return_exceptions=True), 120)
        finally:
            await host.close()
        return host, clients

    return asyncio.run(main())


def records(path: Path) -> list[Any]:
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=False)
    unpacker.feed(path.read_bytes()[len(MAGIC):])
    return list(unpacker)


def rewrite(path: Path, values: list[Any]) -> None:
    path.write_bytes(MAGIC + b"".join(msgpack.packb(v, use_bin_type=True) for v in values))


def test_every_copy_of_a_clean_match_verifies_and_holds_the_same_log(tmp_path: Path) -> None:
    host, clients = played(tmp_path)
    paths = [host.transcript.path] + [c.transcript.path for c in clients]  # type: ignore[union-attr]
    for path in paths:
        result = audit_path(path)
        assert result.status == VERIFIED and result.rounds == 2, result.text
        assert "every pass, share, envelope and claim checked" in result.text
        assert net_main(["audit", str(path)]) == VERIFIED
    logs = [records(p)[1:] for p in paths]
    assert logs[0] == logs[1] == logs[2] == host.log


def test_an_altered_or_cut_transcript_is_found_out(tmp_path: Path, capsys: Any) -> None:
    host, _ = played(tmp_path)
    path = host.transcript.path  # type: ignore[union-attr]
    values = records(path)
    # One byte of a signed message changed: its signature no longer holds.
    forged = [dict(v) for v in values]
    k = len(forged) // 2
    forged[k]["m"] = bytes([forged[k]["m"][0] ^ 1]) + forged[k]["m"][1:]
    rewrite(path.with_name("forged.unosx"), forged)
    bad = audit_path(path.with_name("forged.unosx"))
    assert bad.status == FAILED and "did not sign" in bad.text, bad.text
    # An entry dropped: the walk finds a message out of its place (or the log cut short).
    dropped = values[:k] + values[k + 1:]
    rewrite(path.with_name("dropped.unosx"), dropped)
    assert audit_path(path.with_name("dropped.unosx")).status in (FAILED, INCOMPLETE)
    # Cut in the second round: the first round still verifies, and the audit says where it ends.
    first_end = max(i for i, v in enumerate(values[1:], start=1)
                    if msgpack.unpackb(v["m"], raw=False).get("k") == "sverdict"
                    and msgpack.unpackb(v["m"], raw=False).get("r") == 0)
    cut = path.with_name("cut.unosx")
    cut.write_bytes(path.read_bytes()[:len(MAGIC) + sum(len(msgpack.packb(v, use_bin_type=True))
                                                         for v in values[:first_end + 5])] + b"\xc4")
    result = audit_path(cut)
    assert result.status == VERIFIED and result.rounds == 1 and "before the match does" in result.text, result.text
    cut.write_bytes(path.read_bytes()[:len(MAGIC) + 40])
    assert audit_path(cut).status == INCOMPLETE
    # A sealed file of another version, and no file at all.
    rewrite(path.with_name("v9.unosx"), [{**values[0], "v": 9}])
    assert audit_path(path.with_name("v9.unosx")).status == NOT_A_TRANSCRIPT
    assert net_main(["audit", str(path.with_name("none.unosx"))]) == NOT_A_TRANSCRIPT


def test_a_false_claim_in_a_transcript_is_named_by_its_audit(tmp_path: Path) -> None:
    from test_net_sealed_doubles import Liar

    # Two rounds now and then offer no lie (the deal is fresh every match): play again until one does.
    for attempt in range(4):
        Liar.lied = []
        host, _ = played(tmp_path / str(attempt), rounds=2, client_class=Liar,
                         options={"draw_until_playable": True, "no_bluff": True})
        if Liar.lied:
            break
    assert Liar.lied, "the liar found no lie to tell"
    result = audit_path(host.transcript.path)  # type: ignore[union-attr]
    assert result.status == FAILED and result.code == "claim" and "(Ann) made a false claim" in result.text, result


def test_a_voided_match_verifies_the_rounds_before_the_void(tmp_path: Path) -> None:
    from test_net_sealed_room import Slow

    async def main() -> SealedHost:
        host = SealedHost(variant="classic", seats=2, people=1, rounds=2, grace=0.05, transcript_dir=tmp_path)
        port = await host.start()
        client = SealedClient(peer_class=Slow)
        joined = asyncio.ensure_future(client.run("127.0.0.1", port))
        running = asyncio.ensure_future(host.run())
        while client.peer is None or getattr(client.peer, "game", None) is None:
            await asyncio.sleep(0.005)
        joined.cancel()
        await asyncio.gather(running, return_exceptions=True)
        await host.close()
        return host

    host = asyncio.run(main())
    result = audit_path(host.transcript.path)  # type: ignore[union-attr]
    assert result.status == INCOMPLETE and "round 1 is void" in result.text, result.text
