"""An honest host killed with SIGKILL and resumed raises no false alarm (issue 13, item 15).

The headless host runs in a subprocess (``python -m net host --headless``),
killed between rounds, in the middle of a round, and in the middle of a deal
while one player's process is stopped (SIGSTOP), then resumed with
``--resume``. Every audit at the table and offline must verify, nobody is
struck, and the resumed host waits for the seated people before it deals.
The players are honest :class:`net.BotClient`\\ s in the test's process (one
is ``python -m net bot`` in a process of its own, to be stopped).
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

from net import BotClient
from net.fair import unpack
from net.persistence import read_log_file
from net.identity import Identity
from net.save import read_save
from net.testing import HostProcess
from net.transcript import audit_file


def common(tmp: Path, *extra: str) -> list[str]:
    return ["--bind", "127.0.0.1", "--save", str(tmp / "host.save"), "--bot-delay", "0.005", "--no-mdns",
            "--heartbeat", "0.5", "--option", "target_score=100000", *extra]


def players(port: int, tmp: Path, n: int) -> list[BotClient]:
    return [BotClient(("127.0.0.1", port), f"P{i}", seed=i, delay=0.005, reconnect_for=30,
                      identity=Identity.generate(), transcript_dir=str(tmp / f"p{i}")) for i in range(n)]


async def until(cond: Callable[[], Any], timeout: float = 20.0) -> None:
    async with asyncio.timeout(timeout):
        while not cond():
            await asyncio.sleep(0.01)


def log_of(tmp: Path) -> list[dict[str, Any]]:
    """The host's log as its last save counts it."""
    fair = read_save(tmp / "host.save")["fair"]
    return [unpack(e) for e, _sig in read_log_file(str(tmp / "host.save") + ".log", int(fair["log_len"]))]


def assert_no_false_alarm(bots: list[BotClient], log: list[dict[str, Any]], lines: list[str],
                          rounds: int) -> None:
    for b in bots:
        assert b.client.fairness is None, b.client.fairness
        assert [a["round"] for a in b.client.audits if a["ok"]] == list(range(rounds)), b.client.audits
        ok, text = audit_file(b.client.transcript_path)
        assert ok, text
    assert not [d for d in log if d["k"] in ("strike", "bench", "abort") and d.get("stage") != "restart"]
    verdicts = [unpack(d["m"]) for d in log if d["k"] == "verdict"]
    assert verdicts and all(v["ok"] for v in verdicts)
    assert not [line for line in lines if "FAILED" in line], lines


async def crash_and_resume(tmp: Path, kill_when: Callable[[list[BotClient]], bool], *, rounds: int = 2,
                           first: tuple[str, ...] = (), bots_n: int = 3) -> tuple[list[BotClient], HostProcess]:
    host = HostProcess("--port", "0", "--seats", str(bots_n), "--rounds", str(rounds), *common(tmp, *first))
    again: HostProcess | None = None
    try:
        port = host.wait_port()
        bots = players(port, tmp, bots_n)
        game = asyncio.gather(*(b.run() for b in bots))
        await until(lambda: kill_when(bots))
        host.kill()
        again = HostProcess("--resume", "--port", str(port), *common(tmp, "--round-pause", "0"))
        assert again.wait_port() == port
        assert await asyncio.wait_for(game, 40) == [0] * bots_n
        assert again.finish(15) == 0
        return bots, again
    finally:
        for proc in (host, again):
            if proc is not None and proc.proc.poll() is None:
                proc.kill()


def audited(bots: list[BotClient], r: int) -> bool:
    return all(any(a["round"] == r for a in b.client.audits) for b in bots)


async def test_a_host_killed_between_rounds_resumes_with_every_audit_verified(tmp_path: Path) -> None:
    # A long pause between rounds: the kill comes once every player has audited round 1 and said so.
    bots, again = await crash_and_resume(
        tmp_path, lambda bs: audited(bs, 0) and sum(1 for d in _entries(bs[0]) if d["k"] == "verdict") == 3,
        first=("--round-pause", "30"))
    assert_no_false_alarm(bots, log_of(tmp_path), again.lines, 2)


