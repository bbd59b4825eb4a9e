"""What the log and the action bar say: typed events and actions put into words.

The server sends what happened as typed records; this module is the one place they become
sentences, in the reader's language (``cardtui.i18n``). Each game family adds its own
events' words with ``family_words``; names and chat are plain text, never markup.

A sentence with a name in it is a template filled by ``fmt`` (``"{name} sits down at seat
{seat}."``), so a translation may put the name where its language wants it. Labels
(``ACTION_WORDS``, a game's ``labels`` in ``client.gamebook``) are marked with ``N_`` and looked up when
shown; a game's own terms (truco calls) are not marked, so they stay in the game's language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from string import Formatter

from google.protobuf.message import Message
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text

from cardtui.client import gamebook
from cardtui.client.cards import card_text, cards_text
from cardtui.client.models import TableModel, action_kind, action_name, event_body
from cardtui.client.phrases import phrase_text
from cardtui.i18n import N_, _, ngettext
from cardtui.v1 import common_pb2, table_pb2


@dataclass(frozen=True)
class Said:
    """A log line and how it looks: ``style`` picks the colour the log gives it."""

    text: Text
    style: str = ""


Words = Callable[[str, Message, TableModel], Said | None]
SILENT = Said(Text(""))
"""What a family's words return to say nothing of a common event (None: the common words say it)."""
_FAMILIES: dict[str, Words] = {}

ACTION_WORDS: dict[str, str] = {
    "pass": N_("Pass"),
    "bet": N_("Bet"),
    "check": N_("Check"),
    "call": N_("Call"),
    "raise": N_("Raise to"),
    "fold": N_("Fold"),
}
"""Labels for the action bar, by action type (looked up when shown); a game adds its own
(``gamebook.ClientGame.labels``)."""


def family_words(family: str, words: Words) -> None:
    """A game family's event words (``family`` is the ``Event`` field: "cacho", "rummy", "truco")."""
    _FAMILIES[family] = words


def key_for(model: TableModel, kind: str) -> str | None:
    """The key that takes an action of this kind at this table (None: the action bar numbers it).

    ``kind`` is an action's type, or its type and source (``"draw:pile"``, see ``action_kind``):
    a game may give each source a key of its own, or the type one key for all.
    """
    game = gamebook.find(model.game)
    keys = game.keys if game is not None else {}
    return keys.get(kind) or keys.get(kind.partition(":")[0])


def label_of(game: str, kind: str) -> str | None:
    """The label a game gives an action of this kind, as registered (English, or a game's own term);
    None if it gives none (the kind's own name is shown, in English: a test holds every game to this)."""
    known = gamebook.find(game)
    labels = known.labels if known is not None else {}
    base = kind.partition(":")[0]
    return labels.get(kind) or labels.get(base) or ACTION_WORDS.get(kind) or ACTION_WORDS.get(base)


def word(model: TableModel, kind: str) -> str:
    """What an action of this kind is called at this table, without its amount or cards ("Raise to")."""
    said = label_of(model.game, kind)
    return _(said) if said else kind.partition(":")[0].replace("_", " ").capitalize()


def who(model: TableModel, seat: int) -> Text:
    """A seat's person as plain text (never markup), the viewer's own name in green."""
    return Text(model.name(seat), style="bold green" if seat == model.seat else "bold")


def line(*parts: str | Text) -> Text:
    out = Text()
    for p in parts:
        out.append_text(p) if isinstance(p, Text) else out.append(p)
    return out


def fmt(template: str, **parts: str | int | Text) -> Text:
    """A sentence from a template already in the reader's language ("{name} deals."), its fields
    filled with plain text or styled ``Text`` (a name in bold), never read as markup. A field the
    template lacks is left out; one the parts lack is shown as it is."""
    return fill(template, parts)


