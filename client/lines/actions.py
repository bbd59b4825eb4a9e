"""The legal actions as numbered choices to answer by number or key, and an answer read back into an action.

A number always means the same thing at a game, whenever it is offered: a card goes by its place in the hand
(a rummy hand as the view orders it, a truco hand as it was dealt, so that a card keeps its number until it is
played), and everything else by its kind, from a fixed list per game (``KINDS``): at Pif Paf 11 always draws
from the stock, at truco argentino 4 always calls the truco (or its next rung), whatever else is on offer. A
player who has learnt that "7" is envido never hears it become a card. An action a game gives a key (``b``
bets, ``t`` calls truco: ``client.words.key_for``) answers to it too, when it is the only one of its kind on
offer.

A bet or a raise offered at many amounts is one choice with its range ("17: bet, 1 to 20"), answered with the
amount after it ("17 5" or "b 5"); a signal's kinds, and a knock that may discard one of several cards, are
one choice too, answered with the kind's number or the card's after it ("13 2"). Choices of one kind that
differ by their card alone (a rummy hand's discards) are said together ("1 to 10, discard in this order: 7 of
hearts, ..."). The player may answer a discard by naming the card ("discard 7 of hearts"). Nothing here knows
a game's rules: the server says what is legal; this module knows only the names of each game's actions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cardtui.client import gamebook
from cardtui.client.lines.sentences import card_named, card_words, cards_words, spoken
from cardtui.client.models import TableModel, action_kind, action_name
from cardtui.client.shape import numbered_hand
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
HELD = gamebook.Fact(lambda g: g.held)
"""The most cards a hand holds at each game (``ClientGame.held``: a rummy hand of nine and the card drawn; truco's
three): its cards take the numbers 1 to this, by their place in the hand, and the other actions the numbers after
them."""
CARDED = ("discard", "play", "play_blind")
"""Action types that name a card of the hand: numbered by the card's place."""
FACE_DOWN = "play_down"
"""A card played face down (truco paulista): numbered by its place too, after the cards' own numbers (4 to 6)."""
FACE_DOWN_GAMES = gamebook.Which(lambda g: g.face_down)
KINDS = gamebook.Fact(lambda g: g.kinds)
"""Every other action of each game (``ClientGame.kinds``), in the order of its numbers (after the cards', and the
face-down plays'): the number is the kind's, offered or not, so that it never moves. A test holds every game's
actions to this."""
RUNGS = {"seis": "truco", "nove": "truco", "doze": "truco", "retruco": "truco", "vale_cuatro": "truco"}
"""The truco's rungs are one kind: only the next is ever on offer, under the one number (and key)."""
DRAWS = ("draw:stock", "draw:pile")
"""A rummy turn's draws, from the stock or the pile: said together, as "draw", at the terse level."""
STANDING = ("signal", "mazo")
"""Kinds on offer at nearly every turn of a game (a signal, going to the deck): the terse turn leaves them out
of its sentence (``actions`` says them, and their numbers answer as ever)."""



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
    subnumbers: tuple[int, ...] = ()
    """For a choice of many kinds: the number that answers each (by default 1, 2, ...; a knock's discards go by
    the card's place in the hand)."""
    also: tuple[int, ...] = ()
    """Other numbers that answer this choice: the places of a card held twice (two decks), discarded as one."""

    @property
    def amounts(self) -> tuple[int, ...]:
        return tuple(a.chips for a in self.actions) if len(self.actions) > 1 and not self.kinds else ()

    @property
    def carded(self) -> bool:
        """One card of the hand, named: said in a run with the others of its kind."""
        return (len(self.actions) == 1 and bool(self.actions[0].cards) and not self.kinds
                and action_name(self.actions[0]) in (*CARDED, FACE_DOWN))

    def answers(self, n: int) -> bool:
        return n == self.number or n in self.also