async def test_a_host_killed_mid_round_resumes_with_every_audit_verified(tmp_path: Path) -> None:
    bots, again = await crash_and_resume(
        tmp_path, lambda bs: all(b.client.observation is not None and b.client.observation["round"] == 1
                                 and b.client.observation["version"] >= 12 for b in bs),
        first=("--round-pause", "0"))
    assert_no_false_alarm(bots, log_of(tmp_path), again.lines, 2)
    assert any("round 2 audit by the host: verified" in line for line in again.lines), again.lines


WAITING = {"commit", "commits", "acks", "hreveal"}
"""The log's last entry while a shuffle waits on a player's answer (:meth:`net.dealer.Dealer.run_epoch`)."""


def _entries(bot: BotClient) -> list[dict[str, Any]]:
    ledger = bot.client.ledger
    return [unpack(e) for e, _sig in ledger.entries] if ledger is not None else []


async def test_a_host_killed_during_a_deal_while_a_player_is_stopped_waits_for_them(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    host = HostProcess("--port", "0", "--seats", "3", "--rounds", "2",
                       *common(tmp_path, "--round-pause", "1", "--grace", "60"))
    again: HostProcess | None = None
    stopped: subprocess.Popen[bytes] | None = None
    try:
        port = host.wait_port()
        bots = players(port, tmp_path, 2)
        game = asyncio.gather(*(b.run() for b in bots))
        stopped = subprocess.Popen([sys.executable, "-m", "net", "bot", "--trusted-host", f"127.0.0.1:{port}", "--name", "Zed"],
                                   env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # Round 1 over, and Zed's verdict on it in the log: then Zed's process is stopped.
        await until(lambda: audited(bots, 0) and sum(d["k"] == "verdict" for d in _entries(bots[0])) == 3)
        os.kill(stopped.pid, signal.SIGSTOP)
        # Round 2's first shuffle is committed; the stopped player cannot answer: kill the host in it.
        # (The pause before round 2 gives the stop a second's start; on a starved machine Zed may
        # still have answered the commitment first, and the attempt then waits one step later.)
        await until(lambda: any(d["k"] == "round" and d["r"] == 1 for d in _entries(bots[0]))
                    and _entries(bots[0])[-1]["k"] in WAITING)
        host.kill()
        again = HostProcess("--resume", "--port", str(port), *common(tmp_path, "--round-pause", "0", "--grace", "60"))
        assert again.wait_port() == port
        # The resumed host waits for the seated people before it deals: nothing until Zed is back.
        await until(lambda: all(b.client.connected for b in bots) and bots[0].links[-1:] == ["restored"])
        await asyncio.sleep(0.5)
        entries = _entries(bots[0])
        # After round 1's last verdict: at most round 2's heading and shuffles called off or waiting,
        # none settled (the crash may have come before the host saved round 2's heading; and Zed, stopped
        # once its verdict was seen, which on a busy machine is a moment later, may have answered the
        # first commitment, so the attempt may have reached the seeds' commitments or the acks).
        since = max(i for i, d in enumerate(entries) if d["k"] == "verdict")
        assert {d["k"] for d in entries[since + 1:]} <= {"round", "abort", *WAITING}, \
            entries[since:]
        os.kill(stopped.pid, signal.SIGCONT)
        assert await asyncio.wait_for(game, 40) == [0, 0]
        assert stopped.wait(20) == 0
        assert again.finish(15) == 0
        assert_no_false_alarm(bots, log_of(tmp_path), again.lines, 2)
        # Zed's own transcript (written by its process) verifies too.
        mine = [p for p in (Path(os.environ["XDG_STATE_HOME"]) / "uno-tui" / "transcripts").glob("*-seat2-*.unotx")]
        assert mine and all(audit_file(p)[0] for p in mine), [audit_file(p) for p in mine]
    finally:
        for proc in (host, again):
            if proc is not None and proc.proc.poll() is None:
                proc.kill()
        if stopped is not None and stopped.poll() is None:
            os.kill(stopped.pid, signal.SIGCONT)
            stopped.kill()
