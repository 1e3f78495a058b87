"""The Wild Rawz table: a trick-taking layout on the machinery every table shares.

Seats with tricks, targets and leaving cards at the top left; the trump and
the trick (or, during the draft, the face-up row) at the top right; your
hand sorted by colour below; the log; the status line. The keys are the
table's habits: ←/→ choose, enter takes or plays, ``v`` leaves the trick.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical

from core import Action
from core.events import counted

from ...screens.table import TableScreen, table_bindings
from ...widgets import HandView
from .widgets import RowView, SeatsView, TrickView


class TrickHandView(HandView):
    """Your hand; during the draft no card is played, so none is drawn as unplayable."""

    def _my_turn(self, obs: dict[str, Any] | None) -> bool:
        return super()._my_turn(obs) and bool(obs) and obs["phase"] != "draft"


class TrickTableScreen(TableScreen, inherit_bindings=False):
    BINDINGS = table_bindings(
        "play/take",
        Binding("v", "leave", "leave trick"),
        Binding("n", "next_round", "next"),
    )
    PANEL_TITLES = {"#seats": "Players"}

    def _compose_top(self, names: list[str], labels: list[str]) -> ComposeResult:
        yield SeatsView(names, labels, id="seats").data_bind(TableScreen.obs)
        with Vertical(id="trick-panel"):
            yield RowView(self.face.card_painting(), id="row").data_bind(TableScreen.obs)
            yield TrickView(names, id="trick").data_bind(TableScreen.obs)

    def _hand_view(self) -> HandView:
        return TrickHandView(self.face.card_painting(), id="hand")

    def _refresh(self) -> None:
        super()._refresh()
        obs = self.obs
        assert obs is not None
        drafting = obs["phase"] == "draft"
        self.query_one(RowView).display = drafting
        self.query_one(TrickView).display = not drafting
        panel = self.query_one("#trick-panel")
        if drafting:
            panel.border_title = f"Trump draft · {len(obs['row'])} face up"
        else:
            panel.border_title = f"Trick {sum(obs['won']) + 1}" if not obs["over"] else "Tricks done"

    def _hand_title(self, obs: dict[str, Any]) -> str:
        me = obs["me"]
        return (f"Your hand · {counted(len(obs.get('hand', ())), 'card')} · target {obs['targets'][me]} · "
                f"won {obs['won'][me]} · {obs['scores'][me]} pts")

    # -- intents ----------------------------------------------------------------
    def action_select(self, step: int) -> None:
        assert self.obs is not None
        view = self.query_one(RowView) if self.obs["phase"] == "draft" else self.query_one("#hand", HandView)
        view.move(step)

    def action_play(self) -> None:
        assert self.obs is not None
        if self.obs["phase"] == "draft":
            card = self.query_one(RowView).selected_card
            if card is None:
                self._explain("there is no face-up card left to take")
                return
            self._send(Action("take", card["id"]))
            return
        card = self.query_one("#hand", HandView).selected_card
        if card is None:
            self._explain("you have no card to play")
            return
        self._play(card)

    def _play(self, card: dict[str, Any]) -> None:
        self._send(Action("play", card["id"]))  # not legal: the engine says why

    def _card_clicked(self, card_id: int) -> None:
        row = self.query_one(RowView)
        chosen = row.selected_card
        if row.display and chosen is not None and chosen["id"] == card_id:
            self._send(Action("take", card_id))  # a second click on a face-up card takes it
            return
        super()._card_clicked(card_id)

    def action_leave(self) -> None:
        card = self.query_one("#hand", HandView).selected_card
        self._send(Action("leave", card["id"] if card else None))  # when not legal, the engine says why
