"""The table items of a network game's Game menu (docs/network.md, "At the
table"): the canned table messages, a rematch at the same table at Game Over,
leaving the table, and on the host removing a player. Part of NetworkGameMixin
(palmish/boardgame/network_game.py), which gives the methods listed below."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from palmish.boardgame.app import Command
from palmish.device.ui.alert import Alert
from palmish.device.ui.form import Form, Label, PopupList, PushButtons
from palmish.device.ui.question import KeyAlert, KeyForm

if TYPE_CHECKING:
    from palmish.boardgame.netplay import NetPlay
    from palmish.device.ui.modal import Modal
    from palmish.device.ui.result import FormResult

# The canned table messages (palmish/network/session/talk.py's, by their text):
# nothing else is ever said at a table.
TABLE_MESSAGES = ("Good luck!", "Your turn", "Back in a minute", "Well played")
VACATE = {"Open": "open", "Silicon": "silicon"}  # what a seat left becomes between games
TABLE = "Table"  # the title of its alerts
REMATCH = "Rematch"
NOT_AT_A_TABLE = ("Table messages, rematches and leaving are for network games "
                  "(Game > Network Game...).")


if TYPE_CHECKING:
    from palmish.boardgame import BoardGameApp as _Base
else:
    _Base = object


class TableDialogs(_Base):
    """The table items and the rematch question of NetworkGameMixin."""

    net: NetPlay | None = None
    _rematch_asked: str | None = None  # the proposal this device's person is being asked
    _table_questions: tuple[Modal, ...] = ()  # about the game at the table now
    if TYPE_CHECKING:
        def _now_s(self) -> float: ...
        def _net_sync(self, before: int) -> None: ...
        def back_to_local(self, why: str | None) -> None: ...
        def leave_network(self) -> None: ...

    def table_commands(self) -> Sequence[Command]:
        """The Game menu's table items (always shown: a fourth menu title does not
        fit a 160-pixel menu bar; outside a network game they say what they are
        for): Table Message..., Leave Table, and the host's Remove Player..."""
        return (Command("Table Message...", "say", self.choose_message),
                Command("Leave Table", "leave", self.leave_table),
                Command("Remove Player...", "remove", self.remove_player))

    def _at_table(self) -> NetPlay | None:
        if self.net is None:
            self.open(Alert(TABLE, NOT_AT_A_TABLE, icon="info"))
        return self.net

    def _refused(self, problem: str | None) -> bool:
        if problem is not None:
            self.open(Alert(TABLE, problem[0].upper() + problem[1:] + ".", icon="info"))
        return problem is not None

    # ------------------------------------------------------------ messages

    def choose_message(self) -> None:
        """Game > Table Message...: one of the canned messages, sent to the table."""
        if self._at_table() is None:
            return
        form = Form("Table Message", (PopupList("msg", "Say", TABLE_MESSAGES, 0),),
                    buttons=("Send", "Cancel"))

        def chosen(result: FormResult) -> None:
            if result.button == "Send":
                self.say_at_table(result.choice("msg", TABLE_MESSAGES, TABLE_MESSAGES[0]))

        self.open_form(form, chosen)

    def say_at_table(self, text: str) -> None:
        net = self._at_table()
        if net is not None and not self._refused(net.say(text, self._now_s())):
            self._net_sync(0)

    # ------------------------------------------------------------ questions

    def ask_at_table(self, modal: Modal, on_result: Callable[[FormResult], None]) -> None:
        """Open a question about the game at the table now (Game Over's "Play
        again?", a rematch's, "Start now?"): when another game begins there it no
        longer applies, and it closes unanswered (close_table_questions)."""
        self._table_questions = (*(q for q in self._table_questions if not q.closed), modal)
        self.open_form(modal, on_result)

    def close_table_questions(self) -> None:
        """A game began at the table (a rematch others agreed to, the host started
        it): the questions about the last one close, and nobody answers them."""
        still_open = [q for q in self._table_questions if not q.closed]
        self._table_questions = ()
        if self.ctx is not None:
            for question in reversed(still_open):  # the topmost first
                self.ctx.close_modal(question)

    # ------------------------------------------------------------ rematch

    def propose_rematch(self) -> None:
        """Game Over's "Play again?" (and Play Again) at a network table: a rematch
        proposed to the table, never a local game with the table's names."""
        net = self._at_table()
        if net is None:
            return
        if net.code is not None:  # the host: what the seats of those who say no become
            self.ask_at_table(rematch_form("Play again here?", ("Propose", "Cancel")),
                              lambda r: self._host_answer(r, "Propose"))
            return
        if not self._refused(net.again(True)):
            self._net_sync(0)

    def ask_rematch(self) -> None:
        """A rematch proposed by another device: ask this device's person once."""
        net = self.net
        question = net.rematch_question() if net is not None else None
        if question is None or question == self._rematch_asked:
            self._rematch_asked = question
            return
        self._rematch_asked = question
        assert net is not None
        if net.code is not None:
            self.ask_at_table(rematch_form(question, ("Yes", "No")),
                              lambda r: self._host_answer(r, "Yes"))
            return
        # Y and N answer it; Escape leaves it unanswered (it does not leave the table)
        self.ask_at_table(KeyAlert(REMATCH, f"{question} Play again at this table? (No "
                                   "leaves it.)", ("Yes", "No"), icon="confirm", escape=()),
                          self._joiner_answer)

    def _host_answer(self, result: FormResult, yes: str) -> None:
        net = self.net
        if net is None or result.button is None:
            return
        vacate = VACATE[result.choice("vacate", tuple(VACATE), "Open")]
        if not self._refused(net.again(result.button == yes, vacate)):
            self._net_sync(0)

    def _joiner_answer(self, result: FormResult) -> None:
        net = self.net
        if net is None or result.button is None:
            return
        if result.button == "No":
            net.again(False)
            self.back_to_local("You left the table.")
        elif not self._refused(net.again(True)):
            self._net_sync(0)

    # ------------------------------------------------------------ leaving

    def leave_table(self) -> None:
        net = self._at_table()
        if net is None:
            return
        if net.code is not None:
            text = "Close the table? The game ends for everyone."
        else:
            text = ("Leave the table? Silicon plays your seat to the end of this game; "
                    "this handheld goes back to its own game.")

        self.open_form(KeyAlert(TABLE, text, ("Leave", "Stay"), icon="confirm",
                                escape=("Stay",)),
                       lambda r: self.leave_table_now() if r.button == "Leave" else None)

    def leave_table_now(self) -> None:
        """Leave at once: the host hears it (the seat opens or Silicon plays it), the
        kept table is forgotten, this handheld's own game comes back."""
        if self.net is not None:
            self.net.leave_table()
            self.back_to_local(None)

    def remove_player(self) -> None:
        net = self._at_table()
        if net is None:
            return
        if net.code is None:
            self._refused("only the host removes a player")
            return
        people = list(net.removable())
        if not people:
            self._refused("nobody of another handheld sits at the table")
            return
        names = tuple(name for _, name in people)
        form = Form("Remove Player", (
            PopupList("seat", "Player", names, 0),
            PushButtons("vacate", "Seat", tuple(VACATE), 1),
            Label("In a game: Silicon"),
        ), buttons=("Remove", "Cancel"))

        def removed(result: FormResult) -> None:
            if result.button != "Remove" or self.net is None:
                return
            seat = people[names.index(result.choice("seat", names, names[0]))][0]
            vacate = VACATE[result.choice("vacate", tuple(VACATE), "Silicon")]
            if not self._refused(self.net.remove(seat, vacate)):
                self._net_sync(0)

        self.open_form(form, removed)


def rematch_form(question: str, buttons: tuple[str, str]) -> Form:
    """The host's rematch question: the seats of those who say no (or do not answer
    in time) become open or Silicon. Y presses the first button (Propose, Yes), N
    the second (Cancel, No), with the seat choice."""
    return KeyForm(REMATCH, (Label(question),
                             PushButtons("vacate", "Seat if no", tuple(VACATE), 0)),
                   buttons=buttons, yes=buttons[0], no=buttons[1])
