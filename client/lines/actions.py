"""The legal actions as a numbered list to answer by number or key, and an answer read back into an action.

The view's legal actions, in the server's order, each get a number; an action a game gives a key (``b`` bets,
``t`` calls truco: ``client.words.key_for``) answers to it too, when it is the only one of its kind on offer.
A bet or a raise offered at many amounts is one choice with its range ("3: bet, 1 to 20"), answered with
the amount after it ("3 5" or "b 5"). Choices of one kind that differ by their card alone (a rummy hand's
discards) are said together, the word once and the cards in order ("3 to 13, discard in this order: 7 of
hearts, ..."); the player may answer by the number or, at Pif Paf and Cacheta, name the card ("discard 7 of
hearts"). Nothing here knows a game's rules: the server says what is legal.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardtui.client.lines.sentences import card_named, cards_words, spoken
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
RUN = 3
"""Choices of one kind, each with its cards, said together from this many on."""


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
    kind: str = ""
    """The action's kind ("discard", "draw:pile"): a run of one kind is said together."""
    action_word: str = ""
    """The kind's word, without cards or amount ("discard")."""

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
        out.append(Choice(n, key, spoken(words, stop=False), tuple(group), kinds, kind,
                          spoken(word(model, kind), stop=False)))
    return out


def _carded(c: Choice) -> bool:
    return len(c.actions) == 1 and bool(c.actions[0].cards) and not c.kinds


def menu(offered: list[Choice]) -> str:
    """The choices as the turn's sentence says them: "1 accept, 2 raise to retruco, 3 refuse"; a run of one
    kind, each with its cards, said once: "3 to 13, discard in this order: 7 of hearts, 8 of hearts"."""
    parts = []
    at = 0
    while at < len(offered):
        c = offered[at]
        end = at + 1
        while end < len(offered) and _carded(c) and offered[end].kind == c.kind and _carded(offered[end]):
            end += 1
        if end - at >= RUN:
            run = offered[at:end]
            parts.append(_("{low} to {high}, {action} in this order: {cards}").format(
                low=run[0].number, high=run[-1].number, action=c.action_word.lower(),
                cards=("; " if any(len(r.actions[0].cards) > 1 for r in run) else ", ").join(
                    cards_words(r.actions[0].cards) for r in run)))
        else:
            parts.extend(f"{r.number} {r.words}" for r in offered[at:end])
        at = end
    return ", ".join(parts)


def discard_of(offered: list[Choice], said: str) -> Picked:
    """The discard of the card a player names ("7 of hearts", "7h"), or the sentence saying why there is none."""
    discards = [c for c in offered if action_name(c.actions[0]) == "discard" and len(c.actions[0].cards) == 1]
    if not discards:
        return Picked(problem=_("There is no discard to make now."))
    if not said.strip():
        return Picked(problem=_("Discard which card? Type discard and the card: for example discard {card}.").format(
            card=cards_words(discards[0].actions[0].cards)))
    code = card_named(said, [c.actions[0].cards[0] for c in discards])
    if code is None:
        return Picked(problem=_("{card} is not a card you may discard now.").format(card=said.strip()))
    return Picked(next(c.actions[0] for c in discards if c.actions[0].cards[0] == code))


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
