"""An analysis's numbers and reasons in words (``client.advice``): one scale of points for every loss, a value in its
game's unit, and every kind of reason said in English, Portuguese and Spanish with its numbers, a sentence at a time,
each from a capital."""

from __future__ import annotations

import re

import pytest

from cardtui.client import advice
from cardtui.client.models import TableModel
from cardtui.i18n import speaking
from cardtui.v1 import analysis_pb2, common_pb2

A = analysis_pb2
REASONS: dict[str, A.AnalysisReason] = {
    "envido": A.AnalysisReason(envido=A.EnvidoAdvice(envido=2, beats=0.02, mine=10, theirs=12, target=30)),
    "answer": A.AnalysisReason(envido=A.EnvidoAdvice(envido=33, beats=0.99, call="real_envido", caller=30,
                                                      beats_caller=0.9, mine=12, theirs=10, target=30)),
    "truco": A.AnalysisReason(truco=A.TrucoAdvice(first=1.0, second=0.25, won=1, lost=0)),
    "trick": A.AnalysisReason(truco=A.TrucoAdvice(
        first=0.89, second=0.2, won=1, lost=0, trick=2, table=["5D", "3S"], high="3S", high_side=A.TRUCO_SIDE_THEIRS,
        card="7C", card_does=A.TRUCO_OUTCOME_LOSES, best_card="3H", best_does=A.TRUCO_OUTCOME_TIES,
        tie_goes=A.TRUCO_SIDE_YOURS, decides=True)),
    "sure": A.AnalysisReason(truco=A.TrucoAdvice(
        first=1.0, second=0.6, trick=1, table=["7C", "QD"], high="QD", high_side=A.TRUCO_SIDE_THEIRS, card="AD",
        card_does=A.TRUCO_OUTCOME_TAKES, best_card="4C", best_does=A.TRUCO_OUTCOME_SURE,
        tie_goes=A.TRUCO_SIDE_NEITHER, decides=True)),
    "draw": A.AnalysisReason(draw=A.DrawAdvice(card="KH", loose=3, taking=2, outs=10, unseen=93)),
    "out": A.AnalysisReason(draw=A.DrawAdvice(card="6H", goes_out=True, all_ten=True, outs=17, unseen=92)),
    "discard": A.AnalysisReason(discard=A.DiscardAdvice(chosen="KC", chosen_loose=3, chosen_outs=8, best="2S",
                                                         best_loose=3, best_outs=14, unseen=93)),
    "single": A.AnalysisReason(discard=A.DiscardAdvice(chosen="KC", chosen_loose=1, chosen_outs=1, best="2S",
                                                        best_loose=1, best_outs=0, unseen=30)),
    "knock": A.AnalysisReason(knock=A.KnockAdvice(melded=9, outs=4, unseen=93, stock=40, discard="2S", tens=-1,
                                                   fewest=-1)),
    "ten": A.AnalysisReason(knock=A.KnockAdvice(melded=9, outs=88, unseen=88, stock=30, discard="2S", tens=6,
                                                 fewest=2)),
    "seven": A.AnalysisReason(draw=A.DrawAdvice(card="5o", loose=2, taking=0, goes_out=True, outs=9, unseen=28,
                                                 closes=True)),
    "close": A.AnalysisReason(knock=A.KnockAdvice(melded=6, outs=3, unseen=25, stock=12, discard="7e", tens=-1,
                                                   fewest=-1, closes=True)),
    "bet": A.AnalysisReason(bet=A.BetAdvice(pot=23, call=17, needed=0.425, chance=0.07, opponents=1,
                                             chance_all=0.07)),
    "bets": A.AnalysisReason(bet=A.BetAdvice(pot=6, call=4, needed=0.4, chance=0.44, opponents=2,
                                              chance_all=0.1936)),
}
SAID = {
    "en": {"envido": ["Your envido was 2", "2%", "Score 10 to 12, playing to 30."],
           "answer": ["Your envido was 33", "Real envido", "30 or more", "90%"],
           "truco": ["Your best card beats 100%", "25%", "Tricks so far: 1 won, 0 lost."],
           "trick": ["On the table in trick 2: 5♦, 3♠; their 3♠ holds it.",
                     "The 7♣ leaves the trick to the other side.",
                     "The best choice: with the 3♥ the trick stands tied.",
                     "A tie of this trick gives your side the hand.", "Taking this trick takes the hand."],
           "sure": ["The A♦ takes the trick as it stands.",
                    "The best choice: the 4♣ takes the trick whatever the other side still plays."],
           "draw": ["Taking the K♥ left 2 cards outside melds (now 3)", "10 of the 93 unseen cards"],
           "out": ["Taking the 6♥ let you go out with all ten cards melded"],
           "discard": ["Throwing the K♣ kept 3 cards outside melds, with 8 live cards to help",
                       "throwing the 2♠ kept 3 cards outside melds, with 14 live cards (of"],
           "single": ["Throwing the K♣ kept 1 card outside melds, with 1 live card to help",
                      "throwing the 2♠ kept 1 card outside melds, with 0 live cards (of 30 unseen)."],
           "knock": ["melded 9 of your cards", "throwing the 2♠, 4 of the 93 unseen", "40 left in the stock"],
           "ten": ["88 of the 88 unseen cards would take you out", "6 of them would meld all ten",
                   "a knock of ten takes 2 points from every other player, one of nine 1",
                   "The fewest points another player holds: 2."],
           "seven": ["Taking the 5● let you close with all seven cards melded, for -10.", "9 of the 28 unseen cards"],
           "close": ["Closing then melded 6 of the seven cards kept.",
                     "throwing the 7⚔, 3 of the 25 unseen cards would meld all seven, a close for -10",
                     "12 left in the stock"],
           "bet": ["The pot held 23 chips and staying in cost 17", "42%", "yours wins 7% of the time",
                   "That is less than the pot odds ask for."],
           "bets": ["yours wins 44% of the time", "Against both other players still in, about 19%.",
                    "That is less than the pot odds ask for."]},
    "pt_BR": {"envido": ["Seu envido era 2", "2%", "Placar 10 a 12"],
              "answer": ["Seu envido era 33", "Real envido", "30 ou mais", "90%"],
              "truco": ["Sua melhor carta ganha de 100%", "25%", "1 ganhas, 0 perdidas"],
              "trick": ["Na mesa, na vaza 2: 5♦, 3♠; o 3♠ deles leva.", "O 7♣ deixa a vaza para o outro lado.",
                        "A melhor escolha: com o 3♥ a vaza fica empatada.",
                        "Um empate nesta vaza dá a mão ao seu lado."],
              "sure": ["O A♦ leva a vaza como está.",
                       "A melhor escolha: o 4♣ leva a vaza, jogue o outro lado o que jogar."],
              "draw": ["Pegar o K♥ deixava 2 cartas fora dos jogos (agora 3)", "10 das 93 cartas não vistas"],
              "out": ["Pegar o 6♥ deixava você bater com as dez cartas"],
              "discard": ["Descartar o K♣ deixava 3 cartas fora dos jogos, com 8 cartas vivas para ajudar",
                          "descartar o 2♠ deixava 3 cartas fora dos jogos, com 14 cartas vivas (de"],
              "single": ["Descartar o K♣ deixava 1 carta fora dos jogos, com 1 carta viva para ajudar",
                         "descartar o 2♠ deixava 1 carta fora dos jogos, com 0 carta viva (de 30 não vistas)."],
              "knock": ["baixava 9 das suas cartas", "descartando o 2♠, 4 das 93 cartas não vistas", "com 40 no monte"],
              "ten": ["6 delas baixariam as dez", "bater com dez tira 2 pontos",
                      "O outro jogador com menos pontos tem 2."],
              "seven": ["Pegar o 5● deixava você fechar com as sete cartas em jogos, por -10."],
              "close": ["Fechar ali baixava 6 das sete cartas que ficavam.",
                        "descartando o 7⚔, 3 das 25 cartas não vistas baixariam as sete, um fechamento por -10",
                        "com 12 no monte"],
              "bet": ["O pote tinha 23 fichas e continuar custava 17", "42%", "a sua ganha 7% das vezes"],
              "bets": ["cerca de 19%", "Isso é menos do que as odds do pote pedem."]},
    "es": {"envido": ["Tu envido era 2", "2%", "Tanteador 10 a 12"],
           "answer": ["Tu envido era 33", "Real envido", "30 o más", "90%"],
           "truco": ["Tu mejor carta le gana al 100%", "25%", "1 ganadas, 0 perdidas"],
           "trick": ["En la mesa, en la baza 2: 5♦, 3♠; el 3♠ de ellos la gana.", "El 7♣ le deja la baza al otro lado.",
                     "La mejor opción: con el 3♥ la baza queda empardada.",
                     "Una parda en esta baza le da la mano a tu lado."],
           "sure": ["El A♦ gana la baza tal como está.",
                    "La mejor opción: el 4♣ gana la baza, juegue lo que juegue el otro lado."],
           "draw": ["Tomar el K♥ dejaba 2 cartas fuera de los juegos (ahora 3)", "10 de las 93 cartas no vistas"],
           "out": ["Tomar el 6♥ te dejaba cortar con las diez cartas"],
           "discard": ["Tirar el K♣ dejaba 3 cartas fuera de los juegos, con 8 cartas vivas para ayudar",
                       "tirar el 2♠ dejaba 3 cartas fuera de los juegos, con 14 cartas vivas (de"],
           "single": ["Tirar el K♣ dejaba 1 carta fuera de los juegos, con 1 carta viva para ayudar",
                      "tirar el 2♠ dejaba 1 carta fuera de los juegos, con 0 cartas vivas (de 30 no vistas)."],
           "knock": ["ligaba 9 de tus cartas", "tirando el 2♠, 4 de las 93 cartas no vistas", "con 40 en el mazo"],
           "ten": ["6 de ellas ligarían las diez", "cortar con diez le quita 2 puntos",
                   "El otro jugador con menos puntos tiene 2."],
           "seven": ["Tomar el 5● te dejaba cortar con las siete cartas ligadas, por -10."],
           "close": ["Cortar ahí ligaba 6 de las siete cartas que quedaban.",
                     "tirando el 7⚔, 3 de las 25 cartas no vistas ligarían las siete, un corte por -10",
                     "con 12 en el mazo"],
           "bet": ["El pozo tenía 23 fichas y seguir costaba 17", "42%", "la tuya gana el 7% de las veces"],
           "bets": ["cerca del 19%", "Eso es menos de lo que piden las odds del pozo."]},
}


