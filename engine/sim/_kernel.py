"""The numba-compiled game loop of the batch kernel (see :mod:`engine.sim.rollout`).

Each function here is a line-for-line transcription of the matching method of
:class:`engine.rules.game.Game` for the fixed policy of
:mod:`engine.sim.rollout_policy`; the differential test holds the two to the
same game, turn by turn. Tables come from :mod:`engine.sim.rollout_tables`.

Arguments are bundled in two tuples so that signatures stay short:

``B`` (constant): ``(SQ, GL, GI, RR, UM, CD, NC, R, CDF, POL, VT)``
``X`` (one game's mutable state): ``(PL, OWN, HOU, MOR, M, PILE, HELD, STACK, SCR)``

and passed as pointers to them, ``Bp`` and ``Xp`` (see below).

Every function is compiled without numba's reference counting
(``_nrt=False``): no function allocates, scratch space comes in ``SCR``
(rows named ``S_*``), and arrays in tuples are passed without atomic
reference-count updates, which made the loop about ten times faster.

**The tuples travel by pointer.** numba passes a tuple argument by value,
every array's descriptor flattened into the call (some 157 machine words,
most of them pushed on the stack at every call: a third of the kernel's
time went to those pushes). :func:`run_batch` therefore copies each tuple
once into its own frame (:func:`_pin`) and every other function takes the
two pointers ``Bp, Xp`` and reads the tuples back on entry
(:func:`_unpin`, member by member, so that the arrays a function does not
use are not loaded). The bodies then index ``B`` and ``X`` as before.
Measured on ``bench/rollout.py``'s games: 1.7x the player-turns per
second, the same games. What runs on every turn with a single caller is
still inlined (``jit_inline``): :func:`next_turn` with :func:`check_end`,
and the act phase's :func:`_scan`, :func:`_choose_spare` and
:func:`_trade` and :func:`rent` (about 5% more). A literal argument
(``False``) makes numba compile a separate version of the callee, measured
slower at its callers: hence :func:`pay_bank` and :func:`pay_fee`, two
entry points to one inlined body.

The rules, variants included (:class:`models.rules.Rules`), are columns of
``R`` (``R_*``); the Free Parking pot and the bank's cash are per-game state
(``M[POT]``, ``M[BANK]``), so a batch plays every game from the state's own.
Money from the bank goes through :func:`from_bank` and to it through
:func:`to_bank` (:meth:`Game._cash`); payments that feed the pot say so to
:func:`pay_bank`.

The column constants below name every column.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import config, njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from engine.sim import _nowrap

# Signed indices compile without numba's negative-index wraparound: the kernel never
# indexes with a negative number (engine.sim._nowrap; bench/kernel_boundscheck.py checks it).
_nowrap.register(__name__)
# Compiled to the on-disk cache, without reference counting (see above).
_OPTIONS: dict[str, Any] = {"cache": True, "_nrt": False}
jit: Any = njit(**_OPTIONS)
jit_inline: Any = njit(inline="always", **_OPTIONS)
jit_nogil: Any = njit(nogil=True, **_OPTIONS)  # the entry point: threads run batches side by side

@intrinsic
def _pin(typingctx, tup):
    """A pointer to a copy of the tuple ``tup`` (array descriptors, not the arrays' data)
    in the calling function's frame.

    The copy is made once per call of the caller (an ``alloca`` in its entry
    block) and lives until that call returns: the pointer may go down to
    callees, never out. Writes through the arrays of :func:`_unpin`'s tuple
    reach the same data as writes through ``tup``'s."""
    sig = types.CPointer(tup)(tup)

    def codegen(context, builder, signature, args):
        data = context.data_model_manager[tup].as_data(builder, args[0])
        ptr = cgutils.alloca_once(builder, data.type)
        builder.store(data, ptr)
        return ptr

    return sig, codegen


@intrinsic
def _unpin(typingctx, ptr):
    """The tuple behind a pointer of :func:`_pin`, read member by member (an unused
    member's load is dead code, which LLVM removes)."""
    tup = ptr.dtype
    sig = tup(ptr)

    def codegen(context, builder, signature, args):
        out = cgutils.get_null_value(context.get_value_type(tup))
        for i, ty in enumerate(tup.types):
            v = builder.load(cgutils.gep_inbounds(builder, args[0], 0, i))
            out = builder.insert_value(out, context.data_model_manager[ty].from_data(builder, v), i)
        return out

    return sig, codegen


@intrinsic
def _low_bit(typingctx, x):
    """The index of the lowest set bit of the positive integer ``x`` (LLVM's ``cttz``)."""
    sig = x(x)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], cgutils.true_bit)

    return sig, codegen


# numba.config sets DISABLE_JIT from the environment at import, so the stubs do not know it; the
# pure-Python functions replace the intrinsics above, whose type is numba's, hence [misc].
if config.DISABLE_JIT:  # type: ignore[attr-defined]  # pure Python (NUMBA_DISABLE_JIT=1): the tuple is its own pointer

    def _pin(tup):  # type: ignore[misc]  # replaces the intrinsic (see above)
        return tup

    def _unpin(ptr):  # type: ignore[misc]  # replaces the intrinsic
        return ptr

    def _low_bit(x):  # type: ignore[misc]  # replaces the intrinsic
        return (int(x) & -int(x)).bit_length() - 1


# --- SQ columns (one row per square) ----------------------------------------
KIND, GROUP, PRICE, HCOST, MVAL, INTEREST, TAX = 0, 1, 2, 3, 4, 5, 6
RENT0 = 7  # 7..12: rents at levels 0..5
SELL, UNMORT = 13, 14
SQ_COLS = 15
# square kinds
K_OTHER, K_STREET, K_RAIL, K_UTIL, K_TAX, K_CHANCE, K_CHEST, K_GOTOJAIL, K_FREEPARK = 0, 1, 2, 3, 4, 5, 6, 7, 8
# --- GI columns (one row per group) ------------------------------------------
G_N, G_NEED, G_STREET, G_PRICE = 0, 1, 2, 3  # G_PRICE: the printed prices of all its lots
GI_COLS = 4
# --- CD columns (card tables [deck, card, col]) -------------------------------
C_ACT, C_SQUARE, C_KIND, C_RMULT, C_DMULT, C_STEPS, C_HOUSE, C_HOTEL, C_AMOUNT = 0, 1, 2, 3, 4, 5, 6, 7, 8
CD_COLS = 9
A_ADVANCE, A_NEAREST, A_MOVE, A_JAIL, A_JAILFREE, A_REPAIRS, A_CASH, A_EACH = 0, 1, 2, 3, 4, 5, 6, 7
# --- R (rules) ---------------------------------------------------------------
R_SALARY, R_FINE, R_HOUSES, R_HOTELS, R_JAILROLLS, R_DBLJAIL, R_JAILSQ, R_SIZE, R_NDICE, R_SIDES, R_LOADED, R_NPL = range(12)
# the variants of models.rules.Rules (0/1 flags unless said)
R_DBLAGAIN = 12  # doubles_again
R_JAILDBL = 13  # jail_doubles
R_JAILFREE = 14  # jail_release == "free"
R_REPLACE = 15  # card_draw == "replacement"
R_POT = 16  # free_parking: POT_OFF, POT_TAXES or POT_BANK
R_SEED = 17  # free_parking_seed (dollars)
R_GOBONUS = 18  # go_landing_bonus
R_AUCTIONS = 19  # auctions
R_AUCONLY = 20  # auction_only
R_EVEN = 21  # even_building
R_TARGET = 22  # cash_target (dollars; 0: none)
R_RLIMIT = 23  # round_limit (rounds; 0: none)
R_LEN = 24
POT_OFF, POT_TAXES, POT_BANK = 0, 1, 2
# --- POL (policy: one row per seat, RolloutPolicy.as_array) ----------------------
P_BUY, P_BUILD, P_UNMORT, P_JAILPAY, P_MAXLVL, P_TRADE, P_MTB, P_PREMIUM, P_WAIT, P_WAITDECL, P_ACCEPT, P_VALUE = range(12)
P_LEN = 12
# --- VT (B[10], engine.sim.rollout_values.value_table; a 1x2x1 placeholder when no seat prices by value) ---
V_LONE, V_MONO = 0, 1
# --- PL columns (one row per player) ---------------------------------------------
CASH, POS, INJ, JT, JC, BK = 0, 1, 2, 3, 4, 5
SKIP_VER, SKIP_NEED, VER = 6, 7, 8  # see VER below
TURN_NO = 9  # the player's turns begun since the simulation started (aligned dice)
MOOD = 10  # bit q set: q accepts this player's trades in this game (P_ACCEPT; run_batch draws it)
PL_COLS = 11
CNT0 = PL_COLS  # PL[p, CNT0 + g]: the lots of group g that p owns (one column per group)
MASK_BITS = 32
HAS, FULL, SHORT, MORT, FREE = 0, 1, 2, 3, 4  # the kinds of group mask
N_MASKS = 5
"""``PL[p, CNT0 + G + k W + w]`` (``G`` groups, ``W = mask_words(G)``): bit ``b``
of word ``w`` of mask kind ``k`` stands for group ``32 w + b``, and is set when
``p`` owns a lot of it (``HAS``), holds it completely (``FULL``, as
:func:`has_mono`) or is one short of it, a street group, by the count alone
(``SHORT``: :func:`_one_short` without the buildings), owns a mortgaged lot
of it (``MORT``) or an unmortgaged one (``FREE``). :func:`set_owner` keeps the
first three with the counts (:func:`_mark`); ``MORT`` and ``FREE`` are kept
wherever a lot changes hands or a mortgage is taken or lifted
(:func:`_mark_mortgaged`). The act phase and :func:`liquidate`
visit only the groups of a mask, lowest bit first (:func:`_low_bit`), in the
order of a loop over all groups. Words of 32 bits keep every mask positive,
also in pure Python."""


def mask_words(n_groups: int) -> int:
    """The words of each group mask for ``n_groups`` groups (``MASK_BITS``)."""
    return (n_groups + MASK_BITS - 1) // MASK_BITS