def fill(template: str, parts: Mapping[str, str | int | Text], fmt_style: str = "") -> Text:
    """``fmt`` with the template's own words in ``fmt_style``."""
    out = Text()
    try:
        pieces = list(Formatter().parse(template))
    except ValueError:
        return Text(template)
    for literal, field, spec, _conv in pieces:
        out.append(literal, style=fmt_style)
        if field is None:
            continue
        part = parts.get(field)
        if part is None:
            out.append("{" + field + "}")
        elif isinstance(part, Text):
            out.append_text(part)
        else:
            out.append(format(part, spec or ""), style=fmt_style)
    return out


def label(model: TableModel, action: common_pb2.Action) -> Text:
    """What an action is called at this table ("Raise to 4", "Play 7♥ face down")."""
    game = gamebook.find(model.game)
    said = game.labeller(model, action) if game is not None and game.labeller is not None else None
    if said is not None:
        return said
    kind = action_name(action)
    out = Text(word(model, action_kind(action)))
    if action.chips and kind in ("bet", "raise", "call"):
        out.append(f" {action.chips}")
    if action.points:
        out.append(f" {action.points}")
    if action.position:
        out.append(" ")
        out.append(_("card {n}").format(n=action.position))
    if action.cards:
        out.append(" ")
        out.append_text(cards_text(action.cards))
    return out


def said_action(model: TableModel, seat: int, action: common_pb2.Action) -> Text:
    """A seat's action as the log says it: "ana bets 2", "bea passes"."""
    kind = action_name(action)
    name = who(model, seat)
    chips = action.chips
    templates = {
        "pass": _("{name} passes"),
        "check": _("{name} checks"),
        "fold": _("{name} folds"),
        "call": _("{name} calls {chips}") if chips else _("{name} calls"),
        "bet": _("{name} bets {chips}") if chips else _("{name} bets"),
        "raise": _("{name} raises to {chips}"),
    }
    template = templates.get(kind)
    out = line(name, ": ", label(model, action)) if template is None else fmt(template, name=name, chips=chips)
    out.style = name.style  # the whole line in the seat's colour
    return out


def match_begins(body: table_pb2.MatchStarted) -> Text:
    """How a match begins: after a match's end, which seats won and how, as the server
    decided it (``server.rematch``: everyone agreeing, else what most asked when the time ran out, a tie or
    no answer keeping the same seats)."""
    swapped, n = bool(body.seats_from), body.match
    if not body.asked:
        return fmt(_("Game {n} begins, the seats swapped.") if swapped else _("Game {n} begins."), n=n)
    if body.agreed:
        return fmt(_("Game {n} begins: the seats swapped, as everyone asked.") if swapped
                   else _("Game {n} begins: the same seats, as everyone asked."), n=n)
    won, lost = (body.swap_votes, body.same_votes) if swapped else (body.same_votes, body.swap_votes)
    if not won:
        return fmt(_("Game {n} begins: the same seats (nobody answered in time)."), n=n)
    names = Text(", ".join(body.chosen_by), style="bold")
    if swapped:
        said = _("Game {n} begins: the seats swapped, as {names} asked ({won} to {lost} when the time ran out).")
    elif won == lost:
        said = _("Game {n} begins: the same seats, as {names} asked ({won} to {lost}: a tie keeps the seats).")
    else:
        said = _("Game {n} begins: the same seats, as {names} asked ({won} to {lost} when the time ran out).")
    return fmt(said, n=n, names=names, won=won, lost=lost)


def event_words(model: TableModel, event: table_pb2.Event) -> Said | None:
    """The log line for an event, or None when there is nothing to say (a hidden event)."""
    family = event.WhichOneof("body") or ""
    name, body = event_body(event)
    if body is None or name == "hidden":
        return None
    words = _FAMILIES.get(family)
    if words is not None:
        return words(name, body, model)
    # A family may say a common event its own way (a rummy hand's end); else the common words.
    own = _FAMILIES.get(model.view.WhichOneof("game") or "") if model.view is not None else None
    said = own(name, body, model) if own is not None else None
    if said is SILENT:
        return None
    return said if said is not None else _common(name, body, model)


