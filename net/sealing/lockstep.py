"""One peer of a sealed table: its replica, its participant, and the walk through the log every peer makes alike.

Every peer (a player's client, the host for the bots it seats, a spectator) runs a
:class:`SealedPeer` over the same totally ordered log (the host's relay orders it). The walk is
deterministic, so each peer knows, from its own replica and the public record, what the table
needs next and who must send it; nobody asks anyone:

* **a round's keys**: each participant saves a fresh :class:`~net.sealed.RoundSecret` (``save``)
  before its announcement leaves (``skey``);
* **before a deal or a move**, the engine's needs, asked first and never rolled back
  (:meth:`core.Game.need_for`): a shuffle of cards is an epoch of mask and lock passes
  (``spass``, each participant in turn); a shuffle of anything else (tokens, handles) a public
  order from the round's joint key; cards to be shown to everyone (a turned-up card, the hands
  at the round's end) every participant's public share (``spub``);
* **a move** (``smove``) carries every key of the cards its player shows (the player holds them
  all); everyone opens and checks them, then follows the move. A move the public cannot accept
  (stale, illegal) is ignored by every peer alike;
* **after a move**, the cards each seat is to see (:meth:`core.Game.deliveries`) that its owner
  lacks: every other participant seals its keys to the owner (``sdeal``); the host relays boxes
  it cannot read, and only the owner waits for them (:mod:`.dealing`);
* **at the round's end** every participant opens its seed (``sreveal``), and every peer runs the
  cryptographic audit (:func:`net.sealed.audit_round`) and the engine's replay
  (:func:`core.replay`), and signs its verdict (``sverdict``).

A failed check raises :class:`Alarm` (the :class:`~net.sealed.Fault`, naming its culprit): the
peer says so (``salarm``) and the round stops.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
from typing import Any, Callable, Iterable

import core
from core import Action
from core.bots import make_bot
from core.source import SeededSource

from ..identity import Identity
from ..sealed import CardCodec, Envelope, Epoch, Fault, Participant, Pass, RoundKeys, RoundSecret
from ..sealed import open_public
from ..sealed.epoch import Slot
from ..sealed.keys import KeyAnnouncement
from .dealing import Dealing
from .deck import deck_tag
from .publicorder import PublicOrder
from .restart import Restart
from .roundend import RoundEnd
from .seatmoves import SeatMoves
from .waiting import WaitingSignatures
from .signed import Alarm
from .store import SecretStore

Send = Callable[[dict[str, Any]], None]


class SealedPeer(SeatMoves, Restart, WaitingSignatures, PublicOrder, Dealing, RoundEnd):
    """One peer's side of a sealed table (``pid`` None: a spectator, who only follows)."""

    participant_class: type[Participant] = Participant
    """The participant this peer is (the tests' cheating doubles subclass it)."""
    auto: bool = True
    """Whether this peer's bot chooses its seats' moves (a screen's peer leaves them to its person:
    :meth:`move`)."""
    reveal_timeout: float = 30.0
    """Seconds the round's end waits for every seed before naming who withheld theirs."""

    def __init__(self, *, variant: str, names: list[str], options: dict[str, Any] | None, game_id: bytes,
                 roster: dict[int, bytes], owners: list[int], pid: int | None, identity: Identity | None,
                 send: Send, secrets: SecretStore | None = None, bot_level: str = "normal",
                 rounds: int | None = 1, already: int = 0, manual: Iterable[int] = (),
                 turn_timer: float | None = None) -> None:
        self.variant, self.names, self.options = variant, list(names), options
        self.game_id = game_id
        self.roster = dict(roster)
        """Participant id -> its identity key (the host is 0)."""
        self.owners = list(owners)
        """Seat -> the participant who holds that seat's cards (a bot's: the host)."""
        self.pid, self.identity = pid, identity
        self.seats = tuple(q for q, o in enumerate(owners) if o == pid)
        self.manual = frozenset(manual)
        """This peer's seats its person plays (:meth:`move`); its bot plays the others."""
        self.turn_timer = turn_timer
        """Seconds a person has for a decision before this peer's bot makes it (None: no limit)."""
        self.timeouts: list[Callable[[int], None]] = []
        """Told the seat whose person ran out of time, as its bot moves for it."""
        self.waiting_on: set[int] = set()
        """The participants the table waits on now (the host's watchdog reads it)."""
        self._send, self.secrets = send, secrets
        self.already = already
        """How many of this peer's messages the log holds already (a restart catching up: the walk
        makes them again, in the same order, and they are not sent twice)."""
        self._sent = 0
        self.bot = make_bot(bot_level, seed=int.from_bytes(hashlib.sha256(game_id + bytes([pid or 0])).digest()[:4],
                                                            "big"))
        self.rng = random.Random(game_id + bytes([pid or 0]))
        self.rounds = rounds
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        """Log entries, in the log's order: ``{from, m, s}``."""
        self.deferred: list[tuple[int, dict[str, Any]]] = []
        self._unread: list[tuple[int, dict[str, Any]]] = []  # entries read ahead, in the log's order
        self._reset_deals()
        self.game: core.Game | None = None
        self.verdicts: list[dict[str, Any]] = []
        """Every verdict the log carried, ``{from, r, ok, false}``."""
        self.results: list[Any] = []
        """The cryptographic audit of each round (:class:`net.sealed.AuditResult`: every slot's card,
        every opened secret)."""
        self.audits: list[core.Audit] = []
        """This peer's own replays of each round (the engine's audit)."""
        self.alarm: Alarm | None = None
        self.listeners: list[Callable[[list[core.Event]], None]] = []
        """Told the events of every deal and move this peer's game follows (as its game has them)."""
        self._told: int | None = None  # the game's version when the listeners were last told
        self._probe: tuple[core.Game, core.Game] | None = None  # (public game, its copy made while idle)
        self.seen_envelopes = 0
        """Envelopes this peer relayed or read in the log (its boxes for others included)."""
        self._unchecked: list[tuple[int, bytes, bytes, bytes, bool]] = []  # signatures that wait (waiting.py)
        self._vouched: dict[bytes, tuple[int, bytes]] = {}  # signatures known already (waiting.py)
        self._unopened: list[Callable[[], None]] = []  # cards moves named, their keys checked later
        self._my_moves: set[tuple[Any, Any, bytes]] = set()
        self._backlog_moves = 0  # this peer's moves among the entries fed before it ran
        self._running = False
        self.link_breaks = 0
        """Counted up when this peer's link to the host is lost and again when it is back (odd: lost now);
        a deadline that runs out while the link was down names nobody (a crash is no one's fault)."""

    @property
    def pids(self) -> list[int]:
        return sorted(self.roster)

    # -- the log --------------------------------------------------------------------------------------
    def _save(self) -> None:
        if self.secrets is not None and self.secret is not None:
            self.secrets.save(self.round, self.secret.to_bytes())

    async def _entry(self) -> tuple[int, dict[str, Any]]:
        """The next entry of the log that is not an ``sdeal`` (those are filed as they come:
        :class:`~net.sealing.dealing.Dealing`), entries set back to be read again first."""
        while True:
            if self._unread:
                return self._unread.pop(0)
            author, body = await self._read()
            if body.get("k") != "sdeal":
                return author, body
            self._absorb(author, body)

    async def take(self, kind: str, authors: Iterable[int], *, deadline: float | None = None,
                   missing: str = "protocol") -> dict[int, dict[str, Any]]:
        """One ``kind`` message from each of ``authors``, in whatever order they come (moves sent
        meanwhile wait their turn: every peer sets them aside alike). ``deadline``: seconds, after
        which the first author still missing is named with the fault ``missing``."""
        want, got = set(authors), {}
        self.waiting_on = want
        loop = asyncio.get_running_loop()
        until = None if deadline is None else loop.time() + deadline
        breaks = self.link_breaks
        while want:
            try:
                author, body = await asyncio.wait_for(self._entry(), None if until is None
                                                      else max(0.0, until - loop.time()))
            except asyncio.TimeoutError:
                if deadline is not None and (self.link_breaks != breaks or self.link_breaks % 2):
                    breaks, until = self.link_breaks, loop.time() + deadline  # the link was down: wait again
                    continue
                late = sorted(want)
                raise Alarm(Fault(missing, f"participants {late} sent no {kind!r} in time", late[0])) from None
            if body.get("k") == "smove":
                self.deferred.append((author, body))
                continue
            if body.get("k") != kind or author not in want or body.get("r") != self.round:
                raise Alarm(Fault("protocol", f"a {body.get('k')!r} message where {kind!r} was due", author))
            want.discard(author)
            got[author] = body
        return got

    # -- a match ---------------------------------------------------------------------------------------
    async def run(self) -> None:
        """Play the match's rounds; an :class:`Alarm` is told to the table, then raised."""
        self._running = True
        try:
            try:
                await self._run()
                self._check_signatures()
            except (Fault, Alarm, ValueError, KeyError, TypeError, IndexError, core.IllegalAction):
                self._check_signatures()  # an entry whose signature waited and fails is the first fault
                raise
        except Fault as f:
            alarm = Alarm(f)
        except Alarm as a:
            alarm = a
        except (ValueError, KeyError, TypeError, IndexError, core.IllegalAction) as e:
            # Something in the log this peer could not follow (a face that contradicts what it
            # knows, a malformed field): the table is told, without a culprit it cannot prove.
            alarm = Alarm(Fault("protocol", f"this peer cannot follow the log: {e!r}"))
        else:
            return
        if self._unnamed_card(alarm):
            self.alarm = alarm  # the table is stopped now; the audit names the culprit in a moment
            self._tell_alarm(alarm)
            alarm = await self._name_by_audit(alarm)
        self._raise_alarm(alarm)

    def _tell_alarm(self, a: Alarm) -> None:
        """Log the alarm (``salarm``), once, unless it came from the log."""
        if self.pid is not None and not a.told:
            # Every signature set aside was checked as the alarm was raised (run); the cards moves
            # named that wait to be opened matter no more, and must not stop the alarm being sent.
            self._unopened.clear()
            f = a.fault
            self.send({"k": "salarm", "r": self.round, "code": f.code, "culprit": f.culprit, "reason": str(f)})
            a.told = True

    def _raise_alarm(self, a: Alarm) -> None:
        self.alarm = a
        self._tell_alarm(a)
        raise a

    async def _run(self) -> None:
        self.round = 0
        await self._deal(first=True)
        while True:
            g = self.game
            assert g is not None
            if g.phase == "over":
                await self._end_round()
                if g.match_over or (self.rounds is not None and g.round + 1 >= self.rounds):
                    return
                self.round = g.round + 1
                await self._deal(first=False)
                continue
            self._act()
            if self.deferred:
                author, body = self.deferred.pop(0)
            else:
                author, body = await self._entry()
            if body.get("k") != "smove":
                raise Alarm(Fault("protocol", f"a {body.get('k')!r} message where a move was due", author))
            await self._move(author, body)

    # -- keys and deals --------------------------------------------------------------------------------
    async def _keys(self) -> None:
        self._reset_deals()
        self.secret: RoundSecret | None = None
        if self.pid is not None:
            assert self.identity is not None
            saved = self.secrets.load(self.round) if self.secrets is not None else None
            if saved is not None:  # a restart: the round's secret as it was saved
                self.secret = RoundSecret.from_bytes(saved)
                if (self.secret.game, self.secret.round, self.secret.pid) != (self.game_id, self.round, self.pid):
                    raise Alarm(Fault("protocol", "the saved round secret is for another table"))
            else:
                self._check_secrets()  # a restart whose round secret was not kept cannot go on (restart.py)
                self.secret = RoundSecret.fresh(self.game_id, self.round, self.pid, self.identity.public)
                self._save()  # before the announcement leaves (design, section 5)
            self.send({"k": "skey", "r": self.round, "ann": self.secret.announce().to_wire()})
        # The deck's table of card values (a few milliseconds, once a process) while the others announce.
        table = asyncio.ensure_future(asyncio.to_thread(CardCodec, self._size(), self._deck_tag()))
        try:
            got = await self.take("skey", self.pids)
        finally:
            await table
        anns = []
        for author, body in got.items():
            ann = KeyAnnouncement.from_wire(body.get("ann"))
            if ann.pid != author or ann.identity != self.roster[author]:
                raise Alarm(Fault("key", "a round key announced for someone else", author))
            anns.append(ann)
        self.keys = RoundKeys(self.game_id, self.round, anns)
        self.part = self.participant_class(self.secret, self.keys, self.identity) if self.secret is not None else None
        self.epochs: list[Epoch] = []
        self.envelopes: list[Envelope] = []
        self.slot: dict[int, Slot] = {}
        """Handle -> its (epoch, slot)."""
        self.handle_of: dict[Slot, int] = {}
        self.card_of: dict[int, int] = {}
        """Handle -> the deck card it opened to (the cards this peer saw)."""
        self.pending: list[tuple[int, int]] = []
        """Epochs settled whose handles the game has yet to make: ``(epoch, size)``."""
        self.known: dict[int, set[int]] = {p: set() for p in self.pids}
        """Participant -> the handles opened to it (everyone tracks everyone's: the walk is public)."""
        self.public: SeededSource | None = None  # until the round first needs a public order (publicorder.py)
        self.moves: list[tuple[int, Action]] = []

    async def _deal(self, first: bool) -> None:
        await self._keys()
        first_hands: tuple[int, bool] | None = None  # the deal of the hands' keys, sent with the turned card's
        if first:
            settled: list[tuple[Any, Any]] = []
            while True:
                need, dealt = core.new_game_stop(self.variant, self.names, options=self.options, settled=settled,
                                                 sealed=True)
                if need is None:
                    break
                if first_hands is None and isinstance(need, core.Reveal) and any(dealt):
                    # The hands are dealt, and stay dealt (core.new_game_stop): their keys leave with
                    # the turned card's, not a round of the table after it (the deck is final by now).
                    self._show(list(need.handles))
                    first_hands = self._send_keys({q: list(hs) for q, hs in enumerate(dealt) if hs})
                    settled.append((need, await self._shown_all(list(need.handles))))
                    continue
                settled.append((need, await self._resolve(None, need)))
            g = core.new_game(self.variant, self.names, options=self.options, settled=settled, sealed=True)
            self.game = g
            # A peer that holds no seat (a spectator, a host that seats no bot) sees what the public
            # sees: its game is the public game, kept once.
            self.pub = g if not self.seats else core.new_game(self.variant, self.names, options=self.options,
                                                               settled=settled, sealed=True)
            events = list(g.deal_events)
        else:
            g = self.game
            assert g is not None
            while (need := self.pub.need_for_next_round()) is not None:
                answer = await self._resolve(None, need)
                self.pub.settle(need, answer)
                if g is not self.pub:
                    g.settle(need, answer)
            events = g.next_round()
            if g is not self.pub:
                self.pub.next_round()
        self._allocate()
        deal = self._send_keys(g.deliveries(events))
        # The round's start, for the audit's replay, taken once this peer's keys are on their way
        # (a few milliseconds a peer that would otherwise delay every hand of the deal); nothing
        # changes the public game until the hands are open (moves meanwhile are set aside).
        self.start = self.pub.blind_copy([])
        await self._await_keys(first_hands)
        await self._await_keys(deal)
        self.deal_events = events
        self.round_events: list[core.Event] = []
        """Every event this peer's game made this round, in order (a screen that comes to the table
        after the deal shows the moves made before it came)."""
        self._tell(events)

    # -- needs ----------------------------------------------------------------------------------------
    @property
    def deck(self) -> tuple[tuple[str | None, str], ...]:
        if self.game is not None:
            return self.game._slots.deck  # type: ignore[union-attr]
        if not hasattr(self, "_deck"):
            self._deck = tuple((c.color, c.rank) for c in core.deck(self.variant, num_players=len(self.names),
                                                                      options=self.options or {}))
        return self._deck

    def _size(self) -> int:
        return len(self.deck)

    def _next_handle(self) -> int:
        """The handle the game's next shuffle makes first (a new round's cards start at the deck's size)."""
        g = self.game
        if g is None or g.phase == "over":
            return self._size()
        return len(g.cards)

    def _ahead(self, h: int) -> Slot:
        """The slot of handle ``h``: made already, or to be made by a settled epoch."""
        if h in self.slot:
            return self.slot[h]
        k = h - self._next_handle()
        for e, n in self.pending:
            if 0 <= k < n:
                return (e, k)
            k -= n
        raise Alarm(Fault("protocol", f"card {h} belongs to no epoch"))

    def _allocate(self) -> None:
        """Give the handles the game has just made their slots, epoch by epoch."""
        if not self.pending:
            return
        g = self.pub  # the handles the public game has made (this peer's own game makes the same)
        h = max(self.slot, default=self._size() - 1) + 1 if self.slot else self._size()
        while self.pending and h < len(g.cards):
            e, n = self.pending.pop(0)
            for s in range(n):
                self.slot[h + s] = (e, s)
                self.handle_of[(e, s)] = h + s
            h += n

    async def _resolve(self, g: core.Game | None, need: Any) -> Any:
        if isinstance(need, core.Reveal):  # cards shown to everyone: every participant's key of each
            self._show(list(need.handles))
            return await self._shown_all(list(need.handles))
        if not need.items or not all(isinstance(x, core.Card) for x in need.items):
            return (await self._public_order()).shuffle(list(need.items), need.epoch)
        await self._epoch(list(need.items))
        return None

    def _is_public(self, c: core.Card) -> bool:
        if c.id < self._size():
            return True
        if self.game is None or self.game.phase == "over":  # a deal's needs: only public openings so far
            return c.id in self.card_of
        return c.id in self.pub._slots.public  # type: ignore[union-attr]

    async def _epoch(self, items: list[core.Card]) -> None:
        """A shuffle of cards: every participant's passes in turn, each checked as it arrives."""
        size = self._size()
        values: list[bytes] = []
        sealed_in: dict[int, Slot] = {}
        codec = CardCodec(size, self._deck_tag())
        for i, c in enumerate(items):
            if self._is_public(c):
                values.append(codec.encode(c.id if c.id < size else self.card_of[c.id]))
            else:
                sealed_in[i] = self._ahead(c.id)
                values.append(self.epochs[sealed_in[i][0]].final[sealed_in[i][1]])
        if not sealed_in:
            codec = codec.restrict(c.id if c.id < size else self.card_of[c.id] for c in items)
        ep = Epoch(self.keys, len(self.epochs), values, self.pids, codec, sealed=sealed_in)
        self.epochs.append(ep)
        if self.part is not None:
            self.part.add_epoch(ep)
        while not ep.done:
            author = ep.next_author
            assert author is not None
            mine = None
            if author == self.pid:
                assert self.part is not None and self.secret is not None
                # A pass is a hundred multiplications or more: made in threads (libsodium lets go of
                # the GIL), so the event loop goes on meanwhile (at a table in one process, the other
                # peers check the pass before this one). This peer's own walk waits for it.
                mine = await asyncio.to_thread(self.part.shuffle, ep.number)
                if mine.kind == "mask":
                    self._save()  # with the deck it masked, before the pass leaves
                self.send({"k": "spass", "r": self.round, "e": ep.number, "p": mine.to_wire()})
                if mine.kind == "mask":  # the lock pass's commitments, while the others mask
                    await asyncio.to_thread(self.part.prepare, ep.number, ep.n, ep.attempt)
            body = (await self.take("spass", [author]))[author]
            if body.get("e") != ep.number:
                raise Alarm(Fault("pass", "a pass for another epoch", author))
            try:
                if mine is not None and body.get("p") == mine.to_wire():
                    ep.add_pass(mine)  # the log holds it as this peer signed it
                else:
                    ep.add_pass(Pass.from_wire(body.get("p"), ep.n))
            except Fault as f:
                raise Alarm(f if f.culprit is not None else Fault(f.code, str(f), author)) from None
        self.pending.append((ep.number, ep.n))

    def _deck_tag(self) -> bytes:
        return deck_tag(self.variant)

    def _show(self, handles: list[int]) -> None:
        """Send this participant's keys of cards shown to everyone."""
        if self.part is not None:
            slots = [self._ahead(h) for h in handles]
            self.send({"k": "spub", "r": self.round, "items": self.part.public_shares(slots)})

    async def _shown_all(self, handles: list[int]) -> list[tuple[str | None, str]]:
        """The faces of cards shown to everyone, once every participant's keys of them are in."""
        slots = [self._ahead(h) for h in handles]
        got = await self.take("spub", self.pids)
        items = [it for body in got.values() for it in (body.get("items") or [])]
        return [self._opened(h, s, [it for it in items if isinstance(it, list) and it[:2] == list(s)])
                for h, s in zip(handles, slots)]

    def _opened(self, h: int, s: Slot, items: list[Any]) -> tuple[str | None, str]:
        return self._shown(h, s, open_public(self.epochs[s[0]], s[1], items))

    def _shown(self, h: int, s: Slot, card: int) -> tuple[str | None, str]:
        """Card ``h`` (slot ``s``) is ``card``, shown to everyone: its face."""
        self.card_of[h] = card
        if self.part is not None:
            self.part.saw_public(s, card)
        return self.deck[card]

    def _named(self, h: int, s: Slot, items: list[Any], card: int, author: int) -> tuple[str | None, str]:
        """A card a move names: taken at once, its keys checked a moment later, with the move's
        signature (waiting.py: when the log is quiet, and before this peer sends anything). A move
        is followed by the public rules, so nothing this peer does before the check rests on it
        but its screen; a card the keys do not open names the mover."""
        epoch = self.epochs[s[0]]

        def check() -> None:
            got = open_public(epoch, s[1], items)
            if got != card:
                raise Alarm(Fault("protocol", f"a move named card {card} for slot {s[1]} of epoch {s[0]}, which "
                                              f"its keys open to card {got}", author))

        self._unopened.append(check)
        return self._shown(h, s, card)

    # -- moves ----------------------------------------------------------------------------------------
    async def _move(self, author: int, body: dict[str, Any]) -> None:
        g = self.game
        assert g is not None
        self._not_idle()
        p, v = body.get("seat"), body.get("v")
        if not isinstance(p, int) or not 0 <= p < len(self.owners) or self.owners[p] != author:
            raise Alarm(Fault("protocol", f"a move for seat {p!r} by someone who does not hold it", author))
        if v != g.version or body.get("r") != self.round:
            return  # stale: every peer ignores it alike
        try:
            action = Action.from_dict(body.get("a"))
        except Exception:  # noqa: BLE001
            raise Alarm(Fault("protocol", "a malformed move", author)) from None
        # The cards the move shows, every key of each from their holder, and the card it names for each.
        items = [it for it in (body.get("show") or []) if isinstance(it, list) and len(it) == 4]
        named = {(f[0], f[1]): f[2] for f in (body.get("faces") or []) if isinstance(f, list) and len(f) == 3}
        pub = self.pub
        made, self._probe = self._probe, None
        probe = made[1] if made is not None and made[0] is pub else None  # (core checks it is of now)
        for s in dict.fromkeys((it[0], it[1]) for it in items):
            h = self.handle_of.get(s)
            if h is None or h in self.pub._slots.public:  # type: ignore[union-attr]
                raise Alarm(Fault("protocol", "a move shows a card that is no sealed card of the round", author))
            keys = [it for it in items if (it[0], it[1]) == s]
            card = named.get(s)
            if isinstance(card, int) and not isinstance(card, bool) and 0 <= card < self._size():
                face = self._named(h, s, keys, card, author)
            else:
                face = self._opened(h, s, keys)
            g.reveal(h, face)
            if pub is not g:
                pub.reveal(h, face)
            if probe is not None:
                probe.reveal(h, face)  # the copy made while idle keeps up
        # The needs are the public's (every peer asks the same), settled in this peer's game too.
        try:
            while (need := pub.need_for(p, action, follow=True, probe=probe)) is not None:
                probe = None
                answer = await self._resolve(pub, need)
                pub.settle(need, answer)
                if g is not pub:
                    g.settle(need, answer)
            public_events = pub.follow(p, action)
        except core.IllegalAction:
            return  # the public cannot accept it: ignored by every peer alike
        self._allocate()
        # The keys of a card dealt leave first: the drawer waits on the last of them.
        deal = self._send_keys(pub.deliveries(public_events))
        # Whatever the public accepts, this peer's game does (a seatless peer's is the public game).
        events = public_events if g is pub else g.follow(p, action)
        self.moves.append((p, action))
        await self._await_keys(deal)
        self._tell(events)

    @property
    def settled(self) -> bool:
        """Dealt, and between moves: every card the last deal or move brought is open to whom it
        goes. (In a move, a card drawn stays sealed to its holder until the others' keys come: a
        screen reading the hand then would find a face it cannot read.)"""
        return self.game is not None and hasattr(self, "deal_events") and self._told == self.game.version

    def _when_idle(self) -> None:
        """Ahead of the next move, besides the keys of a likely draw: the copy of the public game
        its needs will be asked on (:meth:`core.Game.probe`), which is most of that ask's cost."""
        super()._when_idle()
        g = self.game
        self._probe = None if g is None or g.over else (self.pub, self.pub.probe())

    def _tell(self, events: list[core.Event]) -> None:
        self._told = self.game.version if self.game is not None else None
        self.round_events += events
        for listener in list(self.listeners):
            listener(events)
        self._idle_soon()
