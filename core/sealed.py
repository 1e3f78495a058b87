"""Sealed cards: a game that knows only some of its cards' faces (issue 16).

A network table deals *sealed*: no peer, the host included, learns a card before the rules show
it to them. Each peer then runs a replica of the game that knows the public cards and its own
hand; the round's audit replays a replica that knows every card. All of them are games in
**sealed mode** (``core.new_game(..., sealed=True)``):

* **Card ids are handles, not deck positions.** In a full-information game a card's id indexes
  the fixed deck order, so it tells the card's face. In a sealed game each shuffle (the deal, a
  reshuffle, any cards put back and mixed) gives the cards it mixes fresh ids, one per slot of
  that shuffle (:attr:`core.Game.cards` grows by that many; the draw pile's ``k``-th card from the
  bottom is the epoch's ``k``-th new id). Ids below the deck's size are the deck's cards
  themselves, known to all (what a shuffle starts from, and the cards of a scripted position).
* **A card this game cannot see is a** :class:`Sealed` **card**: its id is known, its face is
  not, and reading its face raises :class:`~core.SealedFace` (a bug: the rules only look at
  hidden cards through the hand queries of :class:`core.hands.HandQueries`).
* **A face is learnt** when the rules show it: to everyone (:meth:`core.Game.reveal`, or a
  :class:`Reveal` the game asked for) or to one seat (:meth:`core.Game.learn`, after a draw or
  a private show). A shuffle whose order the game is given (the audit's replay) shows every face.
* **A move that rests on cards only its player can see is that player's claim** (:class:`Claim`):
  the game finds out from two readings of the rules over the public cards (one that gives the
  hidden cards every benefit of the doubt, one that gives them none), records it, and says so
  with a ``claim`` event. A replica that sees everything checks it like any other move.

:class:`SlotState` is what a sealed game keeps beyond a full-information one (a full-information
game keeps none of it, so it stays as quick as before). The round's audit (:func:`~core.replay`,
and :func:`~core.sealed_audit.follow`, which notes a false claim as the table applies it) is
:mod:`core.sealed_audit`.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, Callable, Iterable, NamedTuple, Sequence

from .actions import Action
from .cards import Card
from .errors import SealedFace, UnmetNeed
from .events import Event
from .source import Chance, ChanceStop

if TYPE_CHECKING:
    from .game import Game

Face = tuple[str | None, str]

SEALED_RANK = "?"
"""What a :class:`Sealed` card holds in place of its rank (never read: reading it raises)."""

OWN, PUBLIC, STRICT = 0, 1, 2
"""The readings of the rules (:attr:`SlotState.reading`): with what this game knows; with only
the public cards known, hidden cards given the benefit of the doubt; the same, given none."""


class Sealed(Card):
    """A card whose face this game does not know: only its handle (``id``) is.

    Reading ``color``, ``rank`` (or anything made of them) raises :class:`~core.SealedFace`.
    """

    __slots__ = ()

    def __new__(cls, handle: int) -> "Sealed":
        return tuple.__new__(cls, (handle, None, SEALED_RANK))

    def __getnewargs__(self) -> tuple[int]:  # type: ignore[override]
        return (self[0],)

    def _unknown(self) -> Any:
        raise SealedFace(f"the face of card {self[0]} is sealed here: read hidden cards through the hand queries")

    color = property(_unknown)  # type: ignore[assignment]
    rank = property(_unknown)  # type: ignore[assignment]

    def to_dict(self) -> dict:
        return self._unknown()

    def __str__(self) -> str:
        return f"#{self[0]}"

    def __repr__(self) -> str:
        return f"Sealed({self[0]})"


def is_sealed(card: Card) -> bool:
    return type(card) is Sealed


class Reveal(NamedTuple):
    """A need: these cards' faces must be shown to everyone before the move (or deal) can go on.

    Asked by :meth:`core.Game.need_for` (a pile card turned up, a hand shown at the round's end,
    cards put face up on the pile); the caller has them shown (the network opens the slots) and
    answers with :meth:`core.Game.settle` (one face per handle). A full-information game never
    asks one.
    """

    handles: tuple[int, ...]
    """The ids of the cards to show, in the order the rules turn them."""


class Claim(NamedTuple):
    """A move that rests on cards only its player (or the player it concerns) can see.

    The players who cannot see them accept it as the player's word; a game that sees every card
    (the round's audit) checks it, and refuses a false one naming the seat
    (:class:`~core.FalseClaim`). Recorded in :attr:`core.Game.claims` and told with a ``claim``
    event.
    """

    version: int
    """The game's version when the move was made."""
    seat: int
    """Who made it."""
    decision: str
    """The decision it answered (``"drawn"``, ``"play"``, ``"rule"``, ...)."""
    action: Action
    handles: tuple[int, ...]
    """The hidden cards it speaks of: the seat's cards (or the shown hand it rules on) that only
    the seat saw."""
    words: str
    """What it claims, in words ("the drawn card cannot be played")."""


class FalseClaimFound(NamedTuple):
    """A claim the round's audit found false."""

    version: int
    """The game's version when the claim was made (the move's place in the round)."""
    seat: int
    """Its author."""
    action: Action
    words: str
    """What was claimed."""
    why: str
    """Why it was false, in words (the rules with every card known)."""


class RevealStop(Exception):
    """Raised inside a move at the first card it must show that this game cannot see."""

    def __init__(self, reveal: Reveal, game: Game | None = None) -> None:
        super().__init__(f"cards {reveal.handles} must be shown first")
        self.need = reveal
        self.game = game
        """The game as it stood when it stopped (a deal's, half made: :func:`core.new_game_stop`)."""


class BlindSource:
    """The deck source of a replica that settles every shuffle itself: a card shuffle it was not
    given an order for is sealed (fresh cards nobody here can see); any other order is needed
    first (a public shuffle of tokens or handles)."""

    def shuffle(self, items: Sequence[Any], epoch: int) -> list[Any] | None:
        if items and all(isinstance(x, Card) for x in items):
            return None
        raise ChanceStop(Chance(epoch, tuple(items)))


class SlotState:
    """What a sealed game keeps beyond a full-information one."""

    __slots__ = ("deck", "public", "claims", "false", "reading", "probe", "cleared", "recording", "faces", "table")

    def __init__(self, deck: Iterable[Face]) -> None:
        self.deck: tuple[Face, ...] = tuple(deck)
        """The deck's faces in deck order: ids below ``len(deck)`` are these cards themselves."""
        self.public: set[int] = set()
        """The handles whose faces everyone has been shown."""
        self.claims: list[Claim] = []
        """The claims of this round, in order."""
        self.false: list[FalseClaimFound] = []
        """The claims of this round this game saw were false (:meth:`core.Game.follow`)."""
        self.reading = OWN
        self.probe = False
        """A throwaway copy asking what a move needs: no snapshot to restore."""
        self.cleared: tuple[Any, ...] | None = None
        """The move :meth:`core.Game.need_for` just found needs nothing here: ``(moment, player,
        action)`` (:func:`moment`), and for :meth:`core.Game.follow` the copy that made it and the
        move's events. Made at that moment the move cannot stop halfway: it takes no snapshot, or
        the game takes the copy over (:func:`take_over`; every peer of a sealed table asks, then
        makes, every move)."""
        self.recording: list[Card] | None = None
        """While :func:`shows` probes a move: every card it shows that was not public."""
        self.table: tuple[list[int], list[Any]] | None = None
        """The handle table as :func:`save` writes it, kept until the table changes (a move's
        snapshot saves the game; the table only grows with shuffles and faces learnt)."""
        self.faces: dict[int, Face] | None = None
        """The audit's replay only: every card's face by handle, cards yet to be made included
        (known to the replay, not public: the claims are read as the table read them)."""

    # -- the hand queries' readings -------------------------------------------------------
    def hidden(self, c: Card) -> bool:
        """Whether ``c``'s face is unknown in the current reading."""
        return type(c) is Sealed or (self.reading != OWN and c.id not in self.public)

    def seen(self, cards: Iterable[Card]) -> list[Card]:
        return [c for c in cards if not self.hidden(c)]

    def _scan(self, cards: Iterable[Card], pred: Callable[[Card], bool]) -> bool | None:
        """True if a seen card satisfies ``pred``, else None if some card is hidden, else False."""
        hidden = False
        for c in cards:
            if self.hidden(c):
                hidden = True
            elif pred(c):
                return True
        return None if hidden else False

    def has(self, cards: Iterable[Card], pred: Callable[[Card], bool]) -> bool:
        found = self._scan(cards, pred)
        return self.reading == STRICT if found is None else found

    def may_have(self, cards: Iterable[Card], pred: Callable[[Card], bool]) -> bool:
        found = self._scan(cards, pred)
        return self.reading != STRICT if found is None else found

    def could_hide(self, cards: Iterable[Card]) -> bool:
        return self.reading != STRICT and any(self.hidden(c) for c in cards)


# -- the table of handles ---------------------------------------------------------------------

def allocate(g: Game, order: Sequence[Card] | None, n: int) -> list[Card]:
    """``n`` fresh cards for a sealed shuffle's slots; their faces are ``order``'s when this game
    was given the order (else sealed). Returns them bottom to top (the last is drawn first)."""
    base = len(g.cards)
    ahead = g._ahead
    out: list[Card] = []
    for k in range(n):
        h = base + k
        src = order[k] if order is not None else None
        if src is not None and not is_sealed(src):
            out.append(Card(h, src.color, src.rank))
        elif h in ahead:
            out.append(Card(h, *ahead[h]))
        elif g._slots is not None and g._slots.faces is not None and h in g._slots.faces:
            out.append(Card(h, *g._slots.faces[h]))
        else:
            out.append(Sealed(h))
    g.cards.extend(out)
    g._slots.table = None  # type: ignore[union-attr]
    g._play_acts.extend(g._plays_of(c) for c in out)
    if ahead:
        # Used up (the rules that turn them up make them public): a later round makes these
        # handles afresh.
        g._ahead = {h: f for h, f in ahead.items() if not base <= h < base + n}
    return out


def learn(g: Game, handle: int, face: Face, public: bool) -> Card:
    """This game now knows card ``handle``'s face (to everyone's knowledge with ``public``)."""
    s = g._slots
    if s is None:
        raise ValueError("only a sealed game learns faces (a full-information game knows them all)")
    if not isinstance(handle, int) or isinstance(handle, bool) or not 0 <= handle < len(g.cards):
        raise ValueError(f"there is no card {handle!r} in this game")
    face = (face[0], str(face[1]))
    if face not in g._faces:
        raise ValueError(f"{face} is not a face of the {g.variant} deck")
    old = g.cards[handle]
    if not is_sealed(old):
        if old.face != face:
            raise ValueError(f"card {handle} is {old}, not {face}")
        if public:
            s.public.add(handle)
        return old
    card = Card(handle, face[0], face[1])
    g.cards[handle] = card
    s.table = None
    g._play_acts[handle] = g._plays_of(card)
    replace(g, {handle: card})
    if public:
        s.public.add(handle)
    g._legal_cache = (-1, {})
    return card


def replace(g: Game, cards: dict[int, Card]) -> None:
    """Put the newly known ``cards`` in place of their sealed copies wherever the game keeps them.
    (The deal's events are filled in when read: :attr:`core.Game.deal_events`.)"""
    seen: set[int] = set()
    # A sealed copy equals only itself (no face has the sealed rank), so list.index finds it at
    # C speed: every peer learns the card each move shows, in two or three games.
    wanted = [(Sealed(h), card) for h, card in cards.items()]
    for lst in g._card_lists():
        if id(lst) in seen:
            continue
        seen.add(id(lst))
        for key, card in wanted:
            while key in lst:
                lst[lst.index(key)] = card


def fill(g: Game, events: Sequence[Event]) -> list[Event]:
    """``events`` with every card this game now knows in place of its sealed copy."""
    out = []
    table = g.cards
    for e in events:
        if any(type(c) is Sealed and type(table[c.id]) is not Sealed for c in e.cards):
            e = e._replace(cards=tuple(table[c.id] if type(c) is Sealed else c for c in e.cards))
        out.append(e)
    return out


def open_cards(g: Game, cards: Sequence[Card]) -> list[Card]:
    """The rules show ``cards`` to everyone: they are public from now on. A card this game
    cannot see stops the move (:class:`RevealStop`): its face must be shown first."""
    s = g._slots
    assert s is not None
    table = g.cards
    sealed = [c.id for c in cards if type(table[c.id]) is Sealed]
    if sealed:
        ahead = g._ahead
        if all(h in ahead for h in sealed):
            for h in sealed:
                learn(g, h, ahead[h], True)
        else:
            raise RevealStop(Reveal(tuple(sealed)), g)
    out = [table[c.id] for c in cards]
    if s.recording is not None:
        s.recording += [c for c in out if c.id not in s.public]
    s.public.update(c.id for c in out)
    return out


# -- saving and loading -------------------------------------------------------------------------

def save(g: Game) -> dict[str, Any]:
    s = g._slots
    assert s is not None
    size = len(s.deck)
    table = g.cards
    if s.table is None:
        s.table = ([c.id for c in table if type(c) is Sealed],
                   [x for c in table[size:] if type(c) is not Sealed for x in c])
    return {
        "deck": [list(f) for f in s.deck],
        "size": len(table),
        "sealed": list(s.table[0]),
        "faces": list(s.table[1]),  # id, colour, rank of each known slot, flat
        "public": sorted(s.public),
        "claims": [[c.version, c.seat, c.decision, c.action.to_dict(), list(c.handles), c.words] for c in s.claims],
        "false": [[f.version, f.seat, f.action.to_dict(), f.words, f.why] for f in s.false],
    }


def copy_slots(s: SlotState) -> SlotState:
    """A copy of ``s`` as :func:`save` and :func:`load` make it (the audit's faces are not saved)."""
    out = SlotState.__new__(SlotState)
    out.deck, out.public = s.deck, set(s.public)
    out.claims, out.false = list(s.claims), list(s.false)
    out.reading, out.probe, out.cleared, out.recording, out.faces = OWN, False, None, None, None
    out.table = s.table  # replaced, never changed in place
    return out


def load(g: Game, d: dict[str, Any]) -> None:
    """Rebuild the table of a sealed game saved by :func:`save` (``g.cards`` holds the deck)."""
    s = g._slots = SlotState(tuple(f) for f in d["deck"])
    if [c.face for c in g.cards] != list(s.deck):
        raise ValueError("the saved deck is not this variant's deck with these options")
    sealed = set(d["sealed"])
    flat = d["faces"]
    faces = {flat[k]: (flat[k + 1], flat[k + 2]) for k in range(0, len(flat), 3)}
    table, acts = g.cards, g._play_acts
    size = len(table)
    for i in sealed:
        if i < size:
            table[i] = Sealed(i)
            acts[i] = ()
    for h in range(size, d["size"]):
        c = Sealed(h) if h in sealed or h not in faces else Card(h, *faces[h])
        table.append(c)
        acts.append(g._plays_of(c))
    s.public = set(d["public"])
    s.claims = [Claim(v, seat, kind, Action.from_dict(a), tuple(h), w) for v, seat, kind, a, h, w in d["claims"]]
    s.false = [FalseClaimFound(v, seat, Action.from_dict(a), w, why) for v, seat, a, w, why in d.get("false", ())]


def save_events(events: Sequence[Event]) -> list[dict[str, Any]]:
    """Events of a sealed game as data: cards by handle (their faces are in the table)."""
    out = []
    for e in events:
        d = e._replace(cards=()).to_dict()
        if e.cards:
            d["ids"] = [c.id for c in e.cards]
        out.append(d)
    return out


def load_events(g: Game, data: Sequence[dict[str, Any]]) -> list[Event]:
    out = []
    for d in data:
        d = dict(d)
        ids = d.pop("ids", [])
        out.append(Event.from_dict(d)._replace(cards=tuple(g.cards[i] for i in ids)))
    return out


# -- copies that know less ------------------------------------------------------------------------

def blind_copy(g: Game, seats: Iterable[int]) -> Game:
    """A copy of sealed game ``g`` that knows only the public cards and ``seats``' hands (what a
    replica at a table knows; no seats: a spectator's, or a host that holds no hand)."""
    s = g._slots
    if s is None:
        raise ValueError("only a sealed game has blind copies (new_game(..., sealed=True))")
    keep = set(s.public)
    for q in seats:
        keep.update(c.id for c in g.hands[q])
    live = {c.id for c in g.all_cards()}
    d = g.to_dict()
    slots = d["slots"]
    # Forgotten: cards in play this copy may not see, and every card no longer in play (a shuffle
    # gave it a fresh id); the deck's own ids stay known unless a scripted position put them in play.
    forget = set(slots["sealed"]) | {h for h in live if h not in keep}
    flat = slots["faces"]
    known = [flat[k:k + 3] for k in range(0, len(flat), 3)]
    forget |= {f[0] for f in known if f[0] not in live}
    slots["sealed"] = sorted(forget)
    slots["faces"] = [x for f in known if f[0] not in forget for x in f]
    slots["false"] = []  # what the original saw through, this copy may not have
    return type(g).from_dict(d, source=BlindSource())


def deliveries(g: Game, events: Sequence[Event]) -> dict[int, list[int]]:
    """Which cards each seat is to see after a move: every card in its hand, and the cards of
    every event shown to it (``visible_to``). The network opens to each seat those it lacks."""
    out: dict[int, list[int]] = {q: [c.id for c in h] for q, h in enumerate(g.hands)}
    for e in events:
        if e.visible_to is not None:
            for q in e.visible_to:
                out.setdefault(q, []).extend(c.id for c in e.cards)
    return {q: list(dict.fromkeys(hs)) for q, hs in out.items()}


# -- moves in a sealed game -------------------------------------------------------------------------

def claims_of(g: Game, p: int, action: Action) -> list[Claim]:
    """The claim ``p`` makes with ``action``: none when the public cards decide that it is legal
    (or cannot say: the move shows what it rests on), one when only hidden cards do."""
    s = g._slots
    assert s is not None
    try:
        s.reading = PUBLIC
        if action not in g._legal_now(p):
            return []
        s.reading = STRICT
        if action in g._legal_now(p):
            return []
    finally:
        s.reading = OWN
    hidden = tuple(c.id for c in g._claim_cards(p) if c.id not in s.public)
    return [Claim(g.version, p, g._decision_kind() if p == g._decider() else "out_of_turn", action, hidden,
                  g._claim_words(p, action))]


def apply(g: Game, p: int, action: Action) -> list[Event]:
    """:meth:`core.Game.apply` in a sealed game, the action known to be legal here: the claim it
    makes is recorded, and a move that lacks a shuffle or a face leaves the game as it was."""
    s = g._slots
    assert s is not None
    claims = claims_of(g, p, action)
    # A copy, not a to_dict: every peer of a sealed table makes every move on two games.
    cleared, s.cleared = s.cleared, None
    snapshot = None if s.probe or cleared is not None and cleared[:3] == (moment(g), p, action) else g.copy()
    settled, ahead = g._settled, g._ahead
    try:
        events = g._act(p, action)
    except (ChanceStop, RevealStop) as stop:
        if snapshot is not None:
            g.restore(snapshot)
            if settled:
                g._settled = settled
            if ahead:
                g._ahead = ahead
        need = stop.chance if isinstance(stop, ChanceStop) else stop.need
        raise UnmetNeed(need) from None
    if claims:
        s = g._slots  # (restore replaces it; not here, but read it afresh all the same)
        assert s is not None
        s.claims += claims
        events[:0] = [Event("claim", player=p, reason=c.words, count=len(c.handles)) for c in claims]
    return events


def shows(g: Game, p: int, action: Action, claimed: bool = False) -> list[Card]:
    """The cards ``p``'s ``action`` shows to everyone that are not public yet, as this game knows
    them: what the player's own client sends with the intent (the faces of its cards it plays,
    lays or discards face up). Shuffles are taken as given and cards this game cannot see are
    left for others to show. ``claimed``: the move as the table carried it out, legal here or
    not (the audit's replay, before it reads a claim)."""
    s = g._slots
    if s is None:
        return []
    from .state import copy

    probe = copy(g, _AnyOrder())
    ps = probe._slots
    assert ps is not None
    ps.probe = True
    ps.recording = []
    probe._settled = dict(g._settled)
    try:
        if claimed:
            apply(probe, p, action)
        else:
            probe.apply(p, action)
    except (UnmetNeed, SealedFace, ChanceStop, RevealStop):
        pass
    except Exception:  # noqa: BLE001  (a move this game knows is wrong: what it showed so far)
        if not claimed:
            raise
    return list({c.id: c for c in ps.recording}.values())


class _AnyOrder:
    """A source for :func:`shows`' probe: any order will do (the shows come before it matters)."""

    def shuffle(self, items: Sequence[Any], epoch: int) -> list[Any] | None:
        if items and all(isinstance(x, Card) for x in items):
            return None
        return list(items)


def probe_of(g: Game) -> Game:
    """A copy of ``g`` whose source answers nothing (a shuffle or face it lacks stops the move)."""
    from .source import StopAtChance

    from .state import copy

    probe = copy(g, StopAtChance())
    probe._settled = dict(g._settled)
    probe._ahead = dict(g._ahead)
    if probe._slots is not None:
        probe._slots.probe = True
    return probe


def moment(g: Game) -> tuple[int, int, int, int]:
    """Where ``g`` stands, as far as cheaply seen: its move, round, needs settled and cards shown to all."""
    return g.version, g.round, len(g._settled), -1 if g._slots is None else len(g._slots.public)


def _same_moment(probe: Game, g: Game) -> bool:
    """Whether ``probe`` (a :func:`probe_of` copy) is of ``g`` as it is now, as far as cheaply seen:
    the same move, no card shown to all and no need settled since."""
    return moment(probe) == moment(g)


def first_need(g: Game, move: Callable[[Game], object], probe: Game | None = None,
               made: list[Any] | None = None) -> Chance | Reveal | None:
    """Make ``move`` on a copy whose source answers nothing (``probe``, made ahead by
    :func:`probe_of`, if ``g`` has not moved since): the first shuffle or face it lacks. If it
    lacks none and ``made`` is given, the copy and what ``move`` returned are put in it."""
    if probe is None or not _same_moment(probe, g):
        probe = probe_of(g)
    try:
        out = move(probe)
    except ChanceStop as stop:
        return stop.chance
    except RevealStop as stop:
        return stop.need
    except UnmetNeed as e:
        return e.need
    if made is not None:
        made[:] = [probe, out]
    return None


def take_over(g: Game, probe: Game) -> None:
    """``g`` becomes ``probe``, a :func:`probe_of` copy of it that has made a move: what making
    the move again would give, without making it again."""
    s = g._slots
    assert s is not None
    faces = s.faces
    g.restore(probe)  # the deck source stays g's
    ps = g._slots
    assert ps is not None
    ps.probe, ps.cleared, ps.faces = False, None, faces


def deliveries_after(g: Game, move: Callable[[Game], list[Event]]) -> dict[int, list[int]] | None:
    """:func:`deliveries` after ``move`` (which returns its events), made on a copy; None if the
    move stops for a shuffle or a face the game lacks, or is illegal."""
    from .errors import IllegalAction

    probe = probe_of(g)
    try:
        events = move(probe)
    except (ChanceStop, RevealStop, UnmetNeed, SealedFace, IllegalAction):
        return None
    return deliveries(probe, events)


def live_faces(g: Game) -> Counter:
    """The faces of the cards in play that this game knows, counted."""
    return Counter(c.face for c in g.all_cards() if type(c) is not Sealed)
