"""The legal actions as a numbered list to answer by number or key, and an answer read back into an action.

The view's legal actions, in the server's order, each get a number; an action a game gives a key (``b`` bets,
``t`` calls truco: ``client.words.key_for``) answers to it too, when it is the only one of its kind on offer.
A bet or a raise offered at many amounts is one choice with its range ("3: bet, 1 to 20"), answered with
the amount after it ("3 5" or "b 5"). Nothing here knows a game's rules: the server says what is legal.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardtui.client.lines.sentences import spoken
from cardtui.client.models import TableModel, action_kind, action_name
from cardtui.client.words import key_for, label, word
from cardtui.i18n import _, ngettext
from cardtui.v1 import common_pb2

SIZED = ("bet", "raise")
"""Action types offered at many amounts: one choice, the amount said with the answer."""
CYCLED = ("signal",)
"""Action types offered in many kinds (a truco signal's promises): one choice, the kind's number said with the
answer; alone, the number lists the kinds."""
GROUPED = SIZED + CYCLED


@dataclass(frozen=True)
class Choice:
    """One thing the player may do now: its number, its key (if the game gives it one and it is the only
    choice of its kind), what it is called, and the actions behind it (one per amount for a bet)."""

    number: int
    key: str
    words: str
    actions: tuple[common_pb2.Action, ...]
    kinds: tuple[str, ...] = ()
    """For a choice of many kinds: each kind's words, in order (answered by its number)."""

    @property
    def amounts(self) -> tuple[int, ...]:
        return tuple(a.chips for a in self.actions) if len(self.actions) > 1 and not self.kinds else ()


@dataclass(frozen=True)
class Picked:
    """An answer read: the action to send, or the sentence saying why there is none."""

    action: common_pb2.Action | None = None
    problem: str = ""


def choices(model: TableModel) -> list[Choice]:
    """What the player may do now, numbered from 1 in the order the server lists it."""
    groups: list[list[common_pb2.Action]] = []
    by_kind: dict[str, list[common_pb2.Action]] = {}
    for action in model.legal:
        kind = action_name(action)
        if kind in GROUPED and kind in by_kind:
            by_kind[kind].append(action)
            continue
        group = [action]
        if kind in GROUPED:
            by_kind[kind] = group
        groups.append(group)
    named = [action_kind(g[0]) for g in groups]
    out = []
    for n, (group, kind) in enumerate(zip(groups, named, strict=True), start=1):
        key = key_for(model, kind) or ""
        if key and sum(1 for k in named if key_for(model, k) == key) > 1:
            key = ""  # several choices share the key (a discard of each card): their numbers answer
        kinds: tuple[str, ...] = ()
        if len(group) > 1 and action_name(group[0]) in CYCLED:
            kinds = tuple(spoken(label(model, a).plain, stop=False) for a in group)
            words = ngettext("{action}, {n} kind", "{action}, {n} kinds", len(group)).format(
                action=word(model, kind), n=len(group))
        elif len(group) > 1:
            words = _("{action}, {low} to {high}").format(action=word(model, kind), low=group[0].chips,
                                                          high=group[-1].chips)
        else:
            words = label(model, group[0]).plain
        out.append(Choice(n, key, spoken(words, stop=False), tuple(group), kinds))
    return out


def menu(offered: list[Choice]) -> str:
    """The choices as the turn's sentence says them: "1 accept, 2 raise to retruco, 3 refuse"."""
    return ", ".join(f"{c.number} {c.words}" for c in offered)


def keyed_menu(offered: list[Choice]) -> str:
    """The choices with their keys, for the ``actions`` command: "1 or t: truco; 2: play 7 of swords"."""
    parts = []
    for c in offered:
        head = _("{n} or {key}").format(n=c.number, key=c.key) if c.key else str(c.number)
        parts.append(f"{head}: {c.words}")
    return "; ".join(parts)


def pick(offered: list[Choice], answer: str) -> Picked | None:
    """The action an answer names ("2", "t", "3 5", "b 5"), a sentence on what is wrong with it, or None
    when the answer names no choice at all (a command, then)."""
    words = answer.split()
    if not words:
        return None
    head = words[0].lower()
    chosen = next((c for c in offered if str(c.number) == head or (c.key and c.key == head)), None)
    if chosen is None:
        if head.isdigit():
            return Picked(problem=_("There is no choice {n}: choose from 1 to {last}.").format(
                n=head, last=len(offered)) if offered else _("There is nothing to do right now."))
        return None
    if chosen.kinds:
        return _kind(chosen, words[1:])
    if not chosen.amounts:
        return Picked(chosen.actions[0]) if len(words) == 1 else Picked(
            problem=_("{what} takes no amount: answer {n} alone.").format(what=chosen.words, n=chosen.number))
    low, high = chosen.amounts[0], chosen.amounts[-1]
    if len(words) != 2 or not words[1].isdigit():
        return Picked(problem=_("Say the amount after the number, from {low} to {high}: for example {n} {low}.").format(
            low=low, high=high, n=chosen.number))
    amount = int(words[1])
    for action in chosen.actions:
        if action.chips == amount:
            return Picked(action)
    return Picked(problem=_("{amount} is not an amount on offer: from {low} to {high}.").format(
        amount=amount, low=low, high=high))


def _kind(chosen: Choice, rest: list[str]) -> Picked:
    """One of a choice's kinds, by its number after the choice's ("5 2"); without it, the kinds listed."""
    if len(rest) == 1 and rest[0].isdigit() and 1 <= int(rest[0]) <= len(chosen.kinds):
        return Picked(chosen.actions[int(rest[0]) - 1])
    listed = ", ".join(f"{n} {words}" for n, words in enumerate(chosen.kinds, start=1))
    return Picked(problem=_("Which one? {kinds}. Answer {n} and its number: for example {n} 1.").format(
        kinds=listed, n=chosen.number))