# --- M (misc) -----------------------------------------------------------------
TO_MOVE, ROUND, PHASE, DBL, OVER, WINNER, TURNS, DICE_CTR, SHUF0, PTR0, LEN0, MAXR, REASON, NBK = (
    0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 15, 16,
)
IN_TURN = 17  # dice thrown so far in the current turn (aligned dice)
HB, TB = 18, 19  # houses and hotels on the board
POT = 20  # the Free Parking pot (GameState.pot)
BANK = 21  # the bank's cash (GameState.bank_cash; -1: the bank never runs out)
DRAW0 = 22  # M[DRAW0 + d]: with-replacement draws from deck d so far (CounterStream.draw)
M_LEN = 24
GB0 = M_LEN  # M[GB0 + g]: the building levels on group g (one slot per group)
"""``PL[p, VER]`` counts the changes that can alter player ``p``'s options in
the act phase. ``p``'s options depend on its own lots (owned, mortgaged,
built), on the bank's supply of houses and hotels, and through trades on the
groups it holds a lot of, and on nothing else of the other players' but
their cash (which only sets the amount of a swap or a purchase). So ``p``'s
version moves when one of its lots changes hands, is mortgaged, lifted or
built on; when any seat goes out of the game (the prices of ``pricing="value"``
count the seats still in: :func:`_mark_bankrupt`); when a lot of a street group it holds a lot of changes hands and
``p`` is one short of the group, or its old or new owner became or stopped
being one short of it (:func:`set_owner`); when a lot of such a group is
lifted and ``p`` is one short of it (:func:`lifted`); when such a group's
buildings change (:func:`set_level`, :func:`touch`); and when the bank's
supply runs out or comes back (:func:`bump_all`). Railroads and utilities
are never traded, so their changes reach only their owners. The phase's
options depend only on those and on ``p``'s cash, each option through a
threshold (its cost plus the policy's reserve), except a value-priced swap that its payer
cannot pay: its price moves with the other side's cash and mortgages, so a phase that
passes one over is never skipped (``need`` 0). A phase that finds nothing
records the version and the lowest threshold it was short of
(``SKIP_NEED``); the phase need not run again until the version changes or
the cash reaches that threshold. Extra bumps only cost time; a missing one
would change the game, which the differential test against
:class:`engine.rules.game.Game` would show."""
REASON_BANKRUPTCY, REASON_CAP, REASON_LIMIT, REASON_TARGET = 0, 1, 2, 3
"""End reasons (``engine.sim.rollout.REASON_CODES``): bankruptcy; the host's round cap (the
horizon); ``rules.round_limit``; ``rules.cash_target``. All but a bankruptcy are won by
the highest net worth."""
# --- SCR rows (scratch) -------------------------------------------------------
S_LOTS, S_OLD, S_NEW, S_HI, S_PROPS_MULTI, S_CREDS, S_AMOUNTS, S_ORDER, S_AVAIL, S_PROPS_SINGLE, S_TARGETS = range(11)
SCR_ROWS = 11
HOTEL = 5
MAX_ACTIONS = 64
# --- trace rows (see run_batch, snapshot and engine.sim.trace.TraceLayout) -------
TRACE_ROLLS = 8
"""Rolls of a turn whose doubles counter a trace records: the first 8 (``rec[0]`` counts
them all). A turn has at most ``doubles_to_jail`` rolls, but any number under
``doubles_to_jail = 0`` with ``doubles_again``; nothing else in the kernel is sized by
the rolls of a turn (its dice are numbered within the turn by ``IN_TURN``, 16 bits as
:func:`engine.rules.streams.dice_counter`)."""
TRACE_STATE = 1 + TRACE_ROLLS  # the state after the turn starts here
TRACE_GAME, TRACE_PLAYER, TRACE_DECK = 10, 7, 3  # fixed columns of each block
NEVER = 1 << 62  # a cash threshold that is never reached
_PLAYER_SHIFT, _TURN_SHIFT = 40, 16  # engine.rules.streams.PLAYER_SHIFT, TURN_SHIFT

_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S11, _S48 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(11), np.uint64(48)
_TWO53 = 1.0 / 9007199254740992.0


@jit_inline
def _mix(z):
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@jit_inline
def uniform(key, stream, counter):
    """:func:`engine.rules.streams.counter_uniform`."""
    inner = _mix((np.uint64(stream) << _S48) | np.uint64(counter))
    return float(_mix(key ^ inner) >> _S11) * _TWO53


# ---------------------------------------------------------------------------
# dice and decks
# ---------------------------------------------------------------------------
@jit_inline
def roll(Bp, Xp, key):
    """Throw the dice: ``(total, doubles)``."""
    B, X = _unpin(Bp), _unpin(Xp)
    R = B[7]
    CDF = B[8]
    M = X[4]
    n = R[R_NDICE]
    total = 0
    first = -1
    same = True
    # Aligned dice (engine.rules.streams.dice_counter): die r of player p's t-th turn.
    PL = X[0]
    mover = M[TO_MOVE]
    base = ((mover + 1) << _PLAYER_SHIFT) | (PL[mover, TURN_NO] << _TURN_SHIFT)
    for _ in range(n):
        u = uniform(key, 0, base | M[IN_TURN])
        M[IN_TURN] += 1
        M[DICE_CTR] += 1
        if R[R_LOADED]:
            face = 1
            for c in CDF:
                if c <= u:
                    face += 1
        else:
            face = 1 + int(u * R[R_SIDES])
        if first < 0:
            first = face
        elif face != first:
            same = False
        total += face
    return total, (n >= 2 and same)


@jit
def draw(Bp, Xp, key, d):
    """Top card of deck ``d`` (0 Chance, 1 Community Chest), reshuffling the cards not held;
    under ``card_draw="replacement"`` a uniform draw over the cards not held
    (:meth:`Game._draw_card`, :meth:`engine.rules.streams.CounterStream.draw`)."""
    B, X = _unpin(Bp), _unpin(Xp)
    NC = B[6]
    M, PILE, HELD = X[4], X[5], X[6]
    if B[7][R_REPLACE]:
        n = 0
        for i in range(NC[d]):
            if HELD[d, i] == 0:
                n += 1
        c = M[DRAW0 + d]
        M[DRAW0 + d] = c + 1
        j = int(uniform(key, 3 + d, c) * n)
        for i in range(NC[d]):
            if HELD[d, i] == 0:
                if j == 0:
                    return i
                j -= 1
        return -1  # not reached: j < n
    if M[PTR0 + d] >= M[LEN0 + d]:
        n = 0
        for i in range(NC[d]):
            if HELD[d, i] == 0:
                PILE[d, n] = i
                n += 1
        k = M[SHUF0 + d]
        M[SHUF0 + d] = k + 1
        # Fisher-Yates on positions 0..n-1, then read through the available list.
        SCR = X[8]
        for i in range(n):
            SCR[S_ORDER, i] = i
            SCR[S_AVAIL, i] = PILE[d, i]
        order = SCR[S_ORDER]
        for i in range(n - 1, 0, -1):
            j = int(uniform(key, 1 + d, (k << 16) | i) * (i + 1))
            t = order[i]
            order[i] = order[j]
            order[j] = t
        for t in range(n):
            PILE[d, t] = SCR[S_AVAIL, order[t]]
        M[LEN0 + d] = n
        M[PTR0 + d] = 0
    c = PILE[d, M[PTR0 + d]]
    M[PTR0 + d] += 1
    return c


# ---------------------------------------------------------------------------
# queries
# ---------------------------------------------------------------------------
@jit_inline
def count_in_group(Bp, Xp, p, g):
    X = _unpin(Xp)
    return X[0][p, CNT0 + g]


@jit_inline
def has_mono(Bp, Xp, p, g):
    B, X = _unpin(Bp), _unpin(Xp)
    if p < 0:
        return False
    return X[0][p, CNT0 + g] >= B[2][g, G_NEED]


@jit_inline
def houses_in_bank(Bp, Xp):
    B, X = _unpin(Bp), _unpin(Xp)
    return B[7][R_HOUSES] - X[4][HB]


@jit_inline
def hotels_in_bank(Bp, Xp):
    B, X = _unpin(Bp), _unpin(Xp)
    return B[7][R_HOTELS] - X[4][TB]


@jit_inline
def from_bank(Xp, amount):
    """What the bank pays of ``amount`` (:meth:`Game._cash` from the bank): all of it, or
    under a finite bank (``BANK`` >= 0) what it holds, which it then holds less."""
    X = _unpin(Xp)
    M = X[4]
    b = M[BANK]
    if b < 0:
        return amount
    amount = min(amount, b)
    M[BANK] = b - amount
    return amount


@jit_inline
def to_bank(Xp, amount):
    """A payment of ``amount`` to the bank (a finite bank holds it)."""
    X = _unpin(Xp)
    M = X[4]
    if M[BANK] >= 0:
        M[BANK] += amount


@jit_inline
def _holdings(Bp, Xp, p, sale):
    """``p``'s cash and lots, found through the groups it owns a lot of (``HAS``): its
    net worth (each lot at its price, a mortgaged one at its mortgage value, buildings
    at cost) or, with ``sale``, its liquidation value (unmortgaged lots at their
    mortgage value, buildings at their sale price)."""
    B, X = _unpin(Bp), _unpin(Xp)
    SQ, GL, GI = B[0], B[1], B[2]
    PL, OWN, HOU, MOR = X[0], X[1], X[2], X[3]
    total = PL[p, CASH]
    has = _mask(GI, HAS)
    for w in range(_words(GI)):
        m = PL[p, has + w]
        while m:
            g = (w << 5) + _low_bit(m)
            m &= m - 1
            for k in range(GI[g, G_N]):
                sq = GL[g, k]
                if OWN[sq] != p:
                    continue
                if sale:
                    total += HOU[sq] * SQ[sq, SELL]
                    if not MOR[sq]:
                        total += SQ[sq, MVAL]
                else:
                    total += SQ[sq, MVAL] if MOR[sq] else SQ[sq, PRICE]
                    total += HOU[sq] * SQ[sq, HCOST]
    return total


@jit
def net_worth(Bp, Xp, p):
    return _holdings(Bp, Xp, p, False)


@jit
def liquidation_value(Bp, Xp, p):
    return _holdings(Bp, Xp, p, True)


@jit_inline
def group_has_buildings(Bp, Xp, g):
    X = _unpin(Xp)
    return X[4][GB0 + g] > 0


@jit_inline
def active_count(Xp):
    X = _unpin(Xp)
    PL = X[0]
    n = 0
    for q in range(PL.shape[0]):
        if PL[q, BK] == 0:
            n += 1
    return n


@jit_inline
def first_active(Xp, start):
    """The first active player in turn order from ``start`` (``start`` itself when active)."""
    X = _unpin(Xp)
    PL = X[0]
    n = PL.shape[0]
    for k in range(n):
        q = start + k  # (start + k) % n, start < n
        if q >= n:
            q -= n
        if PL[q, BK] == 0:
            return q
    return -1


@jit_inline
def bump(Xp, p):
    X = _unpin(Xp)
    X[0][p, VER] += 1


@jit
def touch(Bp, Xp, g):
    """New options for every player holding a lot of group ``g`` (call it after the
    change): its buildings changed (:func:`set_level`), or a lot of it changed hands and
    with it who is one short of the group (:func:`set_owner`). :func:`_touch_short` is the
    narrower bump of the other changes (see ``VER``)."""
    B, X = _unpin(Bp), _unpin(Xp)
    GL, GI = B[1], B[2]
    OWN = X[1]
    for k in range(GI[g, G_N]):
        q = OWN[GL[g, k]]
        if q >= 0:
            bump(Xp, q)


