"""Chance and Community Chest: the decks, a card drawn and what it does, and the Get Out of Jail
Free cards players hold.

A :class:`Deck` is drawn from the top and reshuffled when empty, the cards that
players hold left out (``RandomStream.shuffle`` permutes the others, in printed
order). In movement-only mode and under ``rules.card_draw="replacement"`` a card
is drawn with replacement instead: uniformly over the deck's cards that no player
holds (``RandomStream.draw``). A card acts as printed (2008+ US cards):
``advance_to`` (passing Go pays), ``advance_nearest`` (railroad: double rent,
utility: ten times a fresh roll, see :func:`engine.rules.squares.rent`), ``move``
(back three: no salary), ``go_to_jail``, ``jail_free`` (kept until used, traded
or returned at bankruptcy), ``repairs`` (per house, per hotel), ``cash`` (from or
to the bank) and ``each_player`` (to or from every other active player).

Cards held in a loaded state come from the decks in order: Chance's jail
card(s) first, then Community Chest's (:func:`assign_held_cards`).

The functions take the game as their first argument and are bound as the
methods of :class:`engine.rules.game.Game` named in their docstrings
(:mod:`engine.rules.game` says why functions rather than mixin classes).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.rules.actions import EventKind
from engine.rules.streams import RandomStream
from models.board import Card
from models.errors import InvalidStateError

if TYPE_CHECKING:
    from engine.rules.game import Game


class Deck:
    """A shuffled deck: draw from the top; reshuffle every card not held when empty.

    Parameters
    ----------
    name:
        ``chance`` or ``community_chest`` (the stream's deck name).
    cards:
        The deck's cards in printed order.
    stream:
        The stream that shuffles it.

    Attributes
    ----------
    held:
        Indices of the deck's cards that players hold (Get Out of Jail Free),
        left out of every shuffle.

    Examples
    --------
    >>> from engine.rules.streams import ScriptedStream
    >>> from models.board import standard_board
    >>> deck = Deck("chance", standard_board().chance, ScriptedStream(decks={"chance": [8, *range(8), *range(9, 16)]}))
    >>> deck.draw(), deck.draw()
    (8, 0)
    """

    def __init__(self, name: str, cards: Sequence[Card], stream: RandomStream) -> None:
        self.name = name
        self.cards = cards
        self.stream = stream
        self.held: set[int] = set()
        self._pile: list[int] = []  # reversed: the next card is at the end

    def draw(self) -> int:
        """The next card's index in printed order (a fresh shuffle when the pile is empty).

        Returns
        -------
        int
            The card's index in :attr:`cards`.
        """
        if not self._pile:
            available = [i for i in range(len(self.cards)) if i not in self.held]
            order = self.stream.shuffle(self.name, len(available))
            self._pile = [available[k] for k in reversed(order)]
        return self._pile.pop()


def draw_card(game: Game, p: int, deck_name: str, dice_total: int) -> None:
    """``p`` draws a card from ``deck_name`` and the card acts (``Game._draw_card``).

    Parameters
    ----------
    game:
        The game.
    p:
        The player on the Chance or Community Chest square.
    deck_name:
        ``chance`` or ``community_chest``.
    dice_total:
        The total of the roll that brought it (a utility's rent after a move).
    """
    s = game.state
    cards = s.board.deck(deck_name)
    deck = game.decks[deck_name]
    if game.movement_only or s.rules.card_draw == "replacement":
        free = [i for i in range(len(cards)) if i not in deck.held]
        idx = free[game.stream.draw(deck_name, len(free))]
    else:
        idx = deck.draw()
    card = cards[idx]
    game._emit(EventKind.CARD, p, deck=deck_name, card=idx, text=card.text)
    pl = s.players[p]
    n = s.board.size
    action = card.action
    if action == "advance_to":
        assert card.square is not None
        game._move(p, (card.square - pl.position) % n or n, "card")
        game._land(p, dice_total, card)
    elif action == "advance_nearest":
        steps = next(k for k in range(1, n + 1) if s.board.squares[(pl.position + k) % n].kind == card.group)
        game._move(p, steps, "card")
        game._land(p, dice_total, card)
    elif action == "move":
        game._move(p, card.steps, "card")
        game._land(p, dice_total, card)
    elif action == "go_to_jail":
        game._send_to_jail(p, "card")
    elif action == "jail_free":
        if not game.movement_only:
            deck.held.add(idx)
            game.held_cards[p].append((deck_name, idx))
            pl.jail_cards += 1
    elif action == "repairs":
        houses, hotels = s.building_counts(p)
        game._pay(p, houses * card.house + hotels * card.hotel, None, "repairs")
    elif action == "cash":
        if card.amount >= 0:
            game._cash(None, p, card.amount, "card")
        else:
            game._pay(p, -card.amount, None, "card")
    elif action == "each_player":
        others = [q for q in s.active_players() if q != p]
        if card.amount < 0:
            game._pay_each(p, others, -card.amount, "card")
        else:
            for q in others:
                if game.over or s.players[p].bankrupt:
                    break
                if not s.players[q].bankrupt:
                    game._pay(q, card.amount, p, "card")


def assign_held_cards(game: Game) -> None:
    """Take the Get Out of Jail Free cards of a loaded state from the decks (``Game._assign_held_cards``):
    Chance's jail card(s) first, then Community Chest's, seat by seat.

    Parameters
    ----------
    game:
        The game being set up (its decks and ``held_cards`` empty).

    Raises
    ------
    InvalidStateError
        The players hold more cards than the decks contain.
    """
    pool = [
        (name, i)
        for name in ("chance", "community_chest")
        for i, card in enumerate(game.state.board.deck(name))
        if card.action == "jail_free"
    ]
    for p, pl in enumerate(game.state.players):
        for _ in range(pl.jail_cards):
            if not pool:
                raise InvalidStateError("", "more Get Out of Jail Free cards held than the decks contain")
            deck, idx = pool.pop(0)
            game.decks[deck].held.add(idx)
            game.held_cards[p].append((deck, idx))
