"""A cheating host against honest players, over loopback: each lie of issue 13 (items 1-8) is caught.

Every dishonest host here is a test double: a subclass of :class:`net.dealer.Dealer`
(named by the host's ``dealer_class``) or of :class:`net.table.Table` that bends
one documented step. The players are the project's own honest
:class:`net.BotClient`; each test says who catches the lie, when, and with
which reason code (the table in ``docs/fairness.md``).
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

from core import Action
from net.dealer import Dealer
from net.fair import HOST_PID, EpochSecret, entry_hash, unpack
from net.host import Host
from net.table import Intent, Table
from net.testing import start_host
from net.transcript import audit_file, read_records
from net_support import bots, entries, failures, listen, play, verified


def humans(table: Host | Table | Dealer) -> list[int]:
    return [s.index for s in table.seats if s.kind == "human"]


# -- 1. a seed exchange without the players ----------------------------------------------------
class SoloDealer(Dealer):
    """Lists only its own seed commitment: it could grind its seed until it likes the deal."""

    def participants(self) -> list[int]:
        return [HOST_PID]


async def test_a_seed_exchange_without_the_players_is_refused_by_every_client(tmp_path: Path) -> None:
    host = await start_host(dealer_class=SoloDealer, seats=3, bots=1, rounds=1)
    try:
        players = bots(host.port, 2, tmp_path)
        heard = [listen(b.client) for b in players]
        await play(players)
        for b, got in zip(players, heard):
            assert b.client.fairness is not None and b.client.fairness["code"] == "parts", b.client.fairness
            assert "between the host, but it must be between the host, P" in b.client.fairness["reason"]
            assert any(m["type"] == "fairness" and m["code"] == "parts" for m in got)  # shown on the table
        assert not host.audits[0]["ok"] and host.audits[0]["code"] == "parts"
        ok, text = audit_file(players[0].client.transcript_path)
        assert not ok and text.startswith("parts:")
    finally:
        await host.close()


# -- 2. a fake restart to deal again after the seeds were revealed ----------------------------------
class RedealingDealer(Dealer):
    """Once the players have revealed the first deal's seeds, says it crashed and deals it again.

    It goes back in its log to before the epoch, cuts every link (the players
    reconnect and are told the log is shorter, as after a real restart) and
    runs the same attempt again, ``times`` times.
    """

    times = 1
    seeds: list[dict[int, bytes]] = []

    async def run_epoch(self, e: int, items: Any) -> EpochSecret:
        mark = len(self.log)
        sec = await super().run_epoch(e, items)
        if e != 0:
            return sec
        reveals = next(d for d in (unpack(x) for x, _s in self.log.entries[mark:]) if d["k"] == "reveals")
        self.seeds.append({pid: unpack(m)["r"] for pid, m, _sig in reveals["set"]})
        if self.times <= 0:
            return sec
        type(self).times -= 1
        del self.log.entries[mark:]
        self.log.head = entry_hash(self.log.entries[-1][0])
        self.log.heads = {entry_hash(x) for x, _s in self.log.entries}
        del self.secrets[e]
        self.round_epochs.remove(sec)
        self.attempts[e] -= 1
        for peer in list(self.outbox.peers):  # (the outbox is the host's gateway: its links, cut)
            peer.close("restarting")
        async with asyncio.timeout(5):
            while any(self.seats[p].peer is not None for p in humans(self)):
                await asyncio.sleep(0.01)
        return await self.run_epoch(e, items)


async def test_one_rewind_past_revealed_seeds_is_reported_and_gets_fresh_seeds() -> None:
    RedealingDealer.times, RedealingDealer.seeds = 1, []
    host = await start_host(dealer_class=RedealingDealer, seats=3, bots=1, rounds=1)
    try:
        players = bots(host.port, 2)
        heard = [listen(b.client) for b in players]
        assert await play(players) == [0, 0]
        first, second = RedealingDealer.seeds
        for b in players:
            # A seed is used for one commitment only: the host learnt nothing it can grind with.
            assert first[b.client.seat] != second[b.client.seat]
            assert verified(b.client, 1), (b.client.fairness, b.client.audits)  # once is what a crash may do
        for got in heard:
            warnings = [m["reason"] for m in got if m["type"] == "security"]
            assert any("went back past a revealed shuffle" in w for w in warnings), warnings
    finally:
        await host.close()


async def test_a_second_rewind_in_a_match_makes_the_clients_stop_and_fails_their_audits(tmp_path: Path) -> None:
    RedealingDealer.times, RedealingDealer.seeds = 2, []
    host = await start_host(dealer_class=RedealingDealer, seats=3, bots=1, rounds=1, grace=0.3)
    try:
        players = bots(host.port, 2, tmp_path)
        heard = [listen(b.client) for b in players]
        assert await play(players) == [1, 1]  # they leave the table
        for b, got in zip(players, heard):
            assert b.client.fairness is not None and b.client.fairness["code"] == "rewind"
            assert not b.client.reconnect
            assert any(m["type"] == "link" and m["state"] == "gave_up" and "stopped playing" in m["reason"]
                       for m in got)
            ok, text = audit_file(b.client.transcript_path)
            assert not ok and text.startswith("rewind:"), text
    finally:
        await host.close()


# -- 3. a person's seat without a key ------------------------------------------------------------
class KeylessDealer(Dealer):
    """Writes the match header with no key for the last person's seat, as if a bot held it."""

    def start_match(self, variant: str, options: dict[str, Any], clocks: dict[str, Any]) -> None:
        victim = max(humans(self))
        keys = [s.identity if s.kind == "human" and s.index != victim else None for s in self.seats]
        self.append("match", g=self.game_id, variant=variant, names=[s.name for s in self.seats],
                    options=dict(options), keys=keys, host=self.identity.public, away=[], **clocks)