@jit_inline
def bump_all(Xp):
    X = _unpin(Xp)
    PL = X[0]
    for q in range(PL.shape[0]):
        PL[q, VER] += 1


@jit_inline
def supply(Bp, Xp):
    """Whether the bank has a house (2) and a hotel (1)."""
    return 2 * (houses_in_bank(Bp, Xp) >= 1) + (hotels_in_bank(Bp, Xp) >= 1)


@jit
def set_owner(Bp, Xp, sq, q):
    """``sq`` passes to ``q`` (-1: the bank), keeping the counts ``CNT0``.

    New options for the old and the new owner. A bystander holding a lot of the
    group (see ``VER``) gets new options only through trades: a railroad or a
    utility, never traded, gives it none (its own lots and their set status are
    unchanged); a street gives them to a bystander one short of the group (the
    lots for sale in it changed hands) and, when the old or the new owner became
    or stopped being one short of it, to every holder (the swaps offered for a
    lot of the group)."""
    B, X = _unpin(Bp), _unpin(Xp)
    g = B[0][sq, GROUP]
    PL, OWN = X[0], X[1]
    old = OWN[sq]
    street = B[2][g, G_STREET] != 0
    short_old = street and old >= 0 and _one_short(Bp, Xp, old, g)
    short_new = street and q >= 0 and _one_short(Bp, Xp, q, g)
    if old >= 0:
        PL[old, CNT0 + g] -= 1
    OWN[sq] = q
    if q >= 0:
        PL[q, CNT0 + g] += 1
    if old >= 0:
        bump(Xp, old)
    if q >= 0:
        bump(Xp, q)
    if old >= 0:
        _mark(Bp, Xp, old, g)
    if q >= 0:
        _mark(Bp, Xp, q, g)
    if old >= 0:
        _mark_mortgaged(Bp, Xp, old, g)
    if q >= 0:
        _mark_mortgaged(Bp, Xp, q, g)
    if not street:
        return
    if (old >= 0 and _one_short(Bp, Xp, old, g) != short_old) or (q >= 0 and _one_short(Bp, Xp, q, g) != short_new):
        touch(Bp, Xp, g)
    else:
        _touch_short(Bp, Xp, g, old, q)


@jit_inline
def _words(GI):
    """The words of each group mask (:func:`mask_words` inside the kernel)."""
    return (GI.shape[0] + MASK_BITS - 1) // MASK_BITS


@jit_inline
def _mask(GI, kind):
    """The first column of group mask ``kind`` (see ``MASK_BITS``)."""
    return CNT0 + GI.shape[0] + kind * _words(GI)


@jit_inline
def _put_bit(PL, p, col, bit, on):
    """Set (``on``) or clear ``bit`` in ``PL[p, col]``."""
    PL[p, col] = PL[p, col] | bit if on else PL[p, col] & ~bit


@jit_inline
def _mark(Bp, Xp, p, g):
    """Keep ``p``'s bits of group ``g`` in its group masks (``MASK_BITS``) after its count changed."""
    B, X = _unpin(Bp), _unpin(Xp)
    GI = B[2]
    PL = X[0]
    n = PL[p, CNT0 + g]
    w = g >> 5
    bit = 1 << (g & 31)
    col = _mask(GI, HAS) + w
    _put_bit(PL, p, col, bit, n > 0)
    col = _mask(GI, FULL) + w
    _put_bit(PL, p, col, bit, n >= GI[g, G_NEED])
    col = _mask(GI, SHORT) + w
    short = GI[g, G_STREET] != 0 and n >= 1 and n == GI[g, G_NEED] - 1
    _put_bit(PL, p, col, bit, short)


@jit_inline
def _mark_mortgaged(Bp, Xp, p, g):
    """Keep ``p``'s ``MORT`` and ``FREE`` bits of group ``g`` (``MASK_BITS``) after a lot of
    it changed hands or a mortgage of it was taken or lifted."""
    B, X = _unpin(Bp), _unpin(Xp)
    GL, GI = B[1], B[2]
    PL, OWN, MOR = X[0], X[1], X[3]
    mortgaged = False
    free = False
    for k in range(GI[g, G_N]):
        s = GL[g, k]
        if OWN[s] == p:
            if MOR[s]:
                mortgaged = True
            else:
                free = True
    bit = 1 << (g & 31)
    col = _mask(GI, MORT) + (g >> 5)
    _put_bit(PL, p, col, bit, mortgaged)
    col = _mask(GI, FREE) + (g >> 5)
    _put_bit(PL, p, col, bit, free)


@jit_inline
def _touch_short(Bp, Xp, g, a, b):
    """Bump every holder of a lot of street group ``g`` but ``a`` and ``b`` that is one short of it."""
    B, X = _unpin(Bp), _unpin(Xp)
    GL, GI = B[1], B[2]
    OWN = X[1]
    for k in range(GI[g, G_N]):
        r = OWN[GL[g, k]]
        if r >= 0 and r != a and r != b and _one_short(Bp, Xp, r, g):
            bump(Xp, r)


@jit
def lifted(Bp, Xp, sq):
    """``sq``'s mortgage was lifted (call it after): new options for its owner and, on a
    street, for a holder one short of the group (the lot is now for sale); a railroad's or a
    utility's gives no other player an option (they are never traded)."""
    B, X = _unpin(Bp), _unpin(Xp)
    g = B[0][sq, GROUP]
    o = X[1][sq]
    bump(Xp, o)
    _mark_mortgaged(Bp, Xp, o, g)
    if B[2][g, G_STREET] != 0:
        _touch_short(Bp, Xp, g, o, o)


@jit
def set_level(Bp, Xp, sq, level):
    """``sq``'s building level becomes ``level``, keeping the counts ``HB``, ``TB``
    and ``GB0``. New options for the players holding a lot of its group (a
    group with buildings cannot be mortgaged or traded), and for everyone when
    the bank's supply of houses or hotels runs out or comes back: the other
    players' options depend on nothing else of a building change."""
    B, X = _unpin(Bp), _unpin(Xp)
    HOU, M = X[2], X[4]
    before = supply(Bp, Xp)
    old = HOU[sq]
    if old == HOTEL:
        M[TB] -= 1
    else:
        M[HB] -= old
    if level == HOTEL:
        M[TB] += 1
    else:
        M[HB] += level
    g = B[0][sq, GROUP]
    M[GB0 + g] += level - old
    HOU[sq] = level
    touch(Bp, Xp, g)
    if supply(Bp, Xp) != before:
        bump_all(Xp)


# ---------------------------------------------------------------------------
# end of game
# ---------------------------------------------------------------------------
@jit
def end_game(Bp, Xp, reason):
    X = _unpin(Xp)
    PL, M = X[0], X[4]
    winner = -1
    if reason != REASON_BANKRUPTCY:
        best = 0
        for q in range(PL.shape[0]):
            if PL[q, BK] == 0:
                w = net_worth(Bp, Xp, q)
                if winner < 0 or w > best:
                    winner = q
                    best = w
    else:
        if active_count(Xp) == 1:
            for q in range(PL.shape[0]):
                if PL[q, BK] == 0:
                    winner = q
    t = M[TO_MOVE]
    if PL[t, BK] != 0 and active_count(Xp) > 0:
        # As the reference engine: the final state stays valid, the next active player is to move.
        n = PL.shape[0]
        for k in range(1, n + 1):
            q = (t + k) % n
            if PL[q, BK] == 0:
                M[TO_MOVE] = q
                break
        M[PHASE] = 0
        M[DBL] = 0
    M[OVER] = 1
    M[WINNER] = winner
    M[REASON] = reason


# ---------------------------------------------------------------------------
# buildings: selling, evening out, liquidation
# ---------------------------------------------------------------------------
@jit
def _levels_houses(lv, m):
    n = 0
    for i in range(m):
        if lv[i] < HOTEL:
            n += lv[i]
    return n


@jit
def sell_one(Bp, Xp, p, sq):
    """:meth:`Game._sell_one`, with :func:`engine.rules.legal.hotel_break_levels` for a hotel."""
    B, X = _unpin(Bp), _unpin(Xp)
    SQ, GL, GI = B[0], B[1], B[2]
    PL, OWN, HOU = X[0], X[1], X[2]
    if HOU[sq] != HOTEL:
        set_level(Bp, Xp, sq, HOU[sq] - 1)
        PL[p, CASH] += from_bank(Xp, SQ[sq, SELL])
        return
    if B[7][R_EVEN] == 0:
        # engine.rules.legal.hotel_break_levels without the even-building rule: only this lot,
        # to four houses or as many as the bank holds
        new = min(HOTEL - 1, houses_in_bank(Bp, Xp))
        set_level(Bp, Xp, sq, new)
        PL[p, CASH] += from_bank(Xp, (HOTEL - new) * SQ[sq, SELL])
        return
    g = SQ[sq, GROUP]
    SCR = X[8]
    lots, old, new, hi = SCR[S_LOTS], SCR[S_OLD], SCR[S_NEW], SCR[S_HI]
    m = 0
    for k in range(GI[g, G_N]):
        s = GL[g, k]
        if OWN[s] == p:
            lots[m] = s
            old[m] = HOU[s]
            m += 1
    bank = houses_in_bank(Bp, Xp) + _levels_houses(old, m)
    done = False
    for target in range(HOTEL - 1, -1, -1):
        for i in range(m):
            if lots[i] == sq:
                new[i] = target
                hi[i] = target
                continue
            lo_ = min(old[i], target)
            hi_ = min(old[i], target + 1)
            hi[i] = hi_
            # fewest houses: a standing hotel needs none, else the lower level
            new[i] = hi_ if hi_ == HOTEL else lo_
        if _levels_houses(new, m) > bank:
            continue
        for i in range(m):
            if lots[i] != sq and new[i] < hi[i]:
                keep = new[i]
                new[i] = hi[i]
                if _levels_houses(new, m) > bank:
                    new[i] = keep
        done = True
        break
    if not done:
        for i in range(m):
            new[i] = 0
    value = 0
    for i in range(m):
        value += (old[i] - new[i]) * SQ[lots[i], SELL]
        set_level(Bp, Xp, lots[i], new[i])
    PL[p, CASH] += from_bank(Xp, value)


@jit
def even_out(Bp, Xp, p, g):
    """Sell ``p``'s highest lot of group ``g`` until its levels differ by at most one."""
    B, X = _unpin(Bp), _unpin(Xp)
    GL, GI = B[1], B[2]
    OWN, HOU = X[1], X[2]
    while True:
        top = -1
        lo = 99
        hi = -1
        for k in range(GI[g, G_N]):
            s = GL[g, k]
            if OWN[s] == p:
                v = HOU[s]
                lo = min(lo, v)
                if v > hi or (v == hi and s > top):
                    hi = v
                    top = s
        if top < 0 or hi - lo <= 1:
            return
        sell_one(Bp, Xp, p, top)


