"""The terminal table: the four games in a Textual app, keyboard first.

The table service decides everything (wagers, legal decisions, payouts) and keeps
the money on the same database as the web table; this app shows what it is told.
Every key that does something now is listed in the footer. At Crazy 4, ``b`` adds a
blind second position with the same wagers (C8): its cards stay face down until the
showdown, and the money shown is the whole round's net over both positions. At
Baccarat, ``n`` ends the shoe in play between coups (B1): its seed shows in the
history, and the next coup starts a new shoe. Quick Replay is ``g`` and Raise ``r``:
pressing one key twice never deals a hand and decides it unseen.

Provably fair: before each deal the status line shows the house's commitment (SHA-256)
to the next round's server seed at this table, and the history its full value; the
app then draws its own client seed for the deal (unless one was given), and checks
that the round dealt carries the commitment shown: a round that does not is said.

>>> from riverboat.table.service import TableService
>>> app = TableApp(TableService("sqlite://"), game="tri-card")   # app.run() shows it
>>> app.game, app.balance
('tri-card', 0)
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress

from sqlalchemy.exc import DBAPIError

from riverboat.errors import Refusal, Unavailable
from riverboat.games import find_game
from riverboat.games.rules import RulesError
from riverboat.money import Cents, format_money
from riverboat.rng import new_client_seed
from riverboat.table.coach import coach_round, hint_round
from riverboat.table.service import TOP_UP_BELOW
from riverboat.table.states import RoundStatus
from riverboat.table.views import CoachVerdict, RoundView
from riverboat.terminal.felt import DEALT, GAME_KEYS, Road
from riverboat.terminal.plain import result_text, round_net
from riverboat.terminal.screens import AmountScreen, HistoryScreen, RulesScreen
from riverboat.terminal.table import Table, remember_coach
from riverboat.terminal.widgets import DECISION_KEYS, WELCOME, Status, short_commitment

__all__ = ["DECISION_KEYS", "GAME_KEYS", "TableApp", "short_commitment"]

_SHOE_DONE = "The shoe is done: its seed shows in history; the next coup starts a new shoe."


class TableApp(Table):
    """The tables for one player: wagers, deal, decisions, hint, pay table, history.

    ``game`` is the table shown first; ``wagers`` (cents) are placed on it to start;
    ``client_seed`` goes into every deal (provably fair; by default the app draws a
    fresh one for each deal, after the commitment is shown); ``house_edges`` lets the
    pay table work out the analyzer's house edge in the background; ``blind`` starts
    Crazy 4 with its blind second position on (C8).

    Each part of the table is a widget that keeps what it shows and draws itself
    (:mod:`riverboat.terminal.felt`, :mod:`riverboat.terminal.widgets`); the app
    asks the service and sets the parts' state: the table shown, its round and the
    balance are bound to the parts that show them.
    """

    # -------------------------------------------------------------- rounds
    def action_deal(self) -> None:
        placed = {name: amount for name, amount in self._felt.on_table().items() if amount}
        game = self.game
        second = placed if self._felt.two_hands() else None  # C8
        variant = DEALT.get(game)  # a variant file's, where the table deals one
        self._deal(
            lambda seed: self.service.start_round(
                self.player, game, placed, seed, variant=variant, second=second
            )
        )

    def action_replay(self) -> None:
        """Quick Replay (R10): the last round's wagers at this table, checked as new ones,
        its blind second position included (C8)."""
        game = self.game
        self._deal(lambda seed: self.service.quick_replay(self.player, game, client_seed=seed))

    def _deal(self, deal: Callable[[str], RoundView]) -> None:
        """Deal from the seed whose commitment the table shows: the client seed is drawn
        now, after it was shown (the one given, if any); the round must carry that
        commitment, or the table says it does not. Then the next round's is shown."""
        game = self.game
        with self._asking():
            shown = self.commitments.get(game) or self._commit(game)
            seed = self.client_seed or new_client_seed()
            view = deal(seed)
            self._showing(view)
            if view.commitment != shown:
                status = self.query_one(Status)
                status.unexpected = status.unexpected | {view.id}
                warning = (
                    f"Warning: round #{view.id} was dealt from the commitment "
                    f"{short_commitment(view.commitment)}, not from "
                    f"{short_commitment(shown)} shown before the deal."
                )
                self._say(f"{warning} {self.message.plain}", error=True)
        with self._asking():
            self._commit(game)

    def _commit(self, game: str) -> str:
        """Fetch the commitment to the next round's server seed at ``game``'s table (at
        Baccarat, the shoe's while one is in play, B1)."""
        shown = self.service.next_commitment(self.player, game)
        status = self.query_one(Status)
        status.commitments = {**status.commitments, game: shown}
        if self.spec(game).shoe is not None:
            self._felt.shoe_in_play = self.service.shoe_in_play(self.player, game)
        return shown

    def action_new_shoe(self) -> None:
        """Baccarat: end the shoe in play before its cut card (B1). Its seed shows in the
        history at once, and the next coup starts a new shoe, with a new commitment."""
        with self._asking():
            ended = self.service.end_shoe(self.player, self.game)
            self._say(_SHOE_DONE if ended else "No shoe in play: the next coup starts a new one.")
            self._commit(self.game)

    def action_new_shoe_unlisted(self) -> None:
        """``n`` while the footer has no room to list it (the felt lists it)."""
        self.action_new_shoe()

    def action_decide(self, action: str, amount: Cents | None = None) -> None:
        view = self.view
        if view is not None:
            self._play(lambda: self.service.act(self.player, view.id, action, amount))
            done = self.view
            if (
                self.coaching
                and done is not None
                and done.id == view.id
                and done.status != RoundStatus.OPEN
            ):
                self._weigh(view, action, amount)

    def action_most(self) -> None:
        choice = self._ranged()
        if choice is not None:
            self.action_decide(choice.action, choice.maximum)

    def action_amount(self) -> None:
        choice = self._ranged()
        if choice is None:
            return

        def chosen(amount: Cents | None) -> None:
            if amount is not None:
                self.action_decide(choice.action, amount)

        asking = AmountScreen(choice.label, choice.minimum, choice.maximum)
        self.push_screen(asking, chosen)

    @contextmanager
    def _asking(self) -> Iterator[None]:
        """Around calls to the service: a refusal (limits, balance, a round played on
        elsewhere) is said and the table catches up with the database; a database that
        does not answer (away, or locked by another program) is said. Neither changes
        anything, and what follows the refused call in the block does not run."""
        try:
            try:
                yield
            except Unavailable:
                raise
            except (Refusal, RulesError) as error:
                self._say(str(error), error=True)
                self._refresh(self.game)
        except Unavailable as error:
            self._say(str(error), error=True)
        except DBAPIError as error:
            self._say(f"the database did not answer: {error.orig}", error=True)

    def _play(self, call: Callable[[], RoundView]) -> None:
        """One call to the service: the round it returns is shown."""
        with self._asking():
            self._showing(call())

    def _showing(self, view: RoundView) -> None:
        """A round the service returned, at its table, with what to do next or its result."""
        self._take(view)
        self.balance = view.balance
        if view.status == RoundStatus.OPEN:
            self._say(self._decision_prompt(view))
        else:
            self._finished(view)
            self._load_road(view.game)

    def _take(self, view: RoundView) -> None:
        """Show ``view`` at its table: its wagers on the felt, and at Crazy 4 whether it
        has a blind second position (Quick Replay keeps one, a resumed round has one)."""
        game = view.game
        self.rounds[game] = view
        self._felt.place({k: v for k, v in view.wagers.items() if v}, game)
        if self.spec(game).blind_play is not None:
            self._felt.blind = view.second is not None
        if game == self.game:
            self.view = view

    def _refresh(self, game: str) -> RoundView | None:
        """The balance and ``game``'s table as the database has them: the same player
        may have played on in another window (or at the web table) meanwhile. The round
        waiting for a decision there, if any."""
        self.balance = self.service.balance(self.player)
        waiting = self.service.open_round(self.player, game)
        shown = self.rounds[game]
        if waiting is not None:
            self._take(waiting)
        elif shown is not None and shown.status == RoundStatus.OPEN:  # finished elsewhere
            self._take(self.service.round(self.player, shown.id))
        self._commit(game)  # another round may have been dealt there meanwhile
        return waiting

    def _decision_prompt(self, view: RoundView) -> str:
        if not self.spec(view.game).options:
            return f"Round #{view.id}: your decision."
        coach = "off" if self.coaching else "on"
        return (
            f"Round #{view.id}: your decision. h shows each option's expected value; "
            f"c turns the coach {coach}."
        )

    def _finished(self, view: RoundView) -> None:
        text = result_text(view)
        if view.status == RoundStatus.SETTLED:
            status = self.query_one(Status)
            status.rounds += 1
            status.net += round_net(view)
        if self.balance < TOP_UP_BELOW:
            text += f" Below {format_money(TOP_UP_BELOW)}: u tops the play money up."
        self._say(text)

    def _load_road(self, game: str) -> None:
        """The winners of the last coups, from the history, as the web's bead plate."""
        if self.spec(game).shoe is None:
            return
        with suppress(DBAPIError, Unavailable):  # the road waits for the next round
            rounds = self.service.history(self.player, 60)
            coups = [r.winner for r in reversed(rounds) if r.game == game and r.winner]
            self.query_one(Road).road = "".join(side[0] for side in coups)  # P, B or T

    def _load(self, game: str) -> None:
        """Show ``game``'s table as the database has it: a round left open there resumes
        (G7); one finished elsewhere meanwhile is shown finished."""
        self._load_road(game)
        with self._asking():
            waiting = self._refresh(game)
            last = self.rounds[game]
            if waiting is not None:
                self._say(f"Your round is still open. {self._decision_prompt(waiting)}")
            elif last is not None:
                self._say(result_text(last))
            else:
                self._say(f"{find_game(game).title}. {WELCOME}")

    # ----------------------------------------------------------- hint, pages
    def action_hint(self) -> None:
        """The instant hint in words, in the round's dollars (the same as the page's);
        pressed again, the figures behind it, per $1 of Ante. Worked out beside the
        table, which never waits for it."""
        view = self.view
        if view is None or self.hinting:
            return
        if view.id in self.hints:
            text, details = self.hints[view.id]
            self._say(details if self.message.plain == text else text)
            return
        self.hinting = True
        self._say("Working out the hint...")  # milliseconds; the first of a run, a second
        threading.Thread(target=self._hint, args=(view,), daemon=True, name="hint").start()

    def _hint(self, view: RoundView) -> None:
        try:
            hinted = hint_round(view)
            said = (f"{hinted.text} h again: the figures.", hinted.details)
        except Exception as error:  # said on the table, never a traceback over it
            said = (f"No hint: {error}", f"No hint: {error}")
        with suppress(RuntimeError):  # the app closed meanwhile
            self.call_from_thread(self._hinted, view.id, said)

    def _hinted(self, round_id: int, said: tuple[str, str]) -> None:
        self.hinting = False
        self.hints[round_id] = said
        view = self.view
        if view is not None and view.id == round_id and view.status == RoundStatus.OPEN:
            self._say(said[0])

    # ----------------------------------------------------------------- coach
    def action_coach(self) -> None:
        """The coach on or off (remembered for the next run): after each decision it
        says whether that was the best play and what another cost in expected value."""
        self.coaching = not self.coaching
        remember_coach(self.coaching)
        if self.coaching:
            self._say(
                "Coach on: after each decision it says whether it was the best play "
                f"and what another cost. Session: {self.tally.summary()}"
            )
        else:
            self._say(f"Coach off. Session: {self.tally.summary()}")

    def _weigh(self, view: RoundView, action: str, amount: Cents | None) -> None:
        """The coach's verdict on a decision in ``view`` (the round before it), worked out
        beside the table (the instant hint: milliseconds, the first of a run a second),
        then said after the round's result."""

        def work() -> None:
            try:
                verdict: CoachVerdict | str = coach_round(view, action, amount)
            except Exception as error:  # said on the table, never a traceback over it
                verdict = f"No verdict: {error}"
            with suppress(RuntimeError):  # the app closed meanwhile
                self.call_from_thread(self._weighed, view.id, verdict)

        threading.Thread(target=work, daemon=True, name="coach").start()

    def _weighed(self, round_id: int, verdict: CoachVerdict | str) -> None:
        if isinstance(verdict, CoachVerdict):
            self.tally.add(verdict)
            said = f"{verdict.text} Session: {self.tally.summary()}"
        else:
            said = verdict
        shown = self.view
        if shown is not None and shown.id == round_id:  # still the round shown
            self._say(f"{self.message.plain} {said}")

    def action_top_up(self) -> None:
        with self._asking():
            self.balance = self.service.top_up(self.player)
            self._say(f"Topped up: the balance is {format_money(self.balance)}.")

    def action_rules(self) -> None:
        """The pay table and rules, viewable at any time without betting (R11)."""
        self.push_screen(RulesScreen(self.game, self.house_edges))

    def action_history(self) -> None:
        with self._asking():
            rounds = self.service.history(self.player, 20)
            shown = self.commitments.get(self.game)
            upcoming = (find_game(self.game).title, shown) if shown else None
            self.push_screen(HistoryScreen(rounds, upcoming))
