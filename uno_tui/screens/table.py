"""The table: the one screen where the game is played.

It draws the session's observation, turns keys into intents, and paces the
bots with a timer. It decides no rule: a key becomes an action taken from
``obs["legal"]`` when there is one, and otherwise the action is sent anyway
so the engine explains (in words) why it cannot be done.
"""

from __future__ import annotations

import random
from typing import Any

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Footer, Static

from core import Action, Event, IllegalAction

from ..narration import humanize_error
from ..session import Session
from ..widgets import DiscardTrail, GameLog, HandView, MatchBar, PileView, PlayersView, StatusLine
from ..widgets.cards import card_name
from .color_picker import ColorPicker
from .help import HelpScreen
from .log_screen import LogScreen
from .round_over import RoundOverChoice, RoundOverScreen
from .target_picker import TargetPicker

MIN_TIMER = 0.005
"""Fast mode still goes through a timer (a zero interval is not allowed), so keys stay responsive."""
MIN_SIZE = (60, 18)
"""Below this the table cannot be drawn legibly; a message says so instead."""
WIDE = 118
"""From this width the log moves to a column on the right."""
SHORT = 30
"""Below this height the panels drop their bottom rims, the pile draws small cards and a hand that needs
two rows of chips shows one line per row: the log keeps room for a round of moves (see the README)."""
LOG_BINDING = Binding("L", "whole_log", "log", key_display="L")
"""Every table's key for the whole log (scrollable, searchable)."""