@jit
def acquired(Bp, Xp, p, squares, m):
    """:meth:`Game._acquired` for ``squares[:m]``: groups in name order (group ids are sorted by name)."""
    B = _unpin(Bp)
    SQ, GI = B[0], B[2]
    for g in range(GI.shape[0]):
        hit = False
        for i in range(m):
            if SQ[squares[i], GROUP] == g:
                hit = True
        if hit:
            even_out(Bp, Xp, p, g)


@jit
def liquidate(Bp, Xp, p, owed):
    """:meth:`Game.liquidate`: mortgages first, then buildings.

    Once a search finds nothing to mortgage, the next one is made only after a
    sale leaves its group without buildings: a sale changes the levels of its
    own group alone, so no other group can have gained a lot to mortgage."""
    B, X = _unpin(Bp), _unpin(Xp)
    SQ, GL, GI = B[0], B[1], B[2]
    PL, OWN, HOU, MOR = X[0], X[1], X[2], X[3]
    W = _words(GI)
    has, free = _mask(GI, HAS), _mask(GI, FREE)
    search = True  # a lot to mortgage may exist
    while PL[p, CASH] < owed:
        # the mortgage of the lowest (in a monopoly, mortgage value, square)
        best = -1
        bm = 0
        bv = 0
        for w in range(W if search else 0):
            m = PL[p, free + w]  # the groups where p has a lot to mortgage
            while m:
                g = (w << 5) + _low_bit(m)
                m &= m - 1
                if group_has_buildings(Bp, Xp, g):
                    continue
                mono = 1 if has_mono(Bp, Xp, p, g) else 0
                for k in range(GI[g, G_N]):
                    sq = GL[g, k]
                    if OWN[sq] != p or MOR[sq]:
                        continue
                    v = SQ[sq, MVAL]
                    if best < 0 or mono < bm or (mono == bm and (v < bv or (v == bv and sq < best))):
                        best = sq
                        bm = mono
                        bv = v
        if best >= 0:
            MOR[best] = 1
            _mark_mortgaged(Bp, Xp, p, SQ[best, GROUP])
            bump(Xp, p)  # a mortgage gives no other player an option (its owner: lifting it)
            PL[p, CASH] += from_bank(Xp, SQ[best, MVAL])
            continue
        search = False
        # legal sales: lots at their group's highest level (over p's lots);
        # the lowest (house cost, -level, square)
        bc = 0
        bl = 0
        for w in range(W):
            m = PL[p, has + w]
            while m:
                g = (w << 5) + _low_bit(m)
                m &= m - 1
                if not group_has_buildings(Bp, Xp, g):
                    continue
                top = 0
                for k in range(GI[g, G_N]):
                    s = GL[g, k]
                    if OWN[s] == p and HOU[s] > top:
                        top = HOU[s]
                if top == 0:
                    continue
                for k in range(GI[g, G_N]):
                    sq = GL[g, k]
                    if OWN[sq] != p or HOU[sq] < top:
                        continue
                    c = SQ[sq, HCOST]
                    if best < 0 or c < bc or (c == bc and (HOU[sq] > bl or (HOU[sq] == bl and sq < best))):
                        best = sq
                        bc = c
                        bl = HOU[sq]
        if best < 0:
            return
        sell_one(Bp, Xp, p, best)
        search = not group_has_buildings(Bp, Xp, SQ[best, GROUP])


@jit
def raise_cash(Bp, Xp, p, owed):
    """The policy raises nothing itself; the engine liquidates when that covers the debt."""
    X = _unpin(Xp)
    if X[0][p, CASH] < owed <= liquidation_value(Bp, Xp, p):
        liquidate(Bp, Xp, p, owed)


# ---------------------------------------------------------------------------
# bankruptcy and payments
# ---------------------------------------------------------------------------
@jit
def _bankrupt_common(Bp, Xp, p, props):
    """Buildings to the bank at half price; ``p``'s properties into ``props``, returns their count."""
    B, X = _unpin(Bp), _unpin(Xp)
    SQ = B[0]
    PL, OWN, HOU = X[0], X[1], X[2]
    n = OWN.shape[0]
    m = 0
    for sq in range(n):
        if OWN[sq] == p:
            if HOU[sq]:
                PL[p, CASH] += from_bank(Xp, HOU[sq] * SQ[sq, SELL])
                set_level(Bp, Xp, sq, 0)
            props[m] = sq
            m += 1
    return m


@jit
def _mark_bankrupt(Xp, p):
    X = _unpin(Xp)
    PL, M = X[0], X[4]
    PL[p, JC] = 0
    PL[p, BK] = 1
    PL[p, INJ] = 0
    PL[p, JT] = 0
    M[NBK] += 1
    bump_all(Xp)  # the value prices count the seats still in (VER)


@jit
def bankrupt_multi(Bp, Xp, key, p, nc):
    """Bankrupt to the bank or to several players (``nc`` creditors in the
    scratch rows ``S_CREDS``/``S_AMOUNTS``, -1 = the bank): shared cash,
    properties auctioned."""
    B, X = _unpin(Bp), _unpin(Xp)
    PL, MOR, HELD, STACK = X[0], X[3], X[6], X[7]
    SCR = X[8]
    creds, amounts, props = SCR[S_CREDS], SCR[S_AMOUNTS], SCR[S_PROPS_MULTI]
    npr = _bankrupt_common(Bp, Xp, p, props)
    total = 0
    for i in range(nc):
        total += amounts[i]
    cash = PL[p, CASH]
    paid = 0
    for i in range(nc):
        v = cash * amounts[i] // total
        if i == 0:
            continue
        paid += v
        PL[p, CASH] -= v
        if creds[i] >= 0:
            PL[creds[i], CASH] += v
        else:
            to_bank(Xp, v)
    v0 = cash - paid
    PL[p, CASH] -= v0
    if creds[0] >= 0:
        PL[creds[0], CASH] += v0
    else:
        to_bank(Xp, v0)
    for i in range(npr):
        MOR[props[i]] = 0
        _mark_mortgaged(Bp, Xp, p, B[0][props[i], GROUP])
        set_owner(Bp, Xp, props[i], -1)
    for k in range(PL[p, JC]):
        HELD[STACK[p, k, 0], STACK[p, k, 1]] = 0
    _mark_bankrupt(Xp, p)
    if active_count(Xp) <= 1:
        end_game(Bp, Xp, REASON_BANKRUPTCY)
        return
    if B[7][R_AUCTIONS] == 0:
        return  # the lots stay with the bank
    lander = first_active(Xp, (p + 1) % PL.shape[0])
    for i in range(npr):
        if X[4][OVER]:
            return
        auction(Bp, Xp, props[i], lander)


@jit_inline
def _pay_bank(Bp, Xp, key, p, amount, pot):
    """:meth:`Game._pay` to the bank (``None``); with ``pot`` the payment goes to the
    Free Parking pot (the caller knows its reason, ``engine.rules.game.POT_REASONS``)."""
    X = _unpin(Xp)
    if amount <= 0:
        return True
    PL = X[0]
    if PL[p, CASH] < amount:
        raise_cash(Bp, Xp, p, amount)
    if PL[p, CASH] >= amount:
        PL[p, CASH] -= amount
        if pot:
            X[4][POT] += amount
        else:
            to_bank(Xp, amount)
        return True
    X[8][S_CREDS, 0] = -1
    X[8][S_AMOUNTS, 0] = amount
    bankrupt_multi(Bp, Xp, key, p, 1)
    return False


@jit
def pay_bank(Bp, Xp, key, p, amount):
    """A payment to the bank that never feeds the pot (interest, lifting a mortgage)."""
    return _pay_bank(Bp, Xp, key, p, amount, False)


@jit
def pay_fee(Bp, Xp, key, p, amount, pot):
    """A tax, fine, card or repair payment: to the pot when ``pot``, else to the bank.

    (Two entry points rather than one with a constant ``False`` argument: numba
    compiles a literal argument into a separate version, which was measured
    slower at the callers.)"""
    return _pay_bank(Bp, Xp, key, p, amount, pot)


@jit_inline
def _has_buildings(Bp, Xp, c, g):
    """Whether ``c`` has a building on a lot of group ``g``."""
    B, X = _unpin(Bp), _unpin(Xp)
    SQ, OWN, HOU = B[0], X[1], X[2]
    for o in range(OWN.shape[0]):
        if SQ[o, GROUP] == g and OWN[o] == c and HOU[o] > 0:
            return True
    return False


@jit
def bankrupt_single(Bp, Xp, key, p, c):
    """Bankrupt to one player ``c``: everything passes to it; it pays interest on mortgaged lots."""
    B, X = _unpin(Bp), _unpin(Xp)
    SQ = B[0]
    PL, MOR, STACK = X[0], X[3], X[7]
    props = X[8][S_PROPS_SINGLE]
    npr = _bankrupt_common(Bp, Xp, p, props)
    PL[c, CASH] += PL[p, CASH]
    PL[p, CASH] = 0
    for i in range(npr):
        set_owner(Bp, Xp, props[i], c)
    acquired(Bp, Xp, c, props, npr)
    base = PL[c, JC]
    for k in range(PL[p, JC]):
        STACK[c, base + k, 0] = STACK[p, k, 0]
        STACK[c, base + k, 1] = STACK[p, k, 1]
    PL[c, JC] += PL[p, JC]
    _mark_bankrupt(Xp, p)
    OWN = X[1]
    if active_count(Xp) <= 1:
        # Game._settle_forced_lifts: the winner lifts mortgaged lots of its built groups (no interest)
        for i in range(npr):
            sq = props[i]
            if not (MOR[sq] and OWN[sq] == c and _has_buildings(Bp, Xp, c, SQ[sq, GROUP])):
                continue
            if liquidation_value(Bp, Xp, c) >= SQ[sq, MVAL] and pay_bank(Bp, Xp, key, c, SQ[sq, MVAL]):
                MOR[sq] = 0
                lifted(Bp, Xp, sq)
        end_game(Bp, Xp, REASON_BANKRUPTCY)
        return
    for i in range(npr):
        sq = props[i]
        # interest only on a mortgaged lot (the policy never lifts on receipt) ...
        if MOR[sq] and not pay_bank(Bp, Xp, key, c, SQ[sq, INTEREST]):
            return
        # ... unless c has buildings in its group (set sizes): then it must lift it (Game._receive_mortgaged)
        if MOR[sq] and OWN[sq] == c and _has_buildings(Bp, Xp, c, SQ[sq, GROUP]):
            if not pay_bank(Bp, Xp, key, c, SQ[sq, MVAL]):
                return
            MOR[sq] = 0
            lifted(Bp, Xp, sq)


@jit
def pay(Bp, Xp, key, p, amount, creditor):
    """:meth:`Game._pay`; ``creditor`` -1 is the bank. Returns whether it paid."""
    X = _unpin(Xp)
    if creditor < 0:
        return pay_bank(Bp, Xp, key, p, amount)
    if amount <= 0:
        return True
    PL = X[0]
    if PL[p, CASH] < amount:
        raise_cash(Bp, Xp, p, amount)
    if PL[p, CASH] >= amount:
        PL[p, CASH] -= amount
        PL[creditor, CASH] += amount
        return True
    bankrupt_single(Bp, Xp, key, p, creditor)
    return False


