"""Money: payments, raising cash, liquidation and bankruptcy, as the "Money" and "Bankruptcy"
sections of :mod:`engine.rules.game` state them.

Every transfer goes through :func:`cash` (one ``cash`` event each, so an
observer accounts for every dollar; a finite bank pays what it holds; a
payment to the bank may feed the Free Parking pot). Every debt goes through
:func:`pay` (or :func:`pay_each`, the "pay each player" card): a player short of
cash is asked to raise it (:func:`raise_cash`: sell, mortgage, trade); if it
stops while its liquidation value would cover the debt, the engine liquidates
in a fixed order (:func:`liquidate`); otherwise the player is bankrupt
(:func:`bankrupt`). Cash never goes negative. A creditor that receives a
mortgaged lot pays the interest at once and may lift it
(:func:`receive_mortgaged`); in a group where it has buildings (a ``set_size``
novelty) it must lift it, so that every state stays a valid state.

The functions take the game as their first argument and are bound as the
methods of :class:`engine.rules.game.Game` named in their docstrings
(:mod:`engine.rules.game` says why functions rather than mixin classes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.rules import legal
from engine.rules.actions import (
    Build,
    EndReason,
    EventKind,
    Mortgage,
    ProposeTrade,
    SellBuilding,
    Unmortgage,
)
from engine.rules.phases import MAX_ACTIONS_PER_PHASE, MAX_TRADES_PER_PHASE, Phase, carry_out
from models.errors import IllegalActionError
from models.state import BANK

if TYPE_CHECKING:
    from engine.rules.game import Game

POT_REASONS = frozenset({"jail fine", "jail fine (third failed roll)", "card", "repairs"})
"""``why`` of the bank payments (besides taxes, see :func:`engine.rules.squares.land`) that feed the
Free Parking pot under ``rules.free_parking="bank"``."""


def cash(game: Game, frm: int | None, to: int | None, amount: int, why: str, *, pot: bool = False) -> None:
    """Move ``amount`` dollars and report it (``Game._cash``); nothing in movement-only mode.

    Parameters
    ----------
    game:
        The game.
    frm, to:
        Payer and payee: a player, or ``None`` for the bank. A finite bank
        (``GameState.bank_cash``) pays what it holds (nothing: no event) and
        keeps what it is paid.
    amount:
        Dollars (0: nothing happens).
    why:
        The ``cash`` event's ``why``.
    pot:
        A payment to the bank goes to the Free Parking pot instead.
    """
    if amount == 0 or game.movement_only:
        return
    s = game.state
    players = s.players
    if frm is None and s.bank_cash is not None:
        amount = min(amount, s.bank_cash)
        if amount == 0:
            return
        s.bank_cash -= amount
    if frm is not None:
        players[frm].cash -= amount
    if to is not None:
        players[to].cash += amount
    elif pot:
        s.pot += amount
    elif s.bank_cash is not None:
        s.bank_cash += amount
    game._emit(EventKind.CASH, frm if frm is not None else to, frm=frm, to=to, amount=amount, why=why)


def pay(game: Game, p: int, amount: int, creditor: int | None, why: str, *, pot: bool = False) -> bool:
    """``p`` pays ``amount`` to ``creditor``, raising cash or going bankrupt if it must (``Game._pay``).

    Parameters
    ----------
    game:
        The game.
    p:
        The debtor.
    amount:
        The debt (0 or less: nothing to pay).
    creditor:
        A player, or ``None``: the bank; with ``pot``, or for one of
        :data:`POT_REASONS` under ``free_parking="bank"``, the Free Parking pot.
    why:
        The ``cash`` event's ``why``.
    pot:
        The payment feeds the pot (a tax under a pot rule).

    Returns
    -------
    bool
        Whether it paid (``False``: ``p`` went bankrupt).
    """
    if amount <= 0 or game.movement_only:
        return True
    pl = game.state.players[p]
    if pl.cash < amount:
        game._raise_cash(p, amount)
    if pl.cash >= amount:
        to_pot = creditor is None and (pot or (why in POT_REASONS and game.state.rules.free_parking == "bank"))
        game._cash(p, creditor, amount, why, pot=to_pot)
        return True
    game._bankrupt(p, [(creditor, amount)])
    return False


def pay_each(game: Game, p: int, creditors: list[int], each: int, why: str) -> bool:
    """``p`` pays ``each`` to every one of ``creditors``, as one debt of their sum (``Game._pay_each``).

    Parameters
    ----------
    game:
        The game.
    p:
        The debtor.
    creditors:
        The players paid.
    each:
        Dollars to each.
    why:
        The ``cash`` events' ``why``.

    Returns
    -------
    bool
        Whether it paid (``False``: ``p`` went bankrupt to them all).
    """
    if not creditors or each <= 0 or game.movement_only:
        return True
    total = each * len(creditors)
    pl = game.state.players[p]
    if pl.cash < total:
        game._raise_cash(p, total)
    if pl.cash >= total:
        for c in creditors:
            game._cash(p, c, each, why)
        return True
    game._bankrupt(p, [(c, each) for c in creditors])
    return False


def raise_cash(game: Game, p: int, owed: int) -> None:
    """``p``'s ``raise_cash`` phase: asked for one action at a time while short of ``owed``, up to the
    phase budget; then, if its liquidation value covers ``owed``, :func:`liquidate` (``Game._raise_cash``).

    Parameters
    ----------
    game:
        The game.
    p:
        The debtor.
    owed:
        The whole payment (not the shortfall).

    Raises
    ------
    IllegalActionError
        The agent answered ``Build`` or ``Unmortgage``, or an illegal action.
    """
    s = game.state
    pl = s.players[p]
    phase = Phase()
    while pl.cash < owed and phase.actions < MAX_ACTIONS_PER_PHASE:
        game.views[p].set_budget(MAX_ACTIONS_PER_PHASE - phase.actions, MAX_TRADES_PER_PHASE - phase.trades)
        action = game.agents[p].raise_cash(game.views[p], owed)
        game.views[p].set_budget(None, None)
        if action is None:
            break
        if isinstance(action, (Build, Unmortgage)):
            raise IllegalActionError("a player in debt may only sell, mortgage or trade")
        phase.actions += 1
        if isinstance(action, ProposeTrade):
            phase.trades += 1
            if phase.trades > MAX_TRADES_PER_PHASE:
                break
        carry_out(game, p, action)
    if pl.cash < owed <= s.liquidation_value(p):
        game.liquidate(p, owed)


def liquidate(game: Game, p: int, owed: int) -> None:
    """Raise cash in a fixed order until ``owed`` is covered or nothing is left (``Game.liquidate``).

    First mortgage, cheapest mortgage value first, properties outside a
    monopoly, then monopoly lots without buildings; then sell buildings one
    at a time, from the cheapest building type, evenly.

    Parameters
    ----------
    game:
        The game.
    p:
        The player who raises the cash.
    owed:
        The cash ``p`` should hold at the end.

    Examples
    --------
    >>> from engine.rules.agents import BaseAgent
    >>> from engine.rules.game import Game
    >>> from engine.rules.streams import ScriptedStream
    >>> from models.state import GameState
    >>> state = GameState.new_game(["A", "B"], cash=10)
    >>> for sq in (1, 3, 5):  # Mediterranean and Baltic (a monopoly), Reading Railroad
    ...     state.owner[sq] = 0
    >>> game = Game(state, [BaseAgent(), BaseAgent()], ScriptedStream())
    >>> game.liquidate(0, 120)  # the railroad first (outside a monopoly), then Mediterranean
    >>> [sq for sq in (1, 3, 5) if state.mortgaged[sq]], state.players[0].cash
    ([1, 5], 140)
    """
    s = game.state
    while s.players[p].cash < owed:
        mortgages = legal.legal_mortgages(s, p)
        if mortgages:
            sq = min(mortgages, key=lambda q: (s.has_monopoly(p, s.group_of(q)), s.mortgage_value(q), q))
            game._apply(p, Mortgage(sq))
            continue
        sales = legal.legal_building_sales(s, p)
        if not sales:
            return
        sq = min(sales, key=lambda q: (s.board.squares[q].house_cost, -s.houses[q], q))
        game._apply(p, SellBuilding(sq))


def bankrupt(game: Game, p: int, debts: list[tuple[int | None, int]]) -> None:
    """``p`` cannot pay ``debts``: it goes bankrupt (``Game._bankrupt``).

    Its buildings are sold to the bank at half price first. To a single
    player creditor: cash, properties and Get Out of Jail Free cards pass to
    it, and it settles each mortgaged lot received (:func:`receive_mortgaged`).
    To the bank, or to several players: the cash is shared in proportion to
    the debts (the rounding remainder to the first), the properties return to
    the bank unmortgaged and are auctioned (with ``rules.auctions``), the cards
    return to their decks. The game ends when one player is left.

    Parameters
    ----------
    game:
        The game.
    p:
        The bankrupt.
    debts:
        ``(creditor, amount)`` pairs, the creditor ``None`` for the bank.
    """
    s = game.state
    pl = s.players[p]
    # Buildings go back to the bank at half price first.
    for sq in s.properties_of(p):
        level = s.houses[sq]
        if level:
            s.houses[sq] = 0
            game._cash(None, p, level * s.rules.sell_value(s.board.squares[sq].house_cost), "bankruptcy sale")
    props = s.properties_of(p)
    single = len(debts) == 1 and debts[0][0] is not None
    if single:
        c = debts[0][0]
        assert c is not None
        game._cash(p, c, pl.cash, "bankruptcy")
        for sq in props:
            s.owner[sq] = c
        game._acquired(c, props)
        game.held_cards[c].extend(game.held_cards[p])
        s.players[c].jail_cards += pl.jail_cards
    else:
        total = sum(a for _, a in debts)
        left = pl.cash
        shares = [(c, left * a // total) for c, a in debts]
        shares[0] = (shares[0][0], shares[0][1] + left - sum(v for _, v in shares))
        for c, v in shares:
            game._cash(p, c, v, "bankruptcy")
        for sq in props:
            s.owner[sq] = BANK
            s.mortgaged[sq] = False
        for deck, idx in game.held_cards[p]:
            game.decks[deck].held.discard(idx)
    game.held_cards[p] = []
    pl.jail_cards = 0
    pl.bankrupt = True
    pl.in_jail = False
    pl.jail_turns = 0
    game.bankrupt_order.append(pl.name)
    creditor = debts[0][0] if single else None
    game._emit(EventKind.BANKRUPT, p, creditor=creditor, properties=tuple(props))
    if len(s.active_players()) <= 1:
        if single:
            assert creditor is not None
            game._settle_forced_lifts(creditor, props)
        game._end(EndReason.BANKRUPTCY)
        return
    if single:
        assert creditor is not None
        for sq in props:
            if s.mortgaged[sq] and not game._receive_mortgaged(creditor, sq):
                return
    elif s.rules.auctions:
        nxt = game._turn_order((p + 1) % len(s.players))
        for sq in props:
            if game.over:
                return
            game.auction(sq, nxt[0])


def settle_forced_lifts(game: Game, c: int, props: list[int]) -> None:
    """The bankruptcy that ends the game (``Game._settle_forced_lifts``): ``c``, the winner, still lifts
    every mortgaged lot it received in a group where it has buildings (no interest: the game is
    over), when its liquidation value covers it, so that the final state is a valid state.

    Parameters
    ----------
    game:
        The game.
    c:
        The creditor, the last player left.
    props:
        The lots it received.
    """
    s = game.state
    for sq in props:
        if not s.mortgaged[sq] or s.owner[sq] != c:
            continue
        if not any(s.owner[o] == c and s.houses[o] for o in s.board.groups[s.group_of(sq)]):
            continue
        value = s.mortgage_value(sq)
        if s.liquidation_value(c) >= value and game._pay(c, value, None, "mortgage lifted (buildings in the group)"):
            s.mortgaged[sq] = False
            game._emit(EventKind.UNMORTGAGE, c, square=sq)


def receive_mortgaged(game: Game, c: int, sq: int) -> bool:
    """``c`` received mortgaged ``sq`` from a bankrupt: pay the interest now, lift if it wishes
    (``Game._receive_mortgaged``).

    If ``c`` has buildings in ``sq``'s group (possible only when
    ``rules.set_size`` lets it build on part of a group), it must lift the
    mortgage at once, raising the money like any debt (selling those
    buildings if need be): a group with buildings never holds a mortgaged
    lot of the same owner, so every state stays valid.

    Parameters
    ----------
    game:
        The game.
    c:
        The creditor.
    sq:
        The mortgaged lot received.

    Returns
    -------
    bool
        ``False`` if ``c`` went bankrupt paying.
    """
    s = game.state
    value = s.mortgage_value(sq)
    lift = game.agents[c].lift_on_receipt(game.views[c], sq)
    if not game._pay(c, s.rules.interest(value), None, "interest on a mortgaged property received"):
        return False
    group = s.group_of(sq)
    forced = any(s.owner[o] == c and s.houses[o] for o in s.board.groups[group])
    if forced and s.owner[sq] == c and s.mortgaged[sq]:
        if not game._pay(c, value, None, "mortgage lifted (buildings in the group)"):
            return False
        s.mortgaged[sq] = False
        game._emit(EventKind.UNMORTGAGE, c, square=sq)
    elif lift and s.players[c].cash >= value and s.owner[sq] == c:
        game._cash(c, None, value, "mortgage lifted")
        s.mortgaged[sq] = False
        game._emit(EventKind.UNMORTGAGE, c, square=sq)
    return True
