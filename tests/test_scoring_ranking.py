"""The ranking every game's scoring shares: totals, shared ranks and the notes on ties."""

from __future__ import annotations

from ludoteca.companion.engine.scoring.ranking import rank_players

LABELS = {"points": {"es": "Puntos", "en": "Points"}}


def test_two_ties_are_explained_from_the_top_down():
    # Totals 5, 10, 5, 10: Luis and Pablo share 1st, Ana and Eva share 3rd (two players above them).
    result = rank_players(["Ana", "Luis", "Eva", "Pablo"],
                          [{"points": 5}, {"points": 10}, {"points": 5}, {"points": 10}], "test", LABELS)
    assert [(p.name, p.total, p.rank) for p in result.players] == [
        ("Ana", 5, 3), ("Luis", 10, 1), ("Eva", 5, 3), ("Pablo", 10, 1)]
    assert result.winners == ("Luis", "Pablo")
    assert [n["en"] for n in result.notes] == ["Tie at 10 between Luis, Pablo: they share the rank",
                                               "Tie at 5 between Ana, Eva: they share the rank"]
    assert result.notes[0]["es"] == "Empate a 10 entre Luis, Pablo: comparten puesto"