@dataclass(frozen=True)
class Picked:
    """An answer read: the action to send, or the sentence saying why there is none."""

    action: common_pb2.Action | None = None
    problem: str = ""


def held(model: TableModel, slots: Sequence[str | None] = ()) -> list[str | None]:
    """The hand as its cards are numbered: a truco hand as dealt (``slots``: None where a card was played), a
    rummy hand as the view orders it; empty where a game's hand is not numbered (Cacho's cards are not played)."""
    return numbered_hand(model, slots) or []


def dealt_slots(slots: Sequence[str | None], cards: Sequence[str]) -> list[str | None]:
    """A truco hand's places after a view: the cards as dealt, a played one's place left empty; a new hand (a
    card not held before) starts the places again. The screen's board keeps its card keys the same way."""
    before = {c for c in slots if c is not None}
    if not slots or not set(cards) <= before:
        return list(cards)
    return [c if c in cards else None for c in slots]


def kind_of(action: common_pb2.Action) -> str:
    """An action's kind for its number: a truco rung counts as the truco."""
    kind = action_kind(action)
    return RUNGS.get(kind, kind)


def number_of(model: TableModel, action: common_pb2.Action, hand: Sequence[str | None]) -> int | None:
    """An action's number at this game, or None if the game's list lacks its kind (a newer server's)."""
    game = model.game
    cards = HELD.get(game, 0)
    name = action_name(action)
    if name in CARDED or name == FACE_DOWN:
        if action.position and not action.cards:
            place = action.position
        elif action.cards and action.cards[0] in hand:
            place = hand.index(action.cards[0]) + 1
        else:
            return None
        return place + (cards if name == FACE_DOWN else 0)
    kinds = KINDS.get(game, ())
    kind = kind_of(action)
    if kind not in kinds:
        return None
    return first_kind(game) + kinds.index(kind)


def first_kind(game: str) -> int:
    """The number of a game's first kind (``KINDS``): after its cards' numbers, and the face-down plays'."""
    cards = HELD.get(game, 0)
    return cards * (2 if game in FACE_DOWN_GAMES else 1) + 1


def choices(model: TableModel, slots: Sequence[str | None] = ()) -> list[Choice]:
    """What the player may do now, each under its number at this game, in the order of the numbers."""
    hand = held(model, slots)
    groups: list[list[common_pb2.Action]] = []
    by_kind: dict[str, list[common_pb2.Action]] = {}
    for action in model.legal:
        kind = action_name(action)
        grouped = kind in GROUPED or kind == "knock"  # a knock discarding any of several cards, or none
        if grouped and kind in by_kind:
            by_kind[kind].append(action)
            continue
        group = [action]
        if grouped:
            by_kind[kind] = group
        groups.append(group)
    numbered: list[tuple[int, list[common_pb2.Action]]] = []
    unlisted: list[list[common_pb2.Action]] = []
    for group in groups:
        n = number_of(model, group[0], hand)
        if n is None:
            unlisted.append(group)
        else:
            numbered.append((n, group))
    last = first_kind(model.game) + len(KINDS.get(model.game, ())) - 1
    taken = {n for n, _g in numbered}
    for group in unlisted:  # after every listed number: a kind this client does not know yet
        last += 1
        while last in taken:
            last += 1
        numbered.append((last, group))
    numbered.sort(key=lambda pair: pair[0])
    named = [action_kind(g[0]) for _n, g in numbered]
    out = []
    for (n, group), kind in zip(numbered, named, strict=True):
        out.append(_choice(model, n, group, kind, named, hand))
    return out


