"""The poker-style betting round and its pots, shared by Cacho and Pif Paf.

``Pots`` is the ledger of what each seat put in this hand and who folded; side pots fall
out of it when someone is all-in for less. ``BettingRound`` runs one round of check, bet,
call, raise and fold in seat order, with a cap on how high the round's bet may go.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from cardtui.engine.core import Action, IllegalAction, NotYourTurn, copied

FOLD = "fold"
CHECK = "check"
CALL = "call"
BET = "bet"
RAISE = "raise"


@dataclass(frozen=True, slots=True)
class Pot:
    amount: int
    eligible: tuple[int, ...]


class Pots:
    """Chips committed this hand, per seat. Folded seats' chips stay in, ineligible."""

    def __init__(self, n: int) -> None:
        self.put = [0] * n
        self.folded: set[int] = set()

    def __deepcopy__(self, memo: dict[int, Any]) -> Pots:
        """A copy to play on: compiled, copied attribute by attribute."""
        return copied(self, Pots(len(self.put)), memo)

    @property
    def total(self) -> int:
        return sum(self.put)

    def add(self, seat: int, chips: int) -> None:
        self.put[seat] += chips

    def pots(self) -> list[Pot]:
        """Main pot then side pots, each with the seats that may win it."""
        live = [s for s, c in enumerate(self.put) if c > 0 and s not in self.folded]
        levels = sorted({self.put[s] for s in live})
        out: list[Pot] = []
        prev = 0
        for level in levels:
            amount = sum(min(c, level) - min(c, prev) for c in self.put)
            out.append(Pot(amount, tuple(s for s in live if self.put[s] >= level)))
            prev = level
        dead = sum(max(0, c - prev) for c in self.put)
        if dead:
            if out:
                last = out[-1]
                out[-1] = Pot(last.amount + dead, last.eligible)
            else:
                # Nobody live put anything in: the money goes back to whoever put it.
                out.extend(Pot(c, (s,)) for s, c in enumerate(self.put) if c)
        return out

    def award(self, ranking: Sequence[int]) -> list[int]:
        """Chips won per seat, each pot going to the best-ranked seat eligible for it."""
        won = [0] * len(self.put)
        for pot in self.pots():
            winner = next((s for s in ranking if s in pot.eligible), pot.eligible[0])
            won[winner] += pot.amount
        return won


