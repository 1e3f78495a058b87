"""Wild Rawz: must-follow trick-taking with UNO cards (see ``docs/rules/wildrawz.md``).

Not a shedding game: a drafted trump, one optional way out of each trick, and
a bonus for landing exactly on the target your marker and leaving cards set.
"""

from __future__ import annotations

from typing import Any

from ...actions import Action, play_action
from ...cards import COLORS, Card
from ...errors import IllegalAction
from ...events import COMMON_WORDS, Event, counted, register_words
from ...game import Game
from ...registry import register
from ...setup import begin

ROW_SIZE = {3: 7, 4: 9}
"""Number cards turned face up for the trump draft."""
HAND_SIZE = {3: 11, 4: 12}
"""Cards dealt to each player (4 players: 12, so 3 are set aside as the seed says)."""
MARKER = {3: 8, 4: 7}
"""The number on each player's sideways marker card."""
BONUS = 5


def number(card: Card) -> int:
    """A card's number for the bonus sum; the Skip counts 0."""
    return int(card.rank) if card.rank.isdigit() else 0


@register
class WildRawzGame(Game):
    """Wild Rawz for 3 or 4 players; the match lasts two turns of the start marker."""

    variant = "wildrawz"
    sealable = True
    min_players = 3
    max_players = 4
    OPTIONS: dict = {}

    @classmethod
    def build_deck(cls, num_players: int, options: dict[str, Any]) -> list[tuple[str | None, str]]:
        if num_players == 4:
            ranks = ["0", "7", "S"] + [str(n) for n in range(1, 7) for _ in range(2)]
        else:  # 3 players (and the default for core.deck)
            ranks = ["0", "1", "2", "3", "4", "5", "6", "8", "S", "7", "7"]
        return [(color, rank) for color in COLORS for rank in ranks]

    # -- round state ----------------------------------------------------------------
    def _reset_round(self) -> None:
        super()._reset_round()
        n = self.num_players
        self.row: list[Card] = []  # face-up cards still to draft
        self.aside: list[Card] = []  # face-up cards out of this round
        self.trump: Card | None = None
        self.trick: list[tuple[int, Card]] = []  # cards played to the trick, in order
        self.leaver: tuple[int, Card] | None = None  # who left this trick, with which card
        self.leader = self._next(self.dealer)
        self.won = [0] * n  # tricks won this round
        self.taken: list[list[Card]] = [[] for _ in range(n)]  # the cards of those tricks
        self.left: list[list[Card]] = [[] for _ in range(n)]  # cards laid by the marker
        self.round_scores: list[int] = [0] * n
        self.last_trick: dict[str, Any] | None = None

    @property
    def marker(self) -> int:
        return MARKER[self.num_players]

    @property
    def top(self) -> Card | None:  # type: ignore[override]
        """The last card played to the current trick (None between tricks)."""
        return self.trick[-1][1] if self.trick else None

    @property
    def start_player(self) -> int:
        """Who holds the start marker this round."""
        return self._next(self.dealer)

    def _deal(self) -> list[Event]:
        n = self.num_players
        pile = self._shuffled(list(self.cards))
        events: list[Event] = [Event("deal", player=self.start_player, count=HAND_SIZE[n])]
        # Turn up number cards for the draft; a Skip met on the way goes back on the pile.
        held: list[Card] = []
        while len(self.row) < ROW_SIZE[n]:
            c = self._open([pile.pop()])[0]  # turned face up
            (self.row if c.is_number else held).append(c)
        pile.extend(reversed(held))
        events.append(Event("row", cards=tuple(self.row), count=len(self.row)))
        first = self.start_player
        for _ in range(HAND_SIZE[n]):
            for i in range(n):
                self.hands[(first + i) % n].append(pile.pop())
        for p in range(n):
            events.append(Event("draw", player=p, cards=tuple(self.hands[p]), count=len(self.hands[p]),
                                reason="deal", visible_to=(p,)))
        self.aside = self._open(pile[::-1])  # set aside face up
        events.append(Event("aside", cards=tuple(self.aside), count=len(self.aside)))
        self.phase = "draft"
        self.current = first
        self.leader = first
        return events

    def _setup(self, setup: dict[str, Any]) -> None:
        """Scripted positions: ``hands``, ``row`` (still to draft) or ``trump``,
        ``trick`` (``[player, notation]`` pairs in play order), ``leaver``
        (``[player, notation]``), ``leader``, ``current``, ``won``, ``left``,
        ``scores``, ``round``. Every card not named is set aside face up.
        """
        pool, take = begin(self, setup, {"hands", "row", "trump", "trick", "leaver", "leader", "current",
                                         "won", "left", "scores", "round"})
        n = self.num_players
        if "round" in setup:
            self.round = int(setup["round"])
            self.dealer = (n - 1 + self.round) % n
        self.row = [take(t) for t in setup.get("row", [])]
        if "trump" in setup:
            self.trump = take(setup["trump"])
            if not self.trump.is_number:
                raise ValueError("the trump must be a number card")
            self.phase = "trick"
        elif self.row:
            self.phase = "draft"
        else:
            raise ValueError("setup needs a 'row' to draft from or a 'trump'")
        self.trick = [(int(p), take(t)) for p, t in setup.get("trick", [])]
        if setup.get("leaver") is not None:
            p, t = setup["leaver"]
            self.leaver = (int(p), take(t))
        self.left = [[take(t) for t in cards] for cards in setup.get("left", [[] for _ in range(n)])]
        if self.leaver is not None:  # a leaving card lies by its marker, as after a real leave
            self.left[self.leaver[0]].append(self.leaver[1])
        self.won = [int(w) for w in setup.get("won", [0] * n)]
        if "scores" in setup:
            self.scores = [int(s) for s in setup["scores"]]
        self.aside = sorted((c for cards in pool.values() for c in cards), key=lambda c: c.id)
        self.leader = int(setup.get("leader", self.trick[0][0] if self.trick else self.start_player))
        acted = len(self.trick) + (self.leaver is not None)
        self.current = int(setup.get("current", (self.leader + acted) % n))
        if not 0 <= self.current < n:
            raise ValueError(f"setup 'current' must be a player from 0 to {n - 1}")
        self._deal_events = []

    # -- strength -----------------------------------------------------------------------
    def strength(self, card: Card, lead_color: str | None) -> tuple[int, int]:
        """How strong ``card`` is in a trick led in ``lead_color``; bigger wins.

        Trump card > trump number > trump colour 9..0 > its Skip > led colour
        9..0 > its Skip > anything else (which never wins).
        """
        trump = self.trump
        assert trump is not None
        value = int(card.rank) if card.rank.isdigit() else -1
        if card.rank == trump.rank:
            return (5, 0) if card.color == trump.color else (4, 0)
        if card.color == trump.color:
            return (3, value)
        if card.color == lead_color:
            return (2, value)
        return (0, value)

    @property
    def lead_color(self) -> str | None:
        return self.trick[0][1].color if self.trick else None

    def trick_winner(self) -> int:
        """Who is winning the trick on the table (equal strength: the later card)."""
        lead = self.lead_color
        best_p, best = -1, (-1, -1)
        for p, card in self.trick:
            s = self.strength(card, lead)
            if s >= best:
                best_p, best = p, s
        return best_p

    # -- hooks the engine calls -----------------------------------------------------------
    def is_playable(self, card: Card) -> bool:
        lead = self.lead_color
        if lead is None or card.color == lead:
            return True
        return not self._has_card(self.hands[self.current], lambda c: c.color == lead)

    def card_points(self, card: Card) -> int:
        return 0

    def _turn_actions(self, p: int) -> list[Action]:
        hand = self.hands[p]
        if self.phase == "draft":
            return [Action("take", c.id) for c in self.row]
        if self.phase != "trick":
            return []
        lead = self.lead_color
        if self._slots is None:
            follow = [c for c in hand if c.color == lead] if lead is not None else []
            acts = [play_action(c.id) for c in (follow or hand)]
            if self.trick and self.trick[0][0] != p and self.leaver is None:
                acts += [Action("leave", c.id) for c in hand]
            return acts
        # A sealed game: only cards whose faces are known are played or laid (each is shown as it
        # goes), and playing off the led colour is the claim "I hold none of it".
        seen = self._seen(hand)
        follow = [c for c in seen if c.color == lead] if lead is not None else []
        if follow or lead is None or not self._has_card(hand, lambda c: c.color == lead):
            acts = [play_action(c.id) for c in (follow or seen)]
        else:
            acts = []
        if self.trick and self.trick[0][0] != p and self.leaver is None:
            acts += [Action("leave", c.id) for c in seen]
        return acts

    def _claim_words(self, p: int, action: Action) -> str:
        if action.kind == "play" and self.lead_color is not None:
            return f"holds no {self.lead_color} card"
        return super()._claim_words(p, action)

    def _explain_turn(self, p: int, action: Action) -> str:
        if self.phase == "draft":
            return "take one of the face-up cards first (the last one left is the trump)"
        card = self._hand_card(p, action.card)
        if action.kind in ("play", "leave") and card is None:
            return "you do not hold that card"
        if action.kind == "play" and action.color is not None:
            return "trick cards do not name a colour"
        if action.kind == "play":
            return f"you must follow {self.lead_color}: you hold a {self.lead_color} card"
        if action.kind == "leave":
            if not self.trick or self.trick[0][0] == p:
                return "the leader cannot leave the trick"
            return f"{self.names[self.leaver[0]]} has already left this trick" if self.leaver else \
                "you cannot leave now"
        if action.kind == "take":
            return "the trump draft is over"
        return f"{action.kind!r} is not a move in Wild Rawz (play, leave, take)"

    def _do(self, p: int, action: Action, events: list[Event]) -> None:
        card = self.cards[action.card]
        n = self.num_players
        if action.kind == "take":
            self.row.remove(card)
            self.hands[p].append(card)
            events.append(Event("take", player=p, cards=(card,)))
            if len(self.row) == 1:
                self.trump = self.row.pop()
                self.color = self.trump.color
                events.append(Event("trump", cards=(self.trump,), color=self.trump.color))
                self.phase = "trick"
                self.current = self.leader = self.start_player
            else:
                self.current = self._next(p)
            return
        self.hands[p].remove(card)
        card = self._open([card])[0]  # played or laid face up
        if action.kind == "leave":
            self.leaver = (p, card)
            self.left[p].append(card)
            events.append(Event("leave", player=p, cards=(card,)))
        else:
            self.trick.append((p, card))
            self.discard.append(card)
            self.color = self.lead_color
            events.append(Event("play", player=p, cards=(card,)))
        self.current = self._next(p)
        if len(self.trick) + (self.leaver is not None) == n:
            self._close_trick(events)

    def _close_trick(self, events: list[Event]) -> None:
        winner = self.trick_winner()
        cards = [c for _, c in self.trick]
        self.won[winner] += 1
        self.taken[winner].extend(cards)
        self.last_trick = {
            "plays": [[p, c.to_dict()] for p, c in self.trick],
            "winner": winner,
            "leaver": None if self.leaver is None else [self.leaver[0], self.leaver[1].to_dict()],
        }
        events.append(Event("trick", player=winner, cards=tuple(cards), count=len(cards),
                            target=None if self.leaver is None else self.leaver[0]))
        self.leader = self.leaver[0] if self.leaver is not None else winner
        self.trick = []
        self.discard = []
        self.leaver = None
        self.color = None
        self.current = self.leader
        if not any(self.hands):
            self._score_round(events)

    def round_breakdown(self) -> list[dict[str, int]]:
        """Each player's tricks, leaving cards, target and bonus this round."""
        out = []
        for p in range(self.num_players):
            target = self.marker - sum(number(c) for c in self.left[p])
            bonus = BONUS if target == self.won[p] else 0
            out.append({"tricks": self.won[p], "left": len(self.left[p]), "target": target, "bonus": bonus,
                        "total": self.won[p] + len(self.left[p]) + bonus})
        return out

    def _score_round(self, events: list[Event]) -> None:
        self.phase = "over"
        rows = self.round_breakdown()
        self.round_scores = [r["total"] for r in rows]
        for p, r in enumerate(rows):
            self.scores[p] += r["total"]
        best = max(self.round_scores)
        top = [p for p, s in enumerate(self.round_scores) if s == best]
        self.winner = top[0] if len(top) == 1 else None
        self.last_points = best
        for p, r in enumerate(rows):
            events.append(Event("round_over", player=p, points=r["total"],
                                reason="bonus" if r["bonus"] else "score"))
        if self.match_over:
            w = self.match_winner
            events.append(Event("match_over", player=w, points=self.scores[w] if w is not None else None))

    @property
    def round_winners(self) -> list[int]:
        if not self.over:
            return []
        best = max(self.round_scores)
        return [p for p, s in enumerate(self.round_scores) if s == best]

    # -- the match: two turns of the start marker ------------------------------------
    @property
    def rounds_in_match(self) -> int:
        return 2 * self.num_players

    @property
    def target_score(self) -> int:
        return 0  # no target: the match lasts a fixed number of rounds

    @property
    def match_over(self) -> bool:
        return self.over and self.round >= self.rounds_in_match - 1

    @property
    def match_winners(self) -> list[int]:
        """Everyone with the highest total once the match is over (a tie shares the win)."""
        if not self.match_over:
            return []
        best = max(self.scores)
        return [p for p, s in enumerate(self.scores) if s == best]

    @property
    def match_winner(self) -> int | None:
        winners = self.match_winners
        return winners[0] if len(winners) == 1 else None

    def _inconsistencies(self) -> list[str]:
        out = []
        if (self.trump is None) != (self.phase == "draft"):
            out.append(f"phase {self.phase} with trump {self.trump}")
        played = {p for p, _ in self.trick} | ({self.leaver[0]} if self.leaver else set())
        sizes = {len(h) + (q in played) for q, h in enumerate(self.hands)}
        if self.phase == "trick" and len(sizes) > 1:
            out.append(f"hands differ by more than this trick's card: {[len(h) for h in self.hands]}")
        return out

    # -- views and state ---------------------------------------------------------------
    def _observe_public(self, obs: dict[str, Any]) -> None:
        obs.update({
            "start_player": self.start_player,
            "leader": self.leader,
            "lead_color": self.lead_color,
            "row": [c.to_dict() for c in self.row],
            "aside": [c.to_dict() for c in self.aside],
            "trump": None if self.trump is None else self.trump.to_dict(),
            "trick": [[p, c.to_dict()] for p, c in self.trick],
            "leaver": None if self.leaver is None else [self.leaver[0], self.leaver[1].to_dict()],
            "winning": self.trick_winner() if self.trick else None,
            "won": list(self.won),
            "left": [[c.to_dict() for c in cards] for cards in self.left],
            "marker": self.marker,
            "targets": [self.marker - sum(number(c) for c in cards) for cards in self.left],
            "round_scores": list(self.round_scores),
            "rounds_in_match": self.rounds_in_match,
            "last_trick": self.last_trick,
            "match_winners": self.match_winners,
        })
        if self.over:
            obs["breakdown"] = self.round_breakdown()

    def _save_extra(self) -> dict[str, Any]:
        return {
            "row": [c.id for c in self.row],
            "aside": [c.id for c in self.aside],
            "trump": None if self.trump is None else self.trump.id,
            "trick": [[p, c.id] for p, c in self.trick],
            "leaver": None if self.leaver is None else [self.leaver[0], self.leaver[1].id],
            "leader": self.leader,
            "won": list(self.won),
            "taken": [[c.id for c in cards] for cards in self.taken],
            "left": [[c.id for c in cards] for cards in self.left],
            "round_scores": list(self.round_scores),
            "last_trick": self.last_trick,
        }

    def _load_extra(self, d: dict[str, Any]) -> None:
        card = self.cards.__getitem__
        self.row = [card(i) for i in d["row"]]
        self.aside = [card(i) for i in d["aside"]]
        self.trump = None if d["trump"] is None else card(d["trump"])
        self.trick = [(p, card(i)) for p, i in d["trick"]]
        self.leaver = None if d["leaver"] is None else (d["leaver"][0], card(d["leaver"][1]))
        self.leader = d["leader"]
        self.won = list(d["won"])
        self.taken = [[card(i) for i in cards] for cards in d["taken"]]
        self.left = [[card(i) for i in cards] for cards in d["left"]]
        self.round_scores = list(d["round_scores"])
        self.last_trick = d["last_trick"]

    def all_cards(self) -> list[Card]:
        """Every card of the round wherever it is (for conservation checks)."""
        out = [c for h in self.hands for c in h] + self.row + self.aside + [c for _, c in self.trick]
        out += [c for cards in self.taken for c in cards] + [c for cards in self.left for c in cards]
        if self.trump is not None:
            out.append(self.trump)
        return out  # a leaving card is already in ``left``

    def next_round(self) -> list[Event]:
        if self.over and self.match_over:
            raise IllegalAction("the match is over: the start marker has gone round the table twice")
        return super().next_round()


def _round_over(e: Event, who: str, tgt: str) -> str:
    if e.reason == "bonus":
        return f"{who} scores {counted(e.points, 'point')} this round (5 of them for hitting the target)."
    if e.reason == "score":
        return f"{who} scores {counted(e.points, 'point')} this round."
    return COMMON_WORDS["round_over"].format(who=who, n_points=counted(e.points, "point"))  # a shedding game's round


register_words("wildrawz", {
    "row": "Face up for the trump draft: {cards}.",
    "aside": "Set aside face up: {cards}.",
    "take": lambda e, who, tgt: f"{who} takes {e.cards[0].name} from the row.",
    "trump": lambda e, who, tgt: f"Trump: {e.cards[0].name} ({e.color} and every {e.cards[0].rank}).",
    "leave": "{who} leaves the trick with {cards}.",
    "trick": lambda e, who, tgt: f"{who} wins the trick" + (f"; {tgt} left it and leads next." if tgt
                                                            else " and leads next."),
    "round_over": _round_over,
}, plain=True)