def _choice(model: TableModel, n: int, group: list[common_pb2.Action], kind: str, named: list[str],
            hand: Sequence[str | None]) -> Choice:
    key = key_for(model, kind) or ""
    if key and sum(1 for k in named if key_for(model, k) == key) > 1:
        key = ""  # several choices share the key (a discard of each card): their numbers answer
    kinds: tuple[str, ...] = ()
    subnumbers: tuple[int, ...] = ()
    also: tuple[int, ...] = ()
    first = group[0]
    if len(group) > 1 and action_name(first) in CYCLED:
        kinds = tuple(spoken(label(model, a).plain, stop=False) for a in group)
        words = ngettext("{action}, {n} kind", "{action}, {n} kinds", len(group)).format(
            action=word(model, kind), n=len(group))
    elif action_name(first) == "knock" and any(a.cards for a in group):
        discarding = [a for a in group if a.cards]
        group = discarding + [a for a in group if not a.cards]  # the knock with all ten melded, last: its number alone
        kinds = tuple(card_words(a.cards[0]) for a in discarding)
        subnumbers = tuple(hand.index(a.cards[0]) + 1 if a.cards[0] in hand else i
                           for i, a in enumerate(discarding, start=1))
        words = _("{action}, discarding {cards}").format(
            action=word(model, kind), cards=_or(list(kinds)))
    elif len(group) > 1:
        words = _("{action}, {low} to {high}").format(action=word(model, kind), low=group[0].chips,
                                                      high=group[-1].chips)
    else:
        words = label(model, first).plain
        if action_name(first) in CARDED and first.cards:
            places = [i + 1 for i, c in enumerate(hand) if c == first.cards[0]]
            also = tuple(p for p in places if p != n)
    return Choice(n, key, spoken(words, stop=False), tuple(group), kinds, kind,
                  spoken(word(model, kind), stop=False), subnumbers, also)


def _or(items: list[str]) -> str:
    if len(items) < 2:
        return "".join(items)
    return _("{some} or {last}").format(some=", ".join(items[:-1]), last=items[-1])


def numbered(words: str, n: int, key: str = "", brief: bool = False) -> str:
    """A choice said with its number after its word ("Quiero, 5"; ``brief``, as the terse turn says it: "Quiero
    5"), never a number after a number: where the words end in one ("Call 2") the number is said as such ("Call 2,
    number 18"); ``key``: its key too."""
    if key:
        number = _("{n} or {key}").format(n=n, key=key)
    else:
        number = str(n)
    if words[-1:].isdigit():
        return _("{words}, number {number}").format(words=words, number=number)
    if brief:
        return _("{words} {number}").format(words=words, number=number)
    return _("{words}, {number}").format(words=words, number=number)


def _runs(offered: list[Choice]) -> list[list[Choice]]:
    """The choices in runs: a kind's cards one after another (each a card of the hand, by its place), else one."""
    out: list[list[Choice]] = []
    at = 0
    while at < len(offered):
        c = offered[at]
        end = at + 1
        while (end < len(offered) and c.carded and offered[end].kind == c.kind and offered[end].carded
               and offered[end].number == offered[end - 1].number + 1):
            end += 1
        out.append(offered[at:end])
        at = end
    return out


def menu(offered: list[Choice]) -> str:
    """The choices as the verbose turn (and enter) says them, each word before its number: "Quiero, 5; Retruco, 4";
    a run of one kind's cards, numbered one after the other, said once: "discard, 1 to 10, in this order: 7 of
    hearts, 8 of hearts"."""
    parts = []
    for run in _runs(offered):
        c = run[0]
        if len(run) >= RUN:
            parts.append(_("{action}, {low} to {high}, in this order: {cards}").format(
                low=run[0].number, high=run[-1].number, action=c.action_word.lower(),
                cards=("; " if any(len(r.actions[0].cards) > 1 for r in run) else ", ").join(
                    cards_words(r.actions[0].cards) for r in run)))
        else:
            parts.extend(numbered(r.words, r.number) for r in run)
    return "; ".join(parts)