def _common(name: str, body: Message, model: TableModel) -> Said | None:
    if isinstance(body, table_pb2.Joined):
        sitter = Text(body.name, style="bold green" if body.seat == model.seat else "bold")
        return Said(fmt(_("{name} sits down at seat {seat}."), name=sitter, seat=body.seat + 1), "dim")
    if isinstance(body, table_pb2.Left):
        leaver = Text(body.name, style="bold")
        if body.bot_plays:
            return Said(fmt(_("{name} leaves the table; a bot plays the seat until someone takes it."), name=leaver),
                        "dim")
        return Said(fmt(_("{name} leaves the table."), name=leaver), "dim")
    if isinstance(body, table_pb2.Chatted):
        speaker = Text(body.name, style="bold cyan")
        if not body.HasField("seat"):
            speaker.append(" " + _("(watching)"), style="cyan")
        return Said(line(speaker, ": ", Text(phrase_text(body.phrase) if body.phrase else body.text)), "cyan")
    if isinstance(body, table_pb2.WentAway):
        return Said(fmt(_("{name} is away: a bot plays for them until they return."),
                        name=Text(body.name, style="bold")), "yellow")
    if isinstance(body, table_pb2.CameBack):
        return Said(fmt(_("{name} is back and plays again."), name=Text(body.name, style="bold")), "yellow")
    if isinstance(body, table_pb2.MatchStarted):
        return Said(match_begins(body), "bold")
    if isinstance(body, table_pb2.RematchVoted):
        asked = (_("{name}: again, the seats swapped.") if body.choice == table_pb2.REMATCH_CHOICE_SWAP
                 else _("{name}: again, the same seats."))
        return Said(fmt(asked, name=Text(body.name, style="bold")), "magenta")
    if isinstance(body, table_pb2.HandStarted):
        return Said(fmt(_("Hand {n}: {name} deals."), n=body.hand, name=who(model, body.dealer)), "bold")
    if isinstance(body, table_pb2.CardsDealt):
        if body.seat != model.seat:  # only a replay tells one seat of another's cards
            return Said(fmt(_("{name} is dealt {cards}."), name=who(model, body.seat), cards=cards_text(body.cards)))
        return Said(fmt(_("You receive {cards}."), cards=cards_text(body.cards)))
    if isinstance(body, table_pb2.Acted):
        return Said(line(said_action(model, body.seat, body.action), "."))
    if isinstance(body, table_pb2.HandEnded):
        return None  # the family says who won what, and why
    if isinstance(body, table_pb2.MatchEnded):
        if body.HasField("team"):
            return Said(fmt(_("Team {n} wins the match."), n=body.team + 1), "bold magenta")
        if body.HasField("winner"):
            return Said(fmt(_("{name} wins the match."), name=who(model, body.winner)), "bold magenta")
    return None


__all__ = ["SILENT", "Said", "card_text", "event_words", "family_words", "fill", "fmt",
           "key_for", "label", "label_of", "line", "ngettext", "who", "word"]


class Hanging:
    """A text whose indented lines wrap under their own indent, not at the margin: a flagged decision's
    reason and its choices (indented under the decision) stay in their column however narrow the screen.
    ``str()`` is the text's words, as a ``Text``'s ``plain``."""

    def __init__(self, text: Text) -> None:
        self.text = text

    def __str__(self) -> str:
        return self.text.plain

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        for paragraph in self.text.split("\n", allow_blank=True):
            plain = paragraph.plain
            indent = len(plain) - len(plain.lstrip(" "))
            if not indent or indent > width // 2 or paragraph.cell_len <= width:
                yield paragraph
                continue
            for row in paragraph[indent:].wrap(console, width - indent):
                yield Text(" " * indent, end="\n").append_text(row)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.text)