async def test_a_persons_seat_without_its_key_is_refused_by_that_person_and_the_table(tmp_path: Path) -> None:
    host = await start_host(dealer_class=KeylessDealer, seats=3, bots=1, rounds=1, fair_timeout=0.5)
    try:
        players = bots(host.port, 2, tmp_path)
        await play(players)
        for b in players:
            assert b.client.fairness is not None and b.client.fairness["code"] == "identity", b.client.fairness
        victim = next(b for b in players if b.client.seat == max(humans(host)))
        assert "no identity key" in (victim.client.fairness or {})["reason"]
        ok, text = audit_file(victim.client.transcript_path)
        assert not ok and text.startswith("identity:")
    finally:
        await host.close()


# -- 4. automatic moves for a present player -----------------------------------------------------
class HastyTable(Table):
    """Plays the first person's turns itself 50 ms into them, saying their turn timer ran out."""

    def arm_timer(self) -> None:
        game = self.game
        victim = humans(self)[0]
        if game is not None and self.phase == "playing" and not game.over and game.current == victim:
            if self.autoplay.runs_for() != victim:
                self.autoplay.start_timer(victim, 0.05)
            return
        super().arm_timer()


async def test_moves_marked_automatic_for_a_present_player_without_a_turn_timer_are_caught() -> None:
    host = await start_host(table_class=HastyTable, seats=3, bots=1, rounds=1)
    try:
        players = bots(host.port, 2)
        players[0].delay = 0.5  # a person thinking
        await play(players, 40)
        for b in players:
            assert b.client.fairness is not None and b.client.fairness["code"] == "auto", b.client.fairness
            assert "no turn timer" in b.client.fairness["reason"]
    finally:
        await host.close()


async def test_a_turn_timer_run_out_early_is_caught_by_the_player_it_was_run_out_for() -> None:
    host = await start_host(table_class=HastyTable, seats=3, bots=1, rounds=1, turn_timer=30)
    try:
        players = bots(host.port, 2)
        victim, other = players
        victim.delay = 0.5
        heard = listen(victim.client)
        await play(players, 40)
        assert victim.client.fairness is not None and victim.client.fairness["code"] == "auto"
        assert "s into your turn, saying your 30 s turn timer had run out" in victim.client.fairness["reason"]
        assert "the host (" in victim.client.fairness["reason"]  # it names the accused
        assert any(m["type"] == "auto" and m["why"] == "timer" and m["live"] for m in heard)
        assert verified(other.client, 1)  # nobody else can tell: the log allows a timer move
    finally:
        await host.close()