def terse_menu(offered: list[Choice], hand: Sequence[str | None] = (), known: frozenset[str] = frozenset()) -> str:
    """The choices as the terse turn says them: each by its word alone where its number was said at this table
    before (``known``: the kinds whose numbers were), else its word before its number ("Quiero, 5"). A kind's cards
    are one choice ("play"; "discard" where every card may go, "discard any but king cups" where all but one or two
    may: the card just taken from the pile), the player having heard the hand in the order of its numbers;
    "draw" where both the stock and the pile may be drawn from; the kinds on offer at every turn (``STANDING``)
    left out. ``hand``: the cards as numbered."""
    parts: list[str] = []
    kinds_done: set[str] = set()
    shared = ""
    """The last word of the last choice said whole, which the next may share."""
    drawn = {o.kind for o in offered} >= set(DRAWS)
    for c in offered:
        if c.kind in STANDING and len(offered) > 1 and any(o.kind not in STANDING for o in offered):
            continue
        if drawn and c.kind in DRAWS:
            if c.kind == DRAWS[0]:  # the stock or the pile, as ever (11 or 12): the pile's top was just heard
                draws = [o for o in offered if o.kind in DRAWS]
                parts.append(_("draw") if set(DRAWS) <= known else _("{one} or {other}").format(
                    one=numbered(draws[0].action_word.lower(), draws[0].number, brief=True),
                    other=numbered(draws[1].action_word.lower(), draws[1].number, brief=True)))
            continue
        if c.carded:
            if c.kind in kinds_done:
                continue
            kinds_done.add(c.kind)
            parts.append(_carded(c, [o for o in offered if o.kind == c.kind and o.carded], hand, known))
            continue
        word = c.action_word.lower() if c.kinds or c.amounts else c.words
        if c.kinds and action_name(c.actions[0]) == "knock":
            parts.append(word if c.kind in known else _("{word} {n} and the card's number").format(
                word=word, n=c.number))
            continue
        if c.amounts:
            low, high = c.amounts[0], c.amounts[-1]
            parts.append(_("{word} {low} to {high}").format(word=word, low=low, high=high) if c.kind in known else
                         _("{word} {n} and an amount, {low} to {high}").format(word=word, n=c.number, low=low,
                                                                               high=high))
            continue
        if c.kind in known:
            said = _shared(word, shared)
            shared = shared if said != word else (word.split() or [""])[-1]
            parts.append(said)
        else:
            parts.append(numbered(word, c.number, brief=True))
            shared = ""
    return ", ".join(parts)


def _shared(words: str, last: str) -> str:
    """A choice's words without the last word it shares with the choices just said ("Envido, Real, Falta", not
    "Envido, Real envido, Falta envido"): heard together, the shared word is understood."""
    mine = words.split()
    if last and len(mine) > 1 and plain_word(mine[-1]) == plain_word(last):
        return " ".join(mine[:-1])
    return words


def plain_word(word: str) -> str:
    return word.strip("¡!¿?.,;:").casefold()


def _carded(c: Choice, same: list[Choice], hand: Sequence[str | None], known: frozenset[str]) -> str:
    """A kind's cards as one choice: "play" (by its places, said the first time: "play, 1 to 3"), "discard any
    but king cups" where all but one or two of a long hand may go (the cards named, not numbered: a card held
    twice answers to either number)."""
    word = c.action_word.lower()
    numbers = sorted({n for o in same for n in (o.number, *o.also)})
    places = [i + 1 for i, card in enumerate(hand) if card is not None] or numbers
    if len(places) > 3 and set(numbers) < set(places) and len(places) - len(numbers) <= 2:
        kept = [hand[p - 1] for p in places if p not in numbers and p - 1 < len(hand)]
        return _("{action} any but {cards}").format(action=word, cards=cards_words(
            [k for k in dict.fromkeys(kept) if k is not None], short=True))
    if c.kind in known:
        return word
    low, high = numbers[0], numbers[-1]
    return _("{action} {low} to {high}").format(action=word, low=low, high=high) if high > low else numbered(
        word, low, brief=True)