@pytest.mark.parametrize("lang", ["en", "pt_BR", "es"])
def test_every_kind_of_reason_is_said_with_its_numbers_in_every_language(lang: str) -> None:
    game = {"envido": "truco_argentino", "answer": "truco_argentino", "truco": "truco_argentino",
            "trick": "truco_paulista", "sure": "truco_paulista", "bet": "cacho", "bets": "cacho", "ten": "cacheta",
            "seven": "chinchon", "close": "chinchon"}
    with speaking(lang):
        for kind, reason in REASONS.items():
            model = TableModel(common_pb2.TableSummary(game=game.get(kind, "pifpaf")), 0)
            card = {"trick": "7C", "sure": "AD"}.get(kind)
            chosen = common_pb2.Action(type=common_pb2.ACTION_TYPE_PLAY, cards=[card]) if card else None
            text = advice.reason_text(model, reason, chosen=chosen)
            assert text is not None, kind
            for part in SAID[lang][kind]:
                assert part in text.plain, (kind, part, text.plain)
        assert advice.reason_text(TableModel(common_pb2.TableSummary(game="cacho"), 0), A.AnalysisReason()) is None


SCALE = A.PointsScale(stake=125.0, inaccuracy=5.0, mistake=10.0, blunder=15.0)


@pytest.mark.parametrize(("lang", "points", "chips", "accuracy", "lost"), [
    ("en", "9.4 points", "0.23 chips", "Accuracy (0 to 100) measures", ("(9.4 points lost)", "(32 points lost)")),
    ("pt_BR", "9.4 pontos", "0.23 fichas", "Precisão (0 a 100) mede",
     ("(9.4 pontos perdidos)", "(32 pontos perdidos)")),
    ("es", "9.4 puntos", "0.23 fichas", "Precisión (0 a 100) mide", ("(9.4 puntos perdidos)", "(32 puntos perdidos)"))])