async def test_every_automatic_move_made_for_a_player_is_reported_to_it() -> None:
    host = await start_host(seats=2, bots=1, rounds=1, turn_timer=0.05)
    try:
        slow = bots(host.port, 1)[0]
        await slow.client.connect()
        await slow.client.ready()  # and never moves
        heard = listen(slow.client)
        async with asyncio.timeout(20):
            while host.phase != "finished" or slow.client.ended is None:
                await asyncio.sleep(0.02)
        autos = [m for m in heard if m["type"] == "auto"]
        moves = [m for r in host.record.rounds for m in r["moves"] if m[0] == slow.client.seat]
        assert autos and len(autos) == len(moves) and all(m["why"] == "timer" for m in autos)
        assert slow.client.fairness is None
        await slow.client.close()
    finally:
        await host.close()


# -- 5. a signed intent replayed in a later round ----------------------------------------------------
class ReplayingTable(Table):
    """Keeps the first person's first signed 'draw' and plays it for them again in a later round."""

    kept: tuple[tuple[bytes, bytes], int] | None = None
    replayed = False

    def intent(self, intent: Intent) -> None:
        game = self.game
        if game is not None and intent.action.kind == "draw" and intent.seat == humans(self)[0] \
                and self.kept is None:
            self.kept = (intent.signed, game.round)
        super().intent(intent)

    def arm_timer(self) -> None:
        super().arm_timer()
        game = self.game
        if self.kept is None or self.replayed or game is None or self.phase != "playing" or self.settling:
            return
        blob, kept_in = self.kept
        seat = unpack(blob[0])["seat"]
        if game.round > kept_in and game.current == seat and Action("draw") in game.legal_actions(seat):
            self.replayed = True
            events = self.try_apply(seat, Action("draw"), lambda: None)
            if events is not None:
                self.applied(seat, Action("draw"), events, auto=False, intent=blob)


async def test_an_intent_replayed_in_a_later_round_is_caught_at_once() -> None:
    # Rounds enough that the person's first draw (the one kept) comes before the last of them: the
    # deal is random (every peer's seed), and with 4 rounds one loaded run of ten saw no replay at
    # all (a first draw only in the last round would do that). The match ends at the replay anyway.
    host = await start_host(table_class=ReplayingTable, seats=3, bots=1, rounds=10,
                            options={"target_score": 100_000})
    try:
        players = bots(host.port, 2)
        await play(players, 40)
        assert isinstance(host.table, ReplayingTable) and host.table.replayed, "no draw to replay"
        for b in players:
            assert b.client.fairness is not None and b.client.fairness["code"] == "replay", b.client.fairness
            assert "was used before in this match" in b.client.fairness["reason"]
    finally:
        await host.close()


# -- 6. a card hidden from your own view ------------------------------------------------------------
def _hide(view: dict[str, Any]) -> dict[str, Any]:
    hand = view.get("hand")
    if not hand:
        return view
    hidden = min(c["id"] for c in hand)
    return {**view, "hand": [c for c in hand if c["id"] != hidden],
            "legal": [a for a in view.get("legal", ()) if a.get("card") != hidden]}


class HidingTable(Table):
    """Leaves a card out of the first person's hand as shown to them; the table still counts it."""

    def private_view(self, seat: int | None) -> dict[str, Any]:
        view = super().private_view(seat)
        return _hide(view) if seat == humans(self)[0] and not self.game.over else view


class HidingCountTable(HidingTable):
    """...and counts one card fewer for them in the public list as well."""

    def public_view(self) -> dict[str, Any]:
        view = super().public_view()
        victim = humans(self)[0]
        if self.game.over or not self.game.hands[victim]:
            return view
        players = [dict(p) for p in view["players"]]
        players[victim]["cards"] -= 1
        return {**view, "players": players}


async def test_a_card_hidden_from_your_hand_is_caught_by_its_count_at_once() -> None:
    host = await start_host(table_class=HidingTable, seats=3, bots=1, rounds=1)
    try:
        victim, other = bots(host.port, 2)
        await play([victim, other], 40)
        assert victim.client.fairness is not None and victim.client.fairness["code"] == "hand"
        # Caught at the first count the victim checks: 7 after the deal, or more if it drew first.
        said = re.search(r"the table counts (\d+) cards in your hand, but the host shows you (\d+)",
                         victim.client.fairness["reason"])
        assert said and int(said[1]) >= 7 and int(said[2]) == int(said[1]) - 1, victim.client.fairness
        assert verified(other.client, 1)
    finally:
        await host.close()