@jit
def pay_each(Bp, Xp, key, p, each):
    """:meth:`Game._pay_each` to every other active player."""
    X = _unpin(Xp)
    PL = X[0]
    creds, amounts = X[8][S_CREDS], X[8][S_AMOUNTS]
    m = 0
    for q in range(PL.shape[0]):
        if q != p and PL[q, BK] == 0:
            creds[m] = q
            amounts[m] = each
            m += 1
    if m == 0 or each <= 0:
        return True
    total = each * m
    if PL[p, CASH] < total:
        raise_cash(Bp, Xp, p, total)
    if PL[p, CASH] >= total:
        for i in range(m):
            PL[p, CASH] -= each
            PL[creds[i], CASH] += each
        return True
    if m == 1:
        bankrupt_single(Bp, Xp, key, p, creds[0])
    else:
        bankrupt_multi(Bp, Xp, key, p, m)
    return False


# ---------------------------------------------------------------------------
# buying and auctions
# ---------------------------------------------------------------------------
@jit
def auction(Bp, Xp, sq, lander):
    """Second-price auction; each bidder's maximum is ``min(price, cash - buy_reserve)``."""
    B, X = _unpin(Bp), _unpin(Xp)
    SQ, POL = B[0], B[9]
    PL = X[0]
    top = 0
    second = 0
    winner = -1
    price = SQ[sq, PRICE]
    n = PL.shape[0]
    for k in range(n):
        q = (lander + k) % n
        if PL[q, BK]:
            continue
        m = min(price, PL[q, CASH] - POL[q, P_BUY])
        m = min(max(0, m), PL[q, CASH])
        if m < 1:
            continue
        if m > top:
            second = top
            top = m
            winner = q
        elif m > second:
            second = m
    if winner < 0:
        return
    cost = min(top, second + 1)
    PL[winner, CASH] -= cost
    to_bank(Xp, cost)
    set_owner(Bp, Xp, sq, winner)
    even_out(Bp, Xp, winner, SQ[sq, GROUP])


@jit
def offer(Bp, Xp, p, sq):
    """:meth:`Game._offer`: bought, auctioned, or (auctions off) declined: it stays with the bank."""
    B, X = _unpin(Bp), _unpin(Xp)
    SQ, R, POL = B[0], B[7], B[9]
    PL = X[0]
    price = SQ[sq, PRICE]
    if R[R_AUCONLY] == 0 and PL[p, CASH] >= price and PL[p, CASH] - price >= POL[p, P_BUY]:
        PL[p, CASH] -= price
        to_bank(Xp, price)
        set_owner(Bp, Xp, sq, p)
        even_out(Bp, Xp, p, SQ[sq, GROUP])
    elif R[R_AUCTIONS]:
        auction(Bp, Xp, sq, p)


# ---------------------------------------------------------------------------
# the policy's act phase
# ---------------------------------------------------------------------------
@jit_inline
def _scan(Bp, Xp, p, monos):
    """One pass over ``p``'s groups for the first two steps of the act phase.

    Build targets (:mod:`engine.sim.rollout_policy`: a lot where a building would
    be legal but for the cash, below ``max_level``): the one to build now (the
    lowest level, then the highest square, among those ``p`` can pay keeping
    ``build_reserve``; -1: none), the lowest cash threshold of the others and
    the cheapest target's cost (``NEVER``: no target). Mortgages to lift, in
    the groups ``p`` holds completely (``_in``) and in the others (``_out``):
    the one to lift now (the lowest square ``p`` can pay keeping
    ``unmortgage_reserve``; -1: none) and the lowest cash threshold of the
    others; :func:`_act_phase` chooses between them. With ``monos`` only the
    groups ``p`` holds completely are visited (``lift_out`` -1, ``need_out``
    ``NEVER``): what a scan needs right after a build (see :func:`_act_phase`);
    so too when ``p`` mortgages to build and has a build target, which holds
    the lifts outside the sets back.
    The build targets, before the bank's supply is asked, are listed in
    ``SCR[S_TARGETS]`` for :func:`_retarget`. Returns ``(lift_in, lift_out,
    need_in, need_out, build, need_build, cheapest, n)``, ``n`` the targets listed."""
    B, X = _unpin(Bp), _unpin(Xp)
    SQ, GL, GI, POL = B[0], B[1], B[2], B[9]
    PL, OWN, HOU, MOR = X[0], X[1], X[2], X[3]
    targets = X[8][S_TARGETS]
    nt = 0
    cash = PL[p, CASH]
    breserve = POL[p, P_BUILD]
    ureserve = POL[p, P_UNMORT]
    build = -1
    bl = 0
    hb = -1
    tb = -1
    need_build = NEVER
    cheapest = NEVER
    lift_in = -1
    lift_out = -1
    need_in = NEVER
    need_out = NEVER
    W = _words(GI)
    full, mort = _mask(GI, FULL), _mask(GI, MORT)
    for w in range(2 * W):
        # Only the sets (build targets, lifts inside them) and the other groups with
        # a mortgage of p's (lifts outside the sets) can give a result: the sets
        # first, then the others unless only the sets are asked for or a build
        # target holds the lifts outside them back (mortgage_to_build), when
        # lift_out and need_out are not read (see _act_phase).
        mono = w < W
        if mono:
            m = PL[p, full + w]
        else:
            if monos or (POL[p, P_MTB] != 0 and cheapest < NEVER):
                break
            m = PL[p, mort + w - W] & ~PL[p, full + w - W]
        base = (w if mono else w - W) << 5
        while m:
            g = base + _low_bit(m)
            m &= m - 1
            low = 99
            bad = False
            for k in range(GI[g, G_N]):
                s = GL[g, k]
                if OWN[s] != p:
                    continue
                if MOR[s]:
                    bad = True
                    cost = SQ[s, UNMORT]
                    if cash < cost or cash - cost < ureserve:
                        if mono:
                            need_in = min(need_in, cost + ureserve)
                        else:
                            need_out = min(need_out, cost + ureserve)
                    elif mono:
                        if lift_in < 0 or s < lift_in:
                            lift_in = s
                    elif lift_out < 0 or s < lift_out:
                        lift_out = s
                low = min(low, HOU[s])
            if not mono or bad or GI[g, G_STREET] == 0 or low >= HOTEL or low >= POL[p, P_MAXLVL]:
                continue
            for k in range(GI[g, G_N]):
                s = GL[g, k]
                if OWN[s] != p or HOU[s] != low:
                    continue
                targets[nt] = s
                nt += 1
                cost = SQ[s, HCOST]
                if low == HOTEL - 1:
                    if tb < 0:
                        tb = hotels_in_bank(Bp, Xp)
                    if tb < 1:
                        continue
                else:
                    if hb < 0:
                        hb = houses_in_bank(Bp, Xp)
                    if hb < 1:
                        continue
                build, bl, need_build, cheapest = _consider(cash, breserve, s, low, cost, build, bl, need_build, cheapest)
    return lift_in, lift_out, need_in, need_out, build, need_build, cheapest, nt


@jit_inline
def _consider(cash, breserve, s, low, cost, build, bl, need_build, cheapest):
    """Build target ``s`` (at level ``low``, a building costing ``cost``) against the best
    so far (``build`` at level ``bl``; -1: none), the lowest cash threshold of the
    targets out of reach and the cheapest target's cost: the lowest level, then the
    highest square, among those ``p`` can pay keeping ``build_reserve``. Returns the
    four updated."""
    cheapest = min(cheapest, cost)
    if cash < cost or cash - cost < breserve:
        return build, bl, min(need_build, cost + breserve), cheapest
    if build < 0 or low < bl or (low == bl and s > build):
        return s, low, need_build, cheapest
    return build, bl, need_build, cheapest


@jit_inline
def _retarget(Bp, Xp, p, b, nt):
    """The build targets of ``SCR[S_TARGETS][:nt]`` (see :func:`_scan`) after a build on
    ``b``: its group's are listed afresh (the only levels that changed). Returns their
    number. The build targets of a set are ``p``'s lots at the set's lowest level
    when the set has no mortgage (it had none: ``b`` was a target) and that level is
    below a hotel and ``max_level``."""
    B, X = _unpin(Bp), _unpin(Xp)
    SQ, GL, GI, POL = B[0], B[1], B[2], B[9]
    OWN, HOU = X[1], X[2]
    targets = X[8][S_TARGETS]
    g = SQ[b, GROUP]
    n = 0
    for i in range(nt):
        if SQ[targets[i], GROUP] != g:
            targets[n] = targets[i]
            n += 1
    low = 99
    for k in range(GI[g, G_N]):
        s = GL[g, k]
        if OWN[s] == p:
            low = min(low, HOU[s])
    if low >= HOTEL or low >= POL[p, P_MAXLVL]:
        return n
    for k in range(GI[g, G_N]):
        s = GL[g, k]
        if OWN[s] == p and HOU[s] == low:
            targets[n] = s
            n += 1
    return n


@jit_inline
def _pick(Bp, Xp, p, nt):
    """The build step of :func:`_scan` over the listed targets ``SCR[S_TARGETS][:nt]``:
    ``(build, need_build, cheapest)``."""
    B, X = _unpin(Bp), _unpin(Xp)
    SQ, POL = B[0], B[9]
    PL, HOU = X[0], X[2]
    targets = X[8][S_TARGETS]
    cash = PL[p, CASH]
    breserve = POL[p, P_BUILD]
    hb = houses_in_bank(Bp, Xp)
    tb = hotels_in_bank(Bp, Xp)
    build = -1
    bl = 0
    need_build = NEVER
    cheapest = NEVER
    for i in range(nt):
        s = targets[i]
        low = HOU[s]
        if (tb if low == HOTEL - 1 else hb) < 1:
            continue
        build, bl, need_build, cheapest = _consider(cash, breserve, s, low, SQ[s, HCOST], build, bl, need_build, cheapest)
    return build, need_build, cheapest


@jit_inline
def _choose_spare(Bp, Xp, p):
    """``p``'s spare lot to mortgage (unmortgaged, of a group it does not hold
    completely and without buildings; the lowest price, then the lowest square;
    -1: none) and the mortgage values of all its spare lots."""
    B, X = _unpin(Bp), _unpin(Xp)
    SQ, GL, GI = B[0], B[1], B[2]
    PL, OWN, MOR = X[0], X[1], X[3]
    best = -1
    bp = 0
    total = 0
    free, full = _mask(GI, FREE), _mask(GI, FULL)
    for w in range(full - _mask(GI, HAS)):
        m = PL[p, free + w] & ~PL[p, full + w]  # groups p owns an unmortgaged lot of but not all
        while m:
            g = (w << 5) + _low_bit(m)
            m &= m - 1
            if group_has_buildings(Bp, Xp, g):
                continue
            for k in range(GI[g, G_N]):
                sq = GL[g, k]
                if OWN[sq] != p or MOR[sq]:
                    continue
                total += SQ[sq, MVAL]
                pr = SQ[sq, PRICE]
                if best < 0 or pr < bp or (pr == bp and sq < best):
                    best = sq
                    bp = pr
    return best, total


