"""What the line mode says of what the server remembers: the leaderboard, a player's card, the finished tables
and their hands, and a hand replayed step by step.

The screens show these as grids (``client.screens.players``, ``client.screens.replay``); read aloud a grid is
a list of numbers without their headings, so here each row is one sentence that names what each figure is
("1: dora, rating 15.9, 12 matches, 7 won, 96 hands"). A replay is told a step at a time, each step its
events in the log's words with every card face up, the result at the last: one step a line is easier to
follow by ear than a whole hand at once, and ``next all`` says the rest for who wants it.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, replace

from cardtui.client.lines.sentences import spoken
from cardtui.client.models import TableModel, holders_of, shown
from cardtui.client.screens.players import KINDS, rating_text
from cardtui.client.screens.replay import game_title, hand_model, hand_players, players_text, result_text
from cardtui.client.words import event_words, label
from cardtui.i18n import _, ngettext
from cardtui.v1 import common_pb2, players_pb2, replay_pb2


def stats_words(stats: players_pb2.Stats) -> str:
    """A record's figures, each named: "12 matches, 7 won, 96 hands, best pot 64"."""
    out = [ngettext("{n} match", "{n} matches", stats.matches).format(n=stats.matches),
           _("{n} won").format(n=stats.wins),
           ngettext("{n} hand", "{n} hands", stats.hands).format(n=stats.hands)]
    if stats.HasField("biggest_pot"):
        out.append(_("best pot {n}").format(n=stats.biggest_pot))
    if stats.HasField("truco_calls_won"):
        out.append(_("{n} trucos won").format(n=stats.truco_calls_won))
    return ", ".join(out)


def leaderboard_lines(board: players_pb2.LeaderboardResponse, title: str) -> list[str]:
    """A game's leaderboard, a player a line, numbered by place."""
    if not board.standings:
        return [_("Nobody is rated at {game} yet: a match finished by a player with a key (or against one) puts "
                  "its players here.").format(game=title)]
    head = _("Leaderboard of {game}, rated by openskill (a cautious rating, it grows as matches show it):").format(
        game=title)
    if board.players > len(board.standings):
        head += " " + _("(the best {listed} of {players})").format(listed=len(board.standings), players=board.players)
    out = [head]
    for s in board.standings:
        who = _("{name}, a bot").format(name=s.name) if s.bot else s.name
        out.append(_("{n}: {name}, rating {rating}, {stats}.").format(n=s.place, name=who,
                                                                     rating=rating_text(s.rating),
                                                                     stats=stats_words(s.stats)))
    out.append(_("Type ranks and a number for that player's records, or ranks and a game for its leaderboard."))
    return out


def card_lines(card: players_pb2.PlayerCardResponse, titles: dict[str, str]) -> list[str]:
    """A player's card: who they are, and their record at each game."""
    kind = _(KINDS.get(card.kind, ""))
    out = [f"{card.name}, {kind}." if kind else f"{card.name}."]
    if card.kind == players_pb2.PLAYER_KIND_GUEST:
        out.append(_("Plays as a guest: guests are not remembered, so they have no records here."))
        return out
    if card.kind == players_pb2.PLAYER_KIND_PERSON:
        since = datetime.datetime.fromtimestamp(card.since_unix).strftime("%Y-%m-%d") if card.since_unix else "?"
        out.append(_("Remembered here since {since}.").format(since=since))
    if not card.games:
        out.append(_("No match finished yet."))
    for g in card.games:
        out.append(_("{game}: place {place}, rating {rating}, {stats}.").format(
            game=titles.get(g.game, g.game), place=g.place, rating=rating_text(g.rating), stats=stats_words(g.stats)))
    return out


def finished_table_line(n: int, t: common_pb2.TableSummary) -> str:
    """A finished table as the history lists it: its number, game, name and who played there."""
    said = _("{n}: {game}, {name}; played by {players}.").format(n=n, game=game_title(t.game), name=t.name or t.id,
                                                                 players=players_text(t).plain)
    if t.has_password:
        said += " " + _("It asks for a password.")
    return spoken(said)


def hand_line(hand: replay_pb2.HandSummary) -> str:
    """A finished hand as a table's list says it: its number, who played, and what each won or lost."""
    model = hand_model(hand)
    if hand.ended:
        model = replace(model, names=shown(holders_of(hand.ended)))
    number = str(hand.hand) + (" (" + _("game {n}").format(n=hand.match) + ")" if hand.match > 1 else "")
    players = ", ".join(p.plain for p in hand_players(hand))
    return spoken(_("Hand {n}: {players}; {result}.").format(n=number, players=players,
                                                            result=result_text(model, hand).plain))


@dataclass
class Replay:
    """A hand being replayed: its steps, and how many have been told."""

    hand: replay_pb2.HandSummary
    steps: list[replay_pb2.ReplayStep]
    told: int = 0

    @property
    def over(self) -> bool:
        return self.told >= len(self.steps)

    def start_line(self) -> str:
        return _("Replay of hand {n}, {game}: {steps} steps, every card face up. Press enter (or type next) for "
                 "each step, next all for the rest.").format(n=self.hand.hand, game=game_title(self.hand.game),
                                                             steps=len(self.steps))

    def step_lines(self) -> list[str]:
        """The next step told: which it is, who did what, and its events; the result after the last."""
        if self.over:
            return [_("The replay is over.")]
        n = self.told
        step = self.steps[n]
        self.told += 1
        model: TableModel = hand_model(self.hand).with_view(step.view, n)
        model = replace(model, names=shown(holders_of(step.view.seats)))
        if step.HasField("seat"):
            what = _("{name}: {action}").format(name=model.name(step.seat), action=label(model, step.action).plain)
        else:
            what = _("the deal")
        out = [_("Step {n} of {all}, {what}.").format(n=n + 1, all=len(self.steps), what=what)]
        for event in step.events:
            said = event_words(model, event)
            if said is not None:
                out.append(said.text.plain)
        if self.over:
            out.append(_("The hand is over: {result}.").format(result=result_text(model, self.hand).plain))
        return [line for line in (spoken(o) for o in out) if line]