async def test_a_card_hidden_from_your_hand_and_the_count_is_caught_at_the_audit() -> None:
    host = await start_host(table_class=HidingCountTable, seats=3, bots=1, rounds=1)
    try:
        victim, other = bots(host.port, 2)
        await play([victim, other], 40)
        failed = [a for a in victim.client.audits if not a["ok"]]
        assert failed and failed[0]["code"] == "hand", victim.client.audits
        assert "left out:" in failed[0]["reason"]
    finally:
        await host.close()


# -- 7. verdicts ----------------------------------------------------------------------------------
async def test_every_persons_verdict_on_every_round_reaches_the_table_before_the_end() -> None:
    host = await start_host(seats=3, bots=0, rounds=2, options={"target_score": 100_000})
    try:
        players = bots(host.port, 3)
        heard = [listen(b.client) for b in players]
        assert await play(players) == [0, 0, 0]
        want = {(s, r) for s in range(3) for r in range(2)}
        for got in heard:
            told = {(m["seat"], m["round"]) for m in got if m["type"] == "verdict"}
            assert told == want
            end = next(i for i, m in enumerate(got) if m["type"] == "end")
            assert all(i < end for i, m in enumerate(got) if m["type"] == "verdict")
        assert {(d["seat"], unpack(d["m"])["r"]) for d in entries(host, "verdict")} == want
        assert not entries(host, "strike")
    finally:
        await host.close()


class SwallowingDealer(Dealer):
    """Swaps a card delivered to the last person, then swallows that person's (failing) verdicts."""

    def victim(self) -> int:
        return max(humans(self))

    def cards_for(self, game: Any, seat: int, cards: list[list[Any]]) -> list[list[Any]]:
        if seat == self.victim() and cards and game.round == 0:
            e, a, k, slot, salt, cid = cards[0]
            cards = [[e, a, k, slot, salt, (cid + 1) % len(game.cards)]] + cards[1:]
        return cards

    def _verdict(self, seat: int, m: bytes, sig: bytes, d: dict[str, Any]) -> None:
        if seat != self.victim():
            super()._verdict(seat, m, sig, d)

    async def collect_verdicts(self, r: int) -> None:
        self.verdicts.setdefault(r, set()).add(self.victim())  # neither waited for nor struck: dropped
        await super().collect_verdicts(r)


async def test_a_swallowed_verdict_is_caught_by_everyone_at_the_next_deal() -> None:
    host = await start_host(dealer_class=SwallowingDealer, seats=3, bots=0, rounds=2, fair_timeout=0.5,
                            options={"target_score": 100_000})
    try:
        players = bots(host.port, 3)
        await play(players, 40)
        victim = max(humans(host))
        for b in players:
            codes = failures(b.client)
            if b.client.seat == victim:
                assert "commitment" in codes
                continue
            assert b.client.fairness is not None and b.client.fairness["code"] == "verdict", b.client.fairness
            assert "the host dealt round 2 without the verdict on round 1 of P" in b.client.fairness["reason"]
    finally:
        await host.close()


# -- 8. false strikes ----------------------------------------------------------------------------------
class FalseAccuserDealer(Dealer):
    """Says the last person missed the reveal deadline of the first deal, though their reveal came."""

    async def _collect(self, kind: str, e: int, a: int, parts: list[int]) -> Any:
        got = await super()._collect(kind, e, a, parts)
        if kind == "reveal" and (e, a) == (0, 0) and isinstance(got, dict):
            return [max(p for p in parts)]
        return got


