"""The table: what every game's table screen shares.

A table draws the session's observation and turns keys into intents. It decides no rule: a key
becomes an action taken from ``obs["legal"]`` when there is one, and otherwise the action is sent
anyway so the engine explains (in words) why it cannot be done. Whatever changes the table (your
intent, another player's move, a deal) comes back from the session as a
:class:`~uno_tui.session.SessionChanged` message: the table logs it and redraws.

Each game's table (``uno_tui/faces/<variant>/table.py``) subclasses :class:`TableScreen`: it
places its own panels (:meth:`_compose_top` and the hooks beside it), lists its keys with
:func:`table_bindings`, and says what its keys do. What the game is called, its help page, its
round's summary and its status line come from its face (:class:`uno_tui.faces.face.Face`).
"""

from __future__ import annotations

from typing import Any

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Static

from core import Action, Event, IllegalAction

from ..faces.face import Face
from ..narration import humanize_error, match_decided
from ..session import MIN_TIMER, Session, SessionChanged
from ..widgets import GameLog, HandView, MatchBar, StatusLine
from .help import HelpScreen
from .log_screen import LogScreen
from .round_over import RoundOverChoice, RoundOverScreen

MIN_SIZE = (60, 18)
"""Below this the table cannot be drawn legibly; a message says so instead."""
WIDE = 118
"""From this width the log moves to a column on the right."""
SHORT = 30
"""Below this height the panels drop their bottom rims, the pile draws small cards and a hand that needs
two rows of chips shows one line per row: the log keeps room for a round of moves (see the README)."""
LOG_BINDING = Binding("L", "whole_log", "log", key_display="L")
"""Every table's key for the whole log (scrollable, searchable)."""
HELP_BINDING = Binding("question_mark", "help", "help", key_display="?")
"""Every table's key for its help page."""


def tiny_window(width: int, height: int) -> bool:
    """Too small even for the sentence that asks for a larger window (a 10×5 one, say)."""
    return width < 44 or height < 7


def tiny_window_text(width: int, height: int, leave: str) -> str:
    """That sentence in as few cells as it takes: four lines of at most ten."""
    return f"{width}×{height}\ntoo small\nneed {MIN_SIZE[0]}×{MIN_SIZE[1]}\n{leave}"


def table_bindings(play: str, *keys: Binding) -> list[Binding]:
    """A table's keys in the footer's order: ←/→ choose, enter (``play`` says what it does), the game's
    own ``keys``, then the whole log and help, which every table has."""
    return [
        Binding("left,h", "select(-1)", "pick", key_display="←→"),
        Binding("right,l", "select(1)", "pick", show=False),
        Binding("enter,space", "play", play, key_display="⏎"),
        *keys,
        LOG_BINDING,
        HELP_BINDING,
    ]


