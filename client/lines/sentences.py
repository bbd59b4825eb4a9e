"""What the line mode says: the log's sentences made fit to be heard, and the table, the hand and the turn
told in words.

The table's log writes cards as a rank and a suit mark (``7♥``) and decorates with marks (``✔``, ``·``,
``⚠``): on a screen they are quick to read, but a speech synthesiser reads ``7♥`` as "seven black heart
suit", or skips it. ``spoken`` turns each card into its name ("7 of hearts", "rei de paus") and each mark
into a word or a pause, so the sentence read aloud is the sentence a person would say. Everything else here
is built from the view the server sent: nothing knows a game's rules.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence

from cardtui.client.card_names import card_words as card_words  # (said here too: the line mode's parts ask here)
from cardtui.client.card_names import cards_words as cards_words
from cardtui.client.card_names import name_of, rank_and_suit
from cardtui.client.cards import SUITS
from cardtui.client.lines.commands import plain
from cardtui.client.models import TableModel
from cardtui.client.screens.replay import game_title
from cardtui.client.shape import family_for, numbered_hand
from cardtui.i18n import N_, _, current, ngettext, speaking
from cardtui.v1 import common_pb2, table_pb2

_MARK_OF = {symbol: suit for suit, (symbol, _style) in SUITS.items()}
_ONE = r"(?:10|11|12|[1-9AJQK])[" + "".join(_MARK_OF) + r"]"
_CARD = re.compile(r"(?<![\w])(10|11|12|[1-9AJQK])([" + "".join(_MARK_OF) + r"])")
_RUN = re.compile(rf"(?<![\w]){_ONE}(?: {_ONE})+")
_GLUED = re.compile(r"(?<=[" + "".join(_MARK_OF) + rf"])(?={_ONE})")
"""Between two cards written side by side with no space (a key's label, "A♠7♦"): heard as two cards, not one word."""
"""Cards side by side ("A♣ 3♡ 7♡"): said as a list, with commas and an "and"."""
_BACK = re.compile(r"▒▒▒(?: ?▒▒▒)*")
WORDS = {"⚠": N_("warning:"), "🔒": N_("locked:"), "🏆": N_("tournament:"), "→": N_("to"), "–": N_("to")}
"""Marks the screen uses for the eye that a listener needs as a word."""
PAUSES = {"·": ",", "—": ",", "│": ";", "•": ",", "…": "...", "±": ""}
"""Marks heard as a pause (a comma; between a knock's melds, "│", a longer one: each meld is heard apart), said as
they read, or not at all."""
_ENDS_IN_A_NUMBER = re.compile(r"\d\W*$")
"""Words that end in a number ("bot 2"): a number said right after them runs into it."""
_EITHER = re.compile(rf"({_ONE})/({_ONE})")
"""Two cards either of which ("7⚔/7●", a signal's promise)."""
SILENT_MARKS = re.compile(r"[\u2500-\u259f\u25a0-\u25ff\u2600-\u27bf\U0001f300-\U0001faff\ufe0f]")
"""Box drawing, blocks, geometric shapes, dingbats and emoji left after the marks above: said by none."""


def card_named(said: str, codes: Iterable[str]) -> str | None:
    """The card of ``codes`` a player names: as the ``hand`` command says it ("7 of hearts", "rei de paus"), in
    the reader's language or in English, with or without its "of" ("7 hearts"), or by its code ("7h", "kh");
    None if it names none of them."""
    wanted = " ".join(plain(said).split())
    for code in codes:
        if wanted in _spellings(code):
            return code
    return None


def _spellings(code: str) -> set[str]:
    rank, suit = code[:-1], code[-1]
    out = {plain(code)}
    with speaking("en"):
        english = rank_and_suit(rank, suit)
    for rank_word, suit_word in (rank_and_suit(rank, suit), english):
        out.add(plain(f"{rank_word} {suit_word}"))
        out.add(plain(_("{rank} of {suit}").format(rank=rank_word, suit=suit_word)))
        out.add(plain(f"{rank} {suit_word}"))
    with speaking("en"):
        out.add(plain(name_of(rank, suit)))
    return {" ".join(s.split()) for s in out}


def spoken(text: str, stop: bool = True, short: bool = False) -> str:
    """A line of the screen's as it is heard: cards named, marks in words, the eye's decorations gone,
    one line (a screen's several rows joined by full stops; ``stop``: the last one too); ``short``: the cards
    named short, as the terse level says them ("7 hearts"). The same line is said again and again (an action's
    label at every turn it is offered, a card's name): each is worked out once per language."""
    return _spoken(text, stop, short, current())


@functools.lru_cache(maxsize=4096)
def _spoken(text: str, stop: bool, short: bool, lang: str) -> str:
    """``spoken`` in ``lang``, the reader's language as it is called (what its words are read in)."""
    text = _GLUED.sub(" ", text)
    text = _EITHER.sub(lambda m: _("{one} or {other}").format(one=card_words(_code(m.group(1)), short),
                                                              other=card_words(_code(m.group(2)), short)), text)
    text = _RUN.sub(lambda m: cards_words((_code(card) for card in m.group(0).split()), short), text)
    text = _CARD.sub(lambda m: name_of(m.group(1), _MARK_OF[m.group(2)], short), text)
    text = _BACK.sub(lambda m: _backs(m.group(0).count("▒▒▒")), text)
    for mark, word in WORDS.items():
        text = text.replace(mark, f" {_(word)} ")
    for mark, pause in PAUSES.items():
        text = text.replace(mark, pause)
    text = SILENT_MARKS.sub("", text)
    rows = [" ".join(row.split()).strip(" ,") for row in text.splitlines()]
    rows = [row for row in rows if row]
    text = " ".join(_stop(row) if stop or n < len(rows) - 1 else row for n, row in enumerate(rows))
    text = re.sub(r"\s+([,.:;!?])", r"\1", text)
    text = re.sub(r",(\s*,)+", ",", text)
    text = re.sub(r"([!?])\.", r"\1", text)  # "Truco!." is said "Truco!"
    return re.sub(r"([:;,])\.", ".", text).strip(" ,")


def _code(card: str) -> str:
    """A card as the log writes it (``7♥``) back to its code (``7H``)."""
    return card[:-1] + _MARK_OF[card[-1]]


def _backs(n: int) -> str:
    return ngettext("a face-down card", "{n} face-down cards", n).format(n=n)


def _stop(row: str) -> str:
    """A row that ends without a stop gets one, so that rows joined on one line are heard apart."""
    row = row.strip(" ,")
    return row if not row or row[-1] in ".:;!?" else row + "."


def seat_line(model: TableModel, seat: common_pb2.SeatSummary) -> str:
    """One seat as the ``table`` command says it: who holds it, and how ("seat 2, bea, a bot, easy")."""
    if not seat.taken and seat.bot:
        who = _("open, a bot plays it")
    elif not seat.taken:
        who = _("open")
    elif seat.bot and seat.away:
        who = _("{name}, away: a bot plays for them").format(name=seat.name)
    elif seat.bot:
        who = _("{name}, a bot").format(name=seat.name)
    else:
        who = seat.name
    said = _("seat {n}: {who}").format(n=seat.seat + 1, who=who)
    if seat.seat == model.seat:
        said += " " + _("(you)")
    return said


def table_named(name: str, title: str) -> str:
    """A table as the ear hears it: its name, and its game's title unless the name says it already ("Mesa de
    Pif Paf", not "Mesa Mesa de Pif Paf, pifpaf"); never its id, a string of hex digits said one by one."""
    if not name:
        return title
    return name if plain(title) in plain(name) else _("{name}, {game}").format(name=name, game=title)


def table_words(model: TableModel, full: bool = True, score: str = "") -> list[str]:
    """The ``table`` command: what is on the table now (the trick, the pile and the stock, the pot) and whose turn it
    is; ``full``: the game and the hand, who sits where with their chips or points, and ``score`` (every side's
    total, which the families say) as well."""
    summary = model.summary
    view = model.view
    out = [table_named(summary.name, game_title(summary.game)) + "."] if full else []
    if model.seat is None and full:
        out.append(_("You are watching."))
    if view is None or view.WhichOneof("game") in (None, "waiting"):
        seats = [seat_line(model, s) for s in (view.seats if view is not None else summary.seats)]
        out.append("; ".join(seats) + ".")
        out.append(_("Waiting for players to take the open seats."))
        return out
    if full:
        out.append(_("Hand {n}, {name} deals.").format(n=view.hand, name=model.name(view.dealer)))
        out.append("; ".join(_seat_state(model, view, s) for s in view.seats) + ".")
        if score:
            out.append(score)
    out.extend(line for line in _play_state(model, view, full) if not (score and line in score))  # the pot, once
    out.append(turn_words(model))
    return [spoken(line) for line in out if line]


def _seat_state(model: TableModel, view: table_pb2.View, seat: common_pb2.SeatSummary) -> str:
    """A seat and what it holds ("seat 3: caio, 49 chips, 9 cards"); where the seat's words end in a number and what
    it holds begins with one, a word between them ("seat 2: dan 2 has 49 chips"): two numbers in a row run
    together for the ear."""
    said = seat_line(model, seat)
    family = family_for(view)
    parts = family.seat_held(model, view, seat.seat) if family is not None else []
    if not parts:
        return said
    held = ", ".join(parts)
    if _ENDS_IN_A_NUMBER.search(said) and held[:1].isdigit():
        return _("{name} has {n}").format(name=said, n=held)
    return f"{said}, {held}"


def _play_state(model: TableModel, view: table_pb2.View, full: bool = True) -> list[str]:
    """What is on the table now, as the view's family says it (``Family.on_table``): Cacho's round and pot; a rummy
    table's pot, flip, stock and pile; a truco table's stake and trick."""
    family = family_for(view)
    return family.on_table(model, view, full) if family is not None else []


def hand_words(model: TableModel, slots: Sequence[str | None] = ()) -> str:
    """The ``hand`` command: the cards this player holds, in the order of their numbers (a truco hand by its place
    as dealt, ``slots``; a rummy hand in the view's order); a truco hand with a card played says each card's place
    as a word ("first: 4 of cups; third: 3 of clubs")."""
    view = model.view
    if model.seat is None:
        return _("You are watching: you hold no cards.")
    if view is None or view.WhichOneof("game") in (None, "waiting"):
        return _("No hand has been dealt yet.")
    family = family_for(view)
    return family.hand(model, view, slots) if family is not None else _("You hold no cards.")


def card_at(model: TableModel, n: int, slots: Sequence[str | None] = ()) -> str:
    """A card by its place (``card 3``, ``3?``): what number ``n`` plays or discards."""
    if model.seat is None:
        return _("You are watching: you hold no cards.")
    places = numbered_hand(model, slots)
    if places is None:
        return _("Cards are not played by their number here.")
    if not 1 <= n <= len(places):
        return ngettext("You hold no card {n}: you hold {count} card.", "You hold no card {n}: you hold {count} "
                        "cards.", len([c for c in places if c is not None])).format(
            n=n, count=len([c for c in places if c is not None]))
    card = places[n - 1]
    if card is None:
        return _("Card {n} was played.").format(n=n)
    return _("Card {n} is {card}.").format(n=n, card=card_words(card))


def turn_words(model: TableModel, left: float | None = None) -> str:
    """Whose turn it is, and the time left on it."""
    view = model.view
    if view is None or view.WhichOneof("game") in (None, "waiting"):
        return _("Waiting for players.")
    if view.match_over:
        return _("The match is over.")
    if view.hand_over:
        return _("The hand is over; the next one comes soon.")
    waiting = list(view.to_act)
    if not waiting:
        return ""
    if model.seat in waiting and model.legal:
        said = _("It is your turn.")
    elif model.seat in waiting:
        said = _("Waiting for the others.")
    else:
        names = ", ".join(model.name(s) for s in waiting)
        said = ngettext("{names} to act.", "{names} to act.", len(waiting)).format(names=names)
    if left is not None:
        said += " " + seconds_left(left)
    return said


def seconds_left(left: float) -> str:
    n = max(0, round(left))
    return ngettext("Time left: {n} second.", "Time left: {n} seconds.", n).format(n=n)  # words before the number
