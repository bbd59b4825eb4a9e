"""Meld hints told true at every rummy game the room offers, under each of its options: every card a hint names
is a card of the table's own pack, completes what it says, and no card of that pack that would complete a pair
held is left out (the hint once looked among the French 52 alone, and told each Chinchón player "no meld").

Taken from the registries, not from a list of games: a rummy game added tomorrow is held to this too."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator

import pytest

from cardtui.engine import family
from cardtui.engine.cards import Suit, pack
from cardtui.engine.core import InvalidOptions, Rules
from cardtui.engine.games import GAMES
from cardtui.engine.options import Raw
from cardtui.engine.rummy.bots.pifpaf import rules_of
from cardtui.engine.rummy.meld_hints import MOST
from cardtui.engine.rummy.melds import is_meld_with_wilds
from cardtui.engine.rummy.records import RummyView
from tests.test_conformance import random_moments


def variants(rules: Rules) -> Iterator[dict[str, Raw]]:
    """The game's defaults, then each choice and listed value of each option, one at a time (a pack, its jokers,
    its figures: whatever changes what a hand is)."""
    yield {}
    for spec in rules.option_specs:
        offered: tuple[Raw, ...] = spec.choices if spec.kind == "choice" else (
            (True, False) if spec.kind == "flag" else tuple(spec.values))
        for value in offered:
            with contextlib.suppress(InvalidOptions):
                yield rules.check_options({spec.name: value})


@pytest.mark.parametrize("game", [name for name, rules in GAMES.items() if rules.family_name == "rummy"])
def test_every_hint_names_the_tables_own_cards_and_all_of_them(game: str) -> None:
    rules = GAMES[game]
    rng = random.Random(2026)
    checked = 0
    for n, options in enumerate(variants(rules)):
        for match, seat in random_moments(rules, min(rules.player_counts), 2026 + n, 40, options):
            view = match.view(seat)
            assert isinstance(view, RummyView)
            if not view.cards:
                continue
            card = rng.choice(view.cards)
            hints = family.of(view).hints(view, card)
            told = dict(hints)
            naturals = {c for c in pack(view.table.pack) if c.suit is not Suit.JOKER}
            ruleset, held = rules_of(view), set(view.cards)
            for other in {c for c in view.cards if c != card}:
                pair = (card, other)
                wanted = {x for x in naturals - held if is_meld_with_wilds((*pair, x), ruleset, view.wilds)}
                key = next((k for k in told if len(k) == 2 and set(k) == set(pair)), None)
                named = set(told[key]) if key is not None else set()
                assert named <= naturals, f"{game} {options}: {pair} said to need {named - naturals}"
                if key is not None or len(hints) < MOST:  # (at most MOST are told: the melds, then the likeliest)
                    assert named == wanted, \
                        f"{game} {options}: {pair} needs {wanted}, told {named} in {hints}, hand {view.cards}"
            checked += 1
    assert checked > 20, f"{game}: only {checked} hands looked at"