class BettingRound:
    """One round of poker-style betting.

    ``stacks`` are the chips each seat still holds (this round's bets come out of them),
    ``order`` the seats still in, in the order they act. ``cap`` bounds the round's bet
    level: nobody may bet or raise past it. With ``resto`` the cap is instead the smallest
    stack of a player still in (what they held when the round opened), recomputed after
    every fold (Cacho). Raises go up by at least ``min_raise``.
    """

    def __init__(
        self,
        order: Iterable[int],
        stacks: list[int],
        pots: Pots,
        cap: int = 0,
        min_raise: int = 1,
        resto: bool = False,
    ) -> None:
        self.order = list(order)
        self.stacks = stacks
        self.pots = pots
        self._cap = cap
        self.resto = resto
        self.min_raise = min_raise
        self.bet = {s: 0 for s in self.order}
        self.level = 0
        self.raises = 0
        self._pending = [s for s in self.order if stacks[s] > 0]
        self.last_aggressor: int | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> BettingRound:
        """A copy to play on: compiled, copied attribute by attribute."""
        return copied(self, BettingRound((), [], self.pots), memo)

    # -- state -------------------------------------------------------------------
    @property
    def live(self) -> list[int]:
        return [s for s in self.order if s not in self.pots.folded]

    @property
    def cap(self) -> int:
        if self.resto:
            return min((self.stacks[s] + self.bet[s] for s in self.live), default=0)
        return self._cap

    @property
    def done(self) -> bool:
        return not self._pending or len(self.live) <= 1

    @property
    def to_act(self) -> int | None:
        return None if self.done else self._pending[0]

    def to_call(self, seat: int) -> int:
        return min(self.level - self.bet[seat], self.stacks[seat])

    def max_level(self, seat: int) -> int:
        """The highest level this seat can bring the round to: cap, or all its chips."""
        return min(self.cap, self.bet[seat] + self.stacks[seat])

    # -- actions -----------------------------------------------------------------
    def _raise_range(self, seat: int) -> tuple[int, int]:
        """The levels a bet or raise by ``seat`` may bring the round to (empty when lo > hi)."""
        return max(self.level + self.min_raise, 1), self.max_level(seat)

    def legal(self, seat: int) -> list[Action]:
        """Fold, check or call, and every bet or raise ``refusal`` allows (the tests hold the two to each other)."""
        if seat != self.to_act:
            return []
        owe = self.to_call(seat)
        lo, hi = self._raise_range(seat)
        kind = RAISE if self.level else BET
        # Built to satisfy ``refusal`` rather than filtered by it: a round with a deep stack
        # offers dozens of amounts, and every view of every change lists them.
        legal = [Action(FOLD), Action(CALL, owe) if owe > 0 else Action(CHECK)]
        legal += [Action(kind, amount) for amount in range(lo, hi + 1)]
        return legal

    def refusal(self, seat: int, action: Action) -> IllegalAction | None:
        """Why ``seat`` may not take ``action`` now (a sentence), or None when it may."""
        if seat != self.to_act:
            return NotYourTurn("It is not your turn to bet.")
        kind = action.type
        if kind == FOLD:
            return None
        if kind in (CHECK, CALL):
            owe = self.to_call(seat)
            if kind == CHECK and owe:
                return IllegalAction("You cannot check: {chips} to call.", chips=owe)
            if kind == CALL and not owe:
                return IllegalAction("There is nothing to call; check instead.")
            return None
        if kind in (BET, RAISE):
            if (kind == BET) != (self.level == 0):
                if kind == RAISE:
                    return IllegalAction("There is no bet to raise: bet instead.")
                return IllegalAction("There is a bet already: raise instead.")
            lo, hi = self._raise_range(seat)
            if hi < lo:
                if kind == RAISE:
                    return IllegalAction("You cannot raise now: the limit is {cap}.", cap=self.cap)
                return IllegalAction("You cannot bet now: the limit is {cap}.", cap=self.cap)
            if not lo <= action.amount <= hi:
                if kind == RAISE:
                    return IllegalAction("A raise must bring the bet to between {lo} and {hi}, not {amount}.", lo=lo,
                                         hi=hi, amount=action.amount)
                return IllegalAction("A bet must bring the bet to between {lo} and {hi}, not {amount}.", lo=lo, hi=hi,
                                     amount=action.amount)
            return None
        return IllegalAction("{kind} is not a betting action: fold, check, call, bet or raise.", kind=repr(kind))

    def act(self, seat: int, action: Action) -> int:
        """Apply; returns the chips the seat moved into the pot."""
        err = self.refusal(seat, action)
        if err is not None:
            raise err
        kind = action.type
        if kind == FOLD:
            self.pots.folded.add(seat)
            self._pending.pop(0)
            return 0
        if kind in (CHECK, CALL):
            self._pending.pop(0)
            return self._move(seat, self.to_call(seat))
        target = action.amount
        moved = self._move(seat, target - self.bet[seat])
        self.level = target
        self.raises += 1
        self.last_aggressor = seat
        # Everyone else still in and with chips must answer the raise, in order.
        i = self.order.index(seat)
        after = self.order[i + 1 :] + self.order[:i]
        self._pending = [s for s in after if s not in self.pots.folded and self.stacks[s] > 0]
        return moved

    def _move(self, seat: int, chips: int) -> int:
        self.stacks[seat] -= chips
        self.bet[seat] += chips
        self.pots.add(seat, chips)
        return chips