async def test_a_false_strike_is_shown_loudly_to_its_victim_with_its_answer_kept_as_evidence(tmp_path: Path) -> None:
    host = await start_host(dealer_class=FalseAccuserDealer, seats=3, bots=1, rounds=1)
    try:
        players = bots(host.port, 2, tmp_path)
        heard = [listen(b.client) for b in players]
        assert await play(players) == [0, 0]
        victim = max(range(2), key=lambda i: players[i].client.seat or 0)
        accused = [m for m in heard[victim] if m["type"] == "accused"]
        assert len(accused) == 1 and accused[0]["evidence"] and accused[0]["stage"] == "reveal"
        reason = accused[0]["reason"]
        assert reason.startswith("the host (Host, key ") and "says you missed the reveal deadline of epoch 0" in reason
        assert "kept in your transcript as evidence" in reason
        assert not any(m["type"] == "accused" for m in heard[1 - victim])
        records = read_records(players[victim].client.transcript_path.read_bytes())
        evidence = [r for r in records if r["t"] == "evidence"]
        sent = [r["m"] for r in records if r["t"] == "sent" and unpack(r["m"])["k"] == "reveal"]
        assert len(evidence) == 1 and evidence[0]["m"] == sent[0]
        abort = unpack(next(r["e"] for r in records if r["t"] == "log" and unpack(r["e"])["k"] == "abort"))
        assert abort["i"] == evidence[0]["i"] and abort["missing"] == [players[victim].client.seat]
    finally:
        await host.close()


class OverStrikingDealer(Dealer):
    """Strikes the first person for a missing verdict although it logged that verdict."""

    async def collect_verdicts(self, r: int) -> None:
        await super().collect_verdicts(r)
        self.strike(humans(self)[0], "verdict", "no verdict", r=r)


async def test_a_strike_for_an_answer_the_log_holds_is_named_a_host_fraud(tmp_path: Path) -> None:
    host = await start_host(dealer_class=OverStrikingDealer, seats=3, bots=1, rounds=1)
    try:
        players = bots(host.port, 2, tmp_path)
        await play(players)
        for b in players:
            assert b.client.fairness is not None and b.client.fairness["code"] == "strike", b.client.fairness
            assert "but that verdict is in the log" in b.client.fairness["reason"]
        ok, text = audit_file(players[1].client.transcript_path)
        assert not ok and text.startswith("strike:")
    finally:
        await host.close()


class RefusingDealer(Dealer):
    """Refuses the last person's good reveal of the first deal and strikes them for it."""

    def answer_fault(self, kind: str, seat: int, d: dict[str, Any]) -> str | None:
        if kind == "reveal" and (d["e"], d["a"]) == (0, 0) and seat == max(humans(self)):
            return "a seed that does not open its commitment"
        return super().answer_fault(kind, seat, d)


async def test_a_strike_refusing_a_good_answer_is_named_a_host_fraud() -> None:
    host = await start_host(dealer_class=RefusingDealer, seats=3, bots=1, rounds=1, fair_timeout=0.5)
    try:
        players = bots(host.port, 2)
        await play(players)
        for b in players:
            assert b.client.fairness is not None and b.client.fairness["code"] == "strike", b.client.fairness
            assert "for a reveal that is good: a false accusation" in b.client.fairness["reason"]
    finally:
        await host.close()


def test_an_answer_sent_in_the_last_match_is_no_evidence_against_a_strike_in_the_next() -> None:
    """A rematch numbers its epochs from 0 again: the seed this seat sent for the last match's
    epoch 0 does not answer the host's word that it missed the rematch's (the client would
    otherwise say, loudly, that the host struck it for an answer it sent)."""
    from net.ledger import Ledger
    from net.watch import SeatWatch

    watch, ledger = SeatWatch(), Ledger(b"h" * 32, seat=1)
    missed = {"k": "abort", "missing": [1], "stage": "commit", "e": 0, "a": 0}
    watch.asked(("seed", 0, 0), 1.0)
    watch.sent({"k": "seed", "e": 0, "a": 0}, b"m", b"sig", 1.2)
    notes, evidence, failed = watch.entry(missed, 5, True, 2.0, ledger, 1, "the host")
    assert evidence == [(5, b"m", b"sig")] and notes[0]["evidence"] and failed is None  # this match: evidence
    watch.entry({"k": "match"}, 9, True, 3.0, ledger, 1, "the host")
    notes, evidence, failed = watch.entry(missed, 12, True, 4.0, ledger, 1, "the host")
    assert evidence == [] and notes[0]["evidence"] is False and failed is None