def test_a_loss_is_in_one_scale_of_points_and_a_value_in_its_games_unit(lang: str, points: str, chips: str,
                                                                        accuracy: str, lost: tuple[str, str]) -> None:
    """Points mean one thing everywhere: a loss on the labels' scale (the server's, said with its lines), in every
    game; a choice's value is the chance to win the match, or chips, and is never called points."""
    with speaking(lang):
        assert advice.amount(9.4) == points
        assert advice.value(-0.23, A.ANALYSIS_UNIT_CHIPS) == "-" + chips
        assert advice.value(0.547, A.ANALYSIS_UNIT_MATCH) == "54.7%"
        assert advice.lost(9.4) == lost[0]
        assert advice.lost(32.4) == lost[1]
        assert advice.accuracy_line().startswith(accuracy)
        for unit in (A.ANALYSIS_UNIT_MATCH, A.ANALYSIS_UNIT_CHIPS):
            said = advice.unit_line(unit, SCALE)
            assert all(f" {n}" in said for n in ("125", "5", "10", "15")), said
            assert "1%" not in said
        assert advice.close(3.0, 0.52, 0.55, A.ANALYSIS_UNIT_MATCH) is not None
        assert advice.close(3.0, 0.5501, 0.5502, A.ANALYSIS_UNIT_MATCH) is None  # shown alike: "as good"