def told(offered: list[Choice]) -> set[str]:
    """The kinds whose numbers a terse turn says (``terse_menu``): all on offer but those on offer at every turn,
    which it leaves out."""
    return {c.kind for c in offered if not (c.kind in STANDING and len(offered) > 1
                                            and any(o.kind not in STANDING for o in offered))}


def spans(numbers: list[int]) -> str:
    """Numbers as the spans they make: "1 to 4, 6 to 10"."""
    out: list[str] = []
    start = prev = None
    for n in sorted(numbers):
        if start is None:
            start = prev = n
        elif prev is not None and n == prev + 1:
            prev = n
        else:
            out.append(_span(start, prev))
            start = prev = n
    if start is not None:
        out.append(_span(start, prev))
    return ", ".join(out)


def _span(low: int, high: int | None) -> str:
    if high is None or high == low:
        return str(low)
    if high == low + 1:
        return f"{low}, {high}"
    return _("{low} to {high}").format(low=low, high=high)


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
    """The choices with their numbers and keys, for the ``actions`` command: "Truco, 4 or t; play 7 of swords, 1"."""
    return "; ".join(numbered(c.words, c.number, c.key) for c in offered)


def pick(offered: list[Choice], answer: str) -> Picked | None:
    """The action an answer names ("2", "t", "3 5", "b 5"), a sentence on what is wrong with it, or None
    when the answer names no choice at all (a command, then)."""
    words = answer.split()
    if not words:
        return None
    head = words[0].lower()
    chosen = next((c for c in offered if (head.isdigit() and c.answers(int(head))) or (c.key and c.key == head)), None)
    if chosen is None:
        if head.isdigit():
            return Picked(problem=_("There is no choice {n} now: press enter to hear the choices.").format(n=head)
                          if offered else _("There is nothing to do right now."))
        return None
    if chosen.kinds:
        return _kind(chosen, words[1:])
    if not chosen.amounts:
        return Picked(chosen.actions[0]) if len(words) == 1 else Picked(
            problem=_("{what} takes no amount: answer {n} alone.").format(what=chosen.words, n=chosen.number))
    low, high = chosen.amounts[0], chosen.amounts[-1]
    if len(words) != 2 or not words[1].isdigit():
        said = _("Say the amount after the number, from {low} to {high}: for example {n}, a space, {low}.")
        return Picked(problem=said.format(low=low, high=high, n=chosen.number))
    amount = int(words[1])
    for action in chosen.actions:
        if action.chips == amount:
            return Picked(action)
    return Picked(problem=_("{amount} is not an amount on offer: from {low} to {high}.").format(
        amount=amount, low=low, high=high))


def _kind(chosen: Choice, rest: list[str]) -> Picked:
    """One of a choice's kinds, by its number after the choice's ("5 2"); without it, the kinds listed. A choice
    of one kind alone (a knock with one discard) needs no second number."""
    subs = chosen.subnumbers or tuple(range(1, len(chosen.kinds) + 1))
    if not rest and len(chosen.actions) > len(chosen.kinds):
        return Picked(chosen.actions[-1])  # a knock with all ten melded: the knock's number alone
    if not rest and len(chosen.actions) == 1:
        return Picked(chosen.actions[0])
    if len(rest) == 1 and rest[0].isdigit() and int(rest[0]) in subs:
        return Picked(chosen.actions[subs.index(int(rest[0]))])
    # each kind by its words, then its number; a kind said as a card ("9 of hearts") after its action's word, so that
    # no number is heard right after the last kind's
    listed = "; ".join(numbered(words if not words[:1].isdigit() else f"{chosen.action_word} {words}", n)
                       for n, words in zip(subs, chosen.kinds, strict=True))
    return Picked(problem=_("Which one? {kinds}. Answer {n} and its number: for example {n}, a space, {first}.").format(
        kinds=listed, n=chosen.number, first=subs[0]))