@jit
def _one_short(Bp, Xp, p, g):
    """``p`` owns a lot of street group ``g``, one fewer than the set size, and ``g`` has no buildings."""
    B = _unpin(Bp)
    GI = B[2]
    if GI[g, G_STREET] == 0:
        return False
    n = count_in_group(Bp, Xp, p, g)
    return n >= 1 and n == GI[g, G_NEED] - 1 and not group_has_buildings(Bp, Xp, g)


@jit
def _lot_for_sale(Bp, Xp, q, g):
    """``q``'s first unmortgaged lot of ``g`` when it does not hold ``g`` completely (-1: none)."""
    B, X = _unpin(Bp), _unpin(Xp)
    GL, GI = B[1], B[2]
    OWN, MOR = X[1], X[3]
    if has_mono(Bp, Xp, q, g):
        return -1
    for k in range(GI[g, G_N]):
        s = GL[g, k]
        if OWN[s] == q and MOR[s] == 0:
            return s
    return -1


@jit_inline
def _n_opp(Bp, Xp):
    """The seats still in the game less one, at least 1 (``n`` of :mod:`engine.sim.rollout_values`)."""
    B, X = _unpin(Bp), _unpin(Xp)
    n = B[7][R_NPL] - X[4][NBK] - 1
    return n if n > 1 else 1


@jit_inline
def _lot_value(Bp, Xp, t, kind, n):
    """:func:`engine.sim.rollout_values.lot_value` of lot ``t`` with stream ``VT[t, kind, n]``."""
    B, X = _unpin(Bp), _unpin(Xp)
    SQ, VT = B[0], B[10]
    stream = VT[t, kind, n]
    if X[3][t]:
        v = stream - SQ[t, UNMORT]
        return v if v > 0 else 0
    return stream + SQ[t, MVAL]


@jit
def _completion_gain(Bp, Xp, p, s, n):
    """``p``'s static gain from receiving ``s`` (unmortgaged), which completes its group:
    ``s``'s value in the set plus, for each of ``p``'s lots of the group, its value in the set
    less its value outside it (:func:`engine.sim.rollout_policy.completion_gain`)."""
    B, X = _unpin(Bp), _unpin(Xp)
    SQ, GL, GI, VT = B[0], B[1], B[2], B[10]
    OWN = X[1]
    g = SQ[s, GROUP]
    gain = VT[s, V_MONO, n] + SQ[s, MVAL]
    for k in range(GI[g, G_N]):
        t = GL[g, k]
        if t != s and OWN[t] == p:
            gain += _lot_value(Bp, Xp, t, V_MONO, n) - _lot_value(Bp, Xp, t, V_LONE, n)
    return gain


@jit_inline
def _half_up(x):
    """:func:`engine.sim.rollout_values.half_up`."""
    return (x + 1) // 2 if x >= 0 else -((-x + 1) // 2)