class TableScreen(Screen[None]):
    """What every game's table shares: the layout's frame, the log, the size checks, sending intents
    and showing what they changed, help and the whole log, and what happens between rounds.

    A subclass lists its keys (``BINDINGS = table_bindings(...)`` with ``inherit_bindings=False``),
    places its panels, and answers its keys; the hooks it may override are the ``_compose_*``
    methods, :meth:`_hand_view`, :meth:`_hand_title`, :meth:`_open_prompt`, :meth:`_play` and
    :meth:`_card_clicked`.
    """

    AUTO_FOCUS = None  # nothing on the table takes focus: the screen owns the keys
    BINDINGS = table_bindings("play")

    PANEL_TITLES: dict[str, str] = {}
    """Border titles of the game's own panels, by selector (the log's is "Log" at every table)."""

    obs: reactive[dict[str, Any] | None] = reactive(None)
    """The human's view; every widget on the table is bound to it."""

    def __init__(self, session: Session, *, face: Face, pacing: tuple[float, float] = (0.6, 0.9)) -> None:
        super().__init__()
        self.session = session
        self.face = face
        """The game on this table: its name, words, help and round summary."""
        self.pacing = pacing
        """The pause before each move of the others (low, high seconds); (0, 0) is fast mode."""
        self._told = False  # the log has the round's heading and deal: the others may move after it
        # Moves that arrived between mounting and telling the deal (a network host's bots do not
        # wait for our screen): logged after the deal, not above it.
        self._untold: list[Event] = []
        self._legal_seen: list[dict[str, Any]] | None = None  # this seat's moves at the last change
        self._round_key: tuple[int, int] | None = None  # (round, scores total) of the deal shown last
        self._last_version = -1
        self._round_over_timer: Timer | None = None
        self._round_over_pending = False  # the round ended and its summary has not been shown yet
        self._ended: dict[str, Any] | None = None  # the observation the last round ended on
        self.gone: str | None = None
        """Why the table is gone (a network table its host closed, or whose link gave up), or None."""
        self._too_small = False
        self._prompted = -1  # the version at which a picker last opened by itself
        self.english = False
        """The cards' names in English alone (``play --english``, for a game whose cards have others)."""

    # -- layout -------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        names, labels = self.session.names, self.session.labels
        with Vertical(id="table"):
            yield MatchBar(self.face, id="matchbar").data_bind(TableScreen.obs)
            with Horizontal(id="body"):
                with Vertical(id="main"):
                    with Horizontal(id="top"):
                        yield from self._compose_top(names, labels)
                    yield from self._compose_above_hand(names)
                    with Vertical(id="hand-panel"):
                        yield self._hand_view().data_bind(TableScreen.obs)
                    yield from self._compose_below_hand(names)
                yield GameLog(id="log")
            yield StatusLine(names, self.face, id="status").data_bind(TableScreen.obs)
        yield Static(id="too-small")
        yield Footer(compact=True, show_command_palette=False)

    # What a game's table places (each widget is bound to ``obs`` where it is placed):
    def _compose_top(self, names: list[str], labels: list[str]) -> ComposeResult:
        """The panels side by side above the hand: the seats and the table."""
        raise NotImplementedError

    def _compose_above_hand(self, names: list[str]) -> ComposeResult:
        yield from ()

    def _compose_below_hand(self, names: list[str]) -> ComposeResult:
        yield from ()

    def _hand_view(self) -> HandView:
        return HandView(self.face.card_painting(), id="hand")

    def on_mount(self) -> None:
        self.query_one("#log").border_title = "Log"
        for selector, title in self.PANEL_TITLES.items():
            self.query_one(selector).border_title = title
        log = self.query_one(GameLog)
        log.can_focus = False  # the arrow keys choose cards, they do not scroll the log
        log.face = self.face
        # Card names in English for players who do not read the cards' own (play --english, the new-game screen's e).
        self.english = bool(getattr(self.app, "english_cards", False)) and self.face.english_names
        log.english = self.query_one(MatchBar).english = self.english
        self._fit(self.app.size.width, self.app.size.height)
        self._refresh()
        assert self.obs is not None
        self._round_key, self._last_version = self._deal_key(self.obs), self.obs["version"]
        self._legal_seen = self._moves(self.obs)
        self.session.attach(self, pacing=self.pacing)
        # The log writes once it knows its width, so the deal is told after the first layout.
        self.call_after_refresh(self._tell_deal)

    def on_unmount(self) -> None:
        self.session.attach(None)

    def _tell_deal(self) -> None:
        log = self.query_one(GameLog)
        assert self.obs is not None
        log.add_heading(f"Round {self.obs['round'] + 1}")
        opening = self.session.opening_events()
        told = {id(e) for e in opening}
        log.add_events(opening + [e for e in self._untold if id(e) not in told], self.session.names,
                       self.session.me)
        self._untold = []
        self._told = True
        self.session.wake()  # in case a bot begins (a Reverse or Skip turned up first)
        self._prompt_if_asked()  # a scripted position may start with a question to you

    @property
    def watching(self) -> bool:
        """The human can see the table: it is on top, big enough, and the log has told the deal
        (the others wait until then; see :meth:`Session.wake`)."""
        return self._told and not self._too_small and self.is_active

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
            tiny_window_text(width, height, "^q quits") if tiny_window(width, height) else
            f"Terminal too small: {width}×{height}.\n"
            f"uno-tui needs at least {MIN_SIZE[0]}×{MIN_SIZE[1]}; please enlarge the window.\n\n"
            "ctrl+q quits"
        )
        was, self._too_small = self._too_small, too_small
        if was != too_small:
            self.refresh_bindings()
        if was and not too_small:
            self.session.wake()  # the others waited while you could not see them

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Keys that act on a table you cannot see are switched off (ctrl+q is the app's).
        if self._too_small:
            return False
        if action == "intent" and parameters:
            obs = self.obs or self.session.observation()
            if parameters[0] in self.face.unused_intents(obs.get("options") or {}):
                return False  # this game (with these rules) has no use for the key: it leaves the footer
        return True

    # -- showing the game -----------------------------------------------------------
    def _refresh(self) -> None:
        self.query_one("#status", StatusLine).deals = self.session.deals  # (a sealed host's: at the match's end)
        self.obs = self.session.observation()  # the bound widgets follow
        self.query_one("#hand-panel").border_title = (
            "Watching · every hand is hidden" if self.obs["me"] is None else self._hand_title(self.obs))

    def _hand_title(self, obs: dict[str, Any]) -> str:
        """The hand panel's title: what you hold and your score."""
        count = len(obs.get("hand", ()))
        return f"Your hand · {count} card{'s' if count != 1 else ''} · {obs['scores'][obs['me']]} pts"

    @on(SessionChanged)
    def _session_changed(self, message: SessionChanged) -> None:
        """The session says the table changed: a new deal gets its heading, then log and redraw."""
        obs = self.session.observation()
        events = message.events
        new_deal = any(e.kind == "deal" for e in events) or (
            self._another_deal(obs) and not obs["over"]) or obs["version"] < self._last_version
        self._last_version = obs["version"]
        self._close_stale_picker(obs)
        if new_deal and not self._told:
            self._round_key = self._deal_key(obs)
            self._untold = []  # the deal about to be told is this one
        elif new_deal:
            rematch = obs["round"] == 0
            self._round_key = self._deal_key(obs)
            self.query_one("#hand", HandView).fresh = frozenset()
            if self.session.deals is None and not rematch:
                # A table that deals by itself (a sealed one, a moment after the round's audits): the
                # last round's summary stays, or is still to come, until the person leaves it.
                if isinstance(self.app.screen, RoundOverScreen):
                    self.app.screen.next_dealt()
                elif self._round_over_pending:  # the summary first, not a moment into the new round
                    if self._round_over_timer is not None:
                        self._round_over_timer.stop()
                    self._show_round_over()
            else:
                self._round_over_pending = False
                if isinstance(self.app.screen, RoundOverScreen):
                    self.app.screen.dismiss("stay")  # someone else dealt (a network host): back to the table
            self.query_one(GameLog).add_heading(("New match · " if rematch else "") + f"Round {obs['round'] + 1}")
        self._after(events)

    def _close_stale_picker(self, obs: dict[str, Any]) -> None:
        """A picker over this table offers the moves of the position it opened on: when this seat's
        moves change (its turn timer ran out, its client made a move with a single answer, a jump-in
        went by), it is closed, and the table asks again if the new position asks anything."""
        moves = self._moves(obs)
        legal, self._legal_seen = self._legal_seen, moves
        stack = self.app.screen_stack
        top = stack[-1] if stack else None
        if (legal is not None and legal != moves and len(stack) >= 2 and stack[-2] is self
                and getattr(top, "ASKS_MOVE", False)):
            top.dismiss(None)  # type: ignore[union-attr]
            self._prompted = -1  # ask again, even at the same version (a card just opened to you)

    @staticmethod
    def _moves(obs: dict[str, Any]) -> list[dict[str, Any]]:
        """This seat's legal moves but the calls (UNO, a catch coming or going leaves a choice open)."""
        return [a for a in obs.get("legal", ()) if a["kind"] not in ("uno", "catch")]

    @staticmethod
    def _deal_key(obs: dict[str, Any]) -> tuple[int, int]:
        """What tells one deal from the next: the round, and the scores so far (a rematch starts at 0)."""
        return obs["round"], sum(obs["scores"])

    def _another_deal(self, obs: dict[str, Any]) -> bool:
        """Whether ``obs`` is of a deal other than the one shown: another round, or scores gone down
        (a rematch). Scores that go up mid-round are the same deal: in the extended rules a player
        who goes out scores while the others play on."""
        if self._round_key is None:
            return True
        r, total = self._deal_key(obs)
        return r != self._round_key[0] or total < self._round_key[1]

    def _after(self, events: list[Event]) -> None:
        """Log what happened, redraw, and show the end of a round."""
        if self._told:
            self.query_one(GameLog).add_events(events, self.session.names, self.session.me)
        else:
            self._untold.extend(events)
        self._mark_drawn(events)
        self._refresh()
        assert self.obs is not None
        self.call_after_refresh(self._prompt_if_asked)
        if self.obs["over"]:
            self._ended = self.obs
            self._round_over_pending = True
            delay = MIN_TIMER if self.pacing[1] == 0 else 1.2  # a moment to see the last card land
            if self._round_over_timer is None:
                self._round_over_timer = self.set_timer(delay, self._show_round_over)

    def _mark_drawn(self, events: list[Event]) -> None:
        """Mark the cards you just drew (the events name them to you) as new in your hand."""
        me = self.session.me
        drawn = {c.id for e in events if e.kind == "draw" and e.player == me and e.reason != "deal"
                 for c in e.cards}
        if drawn:
            hand = self.query_one("#hand", HandView)
            hand.fresh = hand.fresh | drawn

    def _prompt_if_asked(self) -> None:
        """Open the picker a decision of yours asks for, by itself (once per observation)."""
        obs = self.obs
        if obs is None or self.app.screen is not self or self._prompted == obs["version"]:
            return
        if self._open_prompt(obs):
            self._prompted = obs["version"]

    def _open_prompt(self, obs: dict[str, Any]) -> bool:
        """Open the picker ``obs`` asks the human for (a colour to name, a player to choose, ...);
        False when it asks for none."""
        return False

    def on_screen_resume(self) -> None:
        if self.obs is None:
            return
        if not self.obs["over"]:
            self.session.wake()  # the others waited while a picker or a page covered the table
            self.call_after_refresh(self._prompt_if_asked)  # (a round dealt under its summary may ask)
        if self._round_over_pending and self._round_over_timer is None:
            self._round_over_timer = self.set_timer(MIN_TIMER, self._show_round_over)

    # -- the human's intents --------------------------------------------------------------
    def _send(self, action: Action) -> bool:
        """Send the human's intent; what it changes comes back as a :class:`SessionChanged`."""
        try:
            self.session.send(action)
        except IllegalAction as e:
            self._explain(str(e))
            return False
        self.query_one("#hand", HandView).fresh = frozenset()  # you acted: your new cards are seen
        return True

    def _sent(self, action: Action | None) -> None:
        """Send what a picker chose (``None``: it was closed)."""
        if action is not None:
            self._send(action)

    def _explain(self, message: str) -> None:
        text = humanize_error(message, self.session.names, self.session.me)
        self.notify(self.shown(text), title="Not now", severity="warning", timeout=4)

    def shown(self, text: str) -> str:
        """``text`` as this table shows it: the cards' names in English alone when the player asked."""
        return self.face.in_english(text) if self.english else text

    def _legal(self, kind: str | None = None) -> list[Action]:
        """The legal actions of ``kind`` (every legal action when ``None``)."""
        assert self.obs is not None
        return [Action.from_dict(a) for a in self.obs.get("legal", ()) if kind is None or a["kind"] == kind]

    def _seat_names(self) -> list[str]:
        """Every seat's name as the human says it: "You" for their own."""
        me = self.session.me
        return ["You" if i == me else n for i, n in enumerate(self.session.names)]

    def action_select(self, step: int) -> None:
        self.query_one("#hand", HandView).move(step)

    def action_play(self) -> None:
        raise NotImplementedError

    def _play(self, card: dict[str, Any]) -> None:
        """Use ``card`` from the hand (enter on it, or a second click)."""
        raise NotImplementedError

    @on(HandView.PlayRequested)
    def _clicked(self, message: HandView.PlayRequested) -> None:
        self._card_clicked(message.card_id)

    def _card_clicked(self, card_id: int) -> None:
        """A second click on a chosen card: use it."""
        card = self.query_one("#hand", HandView).selected_card
        if card is not None and card["id"] == card_id:
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
            self._deal("rematch" if match_decided(self.obs) else "next")
            return
        try:
            self.session.next_round()
        except IllegalAction as e:
            self._explain(str(e))  # "the round is still being played"

    def action_help(self) -> None:
        assert self.obs is not None
        self.app.push_screen(HelpScreen(self.face.help_page(self.obs.get("options") or {})))

    def action_whole_log(self) -> None:
        """Every line of the log on a screen of its own, to scroll and search."""
        self.app.push_screen(LogScreen(self.query_one(GameLog).entries))

    # -- between rounds -----------------------------------------------------------------
    def _show_round_over(self) -> None:
        self._round_over_timer = None
        assert self.obs is not None
        ended = self._ended if self._ended is not None else self.obs
        # (A table that deals by itself may have dealt the next round already: its summary still shows.)
        if ended["over"] and self._round_over_pending and self.is_active:
            self._round_over_pending = False
            summary = self.face.round_summary(ended, self.session.names)
            screen = RoundOverScreen(ended, summary, deals=self.session.deals)
            if self.gone is not None:
                screen.table_gone(self.gone)
            elif not self.session.observation()["over"]:  # (the table may not have drawn it yet)
                screen.next_dealt()
            self.app.push_screen(screen, self._round_over_chosen)

    def _round_over_chosen(self, choice: RoundOverChoice | None) -> None:
        if choice in ("next", "rematch") and self.obs is not None and not self.obs["over"]:
            return  # the table dealt it already (a sealed table deals by itself): here it is
        if choice in ("next", "rematch"):
            self._deal(choice)
        elif choice == "quit":
            self.app.exit()

    def _deal(self, how: RoundOverChoice) -> None:
        """Deal the next round (or a rematch); it comes back as a new deal. A network joiner is told the host deals."""
        self._round_over_pending = False
        try:
            if how == "rematch":
                self.session.rematch()
            else:
                self.session.next_round()
        except IllegalAction as e:
            self.notify(str(e)[:1].upper() + str(e)[1:], title="Between rounds", timeout=4)