class TableScreen(Screen[None]):
    AUTO_FOCUS = None  # nothing on the table takes focus: the screen owns the keys

    BINDINGS = [
        Binding("left,h", "select(-1)", "pick", key_display="←→"),
        Binding("right,l", "select(1)", "pick", show=False),
        Binding("enter,space", "play", "play", key_display="⏎"),
        Binding("d", "intent('draw')", "draw"),
        Binding("p", "intent('pass')", "pass"),
        Binding("u", "intent('uno')", "UNO"),
        Binding("c", "intent('challenge')", "challenge"),
        # The status line names x and n when they matter: the footer keeps its room for the log's key.
        Binding("x", "catch", "catch", show=False),
        Binding("n", "next_round", "next", show=False),
        LOG_BINDING,
        Binding("question_mark", "help", "help", key_display="?"),
    ]

    obs: reactive[dict[str, Any] | None] = reactive(None)
    """The human's view; every widget on the table is bound to it."""

    def __init__(self, session: Session, *, pacing: tuple[float, float] = (0.6, 0.9)) -> None:
        super().__init__()
        self.session = session
        self.pacing = pacing
        self._rng = random.Random()  # pacing jitter only; the game's randomness is in core
        self._bot_timer: Timer | None = None
        self._told = False  # the log has the round's heading and deal: bots may move after it
        self._round_over_timer: Timer | None = None
        self._round_over_pending = False  # the round ended and its summary has not been shown yet
        self._too_small = False
        self._prompted = -1  # the version at which a Color Roulette picker last opened by itself

    # -- layout -------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        names, labels = self.session.names, self.session.labels
        with Vertical(id="table"):
            yield MatchBar(id="matchbar").data_bind(TableScreen.obs)
            with Horizontal(id="body"):
                with Vertical(id="main"):
                    with Horizontal(id="top"):
                        yield from self._compose_top(names, labels)
                    yield from self._compose_above_hand(names)
                    with Vertical(id="hand-panel"):
                        yield self._hand_view().data_bind(TableScreen.obs)
                    yield from self._compose_below_hand(names)
                yield GameLog(id="log")
            yield self._status_line(names).data_bind(TableScreen.obs)
        yield Static(id="too-small")
        yield Footer(compact=True, show_command_palette=False)

    # What a variant's table shows differently (each widget is bound to ``obs`` where it is placed):
    def _compose_top(self, names: list[str], labels: list[str]) -> ComposeResult:
        """The widgets side by side above the hand: the seats and the table."""
        yield PlayersView(names, labels, id="players").data_bind(TableScreen.obs)
        yield PileView(names, id="pile").data_bind(TableScreen.obs)

    def _compose_above_hand(self, names: list[str]) -> ComposeResult:
        yield from ()

    def _compose_below_hand(self, names: list[str]) -> ComposeResult:
        yield DiscardTrail(id="trail").data_bind(TableScreen.obs)

    def _hand_view(self) -> HandView:
        return HandView(id="hand")

    def _status_line(self, names: list[str]) -> Widget:
        return StatusLine(names, id="status")

    def on_mount(self) -> None:
        self._set_titles()
        self.query_one("#status").deals = self.session.deals  # type: ignore[attr-defined]
        self.query_one(GameLog).can_focus = False  # the arrow keys choose cards, they do not scroll the log
        self._fit(self.app.size.width, self.app.size.height)
        self._refresh()
        # The log writes once it knows its width, so the deal is told after the first layout.
        self.call_after_refresh(self._tell_deal)

    def _set_titles(self) -> None:
        self.query_one("#pile").border_title = "Table"
        self.query_one("#log").border_title = "Log"

    def _tell_deal(self) -> None:
        log = self.query_one(GameLog)
        assert self.obs is not None
        log.add_heading(f"Round {self.obs['round'] + 1}")
        log.add_events(self.session.opening_events(), self.session.names, self.session.me)
        self._told = True
        self._schedule_bots()  # in case a bot begins (a Reverse or Skip turned up first)
        self._prompt_if_asked()  # a scripted position may start with a question to you

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.width, event.size.height)

    def _fit(self, width: int, height: int) -> None:
        """Swap the table for a message when the terminal is too small; use width when there is plenty."""
        too_small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        self.set_class(too_small, "-too-small")
        self.set_class(width >= WIDE, "-wide")
        self.set_class(width < 80, "-narrow")
        short = height < SHORT and width < WIDE  # a wide table has its log in a column of its own
        self.set_class(short, "-short")
        for view in self.query(HandView):
            view.dense = short
        for pile in self.query("#pile"):
            if hasattr(pile, "short"):  # the piles that draw smaller on a short terminal
                pile.short = short
        self.query_one("#too-small", Static).update(
            f"Terminal too small: {width}×{height}.\n"
            f"uno-tui needs at least {MIN_SIZE[0]}×{MIN_SIZE[1]}; please enlarge the window.\n\n"
            "ctrl+q quits"
        )
        was, self._too_small = self._too_small, too_small
        if was != too_small:
            self.refresh_bindings()
        if was and not too_small:
            self._schedule_bots()  # the bots waited while you could not see them

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Keys that act on a table you cannot see are switched off (ctrl+q is the app's).
        if self._too_small:
            return False
        if action == "intent" and parameters == ("challenge",) and not self._challenges():
            return False  # no Wild Draw Four can be challenged at this table: no key for it
        return True

    def _challenges(self) -> bool:
        obs = self.obs or self.session.observation()
        return obs["variant"] == "classic" and not (obs.get("options") or {}).get("no_bluff")

    # -- showing the game -----------------------------------------------------------
    def _refresh(self) -> None:
        self.obs = self.session.observation()  # the bound widgets follow
        count = len(self.obs.get("hand", ()))
        score = self.obs["scores"][self.obs["me"]]
        self.query_one("#hand-panel").border_title = (
            f"Your hand · {count} card{'s' if count != 1 else ''} · {score} pts"
        )

    def _after(self, events: list[Event]) -> None:
        """Log what happened, redraw, and let the game go on."""
        self.query_one(GameLog).add_events(events, self.session.names, self.session.me)
        self._mark_drawn(events)
        self._refresh()
        assert self.obs is not None
        self.call_after_refresh(self._prompt_if_asked)
        if self.obs["over"]:
            self._stop_bots()
            self._round_over_pending = True
            delay = MIN_TIMER if self.pacing[1] == 0 else 1.2  # a moment to see the last card land
            if self._round_over_timer is None:
                self._round_over_timer = self.set_timer(delay, self._show_round_over)
        else:
            self._schedule_bots()

    def _mark_drawn(self, events: list[Event]) -> None:
        """Mark the cards you just drew (the events name them to you) as new in your hand."""
        me = self.session.me
        drawn = {c.id for e in events if e.kind == "draw" and e.player == me and e.reason != "deal"
                 for c in e.cards}
        if drawn:
            hand = self.query_one("#hand", HandView)
            hand.fresh = hand.fresh | drawn

    def _prompt_if_asked(self) -> None:
        """Open the colour picker by itself when a Color Roulette makes you name a colour."""
        obs = self.obs
        if obs is None or self.app.screen is not self or self._prompted == obs["version"]:
            return
        if obs["phase"] == "choose" and obs["current"] == obs["me"] and self._legal("choose"):
            self._prompted = obs["version"]
            self._ask_roulette()

    def _ask_roulette(self) -> None:
        assert self.obs is not None
        by = (self.obs.get("pending") or {}).get("by")
        who = self.session.names[by] if by is not None else "Someone"

        def named(color: str | None) -> None:
            if color is not None:
                self._send(Action("choose", color=color))

        self.app.push_screen(ColorPicker("Color Roulette", self.obs.get("hand", ()),
                                         title=f"{who}'s Color Roulette: name a colour; "
                                               "cards turn up for you until it shows"), named)

    # -- bots -----------------------------------------------------------------------
    def _schedule_bots(self) -> None:
        """(Re)start the pause before the bots' next move."""
        self._stop_bots()
        if not self._told:
            return  # _tell_deal starts them, once the log has told the deal
        low, high = self.pacing
        delay = self._rng.uniform(low, high) if high > 0 else MIN_TIMER
        self._bot_timer = self.set_timer(delay, self._bot_tick)

    def _stop_bots(self) -> None:
        if self._bot_timer is not None:
            self._bot_timer.stop()
            self._bot_timer = None

    def _bot_tick(self) -> None:
        self._bot_timer = None
        if self._too_small or not self.is_active:
            return  # resumed by _fit or on_screen_resume
        events = self.session.bot_step()
        if events is not None:
            self._after(events)
        # None: nobody else wants to act; the next change (your move) wakes the bots.

    def on_screen_resume(self) -> None:
        if self.obs is None:
            return
        if not self.obs["over"]:
            self._schedule_bots()
        elif self._round_over_pending and self._round_over_timer is None:
            self._round_over_timer = self.set_timer(MIN_TIMER, self._show_round_over)

    # -- the human's intents --------------------------------------------------------------
    def _send(self, action: Action) -> bool:
        try:
            events = self.session.send(action)
        except IllegalAction as e:
            self._explain(str(e))
            return False
        self.query_one("#hand", HandView).fresh = frozenset()  # you acted: your new cards are seen
        self._after(events)
        return True

    def _explain(self, message: str) -> None:
        text = humanize_error(message, self.session.names, self.session.me)
        self.notify(text, title="Not now", severity="warning", timeout=4)

    def _legal(self, kind: str) -> list[Action]:
        assert self.obs is not None
        return [Action.from_dict(a) for a in self.obs.get("legal", ()) if a["kind"] == kind]

    def action_select(self, step: int) -> None:
        self.query_one(HandView).move(step)

    def action_play(self) -> None:
        assert self.obs is not None
        if self.obs["phase"] == "choose" and self._legal("choose"):
            self._ask_roulette()  # the picker was closed: enter opens it again
            return
        hand = self.query_one(HandView)
        card = hand.selected_card
        if card is None:
            self._explain("you have no card to play")
            return
        plays = self._legal("play")
        if self.obs["current"] != self.obs["me"] and plays and all(a.card != card["id"] for a in plays):
            # A jump-in is on offer: enter plays the card that can jump in.
            card = next(c for c in hand.cards if c["id"] == plays[0].card)
        self._play(card)

    def _play(self, card: dict[str, Any]) -> None:
        assert self.obs is not None
        plays = [a for a in self._legal("play") if a.card == card["id"]]
        if plays and self.obs["current"] != self.obs["me"]:
            self.notify("Jump in!", timeout=2)
        targets = [a.target for a in plays if a.target is not None]
        if not plays:
            self._send(Action("play", card["id"]))  # not legal: the engine says why
        elif targets:
            names = self.session.names
            cards = [p["cards"] for p in self.obs["players"]]

            def chosen(seat: int | None) -> None:
                if seat is not None:
                    self._send(Action("play", card["id"], None, seat))

            self.app.push_screen(TargetPicker(f"Your {card_name(card)}: swap hands with whom?", targets,
                                              ["You" if i == self.obs["me"] else n for i, n in enumerate(names)],
                                              cards, hand=len(self.obs.get("hand", ()))), chosen)
        elif all(a.color is None for a in plays):
            self._send(plays[0])
        else:
            name = card_name(card)
            assert self.obs is not None

            def named(color: str | None) -> None:
                if color is not None:
                    self._send(Action("play", card["id"], color))

            self.app.push_screen(ColorPicker(name, self.obs.get("hand", ())), named)

    @on(HandView.PlayRequested)
    def _clicked(self, message: HandView.PlayRequested) -> None:
        card = self.query_one(HandView).selected_card
        if card is not None and card["id"] == message.card_id:
            self._play(card)

    def action_intent(self, kind: str) -> None:
        legal = self._legal(kind)
        self._send(legal[0] if legal else Action(kind))

    def action_catch(self) -> None:
        legal = self._legal("catch")
        if legal:
            self._send(legal[0])
            return
        assert self.obs is not None
        exposed = next((i for i, p in enumerate(self.obs["players"]) if p["exposed"]), None)
        self._send(Action("catch", target=exposed))

    def action_next_round(self) -> None:
        assert self.obs is not None
        if self.obs["over"]:
            self._deal("rematch" if self.obs["match_over"] else "next")
            return
        try:
            events = self.session.next_round()
        except IllegalAction as e:
            self._explain(str(e))  # "the round is still being played"
            return
        self._after(events)

    def action_help(self) -> None:
        assert self.obs is not None
        self.app.push_screen(HelpScreen(self.obs["variant"], self.obs.get("options") or {}))

    def action_whole_log(self) -> None:
        """Every line of the log on a screen of its own, to scroll and search."""
        self.app.push_screen(LogScreen(self.query_one(GameLog).entries))

    # -- between rounds -----------------------------------------------------------------
    def _show_round_over(self) -> None:
        self._round_over_timer = None
        assert self.obs is not None
        if self.obs["over"] and self._round_over_pending and self.is_active:
            self._round_over_pending = False
            screen = self._round_over_screen()
            screen.deals = self.session.deals
            self.app.push_screen(screen, self._round_over_chosen)

    def _round_over_screen(self) -> RoundOverScreen:
        assert self.obs is not None
        return RoundOverScreen(self.obs, self.session.names)

    def _round_over_chosen(self, choice: RoundOverChoice | None) -> None:
        if choice in ("next", "rematch"):
            self._deal(choice)
        elif choice == "quit":
            self.app.exit()

    def _deal(self, how: RoundOverChoice) -> None:
        self._round_over_pending = False
        self.query_one("#hand", HandView).fresh = frozenset()
        events = self.session.rematch() if how == "rematch" else self.session.next_round()
        log = self.query_one(GameLog)
        obs = self.session.observation()
        log.add_heading(("New match · " if how == "rematch" else "") + f"Round {obs['round'] + 1}")
        self._after(events)