@pytest.mark.parametrize("lang", ["en", "pt_BR", "es"])
def test_every_sentence_of_every_reason_starts_with_a_capital(lang: str) -> None:
    """A part said on its own (a card's outcome in the trick) is a sentence of its own: "…32%. The 6♠ leads the
    trick.", never "…32%. the 6♠ leads the trick."."""
    led = A.AnalysisReason(truco=A.TrucoAdvice(first=0.84, second=0.32, trick=1, card="6S",
                                               card_does=A.TRUCO_OUTCOME_LEADS, tie_goes=A.TRUCO_SIDE_NEITHER))
    play = common_pb2.Action(type=common_pb2.ACTION_TYPE_PLAY, cards=["6S"])
    with speaking(lang):
        for kind, reason in {**REASONS, "led": led}.items():
            truco = kind in ("trick", "led")
            model = TableModel(common_pb2.TableSummary(game="truco_paulista" if truco else "cacho"), 0)
            text = advice.reason_text(model, reason, chosen=play if truco else None)
            assert text is not None
            for sentence in re.split(r"(?<=[.!?])\s+", text.plain):
                assert not sentence[:1].islower(), (kind, sentence, text.plain)


AT_ODDS = {"en": ("the odds alone favour staying in", "the odds alone say fold"),
           "pt_BR": ("só pelas odds, valia continuar", "só pelas odds, era sair fora"),
           "es": ("solo por las odds, convenía seguir", "solo por las odds, tocaba retirarse")}


@pytest.mark.parametrize("lang", ["en", "pt_BR", "es"])
def test_a_bet_reason_at_odds_with_its_verdict_says_why(lang: str) -> None:
    """The pot odds count a win against random hands; the verdict plays the hand out. Where they point
    different ways (the odds favour calling, the best is to fold; or the other way round) the reason
    says so in words; where they agree it says nothing more."""
    model = TableModel(common_pb2.TableSummary(game="cacho"), 0)
    fold = common_pb2.Action(type=common_pb2.ACTION_TYPE_FOLD)
    call = common_pb2.Action(type=common_pb2.ACTION_TYPE_CALL, chips=17)
    good = A.AnalysisReason(bet=A.BetAdvice(pot=23, call=17, needed=0.425, chance=0.6, opponents=1))
    poor = A.AnalysisReason(bet=A.BetAdvice(pot=23, call=17, needed=0.425, chance=0.07, opponents=1))
    favour, say_fold = AT_ODDS[lang]
    with speaking(lang):
        def said(reason: A.AnalysisReason, best: common_pb2.Action | None) -> str:
            text = advice.reason_text(model, reason, best)
            assert text is not None
            return text.plain

        assert favour in said(good, fold) and say_fold not in said(good, fold)
        assert say_fold in said(poor, call) and favour not in said(poor, call)
        for reason, best in ((good, call), (poor, fold), (good, None), (poor, None)):
            assert favour not in said(reason, best) and say_fold not in said(reason, best)