@jit_inline
def _trade(Bp, Xp, p):
    """``p``'s proposal (:mod:`engine.sim.rollout_policy`, rules (a) then (b)), carried
    out: the other side's acceptance is a known rule that the proposal meets.
    Returns whether a trade was made and, when not, the lowest cash at which a
    purchase would be. One pass: the purchases are met in the order that rule
    (b) scans them, so the first affordable one is kept until no swap is found.
    A seat that waits and declines (``P_WAITDECL``, :func:`engine.sim.rollout_policy.waiting`)
    is asked nothing; the phase is then never skipped by the cache (``need`` 0),
    since the seat may accept once its wait is over. A seat that refuses ``p``'s trades in
    this game (``MOOD``, :func:`draw_moods`) is asked nothing either, for the whole game."""
    B, X = _unpin(Bp), _unpin(Xp)
    SQ, GI, POL = B[0], B[2], B[9]
    PL = X[0]
    P = PL.shape[0]
    W = _words(GI)
    short = _mask(GI, SHORT)
    need = NEVER
    buy = -1
    seller = -1
    price = 0
    for w in range(W):
        mp = PL[p, short + w]
        while mp:
            g = (w << 5) + _low_bit(mp)
            mp &= mp - 1
            if group_has_buildings(Bp, Xp, g):
                continue
            for q in range(P):
                if q == p or PL[q, BK] or POL[q, P_TRADE] == 0 or PL[q, CNT0 + g] == 0 or (PL[p, MOOD] >> q) & 1 == 0:
                    continue
                if POL[q, P_WAITDECL] and PL[q, TURN_NO] < POL[q, P_WAIT]:
                    need = 0  # q waits and declines: no skip cache (it may accept later)
                    continue
                s = _lot_for_sale(Bp, Xp, q, g)
                if s < 0:
                    continue
                for v in range(W):
                    mq = PL[q, short + v]
                    while mq:
                        h = (v << 5) + _low_bit(mq)
                        mq &= mq - 1
                        if h == g or group_has_buildings(Bp, Xp, h):
                            continue
                        t = _lot_for_sale(Bp, Xp, p, h)
                        if t < 0:
                            continue
                        if POL[q, P_VALUE]:
                            # the split of the static surplus, if the payer keeps its reserve
                            n = _n_opp(Bp, Xp)
                            gp = _completion_gain(Bp, Xp, p, s, n) - _lot_value(Bp, Xp, t, V_LONE, n)
                            gq = _completion_gain(Bp, Xp, q, t, n) - _lot_value(Bp, Xp, s, V_LONE, n)
                            c = _half_up(gp - gq)  # p -> q
                            if (c > 0 and PL[p, CASH] - c < POL[p, P_BUILD]) or (c < 0 and PL[q, CASH] + c < POL[q, P_BUILD]):
                                need = 0  # the payer's cash and lots decide: no skip cache
                                continue
                            PL[p, CASH] -= c
                            PL[q, CASH] += c
                        else:
                            diff = GI[g, G_PRICE] - GI[h, G_PRICE]
                            if diff > 0:
                                c = min(diff // 2, max(0, PL[p, CASH] - POL[p, P_BUILD]))
                                PL[p, CASH] -= c
                                PL[q, CASH] += c
                            else:
                                c = min((-diff) // 2, max(0, PL[q, CASH] - POL[q, P_BUILD]))
                                PL[q, CASH] -= c
                                PL[p, CASH] += c
                        set_owner(Bp, Xp, s, p)
                        set_owner(Bp, Xp, t, q)
                        return True, NEVER
                if buy < 0:
                    if POL[q, P_VALUE]:
                        n = _n_opp(Bp, Xp)
                        offer = _half_up(_completion_gain(Bp, Xp, p, s, n) + _lot_value(Bp, Xp, s, V_LONE, n))
                    else:
                        offer = SQ[s, PRICE] * (100 + POL[q, P_PREMIUM]) // 100
                    if PL[p, CASH] - offer >= POL[p, P_BUILD]:
                        buy = s
                        seller = q
                        price = offer
                    else:  # a value price moves only with p's own lots and the seats in (VER)
                        need = min(need, offer + POL[p, P_BUILD])
    if buy >= 0:
        PL[p, CASH] -= price
        PL[seller, CASH] += price
        set_owner(Bp, Xp, buy, p)
        return True, NEVER
    return False, need


@jit_inline
def act(Bp, Xp, p):
    """:meth:`Game._act` with the policy: lift, build, mortgage to build, trade, one action at a time.

    Skipped when a phase of ``p`` found nothing at the same board version
    with at least as much cash (see ``VER``), and until the seat has begun
    ``wait_turns`` turns (``P_WAIT`` against ``TURN_NO``)."""
    B, X = _unpin(Bp), _unpin(Xp)
    PL, M = X[0], X[4]
    if M[OVER] or PL[p, BK] or PL[p, TURN_NO] < B[9][p, P_WAIT]:
        return
    if PL[p, SKIP_VER] == PL[p, VER] and PL[p, CASH] < PL[p, SKIP_NEED]:
        return
    _act_phase(Bp, Xp, p)


@jit
def _act_phase(Bp, Xp, p):
    """The act phase of :func:`act`: one action at a time, each chosen by a fresh :func:`_scan`.

    After a build the next scan visits only the groups ``p`` holds completely
    (``monos``), with the same result as a full one. A build changes nothing in
    the other groups (no lot changes hands or is mortgaged or lifted) and only
    lowers the cash, so a lift outside the sets that was out of reach stays
    so, and ``need_out`` stays that of the last full scan; a lift there that
    was in reach but held back by the build targets (``mortgage_to_build``) is
    due only when no target is left, and then the scan is made in full. After
    a mortgage to build, too: it changes no build target (the spare lies
    outside the sets and has no buildings), so the targets hold the lifts
    outside the sets back and the scan's other results (``lift_out``,
    ``need_out``) are not read. The result is checked by the differential test
    against :class:`Game`."""
    B, X = _unpin(Bp), _unpin(Xp)
    SQ, POL = B[0], B[9]
    PL, HOU, MOR = X[0], X[2], X[3]
    mtb = POL[p, P_MTB] != 0
    traded = False  # at most one proposal per phase
    monos = False  # the last action was a build or a mortgage to build: scan only the sets
    need_out_full = NEVER  # need_out of the last full scan
    built = -1  # the last action was a build on this square
    nt = 0
    need_in = NEVER
    scans = 0
    while scans < MAX_ACTIONS:
        if built >= 0:
            # the scan after a build, from the last scan's targets: the lifts in the
            # sets stay out of reach with less cash (need_in stays), the others are
            # as after a build (monos)
            nt = _retarget(Bp, Xp, p, built, nt)
            build, need_build, cheapest = _pick(Bp, Xp, p, nt)
            lift_in = -1
            lift_out = -1
            need_out = NEVER
        else:
            lift_in, lift_out, need_in, need_out, build, need_build, cheapest, nt = _scan(Bp, Xp, p, monos)
        built = -1
        if monos:
            if mtb and cheapest == NEVER:  # no build target left: lifts outside the sets may be due
                monos = False
                continue  # the full scan instead (not counted)
            need_out = need_out_full
        else:
            need_out_full = need_out
        scans += 1
        # Lifts: in the groups held completely first; in the others only when p has no
        # build target or does not mortgage to build.
        outside = not (mtb and cheapest < NEVER)
        sq = lift_in
        need_lift = need_in
        if outside:
            if sq < 0:
                sq = lift_out
            need_lift = min(need_lift, need_out)
        monos = False
        if sq >= 0:
            PL[p, CASH] -= SQ[sq, UNMORT]
            to_bank(Xp, SQ[sq, UNMORT])
            MOR[sq] = 0
            lifted(Bp, Xp, sq)
            continue
        if build >= 0:
            PL[p, CASH] -= SQ[build, HCOST]
            to_bank(Xp, SQ[build, HCOST])
            set_level(Bp, Xp, build, HOU[build] + 1)
            monos = True
            built = build
            continue
        need = min(need_lift, need_build)
        if mtb and cheapest < NEVER:
            spare, total = _choose_spare(Bp, Xp, p)
            if spare >= 0:
                if PL[p, CASH] + total - cheapest >= POL[p, P_BUILD]:
                    MOR[spare] = 1
                    _mark_mortgaged(Bp, Xp, p, SQ[spare, GROUP])
                    PL[p, CASH] += from_bank(Xp, SQ[spare, MVAL])
                    bump(Xp, p)
                    monos = True
                    continue
                need = min(need, cheapest + POL[p, P_BUILD] - total)
        if POL[p, P_TRADE] and not traded:
            made, need_trade = _trade(Bp, Xp, p)
            if made:
                traded = True
                continue
            need = min(need, need_trade)
        if traded:
            PL[p, SKIP_VER] = -1  # the next phase may propose again
        else:
            PL[p, SKIP_VER] = PL[p, VER]
            PL[p, SKIP_NEED] = need
        return


# ---------------------------------------------------------------------------
# movement, squares and cards
# ---------------------------------------------------------------------------
@jit_inline
def move(Bp, Xp, p, steps):
    """:meth:`Game._move`: the salary when passing Go forwards, twice on landing there
    under ``go_landing_bonus``; each payment from the bank as it can."""
    B, X = _unpin(Bp), _unpin(Xp)
    R = B[7]
    PL = X[0]
    n = R[R_SIZE]
    start = PL[p, POS]
    to = start + steps
    if to >= n or to < 0:  # a division only when the move wraps
        to %= n
    PL[p, POS] = to
    if steps > 0 and start + steps >= n:
        PL[p, CASH] += from_bank(Xp, R[R_SALARY])
        if to == 0 and R[R_GOBONUS]:
            PL[p, CASH] += from_bank(Xp, R[R_SALARY])


@jit_inline
def collect_pot(Bp, Xp, p):
    """:meth:`Game._collect_pot`: ``p`` takes the pot; the bank puts the seed back (what it can)."""
    B, X = _unpin(Bp), _unpin(Xp)
    M = X[4]
    if M[POT]:
        X[0][p, CASH] += M[POT]
        M[POT] = 0
    seed = B[7][R_SEED]
    b = M[BANK]
    if b >= 0:
        seed = min(seed, b)
        M[BANK] = b - seed
    M[POT] += seed


@jit_inline
def send_to_jail(Bp, Xp, p):
    B, X = _unpin(Bp), _unpin(Xp)
    PL, M = X[0], X[4]
    PL[p, POS] = B[7][R_JAILSQ]
    PL[p, INJ] = 1
    PL[p, JT] = 0
    M[DBL] = 0


@jit_inline
def rent(Bp, Xp, key, sq, total, deck, card):
    """:meth:`Game.rent`; ``deck, card`` name the card that moved the player (-1: none)."""
    B, X = _unpin(Bp), _unpin(Xp)
    SQ, RR, UM, CD = B[0], B[3], B[4], B[5]
    OWN, HOU, MOR = X[1], X[2], X[3]
    if MOR[sq]:
        return 0
    owner = OWN[sq]
    kind = SQ[sq, KIND]
    g = SQ[sq, GROUP]
    if kind == K_STREET:
        lv = HOU[sq]
        if lv:
            return SQ[sq, RENT0 + lv]
        return SQ[sq, RENT0] * (2 if has_mono(Bp, Xp, owner, g) else 1)
    count = count_in_group(Bp, Xp, owner, g)
    nearest = deck >= 0 and CD[deck, card, C_ACT] == A_NEAREST
    if kind == K_RAIL:
        mult = CD[deck, card, C_RMULT] if nearest else 1
        return RR[count - 1] * mult
    if nearest and CD[deck, card, C_DMULT]:
        t, _ = roll(Bp, Xp, key)
        return CD[deck, card, C_DMULT] * t
    return UM[count - 1] * total


@jit
def land(Bp, Xp, key, p, total):
    """:meth:`Game._land` and :meth:`Game._draw_card`, as a loop over card moves."""
    B, X = _unpin(Bp), _unpin(Xp)
    SQ, CD, R = B[0], B[5], B[7]
    PL, OWN, HOU, STACK, HELD = X[0], X[1], X[2], X[7], X[6]
    n = R[R_SIZE]
    deck = -1
    card = -1
    while True:
        pos = PL[p, POS]
        kind = SQ[pos, KIND]
        if kind == K_STREET or kind == K_RAIL or kind == K_UTIL:
            owner = OWN[pos]
            if owner < 0:
                offer(Bp, Xp, p, pos)
            elif owner != p:
                r = rent(Bp, Xp, key, pos, total, deck, card)
                if r:
                    pay(Bp, Xp, key, p, r, owner)
            return
        if kind == K_TAX:
            pay_fee(Bp, Xp, key, p, SQ[pos, TAX], R[R_POT] != POT_OFF)
            return
        if kind == K_GOTOJAIL:
            send_to_jail(Bp, Xp, p)
            return
        if kind == K_FREEPARK:
            if R[R_POT] != POT_OFF:
                collect_pot(Bp, Xp, p)
            return
        if kind != K_CHANCE and kind != K_CHEST:
            return
        deck = 0 if kind == K_CHANCE else 1
        card = draw(Bp, Xp, key, deck)
        a = CD[deck, card, C_ACT]
        if a == A_ADVANCE:
            steps = (CD[deck, card, C_SQUARE] - pos) % n
            move(Bp, Xp, p, steps if steps else n)
            continue
        if a == A_NEAREST:
            want = CD[deck, card, C_KIND]
            steps = 1
            while SQ[(pos + steps) % n, KIND] != want:
                steps += 1
            move(Bp, Xp, p, steps)
            continue
        if a == A_MOVE:
            move(Bp, Xp, p, CD[deck, card, C_STEPS])
            continue
        if a == A_JAIL:
            send_to_jail(Bp, Xp, p)
        elif a == A_JAILFREE:
            HELD[deck, card] = 1
            k = PL[p, JC]
            STACK[p, k, 0] = deck
            STACK[p, k, 1] = card
            PL[p, JC] = k + 1
        elif a == A_REPAIRS:
            nh = 0
            nt = 0
            for sq in range(OWN.shape[0]):
                if OWN[sq] == p:
                    if HOU[sq] == HOTEL:
                        nt += 1
                    else:
                        nh += HOU[sq]
            pay_fee(Bp, Xp, key, p, nh * CD[deck, card, C_HOUSE] + nt * CD[deck, card, C_HOTEL], R[R_POT] == POT_BANK)
        elif a == A_CASH:
            amt = CD[deck, card, C_AMOUNT]
            if amt >= 0:
                PL[p, CASH] += from_bank(Xp, amt)
            else:
                pay_fee(Bp, Xp, key, p, -amt, R[R_POT] == POT_BANK)
        elif a == A_EACH:
            amt = CD[deck, card, C_AMOUNT]
            if amt < 0:
                pay_each(Bp, Xp, key, p, -amt)
            else:
                for q in range(PL.shape[0]):
                    if q == p or PL[q, BK]:
                        continue
                    if X[4][OVER] or PL[p, BK]:
                        break
                    if not PL[q, BK]:
                        pay(Bp, Xp, key, q, amt, p)
        return


# ---------------------------------------------------------------------------
# turns
# ---------------------------------------------------------------------------
@jit
def after_roll(Bp, Xp, p):
    X = _unpin(Xp)
    PL, M = X[0], X[4]
    if PL[p, BK] or M[OVER]:
        return False
    if PL[p, INJ]:
        M[DBL] = 0
    act(Bp, Xp, p)
    return M[DBL] > 0 and not PL[p, INJ] and not PL[p, BK]


@jit
def roll_and_move(Bp, Xp, key, p):
    """One ordinary roll; returns whether the player rolls again."""
    B, X = _unpin(Bp), _unpin(Xp)
    R = B[7]
    M = X[4]
    total, doubles = roll(Bp, Xp, key)
    M[PHASE] = 1
    if doubles:
        run = 1
        if R[R_DBLAGAIN]:
            M[DBL] += 1
            run = M[DBL]
        if R[R_DBLJAIL] and run >= R[R_DBLJAIL]:
            send_to_jail(Bp, Xp, p)
            act(Bp, Xp, p)
            return False
    else:
        M[DBL] = 0
    move(Bp, Xp, p, total)
    land(Bp, Xp, key, p, total)
    return after_roll(Bp, Xp, p)


@jit_inline
def _leave_jail(Xp, p):
    X = _unpin(Xp)
    PL = X[0]
    PL[p, INJ] = 0
    PL[p, JT] = 0


@jit_inline
def stay_in_jail(Bp, Xp, p, last):
    """:meth:`Game._stay_in_jail`: no move; one more jail turn, or after the last one
    (``jail_release="free"``) out, free. Returns ``False``."""
    X = _unpin(Xp)
    PL = X[0]
    if last:
        _leave_jail(Xp, p)
    else:
        PL[p, JT] += 1
    act(Bp, Xp, p)
    return False


@jit
def jail_turn(Bp, Xp, key, p):
    """:meth:`Game._jail_turn` with the policy's choice (card, pay when it may, else roll)."""
    B, X = _unpin(Bp), _unpin(Xp)
    R, POL = B[7], B[9]
    PL, M, HELD, STACK = X[0], X[4], X[6], X[7]
    fine = R[R_FINE]
    if PL[p, JC] > 0:
        k = PL[p, JC] - 1
        HELD[STACK[p, k, 0], STACK[p, k, 1]] = 0
        PL[p, JC] = k
        _leave_jail(Xp, p)
        return roll_and_move(Bp, Xp, key, p)
    if POL[p, P_JAILPAY] and PL[p, CASH] >= fine:
        pay_fee(Bp, Xp, key, p, fine, R[R_POT] == POT_BANK)
        _leave_jail(Xp, p)
        return roll_and_move(Bp, Xp, key, p)
    last = PL[p, JT] + 1 >= R[R_JAILROLLS]
    pay_last = last and R[R_JAILFREE] == 0
    M[PHASE] = 1
    M[DBL] = 0
    if R[R_JAILDBL] == 0 and not pay_last:
        return stay_in_jail(Bp, Xp, p, last)  # nothing to roll for
    total, doubles = roll(Bp, Xp, key)
    if doubles and R[R_JAILDBL]:
        _leave_jail(Xp, p)
    else:
        if not pay_last:
            return stay_in_jail(Bp, Xp, p, last)
        if not pay_fee(Bp, Xp, key, p, fine, R[R_POT] == POT_BANK):
            return False
        _leave_jail(Xp, p)
    move(Bp, Xp, p, total)
    land(Bp, Xp, key, p, total)
    after_roll(Bp, Xp, p)
    return False


@jit_inline
def check_end(Bp, Xp):
    """:meth:`Game._check_end` (between turns): the cash target, the rules' round limit,
    the host's round cap (the horizon)."""
    B, X = _unpin(Bp), _unpin(Xp)
    R = B[7]
    PL, M = X[0], X[4]
    target = R[R_TARGET]
    if target > 0:
        for q in range(PL.shape[0]):
            if PL[q, BK] == 0 and PL[q, CASH] >= target:
                end_game(Bp, Xp, REASON_TARGET)
                return
    if R[R_RLIMIT] > 0 and M[ROUND] >= R[R_RLIMIT]:
        end_game(Bp, Xp, REASON_LIMIT)
    elif M[ROUND] >= M[MAXR]:
        end_game(Bp, Xp, REASON_CAP)


@jit_inline
def next_turn(Bp, Xp, p):
    X = _unpin(Xp)
    PL, M = X[0], X[4]
    M[PHASE] = 0
    M[DBL] = 0
    n = PL.shape[0]
    nxt = p
    for k in range(1, n + 1):
        q = p + k  # (p + k) % n
        if q >= n:
            q -= n
        if PL[q, BK] == 0:
            nxt = q
            break
    if nxt <= p:
        M[ROUND] += 1
    M[TO_MOVE] = nxt
    check_end(Bp, Xp)


@jit_inline
def _record_roll(Xp, rec):
    """Trace only: the doubles counter after one roll of the turn and its consequences."""
    X = _unpin(Xp)
    n = rec[0]
    if n < TRACE_ROLLS:
        rec[1 + n] = X[4][DBL]
    rec[0] = n + 1


@jit
def play_turn(Bp, Xp, key, rec):
    """:meth:`Game.play_turn`.

    ``rec`` is ``None`` except in a trace (:func:`run_batch`): numba compiles
    the ``None`` version without the recording branches. In a trace, ``rec[0]``
    counts the rolls of the turn (a jail turn counts as one, with the roll it
    may lead to) and ``rec[1 + i]`` is the doubles counter after roll ``i``."""
    X = _unpin(Xp)
    PL, M = X[0], X[4]
    if M[OVER]:
        return
    p = M[TO_MOVE]
    M[TURNS] += 1
    PL[p, TURN_NO] += 1  # CounterStream.begin_turn
    M[IN_TURN] = 0
    if M[PHASE] == 0:
        n = PL.shape[0]
        for k in range(n):
            q = p + k  # (p + k) % n
            if q >= n:
                q -= n
            if PL[q, BK] == 0:
                act(Bp, Xp, q)
        M[DBL] = 0
        if PL[p, INJ]:
            again = jail_turn(Bp, Xp, key, p)
        else:
            again = roll_and_move(Bp, Xp, key, p)
        if rec is not None:
            _record_roll(Xp, rec)
    else:
        act(Bp, Xp, p)
        again = M[DBL] > 0 and not PL[p, INJ]
    while again and not M[OVER] and not PL[p, BK]:
        again = roll_and_move(Bp, Xp, key, p)
        if rec is not None:
            _record_roll(Xp, rec)
    if not M[OVER]:
        next_turn(Bp, Xp, p)


@jit
def start_game(Bp, Xp):
    """:class:`Game`'s constructor checks: one player left, or (at the start of a turn)
    :func:`check_end`."""
    X = _unpin(Xp)
    M = X[4]
    if active_count(Xp) <= 1:
        end_game(Bp, Xp, REASON_BANKRUPTCY)
    elif M[PHASE] == 0:
        check_end(Bp, Xp)


@jit
def snapshot(Bp, Xp, row):
    """Trace only: the state after a turn, from ``row[TRACE_STATE]`` on (the
    layout of :class:`engine.sim.trace.TraceLayout`).

    Game: to move, round, phase, doubles counter, dice thrown, over flag,
    winner and end reason (-1 while the game runs), the Free Parking pot and
    the bank's cash (-1: unlimited). Per player: cash,
    position, in-jail flag, bankrupt flag, jail turns, jail cards held, net
    worth, then the held Get Out of Jail Free cards as (deck, card) pairs in
    the order received (the last is used first; -1 padding). Owner, level and
    mortgage flag per square. Per deck: shuffles so far, cards left before the
    next shuffle, with-replacement draws so far, those cards in draw order (-1
    padding), held flag per card.
    """
    X = _unpin(Xp)
    PL, OWN, HOU, MOR, M, PILE, HELD, STACK = X[0], X[1], X[2], X[3], X[4], X[5], X[6], X[7]
    P = PL.shape[0]
    S = OWN.shape[0]
    H = STACK.shape[1]
    W = PILE.shape[1]
    o = TRACE_STATE
    over = M[OVER]
    row[o] = M[TO_MOVE]
    row[o + 1] = M[ROUND]
    row[o + 2] = M[PHASE]
    row[o + 3] = M[DBL]
    row[o + 4] = M[DICE_CTR]
    row[o + 5] = over
    row[o + 6] = M[WINNER] if over else -1
    row[o + 7] = M[REASON] if over else -1
    row[o + 8] = M[POT]
    row[o + 9] = M[BANK]
    o += TRACE_GAME
    for q in range(P):
        row[o] = PL[q, CASH]
        row[o + 1] = PL[q, POS]
        row[o + 2] = PL[q, INJ]
        row[o + 3] = PL[q, BK]
        row[o + 4] = PL[q, JT]
        row[o + 5] = PL[q, JC]
        row[o + 6] = net_worth(Bp, Xp, q)
        o += TRACE_PLAYER
        for k in range(H):
            held = k < PL[q, JC]
            row[o + 2 * k] = STACK[q, k, 0] if held else -1
            row[o + 2 * k + 1] = STACK[q, k, 1] if held else -1
        o += 2 * H
    for sq in range(S):
        row[o + sq] = OWN[sq]
        row[o + S + sq] = HOU[sq]
        row[o + 2 * S + sq] = MOR[sq]
    o += 3 * S
    for d in range(2):
        lo = M[PTR0 + d]
        n = M[LEN0 + d] - lo
        row[o] = M[SHUF0 + d]
        row[o + 1] = n
        row[o + 2] = M[DRAW0 + d]
        o += TRACE_DECK
        for i in range(W):
            row[o + i] = PILE[d, lo + i] if i < n else -1
            row[o + W + i] = HELD[d, i]
        o += 2 * W


@jit
def _copy1(src, dst):
    for i in range(src.shape[0]):
        dst[i] = src[i]


@jit
def _copy2(src, dst):
    for i in range(src.shape[0]):
        for j in range(src.shape[1]):
            dst[i, j] = src[i, j]


@jit
def draw_moods(B, X, key):
    """Which seat accepts whose trades in the game keyed ``key``
    (:func:`engine.sim.rollout_policy.accepts_from`): ``q`` accepts ``p``'s when
    ``u(key, 5, (p << 8) | q) * 100 < P_ACCEPT`` of ``q`` (always at 100); bit ``q`` of
    ``PL[p, MOOD]``."""
    POL = B[9]
    PL = X[0]
    P = PL.shape[0]
    for p in range(P):
        mood = 0
        for q in range(P):
            if q != p and (POL[q, P_ACCEPT] >= 100 or uniform(key, 5, (p << 8) | q) * 100.0 < POL[q, P_ACCEPT]):
                mood |= 1 << q
        PL[p, MOOD] = mood


@jit_nogil
def run_batch(B, X0, X, keys, winners, worths, info, trace, final):
    """Play one game per key from the initial state ``X0``, in the work state ``X``.

    Fills ``winners[g]`` (-1: none), ``worths[g, p]`` (net worth at the end),
    ``info[g] = (turns, rounds, reason)`` and, when ``final`` has a row per game,
    the end state ``final[g] = (cash[P], bankrupt[P], owner[S], level[S],
    mortgaged[S])`` (what :mod:`engine.sim.win_model` scores a game cut at the
    horizon by). Row ``t`` of ``trace`` receives
    turn ``t`` of the first game: its rolls (:func:`play_turn`) and the state
    after it (:func:`snapshot`), for the differential test; every other turn
    (all of them when ``trace`` has no rows, as in :func:`engine.sim.rollout.simulate`)
    runs the version of :func:`play_turn` compiled without recording. (A
    ``trace=None`` version with a single untraced loop was measured 10-15%
    slower, apparently from different inlining.) Returns the number of
    player-turns played.
    """
    PL0, OWN0, HOU0, MOR0, M0, PILE0, HELD0, STACK0 = X0[0], X0[1], X0[2], X0[3], X0[4], X0[5], X0[6], X0[7]
    PL, OWN, HOU, MOR, M, PILE, HELD, STACK = X[0], X[1], X[2], X[3], X[4], X[5], X[6], X[7]
    total_turns = 0
    P = PL.shape[0]
    Bp, Xp = _pin(B), _pin(X)
    moody = False  # some seat refuses some proposers (P_ACCEPT below 100): draw per game
    for q in range(P):
        if B[9][q, P_ACCEPT] < 100:
            moody = True
    for g in range(keys.shape[0]):
        _copy2(PL0, PL)
        _copy1(OWN0, OWN)
        _copy1(HOU0, HOU)
        _copy1(MOR0, MOR)
        _copy1(M0, M)
        _copy2(PILE0, PILE)
        _copy2(HELD0, HELD)
        for i in range(STACK.shape[0]):
            _copy2(STACK0[i], STACK[i])
        key = keys[g]
        if moody:
            draw_moods(B, X, key)
        start_game(Bp, Xp)
        nt = 0
        while M[OVER] == 0:
            if g == 0 and nt < trace.shape[0]:
                row = trace[nt]
                row[0] = 0
                for i in range(TRACE_ROLLS):
                    row[1 + i] = -1
                play_turn(Bp, Xp, key, row)
                snapshot(Bp, Xp, row)
            else:
                play_turn(Bp, Xp, key, None)
            nt += 1
        total_turns += M[TURNS]
        winners[g] = M[WINNER]
        for q in range(P):
            worths[g, q] = net_worth(Bp, Xp, q)
        info[g, 0] = M[TURNS]
        if M[REASON] != REASON_BANKRUPTCY:
            info[g, 1] = M[ROUND]
        else:
            info[g, 1] = M[ROUND] + 1 if M[TURNS] else M[ROUND]
        info[g, 2] = M[REASON]
        if final.shape[0] > g:
            S = OWN.shape[0]
            for q in range(P):
                final[g, q] = PL[q, CASH]
                final[g, P + q] = PL[q, BK]
            for s in range(S):
                final[g, 2 * P + s] = OWN[s]
                final[g, 2 * P + S + s] = HOU[s]
                final[g, 2 * P + 2 * S + s] = MOR[s]
    return total_turns
