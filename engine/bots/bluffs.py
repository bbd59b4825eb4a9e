"""How often to bluff: the frequency that leaves the other side no profitable fixed answer.

A bet answered by a refusal pays the bettor ``refused``; accepted, it is worth ``accepted`` to
whoever holds the better hand. An answerer holding a hand that beats only bluffs gains
``accepted + refused`` by accepting a bluff (it takes ``accepted`` instead of paying
``refused``) and loses ``accepted - refused`` by accepting a bet made with value. Accepting
and refusing are worth the same to it when bluffs are this share of the bets::

    share = (accepted - refused) / (2 * accepted)

(a quarter for a truco at stake 1 or an envido, a third for truco paulista's 3 over 1). A
bettor who always bets its value hands then bluffs a weak hand with the chance
``share / (1 - share) * value / weak``, where ``value`` and ``weak`` are how often it holds
each: bluff more and "always accept" takes the difference, less and "never accept" does.
The draw is made on the bot's own seeded rng, so a replay decides the same.
"""

from __future__ import annotations


def bluff_share(refused: int, accepted: int) -> float:
    """The share of bets that are bluffs at which an answerer is indifferent (see the module)."""
    if accepted <= refused or accepted <= 0:
        return 0.0
    return (accepted - refused) / (2.0 * accepted)


def bluff_rate(refused: int, accepted: int, value: float = 1.0, weak: float = 1.0) -> float:
    """The chance to bluff a weak hand, when value hands come ``value`` times for every ``weak``
    time (as often, by default) and are always bet."""
    share = bluff_share(refused, accepted)
    if share <= 0.0 or weak <= 0.0:
        return 0.0
    return min(1.0, share / (1.0 - share) * value / weak)


def bet_bluff_rate(pot: int, bet: int, value: float = 1.0, weak: float = 1.0) -> float:
    """``bluff_rate`` for a bet of ``bet`` chips into ``pot``: a fold gives up the pot, a call wins
    ``pot + bet`` from a bluff and loses ``bet`` to value, so bluffs are ``bet / (pot + 2 bet)`` of the
    bets (the truco form with ``accepted - refused = bet`` and ``accepted + refused = pot + bet``)."""
    if bet <= 0:
        return 0.0
    share = bet / (pot + 2.0 * bet)
    if weak <= 0.0:
        return 0.0
    return min(1.0, share / (1.0 - share) * value / weak)
